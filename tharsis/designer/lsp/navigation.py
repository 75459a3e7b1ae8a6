"""Go-to-definition and the document's outline.

A name leads to where it is defined, in the bundled content or the designer's own files alike: a quoted name to
its definition (`discount 1 on standard project "Power Plant"` and `except "Sell Patents"` to the standard
project, a board's milestone to the milestone, `on reserved "Noctis City"` to the board space reserved for it), a
declared tag or card resource to its `tag`/`resource` declaration, a declared global parameter to its
`parameter` definition, a declared kind of card to its `card kind` and a set to its `expansion`, wherever the
grammar puts the word (`tags:`, `holds:`, `add 1 balloon`, `per radiation tag`, a quantity's words). The grammar
rule that holds the word says what it is (roles.py); words of the printed vocabulary (`building`, `plants`) have
no definition in text.
"""

from __future__ import annotations

import re
from typing import Iterable, Optional

from tharsis.compiler import vocabulary as v
from tharsis.compiler.diagnostics import Span

from . import grammar_context as grammar, roles
from .items import Location, Range, Symbol

_DECLARATION = re.compile(r"^(resource|tag)[ \t]+([^\n/]+?)(?:[ \t]+as[ \t]+any[ \t]+tag\b)?[ \t]*(?=//|$)", re.M)
_TAG_ROLES = ("tag", "new tag")
_RESOURCE_ROLES = ("card resource", "new card resource", "any resource")
_PARAMETER_ROLES = ("raisable", "raised", "leeway", "parameter")
_KIND_ROLES = ("card type", "card kind", "pile kind")
_KIND_NAMES = {"card": "card", "corporation": "corporation", "standard_project": "standard project",
               "standard_action": "standard action", "milestone": "milestone", "award": "award", "board": "board",
               "parameter": "parameter", "card_kind": "card kind", "rule": "rule", "expansion": "expansion"}


def token_at(text: str, line: int, character: int) -> Optional[grammar.Token]:
    """The token under the position (the one ending there too, as editors place the cursor after a word)."""
    for reading in grammar.read_all(text):
        definition = reading.definition
        if not definition.line <= line <= definition.line + definition.text.count("\n"):
            continue
        for token in reading.tokens:
            if token.line == line and token.character <= character <= token.end_character:
                return token
    return None


def definition(text: str, line: int, character: int, definitions: list, sources: dict[str, str]) -> list[Location]:
    """Where the name under the position is defined; [] when it names nothing defined in text."""
    token = token_at(text, line, character)
    if token is None or token.type not in ("NAME", "STRING"):
        return []
    if token.type == "STRING":
        role = roles.role(token.holders, "STRING")
        name = token.text[1:-1].strip()
        if role == "reserved space":
            return _reserved(name, sources)
        if role == "set":
            return _expansion(name, definitions)
        if role in ("new definition", "new reserved space", "special tile"):
            return []
        kinds = roles.DEFINITION_KINDS.get(role)
        return [_location(d.source) for d in definitions
                if d.name.casefold() == name.casefold() and (kinds is None or d.kind in kinds)]
    role = roles.role(token.holders)
    word = token.text
    if role == "set":
        return _expansion(word, definitions)
    found: list[Location] = []
    if role in _TAG_ROLES or role in ("quantity", None):
        found += _declared(word, "tag", sources)
    if role in _RESOURCE_ROLES or role in ("quantity", None):
        found += _declared(word, "resource", sources)
    if role in _PARAMETER_ROLES or role in ("quantity", None):
        found += [_location(d.source) for d in definitions if d.kind == "parameter" and d.name == word.lower()]
    if role in _KIND_ROLES or role is None:
        found += [_location(d.source) for d in definitions if d.kind == "card_kind" and d.name == word.lower()]
    return list(dict.fromkeys(found))


def _expansion(name: str, definitions: list) -> list[Location]:
    """A set is an expansion's when one is declared with its name (`set: NAME`, `expansion "NAME"`)."""
    return [_location(d.source) for d in definitions if d.kind == "expansion" and d.name.lower() == name.lower()]


def _location(span: Span) -> Location:
    return Location(span.path, Range(span.line - 1, span.column - 1, span.end_line - 1, span.end_column - 1))


def _declared(word: str, kind: str, sources: dict[str, str]) -> list[Location]:
    """The `tag`/`resource` declarations of the word (`floaters` is the card resource `floater`)."""
    found = []
    for path, text in sources.items():
        if kind + " " not in text and kind + "\t" not in text:
            continue
        for match in _DECLARATION.finditer(text):
            if match.group(1) != kind:
                continue
            line = text.count("\n", 0, match.start())
            offset = match.start(2) - match.start()
            for name in re.finditer(r"[^,\s][^,]*", match.group(2)):
                written = name.group().strip()
                if v.lookup(word, {written.lower()}):
                    column = offset + name.start()
                    found.append(Location(path, Range(line, column, line, column + len(written))))
    return found


def _reserved(name: str, sources: dict[str, str]) -> list[Location]:
    """The board spaces (`reserved "Noctis City"`) and off-board spaces (`offboard: "Ganymede Colony"`) named so."""
    quoted = re.escape('"' + name + '"')
    pattern = re.compile(r'\breserved[ \t]+(%s)|^[ \t]*offboard[ \t]*:[^\n]*?(%s)' % (quoted, quoted),
                         re.M | re.I)
    found = []
    for path, text in sources.items():
        if name not in text:
            continue
        for match in pattern.finditer(text):
            group = 1 if match.group(1) else 2
            line = text.count("\n", 0, match.start(group))
            column = match.start(group) - (text.rfind("\n", 0, match.start(group)) + 1)
            found.append(Location(path, Range(line, column, line, column + len(match.group(group)))))
    return found


# ---------------------------------------------------------------------------------------------- the outline

def symbols(text: str, headline) -> list[Symbol]:
    """The document's definitions, each with its fields; `headline(kind, name)` is the detail shown beside a
    definition (its cost and type, from what was compiled), None when it did not compile."""
    found = []
    for reading in grammar.read_all(text):
        part, tokens = reading.definition, reading.tokens
        if part.kind is None or not tokens:
            continue
        if part.kind in ("resource", "tag"):
            found += _declaration_symbols(part.kind, tokens)
            continue
        name = next((t for t in tokens if t.type == "STRING"), None)
        if name is None:
            continue
        label = name.text[1:-1]
        found.append(Symbol(label, part.kind, headline(part.kind, label) or _KIND_NAMES.get(part.kind, part.kind),
                            _extent(tokens), _range(name), tuple(_fields(tokens))))
    return found


def _declaration_symbols(kind: str, tokens: Iterable[grammar.Token]) -> list[Symbol]:
    role = "card resource" if kind == "resource" else "tag"
    return [Symbol(t.text, role, f"{kind} declaration", _range(t), _range(t)) for t in tokens if t.type == "NAME"]


def _extent(tokens: tuple) -> Range:
    """From the definition's first token to its last one read (its closing brace when it parses)."""
    first, last = tokens[0], tokens[-1]
    return Range(first.line, first.character, last.end_line, last.end_character)


def _fields(tokens: tuple) -> list[Symbol]:
    """Each field of a definition, from its key to the token before the next key."""
    keys = [index for index, token in enumerate(tokens) if grammar.field_name(token.type)]
    fields = []
    for number, index in enumerate(keys):
        key = tokens[index]
        end = keys[number + 1] - 1 if number + 1 < len(keys) else len(tokens) - 1
        while end > index and tokens[end].type == "RBRACE":
            end -= 1
        last = tokens[end]
        value = " ".join(t.text for t in tokens[index + 1:end + 1])
        fields.append(Symbol(grammar.field_name(key.type), "field", value if len(value) <= 60 else value[:57] + "...",
                             Range(key.line, key.character, last.end_line, last.end_character), _range(key)))
    return fields


def _range(token: grammar.Token) -> Range:
    return Range(token.line, token.character, token.end_line, token.end_character)
