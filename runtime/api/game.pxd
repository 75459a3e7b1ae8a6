# The type a compiled engine gives game.py's `Game` (Cython's augmenting .pxd; core/state.pxd says why): a C
# extension type on top of `Table`'s (core/table.pxd), so that `apply` and `pending`, at every decision, read the
# flow and the state from the struct. It keeps an instance dictionary for what `Table` does not declare (an
# observer, a sandbox's `answer_single_options`, a subclass's own fields). `pending` and `apply` are C methods whose
# question (`asking`) is typed, so that its decision, function and arguments are read from the struct too (a Python
# subclass may still override either: Cython calls the override).

cimport cython
from tharsis.runtime.core.flow cimport Ask
from tharsis.runtime.core.table cimport Table


cdef class Game(Table):
    cdef dict __dict__

    @cython.locals(asking=Ask)
    cpdef pending(self)

    @cython.locals(asking=Ask)
    cpdef apply(self, choice)
