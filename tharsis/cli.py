"""The `tharsis` command line: the game commands (`play`, `simulate`, `replay`) live here; the designer and CI
commands (`check`, `cards`, `test`, `fmt`) each have a module in tharsis/commands/.

Exit codes: 0 success, 1 the content has errors, 2 usage errors (bad flags, missing paths), 3 an internal error
(a bug: reported in one line with a request to file it, never as a traceback).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tharsis import __version__
from tharsis.commands import cards as cards_command, check as check_command, paths_exist, test as test_command
from tharsis.commands import lsp as lsp_command


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        return args.run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # the last line of defence: users never see a traceback
        print(f"tharsis: internal error: {type(exc).__name__}: {exc}\n"
              "This is a bug in Tharsis; please report it with the command you ran.", file=sys.stderr)
        return 3


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tharsis", description="Write, check and run Terraforming Mars-style rules.")
    parser.add_argument("--version", action="version", version=f"tharsis {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    check_command.add_parser(sub)
    cards_command.add_parser(sub)
    test_command.add_parser(sub)
    lsp_command.add_parser(sub)

    play = sub.add_parser("play", help="play a game in the terminal (humans and bots)",
                          description="A full game in the terminal. Seats are NAME=KIND with KIND human, random "
                                      "or greedy; default: --seat you=human --seat bot=greedy.")
    play.add_argument("--seat", action="append", default=[], metavar="NAME=KIND",
                      help="a seat: human, random or greedy; repeatable, in seat order")
    _game_flags(play)
    play.add_argument("--log", metavar="FILE", help="where to write the game log (default tharsis-game-SEED.jsonl)")
    play.add_argument("--no-log", action="store_true", help="write no log")
    play.add_argument("--load", metavar="FILE", help="resume a game saved with 'save FILE'")
    play.set_defaults(run=_play)

    simulate = sub.add_parser("simulate", help="run many bot games in parallel",
                              description="Bot games with seeds SEED, SEED+1, ...; results as JSONL, a summary "
                                          "with 95% confidence intervals. Default seats: greedy=greedy random=random.")
    simulate.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    simulate.add_argument("--jobs", type=int, default=None,
                          help="worker processes (default 1); with --backend ray and no --address, the CPUs of "
                               "the local Ray instance (default all)")
    simulate.add_argument("--backend", choices=("local", "ray"), default="local",
                          help="local: processes on this machine; ray: a Ray cluster (pip install 'tharsis[ray]')")
    simulate.add_argument("--address", metavar="HOST:PORT",
                          help="with --backend ray: the cluster to join ('auto' for the one 'ray start' runs "
                               "here); default: start a local Ray instance")
    simulate.add_argument("--seat", action="append", default=[], metavar="NAME=BOT",
                          help="a seat and its bot (random or greedy), repeatable, in seat order")
    simulate.add_argument("--out", default="results.jsonl", metavar="FILE", help="results file (JSONL)")
    simulate.add_argument("--quiet", action="store_true", help="no progress bar")
    simulate.add_argument("--track", action="append", default=[], metavar="CARD",
                          help="also report the win rate of players who played this card or corporation")
    _game_flags(simulate)
    simulate.set_defaults(run=_simulate)

    replay = sub.add_parser("replay", help="replay a game log", description="Replay a game from its log and print "
                                                                          "the result (and each generation).")
    replay.add_argument("log", metavar="LOG")
    replay.add_argument("--generations", action="store_true", help="print the state at every generation")
    replay.set_defaults(run=_replay)
    return parser


def _game_flags(parser) -> None:
    parser.add_argument("--players", type=int, metavar="N",
                        help="number of players (1-5) when no --seat is given")
    parser.add_argument("--seed", type=int, default=1, help="fixes every shuffle (default 1)")
    parser.add_argument("--board", default="tharsis", help="tharsis, hellas or elysium")
    parser.add_argument("--corporate-era", action="store_true")
    parser.add_argument("--draft", action="store_true", help="draft in research (and the 10 starting cards)")
    parser.add_argument("--beginner", action="store_true", help="everyone plays the Beginner Corporation")
    parser.add_argument("--solo", action="store_true", help="the solo game (one seat, 14 generations)")
    parser.add_argument("--solo-tr63", action="store_true", help="solo, with the TR 63 goal")
    parser.add_argument("--cards", action="append", default=[], metavar="DIR", help="add a folder of your cards")
    parser.add_argument("--max-generations", type=int, default=None, metavar="N",
                        help="stop a game after generation N (not a rule: a safety net)")
    parser.add_argument("--corporation", action="append", default=[], metavar="SEAT=NAME",
                        help="that seat plays this corporation in every game (repeatable)")


def _options(args, names: list[str]):
    from tharsis.runtime.game import GameOptions

    fixed = dict(spec.partition("=")[::2] for spec in args.corporation)
    unknown = set(fixed) - set(names)
    if unknown:
        raise ValueError(f"--corporation names no seat: {', '.join(sorted(unknown))} (seats: {', '.join(names)})")
    corporations = tuple(fixed.get(name, "").strip() for name in names) if fixed else ()
    return GameOptions(players=tuple(names), seed=args.seed, board=args.board.capitalize(),
                       corporations=corporations,
                       corporate_era=args.corporate_era, draft=args.draft, initial_draft=args.draft,
                       beginner=args.beginner, solo_tr63=args.solo_tr63,
                       card_paths=tuple(str(Path(c).resolve()) for c in args.cards),
                       max_generations=args.max_generations)


def _seats(args, default: list[str]):
    from tharsis.play import SeatError, parse_seats

    specs = args.seat or default
    solo = args.solo or args.solo_tr63 or args.players == 1
    if args.players is not None:
        if not 1 <= args.players <= 5:
            print("tharsis: --players must be 1 to 5", file=sys.stderr)
            return None
        if args.seat and len(args.seat) != args.players:
            print(f"tharsis: --players {args.players} but {len(args.seat)} --seat given", file=sys.stderr)
            return None
        if not args.seat:  # the first default seat, then bots of the last default kind
            kind = default[-1].partition("=")[2]
            specs = [default[0]] + [f"{kind}{i}={kind}" for i in range(1, args.players)]
    if solo and not args.seat:
        specs = specs[:1]
    try:
        seats = parse_seats(specs)
    except SeatError as exc:
        print(f"tharsis: {exc}", file=sys.stderr)
        return None
    if solo and len(seats) != 1:
        print("tharsis: the solo game has exactly one seat", file=sys.stderr)
        return None
    if not solo and len(seats) == 1:
        print("tharsis: one seat is the solo game: add --solo (or another --seat)", file=sys.stderr)
        return None
    return seats


def _new_game(args, seats):
    """A new game from the flags, or the exit code: 2 for bad flags, 1 for cards that do not compile."""
    from tharsis.runtime.game import ContentError, Game

    if not paths_exist(args.cards):
        return 2
    try:
        return Game(_options(args, [s.name for s in seats]))
    except ContentError as exc:
        print(str(exc), file=sys.stderr)
        print("tharsis: the cards do not compile (see above)", file=sys.stderr)
        return 1
    except ValueError as exc:
        print(f"tharsis: {exc}", file=sys.stderr)
        return 2


def _play(args) -> int:
    from tharsis.play import GameLog, Session, load_save

    if args.load:
        if not paths_exist([args.load]):
            return 2
        try:
            game, seats = load_save(Path(args.load))
        except (ValueError, KeyError, TypeError) as exc:
            print(f"tharsis: cannot load {args.load}: {exc}", file=sys.stderr)
            return 1
    else:
        seats = _seats(args, ["you=human", "bot=greedy"])
        if seats is None:
            return 2
        game = _new_game(args, seats)
        if isinstance(game, int):
            return game
    log_path = None if args.no_log else Path(args.log or f"tharsis-game-{game.options.seed}.jsonl")
    if log_path is not None:
        try:
            log_path.touch()
        except OSError as exc:
            print(f"tharsis: cannot write the game log to {log_path}: {exc.strerror} (use --log FILE or --no-log)",
                  file=sys.stderr)
            return 2
    session = Session(game, seats, GameLog(log_path))
    code = session.run()
    if log_path is not None:
        print(f"log written to {log_path} (tharsis replay {log_path})")
    return code


def _simulate(args) -> int:
    from tharsis import ray_backend  # imports Ray only when the backend is used
    from tharsis.runtime.bots import BOTS
    from tharsis.simulate import Simulation, summary

    seats = _seats(args, ["greedy=greedy", "random=random"])
    if seats is None:
        return 2
    humans = [s.name for s in seats if s.kind not in BOTS]
    if humans:
        print(f"tharsis: simulate plays bots only; {', '.join(humans)} is not a bot", file=sys.stderr)
        return 2
    if args.games < 1 or (args.jobs is not None and args.jobs < 1):
        print("tharsis: --games and --jobs must be at least 1", file=sys.stderr)
        return 2
    if args.address and args.backend != "ray":
        print("tharsis: --address joins a Ray cluster: add --backend ray", file=sys.stderr)
        return 2
    if args.backend == "ray" and not ray_backend.available():
        print(f"tharsis: --backend ray needs Ray, which is not installed: {ray_backend.INSTALL_HINT}",
              file=sys.stderr)
        return 2
    game = _new_game(args, seats)  # fail fast on bad options or content, before starting workers
    if isinstance(game, int):
        return game
    if args.corporation:  # a fixed corporation is worth tracking
        args.track = list(dict.fromkeys([spec.partition("=")[2].strip() for spec in args.corporation] + args.track))
    try:
        Path(args.out).touch()
    except OSError as exc:
        print(f"tharsis: cannot write results to {args.out}: {exc.strerror}", file=sys.stderr)
        return 2
    jobs = args.jobs if args.jobs is not None or args.backend == "ray" else 1
    simulation = Simulation(_options(args, [s.name for s in seats]), [(s.name, s.kind) for s in seats],
                            args.games, jobs, Path(args.out), backend=args.backend, address=args.address)
    try:
        results = simulation.run(progress=None if args.quiet else sys.stderr)
    except ray_backend.RayBackendError as exc:
        print(f"tharsis: {exc}", file=sys.stderr)
        return 2
    print(summary(results, simulation.seats, tuple(args.track)))
    print(f"results written to {args.out}")
    return 0


def _replay(args) -> int:
    from tharsis import view
    from tharsis.play import read_log
    from tharsis.runtime.decisions import IllegalChoice
    from tharsis.runtime.game import ContentError, Game

    if not paths_exist([args.log]):
        return 2
    try:
        options, seats, labels = read_log(Path(args.log))
        game = Game(options)
    except (ValueError, KeyError, TypeError, ContentError) as exc:
        print(f"tharsis: cannot replay {args.log}: {exc}", file=sys.stderr)
        return 1
    generation = 0
    for number, label in enumerate(labels, start=1):
        if args.generations and game.state.generation != generation:
            generation = game.state.generation
            _print_generation(game, view)
        try:
            game.apply(label)
        except IllegalChoice as exc:
            print(f"tharsis: {args.log}: choice {number} cannot be replayed: {exc}", file=sys.stderr)
            return 1
    if not game.over:
        print(f"the log stops before the end of the game (generation {game.state.generation}, waiting for "
              f"{game.state.players[game.pending().player].name}: {game.pending().prompt})")
        return 0
    if args.generations:
        _print_generation(game, view)
    print(view.final_table(game.result))
    return 0


def _print_generation(game, view) -> None:
    print(f"=== {view.globals_line(game)}")
    for player in game.state.players:
        print(f"  {player.name}: TR {player.tr}, {player.resources['megacredits']} MC, production "
              + ", ".join(f"{r} {v}" for r, v in player.production.items() if v)
              + f", {len(player.played)} cards in play")
    print(view.board(game))
