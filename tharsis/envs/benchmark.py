"""Decisions per CPU second of a random player through each adapter, against the bare research API (a measurement
behind docs/benchmarks.md, not a test): `python -m tharsis.envs.benchmark [--games N] [--runs R]`.

Each loop plays the same 2-player Corporate Era games (seeds 0..N-1) to the end with uniformly random legal moves,
and takes what a learner takes at every decision:

    research    the bare API: `legal_actions()` and `apply_action(a)` (no observation)
    ids         the bare API through the fixed action space: `space.ids(decision)`, `space.option`, `game.apply`
    pettingzoo  PettingZoo's AEC loop: `env.last()` (the observation: the vector, the action mask and, since issue
                33, the option features) and `env.step(a)`; the random player draws from the legal ids the infos
                list (`legal_moves`), which every version has: scanning the 18,312-entry mask for its ones
                (`np.flatnonzero`) would cost the player 30 us a decision, more than the environment
    openspiel   OpenSpiel's `rl_environment.Environment`: each step's time step (every player's observation
                tensor, as the game offers no information-state tensor, and legal actions) and `step([a])`

The figure is decisions over CPU time (`time.process_time`, so other work on a shared machine counts less), the
best of `--runs` runs: the least disturbed. The content loads (and a first game is dealt) before any clock starts.
Each run plays every loop in turn on each seed (interleaved, so that a change in the machine's load between two
loops weighs on both alike), and each loop's figure is also given as a share of the bare API's (`research`).

`--play N` times nothing: after the same warm-up it plays seeds 1..N of each loop once and prints the decisions, for
a count that the machine's load cannot change (docs/benchmarks.md): run it under callgrind with N and with 0, and the
difference of the instructions over the decisions is the loop's cost per decision. With `--callgrind` it switches
callgrind's instrumentation on (`callgrind_control -i on`) for the play alone, so one run started with
`valgrind --tool=callgrind --instr-atstart=no` counts only the play (and the warm-up runs uninstrumented, 5x faster):

    valgrind --tool=callgrind --instr-atstart=no python -m tharsis.envs.benchmark --loop pettingzoo --play 2 --callgrind
"""

from __future__ import annotations

import argparse
import random
import time

__all__ = ["LOOPS", "main"]

OPTIONS = {"corporate_era": True}


def research_loop(seeds: range) -> int:
    from tharsis.runtime.api.research import GameState

    decisions = 0
    for seed in seeds:
        state, rng = GameState.new_game(players=2, seed=seed, **OPTIONS), random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return decisions


def ids_loop(seeds: range) -> int:
    from tharsis.runtime.api.action_space import action_space
    from tharsis.runtime.api.research import GameState

    decisions = 0
    for seed in seeds:
        state, rng = GameState.new_game(players=2, seed=seed, **OPTIONS), random.Random(seed)
        space = action_space(state.game)
        while not state.is_terminal():
            decision = state.decision()
            state.game.apply(space.option(decision, rng.choice(space.ids(decision))))
            decisions += 1
    return decisions


def pettingzoo_loop(seeds: range) -> int:
    import numpy as np

    from tharsis.envs.pettingzoo import env as make_env

    environment, decisions = make_env(players=2, **OPTIONS), 0
    for seed in seeds:
        environment.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _agent in environment.agent_iter():
            _observation, _reward, terminated, truncated, info = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            legal = info["legal_moves"]
            environment.step(legal[int(rng.integers(len(legal)))])
            decisions += 1
    return decisions


def openspiel_loop(seeds: range) -> int:
    import pyspiel
    from open_spiel.python import rl_environment

    import tharsis.envs.openspiel  # noqa: F401  (registers the game)

    decisions = 0
    for seed in seeds:
        game = pyspiel.load_game("tharsis", {"seed": seed, **OPTIONS})
        environment, rng = rl_environment.Environment(game), random.Random(seed)
        time_step = environment.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            time_step = environment.step([rng.choice(time_step.observations["legal_actions"][player])])
            decisions += 1
    return decisions


LOOPS = {"research": research_loop, "ids": ids_loop, "pettingzoo": pettingzoo_loop, "openspiel": openspiel_loop}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10, help="games per run (seeds 0..N-1)")
    parser.add_argument("--runs", type=int, default=3, help="runs per loop; the best is reported")
    parser.add_argument("--loop", action="append", choices=tuple(LOOPS), help="only these loops (repeatable)")
    parser.add_argument("--play", type=int, metavar="N", help="untimed: play seeds 1..N of each loop after the "
                        "warm-up and print the decisions (for a count of instructions under callgrind)")
    parser.add_argument("--callgrind", action="store_true", help="with --play: callgrind's instrumentation on for "
                        "the play alone (run under valgrind --tool=callgrind --instr-atstart=no)")
    args = parser.parse_args(argv)
    names = args.loop or list(LOOPS)
    for name in names:
        LOOPS[name](range(1))   # imports, the content, the action space and the encoding: before any clock
    if args.play is not None:
        for name in names:
            _instrument(args.callgrind, "on")
            decisions = LOOPS[name](range(1, 1 + args.play))
            _instrument(args.callgrind, "off")
            print(f"{name:<11} {decisions} decisions", flush=True)
        return
    best: dict[str, float] = {}
    for _ in range(args.runs):
        spent, counts = dict.fromkeys(names, 0.0), dict.fromkeys(names, 0)
        for seed in range(args.games):   # each seed through every loop in turn
            for name in names:
                start = time.process_time()
                counts[name] += LOOPS[name](range(seed, seed + 1))
                spent[name] += time.process_time() - start
        for name in names:
            best[name] = max(best.get(name, 0.0), counts[name] / spent[name])
    decisions = {name: counts[name] / args.games for name in names}   # seeded games: the same at every run
    for name in names:
        share = f"  {best[name] / best['research']:6.1%} of the bare API" if "research" in best else ""
        print(f"{name:<11} {decisions[name]:7.1f} decisions a game  {best[name]:9,.0f} decisions per CPU second "
              f"(best of {args.runs}){share}", flush=True)


def _instrument(wanted: bool, state: str) -> None:
    """Switches callgrind's instrumentation of this process on or off (`callgrind_control`, from valgrind)."""
    if wanted:
        import os
        import subprocess

        subprocess.run(["callgrind_control", "-i", state, str(os.getpid())], check=True, capture_output=True)


if __name__ == "__main__":
    main()
