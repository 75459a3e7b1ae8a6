"""`tharsis simulate`: many bot games in parallel processes, a results file and a summary with confidence intervals.

Game k uses seed `first_seed + k`, and bots are seeded from the game's seed and their seat, so a game's outcome
depends only on its seed and options: the results are identical whatever `--jobs` is.

Each game is `records.play_one` (tharsis/games/records.py), here in a pool of processes, or on a Ray cluster
(tharsis/games/ray_backend.py). With a `plan` (`--effect CARD`, tharsis/games/paired.py) each seed is played once
without the tested cards and once with each of them in a seat's hand: the same pool, the same records (each with its
place in the experiment), `games` pairs per card. Where records go (JSONL or CSV, never over earlier results) is
tharsis/games/results_files.py.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import sys
import time
from pathlib import Path
from typing import Optional, TextIO

import attrs

from tharsis.runtime.api.game import GameOptions, load_library

from .paired import Plan
from .recorded_cards import relative_paths
from .records import play_one
from .results_files import JSONL, open_results, win_share


def cpu_count() -> int:
    """The CPUs this process may run on (a container or `taskset` may allow fewer than the machine has): the
    default number of worker processes."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):   # macOS and Windows have no affinity mask
        return max(1, os.cpu_count() or 1)


def _leave_interrupts_to_the_parent() -> None:
    """In each worker: Ctrl-C reaches every process of the terminal, and a worker that died of it would print
    its own traceback. The parent alone handles it, by terminating the pool."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def wilson(successes: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if total == 0:
        return 0.0, 0.0
    p = successes / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return max(0.0, centre - half), min(1.0, centre + half)


@attrs.define
class Simulation:
    options: GameOptions
    seats: list[tuple[str, str]]
    games: int                        # games, or with a `plan` the pairs of games per card (seeds)
    jobs: Optional[int] = 1           # worker processes; for Ray, the local instance's CPUs (None: all)
    out: Optional[Path] = None
    format: str = JSONL               # of `out`: "jsonl" or "csv" (tharsis/games/results_files.py)
    backend: str = "local"            # or "ray" (tharsis/games/ray_backend.py)
    address: Optional[str] = None     # the Ray cluster to join; None starts a local Ray instance
    interrupted: bool = False    # Ctrl-C stopped it; `run` returned the games finished (and written) before
    failed: list = attrs.field(factory=list)   # the records of games stopped as endless (records.failed_record)
    plan: Optional[Plan] = None       # the card-effect experiment (simulate --effect)

    @property
    def total(self) -> int:
        """How many games the run plays."""
        return self.plan.games(self.games) if self.plan else self.games

    def tasks(self):
        if self.plan is not None:
            yield from self.plan.tasks(self.options, self.seats, self.games)
            return
        for k in range(self.games):
            options = attrs.evolve(self.options, seed=self.options.seed + k)
            yield options.to_json(), self.seats

    def run(self, progress: Optional[TextIO] = sys.stderr) -> list[dict]:
        """Every game's record, in seed order, each written to `out` (flushed) as soon as it is known. Ctrl-C
        stops the run cleanly: the workers ignore it and are terminated by this process, and the games finished
        so far are returned with `interrupted` set."""
        library = load_library(tuple(self.options.card_paths))  # compile (or fill the cache) once, before forking
        results: list[dict] = []
        started = time.perf_counter()
        writer = open_results(self.out, self.format, solo=self.options.solo,
                              experiment=self.plan is not None) if self.out else None
        try:
            if self.backend == "ray":
                from tharsis.games.ray_backend import play_all

                for record in play_all(self.tasks(), library, address=self.address, cpus=self.jobs):
                    self._record(record, results, writer, progress, started)
            elif min(self.jobs or 1, self.total) > 1:
                context = multiprocessing.get_context("fork")
                with context.Pool(min(self.jobs, self.total), initializer=_leave_interrupts_to_the_parent) as pool:
                    for record in pool.imap(play_one, self.tasks(), chunksize=1):
                        self._record(record, results, writer, progress, started)
            else:
                for task in self.tasks():
                    self._record(play_one(task), results, writer, progress, started)
        except KeyboardInterrupt:  # leaving the `with` above has terminated the pool
            self.interrupted = True
        finally:
            if writer:
                writer.close()
        if progress and _is_terminal(progress):
            progress.write("\n")
        return results

    def _record(self, record, results, writer, progress, started) -> None:
        # The games load the folders by absolute path (a worker may run elsewhere); the record says them relative to
        # the current folder, as logs and saves do, so no results line holds a home folder's name.
        options = record.get("options")
        if isinstance(options, dict) and options.get("card_paths"):
            options["card_paths"] = relative_paths(options["card_paths"])
        (self.failed if "failed" in record else results).append(record)
        if writer:
            writer.write(record)
        if progress:
            done = len(results) + len(self.failed)
            width = 30
            filled = int(width * done / self.total)
            rate = done / max(time.perf_counter() - started, 1e-9)
            if _is_terminal(progress):
                progress.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} games, "
                               f"{rate:.1f} games/s")
            elif _tenth(done, self.total) > _tenth(done - 1, self.total):
                # a log file or a CI console: one plain line per tenth of the run, not a frame per game
                progress.write(f"simulate: {done}/{self.total} games ({done / self.total:.0%}), "
                               f"{rate:.1f} games/s\n")
            progress.flush()


def _is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _tenth(done: int, total: int) -> int:
    """Which tenth of the run `done` games complete (0 to 10)."""
    return done * 10 // total


def win_rates(results: list[dict], key) -> list[tuple[str, int, int]]:
    """(name, games, wins) for every value of `key(player row)` (a name or a list of names), most played first."""
    counts: dict[str, list[int]] = {}
    for result in results:
        for row in result["players"]:
            names = key(row)
            for name in ([names] if isinstance(names, str) else names or []):
                entry = counts.setdefault(name, [0, 0])
                entry[0] += 1
                entry[1] += win_share(result, row["seat"])
    return sorted(((n, g, w) for n, (g, w) in counts.items()), key=lambda item: (-item[1], item[0]))


def _rate_table(title: str, rows: list[tuple[str, int, int]], bots: Optional[dict] = None) -> list[str]:
    """A table of win rates; with `bots` (name -> {bot: players}) a column says which bots they were."""
    lines = [f"{title:<32}{'games':>7}{'wins':>6}{'win rate':>10}{'95% CI':>18}" + ("  played by" if bots else "")]
    for name, games, wins in rows:
        low, high = wilson(wins, games)
        lines.append(f"{name[:31]:<32}{games:>7}{wins:>6g}{wins / games:>10.1%}{f'{low:.1%} - {high:.1%}':>18}"
                     + (f"  {bots_text(bots.get(name, {}))}" if bots else ""))
    return lines


def bots_by_name(results: list[dict], key) -> dict[str, dict[str, int]]:
    """For every value of `key(player row)` (a name or a list of names): how many players of each bot it had."""
    counts: dict[str, dict[str, int]] = {}
    for result in results:
        for row in result["players"]:
            names = key(row)
            for name in ([names] if isinstance(names, str) else names or []):
                by_bot = counts.setdefault(name, {})
                by_bot[row["bot"]] = by_bot.get(row["bot"], 0) + 1
    return counts


def bots_text(by_bot: dict[str, int]) -> str:
    """`greedy 10, random 1`: the bots of the players, most first."""
    return ", ".join(f"{bot} {count}" for bot, count in sorted(by_bot.items(), key=lambda item: (-item[1], item[0])))


def _corporation(row: dict) -> str:
    return row["corporation"]


def _corporation_and_cards(row: dict) -> list[str]:
    return [row["corporation"]] + row["played"]


def _pieces_lines(results: list[dict]) -> list[str]:
    """For content with pieces: each kind placed and sent, by all players of a game together: in how many of the
    games, and how many a game on average."""
    lines = []
    for key, verb in (("pieces_placed", "placed"), ("pieces_sent", "sent")):
        per_game: dict[str, list[int]] = {}
        for index, result in enumerate(results):
            for row in result["players"]:
                for piece, count in row.get(key, {}).items():
                    per_game.setdefault(piece, [0] * len(results))[index] += count
        for piece, counts in sorted(per_game.items()):
            games = sum(1 for c in counts if c)
            lines.append(f"{piece} {verb}: in {games} of {len(results)} games ({games / len(results):.1%}), "
                         f"{sum(counts) / len(results):.1f} a game")
    return lines


def summary(results: list[dict], seats: list[tuple[str, str]], track: tuple[str, ...] = (),
            what: str = "games") -> str:
    """The seats' win rates, the corporations' and those of the `track`ed cards, with 95 % intervals; the first line
    says how many `what` they are of (an experiment's summary is of its games without the tested cards)."""
    total = len(results)
    lines = [f"{total} {what}"]
    if total == 0:
        return lines[0]
    header = f"{'seat':<14}{'bot':<8}{'wins':>6}{'win rate':>10}{'95% CI':>18}{'mean score':>12}"
    lines += [header, "-" * len(header)]
    for index, (name, kind) in enumerate(seats):
        wins = sum(win_share(r, name) for r in results)
        low, high = wilson(wins, total)
        mean = sum(r["players"][index]["total"] for r in results) / total
        lines.append(f"{name:<14}{kind:<8}{wins:>6g}{wins / total:>10.1%}{f'{low:.1%} - {high:.1%}':>18}{mean:>12.1f}")
    generations = sum(r["generations"] for r in results) / total
    lines.append(f"mean generations: {generations:.1f}; ties broken by megacredits: "
                 f"{sum(1 for r in results if r['tie_break'])}")
    lines += _pieces_lines(results)
    if "solo_won" in results[0]:
        won = sum(1 for r in results if r["solo_won"])
        lines.append(f"solo wins: {won}/{total}")
    # seats of different bots: a card's or a corporation's players are more often the stronger bot's, so the tables
    # say whose they were
    mixed = len({kind for _, kind in seats}) > 1
    if len(seats) > 1:
        lines += [""] + _rate_table("corporation (per player)", win_rates(results, _corporation),
                                    bots_by_name(results, _corporation) if mixed else None)
    if track:
        played = {name: (games, wins) for name, games, wins in win_rates(results, _corporation_and_cards)}
        rows = [(name, *played.get(name, (0, 0))) for name in track]
        lines += [""] + _rate_table("players who played", [r for r in rows if r[1]],
                                    bots_by_name(results, _corporation_and_cards) if mixed else None)
        lines += [f"{name}: never played in these games" for name, games, _ in rows if not games]
    return "\n".join(lines)
