"""A PettingZoo AEC environment over the research API: `env(**options)`.

Agents are `player_0` .. `player_{n-1}`, one per seat; the agent to act is the player the engine asks (set-up,
research and draft decisions are sequential in the engine, so AEC fits without simultaneous moves). Actions are the
fixed action space's ids (`tharsis.runtime.api.action_space`), a `Discrete(size)` space. The observation is a dict:

    observation     the research view's `observation_tensor`, float32
    action_mask     int8 over the action ids, 1 at the legal ones (all zero for an agent not to act)
    options         float32, OPTION_SLOTS x width: a row of features per legal move, in ascending id order
                    (`tharsis.runtime.api.option_features`; docs/api.md names every column), zeros after the last
    option_actions  int64, OPTION_SLOTS: the action id of each row (-1 for an empty one): a policy that scores the
                    rows plays `option_actions[k]`
    option_mask     int8, OPTION_SLOTS: 1 at the filled rows

Rewards come only at the end: the research API's zero-sum returns. Everything of a decision (its legal moves, mask
and option features) is made once (`tharsis.envs.features`), and the observation vector is kept up to date in place
rather than encoded anew at each step.

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
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from tharsis.runtime.api.research import GameState

from .features import Features

__all__ = ["TharsisEnv", "env", "raw_env"]


def env(**options) -> AECEnv:
    """The environment with PettingZoo's usual checks (an illegal or out-of-range action is refused)."""
    return _OrderEnforcing(raw_env(**options))


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order checks, with what a loop asks at every step (`agent_iter`'s next agent, `last()`, `step`,
    the agent to act, the agents left) answered by the environment itself after the same checks: through the
    wrapper's `__getattr__`, its properties and `BaseWrapper.step` each of them is a Python call or three, a few
    percent of a step (docs/benchmarks.md). Before `reset` they raise as the wrapper does."""

    def _checked(self, name: str):
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return self.env

    @property
    def agent_selection(self):
        return self._checked("agent_selection").agent_selection

    @property
    def agents(self):
        return self._checked("agents").agents

    def last(self, observe: bool = True):
        """`AECEnv.last`, on the environment."""
        env = self._checked("agent_selection")
        agent = env.agent_selection
        return (env.observe(agent) if observe else None, env._cumulative_rewards[agent], env.terminations[agent],
                env.truncations[agent], env.infos[agent])

    def step(self, action) -> None:
        if self._has_reset and self.env.agents:   # the wrapper's own case, without its two calls
            self._has_updated = True
            self.env.step(action)
        else:   # before reset, or after the end: the wrapper's error or warning
            super().step(action)

    def agent_iter(self, max_iter: int = 2 ** 63):
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)


class _AgentIterable(AECOrderEnforcingIterable):
    def __iter__(self):
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(AECOrderEnforcingIterator):
    """PettingZoo's iterator over the agents to act, with its checks (stop when no agent is left or after
    `max_iter`; `step` or `reset` between two agents) made on the environment at once rather than through the
    wrapper's properties."""

    def __next__(self):
        wrapper = self.env
        env = wrapper._checked("agents")
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return env.agent_selection


def raw_env(**options) -> "TharsisEnv":
    return TharsisEnv(**options)


class TharsisEnv(AECEnv):
    metadata = {"name": "tharsis_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, players: int = 2, render_mode: Optional[str] = None, **options):
        super().__init__()
        self._players, self._options = players, options
        self.render_mode = render_mode
        probe = GameState.new_game(players=players, seed=0, **options)
        self._features = features = Features(probe.game)   # the same sizes for every game of the content
        size = features.space.size
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._index = {agent: i for i, agent in enumerate(self.possible_agents)}
        self.agents = list(self.possible_agents)
        observation = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-np.inf, np.inf, (features.size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (size,), np.int8),
            "options": gymnasium.spaces.Box(-np.inf, np.inf, (features.slots, features.width), np.float32),
            "option_actions": gymnasium.spaces.Box(-1, size - 1, (features.slots,), np.int64),
            "option_mask": gymnasium.spaces.Box(0, 1, (features.slots,), np.int8),
        })
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.action_spaces = {agent: gymnasium.spaces.Discrete(size) for agent in self.possible_agents}
        self._seeds = np.random.default_rng()
        self.state: Optional[GameState] = None

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
        self._features.reset(self.state.game)
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
        observation, mask, options, actions, option_mask = self._features.arrays(self._index[agent])
        return {"observation": observation, "action_mask": mask, "options": options, "option_actions": actions,
                "option_mask": option_mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = operator.index(action)  # numpy integers too
        option = self._features.legal().get(action)
        if option is None:   # the ValueError that says why the move is illegal
            self._features.space.option(self.state.decision(), action)
        self.state.game.apply(option)
        cumulative = self._cumulative_rewards
        cumulative[agent] = 0.0
        self._settle()
        for other, reward in self.rewards.items():   # `_accumulate_rewards`, without its call
            cumulative[other] += reward

    def _settle(self) -> None:
        """Points `agent_selection` at the player to act, or ends the game for everyone with its returns; lists the
        legal moves of the decision once (`Features`), for `observe`, `step` and the infos."""
        decision = self.state.game.pending()
        rewards, infos = self.rewards, self.infos
        if decision is None:
            returns = self.state.returns()
            for i, agent in enumerate(self.possible_agents):
                rewards[agent] = float(returns[i])
                self.terminations[agent] = True
            self.agent_selection = selected = self.agents[0]
        else:
            for agent in self.agents:
                rewards[agent] = 0.0
            self.agent_selection = selected = self.possible_agents[decision.player]
        legal_moves = self._features.ids()
        for agent in self.agents:
            infos[agent] = {"legal_moves": legal_moves if agent == selected else []}

    def render(self) -> Optional[str]:
        if self.state is None:
            return None
        return repr(self.state)

    def close(self) -> None:
        pass
