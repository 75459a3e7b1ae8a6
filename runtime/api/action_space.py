"""A fixed action space: one stable integer per move, for learning and search libraries that need a bound.

The research API (research.py) numbers the options of each decision `0..n-1`; that number means "the k-th option
listed now", so it has no bound and no meaning across decisions. This module gives every move an id that does not
depend on the decision or the order of its options: `play Livestock` is the same integer whenever it is offered,
whether from the action menu, a kept card of a declared kind or a "play a card from your hand" effect.

The table is derived from the content a game loads (the bundled cards and expansions, and a designer's folders),
never from one game's options, so one table serves every game of a content. It is made of consecutive segments:

    special moves   pass, end turn, done, yes, no, nothing, neutral opponent, first action
    play            play card X                      (one per card, corporation and card of a declared kind)
    take            keep / draft / buy card X, choose corporation X
    discard         discard card X (also declining to buy it)
    card action     use the action of card X (or the policy action of faction X)
    target          card X as the target of an effect (add or remove resources, copy, repeat)
    space           place on space S                 (every space of every board, off-board spaces included)
    site            a declared site S                (to place a piece on, visit, move the marker of, bring in...)
    project         standard project P (on the action menu, or picked for a card's `use standard project`)
    convert         standard action C (plants to greenery, heat to temperature, ...)
    milestone       claim milestone M
    award           fund award A
    seat            player i (as a target), i < MAX_PLAYERS
    resource        a production R, for "which production rises?"
    choice          choose option k of a card's choices / effect order / trigger order, k < MAX_CHOICE
    x               X = n for n < MAX_X, and "X = the most allowed" when that is MAX_X or more
    faction         place pieces in (or replace a neutral piece in) faction F
    faction piece   remove a piece of owner O (a seat, or neutral) from faction F
    pay             pay with s steel, t titanium and o other units (heat, resources on cards); the rest in MC

Card names are ordered with the bundled content first (sorted), then the designer's (sorted), so adding a card of
your own never renumbers the bundled ones. A move outside the bounds (X of MAX_X or more other than the largest,
a payment with more units than the content's dearest card needs, a seventeenth choice) has no id; `ids` leaves it
out, and nothing of the bundled content reaches them (tests/test_envs.py plays games to check).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from tharsis.compiler.vocabulary import STANDARD_RESOURCES

from ..core.decisions import Decision, NumberOptions, Option
from ..core.state import MAX_PLAYERS, NEUTRAL

if TYPE_CHECKING:
    from tharsis.compiler.definitions import Library

    from .game import Game

__all__ = ["MAX_CHOICE", "MAX_X", "ActionSpace", "action_space"]

MAX_CHOICE = 16     # options of a card's "choose one", effects of one card to order, triggers at once
MAX_X = 32          # X = 0..31 each, and "the most allowed" for larger ranges

SPECIALS = ("pass", "end turn", "done", "yes", "no", "nothing", "neutral opponent", "first action")
_SPECIAL_VALUES = {("pass",): "pass", ("end",): "end turn", ("first_action",): "first action"}
_ACTION_SEGMENTS = {"play": "play", "card_action": "card action", "project": "project", "convert": "convert",
                    "milestone": "milestone", "award": "award"}


class ActionSpace:
    """The id table of one content. `size` bounds every id; `id_of(decision, option)`, `ids(decision)` (the legal
    ids, sorted), `legal(decision)` (id -> option), `mask(decision)` and `option(decision, id)` translate between a
    decision and ids; `describe(id)` names a move (`"play Livestock"`, `"space 31"`,
    `"pay 2 steel, 0 titanium, 0 other"`)."""

    def __init__(self, cards: list[str], spaces: list[str], projects: list[str], conversions: list[str],
                 milestones: list[str], awards: list[str], max_cost: int, sites: list[str] = (),
                 factions: list[str] = ()):
        self.cards, self.spaces = tuple(cards), tuple(spaces)
        self.pay_steel, self.pay_titanium, self.pay_other = max_cost // 2 + 2, max_cost // 3 + 2, max_cost + 1
        tables = [("special", SPECIALS), ("play", cards), ("take", cards), ("discard", cards),
                  ("card action", list(cards) + list(factions)), ("target", cards), ("space", spaces),
                  ("site", sites),
                  ("project", projects),
                  ("convert", conversions), ("milestone", milestones), ("award", awards),
                  ("seat", [str(i) for i in range(MAX_PLAYERS)]), ("resource", STANDARD_RESOURCES),
                  ("choice", [str(k) for k in range(MAX_CHOICE)]), ("x", [str(n) for n in range(MAX_X)] + ["max"]),
                  ("faction", factions),
                  ("faction piece", [f"{f} {o}" for f in factions for o in
                                     [str(i) for i in range(MAX_PLAYERS)] + ["neutral"]])]
        self.segments: dict[str, tuple[int, int]] = {}   # name -> (first id, count)
        self._index: dict[str, dict[str, int]] = {}
        start = 0
        for name, keys in tables:
            self.segments[name] = (start, len(keys))
            self._index[name] = {key: start + i for i, key in enumerate(keys)}
            start += len(keys)
        self._names = {i: (name, key) for name, index in self._index.items() for key, i in index.items()}
        self.segments["pay"] = (start, self.pay_steel * self.pay_titanium * self.pay_other)
        self.size = start + self.segments["pay"][1]
        # decision kind -> id of an option object -> (the option, its id): Option objects are immutable by
        # convention and many are shared (runtime/core/decisions.py `shared_options`), so most ids are found once
        self._known: dict[str, dict[int, tuple]] = {}

    def keys(self, segment: str) -> tuple[str, ...]:
        """What the ids of a segment stand for, in id order: the milestones' names for "milestone"."""
        return tuple(self._index[segment])

    # ------------------------------------------------------------------ one move

    def id_of(self, decision: Decision, option: Option) -> Optional[int]:
        """The id of `option` of `decision`, or None when it lies outside the bounds (see the module docstring)."""
        kind, value, label = decision.kind, option.value, option.label
        key = self._key(kind, value, label, decision)
        if key is None:
            return None
        if key[0] == "pay":
            return self._pay_id(value)
        return self._index[key[0]].get(key[1])

    def _key(self, kind: str, value, label: str, decision: Decision) -> Optional[tuple[str, str]]:
        if kind == "action":
            special = _SPECIAL_VALUES.get(value)
            if special is not None:
                return "special", special
            return _ACTION_SEGMENTS[value[0]], value[1]
        if kind == "space":
            return "space", value
        if kind == "site":
            return "site", value
        if kind == "marker":   # how far a visit raises a site's marker: the step it reaches
            return "choice", str(value)
        if kind == "pay":
            return "pay", ""
        if kind == "x":
            if value < MAX_X:
                return "x", str(value)
            return ("x", "max") if value == decision.options.high else None
        if kind in ("corporation", "keep", "draft"):
            return "take", value
        if kind == "buy":
            return ("take" if value else "discard"), label.split(" ", 1)[1]
        if kind == "discard":
            return "discard", value
        if kind == "play_kept":
            return "play", value
        if kind == "award":
            return "award", value
        if kind == "final":
            return ("special", "done") if value is None else ("convert", value)
        if kind in ("order", "trigger_order"):
            return "choice", str(value)
        if kind == "option":
            if type(value) is tuple and value[:1] == ("project",):   # `use standard project`: the menu's project
                return "project", value[1]
            if type(value) is bool:
                return "special", "yes" if value else "no"
            if type(value) is str:
                return "resource", value
            return "choice", str(value)
        if kind in ("card", "player"):
            if value is None:
                return "special", "nothing"
            if type(value) is int:
                return ("special", "neutral opponent") if value == NEUTRAL else ("seat", str(value))
            if type(value) is tuple:   # (owner, card): cards in play are unique, so the name is enough
                return "target", value[1]
            return ("play" if label.startswith("play ") else "target"), value
        if kind == "faction":  # a faction, or (faction, owner) of a piece to remove
            if type(value) is tuple:
                return "faction piece", f"{value[0]} {'neutral' if value[1] == NEUTRAL else value[1]}"
            return "faction", value
        raise ValueError(f"no action id for a {kind!r} decision ({label!r})")

    def _pay_id(self, payment: dict) -> Optional[int]:
        steel = payment.get("steel", 0)
        titanium = payment.get("titanium", 0)
        other = sum(amount for resource, amount in payment.items()
                    if resource not in ("megacredits", "steel", "titanium"))
        if steel >= self.pay_steel or titanium >= self.pay_titanium or other >= self.pay_other:
            return None
        start = self.segments["pay"][0]
        return start + (steel * self.pay_titanium + titanium) * self.pay_other + other

    # ------------------------------------------------------------------ a decision

    def ids(self, decision: Optional[Decision]) -> list[int]:
        """The legal ids of a decision, sorted (none at the end of the game)."""
        return sorted(self._by_id(decision))

    def mask(self, decision: Optional[Decision]) -> list[int]:
        """1 at every legal id, 0 elsewhere; `size` long."""
        mask = [0] * self.size
        for i in self._by_id(decision):
            mask[i] = 1
        return mask

    def option(self, decision: Decision, action: int) -> Option:
        """The option of `decision` that `action` names; ValueError when it names none."""
        found = self._by_id(decision).get(action)
        if found is None:
            raise ValueError(f"action {action} ({self.describe(action)}) is not legal here ({decision.prompt})")
        return found

    def legal(self, decision: Optional[Decision]) -> dict[int, Option]:
        """Every legal id of a decision with its option, in one pass over the options: what an adapter keeps for
        the decision, so that its mask, its list of ids and the move it applies cost one listing, not three."""
        return self._by_id(decision)

    def _by_id(self, decision: Optional[Decision]) -> dict[int, Option]:
        if decision is None:
            return {}
        options = decision.options
        if isinstance(options, NumberOptions):  # never list a range of a million: the ids are at most MAX_X + 1
            shown = range(options.low, min(options.high + 1, max(options.low, MAX_X)))
            options = [Option(f"X={n}", n) for n in shown if n >= 0]
            if not options or options[-1].value != decision.options.high:
                options.append(Option(f"X={decision.options.high}", decision.options.high))
        found: dict[int, Option] = {}
        kind = decision.kind
        if kind == "x":   # an X's id depends on the decision's range: not kept
            for option in options:
                action = self.id_of(decision, option)
                if action is not None:
                    found.setdefault(action, option)
            return found
        known = self._known.get(kind)
        if known is None or len(known) > 100_000:
            known = self._known[kind] = {}
        get = known.get
        for option in options:   # the id of an option object met before in a decision of this kind (shared
            entry = get(id(option))   # options, the menu's), kept with the object so that its id stays its own
            if entry is None or entry[0] is not option:
                entry = known[id(option)] = (option, self.id_of(decision, option))
            action = entry[1]
            if action is not None and action not in found:   # equal ids only for interchangeable options (equal
                found[action] = option                          # labels): the first is kept
        return found

    def move(self, action: int) -> tuple[str, object]:
        """(segment, key) of an id: `("play", "Livestock")`, `("space", "31")`, `("pay", (steel, titanium, other))`;
        ValueError for an integer outside the table."""
        named = self._names.get(action)
        if named is not None:
            return named
        if not isinstance(action, int) or not self.segments["pay"][0] <= action < self.size:
            raise ValueError(f"{action!r} is not an action id (0..{self.size - 1})")
        rest, other = divmod(action - self.segments["pay"][0], self.pay_other)
        steel, titanium = divmod(rest, self.pay_titanium)
        return "pay", (steel, titanium, other)

    def describe(self, action: int) -> str:
        """The move an id stands for, in words."""
        if not isinstance(action, int) or not 0 <= action < self.size:
            return f"no move ({action!r})"
        named = self._names.get(action)
        if named is not None:
            segment, key = named
            return {"special": key, "play": f"play {key}", "take": f"take {key}", "discard": f"discard {key}",
                    "card action": f"action {key}", "target": f"card {key}", "space": f"space {key}",
                    "site": f"site {key}",
                    "project": f"standard project {key}", "convert": f"convert {key}", "milestone": f"claim {key}",
                    "award": f"fund {key}", "seat": f"player {key}", "resource": f"production {key}",
                    "choice": f"choice {key}", "x": "X=the most" if key == "max" else f"X={key}",
                    "faction": f"faction {key}", "faction piece": f"faction {key}"}[segment]
        rest = action - self.segments["pay"][0]
        rest, other = divmod(rest, self.pay_other)
        steel, titanium = divmod(rest, self.pay_titanium)
        return f"pay {steel} steel, {titanium} titanium, {other} other"


def action_space(game: "Game") -> ActionSpace:
    """The action space of the content `game` plays with (built once per content and shared)."""
    content = game.content
    cached = _SPACES.get(id(content))
    if cached is None or cached[0] is not content:
        cached = _SPACES[id(content)] = (content, _for_content(content))
    return cached[1]


_SPACES: dict[int, tuple] = {}


def _for_content(content: "Library") -> ActionSpace:
    from tharsis.compiler import bundled_cards_path

    bundled = str(bundled_cards_path())
    definitions = content.definitions
    playable = [d for d in definitions if d.kind in ("card", "corporation")]

    def designer(d) -> bool:
        source = getattr(d, "source", None)
        return source is not None and not str(source.path).startswith(bundled)

    # once each: a card of a kind with stages may share its name with a project card
    cards = list(dict.fromkeys(d.name for d in sorted(playable, key=lambda d: (designer(d), d.name))))
    spaces: set[int] = set()
    offboard = sum(len(e.offboard) for e in content.of_kind("expansion"))
    for board in content.of_kind("board"):
        numbers = [int(s.id) for s in board.spaces]
        spaces.update(numbers)
        last = max(numbers, default=0)
        spaces.update(range(last + 1, last + 1 + offboard))
    names = sorted(f"{n:02d}" for n in spaces)
    costs = [getattr(d, "cost", 0) or 0 for d in definitions if d.kind in ("card", "standard_project")]
    return ActionSpace(cards, names, sorted({d.name for d in content.of_kind("standard_project")}),
                       sorted({d.name for d in content.of_kind("standard_action")}),
                       sorted({d.name for d in content.of_kind("milestone")}),
                       sorted({d.name for d in content.of_kind("award")}), max(costs + [1]),
                       sorted(d.name for d in content.of_kind("site")),
                       sorted({d.name for d in content.of_kind("faction")}))
