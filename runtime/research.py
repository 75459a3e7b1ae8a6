"""A research API over the engine in the shape game-AI people know (OpenSpiel's `State`, PettingZoo's AEC loop).

The engine already stops at every decision with the complete list of legal options; this module names those
options by integers and adds what search algorithms need besides:

- `legal_actions()`: the integers `0..n-1`, one per option of the pending decision, in the engine's order. An
  integer's meaning is stable for that decision (the same state always lists the same options in the same order),
  and `action_to_string` gives its readable label, which is stable across determinisations too.
- `apply_action(a)`, `clone()`, `current_player()`, `is_terminal()`, `returns()`.
- `observation(player)`: what that player can see as plain data (JSON-ready): everything public, their own hand,
  and only the sizes of other hands and of the deck.
- `determinize(player, seed)`: a clone in which what `player` cannot see (the order of the deck, the other
  players' hands) is resampled consistently: the same unseen cards, redealt at random into the same places and
  sizes. Information-set search samples one determinisation per iteration.

Returns are zero-sum: the winner gets +1, the others share -1 (a draw on points and megacredits splits the win).
In solo games the one player gets +1 for a win and -1 otherwise.

The module is card-free like the rest of the runtime; it reads the state, it never changes rules.
"""

from __future__ import annotations

import random
from typing import Optional

from .decisions import Decision
from .game import Game, GameOptions

TERMINAL = -4  # OpenSpiel's kTerminalPlayerId


class GameState:
    """One game position, driven by integer actions. Wraps a `Game`; `game` stays available for anything else."""

    __slots__ = ("game",)

    def __init__(self, game: Game):
        self.game = game

    @classmethod
    def new_game(cls, players: int = 2, seed: int = 0, **options) -> "GameState":
        """A new game with `players` seats named p0, p1, ...; `options` are `GameOptions` fields
        (board, corporate_era, draft, ...)."""
        names = tuple(f"p{i}" for i in range(players))
        return cls(Game(GameOptions(players=names, seed=seed, **options)))

    # ------------------------------------------------------------------ the OpenSpiel surface

    def current_player(self) -> int:
        decision = self.game.pending()
        return TERMINAL if decision is None else decision.player

    def is_terminal(self) -> bool:
        return self.game.pending() is None

    def decision(self) -> Optional[Decision]:
        """The pending decision (its `kind` and `prompt` say what is being asked), None at the end."""
        return self.game.pending()

    def legal_actions(self) -> list[int]:
        decision = self.game.pending()
        return [] if decision is None else list(range(len(decision.options)))

    def action_to_string(self, action: int) -> str:
        return self._decision().options[self._check(action)].label

    def string_to_action(self, label: str) -> int:
        decision = self._decision()
        option = decision.find(label)
        if option is None:
            raise ValueError(f"{label!r} is not a legal choice ({decision.prompt})")
        return decision.options.index(option)

    def apply_action(self, action: int) -> None:
        self.game.apply(self._check(action))

    def clone(self) -> "GameState":
        return GameState(self.game.clone())

    def returns(self) -> list[float]:
        """Zero-sum utilities at the end of the game; all zero before it."""
        count = len(self.game.state.players)
        result = self.game.result
        if result is None:
            return [0.0] * count
        if self.game.options.solo:
            return [1.0 if result.get("solo_won") else -1.0]
        return _zero_sum(result["players"])

    def num_players(self) -> int:
        return len(self.game.state.players)

    # ------------------------------------------------------------------ hidden information

    def observation(self, player: int) -> dict:
        """What `player` can see, as plain data. Other hands and the deck appear only as their sizes."""
        player = self._player(player)
        state = self.game.state
        decision = self.game.pending()
        return {
            "observer": player,
            "generation": state.generation,
            "phase": state.phase,
            "first_player": state.first_player,
            "temperature": state.temperature,
            "oxygen": state.oxygen,
            "oceans": state.oceans,
            "parameters": dict(state.parameters),
            "tiles": {space: [tile.kind, tile.owner, tile.name] for space, tile in state.tiles.items()},
            "milestones": [list(m) for m in state.milestones],
            "awards": [list(a) for a in state.awards],
            "deck_size": len(state.deck),
            "discard": list(state.discard),
            "players": [{
                "name": p.name,
                "corporation": p.corporation,
                "tr": p.tr,
                "resources": dict(p.resources),
                "production": dict(p.production),
                "played": [[c.name, c.resources] for c in p.played],
                "events": list(p.events),
                "passed": p.passed,
                **({"hand": list(p.hand)} if i == player else {"hand_size": len(p.hand)}),
            } for i, p in enumerate(state.players)],
            "current_player": TERMINAL if decision is None else decision.player,
            "decision": None if decision is None or decision.player != player else
            {"kind": decision.kind, "prompt": decision.prompt, "options": decision.labels()},
        }

    def determinize(self, player: int, seed: int) -> "GameState":
        """A clone consistent with everything `player` has seen, with the unseen cards (deck and other hands)
        redealt at random; later reshuffles of the discard pile follow `seed` as well."""
        player = self._player(player)
        if not isinstance(seed, int) or isinstance(seed, bool):  # random.Random(None) would draw from the clock
            raise ValueError(f"seed {seed!r} is not an integer")
        copy = self.game.clone()
        state = copy.state
        rng = random.Random(seed)
        others = [p for p in state.players if p.index != player]
        unseen = list(state.deck)
        for p in others:
            unseen.extend(p.hand)
        rng.shuffle(unseen)
        cut = len(state.deck)
        state.deck[:] = unseen[:cut]
        for p in others:
            size = len(p.hand)
            p.hand[:] = unseen[cut:cut + size]
            cut += size
        copy.reseed(rng.getrandbits(63))
        return GameState(copy)

    # ------------------------------------------------------------------ helpers

    def _decision(self) -> Decision:
        decision = self.game.pending()
        if decision is None:
            raise ValueError("the game is over")
        return decision

    def _player(self, player: int) -> int:
        """`player` if it is a seat of this game (an int from 0), else ValueError: a wrong value (None, '0', True,
        a seat too many) would otherwise observe or determinise for nobody, or for the wrong player."""
        count = len(self.game.state.players)
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < count:
            raise ValueError(f"player {player!r} is not a player of this game (players: 0..{count - 1})")
        return player

    def _check(self, action: int) -> int:
        count = len(self._decision().options)
        if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < count:
            raise ValueError(f"action {action!r} is not legal here (legal: 0..{count - 1})")
        return action

    def __repr__(self) -> str:
        decision = self.game.pending()
        where = "over" if decision is None else f"{self.game.state.players[decision.player].name}: {decision.prompt}"
        return f"<GameState generation {self.game.state.generation}, {where}>"


def _zero_sum(players: list[dict]) -> list[float]:
    """+1 to the winner, -1 shared by the others; ties on points and megacredits share the win."""
    key = [(row["total"], row["megacredits"]) for row in players]
    best = max(key)
    winners = [i for i, k in enumerate(key) if k == best]
    if len(winners) == len(players):
        return [0.0] * len(players)
    win, loss = 1.0 / len(winners), -1.0 / (len(players) - len(winners))
    return [win if i in winners else loss for i in range(len(players))]
