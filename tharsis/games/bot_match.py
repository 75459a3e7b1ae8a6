"""`python -m tharsis.games.bot_match`: one bot against another over seeded deals, each deal played from both seats.

The measurement behind docs/benchmarks.md's "The search bot against greedy": deal k (seed `--seed` + k) is played
once with the bot in the first seat and once in the second, so a good or bad deal counts for both bots alike. The
games are the ones `tharsis simulate --seat m=mcts --seat g=greedy --corporate-era --seed S` plays (and the same with
the seats swapped): the same options, seat names and bot seeds (the game's seed times ten plus the seat), so either
command can replay the other's games. It reports the bot's wins per seat and in all, the 95 % Wilson interval, and
the CPU seconds each game took: the process time of the worker that played it, which other work on a shared
machine changes far less than the wall-clock time (printed beside it).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import signal
import statistics
import sys
import time
from typing import Optional

from tharsis.games.simulate import wilson
from tharsis.runtime.api.game import Game, GameOptions, load_library
from tharsis.runtime.bots import BOTS
from tharsis.runtime.bots.search import SearchBot

NAMES = {"bot": "m", "opponent": "g"}   # the seat names of the simulate commands this reproduces


def play_deal(task: tuple) -> dict:
    """One game: (seed, the bot's seat, bot, opponent, playouts or None). Runs in a worker process."""
    seed, seat, bot, opponent, playouts = task
    names = (NAMES["bot"], NAMES["opponent"]) if seat == 0 else (NAMES["opponent"], NAMES["bot"])
    game = Game(GameOptions(players=names, seed=seed, corporate_era=True), load_library())
    bots = {}
    for index, kind in ((seat, bot), (1 - seat, opponent)):
        if kind == SearchBot.name and playouts is not None:
            bots[index] = SearchBot(seed * 10 + index, playouts=playouts)
        else:
            bots[index] = BOTS[kind](seed * 10 + index)
    cpu, wall = time.process_time(), time.perf_counter()
    while not game.over:
        decision = game.pending()
        game.apply(bots[decision.player].choose(game, decision))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    rows = game.result["players"]
    return {"seed": seed, "seat": seat, "won": game.result["winner"] == NAMES["bot"],
            "score": rows[seat]["total"], "opponent_score": rows[1 - seat]["total"],
            "generations": game.result["generations"], "cpu_seconds": round(cpu, 3), "wall_seconds": round(wall, 3)}


def run(games: int, first_seed: int, jobs: int, bot: str, opponent: str, playouts: Optional[int] = None,
        progress=None) -> list[dict]:
    """Every game's record, in the order (seed, seat)."""
    tasks = [(seed, seat, bot, opponent, playouts) for seed in range(first_seed, first_seed + games)
             for seat in (0, 1)]
    load_library()  # compiled (or read from the cache) once, before the workers fork
    results = []
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs, initializer=_ignore_interrupts) as pool:
            for record in pool.imap_unordered(play_deal, tasks):
                results.append(record)
                _progress(progress, len(results), len(tasks))
    else:
        for task in tasks:
            results.append(play_deal(task))
            _progress(progress, len(results), len(tasks))
    return sorted(results, key=lambda r: (r["seed"], r["seat"]))


def _ignore_interrupts() -> None:
    """In each worker: Ctrl-C is the parent's to handle (it stops the pool), not a traceback per worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _progress(stream, done: int, total: int) -> None:
    if stream is not None and (done == total or done % 10 == 0):
        stream.write(f"bot_match: {done}/{total} games\n")
        stream.flush()


def report(results: list[dict], bot: str, opponent: str) -> str:
    lines = [f"{bot} against {opponent}: {len(results)} games, each deal from both seats",
             f"{'seated':<8}{'games':>7}{'wins':>6}{'win rate':>10}{'95% Wilson':>16}{'mean score':>12}"
             f"{'opponent':>10}"]
    for label, rows in (("first", [r for r in results if r["seat"] == 0]),
                        ("second", [r for r in results if r["seat"] == 1]), ("both", results)):
        if not rows:
            continue
        wins = sum(r["won"] for r in rows)
        low, high = wilson(wins, len(rows))
        mean = statistics.mean(r["score"] for r in rows)
        against = statistics.mean(r["opponent_score"] for r in rows)
        lines.append(f"{label:<8}{len(rows):>7}{wins:>6}{wins / len(rows):>10.1%}"
                     f"{f'{low:.1%}-{high:.1%}':>16}{mean:>12.1f}{against:>10.1f}")
    cpu = [r["cpu_seconds"] for r in results]
    wall = [r["wall_seconds"] for r in results]
    lines.append(f"CPU seconds per game: median {statistics.median(cpu):.2f}, mean {statistics.mean(cpu):.2f}, "
                 f"max {max(cpu):.2f}; {sum(c < 5 for c in cpu)} of {len(cpu)} under 5 s")
    lines.append(f"wall seconds per game: median {statistics.median(wall):.2f}, mean {statistics.mean(wall):.2f}")
    lines.append(f"mean generations: {statistics.mean(r['generations'] for r in results):.1f}")
    return "\n".join(lines)


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tharsis.games.bot_match", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="deals, each played twice (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--bot", default="mcts", choices=sorted(BOTS), help="the bot measured (default mcts)")
    parser.add_argument("--against", default="greedy", choices=sorted(BOTS), help="its opponent (default greedy)")
    parser.add_argument("--playouts", type=int, help="the search bot's playouts per decision (default its own)")
    parser.add_argument("--out", help="also write every game's record to this JSONL file")
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1 or (args.playouts is not None and args.playouts < 1):
        parser.error("--games, --jobs and --playouts must be at least 1")
    if args.seed < 0:
        parser.error("--seed must be 0 or more")
    try:
        out = open(args.out, "w", encoding="utf-8") if args.out else None  # refused now, not after the games
    except OSError as error:
        parser.error(f"--out {args.out}: {error.strerror or error}")
    try:
        results = run(args.games, args.seed, args.jobs, args.bot, args.against, args.playouts, progress=sys.stderr)
    except KeyboardInterrupt:
        if out is not None:
            out.close()
        print("bot_match: interrupted", file=sys.stderr)
        return 130
    if out is not None:
        with out:
            out.writelines(json.dumps(r) + "\n" for r in results)
    print(report(results, args.bot, args.against))
    return 0


if __name__ == "__main__":
    sys.exit(main())
