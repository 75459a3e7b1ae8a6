"""Line layout of canonical card text: a field too long for one line is broken where a reader expects it.

Pipeline place: beside compiler/text.py, which renders a compiled definition as card text one field per line; this
module only decides where such a line breaks, so `tharsis fmt` and `tharsis cards --format text` write the same
layout. Breaking changes nothing but blanks (the grammar ignores line breaks), so the text compiles to the same
definition.

The breaks follow how the grammar binds, loosest first, as the bundled cards were wrapped by hand:
- between the options of an `action:` or a `choose { }`, before the `|`, which lines up under the `{` (or
  two columns before the field's value) so that the options start in one column;
- after the `->` of a trigger or an action's cost, the effects starting the next line in the value's column;
- after a `;` between effects, as many effects on a line as fit;
- inside the first `{ }` block when nothing else is left, the block's content laid out the same way.
A piece that has no break and is still too long stays whole: a line is never broken inside a word, a quoted name
or a `production( )`.
"""

from __future__ import annotations

WIDTH = 100  # the bundled cards' own: their hand-wrapped lines broke at about 100 columns

# separators, loosest binding first: (the text between two pieces, where the line breaks)
_SEPARATORS = (" | ", " -> ", "; ")


def field(key: str, value: str, indent: int = 2, width: int = WIDTH) -> list[str]:
    """The lines of one field, `key: value` indented by `indent`, broken to fit in `width` where it can."""
    prefix = " " * indent + f"{key}: "
    lines = lay_out(value, len(prefix), width)
    return [prefix + lines[0], *lines[1:]]


def lay_out(text: str, column: int, width: int = WIDTH) -> list[str]:
    """`text`, which starts at `column` (0-based) on its first line, as lines no wider than `width` where a break
    allows: the first without its indentation (the caller's prefix comes before it), the others with theirs."""
    if column + len(text) <= width:
        return [text]
    for separator in _SEPARATORS:
        pieces = _split(text, separator)
        if len(pieces) > 1:
            return _joined(pieces, separator, column, width)
    return _block(text, column, width)


def _joined(pieces: list[str], separator: str, column: int, width: int) -> list[str]:
    if separator == " -> ":  # the effects after the arrow start a line of their own, in the value's column
        head = lay_out(" -> ".join(pieces[:-1]) + " ->", column, width)
        return head + _indented(lay_out(pieces[-1], column, width), column)
    lines: list[str] = []
    current = ""
    bar = separator == " | "
    start = column - 2 if bar else column  # `| option` keeps the options in one column
    for index, piece in enumerate(pieces):
        if not current:
            current = piece if index == 0 else ("| " + piece if bar else piece)
            continue
        joined = current + (" | " if bar else "; ") + piece
        end = ";" if not bar and index < len(pieces) - 1 else ""
        if _indent(lines, column, start) + len(joined + end) <= width:
            current = joined
            continue
        lines.extend(_placed(current + ("" if bar else ";"), lines, column, start, width))
        current = "| " + piece if bar else piece
    lines.extend(_placed(current, lines, column, start, width))
    return lines


def _indent(lines: list[str], column: int, start: int) -> int:
    """Where the line being filled starts: the first at `column`, the others at `start`."""
    return column if not lines else start


def _placed(text: str, lines: list[str], column: int, start: int, width: int) -> list[str]:
    """One filled line (and its own breaks, when it is a single piece too long for a line)."""
    first = not lines
    at = column if first else start
    bar = text.startswith("| ")
    body = text[2:] if bar and not first else text
    inner = lay_out(body, at + (2 if bar and not first else 0), width)
    if bar and not first:
        inner[0] = "| " + inner[0]
    if first:
        return [inner[0]] + inner[1:]
    return [" " * at + inner[0]] + inner[1:]


def _indented(lines: list[str], column: int) -> list[str]:
    return [" " * column + lines[0]] + lines[1:]


def _block(text: str, column: int, width: int) -> list[str]:
    """Break inside the first `{ }` block at the top level: `head { content } tail`, the content laid out from
    the column after `{ `, so that its options line up under the `{`."""
    found = _first_block(text)
    if found is None:
        return [text]
    opened, closed = found
    head, content, tail = text[:opened], text[opened + 2:closed - 1], text[closed + 1:]
    lines = lay_out(content, column + opened + 2, width - 2 - len(tail))
    lines[0] = head + "{ " + lines[0]
    lines[-1] += " }" + tail
    return lines


def _first_block(text: str) -> tuple[int, int] | None:
    """The offsets of the first top-level `{ ` and of its matching ` }`, or None."""
    depth, opened, quoted = 0, None, False
    for index, ch in enumerate(text):
        if ch == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif ch in "{(":
            if ch == "{" and depth == 0 and text[index + 1:index + 2] == " ":
                opened = index
            depth += 1
        elif ch in "})":
            depth -= 1
            if depth == 0 and opened is not None and ch == "}" and text[index - 1:index] == " ":
                return opened, index
    return None


def _split(text: str, separator: str) -> list[str]:
    """`text` split at `separator` where it stands outside blocks, parentheses and quoted names."""
    pieces, depth, quoted, start, index = [], 0, False, 0, 0
    while index < len(text):
        ch = text[index]
        if ch == '"':
            quoted = not quoted
        elif not quoted:
            if ch in "{(":
                depth += 1
            elif ch in "})":
                depth -= 1
            elif depth == 0 and text.startswith(separator, index):
                pieces.append(text[start:index])
                index += len(separator)
                start = index
                continue
        index += 1
    pieces.append(text[start:])
    return pieces
