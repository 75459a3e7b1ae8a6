"""Compiled definitions: cards, corporations, standard projects and actions, milestones, awards, boards.

Pipeline place: the output of checker.py and the input of runtime/. Frozen attrs classes, so one compiled
library is shared by every game of a simulation. `Library` is the whole loaded content, indexed by kind and name.
"""

from __future__ import annotations

from typing import Optional

import attrs

from .effects import Condition, Quantity
from .names import NO_NAMES, Names


from .diagnostics import Span as Source  # where a definition's name is written


@attrs.frozen
class VictoryPoints:
    """`points` alone; or `points` per (quantity // divisor); or `points` if condition."""

    points: int
    per: Optional[Quantity] = None
    divisor: int = 1
    condition: Optional[Condition] = None


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


@attrs.frozen
class StandardProject:
    name: str
    cost: int
    play: tuple
    variant: Optional[str]
    source: Source
    kind: str = "standard_project"
    set: str = "base"


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
    card that cannot be played is discarded and its owner carries out `unplayable` instead."""

    name: str
    set: str
    deal: int
    keep: int
    unplayable: tuple
    source: Source
    kind: str = "card_kind"
    stages: tuple[str, ...] = ()   # `stages: distant, coming, current`: cards move through them (none: no stages)


@attrs.frozen
class Rule:
    """A rule of the game declared in text: `play` carried out `at` a point of the game (`end of generation`: after
    the production phase of every generation but the last), decided `by` the first player or by each player in
    turn order. Rules of one moment run in the order they are loaded, except that a rule runs `after` the rules of
    the sets it names."""

    name: str
    set: str
    at: str                          # end_of_generation
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


KINDS = ("card", "corporation", "standard_project", "standard_action", "milestone", "award", "board", "parameter",
         "card_kind", "rule", "expansion")


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
