"""`tharsis check`: every problem in card files, for designers and CI."""

from __future__ import annotations

import sys
from pathlib import Path

from tharsis.commands import paths_exist


def add_parser(sub) -> None:
    check = sub.add_parser("check", help="check card files for errors",
                           description="Check .mars files (or folders of them) and report every problem.")
    check.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    check.add_argument("--format", choices=("text", "json", "github"), default="text")
    check.add_argument("--with-bundled", action="store_true",
                       help="check against the bundled content too (boards, milestones, names), "
                            "reporting only problems in PATH")
    check.add_argument("--no-cache", action="store_true", help="compile everything afresh")
    check.add_argument("--strict", action="store_true", help="treat warnings as errors (exit 1)")
    check.set_defaults(run=run)


def run(args) -> int:
    from tharsis.compiler import bundled_cards_path, compile_paths
    from tharsis.compiler.diagnostics import render_github, render_json, render_text

    if not paths_exist(args.paths):
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
