"""`tharsis fmt`: rewrite card files in the canonical layout (tharsis/designer/fmt.py), or with --check/--diff say which
files are not, for CI and the pre-commit hook."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

from tharsis.cli.commands import add_config_flag, configured_paths, missing_paths, require, stdin_problems
from tharsis.designer.checking import standard_input
from tharsis.problems import Problem


def add_parser(sub) -> None:
    fmt = sub.add_parser("fmt", help="rewrite card files in the canonical layout",
                         description="Rewrite each card and corporation as canonical card text (the text of "
                                     "'tharsis cards --format text'), keeping every comment; other definitions "
                                     "are kept as written. Files with errors are left alone.")
    fmt.add_argument("paths", nargs="*", metavar="PATH",
                     help="files or folders (default: the 'cards' paths of [tool.tharsis]); - formats standard "
                          "input to standard output (for an editor's format-on-save)")
    fmt.add_argument("--check", action="store_true",
                     help="write nothing; list the files that are not formatted with a diff, exit 1 if any")
    fmt.add_argument("--diff", action="store_true", help="write nothing; print the changes as a unified diff")
    fmt.add_argument("--stdin-filename", metavar="NAME", help="with PATH -: the file name for messages")
    add_config_flag(fmt)
    fmt.set_defaults(run=run)


def run(args) -> int:
    from tharsis.compiler.diagnostics import render_text
    from tharsis.compiler.source import why_unusable
    from tharsis.compiler.writing import UNCHANGED, replace_file
    from tharsis.designer.fmt import format_paths

    config, paths, name = configured_paths(args, "format", "cards", ("card folders", "mine/"))
    require(stdin_problems(paths, args.stdin_filename) + missing_paths(paths, name, stdin=True))
    if paths == ["-"]:
        return _format_stdin(args, config.with_bundled)
    result = format_paths([Path(p) for p in paths], with_bundled=config.with_bundled)
    refused = [f for f in result.files if f.text is None]
    changed = [f for f in result.files if f.changed]
    writing = not (args.check or args.diff)
    unwritable: list[Problem] = []
    for formatted in changed:
        if writing:
            try:
                replace_file(formatted.path, formatted.text)
            except OSError as exc:  # a full or read-only disk: said, and the other files are still formatted
                unwritable.append(Problem("E708", f"cannot write the formatted file: {why_unusable(exc)[0]}; "
                                                  f"{UNCHANGED}",
                                          "make room or make the file writable, or run tharsis fmt --diff to see "
                                          "the changes", formatted.path))
                continue
            print(f"formatted {formatted.path}")
            continue
        if args.check:
            print(f"would reformat {formatted.path}")
        sys.stdout.writelines(difflib.unified_diff(
            formatted.original.splitlines(keepends=True), formatted.text.splitlines(keepends=True),
            fromfile=f"{formatted.path} (as written)", tofile=f"{formatted.path} (formatted)"))
    # a file with errors is named with its first error only: `tharsis check` shows them all (run beside fmt, as the
    # pre-commit hooks are, each would otherwise be printed twice); fmt's own refusals (E805, E806) are shown whole
    errors = {f.path: [d for d in result.compile_errors if d.span is not None and d.span.path == f.path]
              for f in refused}
    told = {id(d) for found in errors.values() for d in found}
    problems = [d for d in result.compile_errors if id(d) not in told] + [d for f in refused for d in f.problems]
    if problems:
        print(render_text(problems, result.sources), file=sys.stderr)
    for formatted in refused:
        found = errors[formatted.path]
        why = "see above" if formatted.problems or not found else _first_error(found)
        print(f"tharsis: {formatted.path} not formatted: {why}", file=sys.stderr)
    unchanged = len(result.files) - len(changed) - len(refused)
    verb = "formatted" if writing else "to reformat"
    done = len(changed) - len(unwritable)
    print(f"{done} file{'s' if done != 1 else ''} {verb}, {unchanged} already formatted"
          + (f", {len(refused) + len(unwritable)} not formatted" if refused or unwritable else ""))
    require(unwritable)
    if refused or (changed and not writing):
        return 1
    return 0


def _first_error(errors: list) -> str:
    """`it has 2 errors, the first at mine/a.mars:3:16: E101 unknown resource 'heet' (tharsis check shows them)`."""
    first = min(errors, key=lambda d: (d.span.line, d.span.column))
    count = f"{len(errors)} error{'s' if len(errors) != 1 else ''}"
    return (f"it has {count}, the first at {first.span.path}:{first.span.line}:{first.span.column}: {first.code} "
            f"{first.message} (tharsis check shows {'it' if len(errors) == 1 else 'them'})")


def _format_stdin(args, with_bundled: bool) -> int:
    """Standard input formatted to standard output; on a refusal nothing is printed there (the editor keeps its
    buffer) and the reasons go to standard error."""
    from tharsis.compiler import compile_text
    from tharsis.compiler.diagnostics import Diagnostics, render_text
    from tharsis.compiler.source import decode
    from tharsis.designer.fmt import format_sources

    name = args.stdin_filename or "<stdin>"
    decoding = Diagnostics()
    text = decode(name, standard_input(), decoding)
    if text is None:
        print(render_text(decoding.items, {}), file=sys.stderr)
        return 1
    result = format_sources({name: text}, compile_text(text, name, with_bundled=with_bundled))
    formatted = result.files[0]
    if formatted.text is None:
        print(render_text(result.compile_errors + formatted.problems, result.sources), file=sys.stderr)
        print(f"tharsis: {name} not formatted", file=sys.stderr)
        return 1
    if args.check or args.diff:
        if args.check and formatted.changed:
            print(f"would reformat {name}")
        sys.stdout.writelines(difflib.unified_diff(
            text.splitlines(keepends=True), formatted.text.splitlines(keepends=True),
            fromfile=f"{name} (as written)", tofile=f"{name} (formatted)"))
        return 1 if formatted.changed else 0
    sys.stdout.write(formatted.text)
    return 0
