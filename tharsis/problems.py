"""Problems with what a user hands the CLI: its flags, its saves and its game logs (codes E7xx/W7xx).

The compiler has its own diagnostics for card text (compiler/diagnostics.py); these are the same idea for
everything else a command reads: data, not exceptions, so one run reports every problem it can find, each with a
stable code (docs/errors.md), the file and line when there is one, and a did-you-mean where the vocabulary is
closed. `ProblemError` carries them to the CLI with the exit code they deserve (2 for usage, 1 for bad content).
"""

from __future__ import annotations

from typing import Iterable, Optional, Sequence

import attrs

from tharsis.compiler.diagnostics import did_you_mean
from tharsis.compiler.printable import shown_characters
from tharsis.compiler.source import on_disk

USAGE, CONTENT = 2, 1       # exit codes: a bad flag or a missing file / a file whose content is wrong
EXCERPT = 160               # characters of a JSONL line shown under a problem (lines can be megabytes long)


@attrs.frozen
class Problem:
    code: str                       # E7xx (an error) or W7xx (a warning)
    message: str
    hint: Optional[str] = None
    path: Optional[str] = None      # the file it is in, None for a flag
    line: Optional[int] = None      # 1-based line of a JSONL log or of a JSON syntax error
    column: Optional[int] = None
    source: Optional[str] = None    # the text of that line, shown under the message

    @property
    def is_error(self) -> bool:
        return self.code.startswith("E")


class ProblemError(Exception):
    """Stops a command: `problems` hold at least one error (and maybe warnings); `exit_code` is USAGE or CONTENT."""

    def __init__(self, problems: Sequence[Problem], exit_code: int = CONTENT, details: str = ""):
        super().__init__(render(problems))
        self.problems = list(problems)
        self.exit_code = exit_code
        self.details = details      # printed before the problems: the compiler's report on broken cards


ENDLESS = "E770"   # a game the engine stopped because it would never end (runtime/core/flow.py EndlessGame)
ENDLESS_HINT = ("the definitions named loop, or a parameter the game waits for can never reach its top: `tharsis "
                "check` shows what it can see before any game (W113, W114); docs/language.md \"Termination\"")


def endless_problem(error: Exception, prefix: str = "") -> Problem:
    """E770 for an `EndlessGame` (its message names the definitions involved), after `prefix` (which game)."""
    return Problem(ENDLESS, f"{prefix}{error}", ENDLESS_HINT)


def usage_error(code: str, message: str, hint: Optional[str] = None) -> ProblemError:
    """One problem with the command line itself (a flag, or a file a flag names), ready to raise: exit 2."""
    return ProblemError([Problem(code, message, hint)], USAGE)


def missing_path(name: str, text: str, hint: Optional[str] = None, where=None) -> Optional[Problem]:
    """The one check of a path a user gives to be read: E705 when `text` names no file or folder (or a device, a
    pipe or a socket, whose reading may never end), or a path the system refuses to look at, with its reason
    (compiler/source.py `on_disk`: a name over 255 bytes, a loop of symbolic links, no permission, a NUL
    character), else None. `name` is what gave it (`--cards`, a file's `options.card_paths`, a designer command's
    PATH), `where` the file it was read from (tharsis/games/options.py's `Where`), so that every command words a missing
    path alike. The files are then read with `read_bounded`, whose OSErrors `why_unusable` words the same way under
    each reader's own code (E710 saves and logs, E604 scenarios, E708 what is written, E730 the gallery's folder)."""
    look = on_disk(text)
    if look.kind in ("file", "folder"):
        return None
    shown = shorten(text)
    if look.kind == "unusable":
        message, hint = f"{name}: cannot use {shown!r}: {look.reason}", look.hint or hint
    elif look.kind == "missing":
        message = f"{name}: no such file or folder: {shown!r}"
    else:
        message = f"{name}: not a file or folder: {shown!r}"
        hint = hint or "only files and folders are read: a device, a pipe or a socket might never end"
    return where.problem("E705", message, hint) if where is not None else Problem("E705", message, hint)


def shorten(text: str, limit: int = 120) -> str:
    """A path (or a typed answer) as a message shows it: its start and its end around '...' when it is long."""
    if len(text) <= limit:
        return text
    return text[:limit // 2 - 2] + "..." + text[-(limit // 2 - 1):]


def suggest(word: str, vocabulary: Iterable[str], listing: str = "") -> Optional[str]:
    """A did-you-mean for `word`, else `listing` followed by the vocabulary when it is short enough to read."""
    choices = sorted(set(vocabulary))
    hint = did_you_mean(word, choices) if word else None
    if hint:
        return hint
    if listing and choices:
        shown = ", ".join(choices[:20]) + (", ..." if len(choices) > 20 else "")
        return f"{listing}: {shown}"
    return None


def render(problems: Sequence[Problem]) -> str:
    """`path:line:col: error[CODE]: message`, the offending line (cut to a readable width) and the hint."""
    out = []
    for p in problems:
        severity = "error" if p.is_error else "warning"
        where = "tharsis" if p.path is None else p.path
        if p.line is not None:
            where += f":{p.line}" + (f":{p.column}" if p.column is not None else "")
        out.append(f"{where}: {severity}[{p.code}]: {p.message}")
        if p.source is not None:
            text, column = _window(p.source.rstrip("\r\n"), p.column)
            out.append(f"{p.line or '':>4} | {text}")
            if column is not None:
                out.append("     | " + " " * (column - 1) + "^")
        if p.hint:
            out.append(f"     = hint: {p.hint}")
    return "\n".join(out)


def _window(text: str, column: Optional[int]) -> tuple[str, Optional[int]]:
    """At most EXCERPT characters of a line around `column`, each that is not printable escaped, and the column
    within them."""
    start = 0 if column is None or column <= EXCERPT // 2 else column - EXCERPT // 2
    pieces = shown_characters(text[start:start + EXCERPT])   # what is not printable, escaped (\x1b, \x00)
    prefix, suffix = ("..." if start else ""), ("..." if len(text) > start + EXCERPT else "")
    if column is None:
        return prefix + "".join(pieces) + suffix, None
    return prefix + "".join(pieces) + suffix, len(prefix) + len("".join(pieces[:column - start - 1])) + 1
