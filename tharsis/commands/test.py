"""`tharsis test`: run YAML rules scenarios (docs/scenarios.md) against the compiled content."""

from __future__ import annotations

import sys
from pathlib import Path

from tharsis.commands import paths_exist


def add_parser(sub) -> None:
    test = sub.add_parser("test", help="run rules scenarios (YAML)",
                          description="Run scenario files (or folders of them); see docs/scenarios.md.")
    test.add_argument("paths", nargs="+", metavar="PATH")
    test.add_argument("--cards", action="append", default=[], metavar="DIR",
                      help="also load this folder of card files (repeatable)")
    test.add_argument("-q", "--quiet", action="store_true", help="print failures and the summary only")
    test.set_defaults(run=run)


def run(args) -> int:
    from tharsis import scenarios
    from tharsis.runtime.game import ContentError, load_library

    if not paths_exist(args.paths + args.cards):
        return 2
    try:
        library = load_library(tuple(str(Path(c).resolve()) for c in args.cards))
    except ContentError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    passed = failed = 0
    for path in scenarios.find([Path(p) for p in args.paths]):
        for outcome in scenarios.run_file(path, library):
            if outcome.passed:
                passed += 1
                if not args.quiet or outcome.xfail:
                    print(f"{outcome.status} {outcome.path}: {outcome.name}"
                          + (f" (known bug: {outcome.xfail})" if outcome.xfail else ""))
                continue
            failed += 1
            print(f"{outcome.status} {outcome.path}: {outcome.name}"
                  + (" (marked xfail but passes now: remove the xfail)" if outcome.xfail else ""))
            for line in ([outcome.error] if outcome.error else []) + outcome.failures:
                print("     " + line.replace("\n", "\n     "))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0
