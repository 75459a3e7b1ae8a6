"""Columns in the client's units (UTF-16 unless it negotiated UTF-8 or UTF-32), in time linear in the document.

pygls's position codec counts the units of a line's first N characters afresh for every position, one Python
call per character: a one-line card file of 14 KB has a few thousand tokens, and converting each token's start
that way took seconds (56 KB: minutes). Here each line's running count of units is made once, when a position
on it is first asked for, and every position after that is a lookup; a line of plain characters (all of them,
for UTF-32; no character outside the BMP, for UTF-16; ASCII, for UTF-8) needs no count at all.
"""

from __future__ import annotations

import bisect
from itertools import accumulate
from typing import Optional

from lsprotocol.types import PositionEncodingKind


def _units_utf16(character: str) -> int:
    return 2 if ord(character) > 0xFFFF else 1


def _units_utf8(character: str) -> int:
    return len(character.encode("utf-8", "surrogatepass"))


class Columns:
    """Positions in `text` (split at line ends as the analysis splits it) converted between code points (the
    server's) and the client's units."""

    def __init__(self, text: str, encoding: Optional[str]):
        self.lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        self.encoding = encoding or PositionEncodingKind.Utf16
        self._counts: dict[int, Optional[list[int]]] = {}  # line -> units before each character (None: the same)

    def _count(self, line: int) -> Optional[list[int]]:
        if line not in self._counts:
            text = self.lines[line] if 0 <= line < len(self.lines) else ""
            if self.encoding == PositionEncodingKind.Utf32 or not text:
                plain = True
            elif self.encoding == PositionEncodingKind.Utf8:
                plain = text.isascii()
            else:
                plain = max(text) <= "\uffff"
            units = _units_utf8 if self.encoding == PositionEncodingKind.Utf8 else _units_utf16
            self._counts[line] = None if plain else [0, *accumulate(map(units, text))]
        return self._counts[line]

    def to_client(self, line: int, character: int) -> int:
        counts = self._count(line)
        if counts is None:
            return character
        return counts[max(0, min(character, len(counts) - 1))]

    def to_server(self, line: int, units: int) -> int:
        """The character at `units` (inside a character that takes two or more units: that character)."""
        counts = self._count(line)
        if counts is None:
            return units
        return max(0, bisect.bisect_right(counts, units) - 1)
