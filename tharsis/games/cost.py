"""The cost of a game as a count that the machine's load cannot change: `python -m tharsis.games.cost WHAT`.

    check    play the recorded workloads and fail (exit 1) when one costs more than 10 % over its recorded figure
             (or more than 10 % under it: a figure that has gone stale lets a regression back in unseen)
    record   play them and write the figures anew into tests/engine_cost.json (say why in the commit message)
    profile  the cost per decision by quarter of the game and by number of players (docs/benchmarks.md)

The count is the Python bytecodes the game executes and the Python frames it enters (calls, objects made by a
class with a Python `__init__`, generators resumed), the bots' included, counted by `sys.settrace` in a fresh process
whose hash seed is fixed (set and dict orders, and so the work, are the same in every run). Callgrind's CPU
instructions are the figure that holds across machines (docs/benchmarks.md), but CI's machines may lack valgrind.
The compared figure weighs a frame as CALL_WEIGHT bytecodes: over eleven versions of the engine (issue 36), callgrind's
instructions per 2-player game were 36.9 per bytecode plus 891 per frame within 1.1 % (bytecodes alone: within 2.3 %,
and they saw a third less of what fewer calls and fewer objects saved), so the weighted count times 36.9 estimates the
instructions. Bytecodes differ between Python versions, so figures are recorded for one minor version (`python`),
and another version is measured but not compared. Counting only sees Python code: on a compiled engine
(THARSIS_COMPILE=1) there is nothing to count, and the check says so.

A workload is a few seeded games between random bots (seeds 0.., bot seeds `seed * 10 + player`, Corporate Era,
as `tharsis.games.benchmark play`), the content loaded before counting starts.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Optional

# the recorded figures, beside the fingerprint games (tests/fingerprint_games.py) that fix what the games do
RECORD = Path(__file__).resolve().parents[2] / "tests" / "engine_cost.json"
TOLERANCE = 0.10
CALL_WEIGHT = 24            # a Python frame costs about as many instructions as 24 bytecodes (891 / 36.9, above)
INSTRUCTIONS_PER_UNIT = 36.9

# name: (players, expansions, games); each runs in about a second under the tracer
WORKLOADS = {
    "base, 2 players": (2, (), 3),
    "prelude and venus, 2 players": (2, ("prelude", "venus"), 3),
    "base, 4 players": (4, (), 2),
}


def count(players: int, expansions: tuple, games: int, quarters: bool = False) -> dict:
    """Play the workload in this process and count its cost (bytecodes, and CALL_WEIGHT for each frame): per game,
    per decision (a logged choice, as `Game.log` holds them), and with `quarters` per decision in each quarter of the
    games' decisions."""
    import gc

    from tharsis.runtime.api.game import Game, GameOptions, load_library
    from tharsis.runtime.bots import BOTS

    library = load_library()
    executed = [0]   # bytecodes, and CALL_WEIGHT for each frame entered

    def on_opcode(frame, event, arg):
        if event == "opcode":
            executed[0] += 1
        return on_opcode

    def on_call(frame, event, arg):
        executed[0] += CALL_WEIGHT
        frame.f_trace_opcodes = True
        return on_opcode

    total, decisions, by_quarter = 0, 0, [[0, 0] for _ in range(4)]
    gc.disable()   # no collector pass runs Python code, but its timing would be the one thing left to chance
    for seed in range(games):
        game = Game(GameOptions(players=tuple(f"p{i}" for i in range(players)), seed=seed, corporate_era=True,
                                expansions=expansions), library)
        bots = {i: BOTS["random"](seed * 10 + i) for i in range(players)}
        marks = []
        executed[0] = 0
        sys.settrace(on_call)
        try:
            while not game.over:
                decision = game.pending()
                game.apply(bots[decision.player].choose(game, decision))
                marks.append(executed[0])
        finally:
            sys.settrace(None)
        total += executed[0]
        decisions += len(game.log)
        if quarters:   # what each decision cost, by the quarter of the game's decisions it falls in
            previous = 0
            for index, mark in enumerate(marks):
                quarter = by_quarter[index * 4 // len(marks)]
                quarter[0] += mark - previous
                quarter[1] += 1
                previous = mark
    gc.enable()
    result = {"cost_per_game": round(total / games), "decisions_per_game": round(decisions / games, 1),
              "cost_per_decision": round(total / decisions),
              "instructions_per_game_estimated": round(total / games * INSTRUCTIONS_PER_UNIT)}
    if quarters:
        result["per_decision_by_quarter"] = [round(spent / max(1, n)) for spent, n in by_quarter]
    return result


def measure(players: int, expansions: tuple, games: int, quarters: bool = False) -> dict:
    """`count` in a fresh process with a fixed hash seed, so that every measurement starts from the same caches and
    iterates sets and dicts in the same order."""
    command = [sys.executable, "-m", "tharsis.games.cost", "count", "--players", str(players), "--games", str(games),
               *(f"--expansion={name}" for name in expansions), *(["--quarters"] if quarters else [])]
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    if done.returncode != 0:
        raise RuntimeError(f"counting a workload failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout)


def python_version() -> str:
    return f"{sys.version_info.major}.{sys.version_info.minor}"


def compiled_engine() -> Optional[str]:
    """Why nothing can be counted here, or None: a compiled engine runs no bytecodes of its own."""
    from tharsis.runtime import engine_build

    build = engine_build()
    return None if build.startswith("plain") else f"the engine is {build}: its bytecodes cannot be counted"


def check(record: Path = RECORD) -> tuple[list[str], list[str]]:
    """The workloads measured against the recorded figures (the weighted count): a line for each, and the problems
    (empty when every workload is within the tolerance). Raises LookupError when nothing can be compared here."""
    recorded = json.loads(record.read_text(encoding="utf-8"))
    if recorded["python"] != python_version():
        raise LookupError(f"the figures were recorded on Python {recorded['python']}, this is {python_version()}: "
                          f"bytecodes differ between versions (record them anew to compare on this one)")
    reason = compiled_engine()
    if reason is not None:
        raise LookupError(reason)
    measured = {name: measure(*workload)["cost_per_game"] for name, workload in WORKLOADS.items()}
    return compare({name: figure["cost_per_game"] for name, figure in recorded["workloads"].items()}, measured)


def compare(recorded: dict[str, int], measured: dict[str, int]) -> tuple[list[str], list[str]]:
    """A line per workload measured, and a problem for each more than TOLERANCE away from its recorded figure (or
    not recorded at all)."""
    lines, problems = [], []
    for name, found in measured.items():
        expected = recorded.get(name)
        if expected is None:
            problems.append(f"{name}: a cost of {found:,} per game, and no figure recorded for it "
                            f"(python -m tharsis.games.cost record)")
            continue
        change = found / expected - 1
        line = f"{name}: a cost of {found:,} per game, recorded {expected:,} ({change:+.1%})"
        lines.append(line)
        if abs(found - expected) > expected * TOLERANCE:
            problems.append(f"{line}: more than {TOLERANCE:.0%} {'over' if change > 0 else 'under'} the recorded "
                            f"figure; if the change is meant, record it anew (python -m tharsis.games.cost record) "
                            f"and say why in the commit message")
    return lines, problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("check", "record", "profile", "count"))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--expansion", action="append", default=[], metavar="NAME")
    parser.add_argument("--quarters", action="store_true")
    args = parser.parse_args()
    if args.what == "count":
        print(json.dumps(count(args.players, tuple(args.expansion), args.games, args.quarters)))
    elif args.what == "check":
        try:
            lines, problems = check()
        except LookupError as error:
            sys.exit(f"tharsis.games.cost: nothing compared: {error}")
        print("\n".join(lines + problems))
        sys.exit(1 if problems else 0)
    elif args.what == "record":
        reason = compiled_engine()
        if reason is not None:
            sys.exit(f"tharsis.games.cost: nothing recorded: {reason}")
        figures = {name: measure(*workload) for name, workload in WORKLOADS.items()}
        RECORD.write_text(json.dumps({"python": python_version(), "workloads": figures}, indent=2) + "\n",
                          encoding="utf-8")
        print(f"recorded in {RECORD}:\n" + "\n".join(f"{name}: {figure}" for name, figure in figures.items()))
    else:
        for players in range(1, 6):
            print(f"base, {players} player{'s' * (players > 1)}:", measure(players, (), args.games, True))
        print("prelude and venus, 2 players:", measure(2, ("prelude", "venus"), args.games, True))


if __name__ == "__main__":
    main()
