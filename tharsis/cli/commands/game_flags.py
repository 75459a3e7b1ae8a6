"""The flags that describe a new game, shared by `play` and `simulate`, and the game they describe."""

from __future__ import annotations

import sys
from pathlib import Path

from tharsis.cli.commands import add_config_flag
from tharsis.problems import render, usage_error
from tharsis.runtime.core.state import MAX_PLAYERS, MIN_PLAYERS  # names only: the engine loads when a game starts


def add_game_flags(parser, seed_help: str) -> None:
    parser.add_argument("--players", type=int, metavar="N",
                        help=f"number of players ({MIN_PLAYERS}-{MAX_PLAYERS}) when no --seat is given")
    # no default: a seed that is not given is drawn from the operating system (options.random_seed) and printed
    parser.add_argument("--seed", type=int, default=None, help=seed_help)
    parser.add_argument("--board", default="tharsis", help="tharsis, hellas or elysium")
    parser.add_argument("--corporate-era", action="store_true")
    parser.add_argument("--expansion", action="append", default=[], metavar="NAME",
                        help="play with an expansion declared in the cards (repeatable): prelude, venus, colonies, "
                             "turmoil, or one of your own `expansion \"NAME\" { }`")
    parser.add_argument("--site", action="append", default=[], metavar="NAME",
                        help="play with this site of an expansion in play instead of those dealt at random "
                             "(repeatable: --site Luna --site Io)")
    parser.add_argument("--draft", action="store_true", help="draft in research (and the 10 starting cards)")
    parser.add_argument("--beginner", action="store_true", help="everyone plays the Beginner Corporation")
    parser.add_argument("--solo", action="store_true", help="the solo game (one seat, 14 generations)")
    parser.add_argument("--solo-tr63", action="store_true", help="solo, with the TR 63 goal")
    parser.add_argument("--cards", action="append", default=[], metavar="DIR", help="add a folder of your cards")
    parser.add_argument("--max-generations", type=int, default=None, metavar="N",
                        help="stop a game after generation N (not a rule: a safety net)")
    parser.add_argument("--corporation", action="append", default=[], metavar="SEAT=NAME",
                        help="that seat plays this corporation in every game (repeatable)")
    add_config_flag(parser)


def add_configured_cards(args) -> None:
    """Add the `cards` folders of [tool.tharsis] (pyproject.toml) to --cards, first, as `tharsis test` does: the
    designer's project names its cards once, and `play` and `simulate` (and `--track "My Card"`) find them without
    repeating --cards. A configured folder that does not exist stops the command (E705, named as 'cards' of
    pyproject.toml); a wrong configuration raises ConfigError (E8xx)."""
    from tharsis.cli.commands import configured, load_config, missing_paths, require

    config = load_config(args)
    if config.cards:
        require(missing_paths(config.cards, configured(config, "cards")))
    args.cards = list(dict.fromkeys(list(config.cards) + list(args.cards)))


def game_options(args, seats):
    from tharsis.games.options import corporations_from_flags, options_from_data

    names = [s.name for s in seats]
    return options_from_data({
        "players": names, "seed": args.seed, "board": args.board.capitalize(),
        "corporations": list(corporations_from_flags(args.corporation, names)),
        "corporate_era": args.corporate_era, "draft": args.draft, "initial_draft": args.draft,
        "beginner": args.beginner, "solo_tr63": args.solo_tr63, "expansions": list(args.expansion),
        "sites": list(args.site),
        "card_paths": [str(Path(c).resolve()) for c in args.cards], "max_generations": args.max_generations})


def chosen_seats(args, default: list[str], kinds: tuple[str, ...]):
    """The seats the flags ask for; ProblemError (exit 2) for bad specs and for flags that contradict each other."""
    from tharsis.games.options import seats_from_flags

    specs = args.seat or default
    solo = args.solo or args.solo_tr63 or args.players == 1
    if args.players is not None:
        if args.seat and len(args.seat) != args.players:
            raise usage_error("E706", f"--players {args.players} but {len(args.seat)} --seat given",
                                "give one --seat per player, or --players alone")
        if not args.seat:  # the first default seat, then bots of the last default seat, numbered: bot1, 机器人2
            name, _, kind = default[-1].partition("=")
            specs = [default[0]] + [f"{name}{i}={kind}" for i in range(1, args.players)]
    if solo and not args.seat:
        specs = specs[:1]
    seats = seats_from_flags(specs, kinds)
    if solo and len(seats) != 1:
        raise usage_error("E706", "the solo game has exactly one seat", "drop --solo, or give a single --seat")
    if not solo and len(seats) == 1:
        raise usage_error("E706", "one seat is the solo game", "add --solo (or another --seat)")
    return seats


def new_game(args, seats, start: bool = True):
    """A new game from the flags, or the exit code 1 for cards that do not compile (bad flags raise
    ProblemError, exit 2). `start=False`: the game is only built, not set up (simulate checks the options and
    content with it, and a set-up that never ends is then one game's failure, not the run's)."""
    from tharsis.games.options import check_against_content
    from tharsis.runtime.api.game import ContentError, Game, load_library

    options = game_options(args, seats)
    try:
        library = load_library(tuple(options.card_paths))
    except ContentError as exc:
        print(str(exc), file=sys.stderr)
        print("tharsis: the cards do not compile (see above)", file=sys.stderr)
        return 1
    check_against_content(options, library)
    return Game(options, library, start=start)


# Flags that describe a new game: with --load the game comes from the file, so they would be silently ignored.
NEW_GAME_FLAGS = ("seat", "players", "seed", "board", "corporate_era", "draft", "beginner", "solo", "solo_tr63",
                  "cards", "max_generations", "corporation", "expansion", "config")


def warn(problems) -> None:
    if problems:
        print(render(problems), file=sys.stderr)
