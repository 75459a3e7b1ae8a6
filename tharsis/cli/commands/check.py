"""`tharsis check`: every problem in card files, for designers and CI.

The compiler's diagnostics pass through three filters before they are shown, in this order: the files asked about (the
bundled content is compiled too, as a game loads it, but not reported on; --no-with-bundled leaves it out), the per-line
suppression comments (tharsis/designer/suppressions.py) and --select/--ignore (tharsis/designer/code_filter.py). Options
default to the project's [tool.tharsis] table (tharsis/designer/config.py). `--watch` re-checks whenever a file changes;
`-` reads one file from standard input (an editor's unsaved buffer), named by --stdin-filename. `--fix` makes the safe
fixes of the problems it reports and `--diff` shows them (tharsis/designer/fixes.py), then the problems left are
reported as usual.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from pathlib import Path
from typing import Callable, Optional

import attrs

from tharsis.cli.commands import add_config_flag, code_list, configured_paths, missing_paths, report_config_error, \
    require, standard_input, stdin_problems
from tharsis.designer.code_filter import CodeFilter, code_errors
from tharsis.designer.config import ConfigError
from tharsis.problems import USAGE, Problem, ProblemError, render

FORMATS = ("text", "json", "github", "sarif")
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
    return check_once(options)


def _recheck(args) -> int:
    options = _options(args)
    return options if isinstance(options, int) else check_once(options)


def _options(args):
    """The flags and the configuration decided into Options, or 2 after reporting every usage error."""
    try:
        return _decide(args)
    except ProblemError as exc:  # flags that are wrong, a PATH or --config that does not exist (E7xx)
        return usage_report(exc, args.format)
    except ConfigError as exc:  # a wrong [tool.tharsis] (E8xx); reported here, so that --watch goes on watching
        if args.format == "text":
            return report_config_error(exc)
        _print_report(exc.diagnostics, args.format, Path.cwd(), files=0)
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

        _print_report([Diagnostic(p.code, "error" if p.is_error else "warning", p.message, None, p.hint)
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


@attrs.frozen(kw_only=True)
class Options:
    """What one check does, decided once from the flags and the configuration."""

    paths: list[str]
    output: str                      # text | json | github | sarif
    use_cache: bool
    with_bundled: bool
    strict: bool
    code_filter: CodeFilter
    stdin_name: str                  # what standard input (PATH -) is called in the report
    root: Path                       # SARIF URIs are relative to it: the project's folder
    config: Optional[Path] = None    # the pyproject.toml in use
    fix: Optional[str] = None        # "fix" writes the safe fixes, "diff" shows them


def check_once(options: Options) -> int:
    from tharsis.compiler import compile_paths
    from tharsis.compiler.diagnostics import Diagnostics, render_text
    from tharsis.compiler.source import decode
    from tharsis.designer import suppressions

    if options.paths == ["-"]:
        name = options.stdin_name
        decoding = Diagnostics()
        text = decode(name, standard_input(), decoding)
        if text is None:
            diagnostics, sources, files, definitions, result = decoding.items, {}, [name], 0, None
        else:
            result = _compile_stdin(name, text, options.with_bundled)
            diagnostics, sources = result.diagnostics, result.sources
            files, definitions = [name], len([d for d in result.library.definitions if d.source.path == name])
        diagnostics = [d for d in diagnostics if d.span is None or d.span.path == name]
        reported = [name]
    else:
        paths = [Path(p) for p in options.paths]
        wanted = frozenset(str(p.resolve()) for p in paths)
        result = compile_paths(paths, use_cache=options.use_cache, with_bundled=options.with_bundled)
        reported = [f for f in result.files if _inside(f, wanted)]
        diagnostics = [d for d in result.diagnostics if d.span is None or _inside(d.span.path, wanted)]
        sources, files = result.sources, reported
        definitions = len([d for d in result.library.definitions if _inside(d.source.path, wanted)])
    diagnostics = suppressions.reported(diagnostics, sources, reported, options.code_filter)
    if options.fix is not None and result is not None:  # (a file that could not be decoded has nothing to fix)
        return _fix(options, result, reported, [d for d in diagnostics if d.span is None])
    errors = [d for d in diagnostics if d.is_error]
    if options.output != "text":
        _print_report(diagnostics, options.output, options.root, len(files))
    elif diagnostics:
        print(render_text(diagnostics, sources))
    else:
        print(f"checked {len(files)} file{'s' if len(files) != 1 else ''}: "
              f"{definitions} definitions, no problems")
    sys.stdout.flush()
    if errors or (options.strict and diagnostics):
        return 1
    return 0


def _fix(options: Options, result, reported: list[str], placeless: list) -> int:
    """--fix and --diff: the safe fixes made round after round (tharsis/designer/fixes.py), written or shown, then the
    report of what is left. Exit 1 when an error is left (or a warning, with --strict); with --diff also when
    there is anything to fix, as `fmt --diff` does."""
    from tharsis.compiler.diagnostics import render_text
    from tharsis.compiler.pipeline import compile_sources
    from tharsis.designer import suppressions
    from tharsis.designer.fixes import encoded, fix_texts, unified_diff

    own = set(reported)

    def compile_texts(texts: dict[str, str], changed: set[str]):
        return compile_sources(texts, use_cache=options.use_cache, volatile=changed)

    def report(compiled) -> list:
        found = [d for d in compiled.diagnostics if d.span is not None and d.span.path in own]
        return suppressions.reported(found, compiled.sources, reported, options.code_filter)

    originals = {path: result.sources[path] for path in reported if path in result.sources}
    run = fix_texts(result.sources, own, compile_texts, report, first=result)
    changed = run.changed(originals)
    unwritable: list[Problem] = []
    out = sys.stderr if options.output != "text" else sys.stdout  # JSON, GitHub and SARIF keep standard output
    for path in changed:
        if options.fix == "diff":
            out.writelines(unified_diff(path, originals[path], run.texts[path]))
            continue
        try:
            raw = Path(path).read_bytes()
            Path(path).write_bytes(encoded(run.texts[path], raw))
        except OSError as exc:  # a read-only file: said, the other files are still fixed
            unwritable.append(Problem("E708", f"cannot write the fixed file: {exc.strerror}",
                                      "make the file writable, or run tharsis check --diff to see the fixes", path))
    made = [a for a in run.applied if a.path not in {p.path for p in unwritable}]
    verb = "would fix" if options.fix == "diff" else "fixed"
    for applied in made:
        print(f"{verb} {applied.describe()}", file=out)
    files = len({a.path for a in made})
    print(f"{len(made)} fix{'es' if len(made) != 1 else ''} {'to make' if options.fix == 'diff' else 'made'} in "
          f"{files} file{'s' if files != 1 else ''}"
          + (f"; {len(run.remaining)} problem{'s' if len(run.remaining) != 1 else ''} left" if run.remaining
             else "; no problems left"), file=out)
    remaining = placeless + run.remaining  # a path that could not be read is still a problem of the run
    if options.output != "text":
        _print_report(remaining, options.output, options.root, len(reported))
    elif remaining:
        print(render_text(remaining, run.result.sources))
    sys.stdout.flush()
    require(unwritable)
    errors = [d for d in remaining if d.is_error]
    if errors or (options.strict and remaining) or (options.fix == "diff" and made):
        return 1
    return 0


def _print_report(diagnostics: list, output: str, root: Path, files: int) -> None:
    """The machine-readable reports: json, github or sarif (`root`: what SARIF's URIs are relative to)."""
    from tharsis.compiler.diagnostics import render_github, render_json

    if output == "json":
        print(render_json(diagnostics, files))
    elif output == "sarif":
        from tharsis.designer.sarif import render_sarif

        print(render_sarif(diagnostics, root))
    elif diagnostics:
        print(render_github(diagnostics))


def _compile_stdin(name: str, text: str, with_bundled: bool):
    """Standard input compiled as the file it is named after: with the bundled content, that file's bundled copy
    (the same path, or the same bytes on disk, as when an editor lints one of the repository's own card files, or
    the same bytes as the text) is replaced by the text rather than clashing with it."""
    from tharsis.compiler import bundled_cards_path
    from tharsis.compiler.diagnostics import Diagnostics
    from tharsis.compiler.pipeline import compile_sources, find_files
    from tharsis.compiler.source import MAX_FILE_BYTES, on_disk, read_bounded

    sources: dict[str, str] = {}
    if with_bundled:
        # the name is only a name: a file that does not exist, or that the system refuses to look at (a name over
        # 255 bytes), has no bytes to compare, and a file too large to be a card file is no copy of one
        named, found = Path(name), on_disk(name).kind == "file"
        try:
            saved = read_bounded(named, MAX_FILE_BYTES) if found else None
        except (OSError, ValueError):
            saved, found = None, False
        given = text.encode("utf-8")  # a copy of a bundled file is loaded once, as `tharsis check PATH` does
        for path in find_files([bundled_cards_path()], Diagnostics()):
            data = read_bounded(path, MAX_FILE_BYTES)
            if data in (saved, given) or (found and path.resolve() == named.resolve()):
                continue
            sources[str(path)] = data.decode("utf-8-sig")
    sources[name] = text
    return compile_sources(sources)


@functools.lru_cache(maxsize=4096)
def _inside(path: str, wanted: frozenset[str]) -> bool:
    """Cached: a large file has thousands of definitions and diagnostics, all with the same path."""
    resolved = str(Path(path).resolve())
    return any(resolved == w or resolved.startswith(w.rstrip("/") + "/") for w in wanted)


# ------------------------------------------------------------------------------------------------ --watch

def _sleep(seconds: float) -> None:
    """The pause between two looks at the files (a seam for tests, which replace it)."""
    time.sleep(seconds)


def watch(check: Callable[[], int], paths: list[Path], interval: float,
          max_polls: Optional[int] = None) -> int:
    """Run `check`, then again each time a card file under `paths` (or the configuration) is added, removed or
    changes (size or modification time, looked at every `interval` seconds), until Ctrl-C or `max_polls`
    looks. Returns the exit code of the last check. Polling keeps it dependency-free and works on every OS."""
    seen = _snapshot(paths)  # before the first check, so a file saved while it runs is checked again
    code = check()
    _waiting(seen)
    polls = 0
    try:
        while max_polls is None or polls < max_polls:
            _sleep(interval)
            polls += 1
            now = _snapshot(paths)
            if now == seen:
                continue
            changed = sorted(set(now) ^ set(seen) | {p for p in now if p in seen and now[p] != seen[p]})
            seen = now
            shown = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
            print(f"\n[{time.strftime('%H:%M:%S')}] {shown} changed: checking again", flush=True)
            code = check()
            _waiting(seen)
    except KeyboardInterrupt:
        print("stopped watching", flush=True)
    return code


def _waiting(seen: dict) -> None:
    print(f"watching {len(seen)} file{'s' if len(seen) != 1 else ''} for changes (Ctrl-C to stop)", flush=True)


def _snapshot(paths: list[Path]) -> dict[str, tuple[int, int]]:
    from tharsis.compiler.source import CONTENT_FILES

    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(p for pattern in CONTENT_FILES for p in path.rglob(pattern) if p.is_file())
        elif path.exists():
            files.append(path)
    state = {}
    for path in files:
        try:
            stat = path.stat()
        except OSError:  # removed between the listing and the look
            continue
        state[str(path)] = (stat.st_mtime_ns, stat.st_size)
    return state
