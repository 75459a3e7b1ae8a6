"""The OpenSpiel game `tharsis`: importing this module registers it with pyspiel (`pyspiel.load_game("tharsis")`).

Chance is *sampled stochastic* (`ChanceMode.SAMPLED_STOCHASTIC`), not explicit: shuffles and draws happen inside
the engine's effects, at moments no decision marks (a card that draws mid-effect, a reshuffle of the discard pile),
and an explicit chance node per card dealt would have the whole remaining deck as its outcomes (hundreds, each
draw) without making the game any easier to solve. So, as OpenSpiel's sampled-stochastic games do, every initial
state draws its own seed from the game's generator (the `seed` parameter; -1 asks the operating system), and a state
carries its generator, so `clone()` and `serialize()` repeat the same future exactly (`deserialize_state` restores
`history()` too). The game and its states pickle through that serialisation, for multiprocessing. For search over
what a player does not know, `resample_from_infostate(player, sampler)` is the research API's `determinize`, which
IS-MCTS (`open_spiel.python.algorithms.ismcts`) calls at its root.

Actions are the fixed action space's ids (`tharsis.runtime.api.action_space`): `num_distinct_actions()` bounds them
for the game's content. The observation tensor is the research view's (`observation_tensor`:
`tharsis.runtime.api.encoding`) followed by the option features of the pending decision for the player who decides
(`tharsis.runtime.api.option_features`: OPTION_SLOTS rows of features, one per legal action in ascending order, so
row k is `legal_actions()[k]`; zeros for the others); the observer's `dict` names the two parts ("observation" and
"options", rows x columns). `observation_tensor(player)` returns a new float32 numpy array (a sequence, as pyspiel's
lists are): made from a buffer kept up to date in place (`tharsis.envs.features`), it costs a copy, where a list of
20,000 floats would cost more than the game's own step.

The game offers no information-state tensor (`provides_information_state_tensor` is False, and asking for one is a
SpielError): a fixed-length vector with perfect recall would have to hold every move of a game of about 1,000, and
the research view's `information_state_tensor` (the observation and the cards the player's own choices named)
forgets the order of the choices and every choice that names no card, so it is not one. Perfect recall is the
information-state string: the research API's `information_state_string` (every logged choice, another player's
private ones hidden, then the observation now). Parameters: `players` (2-5), `seed`, `corporate_era`, `draft`,
`board`, `expansions` (comma-separated), `max_generations` (0: the rules decide).
"""

from __future__ import annotations

import json
import random
from typing import Optional

import numpy as np
import pyspiel

from tharsis.runtime.api import MAX_PLAYERS
from tharsis.runtime.api.action_space import action_space
from tharsis.runtime.api.game import Game
from tharsis.runtime.api.research import GameState

from .features import Features

__all__ = ["TharsisGame", "TharsisState"]

_TERMINAL = pyspiel.PlayerId.TERMINAL

NO_INFORMATION_STATE_TENSOR = (
    "the game tharsis offers no information-state tensor (its game type says so): no fixed-length vector holds "
    "perfect recall of a game of about 1,000 moves; use information_state_string (perfect recall), "
    "observation_tensor, or research_state.information_state_tensor(player) (the observation and the cards the "
    "player's own choices named, without their order)")
MAX_GAME_LENGTH = 100_000  # moves; the rules end a game long before (about 1,000 moves with random players)

_DEFAULTS = {"players": 2, "seed": -1, "corporate_era": True, "draft": False, "board": "Tharsis",
             "expansions": "", "max_generations": 0}

GAME_TYPE = pyspiel.GameType(
    short_name="tharsis",
    long_name="Tharsis (Terraforming Mars)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,   # not perfect recall as a vector: see the module docstring
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(_DEFAULTS),
)


class _Shared:
    """Held by every copy of a state as it is: pyspiel copies Python states with `copy.deepcopy`."""

    def __init__(self, value):
        self.value = value

    def __deepcopy__(self, memo):
        return self


class _Position:
    """The engine's position inside a state, and the arrays of its decisions (`Features`, made when first asked); a
    deep copy is the engine's `clone()` (microseconds, no recursion), whose arrays are made anew."""

    def __init__(self, state: GameState):
        self.state = state
        self._features: Optional[Features] = None

    @property
    def features(self) -> Features:
        if self._features is None:
            self._features = Features(self.state.game)
        return self._features

    def __deepcopy__(self, memo):
        return _Position(self.state.clone())


class TharsisGame(pyspiel.Game):
    def __init__(self, params=None):
        params = {**_DEFAULTS, **(params or {})}
        players = int(params["players"])
        if not 2 <= players <= MAX_PLAYERS:
            raise ValueError(f"players {players} is not 2..{MAX_PLAYERS}")
        self._options = {"corporate_era": bool(params["corporate_era"]), "draft": bool(params["draft"]),
                         "board": str(params["board"]),
                         "expansions": tuple(e for e in str(params["expansions"]).split(",") if e),
                         "max_generations": int(params["max_generations"]) or None}
        self._players = players
        self._params = params
        probe = GameState.new_game(players=players, seed=0, **self._options)
        self.space = action_space(probe.game)
        features = Features(probe.game)
        self.vector_size, self.slots, self.width = features.size, features.slots, features.width
        self.tensor_size = features.size + features.slots * features.width
        seed = int(params["seed"])
        self._seeds = random.Random(seed if seed >= 0 else None)
        info = pyspiel.GameInfo(num_distinct_actions=self.space.size, max_chance_outcomes=0, num_players=players,
                                min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=MAX_GAME_LENGTH)
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self, seed=None) -> "TharsisState":
        """A new game; each draws a fresh seed from the game's generator unless `seed` is given."""
        if seed is None:
            seed = self._seeds.getrandbits(63)
        return TharsisState(self, GameState.new_game(players=self._players, seed=seed, **self._options))

    def deserialize_state(self, text: str) -> "TharsisState":
        """The state `serialize()` wrote, or ValueError saying what is wrong with the text (docs/api.md)."""
        try:
            data = json.loads(text) if isinstance(text, (str, bytes, bytearray)) else None
        except RecursionError:
            raise ValueError("the state is nested too deep to be one") from None
        if not isinstance(data, dict) or not isinstance(data.get("game"), str):
            raise ValueError("a serialized state is a JSON object with the saved game as a string under 'game'")
        moves = data.get("moves")
        if not isinstance(moves, list) or not all(_is_move(move) for move in moves):
            raise ValueError("a serialized state's 'moves' is a list of [player, decision kind, action] moves")
        game = Game.from_json(data["game"])
        if any(not 0 <= player < len(game.options.players) for player, _, _ in moves):
            raise ValueError("a serialized state's 'moves' names a player the game does not have")
        state = TharsisState(self, GameState(game))
        state._restore_history([tuple(move) for move in moves])
        return state

    def __reduce_ex__(self, protocol):
        """Pickles as its parameters and the state of its generator of seeds: pyspiel's own pickling asks the game
        for a C++ generator state a Python game cannot give ("GetRNGState unimplemented"), which stops the users
        of multiprocessing (a game sent to a worker process)."""
        return _unpickle_game, (self._params, self._seeds.getstate())

    def __reduce__(self):
        return self.__reduce_ex__(2)

    # the tensors' sizes, known from the content: pyspiel's C++ path for a Python game deals a new initial state to
    # learn them (drawing a seed from the generator, so asking would change the games dealt next)
    def observation_tensor_size(self) -> int:
        return self.tensor_size

    def observation_tensor_shape(self) -> list[int]:
        return [self.tensor_size]

    def information_state_tensor_size(self) -> int:
        raise pyspiel.SpielError(NO_INFORMATION_STATE_TENSOR)

    def information_state_tensor_shape(self) -> list[int]:
        raise pyspiel.SpielError(NO_INFORMATION_STATE_TENSOR)

    def make_py_observer(self, iig_obs_type=None, params=None):
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return TharsisObserver(self, recall)


def _unpickle_game(params: dict, seeds: tuple) -> "TharsisGame":
    game = TharsisGame(params)
    game._seeds.setstate(seeds)
    return game


def _unpickle_state(game: "TharsisGame", text: str) -> "TharsisState":
    return game.deserialize_state(text)


def _is_move(move) -> bool:
    """[player, decision kind, action id], as `serialize` writes a move."""
    return (isinstance(move, list) and len(move) == 3 and isinstance(move[1], str)
            and all(isinstance(n, int) and not isinstance(n, bool) for n in (move[0], move[2])))


class TharsisState(pyspiel.State):
    def __init__(self, game: TharsisGame, position: GameState):
        super().__init__(game)
        self._shared = _Shared(game)
        self._position = _Position(position)
        self._moves: list[tuple[int, str, int]] = []   # (player, decision kind, action id) for information states
        self._replaying: Optional[tuple[int, str, int]] = None   # the move `_restore_history` is recording

    def _restore_history(self, moves: list[tuple[int, str, int]]) -> None:
        """Records `moves` in pyspiel's own history (`history()`, `move_number()`, `full_history()`) without
        moving the engine, which is already where they lead: pyspiel keeps that history in C++, written only by
        `apply_action`, so each move is applied as a no-op whose player is the one who made it."""
        try:
            for move in moves:
                self._replaying = move
                self.apply_action(move[2])
        finally:
            self._replaying = None

    @property
    def research_state(self) -> GameState:
        """The research API's state of this position (`.game` is the engine's `Game`)."""
        return self._position.state

    def current_player(self) -> int:
        if self._replaying is not None:
            return self._replaying[0]
        asking = self._position.state.game.flow.asking   # the research API's current_player, without its calls
        return _TERMINAL if asking is None else asking.decision.player

    # legal_actions, rewards and is_chance_node answered here, as pyspiel's C++ `State` answers them (spiel.h,
    # python_games.cc), rather than through its bindings: each of those asks this state's `is_terminal` and
    # `current_player` through pybind11 two or three times first, and OpenSpiel's rl_environment asks all three for
    # every player at every step (docs/benchmarks.md). C++ callers still go through `_legal_actions`.

    def legal_actions(self, player=None) -> list[int]:
        current = self.current_player()
        player = current if player is None else int(player)   # as the binding converts it (an enum, numpy's)
        if self.is_terminal():
            return []
        if player == current:
            return self._legal_actions(player)
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def rewards(self) -> list[float]:
        return self.returns() if self.is_terminal() else [0.0] * self._shared.value.num_players()

    def is_chance_node(self) -> bool:
        return False   # sampled stochastic: chance acts inside the engine (the module docstring), never a player

    def _legal_actions(self, player: int) -> list[int]:
        decision = self._position.state.decision()
        if decision is None or decision.player != player:
            return []
        return list(self._position.features.ids())   # listed once per decision

    def _apply_action(self, action: int) -> None:
        if self._replaying is not None:
            self._moves.append(self._replaying)
            return
        state = self._position.state
        decision = state.decision()
        option = self._position.features.legal().get(int(action))
        if option is None:   # the ValueError that says why the move is illegal
            self._shared.value.space.option(decision, int(action))
        self._moves.append((decision.player, decision.kind, int(action)))
        state.game.apply(option)

    def observation_tensor(self, player=None) -> np.ndarray:
        """The observation tensor of `player` (the player to move by default): the research view's observation
        tensor, then the option features of the pending decision if `player` decides it (zeros otherwise), as a new
        float32 array. Written here, not left to pyspiel's C++ path for Python games, which deals a new initial state
        (and draws a seed from the game's generator) to learn the tensor's size on every call."""
        research = self._position.state
        player = research.current_player() if player is None else player
        if not isinstance(player, int) or not 0 <= player < self._shared.value.num_players():
            research.observation(player)   # the ValueError that names the players
        tensor = np.empty(self._shared.value.tensor_size, np.float32)
        self.fill_observation(player, tensor)
        return tensor

    def fill_observation(self, player: int, tensor: np.ndarray) -> None:
        """Writes `observation_tensor(player)` into `tensor` (float32, its size)."""
        game = self._shared.value
        self._position.features.write(player, tensor[:game.vector_size],
                                      tensor[game.vector_size:].reshape(game.slots, game.width))

    def information_state_tensor(self, player=None) -> list[float]:
        """None: the game type says so (the module docstring says why); a SpielError that says what to use."""
        raise pyspiel.SpielError(NO_INFORMATION_STATE_TENSOR)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._shared.value.space.describe(int(action))

    def is_terminal(self) -> bool:
        return self._position.state.game.flow.asking is None   # the research API's is_terminal, without its calls

    def returns(self) -> list[float]:
        return self._position.state.returns()

    def resample_from_infostate(self, player: int, sampler) -> "TharsisState":
        """A world consistent with what `player` knows (the research API's `determinize`), seeded by `sampler`
        (OpenSpiel's `UniformProbabilitySampler`, or any callable giving floats in [0, 1))."""
        seed = int(sampler() * 2 ** 53)
        copy = self.clone()
        copy._position = _Position(self._position.state.determinize(player, seed))
        return copy

    def serialize(self) -> str:
        return json.dumps({"game": self._position.state.game.to_json(), "moves": self._moves})

    def __reduce_ex__(self, protocol):
        """Pickles through `serialize()` (pyspiel's own pickling fails for a Python game: see `TharsisGame`)."""
        return _unpickle_state, (self.get_game(), self.serialize())

    def __reduce__(self):
        return self.__reduce_ex__(2)

    def __str__(self) -> str:
        return repr(self._position.state)

    def information_state(self, player: int) -> str:
        return self._position.state.information_state_string(player)


class TharsisObserver:
    """OpenSpiel's Python observer: the observation tensor as `tensor`, with `dict` naming its parts ("observation",
    the research view's vector, and "options", the option features as rows x columns), and strings (the
    observation, or with perfect recall the information state). A perfect-recall observer has no tensor (`None`, as
    OpenSpiel's observers of what a game does not provide): the game offers none (the module docstring says why)."""

    def __init__(self, game: TharsisGame, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        self.tensor = None if perfect_recall else np.zeros(game.tensor_size, np.float32)
        self.dict = {} if perfect_recall else {
            "observation": self.tensor[:game.vector_size],
            "options": self.tensor[game.vector_size:].reshape(game.slots, game.width)}

    def set_from(self, state: TharsisState, player: int) -> None:
        if self.tensor is not None:
            state.fill_observation(player, self.tensor)

    def string_from(self, state: TharsisState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state(player)
        return json.dumps(state.research_state.observation(player), sort_keys=True)


pyspiel.register_game(GAME_TYPE, TharsisGame)
