"""Benchmarks behind docs/benchmarks.md (measurements, not tests): `python -m tharsis.benchmark WHAT`.

    check   wall time of `tharsis check cards/` in fresh processes: cold (no cache) and warm (cache filled)
    games   games per second of bot games on one core (2 and 4 players), and the time of Game.clone()

Each figure is the median of several runs; the machine's load shows in the spread, so it is printed too.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _median_spread(samples: list[float]) -> str:
    return f"median {statistics.median(samples):.3f} s (min {min(samples):.3f}, max {max(samples):.3f}, n={len(samples)})"


def bench_check(runs: int) -> None:
    from tharsis.compiler import bundled_cards_path

    cards = str(bundled_cards_path())
    with tempfile.TemporaryDirectory() as cache:
        env = {"THARSIS_CACHE_DIR": cache, "PATH": "/usr/bin:/bin"}
        command = [sys.executable, "-m", "tharsis", "check"]

        def timed(extra: list[str]) -> float:
            start = time.perf_counter()
            subprocess.run(command + extra + [cards], env=env, check=True, stdout=subprocess.DEVNULL)
            return time.perf_counter() - start

        timed(["--no-cache"])  # warm the OS file cache and Lark's own grammar cache
        cold = [timed(["--no-cache"]) for _ in range(runs)]
        timed([])  # fill the compile cache
        warm = [timed([]) for _ in range(runs)]
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    interpreter = time.perf_counter() - start
    print(f"tharsis check cards/ (cold, --no-cache): {_median_spread(cold)}")
    print(f"tharsis check cards/ (warm, cache filled): {_median_spread(warm)}")
    print(f"python -c pass (interpreter start-up, for scale): {interpreter:.3f} s")


def bench_games(games: int) -> None:
    from tharsis.runtime.bots import BOTS, play_out
    from tharsis.runtime.game import Game, GameOptions, load_library

    library = load_library()
    for bot in ("random", "greedy"):
        for players in (2, 4):
            names = tuple(f"p{i}" for i in range(players))
            decisions = 0
            start = time.perf_counter()
            for seed in range(games):
                game = Game(GameOptions(players=names, seed=seed, corporate_era=True), library)
                play_out(game, {i: BOTS[bot](seed * 10 + i) for i in range(players)})
                decisions += len(game.log)
            elapsed = time.perf_counter() - start
            print(f"{players}-player {bot} bots: {games / elapsed:.1f} games/s "
                  f"({elapsed / games * 1000:.0f} ms/game, {decisions / elapsed:.0f} decisions/s, one core)")
    game = Game(GameOptions(players=("a", "b"), seed=1, corporate_era=True), library)
    play_out_to(game, 300)
    samples = []
    for _ in range(20):
        start = time.perf_counter()
        game.clone()
        samples.append(time.perf_counter() - start)
    print(f"Game.clone() after {len(game.log)} logged choices: {_median_spread(samples)}")


def play_out_to(game, decisions: int) -> None:
    from tharsis.runtime.bots import RandomBot

    bot = RandomBot(0)
    while not game.over and len(game.log) < decisions:
        game.apply(bot.choose(game, game.pending()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("check", "games"))
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--games", type=int, default=50)
    args = parser.parse_args()
    print(f"# {time.strftime('%Y-%m-%d')} python {sys.version.split()[0]} on {Path('/proc/cpuinfo').exists() and _cpu()}")
    if args.what == "check":
        bench_check(args.runs)
    else:
        bench_games(args.games)


def _cpu() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown cpu"


if __name__ == "__main__":
    main()
