"""A research API over the engine in the shape game-AI people know (OpenSpiel's `State`, PettingZoo's AEC loop).

The engine already stops at every decision with the complete list of legal options; this module names those
options by integers and adds what search algorithms need besides:

- `legal_actions()`: the integers `0..n-1`, one per option of the pending decision, in the engine's order. An
  integer's meaning is stable for that decision (the same state always lists the same options in the same order),
  and `action_to_string` gives its readable label, which is stable across determinisations too.
- `apply_action(a)`, `clone()`, `current_player()`, `is_terminal()`, `returns()`.
- `observation(player)`: what that player can see as plain data (JSON-ready): everything public, their own hand,
  and only the sizes of other hands and of the deck; `observation_tensor(player)` and `information_state_tensor
  (player)` the same (and the player's recall) as vectors, in the one encoding the adapters of tharsis/envs/ hand on
  (encoding.py).
- `determinize(player, seed)`: a clone in which what `player` cannot see (the order of the deck, the other
  players' hands) is resampled consistently: the same unseen cards, redealt at random into the same places and
  sizes, whatever the real places of the unseen cards. Information-set search samples one determinisation per
  iteration.

Returns are zero-sum: the winner gets +1, the others share -1 (a draw on points and megacredits splits the win).
In solo games the one player gets +1 for a win and -1 otherwise.

The module is card-free like the rest of the runtime; it reads the state, it never changes rules.
"""

from __future__ import annotations

import json
import numbers
import operator
import random
from typing import Optional

from ..core.decisions import Decision
from ..core.state import corporation_to_data
from . import hidden
from .action_space import action_space
from .encoding import encoding_for
from .game import Game, GameOptions
from .option_features import option_features_for

TERMINAL = -4  # OpenSpiel's kTerminalPlayerId


class GameState:
    """One game position, driven by integer actions. Wraps a `Game`; `game` stays available for anything else."""

    __slots__ = ("game",)

    def __init__(self, game: Game):
        self.game = game

    @classmethod
    def new_game(cls, players: int = 2, seed: int = 0, **options) -> "GameState":
        """A new game with `players` seats named p0, p1, ...; `options` are `GameOptions` fields
        (board, corporate_era, draft, ...); ValueError for anything else (`players=True` is not 1 player)."""
        if not isinstance(players, numbers.Integral) or isinstance(players, bool):
            raise ValueError(f"players {players!r} is not a number of players")
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

    def __deepcopy__(self, memo) -> "GameState":
        return self.clone()

    def __reduce__(self):
        return (GameState, (self.game,))  # the game pickles through its save format (`Game.__reduce__`)

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
        playing = hidden.being_played(self.game)
        marks = {space: dict(tile.marks) for space, tile in state.tiles.items() if tile.marks}
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
            "claims": dict(state.claims),
            "playing": None if playing is None else list(playing),
            "milestones": [list(m) for m in state.milestones],
            "awards": [list(a) for a in state.awards],
            # a game with a government: its factions' pieces and leaders, the ruling and dominant one, the role
            # holder (a player, NEUTRAL or None) and the neutral reserve; and the face-up cards of kinds with stages,
            # first stage first (games without them observe exactly as before)
            **({"government": _government(state.government)} if state.government is not None else {}),
            **({"stages": {kind: list(cards) for kind, cards in state.stages.items()}} if state.stages else {}),
            # the named markers on the board (`place marker`): name -> [space, owner, blocks tiles]
            **({"markers": {name: [m.space, m.owner, m.blocks] for name, m in state.markers.items()}}
               if state.markers else {}),
            # the tiles under others (`place city on top of ocean`): space -> [kind, owner]; the declared marks on
            # tiles (`put cathedral on city`): space -> {mark: count} (only in games that have them)
            **({"covered": {space: [t.kind, t.owner] for space, t in state.covered.items()}} if state.covered else {}),
            **({"marks": marks} if marks else {}),
            "deck_size": len(state.deck),
            # the discard pile as the observer sees it: the cards face up and their own face down; of the others'
            # face-down cards (research cards not bought, cards not kept) only how many
            "discard": [n for n in state.discard if state.face_down.get(n, player) == player],
            "discard_face_down": sum(1 for owner in state.face_down.values() if owner != player),
            "players": [{
                "name": p.name,
                "corporation": corporation_to_data(p.corporations),  # a list only for several
                "tr": p.tr,
                "resources": dict(p.resources),
                "production": dict(p.production),
                "played": [[c.name, c.resources] for c in p.played],
                "events": list(p.events),
                "used_actions": [c.name for c in p.played if c.used],
                "tr_raised_this_generation": p.tr_raised_this_generation,
                "passed": p.passed,
                **({"hand": list(p.hand)} if i == player else {"hand_size": len(p.hand)}),
                **(({"kept": list(state.kept[i])} if i == player else {"kept_size": len(state.kept[i])})
                   if state.kept else {}),
                **({"pieces": dict(p.pieces)} if p.pieces else {}),
            } for i, p in enumerate(state.players)],
            **({"sites": [{"name": s.name, "marker": s.marker, "active": s.active, "pieces": list(s.pieces),
                           "visitor": s.visitor} for s in state.sites], "set_aside": list(state.set_aside)}
               if state.sites or state.set_aside else {}),
            "held": hidden.held_by_flow(self.game, player),
            "current_player": TERMINAL if decision is None else decision.player,
            "decision": None if decision is None or decision.player != player else
            {"kind": decision.kind, "prompt": decision.prompt, "options": decision.labels()},
        }

    def information_state_string(self, player: int) -> str:
        """What `player` knows, with perfect recall, as text: every logged choice in order (the public ones as
        their labels, the player's own too; another player's private choice, what they bought, drafted, kept or
        which corporation they took, only as `p1 buy ?`), then the player's observation now. Equal strings, equal
        knowledge: a key for the nodes of information-set search."""
        player = self._player(player)
        lines = [label if who == player or kind not in hidden.PRIVATE_KINDS else f"p{who} {kind} ?"
                 for who, kind, label in self.game.choices()]
        lines.append(json.dumps(self.observation(player), sort_keys=True, separators=(",", ":")))
        return "\n".join(lines)

    def observation_tensor(self, player: int) -> list[float]:
        """What `player` sees now as a vector of floats (runtime/api/encoding.py; `observation_tensor_layout()` names
        its parts), of one length for every game of the content: what the PettingZoo and OpenSpiel adapters give."""
        player = self._player(player)
        return encoding_for(self.game).observation(self.observation(player))

    def fill_observation_tensor(self, player: int, out) -> None:
        """Writes `observation_tensor(player)` into `out`, a zeroed buffer of its length that takes item and slice
        assignment (a numpy float32 array: the adapters' observation without a list of 9,000 floats to convert)."""
        player = self._player(player)
        encoding_for(self.game).fill(out, self.observation(player))

    def observation_tensor_layout(self) -> list[tuple[str, int]]:
        """(part, length) of `observation_tensor`, in order; the total is its length."""
        return list(encoding_for(self.game).layout)

    def information_state_tensor(self, player: int) -> list[float]:
        """What `player` knows as a vector of floats (`information_state_tensor_layout()` names its parts): the
        observation tensor, plus every card the player's own choices named (their recall)."""
        player = self._player(player)
        return encoding_for(self.game).information_state(self.game, player, self.observation(player))

    def fill_information_state_tensor(self, player: int, out) -> None:
        """Writes `information_state_tensor(player)` into `out`, a zeroed buffer of its length (as
        `fill_observation_tensor`)."""
        player = self._player(player)
        encoding_for(self.game).fill_information_state(out, self.game, player, self.observation(player))

    def information_state_tensor_layout(self) -> list[tuple[str, int]]:
        """(part, length) of `information_state_tensor`, in order; the total is its length."""
        encoding = encoding_for(self.game)
        return list(encoding.layout + encoding.recall)

    def option_features(self, player: int) -> tuple[list[int], list[list[float]]]:
        """The legal moves of the pending decision as the fixed action space's ids (ascending: action_space.py) and
        one row of features for each (what kind of move, the card it names with its cost, tags, requirements, VP and
        what it does, the space, the payment, the number...: option_features.py; `option_features_columns()` names
        the columns); both empty unless `player` is the one to decide."""
        player = self._player(player)
        decision = self.game.pending()
        if decision is None or decision.player != player:
            return [], []
        return option_features_for(self.game).rows(self.game, decision, action_space(self.game).legal(decision))

    def option_features_columns(self) -> list[str]:
        """The name of every column of `option_features` rows, in order (`"tags: science"`, `"does production:
        heat"`): the same for every game of the content."""
        return list(option_features_for(self.game).columns)

    def determinize(self, player: int, seed: int) -> "GameState":
        """A clone consistent with everything `player` has seen, with the unseen cards (deck and other hands)
        redealt at random; later reshuffles of the discard pile follow `seed` as well. The redeal depends on what
        `player` knows and on `seed` alone, never on where the unseen cards really are."""
        player = self._player(player)
        if not isinstance(seed, int) or isinstance(seed, bool):  # random.Random(None) would draw from the clock
            raise ValueError(f"seed {seed!r} is not an integer")
        copy = self.game.clone()
        rng = random.Random(seed)
        hidden.determinize(copy, player, rng)
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
        """`action` as a plain int if it indexes an option: any integer type (numpy's too, through
        `numbers.Integral`), never a bool, a float or a string."""
        count = len(self._decision().options)
        # a plain int, what most callers pass, skips the abstract class's check (a Python frame at every step)
        if type(action) is not int and (isinstance(action, bool) or not isinstance(action, numbers.Integral)):
            raise ValueError(f"action {action!r} is not an integer (a {type(action).__name__}; legal: "
                             f"0..{count - 1})")
        index = operator.index(action)
        if not 0 <= index < count:
            raise ValueError(f"action {index} is not legal here (legal: 0..{count - 1})")
        return index

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


def _government(government) -> dict:
    return {"ruling": government.ruling, "dominant": government.dominant, "role": government.role,
            "neutral": government.neutral,
            "factions": [{"name": f.name, "pieces": list(f.pieces), "leader": f.leader} for f in government.factions]}
