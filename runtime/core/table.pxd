# The type a compiled engine gives table.py's `Table` (Cython's augmenting .pxd; core/state.pxd says why): the
# attributes every rule reads, in the object's struct and typed, so that `game.state` in code that declares `game`
# a Table is a C read and what follows it (`.players`, `.flow.stack`, `.log.append`) typed too. `Game`
# (runtime/api/game.pxd) is an extension type on top, with an instance dictionary for what this does not declare
# (an observer, a sandbox's `answer_single_options`, a subclass's own fields).

from tharsis.runtime.core.flow cimport Flow
from tharsis.runtime.core.state cimport GameData, History


cdef class Table:
    cdef public GameData state
    cdef public Flow flow
    cdef public History log, events, deciders
    cdef public dict _passives
    cdef public object options, content, library, standard_projects, standard_actions, board, milestones, awards
    cdef public object elements, result, _view, _conversions, _fixed_candidates, _trigger_events
