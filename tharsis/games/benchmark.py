"""Benchmarks behind docs/benchmarks.md (measurements, not tests): `python -m tharsis.games.benchmark WHAT`.

    check   wall time of `tharsis check cards/` in fresh processes: cold (no cache) and warm (cache filled)
    decisions
            the decisions per 2-player game the bots are asked (random and greedy, or --bot), in all and per kind
    games   games per second of bot games on one core (2 and 4 players), decisions per game, and the time of
            Game.clone() and Game.from_json() at generation 10 of a 2-player game
    instructions
            CPU instructions per 2-player game (random bots, or --bot greedy), counted by valgrind's callgrind:
            unlike seconds on a shared machine, the same code gives the same count, so two versions can be
            compared exactly
    play    play --games 2-player games (random bots, or --bot greedy) and print nothing (what `instructions` counts)

Timings are repeated (`--runs`): the best run is the least disturbed by other work on a shared machine, and the
median or range shows the spread. `instructions` gives a count that does not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tharsis.runtime.core.state import MAX_PLAYERS, RESEARCH, SETUP  # names only: the engine loads when first used


def _median_spread(samples: list[float]) -> str:
    return (f"median {statistics.median(samples):.3f} s (min {min(samples):.3f}, max {max(samples):.3f}, "
            f"n={len(samples)})")


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


def bench_games(games: int, runs: int, bots: tuple = ("random", "greedy"), sizes: tuple = (2, 4),
                state_copies: bool = True, expansions: tuple = ()) -> None:
    """Each row plays the same `games` seeds `runs` times: the best run is the least disturbed by other work on
    the machine (a shared machine's speed varies by half from minute to minute), the median shows the spread."""
    from tharsis.runtime.api.game import Game, GameOptions, load_library
    from tharsis.runtime.bots import BOTS

    library = load_library()
    for bot in bots:
        for players in sizes:
            names = tuple(f"p{i}" for i in range(players))
            used_per_run = []
            for _ in range(runs):
                asked = top_level = 0
                cpu = time.process_time()
                for seed in range(games):
                    game = Game(GameOptions(players=names, seed=seed, corporate_era=True, expansions=expansions),
                                library)
                    counts = _play_counting(game, {i: BOTS[bot](seed * 10 + i) for i in range(players)})
                    asked += counts[0]
                    top_level += counts[1]
                used_per_run.append(time.process_time() - cpu)
            best, median = min(used_per_run), statistics.median(used_per_run)
            with_expansions = f" with {' and '.join(expansions)}" if expansions else ""
            print(f"{players}-player {bot} bots{with_expansions}: {games / best:.1f} games per CPU second at best of "
                  f"{runs} runs "
                  f"(median {games / median:.1f}; {best / games * 1000:.0f} ms/game); per game "
                  f"{asked / games:.0f} decisions as Tharsis asks them, {top_level / games:.0f} top-level actions; "
                  f"{asked / best:.0f} decisions per CPU second")
    if not state_copies:
        return
    game = Game(GameOptions(players=("a", "b"), seed=1, corporate_era=True, expansions=expansions), library)
    play_out_to_generation(game, 10)
    clones = _samples(game.clone, 2000)
    print(f"Game.clone() at generation {game.state.generation} ({len(game.log)} logged choices): "
          f"median {statistics.median(clones) * 1e6:.1f} us (min {min(clones) * 1e6:.1f}, n={len(clones)})")
    saved = game.to_json()
    loads = _samples(lambda: Game.from_json(saved, library), 200)
    print(f"Game.from_json() of that game ({len(saved) // 1024} KB): median {statistics.median(loads) * 1e3:.2f} ms "
          f"(min {min(loads) * 1e3:.2f}, n={len(loads)}); with verify=True it also replays the log")


def _samples(function, count: int) -> list[float]:
    samples = []
    for _ in range(count):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return samples


def _play_counting(game, bots) -> tuple[int, int]:
    """Play to the end; (decisions Tharsis asked, top-level actions). A top-level action is what a player
    decides at the top of the game: an action of the action phase (or passing), a corporation, a research
    phase's purchase (one, however many cards), a final greenery; decisions inside an action (how to pay,
    where to place, which target) belong to that action."""
    asked, top_level, research = 0, 0, set()
    while not game.over:
        decision = game.pending()
        asked += 1
        if decision.kind in ("action", "corporation", "final"):
            top_level += 1
        elif decision.kind in ("buy", "draft") and game.state.phase in (RESEARCH, SETUP):
            key = (game.state.generation, decision.player)
            top_level += key not in research
            research.add(key)
        game.apply(bots[decision.player].choose(game, decision))
    return asked, top_level


def play_out_to_generation(game, generation: int) -> None:
    from tharsis.runtime.bots import RandomBot

    bots = {i: RandomBot(i) for i in range(len(game.state.players))}
    while not game.over and game.state.generation < generation:
        decision = game.pending()
        game.apply(bots[decision.player].choose(game, decision))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("check", "decisions", "games", "instructions", "play"))
    parser.add_argument("--runs", type=int, default=5, help="repetitions (check: runs per figure; games: runs per row)")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--bot", action="append", choices=("random", "greedy"),
                        help="games: only these bots' rows (repeatable; default both); instructions, play: the bots "
                             "that play (the first given; default random)")
    parser.add_argument("--players", action="append", type=int, choices=range(2, MAX_PLAYERS + 1),
                        help="games: only these player counts' rows (repeatable; default 2 and 4); with --bot or "
                             "--players the clone and load timings are left out")
    parser.add_argument("--expansion", action="append", default=[], metavar="NAME",
                        help="games, play: with this expansion (repeatable: --expansion prelude --expansion venus)")
    args = parser.parse_args()
    if args.what == "play":
        play_games(args.games, tuple(args.expansion), (args.bot or ["random"])[0])
        return
    if args.what == "decisions":
        for bot in args.bot or ("random", "greedy"):
            count_decisions(args.games, tuple(args.expansion), bot)
        return
    from tharsis.runtime import engine_build

    print(f"# {time.strftime('%Y-%m-%d')} python {sys.version.split()[0]} on "
          f"{Path('/proc/cpuinfo').exists() and _cpu()}; engine: {engine_build()}")
    if args.what == "check":
        bench_check(args.runs)
    elif args.what == "instructions":
        bench_instructions(args.games, tuple(args.expansion), (args.bot or ["random"])[0])
    else:
        chosen = bool(args.bot or args.players)
        bench_games(args.games, args.runs, tuple(args.bot or ("random", "greedy")), tuple(args.players or (2, 4)),
                    state_copies=not chosen, expansions=tuple(args.expansion))


def play_games(games: int, expansions: tuple = (), bot: str = "random") -> None:
    """Seeds 0..games-1, Corporate Era, Tharsis, two bots (random: the workload of the games/s target)."""
    from tharsis.runtime.api.game import Game, GameOptions, load_library
    from tharsis.runtime.bots import BOTS, play_out

    library = load_library()
    for seed in range(games):
        game = Game(GameOptions(players=("p0", "p1"), seed=seed, corporate_era=True, expansions=expansions), library)
        play_out(game, {i: BOTS[bot](seed * 10 + i) for i in range(2)})


def count_decisions(games: int, expansions: tuple = (), bot: str = "random") -> None:
    """The decisions per game the bots are asked (seeds 0..games-1, as `play`), in all and of each kind: what a
    bot or a learner sees of a rules change that asks more or fewer questions (the card's order question)."""
    from collections import Counter

    from tharsis.runtime.api.game import Game, GameOptions, load_library
    from tharsis.runtime.bots import BOTS

    library, kinds = load_library(), Counter()
    for seed in range(games):
        game = Game(GameOptions(players=("p0", "p1"), seed=seed, corporate_era=True, expansions=expansions), library)
        bots = {i: BOTS[bot](seed * 10 + i) for i in range(2)}
        while not game.over:
            decision = game.pending()
            kinds[decision.kind] += 1
            game.apply(bots[decision.player].choose(game, decision))
    per_game = ", ".join(f"{kind} {n / games:.2f}" for kind, n in kinds.most_common())
    print(f"{bot}{' ' + '+'.join(expansions) if expansions else ''}: {sum(kinds.values()) / games:.1f} decisions "
          f"per game ({per_game})")


def bench_instructions(games: int, expansions: tuple = (), bot: str = "random") -> None:
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        sys.exit("tharsis.games.benchmark: `instructions` needs valgrind on the PATH "
                 "(Debian: apt-get install valgrind)")

    def collected(count: int) -> int:
        # a fixed hash seed: set and dict orders, and so the work, are the same in every run
        result = subprocess.run([valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                                 "-m", "tharsis.games.benchmark", "play", "--games", str(count), *flags],
                                capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
        found = re.search(r"Collected : (\d+)", result.stderr)
        if result.returncode != 0 or found is None:
            sys.exit(f"tharsis.games.benchmark: callgrind failed:\n{result.stderr[-2000:]}")
        return int(found.group(1))

    # load the content once first, so that both counts read the compiled-content cache (a cold cache parses the
    # cards, which the first count alone would pay for)
    flags = [f"--expansion={name}" for name in expansions] + [f"--bot={bot}"]
    subprocess.run([sys.executable, "-m", "tharsis.games.benchmark", "play", "--games", "0"], capture_output=True)
    start_up, total = collected(0), collected(games)
    with_expansions = f" with {' and '.join(expansions)}" if expansions else ""
    print(f"2-player {bot} bots{with_expansions}, seeds 0-{games - 1}: {(total - start_up) / games / 1e6:.1f} M "
          f"instructions per game (callgrind; start-up and loading the content, {start_up / 1e6:.0f} M, subtracted)")


def _cpu() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown cpu"


if __name__ == "__main__":
    main()
