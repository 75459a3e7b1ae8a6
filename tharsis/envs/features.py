"""What every adapter hands a learner at a decision, made once per decision with numpy: `Features`.

The research API gives the parts (runtime/api/): the observation tensor, kept up to date in place by an
`ObservationWriter` per player (observation_writer.py), the fixed action ids of the legal moves (action_space.py)
and the option features (option_features.py). This class puts them into arrays for PettingZoo, OpenSpiel and
Gymnasium alike, and caches them for the pending decision, so that the mask, the ids and the move applied cost one
listing of the legal moves, and a second look at the same decision lists and computes nothing again:

    observation(player)   the observation tensor, float32 (a copy: the writer's buffer changes at the next call)
    legal()               {action id: option} of the pending decision
    ids_mask()            int8 over every action id, 1 at the legal ones
    options(player)       (features, actions, mask): `slots` rows of `width` features, float32, one per legal
                          move in ascending id order (zeros after the last, and for a player not to decide); the
                          action id in each slot (-1 in an empty one), int64; and 1 at the filled slots, int8
    option_slots(player)  (actions, mask) of `options(player)`, without the rows
    arrays(player)        observation, mask (zeros unless `player` decides) and `options(player)`: a PettingZoo
                          observation's arrays with one look at the pending decision
    deciding(player)      whether `player` is to decide now

The option features' static rows (fixed for a move in a content and board) are kept in one table and gathered into
a decision's rows in one `take`; the dynamic columns (a price now, a seat, a space's neighbours), found once a
decision, are set after. Each call hands out new arrays, as Gymnasium asks (a learner may keep them), each made by one
pass over its bytes: the rows gathered anew from the table (not gathered, then copied), the mask made anew (zeros,
then the legal ids), the vector copied from the writer's buffer.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from tharsis.runtime.api.action_space import action_space
from tharsis.runtime.api.game import Game
from tharsis.runtime.api.observation_writer import ObservationWriter
from tharsis.runtime.api.option_features import OPTION_SLOTS, option_features_for

__all__ = ["Features"]


class Features:
    """The arrays of one game's decisions (the module docstring); `reset(game)` follows a new game."""

    def __init__(self, game: Game, slots: int = OPTION_SLOTS):
        self.space = action_space(game)
        self.option_features = option_features_for(game)
        self.slots, self.width = slots, self.option_features.width
        self.size = ObservationWriter(game, 0).size
        self._rows = _static_rows(self.option_features)
        self._masks = [np.array([1] * count + [0] * (slots - count), np.int8) for count in range(slots + 1)]
        self.reset(game)

    def reset(self, game: Game) -> None:
        self.game = game
        players = len(game.state.players)
        self._writers = [ObservationWriter(game, p) for p in range(players)]
        self._buffers = [np.zeros(self.size, np.float32) for _ in range(players)]
        self._asking = self._decision = None
        self._legal: dict = {}
        self._ids: list[int] = []
        self._ids_array: Optional[np.ndarray] = None
        self._plan = None

    # ------------------------------------------------------------------ the pending decision

    def _current(self):
        """The pending decision, with its legal moves listed once (kept until the game moves on)."""
        asking = self.game.flow.asking   # a new question is a new frame, even when it asks the same
        if asking is not self._asking:
            self._asking = asking   # held: its identity marks the question while it is pending
            self._decision = decision = self.game.pending()
            self._legal = self.space.legal(decision)
            self._ids = sorted(self._legal)
            self._ids_array = None
            self._plan = None
        return self._decision

    def legal(self) -> dict:
        self._current()
        return self._legal

    def ids(self) -> list[int]:
        self._current()
        return self._ids

    def deciding(self, player: int) -> bool:
        """Whether `player` is to decide now."""
        decision = self._current()
        return decision is not None and decision.player == player

    def ids_mask(self) -> np.ndarray:
        """A new mask: zeros, then ones at the legal ids (one pass over its bytes, where a copy of a kept mask
        would take two: its zeros, then the copy)."""
        self._current()
        if self._ids_array is None:   # an index array: setting through a list costs 4x more
            self._ids_array = np.fromiter(self._ids, np.intp, len(self._ids))
        mask = np.zeros(self.space.size, np.int8)
        mask[self._ids_array] = 1
        return mask

    def options(self, player: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The option features of the pending decision for `player` (empty unless they decide)."""
        if not self.deciding(player):
            return (np.zeros((self.slots, self.width), np.float32), np.full(self.slots, -1, np.int64),
                    np.zeros(self.slots, np.int8))
        plan = self._planned()
        return self._matrix(plan), plan[1].copy(), self._masks[plan[2]].copy()

    def arrays(self, player: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(observation(player), the mask (ids_mask() if `player` decides, else zeros), *options(player)) with one
        look at the pending decision: what a PettingZoo observation holds, for one call a step."""
        decision = self._current()
        observation = self.observation(player)
        if decision is None or decision.player != player:
            return (observation, np.zeros(self.space.size, np.int8), np.zeros((self.slots, self.width), np.float32),
                    np.full(self.slots, -1, np.int64), np.zeros(self.slots, np.int8))
        plan = self._plan if self._plan is not None else self._planned()
        return observation, self.ids_mask(), self._matrix(plan), plan[1].copy(), self._masks[plan[2]].copy()

    def option_slots(self, player: int) -> tuple[np.ndarray, np.ndarray]:
        """The last two of `options(player)` (the action id of each row, and the filled rows) without the rows."""
        if not self.deciding(player):
            return np.full(self.slots, -1, np.int64), np.zeros(self.slots, np.int8)
        plan = self._planned()
        return plan[1].copy(), self._masks[plan[2]].copy()

    def _planned(self):
        """What the pending decision's rows are made of, found once a decision: (the static rows' places in the
        table, padded with the zero row; the action ids, -1 after the last; how many rows; the dynamic values)."""
        if self._plan is None:
            decision, ids = self._decision, self._ids[:self.slots]
            count = len(ids)
            rows = self._rows.places(ids, self.game.board, self.slots)
            actions = np.full(self.slots, -1, np.int64)
            actions[:count] = np.fromiter(ids, np.int64, count)
            legal = self._legal
            self._plan = (rows, actions, count, self.option_features.dynamic(self.game, decision, ids,
                                                                             [legal[i] for i in ids]))
        return self._plan

    def _matrix(self, plan, out: Optional[np.ndarray] = None) -> np.ndarray:
        """The decision's rows, in a new array or in `out`: the static rows gathered from the table in one
        operation (which is also the array's one copy), then the dynamic values set in place: a column common to
        every row as one slice, a single entry as one item (fewer than a dozen a decision: cheaper than gathering
        them into index arrays)."""
        rows, _, count, (common, entries) = plan
        matrix = self._rows.table.take(rows, axis=0, out=out, mode="clip")   # "clip": no buffer for `out`
        for column, value in common:
            matrix[:count, column] = value
        for slot, column, value in entries:
            matrix[slot, column] = value
        return matrix

    # ------------------------------------------------------------------ a player's view

    def observation(self, player: int) -> np.ndarray:
        """The observation tensor of `player` now (a new array: the writer's buffer changes at the next call)."""
        buffer = self._buffers[player]
        self._writers[player].write(self.game, buffer)
        return buffer.copy()

    def write(self, player: int, observation: np.ndarray, options: np.ndarray) -> None:
        """Writes the observation tensor of `player` and the option rows of the pending decision (zeros unless they
        decide) into arrays of the caller's (OpenSpiel's tensor and its parts), without new arrays in between."""
        buffer = self._buffers[player]
        self._writers[player].write(self.game, buffer)
        observation[:] = buffer
        if self.deciding(player):
            self._matrix(self._planned(), out=options)
        else:
            options[:] = 0.0


class _StaticRows:
    """The static rows of the option features of one content (fixed for a move and a board) in one table, shared by
    every `Features` of the content: rows are added as moves are first seen, and a decision's are taken in one
    indexing operation."""

    def __init__(self, features):
        self.features = features
        self.table = np.zeros((256, features.width), np.float32)   # row 0 stays zeros: an empty slot's
        self.rows_of: dict[str, dict[int, int]] = {}   # board -> action id -> row of the table
        self.count = 1

    def places(self, ids: list[int], board, slots: int) -> np.ndarray:
        """The rows of the table that hold the static rows of `ids`, then row 0 (zeros) up to `slots`."""
        index = self.rows_of.get(board.board.name)
        if index is None:
            index = self.rows_of[board.board.name] = {}
        places = np.zeros(slots, np.intp)
        try:
            places[:len(ids)] = np.fromiter(map(index.__getitem__, ids), np.intp, len(ids))
        except KeyError:   # a move seen for the first time on this board
            for action in ids:
                if action not in index:
                    if self.count >= len(self.table):
                        self.table = np.concatenate([self.table, np.zeros_like(self.table)])
                    self.table[self.count] = self.features.static_row(action, board)
                    index[action] = self.count
                    self.count += 1
            places[:len(ids)] = np.fromiter(map(index.__getitem__, ids), np.intp, len(ids))
        return places


def _static_rows(features) -> _StaticRows:
    found = _ROWS.get(id(features))
    if found is None or found.features is not features:
        found = _ROWS[id(features)] = _StaticRows(features)
    return found


_ROWS: dict[int, _StaticRows] = {}
