# The types a compiled engine gives decisions.py (Cython's augmenting .pxd; core/state.pxd says why): a decision
# and a lazy one as C extension types, so that their own methods, and the action menu's (rules/legality.pxd), read
# their fields from the struct.

cdef class Decision:
    cdef public object player, kind, prompt, eager_options, for_player


cdef class LazyDecision(Decision):
    cdef public object _candidates, _allowed, always, _listed, _parse
    cdef public dict known
