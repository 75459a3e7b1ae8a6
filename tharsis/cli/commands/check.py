"""`tharsis check`: every problem in card files, for designers and CI.

The flags and the project's [tool.tharsis] table (tharsis/designer/config.py) are decided into the `Options` of one
check, which tharsis/designer/checking.py runs (what is reported, fixed and printed); `--watch` runs it again
whenever a file changes (tharsis/designer/watching.py); `-` reads one file from standard input (an editor's unsaved
buffer), named by --stdin-filename. Usage problems are reported in the format asked for, so that a CI job reading
JSON or SARIF finds them there.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tharsis.cli.commands import (
    add_config_flag,
    code_list,
    configured_paths,
    missing_paths,
    report_config_error,
    require,
    stdin_problems,
)
from tharsis.designer import checking
from tharsis.designer.checking import FORMATS, Options, print_report
from tharsis.designer.code_filter import CodeFilter, code_errors
from tharsis.designer.config import ConfigError
from tharsis.designer.watching import watch
from tharsis.problems import USAGE, Problem, ProblemError, render

INTERVAL = (0.01, 3600.0)   # seconds between two looks of --watch: more often is busy-waiting, less is not watching
INTERVAL_DEFAULT = 0.5


def add_parser(sub) -> None:
    check = sub.add_parser("check", help="check card files for errors",
                           description="Check .mars files (or folders of them) and report every problem. "
                                       "Defaults come from [tool.tharsis] in pyproject.toml (docs/ci.md).")
    check.add_argument("paths", nargs="*", metavar="PATH",
                       help="files or folders; - reads one file from standard input "
                            "(default: the 'cards' paths of [tool.tharsis])")
    check.add_argument("--format", choices=FORMATS, default="text",
                       help="text for people, json for scripts, github for workflow annotations, "
                            "sarif for code scanning")
    check.add_argument("--with-bundled", action=argparse.BooleanOptionalAction, default=None,
                       help="check PATH together with the bundled content, as a game loads it (name and number "
                            "clashes, boards, milestones), reporting only problems in PATH (the default); "
                            "--no-with-bundled checks PATH alone: for a copy of the whole content, such as the "
                            "output of 'tharsis cards --format text'")
    check.add_argument("--no-cache", action="store_true", help="compile PATH afresh (not the bundled content)")
    check.add_argument("--strict", action=argparse.BooleanOptionalAction, default=None,
                       help="treat warnings as errors (exit 1)")
    check.add_argument("--select", action="append", default=[], metavar="CODES",
                       help="report only these warnings (codes or prefixes, comma-separated: W102,W8); "
                            "replaces 'select' of [tool.tharsis]. Errors are always reported")
    check.add_argument("--ignore", action="append", default=[], metavar="CODES",
                       help="never report these warnings (codes or prefixes); adds to 'ignore' of [tool.tharsis]")
    check.add_argument("--stdin-filename", metavar="NAME",
                       help="with PATH -: the file name to report standard input under")
    check.add_argument("--watch", action="store_true",
                       help="check again whenever a file under PATH changes (Ctrl-C stops)")
    check.add_argument("--interval", type=float, default=None, metavar="SECONDS",
                       help="with --watch: how often to look for changes (default 0.5)")
    check.add_argument("--fix", action="store_true",
                       help="apply the safe fixes (a did-you-mean with one close match, a missing ':') to the "
                            "files, again until none is left, then report what changed and what is left")
    check.add_argument("--diff", action="store_true",
                       help="write nothing; print what --fix would change as a unified diff, and what it would "
                            "leave (exit 1 when there is anything to fix or an error is left)")
    add_config_flag(check)
    check.set_defaults(run=run)


def run(args) -> int:
    options = _options(args)
    if isinstance(options, int):
        return options
    if args.watch:
        # The configuration is read again before each check, so editing pyproject.toml takes effect too.
        watched = [Path(p) for p in options.paths] + ([options.config] if options.config else [])
        return watch(lambda: _recheck(args), watched, INTERVAL_DEFAULT if args.interval is None else args.interval)
    return checking.check(options)


def _recheck(args) -> int:
    options = _options(args)
    return options if isinstance(options, int) else checking.check(options)


def _options(args):
    """The flags and the configuration decided into Options, or 2 after reporting every usage error."""
    try:
        return _decide(args)
    except ProblemError as exc:  # flags that are wrong, a PATH or --config that does not exist (E7xx)
        return usage_report(exc, args.format)
    except ConfigError as exc:  # a wrong [tool.tharsis] (E8xx); reported here, so that --watch goes on watching
        if args.format == "text":
            return report_config_error(exc)
        print_report(exc.diagnostics, args.format, Path.cwd(), files=0)
        sys.stdout.flush()
        return USAGE


def requested_format(argv: list[str]) -> str:
    """The --format of a `check` command line that argparse refused (E709), so that its report still comes in
    that format; "text" when it is not a check or names none."""
    if not argv or argv[0] != "check":
        return "text"
    chosen = "text"
    for index, word in enumerate(argv):
        value = word.partition("=")[2] if word.startswith("--format=") else \
            argv[index + 1] if word == "--format" and index + 1 < len(argv) else None
        if value in FORMATS:
            chosen = value
    return chosen


def usage_report(error: ProblemError, output: str) -> int:
    """The problems that stop a check before it starts, in the report format asked for (a CI job reading JSON or
    SARIF finds them there, as errors without a place); as text, on standard error as the game commands print
    theirs. Returns their exit code (2)."""
    if output == "text":
        print(render(error.problems), file=sys.stderr)
    else:
        from tharsis.compiler.diagnostics import Diagnostic

        print_report([Diagnostic(p.code, "error" if p.is_error else "warning", p.message, None, p.hint)
                       for p in error.problems], output, Path.cwd(), files=0)
    sys.stdout.flush()
    return error.exit_code


def _decide(args):
    """`_options` less the report: every usage problem of the flags raises, all of them at once."""
    config, paths, name = configured_paths(args, "check", "cards", ("card folders", "mine/"))
    select = [code for text in args.select for code in code_list(text)] or list(config.select)
    ignore = list(config.ignore) + [code for text in args.ignore for code in code_list(text)]
    problems = [Problem("E804", f"{flag} {code}: {error}", error.hint)
                for flag, given in (("--select", args.select), ("--ignore", args.ignore))
                for code in (c for text in given for c in code_list(text))
                for error in code_errors([code])]
    problems += stdin_problems(paths, args.stdin_filename)
    if "-" in paths and args.watch:
        problems.append(Problem("E706", "--watch cannot watch standard input", "give the files as PATHs to watch"))
    if args.fix and args.diff:
        problems.append(Problem("E706", "--fix writes the fixes and --diff only shows them: give one of them",
                                "run --diff to see the changes, then --fix to make them"))
    elif args.fix and "-" in paths:
        problems.append(Problem("E706", "--fix cannot rewrite standard input",
                                "--diff prints what it would change; an editor applies fixes as code actions"))
    if args.watch and (args.fix or args.diff):
        problems.append(Problem("E706", f"--watch checks again on every change and --{'fix' if args.fix else 'diff'} "
                                        "runs once: give one of them"))
    low, high = INTERVAL
    if args.interval is not None and not args.watch:
        problems.append(Problem("E706", "--interval is how often --watch looks for changes, and there is no --watch",
                                "add --watch, or drop --interval"))
    elif args.interval is not None and not low <= args.interval <= high:  # NaN is in no range
        problems.append(Problem("E701", f"--interval must be between {low:g} and {high:g} seconds, "
                                        f"not {args.interval:g}"))
    require(problems + missing_paths(paths, name, stdin=True))
    return Options(
        paths=paths, output=args.format, use_cache=not args.no_cache,
        with_bundled=config.with_bundled if args.with_bundled is None else args.with_bundled,
        strict=config.strict if args.strict is None else args.strict,
        code_filter=CodeFilter(tuple(select), tuple(ignore)), stdin_name=args.stdin_filename or "<stdin>",
        root=config.path.parent if config.path else Path.cwd(), config=config.path,
        fix="fix" if args.fix else "diff" if args.diff else None)
