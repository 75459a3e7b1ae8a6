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

Every `--eval-every` minutes of training (the clock stops while it evaluates) the policy plays `--eval-games`
games against the random bot on *validation* deals, taking its most likely legal move, and the policy that has won
the most of them so far is kept (a copy of its weights); a line is written to `--out` at each evaluation: minutes of
training (wall clock, and the CPU minutes in them), steps, games trained, the validation win rate, the best one so
far and when it was reached. The learning rate is `--learning-rate` for the first `--decay-from` of the time, then
falls linearly to a tenth of it at the end, so that the late updates move the policy less. At the end, the kept
policy and the last one play `--test-games` games against the random bot and as many against the greedy bot on
*test* deals that neither training nor validation saw, and a last line (`"test": true`) gives their win rates: the
policy is chosen on the validation deals, and its figure comes from other ones, so the choice does not flatter it.
`--steps N` stops after N steps instead of a time, `--max-generations` cuts the games short (the test runs it so,
for a few steps).
"""

from __future__ import annotations

import argparse
import copy
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


class Progress:
    """The share of the training done (by the wall clock, or by steps with `--steps`), which the learning rate
    follows: `rate(_)` is sb3's schedule (it passes its own progress, which counts towards a number of steps this
    script does not fix, and is ignored)."""

    def __init__(self, rate: float, decay_from: float):
        self.rate, self.decay_from, self.done = rate, decay_from, 0.0

    def __call__(self, _progress_remaining: float) -> float:
        late = max(0.0, self.done - self.decay_from) / max(1e-9, 1.0 - self.decay_from)
        return self.rate * (1.0 - 0.9 * min(1.0, late))


class Curve(BaseCallback):
    """Stops training after `minutes` of it by the wall clock (or `steps` steps), evaluates on the validation deals
    every `every` minutes and keeps the best policy's weights; the time spent evaluating is not training time. Each
    line has the wall-clock minutes of training and the CPU minutes the process spent training in them (on a machine
    shared with other work, fewer than the wall's)."""

    def __init__(self, minutes: float, steps: int, every: float, games: int, out, seed: int, progress: Progress):
        super().__init__()
        self.minutes, self.steps, self.every, self.games, self.out, self.seed = minutes, steps, every, games, out, seed
        self.progress = progress
        self.wall = self.cpu = 0.0
        self.since = (time.monotonic(), time.process_time())
        self.next = 0.0
        self.episodes = 0
        self.best, self.best_at, self.best_weights = -1.0, None, None

    def _on_training_start(self) -> None:
        self.evaluate()

    def _on_step(self) -> bool:
        self.episodes += int(np.sum(self.locals.get("dones", [])))
        wall, cpu = time.monotonic(), time.process_time()
        self.wall, self.cpu = self.wall + wall - self.since[0], self.cpu + cpu - self.since[1]
        self.since = (wall, cpu)
        self.progress.done = self.num_timesteps / self.steps if self.steps else self.wall / (self.minutes * 60)
        done = self.progress.done >= 1.0
        if done or self.wall >= self.next:
            self.evaluate()
        return not done

    def evaluate(self) -> None:
        validation = win_rate(self.model, "random", self.games, self.seed + VALIDATION)
        if validation > self.best:   # the first best is kept: a later tie is not better on these deals
            self.best, self.best_at = validation, self.num_timesteps
            self.best_weights = copy.deepcopy(self.model.policy.state_dict())
        row = {"minutes": round(self.wall / 60, 2), "cpu_minutes": round(self.cpu / 60, 2),
               "steps": self.num_timesteps, "games": self.episodes, "learning_rate": self.progress(1.0),
               "validation_games": self.games, "validation_win_rate_random": validation,
               "best_validation_win_rate": self.best, "best_at_steps": self.best_at}
        print(json.dumps(row), file=self.out, flush=True)
        self.next = self.wall + self.every * 60
        self.since = (time.monotonic(), time.process_time())   # the evaluation is not training time

    def test(self, games: int) -> None:
        """The last policy's and the kept one's win rates on the test deals, against the random and greedy bots."""
        row = {"test": True, "minutes": round(self.wall / 60, 2), "cpu_minutes": round(self.cpu / 60, 2),
               "steps": self.num_timesteps, "games": self.episodes, "test_games": games}
        for name in ("last", "kept"):
            if name == "kept":
                self.model.policy.load_state_dict(self.best_weights)
                row["kept_at_steps"], row["kept_validation_win_rate"] = self.best_at, self.best
            row[f"{name}_win_rate_random"] = win_rate(self.model, "random", games, self.seed + TEST)
            row[f"{name}_win_rate_greedy"] = win_rate(self.model, "greedy", games, self.seed + TEST + games)
        print(json.dumps(row), file=self.out, flush=True)


# the deals' seeds: validation and test games are dealt from seeds apart from each other (the training games' are
# drawn by the environments' generator, another stream)
VALIDATION, TEST = 10_000, 50_000


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=30.0,
                        help="minutes of training by the wall clock (evaluations excluded)")
    parser.add_argument("--steps", type=int, default=0, help="stop after this many steps instead (0: by time)")
    parser.add_argument("--eval-every", type=float, default=3.0, help="minutes of training between validations")
    parser.add_argument("--eval-games", type=int, default=30, help="validation games against the random bot")
    parser.add_argument("--test-games", type=int, default=100, help="test games against each bot at the end")
    parser.add_argument("--learning-rate", type=float, default=3e-4)
    parser.add_argument("--decay-from", type=float, default=0.5,
                        help="share of the training after which the learning rate falls to a tenth at the end")
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
    progress = Progress(args.learning_rate, args.decay_from)
    model = MaskablePPO(OptionPolicy, environments, n_steps=args.n_steps, batch_size=256, n_epochs=4, gamma=0.999,
                        gae_lambda=0.95, learning_rate=progress, ent_coef=0.01, seed=args.seed, verbose=0,
                        policy_kwargs={"features_extractor_class": OptionScorer,
                                       "net_arch": {"pi": [], "vf": [64]}})
    out = sys.stdout if args.out == "-" else open(args.out, "a", encoding="utf-8")
    try:
        curve = Curve(args.minutes, args.steps, args.eval_every, args.eval_games, out, args.seed, progress)
        model.learn(total_timesteps=args.steps or 10 ** 9, callback=curve)
        curve.test(args.test_games)
    finally:
        if out is not sys.stdout:
            out.close()


if __name__ == "__main__":
    main()
