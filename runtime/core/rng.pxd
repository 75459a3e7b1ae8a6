# The types a compiled engine gives rng.py (Cython's augmenting .pxd; core/state.pxd says why): a bot's `Stream`
# keeps its splitmix64 state as an unsigned 64-bit C integer and steps it in C. That is exact: rng.py masks every
# step to 64 bits, which is what C's unsigned arithmetic does, and the last product (`* n`, any size) stays a
# Python int's. A bot asks `below` about 1,240 times a game, 5,800 instructions each in Python's ints.

cimport cython


cdef class Stream:
    cdef public unsigned long long state

    @cython.locals(state=cython.ulonglong, z=cython.ulonglong)
    cpdef below(self, n)

    @cython.locals(state=cython.ulonglong, z=cython.ulonglong)
    cpdef double random(self)
