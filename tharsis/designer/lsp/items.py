"""The plain data the editor is shown, independent of the protocol: ranges, diagnostics with their fixes,
completions, places, symbols and edits. server.py turns them into the Language Server Protocol's types.

Positions are 0-based lines and characters counted in code points; server.py converts them to the client's
encoding.
"""

from __future__ import annotations

from typing import Optional

import attrs


@attrs.frozen
class Range:
    start_line: int
    start_character: int
    end_line: int
    end_character: int

    def contains(self, line: int, character: int) -> bool:
        return (self.start_line, self.start_character) <= (line, character) <= (self.end_line, self.end_character)

    def overlaps(self, other: "Range") -> bool:
        return (self.start_line, self.start_character) <= (other.end_line, other.end_character) and \
               (other.start_line, other.start_character) <= (self.end_line, self.end_character)


@attrs.frozen
class Edit:
    """Replace `range` of a document with `text`."""

    range: Range
    text: str


@attrs.frozen
class EditorDiagnostic:
    range: Range
    severity: str          # error | warning
    code: str
    message: str
    fixes: tuple[Edit, ...] = ()   # the compiler's fixes (what `tharsis check --fix` applies), in this document


@attrs.frozen
class Completion:
    label: str
    category: str          # field, keyword, resource, tag, quantity, card, ...
    detail: str = ""
    documentation: str = ""
    insert_text: Optional[str] = None
    replace: Optional[Range] = None   # what the insertion replaces (a quoted name: from the quote to the cursor)


@attrs.frozen
class Location:
    """A place in a file: where a name is defined."""

    path: str
    range: Range


@attrs.frozen
class Symbol:
    """A definition of the document (or a field of one), for the editor's outline."""

    name: str
    kind: str              # card, corporation, ..., field
    detail: str
    range: Range           # the whole definition (or field)
    selection: Range       # its name
    children: tuple["Symbol", ...] = ()


@attrs.frozen
class SemanticToken:
    line: int
    character: int
    length: int
    type: str              # one of highlight.TOKEN_TYPES
    modifiers: tuple[str, ...] = ()
