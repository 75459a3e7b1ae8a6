"""Canonical layout of card files (`tharsis fmt`): every card and corporation rewritten as the canonical card
text that compiler/text.py generates from what was compiled (the same text as `tharsis cards --format text`): the
words as the docs and the bundled cards write them (`production(plants +1)`, `when any player places`, `gain 1 MC`),
a field too long for a line broken where compiler/layout.py says. The bundled cards are in this text (a test runs
`tharsis fmt --check cards`), so a card copied from them or from the docs is already formatted.

Formatting must never lose information, so:
- only files that compile without errors are formatted (the canonical text comes from the compiled cards);
- comments between definitions, and after a definition's closing brace, are kept (only their blank lines and
  trailing spaces are normalised: one blank line between definitions, none between one-line definitions written
  together); other definitions (boards, milestones, awards, standard projects, declarations)
  are kept as written, since compiler/text.py has no canonical text for them;
- comments inside a card or corporation move with their field: a comment at the end of a line stays at the end
  of the canonical line of the field written on it, a comment on a line of its own goes above the field that
  follows it; on a field broken over several lines, a comment written at the field's end goes at the end of its
  last line. A suppression (`// tharsis: ignore[W102]`) on a line that holds several fields goes with the field
  whose warning it silences, so it keeps silencing it, and keeps that field on one line. When two end-of-line
  comments would land on the same canonical line, or a field has no canonical line to carry its comment, the file
  is refused with the comment's position (E805) rather than formatted without it;
- before anything is written, the formatted files are compiled again next to each other (and next to the bundled
  content when `tharsis check` would load it) and must give the same definitions, field for field, and the same
  warnings once suppressions are honoured; otherwise the file is refused (E806), which would be a bug to report.

Formatting is idempotent: a formatted file formats to itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Optional, Sequence

import attrs

from tharsis.compiler.diagnostics import Diagnostic, Diagnostics, Span
from tharsis.designer import suppressions

FORMATTED_KINDS = ("card", "corporation")


@attrs.define
class Formatted:
    """One file: its text before, after (None when refused), and why it was refused."""

    path: str
    original: str
    text: Optional[str]
    problems: list[Diagnostic] = attrs.field(factory=list)

    @property
    def changed(self) -> bool:
        return self.text is not None and self.text != self.original


@attrs.define
class Run:
    files: list[Formatted]
    compile_errors: list[Diagnostic]     # why the files with errors were not formatted
    sources: dict[str, str]


def format_paths(paths: Iterable, *, with_bundled: bool = False) -> Run:
    """Format every .mars file under `paths`, compiled together as `tharsis check` would (`with_bundled`: next to
    the bundled content, whose boards decide which reserved spaces are warned about); a file given alone is
    compiled with the other card files of its folder, which are not formatted."""
    from tharsis.compiler import compile_paths
    from tharsis.compiler.pipeline import find_files, with_neighbours

    paths = [Path(p) for p in paths]
    # a file given alone is compiled with the card files of its folder (their declarations), formatted alone
    result = compile_paths(with_neighbours(paths), with_bundled=with_bundled)
    own = {str(path) for path in find_files(paths, Diagnostics())}
    return format_sources({path: text for path, text in result.sources.items() if path in own}, result)


def format_sources(sources: dict[str, str], result=None) -> Run:
    """Format texts compiled as one set; `result` is their compilation when the caller already has it (it may
    hold more files, e.g. the bundled content: those are compiled with them but not formatted)."""
    from tharsis.compiler.pipeline import compile_sources

    if result is None:
        result = compile_sources(sources)
    errors = [d for d in result.errors if d.span is not None and d.span.path in sources]
    broken = {d.span.path for d in errors}
    by_name = {(d.source.path, d.source.line, d.source.column): d for d in result.library.definitions}
    warnings: dict[tuple[str, int], list[Diagnostic]] = {}
    for d in result.warnings:
        if d.span is not None:
            warnings.setdefault((d.span.path, d.span.line), []).append(d)
    files = []
    for path, text in sources.items():
        if path in broken:
            files.append(Formatted(path, text, None))
            continue
        files.append(_format_file(path, text, by_name, warnings))
    _verify(files, result)
    return Run(files, errors, result.sources)


def format_text(text: str, path: str = "<text>", *, with_bundled: bool = False) -> str:
    """The canonical text of one file (tests and tools); raises ValueError when it cannot be formatted."""
    from tharsis.compiler import compile_text

    run = format_sources({path: text}, compile_text(text, path, with_bundled=with_bundled))
    formatted = run.files[0]
    if formatted.text is None:
        problems = run.compile_errors + formatted.problems
        raise ValueError("; ".join(f"{d.code}: {d.message}" for d in problems))
    return formatted.text


# --------------------------------------------------------------------------------------------- one file

def _format_file(path: str, text: str, by_name: dict, warnings: dict) -> Formatted:
    from tharsis.compiler import text as canonical
    from tharsis.compiler.parser import parse

    nodes = parse(path, text, Diagnostics())
    starts = line_starts(text)
    offset = lambda line, column: starts[line - 1] + column - 1  # noqa: E731 (1-based line/column -> index)
    problems: list[Diagnostic] = []
    parts: list[str] = []
    cursor = 0
    previous_one_line = False
    for index, node in enumerate(nodes):
        start, end = offset(node.span.line, node.span.column), offset(node.span.end_line, node.span.end_column)
        region = text[start:end]
        if node.kind in FORMATTED_KINDS:
            name = node["name"].span
            definition = by_name.get((name.path, name.line, name.column))
            if definition is None:  # compiled to nothing without an error: nothing to render it from
                problems.append(Diagnostic("E806", "error", f"not formatted: {node.kind} {node['name'].text} "
                                                            "has no compiled form to write", name,
                                           "this is a bug in tharsis fmt; please report it with the file"))
                continue
            rendered = _with_comments(node, canonical.card(definition), text, starts, warnings)
            if isinstance(rendered, Diagnostic):
                problems.append(rendered)
                continue
        else:
            rendered = "\n".join(line.rstrip() for line in region.split("\n"))
        one_line = "\n" not in rendered
        parts.append(_gap(text[cursor:start], first=index == 0, tight=previous_one_line and one_line))
        parts.append(rendered)
        cursor, previous_one_line = end, one_line
    if problems:
        return Formatted(path, text, None, problems)
    parts.append(_tail(text[cursor:], empty=not nodes))
    return Formatted(path, text, "".join(parts))


def line_starts(text: str) -> list[int]:
    """The index in `text` where each line starts (0 first): spans' lines and columns to offsets."""
    starts = [0]
    for index, ch in enumerate(text):
        if ch == "\n":
            starts.append(index + 1)
    return starts


# which canonical line (by its key) carries each field of the source
_FIELD_LINE = {"set_field": "set", "type_field": "type", "cost_field": "cost", "start_field": "start",
               "variant_field": "variant", "tags_field": "tags", "holds_field": "holds", "requires_field": "requires",
               "play_field": "play", "first_action_field": "first action", "action_field": "action",
               "effect_field": "effect", "vp_field": "vp"}


def _with_comments(node, rendered: str, text: str, starts: list[int], warnings: dict):
    """The canonical text of one card with the comments written inside it moved to their fields' lines, or the
    E805 diagnostic that says which comment has no place to go. `warnings`: the warnings by (path, line), which
    tell where a suppression comment must go.

    A field the canonical text breaks over several lines (compiler/layout.py) takes an end-of-line comment written
    at the end of the field at the end of its last line, and one written on an earlier line of the field at the end
    of its first line; a suppression keeps its field on one line, since it silences only the warnings positioned on
    its own line."""
    from tharsis.compiler.syntax import Node

    groups: list[list[str]] = []  # each canonical line with the lines that continue it
    for line in rendered.split("\n"):
        if groups and line.startswith("   "):  # continuation lines are indented past their field's key
            groups[-1].append(line)
        else:
            groups.append([line])
    slots: dict[str, list[int]] = {}
    for index, group in enumerate(groups[1:-1], start=1):  # "  type: active  cost: 3  tags: science" has three
        for key in {part.partition(":")[0] for part in group[0].strip().split("  ")}:
            slots.setdefault(key, []).append(index)
    fields = [child for child in node.children if isinstance(child, Node)]
    used: dict[str, int] = {}
    placed: list[tuple[Node, int | None]] = []
    for field in fields:
        key = _FIELD_LINE.get(field.kind, "")
        nth = used.get(key, 0) if key == "effect" else 0
        used[key] = nth + 1
        found = slots.get(key, [])
        placed.append((field, found[nth] if nth < len(found) else None))
    above: dict[int, list[str]] = {}
    ends: list[tuple[int, bool, str, Span]] = []  # (group, on its last line, comment, where it was written)
    one_line: set[int] = set()  # groups kept on one line for a suppression
    closing = len(groups) - 1
    for number in range(node.span.line, node.span.end_line + 1):
        line = text[starts[number - 1]:starts[number] - 1 if number < len(starts) else len(text)]
        if number == node.span.end_line:  # what follows the closing brace belongs to the gap after it
            line = line[:node.span.end_column - 1]
        start = suppressions.comment_start(line)
        if start is None:
            continue
        comment = line[start:].strip()
        where = Span(node.span.path, number, start + 1, number, len(line) + 1)
        if not line[:start].strip():  # a comment line of its own: above the next field
            target = next((index for field, index in placed if field.span.line > number), closing)
            if target is None:
                return _refuse(node, where, "the field after it has no line of its own in the canonical text")
            above.setdefault(target, []).append(comment)
            continue
        on_line = [(field, index) for field, index in placed if field.span.line <= number <= field.span.end_line]
        silenced = _silenced_lines(node.span.path, line, warnings.get((node.span.path, number), ()), on_line)
        if len(silenced) > 1:
            return _refuse(node, where, "the warnings it silences belong to fields that go on different lines",
                           "write those fields on lines of their own, each with its own suppression")
        last = False
        if silenced:  # a suppression goes where the warning it silences goes, or it would silence nothing
            target = silenced.pop()
            one_line.add(target)
        else:
            target = on_line[-1][1] if on_line else (0 if number == node.span.line else None)
            last = bool(on_line) and number == on_line[-1][0].span.end_line
        if target is None:
            return _refuse(node, where, "the field it follows has no line of its own in the canonical text")
        ends.append((target, last, comment, where))
    for index in one_line:
        groups[index] = [" ".join([groups[index][0]] + [line.strip() for line in groups[index][1:]])]
    after: dict[tuple[int, bool], str] = {}
    for target, last, comment, where in ends:
        place = (target, last and len(groups[target]) > 1)
        if place in after:
            return _refuse(node, where, "another end-of-line comment already goes on that field's line")
        after[place] = comment
    out = []
    for index, group in enumerate(groups):
        out.extend("  " + comment for comment in above.get(index, []))
        for position, line in enumerate(group):
            comment = after.get((index, position > 0 and position == len(group) - 1)) \
                if position in (0, len(group) - 1) else None
            out.append(line + ("  " + comment if comment else ""))
    return "\n".join(out)


def _silenced_lines(path: str, line: str, warnings, on_line) -> set:
    """The canonical lines (indexes; None for a field without one) of the fields on this source line that hold a
    warning the line's suppression comment silences (a suppression silences warnings positioned on its line)."""
    found, _ = suppressions.find(path, line)
    codes = [code for suppression in found for code, _ in suppression.codes]
    lines = set()
    for warning in warnings:
        if not any(warning.code.startswith(code) for code in codes):
            continue
        at = (warning.span.line, warning.span.column)
        lines.update(index for field, index in on_line
                     if (field.span.line, field.span.column) <= at < (field.span.end_line, field.span.end_column))
    return lines


def _refuse(node, where: Span, why: str,
            hint: str = "move the comment above the definition, or onto a line of its own") -> Diagnostic:
    return Diagnostic("E805", "error", f"not formatted: the comment inside {node.kind} {node['name'].text} "
                                       f"would be lost ({why})", where, hint)


def _tidy(lines: Sequence[str]) -> list[str]:
    """Comment lines between definitions: stripped, no leading blank line, runs of blank lines made one."""
    out: list[str] = []
    for line in (line.strip() for line in lines):
        if not line and (not out or not out[-1]):
            continue
        out.append(line)
    return out


def _gap(gap: str, first: bool, tight: bool = False) -> str:
    """What goes before a definition: the end of the previous one's last line (a trailing comment), one blank
    line, and the comments written between them. `tight`: both definitions are one line long (`tag venus`,
    `resource floater`, a one-line milestone and award), and a run of them written without blank lines keeps
    them together, as a list of declarations reads."""
    lines = gap.split("\n")
    if first:
        return "".join(line + "\n" for line in _tidy(lines[:-1]))
    trailing = " " + lines[0].strip() if lines[0].strip() else ""
    between = lines[1:-1]
    if tight and all(line.strip() for line in between):
        return trailing + "\n" + "".join(line.strip() + "\n" for line in between)
    return trailing + "\n\n" + "".join(line + "\n" for line in _tidy(between))


def _tail(tail: str, empty: bool) -> str:
    lines = tail.split("\n")
    if empty:  # a file of comments only
        body = _tidy(lines)
        while body and not body[-1]:
            body.pop()
        return "".join(line + "\n" for line in body)
    trailing = " " + lines[0].strip() if lines[0].strip() else ""
    body = _tidy(lines[1:])
    while body and not body[-1]:
        body.pop()
    return trailing + "\n" + "".join(("\n" if i == 0 else "") + line + "\n" for i, line in enumerate(body))


# ------------------------------------------------------------------------------------ the safety net

def _verify(files: list[Formatted], before) -> None:
    """Compile the formatted texts next to each other and the rest of `before` (the bundled content, when it was
    loaded); a file whose definitions, comments or reported warnings changed is refused."""
    from tharsis.compiler.pipeline import compile_sources

    changed = {f.path: f for f in files if f.changed}
    if not changed:
        return
    texts = {path: changed[path].text if path in changed else text for path, text in before.sources.items()}
    after = compile_sources(texts, volatile=changed)  # the formatted texts compiled afresh, the others as they were
    for formatted in changed.values():
        old = _essence(before.library.definitions, formatted.path)
        new = _essence(after.library.definitions, formatted.path)
        new_errors = [d for d in after.errors if d.span is not None and d.span.path == formatted.path]
        lost = sorted(_comments(formatted.original)) != sorted(_comments(formatted.text))
        warned = _reported(before, formatted.path) != _reported(after, formatted.path)
        if old != new or new_errors or lost or warned:
            what = ("its comments" if lost else "what it compiles to" if old != new or new_errors else
                    "the warnings tharsis check reports")
            formatted.problems.append(Diagnostic(
                "E806", "error", f"not formatted: the canonical text would change {what}",
                Span.point(formatted.path, 1, 1), "this is a bug in tharsis fmt; please report it with the file"))
            formatted.text = None


def _reported(result, path: str) -> list[tuple[str, str]]:
    """The warnings `tharsis check` reports on one file once its suppression comments are honoured (W801 and W802
    included), by code and words: formatting moves their positions, never what they say."""
    own = [d for d in result.diagnostics if d.span is not None and d.span.path == path]
    return sorted((d.code, d.message) for d in suppressions.apply(own, result.sources, [path]) if not d.is_error)


def _essence(definitions, path: str) -> list[dict]:
    """A file's definitions without their positions (which formatting moves)."""
    out = []
    for definition in definitions:
        if definition.source.path != path:
            continue
        fields = attrs.asdict(definition, recurse=False)
        fields.pop("source", None)
        if "reference_spans" in fields:
            fields["reference_spans"] = tuple(name for name, _ in fields["reference_spans"])
        for key in [k for k in fields if k.endswith("_spans") and k != "reference_spans"]:
            del fields[key]  # where each name of a list is written (`after:`, `needs:`, `on STAGE:`)
        out.append(fields)
    return out


def _comments(text: str) -> list[str]:
    comments = []
    for line in text.split("\n"):
        start = suppressions.comment_start(line)
        if start is not None:
            comments.append(line[start:].strip())
    return comments
