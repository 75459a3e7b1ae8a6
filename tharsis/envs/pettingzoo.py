"""A PettingZoo AEC environment over the research API: `env(**options)`.

Agents are `player_0` .. `player_{n-1}`, one per seat; the agent to act is the player the engine asks (set-up,
research and draft decisions are sequential in the engine, so AEC fits without simultaneous moves). Actions are the
fixed action space's ids (`tharsis.runtime.api.action_space`), a `Discrete(size)` space; the observation is a dict of
`observation` (the research view's `observation_tensor`, float32) and `action_mask` (int8, 1 at the legal ids; all
zero for an agent not to act). Rewards come only at the end: the research API's zero-sum returns.

Options are `GameOptions` fields (`players` as a count, `corporate_era`, `expansions`, `draft`, `max_generations`,
...). `reset(seed=...)` deals the game of that seed; without one, the environment's own generator picks a seed,
itself seeded by the first `reset(seed)`, so a seeded run repeats exactly.
"""

from __future__ import annotations

import numbers
import operator
from typing import Optional

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from tharsis.runtime.api.action_space import action_space
from tharsis.runtime.api.research import GameState

__all__ = ["TharsisEnv", "env", "raw_env"]


def env(**options) -> AECEnv:
    """The environment with PettingZoo's usual checks (an illegal or out-of-range action is refused)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**options))


def raw_env(**options) -> "TharsisEnv":
    return TharsisEnv(**options)


class TharsisEnv(AECEnv):
    metadata = {"name": "tharsis_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, players: int = 2, render_mode: Optional[str] = None, **options):
        super().__init__()
        self._players, self._options = players, options
        self.render_mode = render_mode
        probe = GameState.new_game(players=players, seed=0, **options)
        self._space = action_space(probe.game)
        size = sum(length for _, length in probe.observation_tensor_layout())   # the same for every game of it
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = list(self.possible_agents)
        observation = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-np.inf, np.inf, (size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self._space.size,), np.int8),
        })
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.action_spaces = {agent: gymnasium.spaces.Discrete(self._space.size) for agent in self.possible_agents}
        self._size = size
        self._seeds = np.random.default_rng()
        self.state: Optional[GameState] = None
        self._legal: dict = {}   # the pending decision's legal ids and options, listed once per decision (`_settle`)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        if seed is not None:
            if not isinstance(seed, numbers.Integral) or isinstance(seed, bool) or seed < 0:
                raise ValueError(f"seed {seed!r} is not a whole number from 0 (or None: a seed of the environment's)")
            self._seeds = np.random.default_rng(int(seed))
        game_seed = int(self._seeds.integers(0, 2 ** 63 - 1))
        self.state = GameState.new_game(players=self._players, seed=game_seed, **self._options)
        for agent in self.possible_agents:  # the spaces draw from their own generators (sample())
            self.action_spaces[agent].seed(None if seed is None else seed)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._settle()

    def observe(self, agent: str) -> dict:
        player = self.possible_agents.index(agent)
        observation = np.zeros(self._size, dtype=np.float32)   # filled in place: about a hundred entries are not 0
        self.state.fill_observation_tensor(player, observation)
        mask = np.zeros(self._space.size, dtype=np.int8)
        if player == self.state.current_player() and self._legal:
            mask[list(self._legal)] = 1
        return {"observation": observation, "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = operator.index(action)  # numpy integers too
        option = self._legal.get(action)
        if option is None:
            self._space.option(self.state.decision(), action)   # the ValueError that says why the move is illegal
        self.state.game.apply(option)
        self._cumulative_rewards[agent] = 0.0
        self._settle()
        self._accumulate_rewards()

    def _settle(self) -> None:
        """Points `agent_selection` at the player to act, or ends the game for everyone with its returns; lists the
        legal moves of the decision once, for `observe`, `step` and the infos."""
        self._legal = self._space.legal(self.state.decision())
        if self.state.is_terminal():
            returns = self.state.returns()
            for i, agent in enumerate(self.possible_agents):
                self.rewards[agent] = float(returns[i])
                self.terminations[agent] = True
            self.agent_selection = self.agents[0]
        else:
            for agent in self.agents:
                self.rewards[agent] = 0.0
            self.agent_selection = self.possible_agents[self.state.current_player()]
        legal_moves = sorted(self._legal)
        for agent in self.agents:
            self.infos[agent] = {"legal_moves": legal_moves if agent == self.agent_selection else []}

    def render(self) -> Optional[str]:
        if self.state is None:
            return None
        return repr(self.state)

    def close(self) -> None:
        pass
