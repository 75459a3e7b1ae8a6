"""`per_list`: remember what a function computes from a tuple of compiled effects, by the tuple's identity.

Compiled effect lists are immutable and live as long as their content, and the engine asks the same questions
about them thousands of times a game (their canonical text for option labels, whether their checks read the
player's stock, their order with tile placements first). Hashing a tuple of attrs objects costs more than the
answer, so the table is keyed by `id`: each entry holds its tuple, so the id cannot be reused while the entry lives.
Lists made on the fly are answered too; the table is emptied when it grows past a bound, so they cannot pile up.
A list (mutable) is never remembered.
"""

from __future__ import annotations

from functools import wraps
from typing import Any, Callable

LIMIT = 4096


def per_list(function: Callable[[tuple], Any]) -> Callable[[tuple], Any]:
    table: dict[int, tuple] = {}

    @wraps(function)
    def remembered(items):
        if type(items) is not tuple:
            return function(items)
        entry = table.get(id(items))
        if entry is None or entry[0] is not items:
            if len(table) > LIMIT:
                table.clear()
            entry = table[id(items)] = (items, function(items))
        return entry[1]

    return remembered
