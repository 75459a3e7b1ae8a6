"""Pending decisions: who must choose, what about, and the complete list of legal options.

The engine never calls player code: whenever a choice is needed it stops with a `Decision`, and `Game.apply`
resumes it with one of the listed options (by index or by its label). Labels are stable, readable strings
("play Livestock", "space 31", "pass"), so logs, scenarios and humans can all name an option.
"""

from __future__ import annotations

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
    options: tuple[Option, ...]

    def find(self, choice) -> Optional[Option]:
        """The option a choice names: an index, an exact label, or a case-insensitive prefix of only one label
        (options with equal labels are interchangeable, so the first is taken)."""
        if isinstance(choice, int) and not isinstance(choice, bool):
            return self.options[choice] if 0 <= choice < len(self.options) else None
        if isinstance(choice, Option):
            return choice if choice in self.options else None
        text = str(choice).strip()
        for option in self.options:
            if option.label == text:
                return option
        lowered = text.lower()
        exact = [o for o in self.options if o.label.lower() == lowered]
        if exact:
            return exact[0]
        matches = [o for o in self.options if o.label.lower().startswith(lowered)]
        return matches[0] if matches and len({o.label for o in matches}) == 1 else None

    def labels(self) -> list[str]:
        return [o.label for o in self.options]


class IllegalChoice(Exception):
    """A choice that is not among the pending decision's options; the game state is unchanged."""
