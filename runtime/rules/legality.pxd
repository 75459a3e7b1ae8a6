# The type a compiled engine gives legality.py's action menu (Cython's augmenting .pxd; core/state.pxd says why):
# the bots and the turn's "anything but pass?" ask its `legal` tens of thousands of times a game, which then reads
# the menu's fields from its struct. A field added to `MenuDecision` must be declared here too.

from tharsis.runtime.core.decisions cimport LazyDecision


cdef class MenuDecision(LazyDecision):
    cdef public object _game
