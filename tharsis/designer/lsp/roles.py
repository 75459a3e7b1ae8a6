"""What a name means by the grammar rule that holds it: the NAME of `next_to` is a tile, of `tags_field` a tag.

The grammar (grammar/tharsis.lark) accepts any word where a name goes and the checker gives it its meaning; this
table says, per rule of the grammar, which of the checker's vocabularies that word comes from, so completion
offers only those words, semantic tokens colour the word by what it is, and go-to-definition knows what to look
for. The rule names are the parse tree's (aliases included: `next_to`, `on_kind`); a rule whose names mean
different things lists them by their place (`substitute#1`: the second name of `use steel as 1 megacredits`), and
a `name_list` or `string_list` is known by the rule that holds it (`name_list<tags_field`). tests/test_lsp.py
checks that every rule of the grammar that holds a name is in the table.
"""

from __future__ import annotations

from typing import Iterable, Optional

import attrs

from tharsis.compiler import vocabulary as v
from tharsis.compiler.check_effects import PRODUCTION
from tharsis.compiler.checker import ENDS_GAME, PIECE_RETURNS, RULE_DECIDERS, RULE_MOMENTS, UNPLAYABLE_TO

from .grammar_context import Holder

# Roles of NAME, by holding rule.
NAME_ROLES = {
    "set_field": "set", "type_field": "card type", "cost_field": "resource", "start_field": "resource",
    "name_list<tags_field": "tag", "holds_field": "card resource", "variant_field": "variant",
    "ends_game_field": "ends game", "unplayable_to_field": "unplayable to", "at_field": "moment", "by_field": "decider",
    "name_list<resource_declaration": "new card resource", "name_list<tag_declaration": "new tag",
    "name_list<mark_declaration": "new mark", "put_mark#0": "mark", "put_mark#1": "marked tile",
    "on_top_of": "covered tile",
    "gain": "resource", "lose": "resource", "spend": "resource", "pay": "resource", "name_list<pay": "resource",
    "delta_at_least": "production", "give": "resource",
    "steal": "resource", "delta": "production", "resource_value": "resource", "discount": "resource",
    "parameter_change": "raisable", "raises": "raised", "leeway": "leeway", "board_track": "parameter",
    "place": "tile", "places": "tile", "next_to": "neighbour", "on_kind": "space kind", "on_bonus": "bonus",
    "not_next_to": "neighbour", "tile_ban": "neighbour",
    "space": "space kind", "bonus": "bonus",
    "add": "card resource", "adds": "card resource", "with_icon": "card resource",
    "remove": "any resource", "name_list<protect": "protected",
    "another_card": "tag", "any_card": "tag", "any_card_with_resources": "tag", "any_cards": "tag",
    "player_tag": "tag", "copy_production": "tag", "reveal": "tag", "played_tag": "tag",
    "played_card": "card word", "on_cards": "tag", "per_tag": "tag",
    "tag_filter": "tag", "any_tag_filter": "tag", "lacks_tag_filter": "tag", "type_filter": "card type",
    "card_word": "card word",
    "card_zone": "zone", "card_destination": "destination", "kept_with": "kept resources",
    "kept_playable": "resource",
    "look_play": "pile kind",
    "send": "piece", "sends": "piece", "collect_bonus": "piece", "marker_offset": "piece",
    "site_holds_field": "piece", "visited_by_field": "piece", "holding_filter": "card resource",
    "cost_alternative": "resource", "card_price": "resource", "returns_field": "returns", "site_count": "players",
    "substitute#0": "any resource", "substitute#1": "resource", "substitute#2": "tag",
    "term": "quantity", "quantity_cap": "quantity",
    "advance_stages": "card kind", "resolve_stage": "card kind", "each_card": "tag", "each_card_with_resources": "tag",
    "different_cards": "tag",
    "pieces_field": "piece", "place_in_faction": "piece", "remove_piece": "piece", "replace_piece": "piece",
    "remove_tile": "tile", "replace_tile#0": "own tile", "replace_tile#1": "new tile",
    "set_list": "set", "tax#0": "resource", "tax#1": "raisable", "name_list<stages_field": "new stage",
    "ocean_bonus#0": "tile", "skip_tr": "raisable", "ocean_bonus#1": "resource", "tag_counts_as": "tag",
    "add_except": "card resource",
}

# Roles of STRING (a quoted name), by holding rule: what it names.
STRING_ROLES = {
    "card": "new definition", "corporation": "new definition", "standard_project": "new definition",
    "standard_action": "new definition", "milestone": "new definition", "award": "new definition",
    "board": "new definition", "parameter_definition": "new definition", "card_kind_definition": "new definition",
    "rule_definition": "new definition", "expansion_definition": "new definition",
    "piece_definition": "new definition", "site_definition": "new definition",
    "faction_definition": "new definition", "government_definition": "new definition",
    "place_in_faction": "faction", "ruling": "faction", "ruling_field": "faction",
    "string_list<factions_field": "faction",
    "role_field": "new role", "set_list": "set", "term": "faction", "quantity_cap": "faction",
    "set_field": "set", "place": "special tile", "replace_tile": "special tile", "reserved": "new reserved space",
    "string_list<offboard_field": "new reserved space", "board_offboard": "new reserved space",
    "string_list<board_offboard": "new reserved space",
    "string_list<milestones_field": "milestone", "string_list<board_milestones": "milestone",
    "string_list<awards_field": "award", "string_list<board_awards": "award",
    "on_reserved": "reserved space", "except_filter": "standard project", "on_standard_project": "standard project",
    "on_standard_action": "standard action", "use_project": "standard project",
    "on_action": "action",   # `discount 3 on action of "Kelvinists"`: a card, corporation or faction with an action
    "substitute": "standard project",   # `use asteroids here as 1 MC for standard project "Aquifer"`
    "place_marker": "marker", "move_marker": "marker", "next_to_marker": "marker",   # a named marker on the board
}

# The glossary's category of the words of a role (glossary.py), so hover and completion explain a word by the
# meaning it has where it is written (`plant` after `tags:` is the tag, after `gain 2` the resource).
GLOSSARY_CATEGORIES = {
    "resource": "resource", "production": "resource", "card resource": "card resource", "tag": "tag",
    "protected": "resource",
    "tile": "tile", "neighbour": "tile", "own tile": "tile", "new tile": "tile", "space kind": "space kind",
    "covered tile": "tile", "marked tile": "tile",
    "card type": "card type",
    "card kind": "card type", "pile kind": "card type",
    "variant": "variant", "raisable": "global parameter", "raised": "global parameter",
    "leeway": "global parameter", "parameter": "global parameter",
}

# The definitions a quoted name may refer to, by role (kinds as the compiled definitions spell them).
DEFINITION_KINDS = {
    "standard project": ("standard_project",),
    "standard action": ("standard_action",), "milestone": ("milestone",), "award": ("award",),
    "faction": ("faction",), "action": ("card", "corporation", "faction"),
}


def role(holders: Iterable[Holder], terminal: str = "NAME") -> Optional[str]:
    """The role of a name held by `holders` (the first one the table knows), None when none is known."""
    table = NAME_ROLES if terminal == "NAME" else STRING_ROLES
    for holder in sorted(holders, key=lambda h: (h.rule, h.ordinal, h.parent or "")):
        for key in (f"{holder.rule}<{holder.parent}", f"{holder.rule}#{holder.ordinal}", holder.rule):
            if key in table:
                return table[key]
    return None


@attrs.frozen
class Vocabulary:
    """The words a document may use: the printed ones and those declared in the content it is compiled with."""

    tags: frozenset
    card_resources: frozenset
    parameters: tuple          # global parameter names, printed and declared
    card_kinds: tuple          # declared kinds of card
    sets: tuple = ()
    pieces: tuple = ()         # declared kinds of piece
    marks: tuple = ()          # declared marks on tiles (`mark cathedral`)

    def words(self, name_role: str) -> tuple[str, ...]:
        """The words that fit a role, in the order a designer would want them (printed ones first)."""
        tags = tuple(sorted(self.tags - {"event"}, key=lambda t: (t not in v.TAGS, t)))
        card_resources = tuple(sorted(self.card_resources, key=lambda r: (r not in v.CARD_RESOURCES, r)))
        raisable = tuple(p for p in self.parameters if p != "oceans")
        table = {
            "resource": v.STANDARD_RESOURCES, "production": v.STANDARD_RESOURCES,
            "card resource": card_resources, "any resource": v.STANDARD_RESOURCES + card_resources,
            # `protect animals here`, `protect plants from opponents`, `protect production from opponents`
            "protected": v.STANDARD_RESOURCES + card_resources + (PRODUCTION,),
            "tag": tags, "tile": v.TILES + self.pieces,
            "neighbour": tuple(w for w in v.TILE_WORDS if w not in v.NAMED_TILES),
            "own tile": tuple(w for w in v.TILE_WORDS if w not in v.OCEAN_TILES),   # `replace your city tile ...`
            "covered tile": v.TILE_WORDS, "marked tile": v.TILE_WORDS,   # `on top of ocean`, `put cathedral on city`
            "mark": self.marks,
            "new tile": tuple(w for w in v.TILES if w not in v.OCEAN_TILES),        # `... with greenery`
            "piece": self.pieces, "players": ("player", "players"),
            "space kind": v.SPACE_KINDS + ("mars",), "bonus": v.BOARD_BONUSES,
            "raisable": raisable + ("tr",), "raised": raisable + ("tr", "production"),
            "leeway": ("global",) + raisable, "parameter": self.parameters,
            "card type": v.CARD_TYPES + self.card_kinds, "card kind": self.card_kinds,
            "pile kind": self.card_kinds + ("corporation",),   # `look 4 corporation cards play 1`
            "card word": v.CARD_TYPES[:2] + self.card_kinds + tags,   # a type, or a tag (`play active card`)
            "zone": ("play", "events", "hand"), "destination": ("hand", "discard", "another", "player", "here"),
            "kept resources": ("resources",),
            "variant": v.VARIANTS, "ends game": ENDS_GAME,
            "unplayable to": UNPLAYABLE_TO, "moment": tuple(RULE_MOMENTS),
            "decider": tuple(RULE_DECIDERS), "set": self.sets, "returns": tuple(PIECE_RETURNS),
        }
        return tuple(table.get(name_role, ()))

    def kind_of(self, word: str) -> Optional[str]:
        """What a word of a quantity is (`jovian` a tag, `plants` a resource), for semantic tokens; None for the
        words that only link (`on`, `here`, `in`)."""
        if v.normalize(word) in v.STANDARD_RESOURCES:
            return "resource"
        if v.lookup(word, self.card_resources):
            return "card resource"
        if word.lower() in self.parameters or word.lower() == "tr":
            return "parameter"
        if v.lookup(word, self.tags - {"event"}):
            return "tag"
        if v.singular(word) in v.TILES:
            return "tile"
        if v.lookup_piece([word], self.pieces):
            return "piece"
        return None

    def declared(self, name_role: str, word: str) -> bool:
        """Whether the word is one the content declares rather than one printed in the compiler's vocabulary."""
        if name_role in ("tag", "new tag"):
            return v.lookup(word, v.TAGS) is None
        if name_role in ("card resource", "new card resource", "any resource"):
            return v.lookup(word, v.CARD_RESOURCES) is None and v.normalize(word) not in v.STANDARD_RESOURCES
        if name_role in ("raisable", "raised", "leeway", "parameter"):
            return word.lower() not in v.GLOBAL_RANGES and word.lower() not in ("tr", "production", "global")
        if name_role in ("card type", "card kind", "pile kind"):
            return word.lower() not in v.CARD_TYPES + ("corporation",)
        if name_role in ("piece", "mark", "new mark"):
            return True
        return False


def plural_form(word: str, count: Optional[int]) -> str:
    """A resource as written after a count: `2 plants`, `1 animal`; megacredits, steel, ... never change."""
    if count is None or count == 1 or word in ("megacredits", "steel", "titanium", "energy", "heat"):
        return word
    return v.plural(word, count)
