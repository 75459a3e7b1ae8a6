"""The `tharsis` command line: the game commands (`play`, `simulate`, `replay`) live here; the designer and CI
commands (`check`, `cards`, `test`, `fmt`, `gallery`) each have a module in tharsis/commands/.

Exit codes: 0 success, 1 the content has errors, 2 usage errors (bad flags, missing paths), 3 an internal error
(a bug: reported in one line with a request to file it, never as a traceback).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tharsis import __version__
from tharsis.arguments import ArgumentParser
from tharsis.commands import cards as cards_command, check as check_command, fmt as fmt_command, \
    test as test_command
from tharsis.commands import gallery as gallery_command
from tharsis.commands import lsp as lsp_command, report_config_error
from tharsis.config import ConfigError
from tharsis.problems import USAGE, Problem, ProblemError, render, usage_error


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdin, sys.stdout):
        _keep_undecodable_bytes(stream)
    parser = _parser()
    try:
        try:
            args = parser.parse_args(argv)
        except ProblemError as exc:  # E709; `check --format json|github|sarif` reports it in that format
            output = check_command.requested_format(sys.argv[1:] if argv is None else argv)
            if output == "text":
                raise
            return check_command.usage_report(exc, output)
        if not getattr(args, "command", None):
            parser.print_help()
            raise usage_error("E709", "no COMMAND given", "one of the commands above: tharsis check mine/, tharsis play")
        return args.run(args)
    except ProblemError as exc:  # bad flags (E709: refused by argparse), saves, logs: every problem with its code
        if exc.details:
            print(exc.details, file=sys.stderr)
        print(render(exc.problems), file=sys.stderr)
        return exc.exit_code
    except ConfigError as exc:  # a wrong [tool.tharsis] of a designer command (E8xx): reported like card errors
        return report_config_error(exc)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # the last line of defence: users never see a traceback
        print(f"tharsis: internal error: {type(exc).__name__}: {exc}\n"
              "This is a bug in Tharsis; please report it with the command you ran.", file=sys.stderr)
        return 3


def _keep_undecodable_bytes(stream) -> None:
    """Bytes that are not UTF-8 reach Python as surrogates (PEP 383): a file name, or a line typed at the play
    prompt on a terminal in another encoding. Read and printed back they are the bytes they were, as `ls` prints a
    name, not a UnicodeDecodeError or UnicodeEncodeError (exit 3, and with `play --no-log` the game lost). Python
    does so itself under the C locale, but the standard streams of a UTF-8 locale are strict (standard error always
    escapes)."""
    if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
        try:
            stream.reconfigure(errors="surrogateescape")
        except (ValueError, OSError):  # a stream that cannot change now keeps its handler
            pass


class _Version(argparse.Action):
    """--version: the version and the engine build (compiled or plain Python), which is read off the engine's files
    only when asked, not at every start."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                 help="show the version and whether the engine is compiled, and exit"):
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from tharsis.runtime import engine_build

        print(f"tharsis {__version__} (engine: {engine_build()})")
        parser.exit()


def _parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="tharsis", description="Write, check and run Terraforming Mars-style rules.")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    check_command.add_parser(sub)
    cards_command.add_parser(sub)
    test_command.add_parser(sub)
    fmt_command.add_parser(sub)
    gallery_command.add_parser(sub)
    lsp_command.add_parser(sub)

    play = sub.add_parser("play", help="play a game in the terminal (humans and bots)",
                          description="A full game in the terminal. Seats are NAME=KIND with KIND human, random, "
                                      "greedy or mcts; default: --seat you=human --seat bot=greedy.")
    play.add_argument("--seat", action="append", default=[], metavar="NAME=KIND",
                      help="a seat: human, random, greedy or mcts (the search bot); repeatable, in seat order")
    _game_flags(play, "fixes every shuffle (default: a random 63-bit seed, printed at the start)")
    play.add_argument("--log", metavar="FILE", help="where to write the game log (default tharsis-game-SEED.jsonl)")
    play.add_argument("--no-log", action="store_true", help="write no log")
    play.add_argument("--lang", choices=("en", "zh"), default="en",
                      help="language of the game: prompts, menus, tables, moves and the cards' rules text")
    play.add_argument("--load", metavar="FILE", help="resume a game from a save ('save FILE') or from its game log")
    play.set_defaults(run=_play)

    simulate = sub.add_parser("simulate", help="run many bot games in parallel",
                              description="Bot games with seeds SEED, SEED+1, ...; results as JSONL (or CSV), a "
                                          "summary with 95% confidence intervals, and with --report a page of "
                                          "charts. Default seats: greedy=greedy random=random.")
    simulate.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    simulate.add_argument("--jobs", type=int, default=None,
                          help="worker processes (default: one per CPU); with --backend ray and no --address, the "
                               "CPUs of the local Ray instance (default all)")
    simulate.add_argument("--backend", choices=("local", "ray"), default="local",
                          help="local: processes on this machine; ray: a Ray cluster (pip install 'tharsis[ray]')")
    simulate.add_argument("--address", metavar="HOST:PORT",
                          help="with --backend ray: the cluster to join ('auto' for the one 'ray start' runs "
                               "here); default: start a local Ray instance")
    simulate.add_argument("--seat", action="append", default=[], metavar="NAME=BOT",
                          help="a seat and its bot (random, greedy or mcts), repeatable, in seat order")
    simulate.add_argument("--out", default=None, metavar="FILE",
                          help="results file (default results.jsonl or results.csv, numbered -2, -3, ... when taken); "
                               "an existing one is not overwritten without --force")
    simulate.add_argument("--format", choices=("jsonl", "csv"), default="jsonl",
                          help="of the results: jsonl (one game a line) or csv (a row per player per game in FILE, "
                               "a row per card played in FILE's .cards.csv), for pandas")
    simulate.add_argument("--report", metavar="DIR",
                          help="also write DIR/index.html, the balance report: charts of the win rates per seat, "
                               "corporation and card (pip install 'tharsis[report]')")
    simulate.add_argument("--force", action="store_true",
                          help="replace the results file (and the report) of an earlier run")
    simulate.add_argument("--quiet", action="store_true", help="no progress bar")
    simulate.add_argument("--track", action="append", default=[], metavar="CARD",
                          help="also report the win rate of players who played this card or corporation")
    _game_flags(simulate, "the first game's seed; game k has seed SEED+k (default: a random 63-bit seed, "
                          "printed with the summary)")
    simulate.set_defaults(run=_simulate)

    replay = sub.add_parser("replay", help="replay, tell and verify a game log",
                            description="Replay a game from its log (or a save), check every choice and the logged "
                                        "result, and tell it move by move as `play` did, then the result.")
    replay.add_argument("log", metavar="LOG", help="a game log (.jsonl) or a save")
    replay.add_argument("--until", type=int, metavar="GEN",
                        help="tell the game up to the end of generation GEN and show the state there")
    replay.add_argument("--step", action="store_true",
                        help="wait for Enter after each move (on a terminal; otherwise everything at once)")
    replay.add_argument("--generations", action="store_true", help="also print the state at every generation")
    replay.set_defaults(run=_replay)
    return parser


def _game_flags(parser, seed_help: str) -> None:
    parser.add_argument("--players", type=int, metavar="N",
                        help="number of players (1-5) when no --seat is given")
    # no default: a seed that is not given is drawn from the operating system (options.random_seed) and printed
    parser.add_argument("--seed", type=int, default=None, help=seed_help)
    parser.add_argument("--board", default="tharsis", help="tharsis, hellas or elysium")
    parser.add_argument("--corporate-era", action="store_true")
    parser.add_argument("--expansion", action="append", default=[], metavar="NAME",
                        help="play with an expansion declared in the cards (repeatable): prelude, venus, or one of "
                             "your own `expansion \"NAME\" { }`")
    parser.add_argument("--draft", action="store_true", help="draft in research (and the 10 starting cards)")
    parser.add_argument("--beginner", action="store_true", help="everyone plays the Beginner Corporation")
    parser.add_argument("--solo", action="store_true", help="the solo game (one seat, 14 generations)")
    parser.add_argument("--solo-tr63", action="store_true", help="solo, with the TR 63 goal")
    parser.add_argument("--cards", action="append", default=[], metavar="DIR", help="add a folder of your cards")
    parser.add_argument("--max-generations", type=int, default=None, metavar="N",
                        help="stop a game after generation N (not a rule: a safety net)")
    parser.add_argument("--corporation", action="append", default=[], metavar="SEAT=NAME",
                        help="that seat plays this corporation in every game (repeatable)")


def _options(args, seats):
    from tharsis.options import corporations_from_flags, options_from_data

    names = [s.name for s in seats]
    return options_from_data({
        "players": names, "seed": args.seed, "board": args.board.capitalize(),
        "corporations": list(corporations_from_flags(args.corporation, names)),
        "corporate_era": args.corporate_era, "draft": args.draft, "initial_draft": args.draft,
        "beginner": args.beginner, "solo_tr63": args.solo_tr63, "expansions": list(args.expansion),
        "card_paths": [str(Path(c).resolve()) for c in args.cards], "max_generations": args.max_generations})


def _seats(args, default: list[str], kinds: tuple[str, ...]):
    """The seats the flags ask for; ProblemError (exit 2) for bad specs and for flags that contradict each other."""
    from tharsis.options import seats_from_flags

    specs = args.seat or default
    solo = args.solo or args.solo_tr63 or args.players == 1
    if args.players is not None:
        if args.seat and len(args.seat) != args.players:
            raise usage_error("E706", f"--players {args.players} but {len(args.seat)} --seat given",
                                "give one --seat per player, or --players alone")
        if not args.seat:  # the first default seat, then bots of the last default kind
            kind = default[-1].partition("=")[2]
            specs = [default[0]] + [f"{kind}{i}={kind}" for i in range(1, args.players)]
    if solo and not args.seat:
        specs = specs[:1]
    seats = seats_from_flags(specs, kinds)
    if solo and len(seats) != 1:
        raise usage_error("E706", "the solo game has exactly one seat", "drop --solo, or give a single --seat")
    if not solo and len(seats) == 1:
        raise usage_error("E706", "one seat is the solo game", "add --solo (or another --seat)")
    return seats


def _new_game(args, seats):
    """A new game from the flags, or the exit code 1 for cards that do not compile (bad flags raise
    ProblemError, exit 2)."""
    from tharsis.options import check_against_content
    from tharsis.runtime.api.game import ContentError, Game, load_library

    options = _options(args, seats)
    try:
        library = load_library(tuple(options.card_paths))
    except ContentError as exc:
        print(str(exc), file=sys.stderr)
        print("tharsis: the cards do not compile (see above)", file=sys.stderr)
        return 1
    check_against_content(options, library)
    return Game(options, library)


# Flags that describe a new game: with --load the game comes from the file, so they would be silently ignored.
NEW_GAME_FLAGS = ("seat", "players", "seed", "board", "corporate_era", "draft", "beginner", "solo", "solo_tr63",
                  "cards", "max_generations", "corporation", "expansion")


def _load(args):
    """The game and seats `play --load FILE` resumes (a save or a game log), the log to go on writing, and who
    made each choice so far (so the rewritten log keeps naming them)."""
    from tharsis import saves

    defaults = argparse.ArgumentParser()
    _game_flags(defaults, "")
    defaults.add_argument("--seat", action="append", default=[])
    given = [name for name in NEW_GAME_FLAGS if getattr(args, name) not in (defaults.get_default(name), None)]
    if given:
        flags = ", ".join("--" + name.replace("_", "-") for name in given)
        raise usage_error("E706", f"--load takes the game from {args.load}; {flags} would be ignored", f"drop {flags}")
    loaded = saves.load(args.load)
    _warn(loaded.warnings)
    if loaded.game.over:
        raise ProblemError([Problem("E717", "this game is over: there is nothing to resume",
                                    f"tharsis replay {args.load}", args.load)], USAGE)
    log_path = Path(args.load) if loaded.record.kind == "log" and not args.log else None
    return loaded.game, loaded.seats, log_path, loaded.choosers


def _warn(problems) -> None:
    if problems:
        print(render(problems), file=sys.stderr)


def _play(args) -> int:
    from tharsis.play import KINDS, GameLog, Session, writable_log
    from tharsis.play import log_path as new_log_path
    from tharsis.options import check_flags, random_seed

    log_path, choosers = None, []
    if args.load:
        game, seats, log_path, choosers = _load(args)
    else:
        if args.seed is None:  # a new deal each game; the seed is printed so it can be played again
            args.seed = random_seed()
        check_flags(args)
        # the default seats are named in the game's language: "you" reads its verbs right in English, 你 in Chinese
        seats = _seats(args, ["you=human", "bot=greedy"] if args.lang == "en" else ["你=human", "机器人=greedy"], KINDS)
        game = _new_game(args, seats)
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


def _simulate(args) -> int:
    from tharsis import ray_backend, report, results_files  # Ray and matplotlib are imported only when used
    from tharsis.options import JOBS, check_flags, random_seed
    from tharsis.play import KINDS
    from tharsis.problems import suggest
    from tharsis.runtime.bots import BOTS
    from tharsis.simulate import Simulation, cpu_count, summary

    check_flags(args, simulate=True)
    drawn = args.seed is None
    if drawn:  # games no one can foresee; the seed is printed so they can be played again
        args.seed = random_seed(args.games)
    seats = _seats(args, ["greedy=greedy", "random=random"], KINDS)
    humans = [s.name for s in seats if s.kind not in BOTS]
    if humans:
        raise usage_error("E706", f"simulate plays bots only; {', '.join(humans)} is not a bot",
                          f"--seat NAME=KIND with KIND {' or '.join(BOTS)}")
    if args.address and args.backend != "ray":
        raise usage_error("E706", "--address joins a Ray cluster, but the backend is local", "add --backend ray")
    if args.backend == "ray" and not ray_backend.available():
        raise usage_error("E720", "--backend ray needs Ray, which is not installed", ray_backend.INSTALL_HINT)
    if args.report is not None:
        report.require()
    game = _new_game(args, seats)  # fail fast on bad options or content, before starting workers
    if isinstance(game, int):
        return game
    unknown = [name for name in args.track if name not in game.library]
    if unknown:
        raise ProblemError([Problem("E707", f"--track {name}: no card or corporation is called {name!r}",
                                    suggest(name, game.library) or "a card of your own is known once its folder "
                                                                   "is loaded: add --cards DIR")
                            for name in unknown], USAGE)
    if args.corporation:  # a fixed corporation is worth tracking
        args.track = list(dict.fromkeys([spec.partition("=")[2].strip() for spec in args.corporation] + args.track))
    folder = report.prepare(args.report, args.force) if args.report is not None else None
    out = results_files.prepare(args.out, args.format, args.force)
    # Every CPU by default: the games are independent, and a balance run is what the machine is for. With Ray the
    # default stays None, so that a local Ray instance takes the CPUs Ray itself finds.
    jobs = args.jobs if args.jobs is not None or args.backend == "ray" else min(cpu_count(), JOBS[1])
    simulation = Simulation(game.options, [(s.name, s.kind) for s in seats], args.games, jobs, out,
                            format=args.format, backend=args.backend, address=args.address)
    try:
        results = simulation.run(progress=None if args.quiet else sys.stderr)
    except ray_backend.RayBackendError as exc:
        hint = "is the cluster up? `ray status` on one of its nodes shows its address" if args.address else None
        raise usage_error("E721", str(exc), hint) from None
    files = " and ".join(str(path) for path in results_files.written(out, args.format))
    if simulation.interrupted:
        print(f"tharsis: interrupted: {len(results)} of {args.games} games finished, their results are in "
              f"{files}" + ("; no report was written" if folder else ""), file=sys.stderr)
        return 130
    print(summary(results, simulation.seats, tuple(args.track)))
    if drawn:
        print(f"seeds {args.seed} to {args.seed + args.games - 1} (--seed {args.seed} plays these games again)")
    print(f"results written to {files}")
    if folder is not None:
        from tharsis.balance import designer_content

        page = report.write(folder, results, designer_content(game), requested=args.games)
        print(f"report written to {page}")
    return 0


def _replay(args) -> int:
    """Replays a log (or a save) choice by choice, tells it move by move and checks it ends where the file says
    (tharsis/replay.py)."""
    from tharsis.replay import replay

    code, warnings = replay(args.log, until=args.until, step=args.step, generations=args.generations)
    _warn(warnings)
    return code
