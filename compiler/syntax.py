"""The abstract syntax tree: the parse tree with every node carrying its source span.

Pipeline place: parser.py (text -> Lark tree) -> **syntax.py** (Lark tree -> AST) -> checker.py (AST -> compiled
definitions). The tree keeps the grammar's rule names as node kinds; the checker gives them meaning. Nodes are
generic (a kind, children, a span), and `CHILDREN` names the children of each rule the compiler reads (an
effect verb's checker names its own rule's, compiler/check_effects.py), so the checker asks for
`node["resource"]`, never for the second child: a rule that gains an optional word then needs one line changed,
not a hunt for every position read after it. `Node.named` is the one place that reads children
by position (tests/test_syntax_children.py matches the table against every node of the bundled content).
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Any, Iterator, Optional, Union

import attrs
from lark import Token, Tree

from .diagnostics import Span


@attrs.frozen
class Leaf:
    """One token: `type` is the grammar terminal (NAME, INT, STRING, ...), `text` its source text."""

    type: str
    text: str
    span: Span

    @property
    def value(self) -> str:
        return self.text[1:-1] if self.type == "STRING" else self.text


@attrs.frozen
class Node:
    kind: str
    children: tuple["Child", ...]
    span: Span

    def __getitem__(self, name: str) -> Any:
        """The child called `name` in this rule's entry of CHILDREN: a Leaf or a Node, None for an optional one
        that is not written, a list for a repeated one."""
        return self.named()[name]

    def named(self) -> dict[str, Any]:
        """Every child by its name in CHILDREN, matched in order against the rule's parts."""
        parts = PARTS.get(self.kind)
        if parts is None:
            raise KeyError(f"the children of '{self.kind}' have no names: add the rule to syntax.CHILDREN")
        found: dict[str, Any] = {}
        children, index = self.children, 0
        for part in parts:
            if part.repeat in ("*", "+"):
                taken = []
                while index < len(children) and part.takes(children[index]):
                    taken.append(children[index])
                    index += 1
                found[part.name] = taken
                if part.repeat == "+" and not taken:
                    break
            elif index < len(children) and part.takes(children[index]):
                found[part.name] = children[index]
                index += 1
            elif part.repeat == "?":
                found[part.name] = None
            else:
                break
        else:
            if index == len(children):
                return found
        raise ValueError(f"internal: the children of '{self.kind}' do not match syntax.CHILDREN "
                         f"({' '.join(p.spec for p in parts)})")

    def leaves(self, type_: str | None = None) -> list[Leaf]:
        return [c for c in self.children if isinstance(c, Leaf) and (type_ is None or c.type == type_)]

    def nodes(self, kind: str | None = None) -> list["Node"]:
        return [c for c in self.children if isinstance(c, Node) and (kind is None or c.kind == kind)]

    def first(self, type_: str) -> Leaf | None:
        for child in self.children:
            if isinstance(child, Leaf) and child.type == type_:
                return child
        return None


Child = Union[Leaf, Node]

# the card filters of the grammar (`?card_filter`), where a rule lists them before another part (`on_cards`)
CARD_FILTERS = ("cost_filter", "except_filter", "vp_filter", "no_tags_filter", "holding_filter", "lacks_tag_filter",
                 "tag_filter", "any_tag_filter", "type_filter", "requirements_filter", "global_requirements_filter",
                 "special_tile_filter", "no_requirements_filter", "no_global_requirements_filter", "no_vp_filter",
                 "no_special_tile_filter", "faction_requirements_filter", "no_faction_requirements_filter",
                 "tag_count_filter")


# The children of each rule the compiler reads, by name, in order: `name`, then `?` (may be missing), `*` (any
# number: a list) or `+` (one or more), then `:` and the terminals or rules it may be, `|` between them (a part
# without them takes any one child). Aliases (`-> on_kind`) are rules here; keywords in quotes leave no child. The
# rules of effect verbs are named by their checkers (`name_children`, from compiler/check_effects.py).
CHILDREN = {
    # definitions
    **{kind: "name:STRING number?:CARD_NUMBER fields*" for kind in ("card", "corporation")},
    **{kind: "name:STRING fields*" for kind in (
        "standard_project", "standard_action", "milestone", "award", "parameter_definition",
        "card_kind_definition", "rule_definition", "expansion_definition", "piece_definition", "site_definition",
        "faction_definition", "government_definition")},
    "board": "name:STRING items*",
    "resource_declaration": "names:name_list",
    "tag_declaration": "names:name_list wild?:WILD_TAG",
    "mark_declaration": "names:name_list",
    # fields: the key with its colon, then the value
    "type_field": "key words+:NAME",  # `type: sky omen`: a declared kind's name may have several words
    **{kind: "key value" for kind in ("set_field", "holds_field", "variant_field", "ends_game_field",
                                      "unplayable_to_field",
                                      "solo_generations_field", "vp_field", "effect_field")},
    **{kind: "key effects:effects" for kind in ("play_field", "first_action_field", "unplayable_field")},
    "tags_field": "key names:name_list",
    **{kind: "key names:string_list" for kind in ("offboard_field", "milestones_field", "awards_field",
                                                  "board_milestones", "board_awards", "board_offboard")},
    **{kind: "key words+:NAME" for kind in ("at_field", "by_field")},
    "cost_field": "key amount:INT resource?:NAME alternatives*:cost_alternative",
    "cost_alternative": "amount:INT resource?:NAME",
    # the fields of pieces, sites and an expansion's table of sites
    "site_holds_field": "key capacity:INT words+:NAME per_player?:INT",
    **{kind: "key words+:NAME" for kind in ("visited_by_field", "returns_field")},
    "site_track_field": "key steps+:effects",
    **{kind: "key value:INT" for kind in ("marker_field", "supply_field", "limit_field")},
    **{kind: "key effects:effects" for kind in ("bonus_field", "build_field")},
    "inactive_until_field": "key subject:you|any_player|another_player event",
    "sites_field": "key counts+:site_count",
    "site_count": "players:INT word:NAME sites:INT",
    "start_field": "key amount:INT resource:NAME",
    "requires_field": "key condition:condition",
    # fields of staged kinds, sets, actions and rules
    "stages_field": "key names:name_list",
    "stage_field": "key effects:effects",          # the key is `on reveal:` or `on STAGE:`
    **{kind: "key sets:set_list" for kind in ("needs_field", "after_field")},
    "once_field": "key",                           # `once per generation`: the key alone
    "repeatable_action_field": "key options+:action_option",
    # fields of a government and its pieces
    "neutral_field": "key value:INT",
    "pieces_field": "key words+:NAME",
    "factions_field": "key names:string_list",
    "ruling_field": "key name:STRING",
    "role_field": "key name:STRING reward?:effects",
    "influence_field": "key quantity:quantity",
    "action_field": "key options+:action_option",
    "measure_field": "key quantity:quantity",
    "scale_field": "key low:VALUE high:VALUE step:VALUE",
    "parameter_track_field": "key value:VALUE effects:effects",
    "deal_field": "key deal:INT keep:INT",
    "vp_per": "points:SIGNED_INT per?:quantity",
    "vp_if": "points:SIGNED_INT condition:condition",
    "vp_each": "scorers:VP_SCORERS points:SIGNED_INT per?:quantity condition?:condition",
    # parts of effects (each verb's own rule is named by its checker)
    "per": "quantity:quantity",
    "delta": "resource:NAME change:SIGNED per?:per",
    "delta_at_least": "resource:NAME at_least:AT_LEAST floor:INT",
    "on_kind": "kind:NAME",
    "on_top_of": "own?:OWNER tile:NAME",
    "mark_max": "most:INT",
    "on_reserved": "name:STRING",
    "on_claim": "own:OWNER",
    "on_bonus": "bonuses+:NAME",
    "on_no_bonus": "",
    "next_to": "count?:INT own?:OWNER tile:NAME",
    "not_next_to": "own?:OWNER tile:NAME",
    "next_to_marker": "name:STRING",
    **{kind: "tag?:NAME" for kind in ("another_card", "any_card", "any_card_with_resources", "any_cards",
                                      "each_card", "each_card_with_resources")},
    "different_cards": "cards:INT tag?:NAME",   # `to each of 3 different cards`
    "any_player": "tag?:player_tag next_to_it?:NEXT_TO_IT",
    "player_tag": "tag:NAME",
    "rank_place": "place:RANK_PLACE effects:effects",   # `first: tr +2` in `rank players by ... { }`
    "with_icon": "name:NAME",
    # parts of passive effects: trigger events, card filters, discount targets
    "plays": "verb:PLAY played:played_tag|played_card",
    "played_tag": "tags+:NAME",
    "played_card": "names*:NAME kind:CARD_KIND filters*",
    "places": "verb:PLACE words+:NAME filters*",
    "sends": "verb:SEND words+:NAME",
    "gains_new_tag": "verb:GAIN",
    "harms": "verb:HARM",
    "harms_you": "verb:HARM",
    "becomes_leader": "verb:BECOME faction:IN_A_FACTION",
    "holding_filter": "resource:NAME",
    "card_word": "name:NAME",                 # `move active card ...`, `copy play of another science card`
    "card_zone": "name:NAME",                 # `move card from play ...`
    # `with space tag -> ...` in `reveal N cards one by one { }`
    "reveal_case": "filters+:" + "|".join(CARD_FILTERS) + " effects:effects",
    "card_destination": "words+:NAME",        # `... to another player`
    "kept_with": "count:INT word:NAME",       # `... to here with 2 resources`
    "tag_filter": "tag:NAME",
    "lacks_tag_filter": "tags+:NAME",
    "type_filter": "types+:NAME",
    "any_tag_filter": "tags+:NAME",
    "uses_standard_project": "verb:USE filters*",
    "raises": "verb:RAISE parameter:NAME",
    "adds": "verb:ADD resource:NAME here?:on_this_card",
    "cost_filter": "operator:COMPARATOR value:INT",
    "tag_count_filter": "operator:COMPARATOR value:INT",
    "except_filter": "name:STRING",
    "add_except": "resources+:NAME",          # `add 1 resource except science ...`
    "on_cards": "tag?:NAME filters*:" + "|".join(CARD_FILTERS) + " per?:per",
    **{kind: "name:STRING per?:per" for kind in ("on_standard_project", "on_standard_action", "on_action")},
    **{kind: "per?:per" for kind in ("on_standard_projects", "on_starting_cards", "on_milestones", "on_awards")},
    # quantities and conditions
    "quantity": "terms+:term|minus",
    "minus": "term:term",
    "term": "words+:NAME|INT|STRING cap?:cap|quantity_cap",
    "cap": "most:INT",
    "quantity_cap": "words+:NAME|INT|STRING",
    "condition": "comparisons+:comparison|ruling alternatives*:or_group",
    "or_group": "comparisons+:comparison|ruling",
    "ruling": "faction:STRING",
    "comparison": "quantity:quantity operator:COMPARATOR value:VALUE",
    # boards
    "board_row": "key spaces+:space",
    "board_track": "key parameter:NAME value:VALUE effects:effects",
    "space": "kind:NAME bonuses*:bonus attributes*:reserved|costs",
    "bonus": "count?:INT name:NAME",
    "reserved": "name:STRING",
    "costs": "amount:INT condition?:condition",
}


@attrs.frozen
class _Part:
    """One named part of a rule in CHILDREN: what it may be (None: any one child) and how often."""

    spec: str
    name: str
    repeat: str
    types: Optional[frozenset[str]]

    @classmethod
    def parse(cls, spec: str) -> "_Part":
        written, _, types = spec.partition(":")
        repeat = written[-1] if written[-1] in "?*+" else ""
        return cls(spec, written.rstrip("?*+"), repeat, frozenset(types.split("|")) if types else None)

    def takes(self, child: Child) -> bool:
        return self.types is None or (child.type if isinstance(child, Leaf) else child.kind) in self.types


PARTS = {kind: tuple(_Part.parse(part) for part in spec.split()) for kind, spec in CHILDREN.items()}


def name_children(kind: str, spec: str) -> None:
    """Name the children of rule `kind` as CHILDREN does: the checker of an effect verb names its rule's this way,
    beside the method that reads them (compiler/check_effects.py `@compiles`)."""
    CHILDREN[kind] = spec
    PARTS[kind] = tuple(_Part.parse(part) for part in spec.split())


def _span_of_children(path: str, children) -> Span:
    spans = [c.span for c in children if isinstance(c, (Leaf, Node))]
    if not spans:
        return Span(path, 1, 1, 1, 2)
    return Span(path, spans[0].line, spans[0].column, spans[-1].end_line, spans[-1].end_column)


def build(tree: Tree, path: str) -> Node:
    """Lark tree -> Node, token -> Leaf, keeping positions. Recursive: the parser bounds the nesting depth
    before we get here. (A plain function: a third faster than a lark.Transformer on the bundled cards.)"""

    def convert(item):
        if isinstance(item, Token):
            return Leaf(item.type, str(item), Span(path, item.line, item.column, item.end_line, item.end_column))
        children = tuple(convert(child) for child in item.children)
        meta = item.meta
        if meta.empty:
            span = _span_of_children(path, children)
        else:
            span = Span(path, meta.line, meta.column, meta.end_line, meta.end_column)
        return Node(str(item.data), children, span)

    return convert(tree)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run a phase that builds trees (parsing, checking) with Python's cyclic garbage collector paused.

    Those phases allocate an object or more per token and make no reference cycles, yet every allocation counts
    towards the collector, whose full collections walk every live object, the growing trees included: on a long
    file (a 250 KB `requires:` chain) they took 40% of the compile and made its time grow faster than the file
    (n^1.5). Paused, the phase is linear; what the collector would have found it finds afterwards. A caller that
    had turned the collector off keeps it off; nested pauses are harmless."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
