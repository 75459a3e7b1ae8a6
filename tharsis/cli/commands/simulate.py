"""`tharsis simulate`: many bot games, their results file, summary and report (tharsis/games/); with `--effect CARD`,
the card-effect experiment (tharsis/games/paired.py): paired games with and without each card."""

from __future__ import annotations

import sys

from tharsis.problems import CONTENT, ENDLESS_HINT, USAGE, Problem, ProblemError, render, usage_error

from .game_flags import add_configured_cards, add_game_flags, chosen_seats, new_game


def add_parser(sub) -> None:
    command = sub.add_parser("simulate", help="run many bot games in parallel",
                             description="Bot games with seeds SEED, SEED+1, ...; results as JSONL (or CSV), a "
                                         "summary with 95% confidence intervals, and with --report a page of "
                                         "charts. With --effect CARD, what difference each card makes: paired "
                                         "games, the same seeds with and without it. Default seats: greedy=greedy "
                                         "random=random.")
    command.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    command.add_argument("--jobs", type=int, default=None,
                         help="worker processes (default: one per CPU); with --backend ray and no --address, the "
                              "CPUs of the local Ray instance (default all)")
    command.add_argument("--backend", choices=("local", "ray"), default="local",
                         help="local: processes on this machine; ray: a Ray cluster (pip install 'tharsis[ray]')")
    command.add_argument("--address", metavar="HOST:PORT",
                         help="with --backend ray: the cluster to join ('auto' for the one 'ray start' runs "
                              "here); default: start a local Ray instance")
    command.add_argument("--seat", action="append", default=[], metavar="NAME=BOT",
                         help="a seat and its bot (random, greedy or mcts), repeatable, in seat order")
    command.add_argument("--out", default=None, metavar="FILE",
                         help="results file (default results.jsonl or results.csv, numbered -2, -3, ... when taken); "
                              "an existing one is not overwritten without --force")
    command.add_argument("--format", choices=("jsonl", "csv"), default="jsonl",
                         help="of the results: jsonl (one game a line) or csv (a row per player per game in FILE, "
                              "a row per card played in FILE's .cards.csv), for pandas")
    command.add_argument("--report", metavar="DIR",
                         help="also write DIR/index.html, the balance report: charts of the win rates per seat, "
                              "corporation and card (pip install 'tharsis[report]')")
    command.add_argument("--force", action="store_true",
                         help="replace the results file (and the report) of an earlier run")
    command.add_argument("--quiet", action="store_true", help="no progress bar")
    command.add_argument("--track", action="append", default=[], metavar="CARD",
                         help="also report the win rate of players who played this card or corporation")
    command.add_argument("--effect", action="append", default=[], metavar="CARD",
                         help="measure what this project card changes (repeatable): every seed is played without "
                              "the cards and again with each in a seat's hand from the start, and the difference in "
                              "that seat's win rate and VP is the card's effect, with a 95%% interval corrected for "
                              "the number of cards; --games is then the pairs per card (at least 30): N seeds and M "
                              "cards play N*(M+1) games (docs/designing-cards.md)")
    command.add_argument("--holder", metavar="SEAT",
                         help="with --effect: the seat that holds the card in every pair (default: each seat in turn)")
    add_game_flags(command, "the first game's seed; game k has seed SEED+k (default: a random 63-bit seed, "
                          "printed with the summary)")
    command.set_defaults(run=run)


def run(args) -> int:
    from tharsis.games import ray_backend, report, results_files  # Ray and matplotlib are imported only when used
    from tharsis.games.balance import designer_content
    from tharsis.games.effects import EFFECT_COLUMNS, effect_rows, effects, table as effects_table
    from tharsis.games.options import JOBS, KINDS, check_flags, random_seed
    from tharsis.games.paired import check_plan
    from tharsis.games.simulate import Simulation, cpu_count, summary
    from tharsis.problems import suggest
    from tharsis.runtime.bots import BOTS

    check_flags(args, simulate=True)
    add_configured_cards(args)
    drawn = args.seed is None
    if drawn:  # games no one can foresee; the seed is printed so they can be played again
        args.seed = random_seed(args.games)
    seats = chosen_seats(args, ["greedy=greedy", "random=random"], KINDS)
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
    game = new_game(args, seats, start=False)  # fail fast on bad options or content, before starting workers
    if isinstance(game, int):
        return game
    unknown = [name for name in args.track if name not in game.library]
    if unknown:
        raise ProblemError([Problem("E707", f"--track {name}: no card or corporation is called {name!r}",
                                    suggest(name, game.library) or "a card of your own is known once its folder "
                                                                   "is loaded: add --cards DIR, or list it under "
                                                                   "[tool.tharsis] cards in pyproject.toml")
                            for name in unknown], USAGE)
    plan = check_plan(args.effect, args.holder, args.games, game, [s.name for s in seats])
    experiment = bool(plan.cards)
    if args.corporation:  # a fixed corporation is worth tracking
        args.track = list(dict.fromkeys([spec.partition("=")[2].strip() for spec in args.corporation] + args.track))
    folder = report.prepare(args.report, args.force) if args.report is not None else None
    out = results_files.prepare(args.out, args.format, args.force, experiment)
    # Every CPU by default: the games are independent, and a balance run is what the machine is for. With Ray the
    # default stays None, so that a local Ray instance takes the CPUs Ray itself finds.
    jobs = args.jobs if args.jobs is not None or args.backend == "ray" else min(cpu_count(), JOBS[1])
    simulation = Simulation(game.options, [(s.name, s.kind) for s in seats], args.games, jobs, out,
                            format=args.format, backend=args.backend, address=args.address,
                            plan=plan if experiment else None)
    try:
        results = simulation.run(progress=None if args.quiet else sys.stderr)
    except ray_backend.RayBackendError as exc:
        hint = "is the cluster up? `ray status` on one of its nodes shows its address" if args.address else None
        raise usage_error("E721", str(exc), hint) from None
    files = " and ".join(str(path) for path in results_files.written(out, args.format, experiment))
    measured = effects(results, designer_content(game).cards) if experiment else None
    if measured is not None and args.format == "csv" and results_files.effects_path(out) in \
            results_files.written(out, args.format, experiment):   # the pairs finished, even when interrupted
        results_files.write_table(results_files.effects_path(out), EFFECT_COLUMNS, effect_rows(measured))
    if simulation.interrupted:
        print(f"tharsis: interrupted: {len(results)} of {simulation.total} games finished, their results are in "
              f"{files}" + ("; no report was written" if folder else ""), file=sys.stderr)
        return 130
    if measured is not None and measured.baseline:
        print(summary(list(measured.baseline), simulation.seats, tuple(args.track),
                      what="games without the tested cards (one a seed: the first game of every pair)"))
        print()
        print(effects_table(measured))
    elif results:
        print(summary(results, simulation.seats, tuple(args.track)))
    if simulation.failed:   # content that loops: each such game is recorded as failed, and the others count
        print(render([Problem(f["failed"]["code"], f"seed {f['seed']}: {f['failed']['message']}",
                              ENDLESS_HINT) for f in simulation.failed]), file=sys.stderr)
        print(f"{len(simulation.failed)} of {args.games} games failed", file=sys.stderr)
    if drawn:
        print(f"seeds {args.seed} to {args.seed + args.games - 1} (--seed {args.seed} plays these games again)")
    print(f"results written to {files}")
    if folder is not None and results:
        page = report.write(folder, results, designer_content(game), requested=simulation.total)
        print(f"report written to {page}")
    return CONTENT if simulation.failed else 0
