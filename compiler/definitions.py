"""Compiled definitions: cards, corporations, standard projects and actions, milestones, awards, boards.

Pipeline place: the output of checker.py and the input of runtime/. Frozen attrs classes, so one compiled
library is shared by every game of a simulation. `Library` is the whole loaded content, indexed by kind and name.
"""

from __future__ import annotations

from typing import Optional

import attrs

from .diagnostics import Span as Source  # where a definition's name is written
from .effects import Condition, Quantity, added
from .names import NO_NAMES, Names


@attrs.frozen
class VictoryPoints:
    """`points` alone; or `points` per (quantity // divisor); or `points` if condition. `scorers` (`each player`,
    `each opponent`): the points go to those players instead of the card's owner, each counting `per` from their
    own side (Vermin: -1 per their own city), while `condition`, about the card, is judged from its owner's side;
    then `per` and `condition` may go together."""

    points: int
    per: Optional[Quantity] = None
    divisor: int = 1
    condition: Optional[Condition] = None
    scorers: Optional[str] = added(None)   # None (the owner) | "each player" | "each opponent"


@attrs.frozen
class ActionOption:
    """One option of an action: pay `cost` (a sequence of effects), then carry out `effects`. `repeatable`: a
    `repeatable action:`, which may be taken again in the same generation (an `action:` is once per generation)."""

    cost: tuple
    effects: tuple
    repeatable: bool = False


@attrs.frozen
class Card:
    name: str
    number: Optional[str]
    set: str
    type: str                      # automated | active | event
    cost: int
    tags: tuple[str, ...]
    requirements: Optional[Condition]
    holds: Optional[str]
    play: tuple
    actions: tuple[ActionOption, ...]
    passives: tuple
    vp: Optional[VictoryPoints]
    source: Source
    kind: str = "card"
    on_stage: tuple[tuple[str, tuple], ...] = ()   # a staged kind's card: (stage or "reveal", effects) on entering
    needs: tuple[str, ...] = ()                    # sets that must be in play too for the card to be
    on_stage_spans: tuple = attrs.field(default=(), eq=False, repr=False)   # where each `on STAGE:` is written
    needs_spans: tuple = attrs.field(default=(), eq=False, repr=False)


@attrs.frozen
class Corporation:
    name: str
    number: Optional[str]
    set: str
    tags: tuple[str, ...]
    starting_megacredits: int
    holds: Optional[str]
    play: tuple
    first_action: tuple
    actions: tuple[ActionOption, ...]
    passives: tuple
    vp: Optional[VictoryPoints]
    variant: Optional[str]
    source: Source
    kind: str = "corporation"
    type: str = "corporation"
    cost: int = 0
    requirements: Optional[Condition] = None
    # sets that must be in play too for the corporation to be dealt (one raising an expansion's parameter:
    # `needs: NAME`), as a card's; `added`: the corporations written before it keep their recorded hashes
    needs: tuple[str, ...] = added(())
    needs_spans: tuple = attrs.field(default=(), eq=False, repr=False)


@attrs.frozen
class StandardProject:
    name: str
    cost: int
    play: tuple
    variant: Optional[str]
    source: Source
    kind: str = "standard_project"
    set: str = "base"
    alternatives: tuple[tuple[int, str], ...] = ()   # `cost: 17 | 5 titanium`: (amount, resource) after the first

    @property
    def prices(self) -> tuple[tuple[int, str], ...]:
        """Every way to pay it, (amount, resource), as written: the player pays one of them."""
        return ((self.cost, "megacredits"),) + self.alternatives


@attrs.frozen
class StandardAction:
    name: str
    cost: int
    cost_resource: str
    play: tuple
    variant: Optional[str]
    source: Source
    kind: str = "standard_action"
    set: str = "base"
    once_per_generation: bool = False   # `once per generation`: each player may take it once a generation
    # `cost: 9 megacredits | 3 energy`: (amount, resource) of each way to pay after the first
    alternatives: tuple[tuple[int, str], ...] = ()

    @property
    def prices(self) -> tuple[tuple[int, str], ...]:
        """Every way to pay it, (amount, resource), as written: the player pays one of them."""
        return ((self.cost, self.cost_resource),) + self.alternatives


@attrs.frozen
class Milestone:
    name: str
    requirement: Condition
    source: Source
    kind: str = "milestone"
    set: str = "base"


@attrs.frozen
class Award:
    name: str
    measure: Quantity
    source: Source
    kind: str = "award"
    set: str = "base"


@attrs.frozen
class Space:
    """A board space. `id` is the two-digit id players use ("01".."63"); off-board spaces have row -1."""

    id: str
    row: int
    x: int
    kind: str                        # land | ocean | offboard
    volcanic: bool = False
    bonuses: tuple[tuple[str, int], ...] = ()   # (resource | card | ocean, count)
    reserved: Optional[str] = None
    extra_cost: int = 0
    cost_condition: Optional[Condition] = None   # `costs 6 if oceans <= 8`: the extra cost applies only while it holds

    @property
    def on_mars(self) -> bool:
        return self.kind != "offboard"


@attrs.frozen
class TrackBonus:
    parameter: str
    value: int
    effects: tuple


@attrs.frozen
class Board:
    name: str
    spaces: tuple[Space, ...]
    milestones: tuple[str, ...]
    awards: tuple[str, ...]
    tracks: tuple[TrackBonus, ...]
    source: Source
    reference_spans: tuple = ()   # (milestone or award name, where the board names it)
    kind: str = "board"


@attrs.frozen
class Parameter:
    """A declared global parameter (`parameter "radiation" { scale: 0 to 10 step 1 ... }`): its scale, the TR each
    step gives, the bonuses at given values, and whether it must be maxed for the game to end (`yes`, `no`, or only
    in a `solo` game). The three printed parameters are built in (compiler/vocabulary.py GLOBAL_RANGES)."""

    name: str
    set: str
    low: int
    high: int
    step: int
    unit: str                        # "%", "C" or "" (a count)
    tracks: tuple[TrackBonus, ...]
    ends_game: str                   # yes | no | solo
    source: Source
    tr_per_step: int = 1
    kind: str = "parameter"


@attrs.frozen
class CardKind:
    """A declared kind of card (`card kind "mission" { deal: 2 keep 1 ... }`): cards of this `type:` cost nothing,
    are not in the project deck; each player is dealt `deal` of them at setup, keeps `keep` (chosen with the
    corporation) and plays them after every corporation is in play, before the first generation's actions; a kept
    card that cannot be played goes under the kind's pile (`unplayable to: discard`: out of the game) and its owner
    carries out `unplayable` instead."""

    name: str
    set: str
    deal: int
    keep: int
    unplayable: tuple
    source: Source
    kind: str = "card_kind"
    stages: tuple[str, ...] = ()   # `stages: distant, coming, current`: cards move through them (none: no stages)
    unplayable_to: str = "pile"    # where a kept card that cannot be played goes: under its pile, or `discard`


@attrs.frozen
class Rule:
    """A rule of the game declared in text: `play` carried out `at` a point of the game (`end of generation`: after
    the production phase of every generation but the last), decided `by` the first player or by each player in
    turn order. Rules of one moment run in the order they are loaded, except that a rule runs `after` the rules of
    the sets it names."""

    name: str
    set: str
    at: str                          # end_of_generation | start_of_game
    by: str                          # first_player | each_player
    play: tuple
    source: Source
    kind: str = "rule"
    after: tuple[str, ...] = ()      # sets whose rules of the same moment run before this one
    after_spans: tuple = attrs.field(default=(), eq=False, repr=False)


@attrs.frozen
class Expansion:
    """A set of content chosen per game (`--expansion NAME`): cards, parameters, kinds, rules and projects whose
    `set:` is its name are in play only when it is chosen. It may add off-board spaces, milestones and awards to
    every board, and set how many generations a solo game lasts."""

    name: str
    offboard: tuple[str, ...]
    milestones: tuple[str, ...]
    awards: tuple[str, ...]
    solo_generations: Optional[int]
    source: Source
    reference_spans: tuple = ()
    kind: str = "expansion"
    sites: tuple[tuple[int, int], ...] = ()   # (players, sites in play): how many of its sites a game deals


@attrs.frozen
class Piece:
    """A declared kind of piece (`piece "shuttle" { supply: 1 }`): each player's tokens of that kind, placed on
    sites or sent to visit them. `supply`: how many each player starts with (None: as many as wanted, and only those
    on sites are counted); `limit`: the most a player may have; `returns`: when the pieces on sites come back to
    their owners (`end_of_generation`), or never (None)."""

    name: str
    set: str
    supply: Optional[int]
    limit: Optional[int]
    returns: Optional[str]
    source: Source
    kind: str = "piece"
    neutral: int = 0   # pieces that belong to nobody (the neutral reserve), placed by `place neutral PIECE`


@attrs.frozen
class Site:
    """A declared site (`site "Phobos Dock" { ... }`): a place off the board with a track of effects and a marker on
    it. It holds up to `capacity` pieces of kind `piece` (`per_player` of each player's at most: None, no limit),
    which hold its lowest steps (the marker never stands below their number); a piece of kind `visitor` may visit it,
    one at a time: the visitor gets the effects of the marker's step (`track`), every piece there gives its owner
    `bonus`, and the marker goes back to the first free step. Placing a piece there gives its owner `build`. A site
    with `inactive_until` (a trigger's subject and event, with no effects) is inactive until that event happens."""

    name: str
    set: str
    piece: str
    capacity: int
    per_player: Optional[int]
    visitor: Optional[str]
    track: tuple[tuple, ...]
    marker: int
    bonus: tuple
    build: tuple
    inactive_until: Optional[object]   # a compiled Trigger whose effects are empty
    source: Source
    kind: str = "site"


@attrs.frozen
class Faction:
    """A declared faction (`faction "Blue Party" { ... }`): a group that players place pieces into (the pieces of the
    government that lists it), one of which rules. When it comes to power its `bonus` is carried out once, decided by
    the first player (`each player { }` gives it to everyone); while it rules, during the action phase, its `effect:`
    modifiers and triggers are every player's own and its actions are offered to every player (an `action:` once a
    generation, a `repeatable action:` as often as it can be paid). Its policy is read like a card's, so it has the
    fields of one that a faction never uses (no tags, no resources held, no VP)."""

    name: str
    set: str
    bonus: tuple
    actions: tuple[ActionOption, ...]
    passives: tuple
    source: Source
    kind: str = "faction"
    tags: tuple = ()
    holds: Optional[str] = None
    vp: Optional[VictoryPoints] = None
    requirements: Optional[Condition] = None
    play: tuple = ()


@attrs.frozen
class Government:
    """The politics of a set (`government "Mars" { ... }`): its `factions` in board order (ties walk it), the kind of
    piece players place into them (each player's reserve is the piece's supply, the neutral reserve its `neutral:`),
    the faction `ruling` at the start, the `role` the new ruling faction's leader takes (with what a player gains on
    taking it), the `influence` a player has, and the victory points it gives at the end."""

    name: str
    set: str
    factions: tuple[str, ...]
    piece: str
    ruling: str
    role: Optional[str]
    role_reward: tuple
    influence: Optional[Quantity]
    vp: Optional[VictoryPoints]
    source: Source
    reference_spans: tuple = ()    # (faction name, where it is written), for the cross-file checks
    kind: str = "government"


KINDS = ("card", "corporation", "standard_project", "standard_action", "milestone", "award", "board", "parameter",
         "card_kind", "rule", "expansion", "piece", "site", "faction", "government")


@attrs.frozen
class Header:
    """The kind, name and number of a definition that has a syntax error: it compiles to nothing, but its name and
    number still take part in the duplicate checks, so a clash is reported while the syntax error is fixed."""

    kind: str
    name: str
    number: Optional[str]
    source: Source


def with_expansions(definitions, chosen) -> list:
    """The definitions of a game with the `chosen` expansions: all but the content of the declared expansions that
    are not chosen (`tharsis cards --expansion NAME`, the gallery alike)."""
    declared = {d.name for d in definitions if d.kind == "expansion"}
    left_out = declared - set(chosen)
    return [d for d in definitions if getattr(d, "set", None) not in left_out
            and not (d.kind == "expansion" and d.name in left_out)]


@attrs.define
class Library:
    """Everything loaded from a set of files, ready for the runtime. Names are unique across kinds."""

    definitions: list = attrs.field(factory=list)
    names: Names = NO_NAMES   # names in other languages, from the `.names` files (compiler/names.py)

    def of_kind(self, kind: str) -> list:
        return [d for d in self.definitions if d.kind == kind]

    @property
    def cards(self) -> list[Card]:
        return self.of_kind("card")

    @property
    def corporations(self) -> list[Corporation]:
        return self.of_kind("corporation")

    def get(self, name: str):
        for definition in self.definitions:
            if definition.name == name:
                return definition
        raise KeyError(name)
