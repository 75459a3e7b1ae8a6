"""`python -m tharsis.games.determinize_bench`: the time of one determinisation (`GameState.determinize`), and of its
parts.

The positions are every tenth decision of `--games` greedy 2-player Corporate Era games (set-up, research and
actions alike). Each position is timed `--runs` times over ten determinisations; the best run counts, since other
work on a shared machine only ever adds time. Printed: the median, mean and slowest position in microseconds, for
the whole call and for the parts it cannot do without (copying the game, finding the hidden cards), which bound
what a faster determinisation could reach (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Callable, Optional

from tharsis.runtime.api import hidden
from tharsis.runtime.api.research import GameState
from tharsis.runtime.bots.greedy import GreedyBot


def positions(games: int, every: int = 10) -> list[tuple[GameState, int]]:
    """(position, the player deciding there) at every `every`-th decision of greedy games, seeds 0 to games-1."""
    found = []
    for seed in range(games):
        state = GameState.new_game(2, seed=seed, corporate_era=True)
        bots = [GreedyBot(seed * 10), GreedyBot(seed * 10 + 1)]
        count = 0
        while not state.is_terminal():
            decision = state.decision()
            if count % every == 0:
                found.append((state.clone(), decision.player))
            count += 1
            state.game.apply(bots[decision.player].choose(state.game, decision))
    return found


def timed(places: list[tuple[GameState, int]], call: Callable[[GameState, int, int], object],
          runs: int) -> list[float]:
    """Microseconds per call at each position: the best of `runs` runs of ten calls."""
    per_position = []
    for state, player in places:
        best = float("inf")
        for _ in range(runs):
            started = time.perf_counter()
            for seed in range(10):
                call(state, player, seed)
            best = min(best, (time.perf_counter() - started) / 10)
        per_position.append(best * 1e6)
    return per_position


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tharsis.games.determinize_bench",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="greedy games to take positions from (default 4)")
    parser.add_argument("--runs", type=int, default=3, help="runs per position; the best counts (default 3)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.runs < 1:
        parser.error("--games and --runs must be at least 1")
    places = positions(args.games)
    print(f"{len(places)} positions (every 10th decision of {args.games} greedy games), best of {args.runs} runs")
    for label, call in (("GameState.determinize", lambda s, p, seed: s.determinize(p, seed)),
                        ("  of which Game.clone", lambda s, p, seed: s.game.clone()),
                        ("  of which hidden_names", lambda s, p, seed: hidden.hidden_names(s.game, p))):
        micro = timed(places, call, args.runs)
        print(f"{label:<26} median {statistics.median(micro):6.0f} us   mean {statistics.mean(micro):6.0f} us   "
              f"slowest {max(micro):6.0f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
