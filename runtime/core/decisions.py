"""Pending decisions: who must choose, what about, for whom, and the legal options.

The engine never calls player code: whenever a choice is needed it stops with a `Decision`, and `Game.apply`
resumes it with one of the options (by index, by its label or the `Option` itself). Labels are stable, readable
strings ("play Livestock", "space 31", "pass"), so logs, scenarios and humans can all name an option.

Most decisions list their options when they are asked. The action decision is lazy (`LazyDecision`): listing
every legal action means checking every card in hand, so it is done only when someone reads `options`;
`find` checks just the option named, and bots sample `candidates` and keep the first that `allows`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice
from typing import Any, Callable, Optional

import attrs

# Every kind of decision the engine asks (`Decision.kind`): what a bot dispatches on and the research encoding one-hots.
DECISION_KINDS = ("action", "corporation", "buy", "draft", "keep", "discard", "space", "card", "option", "player",
                  "pay", "x", "order", "trigger_order", "final", "play_kept", "award", "site", "marker",
                  "faction")


@attrs.define(unsafe_hash=True)  # immutable by convention: a frozen class costs 3x more to make
class Option:
    label: str
    value: Any = None


class SharedOptions:
    """A maker of options made once per process and shared by every decision: `shared_options("space {}")(sid)` is
    the option labelled `space 31` with the value "31" (or `value`, with `constant`). A placement lists dozens of
    spaces and a research phase offers a card per decision; options are never changed, so one of each is enough.
    `many(keys)` gives the options of several keys in one call (a placement's spaces: one call, not one a space)."""

    __slots__ = ("_label", "_value", "_constant", "_made")

    def __init__(self, label: str, value: Any = None, constant: bool = False):
        self._label, self._value, self._constant = label, value, constant
        self._made: dict[Any, Option] = {}

    def __call__(self, key) -> Option:
        found = self._made.get(key)
        if found is None:
            found = self._made[key] = Option(self._label.format(key), self._value if self._constant else key)
        return found

    def many(self, keys) -> tuple[Option, ...]:
        """`tuple(map(self, keys))`, looking each made option up here (a loop: a comprehension is a call of its own)."""
        made = self._made
        options = []
        for key in keys:
            found = made.get(key)
            options.append(found if found is not None else self(key))
        return tuple(options)


def shared_options(label: str, value: Any = None, *, constant: bool = False) -> SharedOptions:
    """The `SharedOptions` labelled `label` (a format with one field), valued by their key or, with `constant`,
    by `value`."""
    return SharedOptions(label, value, constant)


def decider_argument(decider: Optional[int]) -> tuple:
    """The trailing argument a step of the flow takes when a question of its is asked of another player than the one
    it acts for (`decided by ... { }`): `(decider,)`, or nothing, so that the frames of every other game (and the
    saves that hold them) are as they were."""
    return () if decider is None else (decider,)


def asking(player: int, decider: Optional[int]) -> tuple[int, Optional[int]]:
    """(the player asked, the player the choice is for) of a question `player`'s effects ask, `decider` deciding."""
    return (player, None) if decider is None else (decider, player)


space_option = shared_options("space {}")
discard_option = shared_options("discard {}")


class Decision:
    """A question with its options listed. Immutable; equal when player, kind, prompt, options and the player it is
    for are."""

    __slots__ = ("player", "kind", "prompt", "eager_options", "for_player")

    def __init__(self, player: int, kind: str, prompt: str, options: tuple = (), for_player: Optional[int] = None):
        self.player = player    # index of the player who decides
        self.kind = kind        # action | pay | space | player | option | x | card | keep | buy | corporation | ...
        self.prompt = prompt
        # a tuple, or NumberOptions (a tuple-like range for `choose X`)
        self.eager_options: Optional[tuple[Option, ...]] = options if type(options) is tuple or \
            isinstance(options, NumberOptions) else tuple(options)
        # the player the choice is made for when another decides (`decided by first player { }`): whose tile,
        # cards and stock the options are about, so that clients show them from that side; None: `player`'s own
        self.for_player = for_player

    @property
    def acting(self) -> int:
        """The player whose effects the choice is about: `for_player`, or the one who decides."""
        return self.player if self.for_player is None else self.for_player

    @property
    def options(self) -> tuple[Option, ...]:
        return self.eager_options

    def find(self, choice) -> Optional[Option]:
        """The option a choice names: an index, an exact label, or a case-insensitive prefix of only one label
        (options with equal labels are interchangeable, so the first is taken)."""
        return _find(self.eager_options, choice)

    def allows(self, option: Option) -> bool:
        return option in self.options

    def labels(self, limit: Optional[int] = None) -> list[str]:
        """The options' labels; `limit` shows only the first ones (a range of X may hold millions)."""
        return [o.label for o in islice(self.options, limit)]

    def __eq__(self, other) -> bool:
        return isinstance(other, Decision) and (self.player, self.kind, self.prompt, self.for_player) == \
            (other.player, other.kind, other.prompt, other.for_player) and self.options == other.options

    def __hash__(self) -> int:
        return hash((self.player, self.kind, self.prompt))

    def __repr__(self) -> str:
        asked = "" if self.for_player is None else f", for {self.for_player}"
        return f"Decision({self.player}, {self.kind!r}, {self.prompt!r}, {len(self.options)} options{asked})"


class LazyDecision(Decision):
    """A decision whose options are checked one at a time. `candidates()` lists every option that might be legal
    (cheap, unchecked), `legal(option)` checks one (remembered: a decision is a view of one moment of the game);
    `options` is the candidates that are legal, in order, plus the `always` options (pass / end turn), which need
    no check. `find` checks only the option named."""

    # `always`: the options that need no check (pass, end the turn); `known`: the verdicts of `legal` found so far,
    # by option label. Both are read-only by convention, and plain fields rather than properties (a property is a
    # call): a bot that tries many candidates reads a verdict with a dict look-up where asking `legal` again would
    # cost a call (the action menu settles whole kinds of option at once before the bot chooses).
    __slots__ = ("_candidates", "_allowed", "always", "_listed", "_parse", "known")

    def __init__(self, player: int, kind: str, prompt: str, candidates: Callable[[], list[Option]],
                 allowed: Callable[[Option], bool], always: tuple[Option, ...] = (),
                 parse: Optional[Callable[[str], Optional[Option]]] = None):
        self.player, self.kind, self.prompt = player, kind, prompt
        self.eager_options = self.for_player = None
        self._candidates: Any = candidates
        self._allowed, self.always, self._parse = allowed, always, parse
        self._listed: Optional[tuple[Option, ...]] = None
        self.known: dict[str, bool] = {}

    @property
    def options(self) -> tuple[Option, ...]:
        if self._listed is None:
            self._listed = tuple(o for o in self.candidates() if self.legal(o)) + self.always
        return self._listed

    def candidates(self) -> list[Option]:
        """The options that might be legal, unchecked (a fresh list: callers may shuffle it)."""
        if callable(self._candidates):
            self._candidates = tuple(self._candidates())
        return list(self._candidates)

    def legal(self, option: Option) -> bool:
        """Whether an option of `candidates()` is legal now."""
        known = self.known.get(option.label)  # labels are unique among candidates, and hash faster
        if known is None:
            known = self.known[option.label] = self._allowed(option)
        return known

    def any_legal(self, order=None) -> bool:
        """Whether some candidate is legal, checking them until one is: all of `candidates()`, or those that
        `order(candidates)` yields (cheapest first, and lazily: it calls `candidates` only if it gets that far)."""
        legal = self.legal
        for option in (order(self.candidates) if order else self.candidates()):
            if legal(option):
                return True
        return False

    def allows(self, option: Option) -> bool:
        if self._listed is not None:
            return option in self._listed
        expected = self._parse(option.label) if self._parse else None
        if expected is None:  # not a candidate's label: one of the options that need no check, or nothing
            return option in self.always
        return expected.value == option.value and self.legal(option)  # the labels are equal: parsed from it

    def find(self, choice) -> Optional[Option]:
        if self._listed is None:
            if isinstance(choice, Option):
                return choice if self.allows(choice) else None
            if isinstance(choice, str) and self._parse is not None:
                text = choice.strip()
                for option in self.always:
                    if option.label == text:
                        return option
                option = self._parse(text)
                if option is not None and option.label == text:
                    return option if self.legal(option) else None
        return _find(self.options, choice)


def _find(options: tuple[Option, ...], choice) -> Optional[Option]:
    if type(choice) is Option:  # what bots hand back: one of the options, found by identity (no `__eq__` calls)
        if type(options) is tuple:
            for option in options:
                if option is choice:
                    return option
        return choice if choice in options else None
    if isinstance(choice, int) and not isinstance(choice, bool):
        return options[choice] if 0 <= choice < len(options) else None
    if isinstance(choice, Option):
        return choice if choice in options else None
    text = str(choice).strip()
    if isinstance(options, NumberOptions):
        return options.find_label(text)
    for option in options:
        if option.label == text:
            return option
    lowered = text.lower()
    exact = [o for o in options if o.label.lower() == lowered]
    if exact:
        return exact[0]
    matches = [o for o in options if o.label.lower().startswith(lowered)]
    return matches[0] if matches and len({o.label for o in matches}) == 1 else None


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
        if not isinstance(option, Option):
            return False
        value = option.value
        return type(value) is int and self.low <= value <= self.high and option.label == f"X={value}"

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
