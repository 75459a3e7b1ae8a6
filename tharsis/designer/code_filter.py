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

from tharsis.compiler.diagnostics import Diagnostic, did_you_mean

_CODE = re.compile(r"^[EW]\d{0,3}$")

# Every warning `tharsis check` can report (docs/errors.md): the closed vocabulary a code or prefix must match
# (tests/test_docs.py keeps it equal to the documented designer warnings).
WARNINGS = ("W001", "W102", "W103", "W104", "W105", "W106", "W107", "W108", "W113", "W114", "W115", "W801", "W802")
_FORMS = "codes look like W102 (one warning), W1 (W100-W199) or W (every warning)"


class CodeError(ValueError):
    """A code list names something that is not a warning code; `hint` says what would be."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.hint = hint


def validate_codes(codes: Iterable[str]) -> None:
    """Raise the CodeError of the first code that is wrong (code_errors gives them all)."""
    for error in code_errors(codes):
        raise error


def code_errors(codes: Iterable[str]) -> list[CodeError]:
    """What is wrong with each code or prefix: not a code, an error code, or no warning starts with it; the hint
    is a did-you-mean among WARNINGS when one is close (`W1O2`, `w102`, `W201`)."""
    errors = []
    for code in codes:
        if code.startswith("E") and _CODE.match(code):
            errors.append(CodeError(f"'{code}' names errors, which cannot be selected or ignored",
                                    "a definition with an error does not compile; fix the error instead"))
        elif not _CODE.match(code):
            errors.append(CodeError(f"'{code}' is not a diagnostic code or prefix",
                                    did_you_mean(code, WARNINGS) or _FORMS))
        elif not any(warning.startswith(code) for warning in WARNINGS):
            errors.append(CodeError(f"no warning has the code {code}" if len(code) == 4 else
                                    f"no warning code starts with {code}",
                                    did_you_mean(code, WARNINGS) or "warnings: " + ", ".join(WARNINGS)))
    return errors


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
