# The types a compiled engine gives state.py's hot classes (Cython's augmenting .pxd: state.py stays the source,
# and runs as it is without a compiler). Each becomes a C extension type whose fields live in its struct, so code
# that declares a local of the type (the other .pxd files) reads a field as C does; elsewhere nothing changes.
# Lists and dicts are typed as such (the state never holds anything else there); numbers, names and flags stay
# Python objects, so the compiled engine computes exactly as the Python one does (no C overflow, no coercion).

cdef class CardInPlay:
    cdef public object name, resources, used, tile, kept


cdef class PlayerState:
    cdef public object name, index, tr
    cdef public list corporations
    cdef public dict resources, production
    cdef public object starting_production
    cdef public list hand, played, events
    cdef public object passed, tr_raised_this_generation
    cdef public list next_card_modifiers
    cdef public object first_action_done
    cdef public list actions_used
    cdef public dict pieces
    cdef public dict removed_this_generation
    cdef public list harmed_by_this_generation
    cdef public list first_actions
    cdef public list events_face_down
    cdef public object tr_skipped_this_generation


cdef class GameData:
    cdef public object board
    cdef public list players
    cdef public object temperature, oxygen, oceans
    cdef public dict tiles, claims
    cdef public list deck, discard
    cdef public dict face_down
    cdef public object generation, first_player, phase
    cdef public list milestones, awards
    cdef public object neutral_tr, over, rng
    cdef public dict parameters
    cdef public list kept
    cdef public dict piles, stages
    cdef public list sites, set_aside
    cdef public object government
    cdef public list fired_this_action
    cdef public dict markers
    cdef public dict covered


cdef class History:
    cdef public object _head, _list
    cdef public Py_ssize_t _length

    cpdef append(self, item)
