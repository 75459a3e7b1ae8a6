# The types a compiled engine gives measures.py (Cython's augmenting .pxd; core/state.pxd says why): the counts
# behind requirements, milestones, awards and X ranges, which the menu's checks ask at every turn, as C functions
# taking the game as a `Table`, calling each other and the passives' cache in C. (No generator expression or lambda
# in a function declared here: Cython 3.3 cannot compile one in a `cpdef` function; `_failing` holds one.)

cimport cython
from tharsis.runtime.core.table cimport Table
from tharsis.runtime.rules.passives cimport passive_cache


cpdef tags_of(Table game, player, playing=*)
cpdef count(Table game, measure, where)
cpdef tag_counts(Table game, player)

@cython.locals(states=list)
cpdef _cards_in_hand(Table game, measure, where, players)

cpdef quantity(Table game, q, where)
cpdef _split(Table game, q, where)
cpdef holds(Table game, condition, where, leeway=*)
cpdef failing(Table game, condition, where, leeway=*)
