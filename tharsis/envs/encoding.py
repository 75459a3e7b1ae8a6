"""The vector observation both adapters share: a player's `observation` (research API) as a fixed-length list of
floats, laid out from the content (cards, spaces, milestones, awards), so one length serves every game of it.

Seats are relative: block 0 is the observer, block 1 the next seat in turn order, and so on, so a policy learnt in
one seat plays in any. Nothing the observer cannot see is read: `observation(player)` has already hidden it.

Layout (`Encoder.layout` lists the blocks and their lengths): the observer's seat and the player to move; the
generation, phase and the global parameters; for every space, its tile kind and owner; for every milestone and
award, who claimed or funded it; per seat, TR, resources, production, hand size, passed, corporation and cards in
play (one slot per card of the content); the observer's hand; the discard pile; the deck size; the kind of the
pending decision if it is the observer's.
"""

from __future__ import annotations

from tharsis.compiler.vocabulary import STANDARD_RESOURCES
from tharsis.runtime.api.action_space import MAX_PLAYERS, ActionSpace, action_space

PHASES = ("setup", "research", "action", "production", "final greenery", "end")
TILE_KINDS = ("city", "greenery", "ocean", "special")
DECISION_KINDS = ("action", "corporation", "buy", "draft", "keep", "discard", "space", "card", "option", "player",
                  "pay", "x", "order", "trigger_order", "final", "play_kept", "award")
_OWNERS = MAX_PLAYERS + 1  # relative seats, then "nobody" (neutral or no owner)


class Encoder:
    """Turns observations of one content into vectors of `size` floats."""

    def __init__(self, space: ActionSpace, parameters: tuple[str, ...]):
        self.cards = {name: i for i, name in enumerate(space.cards)}
        self.spaces = {name: i for i, name in enumerate(space.spaces)}
        self.milestones = _names(space, "milestone")
        self.awards = _names(space, "award")
        self.parameters = ("temperature", "oxygen", "oceans") + tuple(p for p in parameters
                                                                     if p not in ("temperature", "oxygen", "oceans"))
        cards = len(self.cards)
        per_seat = 1 + 2 * len(STANDARD_RESOURCES) + 2 + 2 * cards
        self.layout = (("observer", MAX_PLAYERS), ("to move", _OWNERS), ("generation", 1), ("phase", len(PHASES)),
                       ("parameters", len(self.parameters)),
                       ("tiles", len(self.spaces) * (len(TILE_KINDS) + _OWNERS)),
                       ("milestones", len(self.milestones) * MAX_PLAYERS), ("awards", len(self.awards) * MAX_PLAYERS),
                       ("seats", MAX_PLAYERS * per_seat), ("hand", cards), ("discard", cards), ("deck", 1),
                       ("decision", len(DECISION_KINDS)))
        self.size = sum(length for _, length in self.layout)
        self._per_seat = per_seat

    def encode(self, observation: dict) -> list[float]:
        vector = [0.0] * self.size
        at = 0
        observer = observation["observer"]
        players = observation["players"]
        count = len(players)

        def seat(index) -> int:  # relative to the observer; "nobody" for None or the neutral player
            return (index - observer) % count if isinstance(index, int) and 0 <= index < count else MAX_PLAYERS

        vector[at + 0] = 1.0  # the observer is seat 0 of its own view
        at += MAX_PLAYERS
        vector[at + seat(observation["current_player"])] = 1.0
        at += _OWNERS
        vector[at] = observation["generation"] / 20.0
        at += 1
        if observation["phase"] in PHASES:
            vector[at + PHASES.index(observation["phase"])] = 1.0
        at += len(PHASES)
        values = dict(observation["parameters"], temperature=observation["temperature"],
                      oxygen=observation["oxygen"], oceans=observation["oceans"])
        for i, name in enumerate(self.parameters):
            vector[at + i] = values.get(name, 0) / 30.0
        at += len(self.parameters)
        width = len(TILE_KINDS) + _OWNERS
        for space, (kind, owner, _name) in observation["tiles"].items():
            index = self.spaces.get(space)
            if index is not None:
                base = at + index * width
                if kind in TILE_KINDS:
                    vector[base + TILE_KINDS.index(kind)] = 1.0
                vector[base + len(TILE_KINDS) + seat(owner)] = 1.0
        at += len(self.spaces) * width
        for table, rows in ((self.milestones, observation["milestones"]), (self.awards, observation["awards"])):
            for name, owner, *_ in rows:
                if name in table and seat(owner) < MAX_PLAYERS:
                    vector[at + table[name] * MAX_PLAYERS + seat(owner)] = 1.0
            at += len(table) * MAX_PLAYERS
        cards = len(self.cards)
        for index, player in enumerate(players):
            base = at + seat(index) * self._per_seat
            vector[base] = player["tr"] / 50.0
            for i, resource in enumerate(STANDARD_RESOURCES):
                vector[base + 1 + i] = player["resources"].get(resource, 0) / 50.0
                vector[base + 1 + len(STANDARD_RESOURCES) + i] = player["production"].get(resource, 0) / 10.0
            base += 1 + 2 * len(STANDARD_RESOURCES)
            vector[base] = len(player["hand"]) / 20.0 if "hand" in player else player["hand_size"] / 20.0
            vector[base + 1] = 1.0 if player["passed"] else 0.0
            base += 2
            if player["corporation"] in self.cards:
                vector[base + self.cards[player["corporation"]]] = 1.0
            for name, resources in player["played"]:
                if name in self.cards:
                    vector[base + cards + self.cards[name]] = 1.0 + min(resources, 20) / 20.0
        at += MAX_PLAYERS * self._per_seat
        for name in players[observer].get("hand", ()):
            if name in self.cards:
                vector[at + self.cards[name]] = 1.0
        at += cards
        for name in observation["discard"]:
            if name in self.cards:
                vector[at + self.cards[name]] = 1.0
        at += cards
        vector[at] = observation["deck_size"] / 100.0
        at += 1
        decision = observation["decision"]
        if decision is not None and decision["kind"] in DECISION_KINDS:
            vector[at + DECISION_KINDS.index(decision["kind"])] = 1.0
        return vector


def _names(space: ActionSpace, segment: str) -> dict[str, int]:
    start, count = space.segments[segment]
    return {space.describe(start + i).split(" ", 1)[1]: i for i in range(count)}


def encoder_for(game) -> Encoder:
    """The encoder of the content `game` plays with (every declared parameter has a slot, in play or not)."""
    space = action_space(game)
    found = _ENCODERS.get(id(space))
    if found is None or found[0] is not space:
        parameters = tuple(sorted(p.name for p in game.content.of_kind("parameter")))
        found = _ENCODERS[id(space)] = (space, Encoder(space, parameters))
    return found[1]


_ENCODERS: dict[tuple, tuple] = {}
