"""`tharsis play`: a game in the terminal, new or resumed from a save or a log (tharsis/terminal/)."""

from __future__ import annotations

import argparse
from pathlib import Path

from tharsis.problems import USAGE, Problem, ProblemError, usage_error

from .game_flags import NEW_GAME_FLAGS, add_configured_cards, add_game_flags, chosen_seats, new_game, warn


def add_parser(sub) -> None:
    command = sub.add_parser("play", help="play a game in the terminal (humans and bots)",
                             description="A full game in the terminal. Seats are NAME=KIND with KIND human, random, "
                                         "greedy or mcts; default: --seat you=human --seat bot=greedy.")
    command.add_argument("--seat", action="append", default=[], metavar="NAME=KIND",
                         help="a seat: human, random, greedy or mcts (the search bot); repeatable, in seat order")
    add_game_flags(command, "fixes every shuffle (default: a random 63-bit seed, printed at the start)")
    command.add_argument("--log", metavar="FILE", help="where to write the game log (default tharsis-game-SEED.jsonl)")
    command.add_argument("--no-log", action="store_true", help="write no log")
    command.add_argument("--lang", choices=("en", "zh"), default="en",
                         help="language of the game: prompts, menus, tables, moves and the cards' rules text")
    command.add_argument("--load", metavar="FILE", help="resume a game from a save ('save FILE') or from its game log")
    command.set_defaults(run=run)


def run(args) -> int:
    from tharsis.games.options import KINDS, check_flags, random_seed
    from tharsis.terminal.play import GameLog, Session, log_path as new_log_path, writable_log

    log_path, choosers = None, []
    if args.load:
        game, seats, log_path, choosers = _load(args)
    else:
        if args.seed is None:  # a new deal each game; the seed is printed so it can be played again
            args.seed = random_seed()
        check_flags(args)
        add_configured_cards(args)
        # the default seats are named in the game's language: "you" reads its verbs right in English, 你 in Chinese
        seats = chosen_seats(args, ["you=human", "bot=greedy"] if args.lang == "en" else ["你=human", "机器人=greedy"],
                             KINDS)
        game = new_game(args, seats)
        if isinstance(game, int):
            return game
    if args.no_log:
        log_path = None
    elif log_path is None:  # a new log, never over an existing file
        log_path = new_log_path(args.log, game.options.seed)
    else:  # resuming a log goes on writing it: it is the game's autosave
        log_path = writable_log(log_path)
    session = Session(game, seats, GameLog(log_path, choosers), language=args.lang)
    code = session.run()
    if log_path is not None:
        print(session.words("log_written", path=log_path))
    return code


def _load(args):
    """The game and seats `play --load FILE` resumes (a save or a game log), the log to go on writing, and who
    made each choice so far (so the rewritten log keeps naming them)."""
    from tharsis.games import saves

    defaults = argparse.ArgumentParser()
    add_game_flags(defaults, "")
    defaults.add_argument("--seat", action="append", default=[])
    given = [name for name in NEW_GAME_FLAGS if getattr(args, name) not in (defaults.get_default(name), None)]
    if given:
        flags = ", ".join("--" + name.replace("_", "-") for name in given)
        raise usage_error("E706", f"--load takes the game from {args.load}; {flags} would be ignored", f"drop {flags}")
    loaded = saves.load(args.load)
    warn(loaded.warnings)
    if loaded.game.over:
        raise ProblemError([Problem("E717", "this game is over: there is nothing to resume",
                                    f"tharsis replay {args.load}", args.load)], USAGE)
    log_path = Path(args.load) if loaded.record.kind == "log" and not args.log else None
    return loaded.game, loaded.seats, log_path, loaded.choosers
