"""Pending decisions: who must choose, what about, and the complete list of legal options.

The engine never calls player code: whenever a choice is needed it stops with a `Decision`, and `Game.apply`
resumes it with one of the listed options (by index or by its label). Labels are stable, readable strings
("play Livestock", "space 31", "pass"), so logs, scenarios and humans can all name an option.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice
from typing import Any, Optional

import attrs


@attrs.frozen
class Option:
    label: str
    value: Any = None


@attrs.frozen
class Decision:
    player: int             # index of the player who decides
    kind: str               # action | pay | space | player | option | x | card | keep | buy | corporation | ...
    prompt: str
    options: tuple[Option, ...]   # or NumberOptions, a tuple-like range for `choose X`

    def find(self, choice) -> Optional[Option]:
        """The option a choice names: an index, an exact label, or a case-insensitive prefix of only one label
        (options with equal labels are interchangeable, so the first is taken)."""
        if isinstance(choice, int) and not isinstance(choice, bool):
            return self.options[choice] if 0 <= choice < len(self.options) else None
        if isinstance(choice, Option):
            return choice if choice in self.options else None
        text = str(choice).strip()
        if isinstance(self.options, NumberOptions):
            return self.options.find_label(text)
        for option in self.options:
            if option.label == text:
                return option
        lowered = text.lower()
        exact = [o for o in self.options if o.label.lower() == lowered]
        if exact:
            return exact[0]
        matches = [o for o in self.options if o.label.lower().startswith(lowered)]
        return matches[0] if matches and len({o.label for o in matches}) == 1 else None

    def labels(self, limit: Optional[int] = None) -> list[str]:
        """The options' labels; `limit` shows only the first ones (a range of X may hold millions)."""
        return [o.label for o in islice(self.options, limit)]


class NumberOptions(Sequence):
    """The options `X=low` .. `X=high` of a `choose X` decision, made on demand: a range of a million values costs
    no more than one of three (the engine never builds a list as long as X)."""

    def __init__(self, low: int, high: int):
        self.low, self.high = low, high

    def __len__(self) -> int:
        return max(0, self.high - self.low + 1)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return Option(f"X={self.low + index}", self.low + index)

    def __contains__(self, option) -> bool:
        return isinstance(option, Option) and self.find_label(option.label) == option

    def __eq__(self, other) -> bool:
        return isinstance(other, NumberOptions) and (self.low, self.high) == (other.low, other.high)

    def __hash__(self) -> int:
        return hash((self.low, self.high))

    def find_label(self, text: str) -> Optional[Option]:
        """The option `X=N` (also `x=N`), or None."""
        number = text.strip().lower().removeprefix("x=").strip()
        if not number.lstrip("-").isdigit() or len(number) > 20:
            return None
        value = int(number)
        return Option(f"X={value}", value) if self.low <= value <= self.high else None


class IllegalChoice(Exception):
    """A choice that is not among the pending decision's options; the game state is unchanged."""
