# The types a compiled engine gives flow.py (Cython's augmenting .pxd; core/state.pxd says why): the frames and
# the flow as C extension types, and the loop's locals typed, so that it pops and runs frames reading their
# fields from their structs.

cimport cython


cdef class Step:
    cdef public object function
    cdef public tuple args


cdef class Ask:
    cdef public object decision, resume
    cdef public tuple args


cdef class Flow:
    cdef public list stack
    cdef public object asking, playing, no_oxygen, target, event_pile


@cython.locals(flow=Flow, stack=list, asking=Ask, frame=Step, steps=Py_ssize_t)
cpdef run(game)
