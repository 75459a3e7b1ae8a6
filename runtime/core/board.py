"""Board geometry: adjacency of a compiled board's spaces, and the rows and reading order the solo setup needs.

The board text gives rows of spaces (compiler/definitions.py `Space`, with row y and column x); this module only
knows hexagon arithmetic. Built once per board and shared by every game (it is immutable).
"""

from __future__ import annotations

from functools import lru_cache

from tharsis.compiler.definitions import Board, Space
from tharsis.compiler.vocabulary import LAND, OCEAN_SPACE


class BoardMap:
    def __init__(self, board: Board):
        self.board = board
        self.spaces: dict[str, Space] = {s.id: s for s in board.spaces}
        self.mars: list[Space] = [s for s in board.spaces if s.on_mars]
        by_position = {(s.x, s.row): s.id for s in self.mars}
        self.neighbours: dict[str, tuple[str, ...]] = {}
        for space in board.spaces:
            if not space.on_mars:
                self.neighbours[space.id] = ()
                continue
            ids = [by_position.get(p) for p in _clockwise(space.x, space.row)]
            self.neighbours[space.id] = tuple(i for i in ids if i is not None)
        self.clockwise: dict[str, tuple[str | None, ...]] = {
            s.id: tuple(by_position.get(p) for p in _clockwise(s.x, s.row)) for s in self.mars}
        self.reserved_names = {s.reserved: s.id for s in board.spaces if s.reserved}
        self.has_volcanic = any(s.volcanic for s in self.mars)
        # whether some space costs extra to build on (`costs N`): only then can a placement's check read the stock
        self.has_costs = any(s.extra_cost for s in board.spaces)
        self.bonus_kinds: dict[str, frozenset] = {s.id: frozenset(b for b, _ in s.bonuses) for s in board.spaces}
        # the unreserved spaces of each kind, in board order: where a tile without filters may go
        self.open_ids: dict[str, tuple[str, ...]] = {
            kind: tuple(s.id for s in self.mars if s.kind == kind and not s.reserved) for kind in (LAND, OCEAN_SPACE)}

    def offboard(self) -> list[Space]:
        return [s for s in self.board.spaces if not s.on_mars]


def _clockwise(x: int, y: int) -> list[tuple[int, int]]:
    """Neighbours from the upper-left, clockwise: upper-left, upper-right, right, lower-right, lower-left, left."""
    if y < 4:
        upper = [(x, y - 1), (x + 1, y - 1)]
        lower = [(x, y + 1), (x - 1, y + 1)]
    elif y == 4:
        upper = [(x, y - 1), (x + 1, y - 1)]
        lower = [(x + 1, y + 1), (x, y + 1)]
    else:
        upper = [(x - 1, y - 1), (x, y - 1)]
        lower = [(x + 1, y + 1), (x, y + 1)]
    return [upper[0], upper[1], (x + 1, y), lower[0], lower[1], (x - 1, y)]


@lru_cache(maxsize=16)
def board_map(board: Board) -> BoardMap:
    return BoardMap(board)
