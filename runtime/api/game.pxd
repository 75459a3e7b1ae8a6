# The type a compiled engine gives game.py's `Game` (Cython's augmenting .pxd; core/state.pxd says why): a C
# extension type on top of `Table`'s (core/table.pxd), so that `apply` and `pending`, at every decision, read the
# flow and the state from the struct. It keeps an instance dictionary for what `Table` does not declare (an
# observer, a sandbox's `answer_single_options`, a subclass's own fields).

from tharsis.runtime.core.table cimport Table


cdef class Game(Table):
    cdef dict __dict__
