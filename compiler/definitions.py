"""Compiled definitions: cards, corporations, standard projects and actions, milestones, awards, boards.

Pipeline place: the output of checker.py and the input of runtime/. Frozen attrs classes, so one compiled
library is shared by every game of a simulation. `Library` is the whole loaded content, indexed by kind and name.
"""

from __future__ import annotations

from typing import Optional

import attrs

from .effects import Condition, Quantity


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
    """One option of an action: pay `cost` (a sequence of effects), then carry out `effects`."""

    cost: tuple
    effects: tuple


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


@attrs.frozen
class StandardAction:
    name: str
    cost: int
    cost_resource: str
    play: tuple
    variant: Optional[str]
    source: Source
    kind: str = "standard_action"


@attrs.frozen
class Milestone:
    name: str
    requirement: Condition
    source: Source
    kind: str = "milestone"


@attrs.frozen
class Award:
    name: str
    measure: Quantity
    source: Source
    kind: str = "award"


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


KINDS = ("card", "corporation", "standard_project", "standard_action", "milestone", "award", "board")


@attrs.frozen
class Header:
    """The kind, name and number of a definition that has a syntax error: it compiles to nothing, but its name and
    number still take part in the duplicate checks, so a clash is reported while the syntax error is fixed."""

    kind: str
    name: str
    number: Optional[str]
    source: Source


@attrs.define
class Library:
    """Everything loaded from a set of files, ready for the runtime. Names are unique across kinds."""

    definitions: list = attrs.field(factory=list)

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
