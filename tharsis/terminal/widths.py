"""How wide text is on a terminal, for the columns of `tharsis play` in any language.

Python's `f"{name:<14}"` pads to a number of characters, but a terminal gives a Chinese character (畜牧, 改造度) two
columns, so a table whose cells are Chinese would lose its columns. These helpers count columns as terminals do (Unicode
East Asian Width: wide and fullwidth characters take two, every other printable character one, the colour codes of
tharsis/terminal/style.py none), so the same layout code lines up English and Chinese. For text that is all ASCII they
give exactly what `str.ljust` and `str.rjust` give, which keeps the English screens byte for byte as they were.
"""

from __future__ import annotations

import unicodedata

from .style import strip

__all__ = ["ljust", "rjust", "width"]


def width(text: str) -> int:
    """The columns `text` takes on a terminal (colour codes take none)."""
    if text.isascii():
        return len(strip(text)) if "\x1b" in text else len(text)
    return sum(_columns(ch) for ch in strip(text))


def _columns(ch: str) -> int:
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def ljust(text: str, columns: int) -> str:
    """`text` padded with spaces on the right to `columns` columns (unchanged when it is as wide already)."""
    return text + " " * max(0, columns - width(text))


def rjust(text: str, columns: int) -> str:
    """`text` padded with spaces on the left to `columns` columns."""
    return " " * max(0, columns - width(text)) + text
