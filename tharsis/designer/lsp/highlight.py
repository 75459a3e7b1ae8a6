"""Semantic tokens: every token of a card file coloured by what the grammar and the vocabulary make of it.

The TextMate grammar (grammar/tharsis.tmLanguage.json) colours words by their spelling alone; the server knows
more: `plant` after `tags:` is a tag and after `gain 2` a resource, a quoted name after `standard project` refers
to a definition, a declared tag is a tag. Token types are the protocol's standard ones, so every theme colours
them: keywords, field keys (`property`), definition names (`class`, `declaration` on the definition itself),
quoted text (`string`), numbers, comments, operators, tags and kinds of card (`type`), global parameters
(`variable`), resources, tiles and the other closed words (`enumMember`). Words of the printed vocabulary carry
`defaultLibrary`, declared ones do not. A definition that does not parse is coloured up to where it breaks.
"""

from __future__ import annotations

from tharsis.designer import suppressions

from . import grammar_context as grammar, roles
from .items import SemanticToken

TOKEN_TYPES = ("keyword", "property", "class", "string", "number", "comment", "operator", "type", "variable",
               "enumMember")
TOKEN_MODIFIERS = ("declaration", "defaultLibrary")

_NUMBERS = ("INT", "SIGNED", "SIGNED_INT", "VALUE", "CARD_NUMBER", "X", "MULTIPLE_X")
_OPERATORS = ("->", "+", "|", ">=", "<=", "==", ">", "<", "+-", "±")
_NAME_TYPES = {
    "tag": "type", "new tag": "type", "card type": "type", "card kind": "type", "pile kind": "type",
    "card word": "type",
    "raisable": "variable", "raised": "variable", "leeway": "variable", "parameter": "variable",
}
_STRING_TYPES = {"new definition": "class", "standard project": "class",
                 "standard action": "class", "milestone": "class", "award": "class"}


def tokens(text: str, vocabulary: roles.Vocabulary) -> list[SemanticToken]:
    """The document's semantic tokens in order (one line each: no token of the language spans lines)."""
    found: list[SemanticToken] = []
    for reading in grammar.read_all(text):
        for token in reading.tokens:
            semantic = _classify(token, vocabulary)
            if semantic is not None:
                found.append(semantic)
    for number, line in enumerate(text.split("\n")):
        start = suppressions.comment_start(line)
        if start is not None:
            found.append(SemanticToken(number, start, len(line) - start, "comment"))
    return sorted(found, key=lambda t: (t.line, t.character))


def _classify(token: grammar.Token, vocabulary: roles.Vocabulary):
    def make(kind: str, *modifiers: str) -> SemanticToken:
        return SemanticToken(token.line, token.character, token.end_character - token.character, kind, modifiers)

    if token.line != token.end_line:
        return None
    if grammar.field_name(token.type):
        return make("property")
    if token.type in _NUMBERS:
        return make("number")
    if token.text in _OPERATORS:
        return make("operator")
    if token.type == "STRING":
        role = roles.role(token.holders, "STRING")
        kind = _STRING_TYPES.get(role, "string")
        return make(kind, "declaration") if role == "new definition" else make(kind)
    if token.type == "NAME":
        role = roles.role(token.holders)
        if role == "quantity":
            role = vocabulary.kind_of(token.text)
        if role is None:
            return None
        kind = _NAME_TYPES.get(role, "enumMember")
        modifiers = ("declaration",) if role.startswith("new ") else ()
        if not role.startswith("new ") and not vocabulary.declared(role, token.text):
            modifiers += ("defaultLibrary",)
        return make(kind, *modifiers)
    if grammar.spoken(token.type) or token.type in grammar.VERBS or token.type in ("OWNER", "UP_TO"):
        return make("keyword")
    return None
