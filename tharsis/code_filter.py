"""Which warnings a run reports: `--select` / `--ignore` (and the same keys of [tool.tharsis]).

Codes are matched by prefix, so `W` is every warning and `W1` every W1xx. When both lists match a code, the
longer (more specific) entry wins, as in ruff: `ignore = ["W"]` with `select = ["W102"]` reports only W102.

Errors are never filtered: a definition with an error does not compile, so hiding it would only move the
failure to `tharsis play`. Naming an error code here is refused with that explanation.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

import attrs

from tharsis.compiler.diagnostics import Diagnostic

_CODE = re.compile(r"^[EW]\d{0,3}$")


class CodeError(ValueError):
    """A code list names something that is not a warning code; `hint` says what would be."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.hint = hint


def validate_codes(codes: Iterable[str]) -> None:
    for code in codes:
        if not _CODE.match(code):
            raise CodeError(f"'{code}' is not a diagnostic code or prefix",
                            "codes look like W102 (one warning), W1 (W100-W199) or W (every warning)")
        if code.startswith("E"):
            raise CodeError(f"'{code}' names errors, which cannot be selected or ignored",
                            "a definition with an error does not compile; fix the error instead")


@attrs.frozen
class CodeFilter:
    select: tuple[str, ...] = ()   # empty: every warning
    ignore: tuple[str, ...] = ()

    def reports(self, diagnostic: Diagnostic) -> bool:
        if diagnostic.is_error:
            return True
        selected = _longest(self.select, diagnostic.code) if self.select else 0
        if self.select and selected < 0:
            return False
        ignored = _longest(self.ignore, diagnostic.code)
        return ignored < 0 or selected > ignored

    def apply(self, diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
        return [d for d in diagnostics if self.reports(d)]


def _longest(prefixes: Sequence[str], code: str) -> int:
    """Length of the longest prefix of `code` in `prefixes`, -1 if none matches."""
    return max((len(p) for p in prefixes if code.startswith(p)), default=-1)
