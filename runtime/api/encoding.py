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

from tharsis.compiler.vocabulary import GLOBAL_RANGES, STANDARD_RESOURCES, TILES

from ..core.decisions import DECISION_KINDS
from ..core.state import MAX_PLAYERS, PHASES
from .action_space import ActionSpace, action_space

if TYPE_CHECKING:
    from .game import Game

__all__ = ["SCALES", "Encoding", "encoding_for"]

# what a count is divided by: about its largest value in a game, so that the numbers stay near 0 to 1
SCALES = {"generation": 20.0, "tr": 50.0, "stock": 50.0, "production": 10.0, "hand": 20.0, "deck": 100.0,
          "card resources": 20.0}
_NOBODY = MAX_PLAYERS    # the owner slot after the seats: no owner (an ocean) or the solo game's neutral player
SEAT_NUMBERS = ("tr", *STANDARD_RESOURCES, *(f"{r} production" for r in STANDARD_RESOURCES), "hand size",
                "kept size", "passed", "tr raised this generation")


class Encoding:
    """The vector layout of one content: `observation(observation)` and `information_state(game, player,
    observation)` fill it; `layout` and `recall` are its parts, (what, length) in order."""

    def __init__(self, space: ActionSpace, scales: dict[str, tuple[int, int]]):
        self.cards = {name: i for i, name in enumerate(space.cards)}
        self.spaces = {name: i for i, name in enumerate(space.spaces)}
        self.milestones = {name: i for i, name in enumerate(space.keys("milestone"))}
        self.awards = {name: i for i, name in enumerate(space.keys("award"))}
        self.scales = scales
        cards = len(self.cards)
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
            (f"per seat, relative to the observer (0 = the observer): {', '.join(SEAT_NUMBERS)}, corporation "
             "(one-hot over the cards), cards in play (1 + resources on it / 20, over the cards)",
             MAX_PLAYERS * self.per_seat),
            ("used card actions (multi-hot over the cards)", cards),
            ("the observer's hand (multi-hot)", cards),
            ("the observer's kept cards and the cards the flow holds for them: offer, pack, dealt (multi-hot)", cards),
            ("the discard pile (multi-hot)", cards),
            ("the card being played (one-hot)", cards),
            (f"the observer's pending decision (one-hot: {', '.join(DECISION_KINDS)})", len(DECISION_KINDS)),
        )
        self.recall = (("cards named by the observer's own past choices (multi-hot)", cards),)
        self.size = sum(length for _, length in self.layout)

    def observation(self, observation: dict) -> list[float]:
        """The vector of an observation (research.py's `observation(player)`), `size` long."""
        vector = [0.0] * self.size
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
        vector[at + 1] = len(observation["discard"]) / SCALES["deck"]
        at += 2
        claims = observation["claims"]
        for space, index in self.spaces.items():
            base = at + index * self.per_space
            tile = observation["tiles"].get(space)
            if tile is not None:
                kind, owner, _name = tile
                if kind in TILES:
                    vector[base + TILES.index(kind)] = 1.0
                vector[base + len(TILES) + seat(owner)] = 1.0
            if space in claims:
                vector[base + self.per_space - 1] = 1.0
        at += len(self.spaces) * self.per_space
        for table, rows in ((self.milestones, observation["milestones"]), (self.awards, observation["awards"])):
            for name, owner, *_ in rows:
                if name in table and seat(owner) < MAX_PLAYERS:
                    vector[at + table[name] * MAX_PLAYERS + seat(owner)] = 1.0
            at += len(table) * MAX_PLAYERS
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
            mark(base, (player["corporation"],), self.cards)
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
        return vector

    def information_state(self, game: "Game", player: int, observation: dict) -> list[float]:
        """The observation's vector followed by the player's recall: every card their own choices named."""
        recall = [0.0] * len(self.cards)
        for who, _kind, label in game.choices():
            if who == player:
                index = self.cards.get(label.split(" ", 1)[-1])
                if index is not None:
                    recall[index] = 1.0
        return self.observation(observation) + recall


def encoding_for(game: "Game") -> Encoding:
    """The encoding of the content `game` plays with (made once per content and shared): every declared parameter
    has a slot, in play or not."""
    space = action_space(game)
    found = _ENCODINGS.get(id(space))
    if found is None or found[0] is not space:
        scales = {name: scale[:2] for name, scale in GLOBAL_RANGES.items()}
        scales.update((p.name, (p.low, p.high)) for p in sorted(game.content.of_kind("parameter"),
                                                                key=lambda p: p.name))
        found = _ENCODINGS[id(space)] = (space, Encoding(space, scales))
    return found[1]


_ENCODINGS: dict[int, tuple] = {}
