"""Completion from the grammar: what the parser accepts at the cursor, and for a name the words of the vocabulary
its grammar rule takes.

After `place city next to ` the parser accepts a number, `your` or a name, and the name's rule (`next_to`) takes
a tile: the editor is offered `your`, `city`, `greenery`, `ocean` and `tile`, not every word of the language. At
the start of a field it is offered the fields the definition's kind accepts and has not used yet; after `per` or
in `requires:` the quantity phrases, completed as whole phrases from the words already typed (`jovian ` ->
`jovian tags`); inside quotes the names of the definitions the rule refers to (`on standard project "` and
`except "` only standard projects, `milestones: "` only milestones).
"""

from __future__ import annotations

import re
from typing import Optional, Protocol

from tharsis.compiler import effects as fx
from tharsis.compiler.checker import FIELDS, REPEATABLE
from tharsis.compiler.parser import DEFINITION_KEYWORDS
from tharsis.designer import suppressions

from . import glossary, grammar_context as grammar, roles
from .items import Completion, Range

_WORD_BEFORE = re.compile(r"[^\W\d]\w*$")
_COMPARATORS = (">=", "<=", "==", ">", "<")
_BOARD_FIELDS = ("milestones", "awards", "row", "offboard", "track")
# Roles whose names are written as phrases of several words (`at: end of generation`, `per jovian tags`).
_PHRASE_ROLES = ("quantity", "moment", "decider")
_SCOPE_WORDS = ("your", "own", "all", "any", "opponent", "opponents")   # before a quantity (compiler/quantities.py)


class Source(Protocol):
    """What completion needs to know of the document's compilation (analysis.Analysis is one)."""

    vocabulary: roles.Vocabulary
    definitions: list            # the loaded definitions, the document's own first

    def reserved_spaces(self) -> list[str]:
        """The reserved and off-board space names of the loaded boards and expansions."""

    def describe(self, definition) -> tuple[str, str]:
        """A definition's headline and its rules text in Markdown."""


def completions(text: str, line: int, character: int, source: Source) -> list[Completion]:
    lines = text.split("\n")
    before = lines[line][:character] if line < len(lines) else ""
    after = lines[line][character:] if line < len(lines) else ""
    if suppressions.comment_start(before) is not None:  # the cursor is in a comment: prose
        return []
    if before.count('"') % 2 == 1:
        return _inside_quotes(text, line, character, before, after, source)
    word = _WORD_BEFORE.search(before)
    start = word.start() if word else character
    cursor = grammar.cursor(text, line, character, start)
    if cursor is None:
        return []
    items: dict[str, Completion] = {}
    previous = cursor.tokens[-1] if cursor.tokens else None
    used = _used_fields(cursor, line)
    for terminal in sorted(cursor.accepted):
        for item in _for_terminal(terminal, cursor, previous, used, line, character, source):
            items.setdefault(item.label, item)
    return list(items.values())


def _used_fields(cursor: grammar.Cursor, line: int) -> set:
    """The fields the definition already has, before and after the cursor (not the one the cursor is on: its
    key is what is being completed)."""
    return {field for field, at_line, at_character in grammar.fields_written(cursor.definition)
            if (at_line, at_character) != (line, cursor.start)}


def _for_terminal(terminal: str, cursor: grammar.Cursor, previous, used: set, line: int, character: int,
                  source: Source) -> list[Completion]:
    field = grammar.field_name(terminal)
    if field is not None:
        return _fields(field, cursor.reading.definition.kind, used)
    if terminal == "NAME":
        return _names(cursor, line, character, source)
    if terminal == "STRING":
        role = roles.role(cursor.holders("STRING"), "STRING")
        return _quoted(role, None, True, source, quote=True)
    if terminal == "COMPARATOR":
        return [Completion(symbol, "operator", "a comparison") for symbol in _COMPARATORS]
    return [_keyword(word) for word in grammar.spoken(terminal, previous)]


def _keyword(word: str) -> Completion:
    first = word.split()[0]
    meanings = [entry for entry in glossary.lookup(first) if entry.category in ("effect", "definition")]
    if meanings and first in DEFINITION_KEYWORDS:
        return Completion(word, "definition", meanings[0].meaning)
    if meanings:
        return Completion(word, "keyword", meanings[0].syntax, "\n\n".join(
            f"`{entry.syntax}`: {entry.meaning}" for entry in meanings))
    return Completion(word, "keyword", "keyword")


def _fields(field: str, kind: Optional[str], used: set) -> list[Completion]:
    """A field key, if the definition's kind accepts the field and has not used it yet."""
    accepted = FIELDS[kind][0] if kind in FIELDS else (_BOARD_FIELDS if kind == "board" else ())
    if field not in accepted:
        return []
    if field in used and field not in REPEATABLE and kind != "board":  # a board has many rows
        return []
    meaning = glossary.FIELD_MEANINGS.get(field, "")
    return [Completion(field, "field", f"{field}:", meaning, insert_text=f"{field}: ")]


def _names(cursor: grammar.Cursor, line: int, character: int, source: Source) -> list[Completion]:
    """The words a name may be here: those of its rule's vocabulary."""
    role = roles.role(cursor.holders("NAME"))
    if role is None:
        return []
    if role in _PHRASE_ROLES:
        return _phrases(role, cursor, line, character, source)
    count = _count_before(cursor)
    items = []
    for word in source.vocabulary.words(role):
        shown = roles.plural_form(word, count) if role in ("resource", "card resource", "any resource") else word
        items.append(Completion(shown, role, *_meaning(word, role, source)))
    return items


def _count_before(cursor: grammar.Cursor) -> Optional[int]:
    """The number just before the cursor (`gain 2 `: 2), to write the resource in its plural."""
    if cursor.tokens and cursor.tokens[-1].type == "INT":
        return int(cursor.tokens[-1].text)
    return None


def _meaning(word: str, role: str, source: Source) -> tuple[str, str]:
    vocabulary = source.vocabulary
    entries = glossary.lookup(word, vocabulary.tags, vocabulary.card_resources,
                              parameters=None, card_kinds=vocabulary.card_kinds)
    chosen = [e for e in entries if e.category == roles.GLOSSARY_CATEGORIES.get(role)] or entries
    if not chosen:
        return role, ""
    return chosen[0].category, chosen[0].meaning


def _phrases(role: str, cursor: grammar.Cursor, line: int, character: int, source: Source) -> list[Completion]:
    """Whole phrases that begin with the words of the phrase already typed; each replaces those words."""
    vocabulary = source.vocabulary
    if role == "quantity":
        phrases = glossary.quantity_phrases(vocabulary.tags, vocabulary.card_resources, vocabulary.parameters)
    else:
        phrases = {phrase: role for phrase in vocabulary.words(role)}
    typed = []
    for token in reversed(cursor.tokens):
        if token.type not in ("NAME", "INT") or token.line != line:
            break
        typed.insert(0, token)
    while typed and typed[0].type == "INT":  # a divisor (`per 2 animals here`) is not part of the phrase
        typed.pop(0)
    if role == "quantity" and len(typed) > 1 and typed[0].text.lower() in _SCOPE_WORDS:
        typed.pop(0)   # `all plants removed ...`: the scope word stays, the phrase after it is completed
    words = [token.text.lower() for token in typed]
    replace = Range(line, typed[0].character, line, character) if typed else None
    detail = "a quantity" if role == "quantity" else role
    return [Completion(phrase, role, detail, meaning if role == "quantity" else "",
                       insert_text=phrase if typed else None, replace=replace)
            for phrase, meaning in phrases.items()
            if phrase.split()[:len(words)] == words and len(phrase.split()) > len(words)]


# ---------------------------------------------------------------------------------------------- quoted names

def _inside_quotes(text: str, line: int, character: int, before: str, after: str,
                   source: Source) -> list[Completion]:
    quote = before.rindex('"')
    cursor = grammar.cursor(text, line, character, quote)
    replace = Range(line, quote + 1, line, character)
    closing = not after.startswith('"')
    if cursor is not None and "STRING" in cursor.accepted:
        return _quoted(roles.role(cursor.holders("STRING"), "STRING"), replace, closing, source)
    if cursor is not None:
        return []
    return _quoted("any definition", replace, closing, source)  # the definition cannot be read: every name


def _quoted(role: Optional[str], replace: Optional[Range], closing: bool, source: Source,
            quote: bool = False) -> list[Completion]:
    """The names a quoted name may be, for its role; `quote`: the opening quote is to be written too."""
    opening = '"' if quote else ""
    end = '"' if closing or quote else ""
    if role == "reserved space":
        return [Completion(name, "name", "a reserved space of the loaded boards", insert_text=opening + name + end,
                           replace=replace) for name in sorted(set(source.reserved_spaces()))]
    if role == "set":
        return [Completion(name, "set", "a set of the loaded content", insert_text=opening + name + end,
                           replace=replace) for name in source.vocabulary.sets]
    if role == "marker":
        return [Completion(name, "name", "a marker the loaded content places", insert_text=opening + name + end,
                           replace=replace) for name in _marker_names(source.definitions)]
    if role not in roles.DEFINITION_KINDS and role != "any definition":
        return []
    kinds = roles.DEFINITION_KINDS.get(role)
    seen, items = set(), []
    for definition in source.definitions:  # the document's own first: a name it defines is the one it means
        if definition.name in seen or (kinds and definition.kind not in kinds):
            continue
        if role == "action" and not getattr(definition, "actions", None):   # only what has an action to discount
            continue
        seen.add(definition.name)
        headline, markdown = source.describe(definition)
        items.append(Completion(definition.name, "card" if definition.kind in ("card", "corporation") else "name",
                                headline, markdown, insert_text=opening + definition.name + end, replace=replace))
    return items


def _marker_names(definitions) -> list[str]:
    """The names of the markers the definitions place (`place marker "Nomad"`), for `move marker "` and `next to
    marker "`."""
    names = set()
    for definition in definitions:
        runs = (getattr(definition, "play", None) or (), getattr(definition, "first_action", None) or (),
                getattr(definition, "passives", None) or (),
                *(option.cost + option.effects for option in getattr(definition, "actions", None) or ()))
        names.update(e.name for run in runs for e in fx.walk(run) if isinstance(e, fx.PlaceMarker))
    return sorted(names)
