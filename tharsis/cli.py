"""The `tharsis` command line: check card files, list compiled definitions (and, later, play and simulate).

Exit codes: 0 success, 1 the content has errors, 2 usage errors (bad flags, missing paths), 3 an internal error
(a bug: reported in one line with a request to file it, never as a traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tharsis import __version__


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

    check = sub.add_parser("check", help="check card files for errors",
                           description="Check .mars files (or folders of them) and report every problem.")
    check.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    check.add_argument("--format", choices=("text", "json", "github"), default="text")
    check.add_argument("--with-bundled", action="store_true",
                       help="check against the bundled content too (boards, milestones, names), "
                            "reporting only problems in PATH")
    check.add_argument("--no-cache", action="store_true", help="compile everything afresh")
    check.add_argument("--strict", action="store_true", help="treat warnings as errors (exit 1)")
    check.set_defaults(run=_check)

    cards = sub.add_parser("cards", help="list compiled definitions",
                           description="List every definition with its facts. Without PATH: the bundled content.")
    cards.add_argument("paths", nargs="*", metavar="PATH")
    cards.add_argument("--format", choices=("json", "table"), default="table")
    cards.add_argument("--kind", choices=("card", "corporation", "standard_project", "standard_action",
                                          "milestone", "award", "board"), help="only this kind")
    cards.set_defaults(run=_cards)

    test = sub.add_parser("test", help="run rules scenarios (YAML)",
                          description="Run scenario files (or folders of them); see docs/scenarios.md.")
    test.add_argument("paths", nargs="+", metavar="PATH")
    test.add_argument("--cards", action="append", default=[], metavar="DIR",
                      help="also load this folder of card files (repeatable)")
    test.add_argument("-q", "--quiet", action="store_true", help="print failures and the summary only")
    test.set_defaults(run=_test)
    return parser


def _paths_exist(paths: list[str]) -> bool:
    missing = [p for p in paths if not Path(p).exists()]
    for path in missing:
        print(f"tharsis: no such file or folder: {path}", file=sys.stderr)
    return not missing


def _check(args) -> int:
    from tharsis.compiler import bundled_cards_path, compile_paths
    from tharsis.compiler.diagnostics import render_github, render_json, render_text

    if not _paths_exist(args.paths):
        return 2
    paths = [Path(p) for p in args.paths]
    wanted = None
    if args.with_bundled:
        wanted = {str(p.resolve()) for p in paths}
        paths = [bundled_cards_path()] + paths
    result = compile_paths(paths, use_cache=not args.no_cache)
    diagnostics = result.diagnostics
    if wanted is not None:
        diagnostics = [d for d in diagnostics if d.span is None or _inside(d.span.path, wanted)]
    errors = [d for d in diagnostics if d.is_error]
    if args.format == "json":
        print(render_json(diagnostics, len(result.files)))
    elif args.format == "github":
        if diagnostics:
            print(render_github(diagnostics))
    else:
        if diagnostics:
            print(render_text(diagnostics, result.sources))
        else:
            count = len(result.library.definitions)
            print(f"checked {len(result.files)} file{'s' if len(result.files) != 1 else ''}: "
                  f"{count} definitions, no problems")
    if errors or (args.strict and diagnostics):
        return 1
    return 0


def _inside(path: str, wanted: set[str]) -> bool:
    resolved = str(Path(path).resolve())
    return any(resolved == w or resolved.startswith(w.rstrip("/") + "/") for w in wanted)


def _cards(args) -> int:
    from tharsis.compiler import bundled_cards_path, compile_paths
    from tharsis.compiler.diagnostics import render_text
    from tharsis.compiler.facts import facts, render_table

    if not _paths_exist(args.paths):
        return 2
    paths = [Path(p) for p in args.paths] or [bundled_cards_path()]
    result = compile_paths(paths)
    if result.errors:
        print(render_text(result.errors, result.sources), file=sys.stderr)
        print("tharsis: fix the errors above first (tharsis check)", file=sys.stderr)
        return 1
    rows = [facts(d) for d in result.library.definitions if not args.kind or d.kind == args.kind]
    if args.format == "json":
        print(json.dumps(rows, indent=2, ensure_ascii=False))
    else:
        print(render_table(rows))
    return 0


def _test(args) -> int:
    from tharsis import scenarios
    from tharsis.runtime.game import ContentError, load_library

    if not _paths_exist(args.paths + args.cards):
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
