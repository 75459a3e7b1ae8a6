"""Parsing: card text -> Lark parse tree -> AST, with every failure turned into a Diagnostic.

Pipeline place: the first phase. Lark's exceptions never leave this module: they are translated into
designer-facing messages ("expected one of: tags:, cost:, ..."), with a did-you-mean when the unexpected word
is close to a keyword the parser would have accepted.

A file is split into top-level chunks (a definition starts with a keyword at column 1), and each chunk is
parsed on its own, so one broken card does not hide the errors of the next.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from pathlib import Path

from lark import Lark
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr

from . import syntax
from .diagnostics import Diagnostics, Span, did_you_mean
from .syntax import Node

MAX_FILE_BYTES = 2_000_000
MAX_NESTING = 40
DEFINITION_KEYWORDS = ("card", "corporation", "standard", "milestone", "award", "board", "resource", "tag")
_CHUNK_START = re.compile(r"^(?:%s)\b" % "|".join(DEFINITION_KEYWORDS), re.M)

_FRIENDLY = {
    "NAME": "a name", "INT": "a number", "SIGNED": "a signed number like +1", "SIGNED_INT": "a number",
    "STRING": 'a quoted name like "Livestock"', "VALUE": "a number like 9% or -12C", "CARD_NUMBER": "a card number like #184",
    "COMPARATOR": "a comparison (>=, <=, ==, >, <)", "X": "X", "OWNER": "your", "UP_TO": "up to",
    "NEXT_TO_IT": "next to it", "INCLUDING_THIS": "including this", "PROTECT_SCOPE": "here or from opponents",
    "PLAY": "play", "PLACE": "place", "USE": "use", "RAISE": "raise", "CARD_KIND": "card or event",
    "PLUS_MINUS": "+-", "$END": "end of file",
}


def grammar_path() -> Path:
    return Path(str(resources.files("tharsis.grammar").joinpath("tharsis.lark")))


@lru_cache(maxsize=1)
def lark_parser() -> Lark:
    """The LALR parser; Lark caches its tables on disk (cache=True), keyed by the grammar's hash."""
    return Lark(grammar_path().read_text(encoding="utf-8"), parser="lalr", lexer="contextual",
                propagate_positions=True, maybe_placeholders=False, cache=True)


@lru_cache(maxsize=1)
def _display_names() -> dict[str, str]:
    names = dict(_FRIENDLY)
    for terminal in lark_parser().terminals:
        if terminal.name in names:
            continue
        if isinstance(terminal.pattern, PatternStr):
            names[terminal.name] = terminal.pattern.value
        elif terminal.name.endswith("_KEY"):
            names[terminal.name] = terminal.name[:-4].lower().replace("_", " ").replace("play key", "play") + ":"
    names["PLAY_KEY"] = "play:"
    return names


def display(terminal: str) -> str:
    return _display_names().get(terminal, terminal.lower())


def decode(path: str, data: bytes, diagnostics: Diagnostics) -> str | None:
    """Bytes -> text, refusing what is not a card file: too large, binary, or not UTF-8."""
    if len(data) > MAX_FILE_BYTES:
        diagnostics.error("E004", f"file is too large ({len(data) / 1e6:.1f} MB); a card file may hold at most "
                                  f"{MAX_FILE_BYTES / 1e6:.0f} MB", Span(path, 1, 1, 1, 2),
                          "split the content into several files")
        return None
    if b"\x00" in data:
        offset = data.index(b"\x00")
        line = data.count(b"\n", 0, offset) + 1
        column = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
        diagnostics.error("E005", "file looks binary (it contains a NUL byte); card files are UTF-8 text",
                          Span.point(path, line, column))
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        diagnostics.error("E005", f"file is not valid UTF-8 (byte 0x{data[exc.start]:02x})",
                          Span.point(path, line, column), "save the file as UTF-8")
        return None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def parse(path: str, text: str, diagnostics: Diagnostics) -> list[Node]:
    """Parse one file into definition nodes; syntax errors go to `diagnostics`, good chunks still come back."""
    definitions: list[Node] = []
    if not text.strip():
        diagnostics.warning("W001", "file defines nothing", Span(path, 1, 1, 1, 2))
        return definitions
    for start_line, chunk in _chunks(text):
        if not _nesting_ok(path, chunk, start_line, diagnostics):
            continue
        padded = "\n" * (start_line - 1) + chunk
        try:
            tree = lark_parser().parse(padded)
        except UnexpectedInput as exc:
            diagnostics.items.append(_translate(path, padded, exc))
            continue
        definitions.extend(syntax.build(tree, path).nodes())
    return definitions


def _chunks(text: str):
    starts = [m.start() for m in _CHUNK_START.finditer(text)]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    starts.append(len(text))
    for begin, end in zip(starts, starts[1:]):
        chunk = text[begin:end]
        if chunk.strip():
            yield text.count("\n", 0, begin) + 1, chunk


def _nesting_ok(path: str, chunk: str, start_line: int, diagnostics: Diagnostics) -> bool:
    """Refuse absurd nesting before parsing, so no later phase can run out of stack."""
    depth, line, column, in_string = 0, start_line, 0, False
    for ch in chunk:
        column += 1
        if ch == "\n":
            line, column, in_string = line + 1, 0, False
        elif ch == '"':
            in_string = not in_string
        elif in_string:
            continue
        elif ch in "{(":
            depth += 1
            if depth > MAX_NESTING:
                diagnostics.error("E006", f"blocks are nested more than {MAX_NESTING} deep",
                                  Span.point(path, line, column), "flatten the effect; no card needs this depth")
                return False
        elif ch in "})":
            depth -= 1
    return True


def _translate(path: str, text: str, exc: UnexpectedInput):
    from .diagnostics import Diagnostic

    line, column = max(exc.line, 1), max(exc.column, 1)
    if isinstance(exc, UnexpectedToken) and exc.token.type == "$END" or isinstance(exc, UnexpectedEOF):
        expected = sorted(display(t) for t in getattr(exc, "expected", ()) if t != "$END")
        opened = _unclosed_brace(text)
        last_line = text.rstrip().count("\n") + 1
        last_col = len(text.rstrip().split("\n")[-1]) + 1
        where = Span.point(path, last_line, last_col)
        message = "unexpected end of file"
        hint = None
        if opened:
            message += f": the block opened at line {opened[0]} column {opened[1]} is not closed"
            hint = "add the missing '}'"
        elif expected:
            hint = "expected " + _list(expected)
        return Diagnostic("E003", "error", message, where, hint)
    if isinstance(exc, UnexpectedCharacters):
        ch = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else ""
        expected = sorted(display(t) for t in exc.allowed) if exc.allowed else []
        word = re.match(r"[^\W\d]\w*", text[exc.pos_in_stream:])
        hint = _hint(word.group(0) if word else None, expected)
        shown = repr(ch) if ch.isprintable() else f"U+{ord(ch):04X}"
        if word:
            message = f"unexpected word '{word.group(0)}'"
            width = len(word.group(0))
        else:
            message = f"unexpected character {shown}"
            width = 1
        return Diagnostic("E002", "error", message, Span.point(path, line, column, width), hint)
    token = exc.token
    expected = sorted(display(t) for t in exc.expected)
    hint = _hint(str(token), expected)
    text_shown = str(token).split("\n")[0][:40]
    return Diagnostic("E001", "error", f"unexpected '{text_shown}'", Span.point(path, line, column, len(text_shown)),
                      hint)


def _hint(word: str | None, expected: list[str]) -> str | None:
    if not expected:
        return None
    keywords = [e for e in expected if re.fullmatch(r"[a-z ]+:?", e)]
    if word:
        guess = did_you_mean(word.rstrip(":"), [k.rstrip(":") for k in keywords])
        if guess:
            return f"{guess} (expected {_list(expected)})"
    return "expected " + _list(expected)


def _list(items: list[str], limit: int = 14) -> str:
    items = list(dict.fromkeys(items))
    shown = ", ".join(items[:limit])
    return shown + (", ..." if len(items) > limit else "")


def _unclosed_brace(text: str):
    stack = []
    line, column, in_string, in_comment = 1, 0, False, False
    for i, ch in enumerate(text):
        column += 1
        if ch == "\n":
            line, column, in_string, in_comment = line + 1, 0, False, False
            continue
        if in_comment:
            continue
        if ch == '"':
            in_string = not in_string
        elif in_string:
            continue
        elif ch == "/" and text[i + 1:i + 2] == "/":
            in_comment = True
        elif ch == "{":
            stack.append((line, column))
        elif ch == "}" and stack:
            stack.pop()
    return stack[-1] if stack else None
