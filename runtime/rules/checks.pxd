# The types a compiled engine gives checks.py (Cython's augmenting .pxd; core/state.pxd says why): whether effects
# can be carried out, asked by the menu's checks of every card and project at every turn, as C functions taking the
# game as a `Table`, calling each other, the counts and the price checks in C. (No generator expression or lambda
# in a function declared here: Cython 3.3 cannot compile one in a `cpdef` function.)

cimport cython
from tharsis.runtime.core.table cimport Table
from tharsis.runtime.rules.measures cimport quantity
from tharsis.runtime.rules.prices cimport can_pay, can_spend


cpdef card_context(player, card, playing=*)
cpdef value_of(Table game, a, ctx)
cpdef possible(Table game, effects, ctx, paid=*)
cpdef _check_and_apply(Table game, effects, ctx, undo, apply_last=*)
cpdef _can_pay(Table game, e, ctx)

@cython.locals(production=dict)
cpdef _can_change_production(Table game, e, ctx)

cpdef _can_choose_x(Table game, e, ctx)
cpdef _cards_to_discard(Table game, ctx)
cpdef x_range(Table game, e, ctx)
