"""What a player knows as a vector of floats: the one encoding of the research view (research.py's
`observation_tensor` and `information_state_tensor`), which the PettingZoo and OpenSpiel adapters (tharsis/envs/)
hand on as it is.

The layout is made from the content a game loads, never from one game's options: the action space's tables
(every card, corporation and card of a declared kind; every space of every board; every milestone and award) and
every declared parameter, so one length serves every game of a content, and a policy learnt on Tharsis plays on
Hellas, with or without an expansion. Seats are relative: block 0 is the observer, block 1 the next seat, and so
on, so a policy learnt in one seat plays in any. Numbers are scaled to about 0 to 1: a global parameter on its
declared scale, a count by a typical largest value (`SCALES`).

It reads the observation (`GameState.observation(player)`), which has already hidden what the player cannot see;
the information state adds the player's recall: the cards their own past choices named. `Encoding.layout` and
`Encoding.recall` name the parts and their lengths (docs/api.md lists them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from tharsis.compiler.effects import PlaceMarker
from tharsis.compiler.vocabulary import GLOBAL_RANGES, STANDARD_RESOURCES, TILES

from ..core.decisions import DECISION_KINDS
from ..core.state import MAX_PLAYERS, PHASES, corporations_from_data
from .action_space import ActionSpace, action_space

if TYPE_CHECKING:
    from .game import Game

__all__ = ["SCALES", "Encoding", "encoding_for", "marker_entries"]

# what a count is divided by: about its largest value in a game, so that the numbers stay near 0 to 1
SCALES = {"generation": 20.0, "tr": 50.0, "stock": 50.0, "production": 10.0, "hand": 20.0, "deck": 100.0,
          "card resources": 20.0, "pieces": 5.0}
_NOBODY = MAX_PLAYERS    # the owner slot after the seats: no owner (an ocean) or the solo game's neutral player
SEAT_NUMBERS = ("tr", *STANDARD_RESOURCES, *(f"{r} production" for r in STANDARD_RESOURCES), "hand size",
                "kept size", "passed", "tr raised this generation")


class Encoding:
    """The vector layout of one content: `observation(observation)` and `information_state(game, player,
    observation)` fill it; `layout` and `recall` are its parts, (what, length) in order."""

    def __init__(self, space: ActionSpace, scales: dict[str, tuple[int, int]], sites: dict = None,
                 pieces: dict = None, factions: tuple = (), neutral: int = 0, stages: tuple = (),
                 markers: bool = False):
        """`sites`: every declared site of the content, name -> (track length, capacity); `pieces`: every declared
        kind of piece, name -> the most one player may hold (its limit, or a typical count); `factions`: the factions
        of every declared government of the content, in order; `neutral`: the most neutral pieces a government
        starts with (the scale of its reserve and of a faction's pieces); `stages`: (kind, stage) of every kind of
        card with stages; `markers`: whether some definition of the content places a named marker on the board (a
        part of its own, last, so that content without one keeps its layout)."""
        self.markers = markers
        self.cards = {name: i for i, name in enumerate(space.cards)}
        self.spaces = {name: i for i, name in enumerate(space.spaces)}
        self.milestones = {name: i for i, name in enumerate(space.keys("milestone"))}
        self.awards = {name: i for i, name in enumerate(space.keys("award"))}
        self.scales = scales
        cards = len(self.cards)
        self.factions = {name: i for i, name in enumerate(factions)}
        self.neutral = max(1, neutral)
        self.stages = {key: i for i, key in enumerate(stages)}
        self.per_faction = 2 + 2 * (MAX_PLAYERS + 1)   # ruling, dominant; leader, pieces: each seat or neutral
        self.sites = dict(sorted((sites or {}).items()))
        self.pieces = dict(sorted((pieces or {}).items()))
        self.per_site = 3 + (MAX_PLAYERS + 1) + MAX_PLAYERS   # in play, active, marker; visitor; pieces per seat
        self.per_space = len(TILES) + MAX_PLAYERS + 2    # kind, owner (a seat or nobody), Land Claim
        self.per_seat = len(SEAT_NUMBERS) + 2 * cards
        self.layout = (
            (f"observer's seat (one-hot, {MAX_PLAYERS} seats)", MAX_PLAYERS),
            ("number of players (one-hot)", MAX_PLAYERS),
            ("player to move, relative to the observer, or nobody (one-hot)", MAX_PLAYERS + 1),
            ("first player, relative (one-hot)", MAX_PLAYERS),
            ("generation", 1),
            (f"phase (one-hot: {', '.join(PHASES)})", len(PHASES)),
            (f"global parameters on their declared scales, 0 to 1 ({', '.join(scales)})", len(scales)),
            ("deck size, discard pile size", 2),
            (f"per space of every board: tile kind (one-hot: {', '.join(TILES)}), owner (relative seat or nobody), "
             "Land Claim", len(self.spaces) * self.per_space),
            ("per milestone: who claimed it (relative seat)", len(self.milestones) * MAX_PLAYERS),
            ("per award: who funded it (relative seat)", len(self.awards) * MAX_PLAYERS),
            ("per declared site of the content: in play, active, marker (0 to 1 along its track), visitor (relative "
             "seat or nobody, one-hot), pieces of each seat (relative; count / capacity)",
             len(self.sites) * self.per_site),
            ("per seat, relative: pieces of each declared kind in supply (count / its limit)",
             MAX_PLAYERS * len(self.pieces)),
            ("per faction of a declared government: ruling, dominant, its leader (relative seat or neutral, "
             "one-hot), its pieces of each seat and neutral (count / the neutral reserve at the start)",
             len(self.factions) * self.per_faction),
            ("the government's role holder (relative seat or neutral, one-hot), the neutral reserve (count / its "
             "start)", (MAX_PLAYERS + 2) if self.factions else 0),
            ("per stage of each kind of card with stages: the card in it (one-hot over the cards)",
             len(self.stages) * cards),
            (f"per seat, relative to the observer (0 = the observer): {', '.join(SEAT_NUMBERS)}, corporation "
             "(one-hot over the cards), cards in play (1 + resources on it / 20, over the cards)",
             MAX_PLAYERS * self.per_seat),
            ("used card actions (multi-hot over the cards)", cards),
            ("the observer's hand (multi-hot)", cards),
            ("the observer's kept cards and the cards the flow holds for them: offer, pack, dealt (multi-hot)", cards),
            ("the discard pile (multi-hot)", cards),
            ("the card being played (one-hot)", cards),
            (f"the observer's pending decision (one-hot: {', '.join(DECISION_KINDS)})", len(DECISION_KINDS)),
            ("per space of every board, when the content places named markers: a marker stands on it, it blocks "
             "tiles", 2 * len(self.spaces) if markers else 0),
        )
        self.recall = (("cards named by the observer's own past choices (multi-hot)", cards),)
        self.size = sum(length for _, length in self.layout)

    def observation(self, observation: dict) -> list[float]:
        """The vector of an observation (research.py's `observation(player)`), `size` long."""
        vector = [0.0] * self.size
        self.fill(vector, observation)
        return vector

    def fill(self, vector, observation: dict) -> None:
        """Writes the vector of an observation into `vector`: zeros, `size` long, anything that takes item and slice
        assignment (a list, or a numpy array, which an adapter then hands on without converting 9,000 Python
        floats: only the hundred or so non-zero entries are written)."""
        observer, players = observation["observer"], observation["players"]
        count = len(players)

        def seat(index) -> int:  # relative to the observer; `_NOBODY` for None or the neutral player
            return (index - observer) % count if isinstance(index, int) and 0 <= index < count else _NOBODY

        def mark(at: int, names, table: dict, value: float = 1.0) -> None:
            for name in names:
                if name in table:
                    vector[at + table[name]] = value

        vector[observer] = 1.0
        at = MAX_PLAYERS
        vector[at + count - 1] = 1.0
        at += MAX_PLAYERS
        vector[at + seat(observation["current_player"])] = 1.0
        at += MAX_PLAYERS + 1
        if seat(observation["first_player"]) < MAX_PLAYERS:
            vector[at + seat(observation["first_player"])] = 1.0
        at += MAX_PLAYERS
        vector[at] = observation["generation"] / SCALES["generation"]
        at += 1
        if observation["phase"] in PHASES:
            vector[at + PHASES.index(observation["phase"])] = 1.0
        at += len(PHASES)
        values = dict(observation["parameters"], **{name: observation[name] for name in GLOBAL_RANGES})
        for i, (name, (low, high)) in enumerate(self.scales.items()):
            if name in values:
                vector[at + i] = (values[name] - low) / (high - low)
        at += len(self.scales)
        vector[at] = observation["deck_size"] / SCALES["deck"]
        vector[at + 1] = (len(observation["discard"]) + observation.get("discard_face_down", 0)) / SCALES["deck"]
        at += 2
        spaces = self.spaces   # the spaces with a tile or a claim only: most of the board is empty most of the game
        for space, (kind, owner, _name) in observation["tiles"].items():
            if space in spaces:
                base = at + spaces[space] * self.per_space
                if kind in TILES:
                    vector[base + TILES.index(kind)] = 1.0
                vector[base + len(TILES) + seat(owner)] = 1.0
        for space in observation["claims"]:
            if space in spaces:
                vector[at + spaces[space] * self.per_space + self.per_space - 1] = 1.0
        at += len(self.spaces) * self.per_space
        for table, rows in ((self.milestones, observation["milestones"]), (self.awards, observation["awards"])):
            for name, owner, *_ in rows:
                if name in table and seat(owner) < MAX_PLAYERS:
                    vector[at + table[name] * MAX_PLAYERS + seat(owner)] = 1.0
            at += len(table) * MAX_PLAYERS
        at = self._sites(vector, at, observation, seat)
        at = self._politics(vector, at, observation, seat)
        cards = len(self.cards)
        for index, player in enumerate(players):
            base = at + seat(index) * self.per_seat
            numbers = [player["tr"] / SCALES["tr"],
                       *(player["resources"].get(r, 0) / SCALES["stock"] for r in STANDARD_RESOURCES),
                       *(player["production"].get(r, 0) / SCALES["production"] for r in STANDARD_RESOURCES),
                       (len(player["hand"]) if "hand" in player else player["hand_size"]) / SCALES["hand"],
                       (len(player["kept"]) if "kept" in player else player.get("kept_size", 0)) / SCALES["hand"],
                       1.0 if player["passed"] else 0.0, float(player["tr_raised_this_generation"])]
            vector[base:base + len(numbers)] = numbers
            base += len(numbers)
            mark(base, corporations_from_data(player["corporation"]), self.cards)
            for name, resources in player["played"]:
                if name in self.cards:
                    vector[base + cards + self.cards[name]] = 1.0 + min(resources, 20) / SCALES["card resources"]
        at += MAX_PLAYERS * self.per_seat
        mark(at, (name for player in players for name in player["used_actions"]), self.cards)
        at += cards
        me = players[observer]
        mark(at, me.get("hand", ()), self.cards)
        at += cards
        mark(at, list(me.get("kept", ())) + list(observation["held"]), self.cards)
        at += cards
        mark(at, observation["discard"], self.cards)
        at += cards
        mark(at, observation["playing"][1:2] if observation["playing"] else (), self.cards)
        at += cards
        decision = observation["decision"]
        if decision is not None and decision["kind"] in DECISION_KINDS:
            vector[at + DECISION_KINDS.index(decision["kind"])] = 1.0
        at += len(DECISION_KINDS)
        if self.markers:
            for entry in marker_entries(self.spaces, at, observation.get("markers", {})):
                vector[entry] = 1.0

    def _politics(self, vector: list, at: int, observation: dict, seat) -> int:
        """The factions, the role and the neutral reserve of a government, and the cards of kinds with stages, from
        `at`; where the next part starts."""
        government = observation.get("government")
        if government is not None:
            for faction in government["factions"]:
                if faction["name"] not in self.factions:
                    continue
                base = at + self.factions[faction["name"]] * self.per_faction
                vector[base] = 1.0 if faction["name"] == government["ruling"] else 0.0
                vector[base + 1] = 1.0 if faction["name"] == government["dominant"] else 0.0
                if faction["leader"] is not None:
                    vector[base + 2 + seat(faction["leader"])] = 1.0
                for owner, pieces in _counts(faction["pieces"], seat).items():   # counted, then scaled: the same
                    vector[base + 3 + MAX_PLAYERS + owner] = pieces / self.neutral   # in float32 as in a list
        at += len(self.factions) * self.per_faction
        if self.factions:
            if government is not None:
                if government["role"] is not None:
                    vector[at + seat(government["role"])] = 1.0
                vector[at + MAX_PLAYERS + 1] = government["neutral"] / self.neutral
            at += MAX_PLAYERS + 2
        for kind, names in (observation.get("stages") or {}).items():
            for stage_index, name in enumerate(names):
                index = self.stages.get((kind, stage_index))
                if index is not None and name in self.cards:
                    vector[at + index * len(self.cards) + self.cards[name]] = 1.0
        return at + len(self.stages) * len(self.cards)
    def _sites(self, vector: list, at: int, observation: dict, seat) -> int:
        """The sites and the supplies of pieces, from `at`; where the next part starts."""
        for site in observation.get("sites", ()):
            if site["name"] not in self.sites:
                continue
            base = at + list(self.sites).index(site["name"]) * self.per_site
            steps, capacity = self.sites[site["name"]]
            vector[base] = 1.0
            vector[base + 1] = 1.0 if site["active"] else 0.0
            vector[base + 2] = site["marker"] / max(1, steps - 1)
            vector[base + 3 + seat(site["visitor"])] = 1.0
            for owner, pieces in _counts(site["pieces"], seat).items():
                if owner < MAX_PLAYERS:
                    vector[base + 3 + MAX_PLAYERS + 1 + owner] = pieces / capacity
        at += len(self.sites) * self.per_site
        kinds = list(self.pieces)
        for index, player in enumerate(observation["players"]):
            for piece, count in player.get("pieces", {}).items():
                if piece in self.pieces and seat(index) < MAX_PLAYERS:
                    vector[at + seat(index) * len(kinds) + kinds.index(piece)] = count / self.pieces[piece]
        return at + MAX_PLAYERS * len(kinds)

    def information_state(self, game: "Game", player: int, observation: dict) -> list[float]:
        """The observation's vector followed by the player's recall: every card their own choices named."""
        vector = [0.0] * (self.size + len(self.cards))
        self.fill_information_state(vector, game, player, observation)
        return vector

    def fill_information_state(self, vector, game: "Game", player: int, observation: dict) -> None:
        """Writes `information_state` into `vector`, zeros of its length (as `fill`)."""
        self.fill(vector, observation)
        for who, _kind, label in game.choices():
            if who == player:
                index = self.cards.get(label.split(" ", 1)[-1])
                if index is not None:
                    vector[self.size + index] = 1.0


def _counts(owners, seat) -> dict[int, int]:
    """How many of `owners` each relative seat holds."""
    found: dict[int, int] = {}
    for owner in owners:
        found[seat(owner)] = found.get(seat(owner), 0) + 1
    return found


def marker_entries(spaces: dict, at: int, markers: dict) -> list[int]:
    """The entries of the markers' part, from `at`: two per space (a marker on it, and whether it blocks tiles);
    `markers`: name -> [space, owner, blocks], as the observation gives them."""
    entries = []
    for space, _owner, blocks in markers.values():
        if space in spaces:
            entries.append(at + 2 * spaces[space])
            if blocks:
                entries.append(at + 2 * spaces[space] + 1)
    return entries


def _places_markers(content) -> bool:
    """Whether some definition of the content has a `place marker` effect (its compiled objects walked)."""
    stack = [d for d in content.definitions]
    while stack:
        item = stack.pop()
        if isinstance(item, PlaceMarker):
            return True
        if isinstance(item, (tuple, list)):
            stack.extend(item)
        elif attrs.has(type(item)):
            stack.extend(getattr(item, f.name) for f in attrs.fields(type(item))
                         if not isinstance(getattr(item, f.name), (str, int, bool, type(None))))
    return False


def encoding_for(game: "Game") -> Encoding:
    """The encoding of the content `game` plays with (made once per content and shared): every declared parameter
    has a slot, in play or not."""
    space = action_space(game)
    found = _ENCODINGS.get(id(space))
    if found is None or found[0] is not space:
        scales = {name: scale[:2] for name, scale in GLOBAL_RANGES.items()}
        scales.update((p.name, (p.low, p.high)) for p in sorted(game.content.of_kind("parameter"),
                                                                key=lambda p: p.name))
        governments = sorted(game.content.of_kind("government"), key=lambda g: g.name)
        factions = tuple(name for government in governments for name in government.factions)
        neutral = max((p.neutral for p in game.content.of_kind("piece")), default=0)
        stages = tuple((kind.name, index) for kind in sorted(game.content.of_kind("card_kind"), key=lambda k: k.name)
                       for index in range(len(kind.stages)))
        sites = {s.name: (len(s.track), s.capacity) for s in game.content.of_kind("site")}
        pieces = {p.name: p.limit or SCALES["pieces"] for p in game.content.of_kind("piece")}
        found = _ENCODINGS[id(space)] = (space, Encoding(space, scales, sites, pieces, factions, neutral, stages,
                                                         _places_markers(game.content)))
    return found[1]


_ENCODINGS: dict[int, tuple] = {}
