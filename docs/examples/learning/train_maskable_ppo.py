"""A worked example: MaskablePPO (sb3-contrib) learning to play one seat of Tharsis against the random bot, from the
option features of each decision, with its learning curve measured as it trains.

    pip install 'tharsis[rl,learn]'            # a CPU build of torch first: README "Dependencies"
    python docs/examples/learning/train_maskable_ppo.py --minutes 30 --out curve.jsonl

The environment is `tharsis.envs.seat.SeatEnv` (docs/api.md): 2-player Corporate Era games, the learner in a seat
drawn at each reset, the random bot in the other; an action is one of the 64 option rows of the decision, and the
action mask keeps the policy to the legal ones. The reward is +1 for a won game, -1 for a lost one, nothing before.

The policy scores the options rather than the action ids: each row of features (what the move is and does: the
card's cost, tags, production...) goes through one small network shared by all rows, together with a summary of the
observation vector (the board, the stock, the hand), and the row's score is its logit (`OptionScorer`). One network
for every row is what lets a policy learn "a card that raises production is good" once, for every card and every
slot, instead of a weight per card id.

Every `--eval-every` minutes of training (the clock stops while it evaluates) the policy plays `--eval-games` fresh
games against the random bot and as many against the greedy bot, taking its most likely legal move, and a line is
written to `--out`: minutes of training (wall clock, and the CPU minutes in them), steps, games trained, win rates
over the games played. `--steps N` stops after N steps instead of a time, `--max-generations` cuts the games short
(the test runs it so, for a few steps).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableMultiInputActorCriticPolicy
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env import DummyVecEnv
from torch import nn

from tharsis.envs.seat import SeatEnv

OPTIONS = {"corporate_era": True}


class OptionScorer(BaseFeaturesExtractor):
    """Features: one score per option row (a network shared by the rows, given the row and a summary of the
    observation vector), then that summary, which the value head reads."""

    def __init__(self, observation_space: spaces.Dict, summary: int = 128, hidden: int = 64):
        slots = observation_space["options"].shape[0]
        super().__init__(observation_space, features_dim=slots + summary)
        width = observation_space["options"].shape[1]
        self.summary = nn.Sequential(nn.Linear(observation_space["observation"].shape[0], summary), nn.ReLU())
        self.row = nn.Linear(width, hidden)
        self.context = nn.Linear(summary, hidden)
        self.score = nn.Linear(hidden, 1)

    def forward(self, observations: dict) -> torch.Tensor:
        summary = self.summary(observations["observation"])
        hidden = torch.relu(self.row(observations["options"]) + self.context(summary).unsqueeze(1))
        return torch.cat([self.score(hidden).squeeze(-1), summary], dim=1)


class FirstColumns(nn.Module):
    """The action logits are the option scores themselves: the first `count` features."""

    def __init__(self, count: int):
        super().__init__()
        self.count = count

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        return latent[:, :self.count]


class OptionPolicy(MaskableMultiInputActorCriticPolicy):
    """sb3-contrib's masked actor-critic with the option scores as logits (no layer between them and the action)."""

    def _build(self, lr_schedule) -> None:
        super()._build(lr_schedule)
        self.action_net = FirstColumns(self.action_space.n)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)


def win_rate(model: MaskablePPO, opponent: str, games: int, seed: int) -> float:
    """The share of `games` fresh games the policy wins against `opponent`, playing its most likely legal move."""
    env = SeatEnv(opponents=(opponent,), seat=None, **OPTIONS)
    if games == 0:
        return float("nan")
    wins = 0.0
    for game in range(games):
        observation, _ = env.reset(seed=seed + game)
        while True:
            action, _ = model.predict(observation, action_masks=env.action_masks(), deterministic=True)
            observation, reward, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                wins += reward > 0
                break
    return wins / games


class Curve(BaseCallback):
    """Stops training after `minutes` of it by the wall clock (or `steps` steps) and evaluates every `every` minutes;
    the time spent evaluating is not training time. Each line has the wall-clock minutes of training and the CPU
    minutes the process spent training in them (on a machine shared with other work, fewer than the wall's)."""

    def __init__(self, minutes: float, steps: int, every: float, games: int, out, seed: int):
        super().__init__()
        self.minutes, self.steps, self.every, self.games, self.out, self.seed = minutes, steps, every, games, out, seed
        self.wall = self.cpu = 0.0
        self.since = (time.monotonic(), time.process_time())
        self.next = 0.0
        self.episodes = 0

    def _on_training_start(self) -> None:
        self.evaluate()

    def _on_step(self) -> bool:
        self.episodes += int(np.sum(self.locals.get("dones", [])))
        wall, cpu = time.monotonic(), time.process_time()
        self.wall, self.cpu = self.wall + wall - self.since[0], self.cpu + cpu - self.since[1]
        self.since = (wall, cpu)
        done = self.num_timesteps >= self.steps if self.steps else self.wall >= self.minutes * 60
        if done or self.wall >= self.next:
            self.evaluate()
        return not done

    def evaluate(self) -> None:
        row = {"minutes": round(self.wall / 60, 2), "cpu_minutes": round(self.cpu / 60, 2),
               "steps": self.num_timesteps, "games": self.episodes, "eval_games": self.games,
               "win_rate_random": win_rate(self.model, "random", self.games, self.seed + 10_000),
               "win_rate_greedy": win_rate(self.model, "greedy", self.games, self.seed + 20_000)}
        print(json.dumps(row), file=self.out, flush=True)
        self.next = self.wall + self.every * 60
        self.since = (time.monotonic(), time.process_time())   # the evaluation is not training time


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=30.0,
                        help="minutes of training by the wall clock (evaluations excluded)")
    parser.add_argument("--steps", type=int, default=0, help="stop after this many steps instead (0: by time)")
    parser.add_argument("--eval-every", type=float, default=5.0, help="minutes of training between evaluations")
    parser.add_argument("--eval-games", type=int, default=20, help="games against each bot per evaluation")
    parser.add_argument("--envs", type=int, default=4, help="environments stepped together")
    parser.add_argument("--n-steps", type=int, default=256, help="steps per environment between updates")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="-", help="where the curve's lines go (JSON lines; - for stdout)")
    parser.add_argument("--max-generations", type=int, default=None,
                        help="games cut after this many generations (the test's short games; default: whole games)")
    args = parser.parse_args(argv)
    if args.max_generations:
        OPTIONS["max_generations"] = args.max_generations
    torch.set_num_threads(1)   # a machine shared with the environments' own work: one thread is the steadiest
    environments = DummyVecEnv([lambda: SeatEnv(opponents=("random",), seat=None, **OPTIONS)
                                for _ in range(args.envs)])
    environments.seed(args.seed)
    model = MaskablePPO(OptionPolicy, environments, n_steps=args.n_steps, batch_size=256, n_epochs=4, gamma=0.999,
                        gae_lambda=0.95, learning_rate=3e-4, ent_coef=0.01, seed=args.seed, verbose=0,
                        policy_kwargs={"features_extractor_class": OptionScorer,
                                       "net_arch": {"pi": [], "vf": [64]}})
    out = sys.stdout if args.out == "-" else open(args.out, "a", encoding="utf-8")
    try:
        curve = Curve(args.minutes, args.steps, args.eval_every, args.eval_games, out, args.seed)
        model.learn(total_timesteps=args.steps or 10 ** 9, callback=curve)
    finally:
        if out is not sys.stdout:
            out.close()


if __name__ == "__main__":
    main()
