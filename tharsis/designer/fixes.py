"""`tharsis check --fix` and `--diff`: the diagnostics' safe fixes applied to card texts, round after round.

A fix (compiler/diagnostics.py `Fix`) is attached by the compiler only where one repair is certain: a misspelt word
with a single close match, a field name without its ':', a comparison written `=>`. Repairing one problem may
reveal the next (a misspelt field hides the misspelt word in its value, which the parser never reached), so the
texts are compiled again after each round and the new fixes applied, until none is left or MAX_ROUNDS have run.

Only the fixes of diagnostics the run reports are applied (a warning silenced by a suppression comment or by
--ignore is left alone), never two that touch the same text in one round, and only in the files asked about (the
bundled content is compiled beside them but never rewritten).
"""

from __future__ import annotations

import difflib
from typing import Callable, Iterable, Sequence

import attrs

from tharsis.compiler.diagnostics import Diagnostic, Fix, Span

from .fmt import line_starts

MAX_ROUNDS = 10  # a repair reveals at most a few more; more rounds than this would be a loop


@attrs.frozen
class Applied:
    """One fix as it was made: where, for which diagnostic, and the text before and after."""

    path: str
    line: int
    column: int
    code: str
    message: str
    before: str
    after: str

    def describe(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.code} '{self.before}' -> '{self.after}'"


@attrs.define
class FixRun:
    texts: dict[str, str]             # every file's text after the fixes (the files asked about)
    applied: list[Applied]
    remaining: list[Diagnostic]       # what the run reports once the fixes are made
    result: object                    # the last compilation (its sources render the remaining diagnostics)

    def changed(self, originals: dict[str, str]) -> list[str]:
        return [path for path, text in self.texts.items() if text != originals.get(path)]


def fix_texts(texts: dict[str, str], own: Iterable[str], compile_texts: Callable[[dict[str, str], set[str]], object],
              reported: Callable[[object], list[Diagnostic]], first=None) -> FixRun:
    """Apply the fixes of the diagnostics `reported(result)` finds in the files `own`, compiling `texts` again
    with `compile_texts(texts, changed_paths)` after each round. `first`: the compilation of `texts` as given,
    when the caller has it."""
    texts = dict(texts)
    own = set(own)
    result = first if first is not None else compile_texts(texts, set())
    applied: list[Applied] = []
    seen = {_key(texts, own)}
    for _ in range(MAX_ROUNDS):
        diagnostics = [d for d in reported(result) if d.fixes and all(f.span.path in own for f in d.fixes)]
        if not diagnostics:
            break
        changed: set[str] = set()
        for path in sorted({d.fixes[0].span.path for d in diagnostics}):
            text, made = apply(texts[path], [d for d in diagnostics
                                             if all(f.span.path == path for f in d.fixes)])
            if made:
                texts[path] = text
                applied.extend(made)
                changed.add(path)
        key = _key(texts, own)
        if not changed or key in seen:  # nothing applied, or back to an earlier text: stop rather than loop
            break
        seen.add(key)
        result = compile_texts(texts, changed)
    return FixRun({path: texts[path] for path in texts if path in own}, applied, reported(result), result)


def _key(texts: dict[str, str], own: set[str]) -> tuple:
    return tuple(sorted((path, text) for path, text in texts.items() if path in own))


def apply(text: str, diagnostics: Sequence[Diagnostic]) -> tuple[str, list[Applied]]:
    """`text` with the fixes of `diagnostics` made, each diagnostic's fixes all or none, none that overlaps an
    edit already taken (the next round finds it again if it still applies); and what was made."""
    starts = line_starts(text)
    edits: list[tuple[int, int, str, Diagnostic, Fix]] = []
    taken: list[tuple[int, int]] = []
    for d in sorted(diagnostics, key=lambda d: (d.fixes[0].span.line, d.fixes[0].span.column)):
        spans = [(_offset(starts, text, f.span.line, f.span.column), _offset(starts, text, f.span.end_line,
                                                                            f.span.end_column)) for f in d.fixes]
        if any(start is None or end is None or end < start for start, end in spans):
            continue  # a span outside the text: the text changed since it was compiled
        if any(_overlaps(span, other) for span in spans for other in taken):
            continue
        if any(text[start:end] == f.replacement for (start, end), f in zip(spans, d.fixes)):
            continue
        taken.extend(spans)
        edits.extend((start, end, f.replacement, d, f) for (start, end), f in zip(spans, d.fixes))
    made = [Applied(f.span.path, f.span.line, f.span.column, d.code, d.message, text[start:end], replacement)
            for start, end, replacement, d, f in sorted(edits, key=lambda e: (e[0], e[1]))]
    for start, end, replacement, _, _ in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        text = text[:start] + replacement + text[end:]
    return text, made


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Two regions touch the same text: they share a character, or one is an insertion point inside or at the
    edge of the other (two insertions at one point included: their order would be a guess)."""
    if a[0] < b[1] and b[0] < a[1]:
        return True
    return (a[0] == a[1] and b[0] <= a[0] <= b[1]) or (b[0] == b[1] and a[0] <= b[0] <= a[1])



def _offset(starts: list[int], text: str, line: int, column: int) -> int | None:
    """The index of a 1-based line and column (columns count characters, as spans do), or None when outside."""
    if not 1 <= line <= len(starts) or column < 1:
        return None
    end = starts[line] - 1 if line < len(starts) else len(text)
    offset = starts[line - 1] + column - 1
    return offset if offset <= end else None


def unified_diff(path: str, before: str, after: str) -> list[str]:
    return list(difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                     fromfile=f"{path} (as written)", tofile=f"{path} (fixed)"))


def encoded(fixed: str, raw: bytes) -> bytes:
    """The fixed text as the file's bytes, keeping what the compiler normalised away: a byte order mark and
    Windows line endings (when the file used them throughout)."""
    bom = b"\xef\xbb\xbf" if raw.startswith(b"\xef\xbb\xbf") else b""
    body = raw[len(bom):]
    crlf = b"\r\n" in body and body.count(b"\n") == body.count(b"\r\n") and body.count(b"\r") == body.count(b"\r\n")
    return bom + (fixed.replace("\n", "\r\n") if crlf else fixed).encode("utf-8")


def span_text(text: str, span: Span) -> str:
    """The text a span covers (for tests and messages)."""
    starts = line_starts(text)
    start, end = _offset(starts, text, span.line, span.column), _offset(starts, text, span.end_line, span.end_column)
    return "" if start is None or end is None else text[start:end]
