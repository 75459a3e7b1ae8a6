"""Per-line suppression of warnings in card files: `// tharsis: ignore[W102]` at the end of (or on) a line.

A suppression silences the named warnings whose position is on the same line, and nothing else. It must name
its codes (a bare `// tharsis: ignore` would hide tomorrow's warnings too); a suppression that silences nothing is
itself a warning (W801), so stale ones do not pile up; one that is malformed or names an error is W802 (errors
cannot be suppressed: the definition would not compile). See docs/language.md ("Comments and suppressions").
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

import attrs

from tharsis.compiler.diagnostics import Diagnostic, Span
from tharsis.designer.code_filter import CodeError, CodeFilter, validate_codes

_MARKER = re.compile(r"tharsis\s*:\s*ignore\b(?P<rest>.*)$")
_CODES = re.compile(r"^\[(?P<codes>[^\]]*)\]")


@attrs.frozen
class Suppression:
    path: str
    line: int
    codes: tuple[tuple[str, Span], ...]   # each code and where it is written


def comment_start(line: str) -> int | None:
    """Index of the `//` that starts a comment on this line (not inside a "quoted name"), or None."""
    if "//" not in line:
        return None
    in_string = False
    for index, ch in enumerate(line):
        if ch == '"':
            in_string = not in_string
        elif not in_string and line.startswith("//", index):
            return index
    return None


def find(path: str, text: str) -> tuple[list[Suppression], list[Diagnostic]]:
    """Every suppression comment of one file, and a W802 for each malformed one."""
    found: list[Suppression] = []
    problems: list[Diagnostic] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if "tharsis" not in line:  # the common case, decided without scanning the line
            continue
        start = comment_start(line)
        if start is None:
            continue
        marker = _MARKER.search(line, start)
        if marker is None:
            continue
        rest_at = marker.start("rest")
        codes = _CODES.match(line[rest_at:].lstrip())
        where = Span(path, number, start + 1, number, len(line) + 1)
        if codes is None:
            if line[start + 2:marker.start()].strip():  # prose that mentions the syntax, not a suppression
                continue
            problems.append(Diagnostic("W802", "warning", "a suppression must name the warnings it silences",
                                       where, "write it like // tharsis: ignore[W102]"))
            continue
        offset = rest_at + (len(line[rest_at:]) - len(line[rest_at:].lstrip())) + 1  # index of the first code
        items: list[tuple[str, Span]] = []
        for match in re.finditer(r"[^,\s]+", codes.group("codes")):
            code = match.group()
            span = Span(path, number, offset + match.start() + 1, number, offset + match.end() + 1)
            try:
                validate_codes([code])
            except CodeError as exc:
                problems.append(Diagnostic("W802", "warning", f"cannot suppress: {exc}", span, exc.hint))
                continue
            items.append((code, span))
        if not codes.group("codes").strip():
            problems.append(Diagnostic("W802", "warning", "a suppression must name the warnings it silences",
                                       where, "write it like // tharsis: ignore[W102]"))
        if items:
            found.append(Suppression(path, number, tuple(items)))
    return found, problems


def apply(diagnostics: Sequence[Diagnostic], sources: dict[str, str],
          paths: Iterable[str] | None = None) -> list[Diagnostic]:
    """The diagnostics left once every suppression comment in `sources` (or only in `paths`) is honoured,
    plus W801 for each code of a suppression that silenced nothing and W802 for malformed ones."""
    wanted = set(sources if paths is None else paths)
    by_line: dict[tuple[str, int], Suppression] = {}
    kept: list[Diagnostic] = []
    for path in wanted:
        if path not in sources:
            continue
        found, problems = find(path, sources[path])
        kept.extend(problems)
        for suppression in found:
            by_line[(path, suppression.line)] = suppression
    used: set[tuple[str, int, str]] = set()
    for d in diagnostics:
        suppression = by_line.get((d.span.path, d.span.line)) if d.span else None
        if suppression is not None and not d.is_error:
            match = next((code for code, _ in suppression.codes if d.code.startswith(code)), None)
            if match is not None:
                used.add((suppression.path, suppression.line, match))
                continue
        kept.append(d)
    for suppression in by_line.values():
        for code, span in suppression.codes:
            if (suppression.path, suppression.line, code) not in used:
                kept.append(Diagnostic("W801", "warning", f"unused suppression: no {code} warning on this line",
                                       span, "remove it"))
    return kept


def reported(diagnostics: Sequence[Diagnostic], sources: dict[str, str], paths: Iterable[str] | None,
             code_filter: CodeFilter) -> list[Diagnostic]:
    """What `tharsis check`, the gallery and the editor show of `diagnostics`: the suppression comments of `paths`
    honoured first, then the warnings `code_filter` (--select/--ignore, [tool.tharsis]) reports, so W801 and
    W802 are selected or ignored like any other warning."""
    return code_filter.apply(apply(diagnostics, sources, paths))
