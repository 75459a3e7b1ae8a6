"""Reading source files: bytes -> text (refusing binary, non-UTF-8 and oversized files), and where the grammar is.

Pipeline place: before parsing. Kept apart from parser.py so that a run served from the cache never imports Lark.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from .diagnostics import Diagnostics, Span

# Lark parses about 100-300 KB of card text a second, so a file is limited to what checks in a couple of seconds:
# 256 KB holds some 1,500 cards (the largest bundled file is 11 KB). Bigger content goes in several files.
MAX_FILE_BYTES = 256 * 1024


def grammar_path() -> Path:
    return Path(str(resources.files("tharsis.grammar").joinpath("tharsis.lark")))


def decode(path: str, data: bytes, diagnostics: Diagnostics) -> str | None:
    """Bytes -> text, refusing what is not a card file: too large, binary, or not UTF-8."""
    if len(data) > MAX_FILE_BYTES:
        diagnostics.error("E004", f"file is too large ({_size(len(data))}); a card file may hold at most "
                                  f"{_size(MAX_FILE_BYTES)}", Span(path, 1, 1, 1, 2),
                          "split the content into several files (a folder of them checks and plays as one)")
        return None
    if b"\x00" in data:
        offset = data.index(b"\x00")
        line, column = _byte_position(data, offset)
        diagnostics.error("E005", "file looks binary (it contains a NUL byte); card files are UTF-8 text",
                          Span.point(path, line, column))
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line, column = _byte_position(data, exc.start)
        diagnostics.error("E005", f"file is not valid UTF-8 (byte 0x{data[exc.start]:02x})",
                          Span.point(path, line, column), "save the file as UTF-8")
        return None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _size(count: int) -> str:
    return f"{count / 1024:.0f} KB" if count < 1024 * 1024 else f"{count / (1024 * 1024):.1f} MB"


def _byte_position(data: bytes, offset: int) -> tuple[int, int]:
    """(line, column) of a byte offset; the column counts characters, like every other diagnostic's."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    prefix = data[line_start:offset]
    if line_start == 0 and prefix.startswith(b"\xef\xbb\xbf"):
        prefix = prefix[3:]  # the byte order mark is not a character of the line
    return data.count(b"\n", 0, offset) + 1, len(prefix.decode("utf-8", errors="replace")) + 1
