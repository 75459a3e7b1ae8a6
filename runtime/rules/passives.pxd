# The types a compiled engine gives passives.py (Cython's augmenting .pxd; core/state.pxd says why): the cache's
# look-up, asked thousands of times a game, reads the game's and the state's fields from their structs.

cimport cython
from tharsis.runtime.core.state cimport GameData
from tharsis.runtime.core.table cimport Table as TableType


@cython.locals(state=GameData, cache=tuple)
cpdef tuple passive_cache(TableType game, player)

cpdef passives(TableType game, player, kind)
