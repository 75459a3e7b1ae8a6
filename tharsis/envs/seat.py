"""A Gymnasium environment of one seat against the shipped bots: `SeatEnv(opponents=("random",), **options)`.

The learner plays one seat (`seat`: a fixed index, or None for a seat drawn at each reset); the other seats are the
bots named in `opponents` (`random`, `greedy`, `mcts`: tharsis.runtime.bots.BOTS), each seeded from the environment's
generator, and play their decisions between the learner's inside `step`. Options are `GameOptions` fields
(`corporate_era`, `expansions`, `board`, `draft`, `max_generations`...); the number of players is one more than
the opponents.

Actions (`actions=`): "options" (the default), `Discrete(OPTION_SLOTS)`, action k plays the move of option row k
(the legal moves in ascending id order, as in the observation's `options`); "ids", `Discrete(size)`, the fixed
action space's ids. The observation is a dict:

    observation   the research view's observation tensor of the seat, float32
    options       float32, OPTION_SLOTS x width: a row of features per legal move (docs/api.md names the columns)
    action_mask   int8 over the actions, 1 at the legal ones

and `info` holds `action_mask` (bool, for libraries that read it there), `option_actions` (the action id of each
option row, -1 for an empty one) and `illegal_action`. `action_masks()` gives the mask too, as sb3-contrib's
MaskablePPO asks for it.

An action outside the mask is refused, never raised: the game does not move, the step returns the same
observation, the reward `illegal_reward` (-0.01 by default, so that a learner without masks learns to avoid them)
and `info["illegal_action"]` True; after `max_illegal` refused actions in a row (100) the episode is truncated, so
a policy that ignores the mask cannot loop forever. (Mapping a refused action to a legal one instead would teach a
learner that the action did what it did not.) The reward is otherwise 0 until the end of the game, then the seat's
share of the research API's zero-sum returns: +1 for a win, -1 for a loss against one bot (-1/(n-1) against
several), 0 for a shared game.
"""

from __future__ import annotations

import numbers
import operator
from typing import Optional

import gymnasium
import numpy as np

from tharsis.runtime.api.research import GameState
from tharsis.runtime.bots import BOTS

from .features import Features

__all__ = ["SeatEnv"]


class SeatEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, opponents=("random",), seat: Optional[int] = 0, actions: str = "options",
                 illegal_reward: float = -0.01, max_illegal: int = 100, render_mode: Optional[str] = None,
                 **options):
        opponents = (opponents,) if isinstance(opponents, str) else tuple(opponents)
        unknown = [name for name in opponents if name not in BOTS]
        if not opponents or unknown:
            raise ValueError(f"opponents {list(opponents)!r}: name one or more bots of {', '.join(BOTS)}")
        self.players = 1 + len(opponents)
        if seat is not None and (not isinstance(seat, numbers.Integral) or isinstance(seat, bool)
                                 or not 0 <= seat < self.players):
            raise ValueError(f"seat {seat!r} is not a seat of {self.players} players (or None: drawn at each reset)")
        if actions not in ("options", "ids"):
            raise ValueError(f"actions {actions!r} is not 'options' (rows of option features) or 'ids'")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r} is not None or 'ansi'")
        self.opponents, self.fixed_seat, self.actions = opponents, seat, actions
        self.illegal_reward, self.max_illegal = float(illegal_reward), int(max_illegal)
        self.render_mode = render_mode
        self._options = options
        probe = GameState.new_game(players=self.players, seed=0, **options)
        self._features = features = Features(probe.game)
        count = features.slots if actions == "options" else features.space.size
        self.action_space = gymnasium.spaces.Discrete(count)
        self.observation_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-np.inf, np.inf, (features.size,), np.float32),
            "options": gymnasium.spaces.Box(-np.inf, np.inf, (features.slots, features.width), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (count,), np.int8),
        })
        self.state: Optional[GameState] = None
        self.seat = seat if seat is not None else 0
        self._bots: dict = {}
        self._refused = 0

    # ------------------------------------------------------------------ the Gymnasium surface

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        generator = self.np_random
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(generator.integers(self.players))
        self.state = GameState.new_game(players=self.players, seed=int(generator.integers(2 ** 63 - 1)),
                                        **self._options)
        self._features.reset(self.state.game)
        others = [i for i in range(self.players) if i != self.seat]
        self._bots = {i: BOTS[name](int(generator.integers(2 ** 31 - 1))) for i, name in zip(others, self.opponents)}
        self._refused = 0
        self._play_bots()
        return self._observation(), self._info(False)

    def step(self, action):
        if self.state is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        game = self.state.game
        if game.over:
            raise gymnasium.error.ResetNeeded("the game is over: call reset()")
        move = self._move(action)
        if move is None:
            self._refused += 1
            return (self._observation(), self.illegal_reward, False, self._refused >= self.max_illegal,
                    self._info(True))
        self._refused = 0
        game.apply(move)
        self._play_bots()
        over = game.over
        reward = float(self.state.returns()[self.seat]) if over else 0.0
        return self._observation(), reward, over, False, self._info(False)

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (sb3-contrib's MaskablePPO calls this)."""
        return self._mask().astype(bool)

    def render(self) -> Optional[str]:
        if self.render_mode != "ansi" or self.state is None:
            return None
        return repr(self.state)

    # ------------------------------------------------------------------ helpers

    def _play_bots(self) -> None:
        """The bots answer every decision until the learner's seat decides or the game ends."""
        game, seat, bots = self.state.game, self.seat, self._bots
        while not game.over:
            decision = game.pending()
            if decision.player == seat:
                return
            game.apply(bots[decision.player].choose(game, decision))

    def _move(self, action):
        """The option an action plays, or None when it is not a legal one (or not an integer: a bool is not one)."""
        if isinstance(action, (bool, np.bool_)):
            return None
        try:
            action = operator.index(action.item() if isinstance(action, np.ndarray) and action.size == 1
                                    else action)
        except TypeError:
            return None
        features = self._features
        if self.actions == "options":
            ids, _ = features.option_slots(self.seat)
            if not 0 <= action < len(ids) or ids[action] < 0:
                return None
            action = int(ids[action])
        return features.legal().get(action)

    def _mask(self) -> np.ndarray:
        features = self._features
        deciding = not self.state.game.over and self.state.current_player() == self.seat
        if self.actions == "options":
            return features.option_slots(self.seat)[1]
        return features.ids_mask() if deciding else np.zeros(features.space.size, np.int8)

    def _observation(self) -> dict:
        features = self._features
        return {"observation": features.observation(self.seat), "options": features.options(self.seat)[0],
                "action_mask": self._mask()}

    def _info(self, illegal: bool) -> dict:
        return {"action_mask": self._mask().astype(bool), "option_actions": self._features.option_slots(self.seat)[0],
                "illegal_action": illegal}


if "tharsis/Seat-v0" not in gymnasium.registry:
    gymnasium.register(id="tharsis/Seat-v0", entry_point="tharsis.envs.seat:SeatEnv")
