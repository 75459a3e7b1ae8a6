"""Reading source files: bytes -> text (refusing binary, non-UTF-8 and oversized files), and where the grammar is.

Pipeline place: before parsing. Kept apart from parser.py so that a run served from the cache never imports Lark.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from .diagnostics import Diagnostics, Span

MAX_FILE_BYTES = 2_000_000


def grammar_path() -> Path:
    return Path(str(resources.files("tharsis.grammar").joinpath("tharsis.lark")))


def decode(path: str, data: bytes, diagnostics: Diagnostics) -> str | None:
    """Bytes -> text, refusing what is not a card file: too large, binary, or not UTF-8."""
    if len(data) > MAX_FILE_BYTES:
        diagnostics.error("E004", f"file is too large ({len(data) / 1e6:.1f} MB); a card file may hold at most "
                                  f"{MAX_FILE_BYTES / 1e6:.0f} MB", Span(path, 1, 1, 1, 2),
                          "split the content into several files")
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


def _byte_position(data: bytes, offset: int) -> tuple[int, int]:
    """(line, column) of a byte offset; the column counts characters, like every other diagnostic's."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    prefix = data[line_start:offset]
    if line_start == 0 and prefix.startswith(b"\xef\xbb\xbf"):
        prefix = prefix[3:]  # the byte order mark is not a character of the line
    return data.count(b"\n", 0, offset) + 1, len(prefix.decode("utf-8", errors="replace")) + 1
