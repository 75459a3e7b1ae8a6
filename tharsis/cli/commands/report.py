"""`tharsis report RESULTS`: the balance report of games already played, from the JSONL results `simulate` wrote
(tharsis/games/report.py draws it; tharsis/games/results_files.py reads and checks the file). The same page as
`simulate --report`, made again later, for another folder of designer's cards, or for the results of several
runs with the same seats put in one file."""

from __future__ import annotations

from .game_flags import warn


def add_parser(sub) -> None:
    command = sub.add_parser("report", help="the balance report of a results file",
                             description="Write the balance report (one HTML page of charts: win rates per seat, "
                                         "corporation and card) of the games in a JSONL results file written by "
                                         "tharsis simulate.")
    command.add_argument("results", metavar="RESULTS", help="a results file of tharsis simulate (JSONL)")
    command.add_argument("--out", default="report", metavar="DIR",
                         help="the folder of the report (default report/); an existing report is not replaced "
                              "without --force")
    command.add_argument("--cards", action="append", default=None, metavar="DIR",
                         help="the designer's card folders whose cards the report highlights (repeatable; default: "
                              "the folders the games were played with, where they still are)")
    command.add_argument("--force", action="store_true", help="replace the report in DIR")
    command.set_defaults(run=run)


def run(args) -> int:
    from tharsis.games import report, results_files
    from tharsis.games.balance import designer_content_of

    report.require()      # before reading a large file: matplotlib draws the charts
    cut: list = []
    records = results_files.read(args.results, cut)
    warn(cut)
    yours, warnings = designer_content_of(records[0], args.cards)
    warn(warnings)
    folder = report.prepare(args.out, args.force, flag="--out")
    page = report.write(folder, records, yours, requested=len(records))
    games = len(records)
    print(f"report of {games} game{'s' if games != 1 else ''} written to {page}"
          + ("" if args.cards is not None or yours.cards or yours.corporations else
             " (no designer's cards: add --cards DIR to highlight yours)"))
    return 0

