"""What text read from a file may hold where it will be printed, and how it is shown when it may not.

A name in card text, in a `.names` file or in a log reaches the terminal of whoever runs `play`, `replay` or
`cards`; an escape sequence in it could set their window's title, clear their screen or write their clipboard
(OSC 52), and a bidi override or a zero-width character could show a name other than the one the engine matches.
The compiler refuses such characters in names and comments (E008, E165); whatever else from a file is printed
goes through `escaped`.
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 200   # characters in a quoted name; the longest bundled one (an award's description) has 77

# in a comment, besides what Python counts printable: a tab, any space, a private-use character (none of these
# moves the cursor or reorders text)
_ALSO_IN_COMMENTS = ("Zs", "Co")


def printable(character: str, in_name: bool = True) -> bool:
    """Whether a name (or, `in_name` off, a comment) may hold `character`: not a control character (C0, C1,
    DEL), a format character (bidi controls, zero-width characters, the soft hyphen), a line or paragraph
    separator or a lone surrogate. A name takes no tab nor any space but the plain one, as a seat name."""
    if character.isprintable():
        return True
    return not in_name and (character == "\t" or unicodedata.category(character) in _ALSO_IN_COMMENTS)


def first_unprintable(text: str, in_name: bool = True) -> int | None:
    """The index of the first character of `text` `printable` refuses, or None (a scan in C when all are)."""
    if text.isprintable():
        return None
    return next((i for i, ch in enumerate(text) if not printable(ch, in_name)), None)


def described(character: str) -> str:
    """A character as a message names it: U+001B (ESCAPE)."""
    name = unicodedata.name(character, "") or ("a control character" if unicodedata.category(character) == "Cc"
                                               else "")
    return f"U+{ord(character):04X}" + (f" ({name})" if name else "")


def escaped(text: str) -> str:
    """`text` safe to print on a terminal: each character that is not printable (but a line end or a tab) written
    as a Python escape (\\x1b, \\u202e), so it is seen and does nothing."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch in "\n\t" else _escape(ch) for ch in text)


def shown_characters(text: str) -> list[str]:
    """Each character of a source line as an excerpt prints it: itself when printable (or a tab), else its escape
    (`\\x1b`, `\\x00`, `\\u202e`), so a control character, a NUL of a binary file or a bidi override is seen for
    what it is and does nothing. One piece per character, so a caret can be lined up under the pieces."""
    if text.isprintable():
        return list(text)
    return [ch if ch.isprintable() or ch == "\t" else _escape(ch) for ch in text]


def _escape(character: str) -> str:
    """A character's escape; a byte that is no UTF-8, read with `surrogateescape`, as that byte (`\\xe9`)."""
    if "\udc80" <= character <= "\udcff":
        return f"\\x{ord(character) - 0xDC00:02x}"
    return character.encode("unicode_escape").decode("ascii")
