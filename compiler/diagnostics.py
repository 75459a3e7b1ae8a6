"""Diagnostics are data: one record per problem, rendered three ways (text, JSON, GitHub annotations).

Every phase of the compiler appends to a `Diagnostics` list instead of raising, so one run reports every problem
in every file. Codes are stable (documented in docs/errors.md); messages use the designer's words.
"""

from __future__ import annotations

import difflib
import json
import os
import unicodedata
from typing import Iterable, Sequence

import attrs

from .printable import escaped, shown_characters


@attrs.frozen
class Span:
    """A region of one source file; lines and columns are 1-based, `end_column` is exclusive."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int

    @classmethod
    def point(cls, path: str, line: int, column: int, width: int = 1) -> "Span":
        return cls(path, line, column, line, column + max(width, 1))


@attrs.frozen
class Fix:
    """A safe, mechanical edit that resolves a diagnostic: replace `span` with `replacement`."""

    span: Span
    replacement: str


@attrs.frozen
class Diagnostic:
    code: str
    severity: str  # "error" | "warning"
    message: str
    span: Span | None
    hint: str | None = None
    # The edits that resolve this diagnostic, present only when there is exactly one unambiguous repair
    # (`tharsis check --fix` and the language server's code actions apply them; nothing else reads them).
    fixes: tuple[Fix, ...] = attrs.field(default=(), converter=tuple)

    @property
    def is_error(self) -> bool:
        return self.severity == "error"


class Diagnostics:
    """An append-only list of diagnostics with helpers for the common shapes."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []

    def error(self, code: str, message: str, span: Span | None, hint: str | None = None,
              fixes: Iterable[Fix] = ()) -> None:
        self.items.append(Diagnostic(code, "error", message, span, hint, tuple(fixes)))

    def warning(self, code: str, message: str, span: Span | None, hint: str | None = None,
                fixes: Iterable[Fix] = ()) -> None:
        self.items.append(Diagnostic(code, "warning", message, span, hint, tuple(fixes)))

    def extend(self, items: Iterable[Diagnostic]) -> None:
        self.items.extend(items)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.is_error]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if not d.is_error]

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self):
        return iter(self.items)


def did_you_mean(word: str, vocabulary: Iterable[str]) -> str | None:
    """The hint for an unknown word from a closed vocabulary, or None if nothing is close."""
    choices = sorted(set(vocabulary))
    lowered = {c.lower(): c for c in choices}
    if word.lower() in lowered:
        return f"did you mean '{lowered[word.lower()]}'?"
    close = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.6)
    if close:
        return f"did you mean '{lowered[close[0]]}'?"
    return None


def single_match(word: str, vocabulary: Iterable[str]) -> str | None:
    """The one word of a closed vocabulary that `word` is a misspelling of, or None: when nothing is close, and
    when two or more are (`tharsis check --fix` never guesses between two). The same closeness as `did_you_mean`,
    so a fix is always the word its hint names."""
    choices = sorted(set(vocabulary))
    lowered = {c.lower(): c for c in choices}
    if word.lower() in lowered:
        return lowered[word.lower()]
    close = difflib.get_close_matches(word.lower(), list(lowered), n=2, cutoff=0.6)
    return lowered[close[0]] if len(close) == 1 else None


def respelling(span: Span | None, word: str, vocabulary: Iterable[str], written: str | None = None) -> tuple[Fix, ...]:
    """The fix that writes the single close match of `word` over `span` (which holds exactly the misspelt word), or
    no fix. `written`: the text at `span` when it is not `word` itself (a word looked up in its singular form)."""
    match = single_match(word, vocabulary)
    if span is None or match is None or match == (written if written is not None else word):
        return ()
    return (Fix(span, match),)


# ---------------------------------------------------------------------------------------------- rendering

def sort_key(d: Diagnostic):
    s = d.span
    return (s.path, s.line, s.column) if s else ("", 0, 0)


def render_text(diagnostics: Sequence[Diagnostic], sources: dict[str, str]) -> str:
    """`path:line:col: error[CODE]: message`, the source line, a caret underline, and the hint."""
    out: list[str] = []
    split: dict[str, list[str]] = {}  # each file split into lines once, not once per diagnostic
    for d in sorted(diagnostics, key=sort_key):
        if d.span is None:
            out.append(f"{d.severity}[{d.code}]: {d.message}")
        else:
            s = d.span
            # a file's name may hold what a terminal would run (a name given by whoever made the folder)
            out.append(escaped(f"{s.path}:{s.line}:{s.column}: {d.severity}[{d.code}]: {d.message}"))
            source_line = source_line_of(s, sources, split)
            if source_line is not None:
                out.extend(_excerpt(s, source_line))
        if d.hint:
            out.append(f"     = hint: {d.hint}")
    errors = sum(1 for d in diagnostics if d.is_error)
    warnings = len(diagnostics) - errors
    if diagnostics:
        out.append(f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}")
    return "\n".join(out)


def source_line_of(span: Span, sources: dict[str, str], split: dict[str, list[str]] | None = None) -> str | None:
    """The line a diagnostic points at: from the file's text, or, for a file that could not be decoded (binary,
    not UTF-8), read from its bytes (`_raw_line`); None when there is none. `split`: the files split into lines so
    far (a report asks for many lines of one file)."""
    text = sources.get(span.path)
    if text is None:
        return _raw_line(span.path, span.line)
    split = {} if split is None else split
    if span.path not in split:
        split[span.path] = text.split("\n")
    lines = split[span.path]
    return lines[span.line - 1].rstrip("\r") if 1 <= span.line <= len(lines) else None


def _excerpt(s: Span, source_line: str) -> list[str]:
    """The source line under a diagnostic and its caret underline; a character that is not printable is shown
    escaped (`\\x1b`, the bytes of a binary or mis-encoded file), the caret under its escape."""
    if len(source_line) > 200:  # keep megabyte-long lines readable
        start = max(0, s.column - 80)
        source_line = source_line[start:start + 160]
        column = s.column - start
    else:
        column = s.column
    width = (s.end_column - s.column) if s.end_line == s.line else len(source_line) - column + 1
    width = max(1, min(width, max(1, len(source_line) - column + 1)))
    pieces = shown_characters(source_line)
    while sum(map(_cells, pieces)) > 200 and len(pieces) > column + width:   # escapes widen a line: cut its end
        pieces.pop()
    gutter = f"{s.line:>4} | "
    underline = "^" * max(1, sum(_cells(piece) for piece in pieces[column - 1:column - 1 + width]))
    pad = "".join("\t" if piece == "\t" else " " * _cells(piece) for piece in pieces[:column - 1])
    return [gutter + "".join(pieces), " " * (len(gutter) - 2) + "| " + pad + underline]


def _width(ch: str) -> int:
    """Terminal cells of one character: 2 for wide (CJK) characters, 0 for combining marks."""
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _cells(text: str) -> int:
    return sum(_width(ch) for ch in text)


def _raw_line(path: str, line: int, limit: int = 4096) -> str | None:
    """Line `line` of a file read as bytes and decoded leniently, for diagnostics about undecodable files; None
    for what is not a regular file (a device such as /dev/zero is one endless line)."""
    if not os.path.isfile(path):
        return None
    try:
        with open(path, "rb") as handle:
            skipped = 0
            for _ in range(line - 1):  # bounded reads: a line may be gigabytes long (a sparse 4 GB file is one)
                while not (chunk := handle.readline(65536)).endswith(b"\n"):
                    skipped += len(chunk)
                    if not chunk or skipped > 2**20:  # past any file the compiler decodes (256 KB)
                        return None
                skipped += len(chunk)
            raw = handle.readline(limit)
    except OSError:
        return None
    if not raw:  # the file has fewer lines
        return None
    raw = raw.rstrip(b"\r\n")
    if line == 1 and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    # a byte that is no UTF-8 is one character, shown as its escape (\\xe9); the columns stay the file's
    return raw.decode("utf-8", errors="surrogateescape")


def to_record(d: Diagnostic) -> dict:
    record = {"code": d.code, "severity": d.severity, "message": d.message, "hint": d.hint}
    if d.span:
        record.update(path=d.span.path, line=d.span.line, column=d.span.column,
                      end_line=d.span.end_line, end_column=d.span.end_column)
    if d.fixes:  # only when there is a safe repair, so a record without one reads as it always has
        record["fixes"] = [fix_record(fix) for fix in d.fixes]
    return record


def fix_record(fix: Fix) -> dict:
    """One fix as JSON: the region to replace (the diagnostic's own fields' names) and the text to put there."""
    s = fix.span
    return {"path": s.path, "line": s.line, "column": s.column, "end_line": s.end_line, "end_column": s.end_column,
            "replacement": fix.replacement}


def render_json(diagnostics: Sequence[Diagnostic], files: int) -> str:
    ordered = sorted(diagnostics, key=sort_key)
    return json.dumps({
        "files": files,
        "errors": sum(1 for d in ordered if d.is_error),
        "warnings": sum(1 for d in ordered if not d.is_error),
        "diagnostics": [to_record(d) for d in ordered],
    }, indent=2, ensure_ascii=False)


def render_github(diagnostics: Sequence[Diagnostic]) -> str:
    """GitHub Actions workflow commands: `::error file=...,line=...,col=...,title=CODE::message`."""
    def escape(text: str) -> str:
        return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")

    out = []
    for d in sorted(diagnostics, key=sort_key):
        message = d.message + (f" ({d.hint})" if d.hint else "")
        location = ""
        if d.span:
            location = (f"file={d.span.path},line={d.span.line},col={d.span.column},"
                        f"endLine={d.span.end_line},endColumn={d.span.end_column},")
        out.append(f"::{d.severity} {location}title={d.code}::{escape(message)}")
    return "\n".join(out)
