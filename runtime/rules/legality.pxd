# The types a compiled engine gives legality.py (Cython's augmenting .pxd; core/state.pxd says why): the action
# menu as a C extension type, and the checks of each kind of action, which the bots and the turn's "anything but
# pass?" ask tens of thousands of times a game, as C functions taking the game as a `Table`, so that they read
# `game.state.players`, a player's hand or first action and the like from the structs, and call each other in C.
# A field added to `MenuDecision` must be declared here too. (A function declared here must not hold a generator
# expression or a lambda: Cython 3.3 cannot compile one in a `cpdef` function.)

cimport cython
from tharsis.runtime.core.decisions cimport LazyDecision
from tharsis.runtime.core.state cimport CardInPlay, GameData, PlayerState
from tharsis.runtime.core.table cimport Table
from tharsis.runtime.rules.checks cimport card_context, possible
from tharsis.runtime.rules.measures cimport failing
from tharsis.runtime.rules.passives cimport passive_cache
from tharsis.runtime.rules.prices cimport can_pay, card_cost, goal_price, money_power, standard_cost


cdef class MenuDecision(LazyDecision):
    cdef public object _game


cpdef card_action_options(Table game, player, name, only_repeatable=*)
cpdef award_cost(Table game, player=*)
cpdef milestone_cost(Table game, player)

@cython.locals(state=PlayerState)
cpdef standard_action_possible(Table game, player, definition)

cpdef _tax_on(Table game, player, effects)
cpdef _repeatable(definition)

@cython.locals(state=PlayerState, card=CardInPlay)
cpdef action_candidates(Table game, player)

cpdef _first_action_legal(Table game, player, action)
cpdef _project_legal(Table game, player, action)
cpdef project_usable(Table game, player, name)
cpdef _convert_legal(Table game, player, action)

@cython.locals(state=PlayerState)
cpdef _play_legal(Table game, player, action)

@cython.locals(state=PlayerState, card=CardInPlay)
cpdef _card_action_legal(Table game, player, action)

@cython.locals(claimed=list)
cpdef _milestone_legal(Table game, player, action)

@cython.locals(funded=list)
cpdef _award_legal(Table game, player, action)

@cython.locals(game=Table, state=GameData)
cpdef any_legal_action(MenuDecision menu)

cpdef paid_with(card)
