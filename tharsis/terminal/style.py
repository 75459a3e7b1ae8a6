"""Colour for `tharsis play`: ANSI SGR codes around parts of text that is laid out without them.

Every view (tharsis/terminal/view.py) and prompt (tharsis/terminal/prompts.py) is laid out once, as plain text: aligned
columns, the board's hex grid, the score table. A `Paint` only wraps parts of that text (a player's name, a card's name,
a heading) in colour codes, so removing the codes (`strip`) gives back the plain text byte for byte; pipes, logs, tests
and the docs' transcripts read exactly what a terminal shows, without the colours (tests/test_play_terminal.py checks
both).

Why the standard library rather than `rich` (well kept, and the usual choice for tables and colour): rich lays text
out itself. It wraps at the terminal's width, reads `[...]` as markup (our card headings, hand lines and the
board's legal spaces are bracketed), and draws its own tables, so one layout for terminals and pipes would mean
turning most of it off and keeping the other half in step. What a game needs from a terminal library is small and
standard: whether the output is a terminal (`isatty`), the NO_COLOR and FORCE_COLOR conventions, TERM=dumb, the 16
basic colours that every terminal shows (and Windows consoles once virtual-terminal mode is on), all without a new
dependency for every install.
"""

from __future__ import annotations

import os
import re
from typing import Mapping, Optional

import attrs

from tharsis.compiler import vocabulary as v
from tharsis.compiler.printable import escaped

RESET = "\x1b[0m"
_SGR = re.compile(r"\x1b\[[0-9;]*m")
_SGR_OR_UNPRINTABLE = re.compile(r"(\x1b\[[0-9;]*m)|([^\n\t\x20-\x7e])")


def shown(text: str) -> str:
    """`text` as it may reach a terminal: the colour codes a `Paint` put in are kept, and any other character that
    is not printable (an escape sequence, a bidi override, a zero-width character that came from a file: a name
    in a log made elsewhere) is written as an escape (\\x1b), so it is seen and does nothing. The compiler
    refuses them in names (E008); this is the wall behind that one."""
    return _SGR_OR_UNPRINTABLE.sub(_shown, text)


def _shown(match: re.Match) -> str:
    if match.group(1):
        return match.group(1)
    character = match.group(2)
    return character if character.isprintable() else escaped(character)

# the printed cards' colours: green automated, blue active, red events; corporations stand out in bold
CARD_TYPES = {"automated": "32", "active": "34", "event": "31", "corporation": "1", "prelude": "35"}
DECLARED_KIND = "33"           # a kind of card an expansion declares (a prelude is one too: it has its own colour)
PLAYERS = ("96", "95", "93", "92", "94")   # bright cyan, magenta, yellow, green, blue: one per seat, in seat order
NEUTRAL = "2"                  # the solo game's neutral opponent, dim
TILES = ((v.OCEAN_TILES, "34"), (v.GREENERY_TILES, "32"), (v.CITY_TILES, "1"))   # by the tile's role
OTHER_TILE = "33"              # a special tile, or a kind of tile in none of those roles
BONUSES = {"plant": "32", "steel": "33", "titanium": "1", "card": "36", "heat": "31", "energy": "35",
           "megacredits": "93", v.OCEAN: "34"}   # a space's printed bonus, by its first resource


@attrs.frozen
class Paint:
    """Wraps text in colour codes when `colour` is on, and returns it unchanged when it is off (PLAIN)."""

    colour: bool = False

    def __call__(self, words: str, code: Optional[str]) -> str:
        if not self.colour or not code or not words:
            return words
        return f"\x1b[{code}m{words}{RESET}"

    def bold(self, words: str) -> str:
        return self(words, "1")

    def dim(self, words: str) -> str:
        return self(words, "2")

    def good(self, words: str) -> str:
        return self(words, "32")

    def warn(self, words: str) -> str:
        return self(words, "33")

    def price(self, words: str) -> str:
        return self(words, "33")

    def player(self, words: str, index: Optional[int]) -> str:
        """A player's name or letter in that player's colour (seat order); any other index is the neutral one."""
        code = PLAYERS[index % len(PLAYERS)] if index is not None and index >= 0 else NEUTRAL
        return self(words, code)

    def card(self, words: str, card_type: Optional[str]) -> str:
        """A card's name in the colour of its type (a declared kind of card in the declared colour)."""
        return self(words, CARD_TYPES.get(card_type or "", DECLARED_KIND if card_type else None))

    def tile(self, words: str, kind: str) -> str:
        return self(words, next((code for kinds, code in TILES if kind in kinds), OTHER_TILE))

    def bonus(self, words: str, resource: Optional[str]) -> str:
        """A space's bonus letters in the colour of the resource (none for a designer's own)."""
        return self(words, BONUSES.get(resource or ""))


PLAIN = Paint(False)
COLOUR = Paint(True)


def strip(words: str) -> str:
    """The text without its colour codes: what a pipe would have been given."""
    return _SGR.sub("", words)


def for_stream(stream, environ: Optional[Mapping[str, str]] = None) -> Paint:
    """COLOUR for a terminal, PLAIN for anything else (a file, a pipe, a test's StringIO).

    NO_COLOR (any non-empty value, no-color.org) turns colour off and wins; FORCE_COLOR (non-empty, not 0) turns it
    on for a pipe too, e.g. into `less -R`; TERM=dumb is a terminal that shows no colour."""
    environ = os.environ if environ is None else environ
    if environ.get("NO_COLOR"):
        return PLAIN
    if environ.get("FORCE_COLOR", "") not in ("", "0"):
        return COLOUR
    if environ.get("TERM") == "dumb" or not _is_terminal(stream):
        return PLAIN
    return COLOUR if _ansi_ready(stream) else PLAIN


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _ansi_ready(stream) -> bool:
    """Whether the terminal reads colour codes: always on POSIX; on Windows once its console is switched to
    virtual-terminal processing (Windows 10 and later; an older console keeps the plain text)."""
    if os.name != "nt":
        return True
    try:  # pragma: no cover - Windows only
        import ctypes
        import msvcrt

        kernel32 = ctypes.windll.kernel32
        handle = msvcrt.get_osfhandle(stream.fileno())
        mode = ctypes.c_uint32()
        if not kernel32.GetConsoleMode(handle, ctypes.byref(mode)):
            return False
        return bool(kernel32.SetConsoleMode(handle, mode.value | 0x0004))  # ENABLE_VIRTUAL_TERMINAL_PROCESSING
    except (AttributeError, ImportError, OSError, ValueError):  # pragma: no cover - Windows only
        return False
