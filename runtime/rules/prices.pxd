# The types a compiled engine gives prices.py (Cython's augmenting .pxd; core/state.pxd says why): what a player
# can pay, asked by the menu's checks of every project, card and award at every turn, as C functions taking the
# game as a `Table` (its state read from the structs), and the passives' cache called in C. (No generator
# expression or lambda in a function declared here: Cython 3.3 cannot compile one in a `cpdef` function.)

cimport cython
from tharsis.runtime.core.table cimport Table
from tharsis.runtime.rules.passives cimport passive_cache, passives


@cython.locals(cache=tuple)
cpdef card_cost(Table game, player, name)
cpdef standard_cost(Table game, player, definition)
cpdef goal_price(Table game, player, kind, cost, derived=*)
cpdef can_spend(Table game, player, resource, amount)
cpdef available(Table game, player, resource)

@cython.locals(stock=dict)
cpdef money_power(Table game, player, derived=*)

@cython.locals(stock=dict)
cpdef can_pay(Table game, player, cost, using=*)
