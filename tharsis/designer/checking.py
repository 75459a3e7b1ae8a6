"""`tharsis check` as a function: which problems of card files are reported, fixed and printed, and how.

The compiler's diagnostics pass through three filters before they are shown, in this order: the files asked about
(the bundled content is compiled too, as a game loads it, but not reported on; `with_bundled=False` leaves it out),
the per-line suppression comments (suppressions.py) and the code filter of --select/--ignore (code_filter.py). The
safe fixes are made round after round, or shown as a diff (fixes.py), and the problems left are printed as text,
JSON, GitHub annotations or SARIF (sarif.py). Standard input (PATH `-`) is one file, named as the editor names it.
The command line decides the `Options` from its flags and [tool.tharsis] (tharsis/cli/commands/check.py).
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Optional

import attrs

from tharsis.problems import USAGE, Problem, ProblemError

from .code_filter import CodeFilter

FORMATS = ("text", "json", "github", "sarif")


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


def check(options: Options) -> int:
    """One check as the options say: compile, keep what is reported (the files asked about, the suppressions, the
    code filter), make or show the fixes if asked, print the report. Returns the exit code: 1 for an error left (or
    any problem, with `strict`), else 0."""
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
        reported = [f for f in result.files if inside(f, wanted)]
        diagnostics = [d for d in result.diagnostics if d.span is None or inside(d.span.path, wanted)]
        sources, files = result.sources, reported
        definitions = len([d for d in result.library.definitions if inside(d.source.path, wanted)])
    diagnostics = suppressions.reported(diagnostics, sources, reported, options.code_filter)
    if options.fix is not None and result is not None:  # (a file that could not be decoded has nothing to fix)
        return _fix(options, result, reported, [d for d in diagnostics if d.span is None])
    errors = [d for d in diagnostics if d.is_error]
    if options.output != "text":
        print_report(diagnostics, options.output, options.root, len(files))
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
    from tharsis.compiler.source import why_unusable
    from tharsis.compiler.writing import UNCHANGED, replace_file
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
            replace_file(path, encoded(run.texts[path], raw))
        except OSError as exc:  # a full or read-only disk: said, the other files are still fixed
            unwritable.append(Problem("E708", f"cannot write the fixed file: {why_unusable(exc)[0]}; {UNCHANGED}",
                                      "make room or make the file writable, or run tharsis check --diff to see "
                                      "the fixes", path))
    made = [a for a in run.applied if a.path not in {p.path for p in unwritable}]
    verb = "would fix" if options.fix == "diff" else "fixed"
    for applied in made:
        print(f"{verb} {applied.describe()}", file=out)
    files = len({a.path for a in made})
    print(f"{len(made)} fix{'es' if len(made) != 1 else ''} {'to make' if options.fix == 'diff' else 'made'} in "
          f"{files} file{'s' if files != 1 else ''}"
          + (f"; {len(run.remaining)} problem{'s' if len(run.remaining) != 1 else ''} left" if run.remaining
             else "" if unwritable else "; no problems left")
          + (f"; {len(unwritable)} file{'s' if len(unwritable) != 1 else ''} not written, as they were, with "
             "every problem the fixes were for" if unwritable else ""), file=out)
    remaining = placeless + run.remaining  # a path that could not be read is still a problem of the run
    if options.output != "text":
        print_report(remaining, options.output, options.root, len(reported))
    elif remaining:
        print(render_text(remaining, run.result.sources))
    sys.stdout.flush()
    if unwritable:
        raise ProblemError(unwritable, USAGE)
    errors = [d for d in remaining if d.is_error]
    if errors or (options.strict and remaining) or (options.fix == "diff" and made):
        return 1
    return 0


def print_report(diagnostics: list, output: str, root: Path, files: int) -> None:
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
def inside(path: str, wanted: frozenset[str]) -> bool:
    """Whether `path` is one of the resolved paths `wanted` or in one of those folders (what a command reports on
    when it compiles them beside the bundled content: `check`, `cards`)."""
    resolved = str(Path(path).resolve())
    return any(resolved == w or resolved.startswith(w.rstrip("/") + "/") for w in wanted)


def standard_input() -> bytes:
    """What PATH `-` reads: standard input, never more than one byte past a card file's limit (`yes | tharsis check -`
    stops there, with E004); a closed standard input reads as empty."""
    from tharsis.compiler.source import MAX_FILE_BYTES, read_bounded

    return read_bounded(sys.stdin.buffer, MAX_FILE_BYTES) if sys.stdin is not None else b""
