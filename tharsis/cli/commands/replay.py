"""`tharsis replay`: a game told again from its log or save, and checked (tharsis/terminal/replay.py)."""

from __future__ import annotations

from .game_flags import warn


def add_parser(sub) -> None:
    command = sub.add_parser("replay", help="replay, tell and verify a game log",
                             description="Replay a game from its log (or a save), check every choice and the logged "
                                         "result, and tell it move by move as `play` did, then the result.")
    command.add_argument("log", metavar="LOG", help="a game log (.jsonl) or a save")
    command.add_argument("--until", type=int, metavar="GEN",
                         help="tell the game up to the end of generation GEN and show the state there")
    command.add_argument("--step", action="store_true",
                         help="wait for Enter after each move (on a terminal; otherwise everything at once)")
    command.add_argument("--generations", action="store_true", help="also print the state at every generation")
    command.add_argument("--lang", choices=("en", "zh"), default="en",
                         help="language of the telling: moves, tables and the cards' rules text, as play --lang")
    command.set_defaults(run=run)


def run(args) -> int:
    """Replays a log (or a save) choice by choice, tells it move by move and checks it ends where the file says
    (tharsis/terminal/replay.py)."""
    from tharsis.terminal.replay import replay

    code, warnings = replay(args.log, until=args.until, step=args.step, generations=args.generations,
                            language=args.lang)
    warn(warnings)
    return code
