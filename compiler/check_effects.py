"""Checking effects: one method per effect verb, AST node -> compiled effect.

Pipeline place: part of the checker (checker.py holds definitions, fields, names, numbers and quantities; this
mixin the effects inside `play:`, `action:`, `effect:` and board tracks). Each method is registered for its verb's
class with `@compiles(fx.Gain, "count:INT|X|MULTIPLE_X resource:NAME per?:per")`, which names the children of the
verb's grammar rule (compiler/syntax.py reads them; the class declares the rule) beside the code that reads them
as `node["resource"]`. A node is dispatched by its rule to the method, which validates its words and returns the
compiled object, or None after reporting why.
"""

from __future__ import annotations

from typing import Callable, Optional

import attrs

from . import effects as fx, vocabulary as v
from .diagnostics import Fix, Span, did_you_mean, respelling
from .syntax import CARD_FILTERS, Leaf, Node, name_children

# the placement filters of the grammar (`?place_filter`)
_PLACE_FILTER_RULES = ("on_kind", "on_top_of", "on_reserved", "on_claim", "on_bonus", "on_no_bonus", "next_to",
                       "next_to_marker", "isolated", "ignoring_adjacency", "also_where_you_have_one", "building_twice")
# the card filters of the grammar (`?card_filter`), which the card verbs take after their card
_FILTER_RULES = CARD_FILTERS

PRODUCTION = "production"  # `protect production from opponents`: the word beside the resources a Protect names
MARKED = "marked"  # the `trigger_subject` of a `put MARK on TILE { }` block: `that player` is the tile's owner
UNKNOWN_HOLDS = "?"  # the card declares a resource type that failed to check: don't report its uses again
IGNORED_REQUIREMENT_STEPS = 1000  # "ignoring global requirements": more steps than any scale has
MAX_RESEARCH_CARDS = 10  # `research N cards`: the most a research phase deals one player (a deck runs out fast)

TAGGED_TARGETS = ("another_card", "any_card", "any_card_with_resources", "any_cards", "each_card",
                  "each_card_with_resources", "different_cards")  # `to any TAG card`
COMPILERS: dict[type, Callable] = {}   # effect class -> the EffectChecks method that compiles its rule


def compiles(kind: type, children: str, *, also: tuple = ()):
    """Register the method below as the checker of `kind`'s grammar rule (`kind.rule`), whose children are
    named by `children` as in compiler/syntax.py CHILDREN ("" for a rule of keywords only). `also`: the verbs that
    share the rule (compiler/effects.py `shares=`), which the method compiles too, telling them apart."""

    def register(method: Callable) -> Callable:
        COMPILERS[kind] = method
        for shared in also:
            COMPILERS[shared] = method
        name_children(kind.rule, children)
        return method

    return register


@attrs.define
class CheckContext:
    """What an effect may refer to where it is written."""

    definition: str
    holds: Optional[str] = None
    x_bound: bool = False
    in_trigger: bool = False
    places_tile: bool = False
    placed_bonus: bool = False
    printed_tags: bool = False   # tags counted are the printed ones: a wild tag counts as none (a staged card's)
    # the effects are checked before they are carried out: a card's or an action's (refused when they cannot all
    # be), a `choose` option, a `may`, `each player`, `repeat`, a rank's place (skipped); not a rule's, a
    # trigger's, a track bonus's or a stage's, which nothing refuses, so `lose N` (you must have them) cannot go there
    refusable: bool = True
    # in a `when ... add RESOURCE` trigger: that resource (`resource`: any), which `RESOURCE added` may count
    adding: Optional[str] = None
    # in a `when ... places TILE tile` trigger: `TILES next to it` counts the tiles around the tile just placed
    placing: bool = False
    # in a trigger: whose actions set it off (`you`, `any`, `another`); `that player { }` needs another player than
    # its owner who may have, and no block that changes whose effects they are (`each opponent { }`) in between
    trigger_subject: Optional[str] = None
    # a tile was placed earlier in these effects (or in the list around them): `next to it` has a tile to be next to
    placed_before: bool = False
    # in a `when ... harms ...` trigger: `give ... to the victim` has a victim
    harming: bool = False
    # the effects of an event card, which is never in play (`turn this card face down` cannot be carried out; `move
    # this card to that player's events` moves that event)
    event: bool = False
    # an earlier effect of these targets another player: `that player's events` is theirs
    targeted_before: bool = False
    # in a case of `reveal N cards one by one { }`: `play it` has a card to play
    revealed: bool = False
    # an earlier effect of these (or of the list around them) is `play card from hand`: `that card` is the card it
    # played (Valuable Gases' "play an active card from hand ... and add 5 resources to it")
    played_before: bool = False


class EffectChecks:
    """Mixed into `Checker`; uses its vocabulary lookups (`tag`, `card_resource`, ...) and `self.diagnostics`."""

    # ------------------------------------------------------------------ effects

    def effects(self, node: Node, ctx: CheckContext) -> tuple:
        # `production(bonus +1)` refers to the placement just made; allow it after a bonus-filtered placement.
        result = []
        outer = placed_before = ctx.placed_before   # the list's own placements count for its later effects only
        # an effect of the same list targets the player (a card's effects played in the order its player chooses
        # keep the move with that effect: runtime/rules/checks.py `effect_steps`)
        outer_target, targeted_before = ctx.targeted_before, False
        outer_played = played_before = ctx.played_before
        for child in node.nodes():
            if child.kind == "marker_move" and child["which"].kind == "another_site":
                self._another_site(child, result, ctx)
                continue
            ctx.placed_before, ctx.targeted_before, ctx.played_before = placed_before, targeted_before, played_before
            compiled = self.effect(child, ctx)
            played_before = played_before or isinstance(compiled, fx.PlayFromHand)
            targeted_before = targeted_before or _targets_player(compiled)
            if isinstance(compiled, fx.PlaceTile) and not placed_before and \
                    any(f.kind == "next_to_placed" for f in compiled.filters):
                self.diagnostics.error("E307", "'next to it' means next to the tile placed just before by the same "
                                       "effects, but no tile is placed before this one", child.span,
                                       "place the first tile before it: place ocean; place greenery next to it")
                compiled = None
            if isinstance(compiled, fx.PlaceTile):   # what the engine's `it` is (runtime/handlers/effects.py)
                placed_before = True
            if compiled is not None:
                result.append(compiled)
            if isinstance(compiled, fx.PlaceTile) and compiled.tile not in v.OCEAN_TILES:
                ctx.places_tile = True
                if any(f.kind == "bonus" for f in compiled.filters):
                    ctx.placed_bonus = True
            elif isinstance(compiled, fx.ReplaceTile):   # the card's tile is the new one (`vp: 1 per adjacent ocean`)
                ctx.places_tile = True
        ctx.placed_before, ctx.targeted_before, ctx.played_before = outer, outer_target, outer_played
        return tuple(result)

    def effect(self, node: Node, ctx: CheckContext):
        method = self._checker_of(node)
        if method is None:
            return None
        compiled = method(self, node, ctx)
        if compiled is not None:
            self.lint_effect(node, compiled)  # compiler/lints.py: what compiles but cannot be meant
        return compiled

    def _checker_of(self, node: Node) -> Optional[Callable]:
        method = COMPILERS.get(fx.RULES.get(node.kind))
        if method is None:  # grammar and registry out of step: a bug, reported rather than raised
            self.diagnostics.error("E999", f"internal: no checker for '{node.kind}'", node.span)
        return method

    def _another_site(self, node: Node, result: list, ctx: CheckContext) -> None:
        """`marker -1 on another site` moves the marker of a site other than the one the move just before it chose
        (`marker +1 on a site`): the two compile into one effect, whose sites are chosen in turn (E315 elsewhere)."""
        before = result[-1] if result else None
        if not isinstance(before, fx.MoveMarkers) or before.each:
            self.diagnostics.error("E315", "'another site' means another than the site the move before it chose",
                                   node.span,
                         "write it right after a move on a site: marker +1 on a site; marker -1 on another site")
            return
        steps, _ = self.signed(node["steps"], ctx)
        result[-1] = fx.MoveMarkers(before.steps + (steps,))

    @compiles(fx.Gain, "count:INT|X|MULTIPLE_X words+:NAME per?:per", also=(fx.GainPieces,))
    def _fx_gain(self, node: Node, ctx: CheckContext):
        """`gain N RESOURCE`, or `gain N PIECE` (a declared piece, of one word or more: `gain 1 cargo ship`)."""
        value, variable = self.count(node["count"], ctx)
        words = node["words"]
        piece = v.lookup_piece([w.text for w in words], self.pieces)
        if piece is not None or len(words) > 1:
            piece = piece or self.piece(words)
            return fx.GainPieces(piece, self.amount(value, variable, node["per"], ctx)) if piece else None
        resource = self._standard_resource(words[0])
        if resource is None:
            return None
        return fx.Gain(resource, self.amount(value, variable, node["per"], ctx))

    @compiles(fx.Lose, "up_to?:UP_TO count:INT|X|MULTIPLE_X resource:NAME per?:per")
    def _fx_lose(self, node: Node, ctx: CheckContext):
        up_to = node["up_to"] is not None
        value, variable = self.count(node["count"], ctx)
        resource = self._standard_resource(node["resource"])
        if node["per"] is not None and not up_to:
            self.diagnostics.error("E301", "a loss counted 'per' something must be written 'lose up to': how many "
                                   "there will be to lose is known only then", node.span,
                                   f"write: lose up to {node['count'].text} {node['resource'].text} per ...")
            return None
        if not up_to and not ctx.refusable:
            self._must_have(node, ctx, f"lose {node['count'].text} {node['resource'].text}")
            return None
        amount = self.amount(value, variable, node["per"], ctx)
        return fx.Lose(resource, amount, up_to) if resource else None

    def _must_have(self, node: Node, ctx: CheckContext, written: str) -> None:
        """`lose N` (and `spend N`) where nothing checks the effects before they are carried out: the player must
        have what it takes, which no one can make sure of here, so it is written `lose up to N` (what there is)."""
        where = "a trigger's effects" if ctx.in_trigger else {
            "rule": "a rule's effects", "card_kind": "an unplayable card's effects", "board": "a track bonus",
            "faction": "a faction's bonus", "government": "a role's reward", "site": "a site's effects",
        }.get(ctx.definition, "these effects")
        count, resource = node["count"], node["resource"]
        lose = node.kind == "lose"
        self.diagnostics.error("E307", f"'{written}' takes resources the player must have, but {where} are carried "
                                       "out unchecked: nothing can refuse them", node.span,
                               f"write 'lose up to {count.text} {resource.text}': the player loses what they have, up "
                               f"to {count.text} (docs/language.md, `lose`)",
                               (Fix(count.span, f"up to {count.text}"),) if lose else ())

    @compiles(fx.Spend, "count:INT|X|MULTIPLE_X resource:NAME")
    def _fx_spend(self, node: Node, ctx: CheckContext):
        if not ctx.refusable:
            self._must_have(node, ctx, f"spend {node['count'].text} {node['resource'].text}")
            return None
        value, variable = self.count(node["count"], ctx)
        resource = self._standard_resource(node["resource"])
        return fx.Spend(resource, fx.Amount(value, variable)) if resource else None

    @compiles(fx.Pay, "count:INT|X|MULTIPLE_X resource:NAME using?:name_list")
    def _fx_pay(self, node: Node, ctx: CheckContext):
        value, variable = self.count(node["count"], ctx)
        written = node["resource"]
        resource = self._standard_resource(written)
        if resource and resource != "megacredits":
            self.diagnostics.error("E301", f"'pay' is for megacredits; use 'spend {value} {written.text}'",
                                   written.span)
            return None
        using = []
        if node["using"] is not None:
            for leaf in node["using"].leaves():
                substitute = self._standard_resource(leaf)
                if substitute:
                    using.append(substitute)
        return fx.Pay(fx.Amount(value, variable), tuple(using)) if resource else None

    def _deltas(self, node: Node, ctx: CheckContext, negative_only: bool) -> Optional[tuple]:
        changes = []
        for delta in node["deltas"]:
            word = delta["resource"]
            if word.text.lower() == "lowest" and not negative_only:
                resource = "lowest"  # one of the player's lowest productions, their choice
            elif word.text.lower() == "bonus":
                if not ctx.placed_bonus and not ctx.placed_before:
                    self.diagnostics.error("E502", "'bonus' means a resource of the placement bonus of the space "
                                           "just placed on, but no tile is placed before it", word.span,
                                           "place the tile first: place city; production(bonus +1)")
                    return None
                resource = "bonus"
            else:
                resource = self._standard_resource(word)
                if resource is None:
                    return None
            if delta.kind == "delta_at_least":
                if negative_only or resource in ("lowest", "bonus"):
                    self.diagnostics.error("E304", "'at least' raises one of your own productions, named", word.span,
                                           "write: production(plants at least 3)")
                    return None
                changes.append(fx.ProductionChange(resource, fx.at_least(resource, int(delta["floor"].text))))
                continue
            value, variable = self.signed(delta["change"], ctx)
            if negative_only and value > 0:
                self.diagnostics.error("E304", "'any production' can only decrease another player's production",
                             delta["change"].span, "to raise your own, use production(...)")
                return None
            changes.append(fx.ProductionChange(resource, self.amount(value, variable, delta["per"], ctx)))
        return tuple(changes)

    @compiles(fx.Production, "deltas+:delta|delta_at_least")
    def _fx_production(self, node: Node, ctx: CheckContext):
        changes = self._deltas(node, ctx, negative_only=False)
        return fx.Production(changes) if changes else None

    @compiles(fx.AnyProduction, "deltas+:delta|delta_at_least")
    def _fx_any_production(self, node: Node, ctx: CheckContext):
        changes = self._deltas(node, ctx, negative_only=True)
        return fx.AnyProduction(changes) if changes else None

    @compiles(fx.ChangeParameter, "parameter:NAME change:SIGNED per?:per")
    def _fx_parameter_change(self, node: Node, ctx: CheckContext):
        word = node["parameter"]
        parameter = word.text.lower()
        raisable = ("tr",) + tuple(p for p in self.parameters if p != "oceans")
        if parameter not in raisable:
            hint = did_you_mean(parameter, raisable)
            fixes = respelling(word.span, parameter, raisable, word.text)
            if v.normalize(parameter) in v.OCEAN_TILES:
                hint, fixes = "oceans rise by placing tiles: place ocean", ()
            self.diagnostics.error("E108", f"unknown effect or parameter '{word.text}'", word.span,
                         hint or "a line like 'NAME +N' changes tr or a global parameter (" +
                         ", ".join(p for p in raisable if p != "tr") + '); declare a new one with '
                         'parameter "NAME" { scale: ... }', fixes)
            return None
        value, variable = self.signed(node["change"], ctx)
        return fx.ChangeParameter(parameter, self.amount(value, variable, node["per"], ctx))

    def _filters(self, nodes: list[Node], covering: bool = False) -> Optional[tuple]:
        """The placement filters compiled; `covering`: a `place`'s, the one verb that may put a tile `on top of`
        another (elsewhere it is E301: a claim, a marker, a replacement or a trigger's tile covers nothing)."""
        filters = []
        for node in nodes:
            if node.kind == "on_top_of":
                covered = self._covered_tile(node, covering)
                if covered is None:
                    return None
                filters.append(covered)
            elif node.kind == "on_kind":
                word = node["kind"]
                kind = "mars" if word.text.lower() == "mars" else v.singular(word.text)
                if kind not in v.SPACE_KINDS + ("mars",):
                    self.diagnostics.error("E107", f"unknown kind of space '{word.text}'", word.span,
                                 did_you_mean(kind, v.SPACE_KINDS) or "write: on land, on ocean, on volcanic, on mars",
                                 respelling(word.span, kind, v.SPACE_KINDS, word.text))
                    return None
                filters.append(fx.SpaceFilter(kind))
            elif node.kind == "on_reserved":
                filters.append(fx.SpaceFilter("reserved", reserved=node["name"].value, reserved_span=node["name"].span))
            elif node.kind == "on_bonus":
                bonuses = []
                for leaf in node["bonuses"]:
                    bonus = v.normalize(leaf.text)
                    if bonus not in v.BOARD_BONUSES:
                        self.diagnostics.error("E107", f"unknown space bonus '{leaf.text}'", leaf.span,
                                     did_you_mean(bonus, v.BOARD_BONUSES),
                                     respelling(leaf.span, bonus, v.BOARD_BONUSES, leaf.text))
                        return None
                    bonuses.append(bonus)
                filters.append(fx.SpaceFilter("bonus", bonuses=tuple(bonuses)))
            elif node.kind == "on_no_bonus":   # Geological Expedition's "if the space has no bonus"
                filters.append(fx.SpaceFilter("no_bonus"))
            elif node.kind in ("next_to", "not_next_to"):
                none = node.kind == "not_next_to"
                count = 1 if none or not node["count"] else int(node["count"].text)
                if count < 1:   # `next to 0 greenery` would be every space: "no greenery next to it" has its form
                    whose = f'{node["own"].text} ' if node["own"] is not None else ""
                    self.diagnostics.error("E302", "a space next to 0 tiles means nothing: 'next to N' asks for at "
                                           "least N", node["count"].span,
                                           f"write: next to no {whose}{node['tile'].text}")
                    return None
                whose = node["own"].text if node["own"] is not None else None
                own, opponent = whose in ("your", "own"), whose == "opponent"
                word = node["tile"]
                tile = v.singular(word.text)
                if tile not in v.TILE_WORDS + (v.CLAIM,):  # `next to your claim`: the markers of `claim space`
                    self.diagnostics.error("E103", f"unknown tile '{word.text}'", word.span, did_you_mean(tile,
                                                                                                          v.TILE_WORDS),
                                 respelling(word.span, tile, v.TILE_WORDS, word.text))
                    return None
                if opponent and tile == v.CLAIM:
                    self.diagnostics.error("E301", "'next to opponent' counts other players' tiles, not claims",
                                           node["own"].span, "write: next to claim, or next to your claim")
                    return None
                filters.append(fx.SpaceFilter(node.kind, count=count, own=own, tile=tile, opponent=opponent))
            elif node.kind == "next_to_marker":
                name = node["name"]
                if not name.value.strip():
                    self.diagnostics.error("E201", 'a marker has a name: next to marker "Nomad"', name.span)
                    return None
                filters.append(fx.SpaceFilter("next_to_marker", marker=name.value))
            elif node.kind == "next_to_placed":   # `next to it` (a placement's): the effects' check says where
                filters.append(fx.SpaceFilter("next_to_placed"))
            elif node.kind == "isolated":
                filters.append(fx.SpaceFilter("isolated"))
            elif node.kind == "on_claim":
                if node["own"].text == "opponent":
                    self.diagnostics.error("E301", "'on ... claim' is a space with your own marker", node.span,
                                           "write: on your claim")
                    return None
                filters.append(fx.SpaceFilter("claim"))
            elif node.kind == "ignoring_adjacency":
                filters.append(fx.SpaceFilter("ignoring_adjacency"))
            elif node.kind == "also_where_you_have_one":
                self.diagnostics.error("E301",
                                       "'also where you have one' lifts a site's one-per-player rule: it goes with a "
                                     "piece, not a tile", node.span, "write: place PIECE also where you have one")
                return None
            elif node.kind == "building_twice":
                self.diagnostics.error("E301", "'building twice' carries out a site's 'build' twice: it goes with a "
                                       "piece, not a tile", node.span, "write: place PIECE building twice")
                return None
        return tuple(filters)

    def _covered_tile(self, node: Node, covering: bool) -> Optional[fx.SpaceFilter]:
        """`on top of [your | opponent] TILE` (New Holland: a city on top of an ocean): a space holding such a tile,
        which the new one covers; the space then holds both, each counting as its kind."""
        if not covering:
            self.diagnostics.error("E301", "'on top of' puts a tile placed on top of another; only 'place' places "
                                   "one", node.span, "remove it, or write: place TILE on top of TILE")
            return None
        found = self._owned_tile(node, f"write: on top of {node['tile'].text}")
        if found is None:
            return None
        tile, whose = found
        return fx.SpaceFilter("on_tile", tile=tile, own=whose in ("your", "own"), opponent=whose == "opponent")

    def _owned_tile(self, node: Node, ocean_hint: str) -> Optional[tuple[str, Optional[str]]]:
        """The tile word of `[your | opponent] TILE` (a tile covered, a tile marked) and whose it must be; None after
        an error: an unknown tile (E103), or an owner given to an ocean, which is nobody's (E301)."""
        word = node["tile"]
        tile = v.singular(word.text)
        if tile not in v.TILE_WORDS:
            self.diagnostics.error("E103", f"unknown tile '{word.text}'", word.span,
                                   did_you_mean(tile, v.TILE_WORDS) or "tiles: " + ", ".join(v.TILE_WORDS),
                                   respelling(word.span, tile, v.TILE_WORDS, word.text))
            return None
        whose = node["own"].text if node["own"] is not None else None
        if whose is not None and tile in v.OCEAN_TILES:
            self.diagnostics.error("E301", "an ocean belongs to nobody", node["own"].span, ocean_hint)
            return None
        return tile, whose

    @compiles(fx.PlaceTile, "count?:INT words+:NAME name?:STRING filters*", also=(fx.PlacePiece,))
    def _fx_place(self, node: Node, ctx: CheckContext):
        """`place TILE ...`, or `place PIECE [also where you have one]` (a declared piece, on a site)."""
        count_leaf = node["count"]
        words = node["words"]
        word = words[0]
        tile = v.singular(word.text)
        name_leaf = node["name"]
        piece = v.lookup_piece([w.text for w in words], self.pieces)
        if piece is not None:
            return self._place_piece(piece, node, count_leaf, name_leaf)
        if tile not in v.TILES or len(words) > 1:
            written = " ".join(w.text for w in words)
            span = Span(word.span.path, word.span.line, word.span.column, words[-1].span.end_line,
                        words[-1].span.end_column)
            known = v.TILES + tuple(self.pieces)
            phrase = v.piece_name(written) if len(words) > 1 else tile
            self.diagnostics.error("E103" if len(words) == 1 or not self.pieces else "E111",
                         f"unknown tile or piece '{written}'" if self.pieces else f"unknown tile '{written}'", span,
                         did_you_mean(phrase, known) or "tiles: " + ", ".join(v.TILES) +
                         ("; pieces: " + ", ".join(self.pieces) if self.pieces else ""),
                         respelling(span, phrase, known, written))
            return None
        count = int(count_leaf.text) if count_leaf else 1
        if count < 1:
            self.diagnostics.error("E302", "place at least 1 tile", count_leaf.span)
            return None
        if tile in v.NAMED_TILES and (name_leaf is None or not name_leaf.value.strip()):
            # an empty name would pass here and break the canonical text (fmt's E806): `place special` alone
            self.diagnostics.error("E201", "a special tile needs a name: place special \"Mohole Area\" ...",
                                   word.span if name_leaf is None else name_leaf.span)
            return None
        filters = self._filters(node["filters"], covering=True)
        if filters is None:
            return None
        covers = [f for f in filters if f.kind == "on_tile"]
        if covers:
            cover = next(f for f in node["filters"] if f.kind == "on_top_of")
            if len(covers) > 1 or tile in v.OCEAN_TILES or covers[0].tile == tile or count > 1:
                self.diagnostics.error(
                    "E301", "one tile goes on top of one tile of another kind, and never an ocean (an ocean goes "
                    "on an empty ocean space)" if len(covers) == 1 else "a tile goes on top of one tile",
                    cover.span, "write, e.g.: place city on top of ocean")
                return None
        return fx.PlaceTile(tile, count, name_leaf.value if name_leaf else None, filters)

    @compiles(fx.ReplaceTile, "old:NAME filters*:" + "|".join(_PLACE_FILTER_RULES) + " new:NAME name?:STRING")
    def _fx_replace_tile(self, node: Node, ctx: CheckContext):
        """`replace your TILE [FILTER ...] with TILE ["name"]`: one of the player's tiles gives way, on its space, to
        a tile of another kind. The filters pick the tile replaced, as a placement trigger's pick the tile placed;
        the new tile goes where the old one was, so the rules of where a tile may go say nothing of it."""
        old_leaf, new_leaf, name_leaf = node["old"], node["new"], node["name"]
        old, new = v.singular(old_leaf.text), v.singular(new_leaf.text)
        for leaf, word, known in ((old_leaf, old, v.TILE_WORDS), (new_leaf, new, v.TILES)):
            if word not in known:
                self.diagnostics.error("E103", f"unknown tile '{leaf.text}'", leaf.span,
                                       did_you_mean(word, known) or "tiles: " + ", ".join(known),
                                       respelling(leaf.span, word, known, leaf.text))
                return None
        for leaf, word in ((old_leaf, old), (new_leaf, new)):
            if word in v.OCEAN_TILES:
                self.diagnostics.error("E301", "an ocean belongs to nobody and goes only where the board has one, so "
                                       "it neither is replaced as yours nor replaces one of your tiles", leaf.span,
                                       "replace your greenery, city or special tiles (`tile`: any of them) with a "
                                       "greenery, a city or a special tile")
                return None
        if new == old and new not in v.NAMED_TILES:
            self.diagnostics.error("E301", f"a {old} replaced by a {new} is the same kind of tile", new_leaf.span,
                                   "replace it with another kind: greenery, city or special \"NAME\"")
            return None
        if new in v.NAMED_TILES and (name_leaf is None or not name_leaf.value.strip()):
            self.diagnostics.error("E201", f'a special tile needs a name: replace your {old_leaf.text} tile with '
                                   'special "Mohole Area"', new_leaf.span if name_leaf is None else name_leaf.span)
            return None
        lifted = next((f for f in node["filters"] if f.kind == "ignoring_adjacency"), None)
        if lifted is not None:
            self.diagnostics.error("E301", "'ignoring adjacency' lifts a rule of where a tile may go, and a "
                                   "replacement goes where the old tile is, regardless of those rules", lifted.span,
                                   "remove it; the filters pick the tile replaced: on land, on ocean, on volcanic, "
                                   "on reserved \"NAME\", on bonus RESOURCE, next to [N] [your | opponent] TILE, "
                                   "isolated")
            return None
        filters = self._filters(node["filters"])
        if filters is None:
            return None
        return fx.ReplaceTile(old, new, name_leaf.value if name_leaf is not None else None, filters)

    def _place_piece(self, piece: str, node: Node, count_leaf, name_leaf):
        """`place outpost [also where you have one]`: a piece on a site; the filters of tiles do not apply."""
        count = int(count_leaf.text) if count_leaf else 1
        if count < 1:
            self.diagnostics.error("E302", "place at least 1 piece", count_leaf.span)
            return None
        others = [f for f in node["filters"] if f.kind not in ("also_where_you_have_one", "building_twice")]
        if name_leaf is not None or others:
            self.diagnostics.error("E301", f"a {piece} goes on a site: it has no name and no space filter",
                         (name_leaf or others[0]).span,
                         f"write: place {piece} [also where you have one] [building twice]")
            return None
        also_own = any(f.kind == "also_where_you_have_one" for f in node["filters"])
        builds = 2 if any(f.kind == "building_twice" for f in node["filters"]) else 1
        return fx.PlacePiece(piece, count, also_own=also_own, builds=builds)

    @compiles(fx.PlaceInFaction, "count?:INT words+:NAME faction:IN_A_FACTION|STRING")
    def _fx_place_in_faction(self, node: Node, ctx: CheckContext):
        """`place [N] [neutral] PIECE in (a faction | "NAME")`: pieces from a reserve into one faction."""
        words = node["words"]
        neutral = len(words) > 1 and words[0].text.lower() == "neutral"
        piece = self.piece(words[1:] if neutral else words)
        if piece is None:
            return None
        count_leaf = node["count"]
        count = int(count_leaf.text) if count_leaf else 1
        if count < 1:
            self.diagnostics.error("E302", "place at least 1 piece", count_leaf.span)
            return None
        faction = None
        if node["faction"].type == "STRING":
            faction = self.faction(node["faction"])
            if faction is None:
                return None
        return fx.PlaceInFaction(piece, count, faction, neutral)

    @compiles(fx.RemoveFromFaction, "words+:NAME")
    def _fx_remove_piece(self, node: Node, ctx: CheckContext):
        piece = self.piece(node["words"])
        return fx.RemoveFromFaction(piece) if piece else None

    @compiles(fx.ReplaceNeutral, "words+:NAME")
    def _fx_replace_piece(self, node: Node, ctx: CheckContext):
        piece = self.piece(node["words"])
        return fx.ReplaceNeutral(piece) if piece else None

    @compiles(fx.TakeRole, "")
    def _fx_take_role(self, node: Node, ctx: CheckContext):
        return fx.TakeRole()

    @compiles(fx.TakeActions, "count:INT")
    def _fx_take_actions(self, node: Node, ctx: CheckContext):
        """`take N actions`: actions of the player's own, taken where a player acts (a card played, an action
        used). A trigger's effects happen inside another action, which the new ones would interrupt (and an action
        that sets the trigger off again would never end); a rule, a bonus or a stage acts for the game, not for a
        player taking a turn."""
        count = int(node["count"].text)
        if count < 1:
            self.diagnostics.error("E302", "take at least 1 action", node["count"].span)
            return None
        if ctx.in_trigger or ctx.definition not in ("card", "corporation") or ctx.printed_tags:
            where = "a trigger's effects" if ctx.in_trigger else "a card in nobody's play area" \
                if ctx.printed_tags else {"standard_project": "a standard project", "standard_action":
                                          "a standard action"}.get(ctx.definition, f"a {ctx.definition}'s effects")
            self.diagnostics.error("E307", f"'take {count} actions' is taken where a player acts, not in {where}: "
                                           "an action there could interrupt another or never end", node.span,
                                   "write it in a card's or a corporation's 'play:', 'action:' or 'first action:'")
            return None
        return fx.TakeActions(count)

    @compiles(fx.PassTurn, "")
    def _fx_pass(self, node: Node, ctx: CheckContext):
        """`pass`: only where a player takes a turn (a card played, an action used): a trigger's effects happen
        inside another player's action, and a rule, a bonus or a standard project acts for the game or a menu."""
        if ctx.in_trigger or ctx.definition not in ("card", "corporation") or ctx.printed_tags:
            where = "a trigger's effects" if ctx.in_trigger else "a card in nobody's play area" \
                if ctx.printed_tags else {"standard_project": "a standard project", "standard_action":
                                          "a standard action"}.get(ctx.definition, f"a {ctx.definition}'s effects")
            self.diagnostics.error("E307", f"'pass' is for a player taking a turn, not for {where}", node.span,
                                   "write it in a card's or a corporation's 'play:' or 'action:'")
            return None
        return fx.PassTurn()

    @compiles(fx.ChangeGovernment, "")
    def _fx_change_government(self, node: Node, ctx: CheckContext):
        return fx.ChangeGovernment()

    @compiles(fx.ClaimSpace, "filters*:" + "|".join(_PLACE_FILTER_RULES) + " collect?:COLLECTING_BONUS")
    def _fx_claim(self, node: Node, ctx: CheckContext):
        """`claim space [FILTER ...] [collecting [space] bonus]`: the player's marker on a free space."""
        filters = self._filters(node["filters"])
        mine = next((f for f in node["filters"] if f.kind == "on_claim"), None)
        if mine is not None:  # a space claimed is one no marker may go on again
            self.diagnostics.error("E301", "a space you claimed has your marker already: 'claim space' takes a free "
                                   "space", mine.span, "remove 'on your claim'")
            return None
        if filters is None:
            return None
        collect = node["collect"]
        space_only = collect is not None and collect.text.split()[1] == "space"   # `collecting space bonus`
        return fx.ClaimSpace(filters, collect is not None, space_only)

    def _marker_filters(self, name: Leaf, nodes: list, verb: str) -> Optional[tuple]:
        """The filters of where a marker goes: those of a placement, but a marker is no tile, so the rules of
        neighbouring tiles are not there to lift."""
        if not name.value.strip():
            self.diagnostics.error("E201", f'a marker has a name: {verb} marker "Nomad" ...', name.span)
            return None
        lifted = next((f for f in nodes if f.kind == "ignoring_adjacency"), None)
        if lifted is not None:
            self.diagnostics.error("E301", "'ignoring adjacency' lifts a rule of where a tile may go next to other "
                                   "tiles, and a marker is no tile", lifted.span, "remove it")
            return None
        return self._filters(nodes)

    @compiles(fx.PlaceMarker, "name:STRING blocks?:BLOCKING_TILES filters*")
    def _fx_place_marker(self, node: Node, ctx: CheckContext):
        """`place marker "Nomad" [blocking tiles] [FILTER ...]` (Mars Nomads): a named marker on the board."""
        filters = self._marker_filters(node["name"], node["filters"], "place")
        if filters is None:
            return None
        return fx.PlaceMarker(node["name"].value, node["blocks"] is not None, filters)

    @compiles(fx.MoveMarker, "name:STRING near?:NEXT_TO_IT filters*:" + "|".join(_PLACE_FILTER_RULES) +
              " collect?:COLLECTING_BONUS")
    def _fx_move_marker(self, node: Node, ctx: CheckContext):
        """`move marker "Nomad" [next to it] [FILTER ...] [collecting [space] bonus]`: to another free space."""
        name = node["name"]
        filters = self._marker_filters(name, node["filters"], "move")
        if filters is None:
            return None
        if node["near"] is not None:   # `next to it`: next to the space the marker stands on
            filters = (fx.SpaceFilter("next_to_marker", marker=name.value),) + filters
        collect = node["collect"]
        space_only = collect is not None and collect.text.split()[1] == "space"   # `collecting space bonus`
        return fx.MoveMarker(name.value, filters, collect is not None, space_only)

    @compiles(fx.Draw, "count:INT|X|MULTIPLE_X per?:per")
    def _fx_draw(self, node: Node, ctx: CheckContext):
        value, variable = self.count(node["count"], ctx)
        return fx.Draw(self.amount(value, variable, node["per"], ctx))

    @compiles(fx.LookKeep, "look:INT|X|MULTIPLE_X keep:INT discard?:FROM_DISCARD", also=(fx.LookDiscard,))
    def _fx_look_keep(self, node: Node, ctx: CheckContext):
        """`look N keep K` (the top of the deck), or `look N keep K from discard` (the top of the discard pile)."""
        look, variable = self.count(node["look"], ctx)
        keep = int(node["keep"].text)
        if not 0 < keep or (not variable and keep > look):
            self.diagnostics.error("E302", f"can't keep {keep} of {look} cards", node["keep"].span)
            return None
        return (fx.LookKeep if node["discard"] is None else fx.LookDiscard)(look, keep, variable)

    @compiles(fx.LookBuy, "look:INT|X|MULTIPLE_X")
    def _fx_look_buy(self, node: Node, ctx: CheckContext):
        look, variable = self.count(node["look"], ctx)
        return fx.LookBuy(look, variable)

    @compiles(fx.Discard, "up_to?:UP_TO count:INT|X|MULTIPLE_X")
    def _fx_discard(self, node: Node, ctx: CheckContext):
        value, variable = self.count(node["count"], ctx)
        return fx.Discard(fx.Amount(value, variable), node["up_to"] is not None)

    @compiles(fx.AddResources, "count:INT|X|MULTIPLE_X resource:NAME except?:add_except per_first?:per target "
                               "per?:per")
    def _fx_add(self, node: Node, ctx: CheckContext):
        value, variable = self.count(node["count"], ctx)
        target_node = node["target"]
        target = target_node.kind
        per = node["per_first"] or node["per"]  # `per` before the target or after it, not both
        if node["per_first"] is not None and node["per"] is not None:
            self.diagnostics.error("E301", "'per' is given twice", node["per"].span,
                         "count once: add N RESOURCE per QUANTITY to ...")
            return None
        written = node["resource"]
        resource = self.card_resource(written, allow_any=target != "here")
        tag_leaf = target_node["tag"] if target_node.kind in TAGGED_TARGETS else None  # only a card with that tag
        card_type = self._played_type(tag_leaf)   # `to any active card`: a type or declared kind there
        if card_type == "event":
            self.diagnostics.error("E301", "an event is never in play to hold resources", tag_leaf.span,
                                   "write a type of card in play: to any active card")
            return None
        tag = self.tag(tag_leaf) if tag_leaf is not None and card_type is None else None
        if resource is None or (tag_leaf is not None and card_type is None and tag is None):
            return None
        excluded = self._excluded_resources(node["except"], resource)
        if excluded is None:
            return None
        if target == "here":
            if not self._holds_check(resource, ctx, written.span):
                return None
        if target == "that_card" and not ctx.in_trigger and not ctx.played_before:
            self.diagnostics.error("E307",
                                   "'that card' means the card that fired a trigger, or the card an earlier 'play "
                                   "card from hand' of the same effects played; it works only in 'when ...' or "
                                   "after such a play", target_node.span,
                                   "play the card first: play card from hand; add 2 microbes to that card")
            return None
        cards = 0
        if target == "different_cards":   # `to each of 3 different cards`: at least 2, or it is `to any card`
            cards = int(target_node["cards"].text)
            if cards < 2:
                self.diagnostics.error("E302", f"'each of {cards} different cards' is not several cards",
                                       target_node["cards"].span, "write 'to any card' for one card")
                return None
        return fx.AddResources(resource, self.amount(value, variable, per, ctx), target, tag, cards=cards,
                               card_type=card_type, excluded=excluded)

    def _excluded_resources(self, node: Optional[Node], resource: str) -> Optional[tuple]:
        """`except science or animal` after `add N resource`: the card resources left out of "any type" (sorted, so
        that the order written does not matter), () without; None after an error."""
        if node is None:
            return ()
        leaves = node["resources"]
        if resource != "resource":
            self.diagnostics.error("E301", f"only 'resource' (any type) leaves types out: {resource} is one type "
                                   "already", leaves[0].span, "write: add 1 resource except science to any card")
            return None
        excluded = []
        for leaf in leaves:
            name = self.card_resource(leaf, allow_any=True)
            if name is None:
                return None
            if name == "resource":
                self.diagnostics.error("E301", "'except resource' leaves every type out", leaf.span,
                                       "name a type: except science")
                return None
            excluded.append(name)
        return tuple(sorted(set(excluded)))

    def _holds_check(self, resource: str, ctx: CheckContext, span: Span) -> bool:
        if ctx.holds == UNKNOWN_HOLDS:
            return False
        if ctx.holds is None:
            self.diagnostics.error("E501",
                                   "this card holds no resources, so nothing can be added here or removed from here",
                         span, f"add 'holds: {resource}'")
            return False
        if resource not in (ctx.holds, "resource"):
            self.diagnostics.error("E503", f"this card holds {v.plural(ctx.holds)}, not {v.plural(resource)}", span)
            return False
        return True

    @compiles(fx.RemoveResources, "up_to?:UP_TO count:INT|X|MULTIPLE_X resource:NAME source")
    def _fx_remove(self, node: Node, ctx: CheckContext):
        up_to = node["up_to"] is not None
        value, variable = self.count(node["count"], ctx)
        source, written = node["source"], node["resource"]
        if source.kind == "any_player":
            resource = self._standard_resource(written)
            if resource is None:
                return None
            player_tag = None
            if source["tag"] is not None:
                player_tag = self.tag(source["tag"]["tag"])
                if player_tag is None:
                    return None
            return fx.RemoveResources(resource, fx.Amount(value, variable), "any_player", up_to=up_to,
                                      next_to_placed=source["next_to_it"] is not None, player_tag=player_tag)
        if source.kind == "from_each_opponent":   # the stock of every other player: an attack on each
            resource = self._standard_resource(written)
            if resource is None:
                return None
            return fx.RemoveResources(resource, fx.Amount(value, variable), "each_opponent", up_to=up_to)
        resource = self.card_resource(written, allow_any=True)
        if resource is None:
            return None
        if source.kind == "here" and not self._holds_check(resource, ctx, written.span):
            return None
        return fx.RemoveResources(resource, fx.Amount(value, variable), source.kind, up_to=up_to)

    @compiles(fx.Steal, "up_to?:UP_TO count:INT|X|MULTIPLE_X resource:NAME harmed?:HARMED_YOU")
    def _fx_steal(self, node: Node, ctx: CheckContext):
        value, variable = self.count(node["count"], ctx)
        resource = self._standard_resource(node["resource"])
        if resource is None:
            return None
        return fx.Steal(resource, fx.Amount(value, variable), node["up_to"] is not None,
                        harmed=node["harmed"] is not None)

    @compiles(fx.Choice, "options+:effects")
    def _fx_choice(self, node: Node, ctx: CheckContext):
        options = tuple(self.effects(branch, attrs.evolve(ctx, refusable=True)) for branch in node["options"])
        return fx.Choice(options)

    @compiles(fx.Conditional, "condition:condition then:effects otherwise?:effects")
    def _fx_conditional(self, node: Node, ctx: CheckContext):
        condition = self.condition(node["condition"], ctx)
        then = self.effects(node["then"], attrs.evolve(ctx))
        otherwise = self.effects(node["otherwise"], attrs.evolve(ctx)) if node["otherwise"] is not None else ()
        return fx.Conditional(condition, then, otherwise) if condition else None

    @compiles(fx.ChooseX, "x:X minimum?:INT up_to:UP_TO maximum:quantity effects:effects")
    def _fx_choose_x(self, node: Node, ctx: CheckContext):
        minimum_leaf = node["minimum"]
        maximum = self.quantity(node["maximum"], ctx)
        body = self.effects(node["effects"], attrs.evolve(ctx, x_bound=True, refusable=True))
        if maximum is None:
            return None
        return fx.ChooseX(int(minimum_leaf.text) if minimum_leaf else 0, maximum, body)

    @compiles(fx.IfYouCan, "keyword:IF_YOU_CAN effects:effects")
    def _fx_if_you_can(self, node: Node, ctx: CheckContext):
        """`if you can { EFFECTS }`: checked like a `may` (skipped when they cannot all be carried out)."""
        return fx.IfYouCan(self.effects(node["effects"], attrs.evolve(ctx, refusable=True)))

    @compiles(fx.May, "effects:effects")
    def _fx_may(self, node: Node, ctx: CheckContext):
        return fx.May(self.effects(node["effects"], attrs.evolve(ctx, refusable=True)))

    @compiles(fx.CopyProduction, "count?:INT tag:NAME")
    def _fx_copy_production(self, node: Node, ctx: CheckContext):
        tag = self.tag(node["tag"])
        count_leaf = node["count"]
        count = int(count_leaf.text) if count_leaf else 1
        if count < 1:
            self.diagnostics.error("E302", "copy the production of at least 1 card", count_leaf.span)
            return None
        return fx.CopyProduction(tag, count) if tag else None

    def _chosen_cards(self, word, filters: list, event: bool = False) -> Optional[fx.CardFilter]:
        """The cards a card verb chooses among: the word before `card` (a type or declared kind, else a tag), then
        the filters; `event` for `move event ...`."""
        types, tag = ("event",) if event else (), None
        if word is not None:
            word = word["name"]
            written = self._played_type(word)
            if written is not None:
                if event and written != "event":
                    self.diagnostics.error("E301", f"'{word.text} event': an event is not {written}", word.span,
                                           f"write: {word.text} card")
                    return None
                types = (written,)
            else:
                tag = self.tag(word)
                if tag is None:
                    return None
        return self.card_filter(filters, types, tag)

    @compiles(fx.MoveCard, "kind_word?:card_word card:CARD_KIND filters*:" + "|".join(_FILTER_RULES) +
              " source:card_zone destination:card_destination kept?:kept_with")
    def _fx_move_card(self, node: Node, ctx: CheckContext):
        cards = self._chosen_cards(node["kind_word"], node["filters"], node["card"].text.lower() == "event")
        source_leaf, destination = node["source"]["name"], node["destination"]["words"]
        source = source_leaf.text.lower()
        if source not in _ZONES:
            self.diagnostics.error("E301", f"cards move from your play area, your events or your hand, not "
                                           f"'{source_leaf.text}'", source_leaf.span,
                                   did_you_mean(source, _ZONES) or "write: from play, from events or from hand")
            return None
        where = " ".join(leaf.text.lower() for leaf in destination)
        if where not in _DESTINATIONS:
            self.diagnostics.error("E301", f"a card moves to your hand, the discard pile or another player, not "
                                           f"'{where}'", destination[0].span,
                                   did_you_mean(where, _DESTINATIONS) or "write: to hand, to discard or to another "
                                                                         "player")
            return None
        where = _DESTINATIONS[where]
        if where == source or (source == "events" and where == "another_player") or \
                (where == "here" and source != "hand"):
            self.diagnostics.error("E301", f"a card from {source} cannot move to {where.replace('_', ' ')}",
                                   destination[0].span, "write: from play to hand, from hand to discard, from hand "
                                                        "to here, ...")
            return None
        resources = self._kept_with(node["kept"], where, ctx)
        if where == "here" and not self._keeps_cards(node, ctx):
            return None
        return None if cards is None or resources is None else fx.MoveCard(cards, source, where, resources)

    def _kept_with(self, node: Optional[Node], where: str, ctx: CheckContext) -> Optional[int]:
        """`to here with N resources`: the resources put on the card kept (0 without); only a card kept here has
        them."""
        if node is None:
            return 0
        count, word = node["count"], node["word"]
        if where != "here":
            self.diagnostics.error("E301", "only a card kept here gets resources as it moves", node.span,
                                   "write: move card from hand to here with 2 resources")
            return None
        if word.text.lower() not in ("resource", "resources"):
            self.diagnostics.error("E301", f"a card kept here holds resources of no kind, not '{word.text}'",
                                   word.span, "write: with 2 resources")
            return None
        return int(count.text)

    def _keeps_cards(self, node: Node, ctx: CheckContext) -> bool:
        """Cards are kept on a card in play: `here` must be such a card (not an event, a standard project, ...)."""
        if ctx.definition in ("card", "corporation") and not ctx.event:
            return True
        where = "an event leaves play when played" if ctx.event else f"a {ctx.definition} is not a card in play"
        self.diagnostics.error("E301", f"cards are kept on a card in play, but {where}", node.span,
                               "write it on an active card: action: move card from hand to here")
        return False

    @compiles(fx.DoubleKept, "")
    def _fx_double_kept(self, node: Node, ctx: CheckContext):
        return fx.DoubleKept() if self._keeps_cards(node, ctx) else None

    @compiles(fx.KeptPlayable, "phrase:KEPT_PLAYABLE amount?:INT resource?:NAME")
    def _passive_kept_playable(self, node: Node, ctx: CheckContext):
        if node["amount"] is None:
            return fx.KeptPlayable()
        if self._standard_resource(node["resource"]) not in (None, "megacredits"):
            self.diagnostics.error("E301", "a card's cost is lowered in megacredits", node["resource"].span,
                                   "write: for 1 MC less per resource on them")
            return None
        amount = int(node["amount"].text)
        if amount == 0:
            self.diagnostics.error("E302", "'for 0 MC less' lowers no cost", node["amount"].span,
                                   "write: for 1 MC less per resource on them, or leave it out")
            return None
        return fx.KeptPlayable(amount)

    @compiles(fx.CopyPlay, "verb:PLAY kind_word?:card_word card:CARD_KIND filters*:" + "|".join(_FILTER_RULES))
    def _fx_copy_play(self, node: Node, ctx: CheckContext):
        if node["card"].text.lower() == "event":   # an event leaves play when played: none is there to copy
            self.diagnostics.error("E301", "an event is not in a play area: 'copy play' copies another card there",
                                   node["card"].span, "write: copy play of another card")
            return None
        cards = self._chosen_cards(node["kind_word"], node["filters"])
        return None if cards is None else fx.CopyPlay(cards)

    @compiles(fx.Reveal, "tag:NAME effects:effects")
    def _fx_reveal(self, node: Node, ctx: CheckContext):
        tag = self.tag(node["tag"])
        then = self.effects(node["effects"], attrs.evolve(ctx))
        return fx.Reveal(tag, then) if tag else None

    @compiles(fx.Require, "condition:condition")
    def _fx_require(self, node: Node, ctx: CheckContext):
        condition = self.condition(node["condition"], ctx)
        return fx.Require(condition) if condition else None

    @compiles(fx.RevealUntil, "count:INT wanted+:with_icon|" + "|".join(_FILTER_RULES))
    def _fx_reveal_until(self, node: Node, ctx: CheckContext):
        """`reveal cards until N FILTER ...`: a tag, a resource held and an icon have fields of their own (as
        before the card filters came, so that those cards compile as they did); the other filters are one
        CardFilter, read by the matcher every card filter is read by."""
        count = int(node["count"].text)
        if count < 1:
            self.diagnostics.error("E302", "reveal until at least 1 card", node["count"].span)
            return None
        fields: dict = {}
        others = []
        for wanted in node["wanted"]:
            field = {"tag_filter": "tag", "holding_filter": "holds", "with_icon": "icon"}.get(wanted.kind)
            if field is None:
                others.append(wanted)
                continue
            if field == "tag" and field in fields:   # `with space tag with earth tag`: both, in the CardFilter
                others.append(wanted)
                continue
            if field in fields:
                what = "card resource"
                self.diagnostics.error("E301", f"a card revealed is looked at for one {what} of this kind at a time",
                                       wanted.span,
                                       "keep one; the other card filters may go beside it: with TAG tag, with "
                                       "requirements, with no tags, with cost >= N, with event type, ...")
                return None
            if field == "tag":
                found = self.tag(wanted["tag"])
            else:
                found = self.card_resource(wanted["name" if field == "icon" else "resource"])
            if found is None:
                return None
            fields[field] = found
        if others:
            cards = self.card_filter(others)
            if cards is None:
                return None
            fields["cards"] = cards
        return fx.RevealUntil(count, **fields)

    @compiles(fx.RevealFromHand, "x:X filters*:" + "|".join(_FILTER_RULES) + " effects:effects")
    def _fx_reveal_from_hand(self, node: Node, ctx: CheckContext):
        """`reveal X cards from hand FILTER ... { }`: X is bound in the block as in `choose X`, since the player
        picks how many to reveal the way they pick an X."""
        cards = None
        if node["filters"]:
            cards = self.card_filter(node["filters"])
            if cards is None:
                return None
        body = self.effects(node["effects"], attrs.evolve(ctx, x_bound=True, refusable=True))
        return fx.RevealFromHand(cards, body)

    @compiles(fx.SharedReveal, "count:quantity take:INT rounds?:UNTIL_NONE_LEFT")
    def _fx_shared_reveal(self, node: Node, ctx: CheckContext):
        """`reveal QUANTITY cards, each player takes K [until none left]`: a player takes at least one card a turn."""
        count = self.quantity(node["count"], ctx, number=True)
        take = int(node["take"].text)
        if take < 1:
            self.diagnostics.error("E302", f"each player takes {take} cards: nobody would take any",
                                   node["take"].span, "write: each player takes 1")
            return None
        return fx.SharedReveal(count, take, node["rounds"] is not None) if count is not None else None

    @compiles(fx.PlayFromHand, "play_word:PLAY kind_word?:card_word card:CARD_KIND filters*:" +
              "|".join(_FILTER_RULES) + " source:card_zone discount?:INT ignoring?:IGNORING_REQUIREMENTS "
              "discard?:THEN_DISCARD")
    def _fx_play_from_hand(self, node: Node, ctx: CheckContext):
        source_leaf = node["source"]["name"]
        source = source_leaf.text.lower()
        if source not in _PLAY_ZONES:
            self.diagnostics.error("E301", f"a card is played from your hand or your played events, not "
                                           f"'{source_leaf.text}'", source_leaf.span,
                                   did_you_mean(source, _PLAY_ZONES) or "write: from hand, or from events")
            return None
        cards = None
        event = node["card"].text.lower() == "event"
        if node["kind_word"] is not None or node["filters"] or event:
            cards = self._chosen_cards(node["kind_word"], node["filters"], event)
            if cards is None:
                return None
        if node["discard"] is not None and source != "events" and not event:
            self.diagnostics.error("E301", "'then discard' sends a played event to the discard pile instead of your "
                                           "events: it needs an event", node["discard"].span,
                                   "write: play event ... from hand then discard, or play event ... from events "
                                   "then discard")
            return None
        modifiers = []
        discount = node["discount"]
        if discount is not None:
            modifiers.append(fx.Discount(int(discount.text), "megacredits", fx.DiscountTarget("cards")))
        if node["ignoring"] is not None:
            modifiers.append(fx.RequirementLeeway(IGNORED_REQUIREMENT_STEPS))
        return fx.PlayFromHand(tuple(modifiers), cards, source, node["discard"] is not None)

    @compiles(fx.RevealEach, "count:quantity order:ONE_BY_ONE cases+:reveal_case")
    def _fx_reveal_each(self, node: Node, ctx: CheckContext):
        """`reveal N cards one by one { FILTER ... -> EFFECTS | ... }`: each case's filters, one CardFilter, and its
        effects, where `play it` means the card looked at (`revealed`)."""
        count = self.quantity(node["count"], ctx, number=True)
        filters, cases = [], []
        for case in node["cases"]:
            cards = self.card_filter(case["filters"])
            body = self.effects(case["effects"], attrs.evolve(ctx, revealed=True))
            if cards is None:
                return None
            filters.append(cards)
            cases.append(body)
        return None if count is None else fx.RevealEach(count, tuple(filters), tuple(cases))

    @compiles(fx.PlayIt, "play_word:PLAY free?:FOR_FREE ignoring?:IGNORING_ALL_REQUIREMENTS")
    def _fx_play_it(self, node: Node, ctx: CheckContext):
        if not ctx.revealed:
            self.diagnostics.error("E307", "'play it' plays the card a case of 'reveal N cards one by one { }' looks "
                                           "at; there is no such card here", node.span,
                                   "write it in a case: reveal 2 cards one by one { with science tag -> play it }")
            return None
        return fx.PlayIt(node["free"] is not None, node["ignoring"] is not None)

    @compiles(fx.EventsTags, "phrase:EVENTS_TAGS_COUNT")
    def _passive_events_tags(self, node: Node, ctx: CheckContext):
        return fx.EventsTags()

    @compiles(fx.GainRaised, "")
    def _fx_gain_raised(self, node: Node, ctx: CheckContext):
        if not ctx.in_trigger:
            self.diagnostics.error("E307", "'gain that production' means a production just raised; it works only in "
                                 "'when you raise production -> ...'", node.span)
            return None
        return fx.GainRaised()

    @compiles(fx.EachOpponent, "condition?:condition must?:MUST effects:effects")
    def _fx_each_opponent(self, node: Node, ctx: CheckContext):
        return self._each(fx.EachOpponent, node, ctx)

    @compiles(fx.EachPlayer, "condition?:condition must?:MUST effects:effects")
    def _fx_each_player(self, node: Node, ctx: CheckContext):
        return self._each(fx.EachPlayer, node, ctx)

    def _each(self, kind: type, node: Node, ctx: CheckContext):
        """`each player [with CONDITION] [must] { }` and `each opponent ...`: the block, whom the condition keeps,
        and whether every one kept must be able to carry it out (`must`: the card cannot be played otherwise)."""
        condition = None
        if node["condition"] is not None:
            condition = self.condition(node["condition"], ctx)
            if condition is None:
                return None
        must = node["must"]
        if must is not None and not ctx.refusable:
            where = "a trigger's effects" if ctx.in_trigger else "these effects"
            self.diagnostics.error("E307", f"'must' refuses the card or action when a player cannot carry out the "
                                           f"block, but {where} are carried out unchecked: nothing can refuse them",
                                   must.span, "leave out 'must': a player who cannot is skipped")
            return None
        body = self.effects(node["effects"], attrs.evolve(ctx, refusable=True, trigger_subject=None))
        return kind(body, condition, must is not None)

    @compiles(fx.ThatPlayer, "effects:effects")
    def _fx_that_player(self, node: Node, ctx: CheckContext):
        """`that player { }`: the effects of the player who set a trigger off. Refused where there is no such
        player other than the trigger's owner: outside a trigger, in a `when you ...` one (that player is you), in
        a trigger of the production phase (every player produces), inside a block that names players itself."""
        if ctx.trigger_subject not in ("any", "another", MARKED):
            if not ctx.in_trigger:
                why, hint = "it works only in 'when any player ...' and 'when another player ...', and in the " \
                    "block of 'put MARK on TILE { }' (the tile's owner)", \
                    "write it in a trigger: when any player plays microbe tag -> that player { gain 2 MC }"
            elif ctx.trigger_subject == "you":
                why, hint = "in a 'when you ...' trigger that player is you", "leave out 'that player { }'"
            else:
                why, hint = "here no single player sets the trigger off, or a block around it names its " \
                    "players", "write it directly in the trigger's effects"
            self.diagnostics.error("E307", f"'that player {{ }}' means the player who set a trigger off; {why}",
                                   node.span, hint)
            return None
        # checked before it is carried out (skipped when that player cannot), as `each opponent { }` is
        return fx.ThatPlayer(self.effects(node["effects"], attrs.evolve(ctx, refusable=True, trigger_subject=None)))

    @compiles(fx.PutMark, "count?:INT mark:NAME own?:OWNER tile:NAME filters*:" + "|".join(_PLACE_FILTER_RULES) +
              " most?:mark_max effects?:effects")
    def _fx_put_mark(self, node: Node, ctx: CheckContext):
        """`put [N] MARK on [your | opponent] TILE [FILTER ...] [max N] [{ EFFECTS }]`: a declared mark on a tile
        the player picks; the filters pick the tile as a placement trigger's pick the tile placed, and the block's
        `that player` is the tile's owner."""
        mark_leaf = node["mark"]
        mark = v.singular(mark_leaf.text.lower())
        if mark not in self.marks:
            self.diagnostics.error("E112", f"unknown mark '{mark_leaf.text}'", mark_leaf.span,
                                   did_you_mean(mark, self.marks) or f"declare it: mark {mark_leaf.text.lower()}",
                                   respelling(mark_leaf.span, mark, self.marks, mark_leaf.text))
            return None
        found = self._owned_tile(node, f"write: put {mark} on ocean")
        if found is None:
            return None
        tile, whose = found
        count = int(node["count"].text) if node["count"] is not None else 1
        most = int(node["most"]["most"].text) if node["most"] is not None else None
        if count < 1 or (most is not None and most < count):
            where = node["count"] if count < 1 or node["most"] is None else node["most"]
            self.diagnostics.error("E302", f"put at least 1 {mark}, and no more than 'max' allows on a tile",
                                   where.span, f"write: put 1 {mark} on {tile} max 1")
            return None
        lifted = next((f for f in node["filters"] if f.kind == "ignoring_adjacency"), None)
        if lifted is not None:
            self.diagnostics.error("E301", "'ignoring adjacency' lifts a rule of where a tile may go, and a mark goes "
                                   "on a tile already placed", lifted.span, "remove it")
            return None
        filters = self._filters(node["filters"])
        if filters is None:
            return None
        body = ()
        if node["effects"] is not None:
            body = self.effects(node["effects"], attrs.evolve(ctx, refusable=True, trigger_subject=MARKED))
        return fx.PutMark(mark, tile, count, whose in ("your", "own"), whose == "opponent", filters, most, body)

    @compiles(fx.Give, "up_to?:UP_TO count:INT|X|MULTIPLE_X resource:NAME to:GIVE_TO")
    def _fx_give(self, node: Node, ctx: CheckContext):
        """`give [up to] N RESOURCE to (the victim | that player)`: a player to give to exists only in a trigger
        that names one (a harm's victim; who set off a `when any player` or `when another player` trigger)."""
        to = "victim" if node["to"].text.split()[0] == "the" else "that_player"
        if to == "victim" and not ctx.harming:
            self.diagnostics.error("E307", "'the victim' is the player harmed in a 'when ... harms ...' trigger; "
                                           "here nobody is", node["to"].span,
                                   "write it in such a trigger: when any player harms another player -> give up to "
                                   "3 megacredits to the victim")
            return None
        if to == "that_player" and ctx.trigger_subject not in ("any", "another"):
            self.diagnostics.error("E307", "'that player' is the player who set off a 'when any player ...' or "
                                           "'when another player ...' trigger; here there is none but you",
                                   node["to"].span, "write it in such a trigger: when another player places city "
                                                    "tile -> give up to 2 megacredits to that player")
            return None
        up_to = node["up_to"] is not None
        if not up_to and not ctx.refusable:
            count, resource = node["count"], node["resource"]
            where = "a trigger's effects" if ctx.in_trigger else "these effects"
            self.diagnostics.error("E307", f"'give {count.text} {resource.text}' takes resources the player must "
                                           f"have, but {where} are carried out unchecked: nothing can refuse them",
                                   node.span, f"write 'give up to {count.text} {resource.text}': the player gives "
                                              f"what they have, up to {count.text}",
                                   (Fix(count.span, f"up to {count.text}"),))
            return None
        value, variable = self.count(node["count"], ctx)
        resource = self._standard_resource(node["resource"])
        return fx.Give(resource, fx.Amount(value, variable), up_to, to) if resource else None

    @compiles(fx.FaceDown, "")
    def _fx_face_down(self, node: Node, ctx: CheckContext):
        """`turn this card face down`: only a card that stays in play, a project card that is no event, a card of
        a declared kind or a corporation, has a play area to leave."""
        if ctx.definition not in ("card", "corporation") or ctx.event:
            what = "an event is never in play" if ctx.event else "these effects belong to no card in play"
            self.diagnostics.error("E307", f"'turn this card face down' takes a card out of play, but {what}",
                                   node.span, "write it in the effects of a corporation or of a card that stays in "
                                              "play (active, automated, a declared kind)")
            return None
        return fx.FaceDown()

    @compiles(fx.MoveThisCard, "card:THIS_CARD destination:THAT_PLAYERS_EVENTS")
    def _fx_move_this(self, node: Node, ctx: CheckContext):
        """`move this card to that player's events`: only an event's `play:` (a card in play has no event pile to go
        to, and its lasting effects would go with it), and only after an effect that targets another player, who is
        "that player" (Law Suit: `steal 3 MC from any player who harmed you this generation; move this card to ...`)."""
        if not ctx.event or ctx.in_trigger:
            self.diagnostics.error("E301", "only an event moves into another player's events: 'move this card to that "
                                           "player's events' goes in an event's 'play:'", node.span,
                                   "make the card 'type: event', or move another card: move card from play to "
                                   "another player")
            return None
        if not ctx.targeted_before:
            self.diagnostics.error("E307", "'that player' is the player an earlier effect of the card targeted, but no "
                                           "effect before this one targets a player", node.span,
                                   "target them first: steal 3 megacredits from any player; move this card to that "
                                   "player's events")
            return None
        return fx.MoveThisCard()

    @compiles(fx.RemoveTile, "count?:INT|X|MULTIPLE_X tile:NAME")
    def _fx_remove_tile(self, node: Node, ctx: CheckContext):
        count_leaf, word = node["count"], node["tile"]
        if count_leaf is not None and count_leaf.type != "INT":
            self.diagnostics.error("E302", "remove a number of tiles, not X", count_leaf.span)
            return None
        tile = v.singular(word.text)
        removable = tuple(sorted(v.OCEAN_TILES))  # an ocean leaves the board back to its supply; others cannot
        if tile not in removable:
            self.diagnostics.error("E103", f"only {' or '.join(removable)} tiles can be removed, not '{word.text}'",
                                   word.span, did_you_mean(tile, removable) or f"write: remove {removable[0]} tile",
                                   respelling(word.span, tile, removable, word.text))
            return None
        count = int(count_leaf.text) if count_leaf else 1
        if count < 1:
            self.diagnostics.error("E302", "remove at least 1 tile", count_leaf.span)
            return None
        return fx.RemoveTile(tile, count)

    @compiles(fx.Repeat, "times:quantity effects:effects")
    def _fx_repeat(self, node: Node, ctx: CheckContext):
        times = self.quantity(node["times"], ctx, number=True)   # `repeat 3 times`: a plain number too
        body = self.effects(node["effects"], attrs.evolve(ctx, refusable=True))
        return fx.Repeat(times, body) if times is not None else None

    @compiles(fx.Rank, "lowest?:LOWEST score:quantity at_least?:AT_LEAST minimum?:INT places+:rank_place")
    def _fx_rank(self, node: Node, ctx: CheckContext):
        score = self.quantity(node["score"], ctx)
        minimum = node["minimum"]
        places, expected = [], ("first", "second", "third", "fourth", "fifth")
        for index, place in enumerate(node["places"]):
            key = place["place"]
            word = key.text.rstrip(":").strip()
            if word != expected[index]:
                self.diagnostics.error("E302", f"the places of a rank come in order: '{expected[index]}:' here, not "
                                       f"'{word}:'", key.span, f"write: {expected[index]}:")
                return None
            places.append(self.effects(place["effects"], attrs.evolve(ctx, refusable=True)))
        if score is None:
            return None
        return fx.Rank(score, tuple(places), lowest=node["lowest"] is not None,
                       minimum=int(minimum.text) if minimum is not None else None)

    @compiles(fx.ResolveStage, "words+:NAME")
    def _fx_resolve_stage(self, node: Node, ctx: CheckContext):
        kind = self._staged_kind(node)
        return fx.ResolveStage(kind) if kind else None

    @compiles(fx.AdvanceStages, "words+:NAME")
    def _fx_advance_stages(self, node: Node, ctx: CheckContext):
        kind = self._staged_kind(node)
        return fx.AdvanceStages(kind) if kind else None

    def _staged_kind(self, node: Node) -> Optional[str]:
        """The declared kind of card a `resolve`/`advance` names, in the singular or the plural (`advance
        missions`); whether it has stages is checked once every file is in (compiler/pipeline.py)."""
        words = node["words"]
        if len(words) > 1 and v.singular(words[-1].text) == "card":  # `advance mission cards`
            words = words[:-1]
        written = " ".join(leaf.text.lower() for leaf in words)
        singular = " ".join([w.text.lower() for w in words[:-1]] + [v.singular(words[-1].text)])
        for kind in (written, singular):
            if kind in self.staged_kinds:
                return kind
            if kind in self.card_kinds:
                self.diagnostics.error("E105", f"the cards of '{kind}' have no stages to resolve or advance", node.span,
                             f'give the kind stages: card kind "{kind}" {{ ... stages: far, near }}')
                return None
        span = Span(words[0].span.path, words[0].span.line, words[0].span.column, words[-1].span.end_line,
                    words[-1].span.end_column)
        self.diagnostics.error("E105", f"unknown kind of card '{written}'", span,
                     did_you_mean(singular, self.card_kinds) or
                     ("declared kinds: " + ", ".join(self.card_kinds) if self.card_kinds else
                      'declare one with: card kind "NAME" { deal: 0 keep 0  stages: far, near }'),
                     respelling(span, singular, self.card_kinds, written))
        return None

    @compiles(fx.FundAward, "")
    def _fx_fund_award(self, node: Node, ctx: CheckContext):
        return fx.FundAward()

    @compiles(fx.LookPlay, "look:INT kind:NAME play_word:PLAY up_to?:UP_TO play:INT price?:effects")
    def _fx_look_play(self, node: Node, ctx: CheckContext):
        look, word, play = int(node["look"].text), node["kind"], int(node["play"].text)
        kind = word.text.lower()
        piles = (*self.card_kinds, "corporation")   # the corporations not dealt are a pile too
        if kind not in piles:
            self.diagnostics.error("E105", f"unknown kind of card '{word.text}'", word.span,
                         did_you_mean(kind, piles) or
                         ("declared kinds: " + ", ".join(self.card_kinds) + ", and corporation" if self.card_kinds
                          else 'corporation, or declare one with: card kind "NAME" { deal: N keep K }'),
                         respelling(word.span, kind, piles, word.text))
            return None
        if not 0 < play <= look:
            self.diagnostics.error("E302", f"can't play {play} of {look} cards", node["play"].span)
            return None
        up_to = node["up_to"] is not None
        price = ()
        if node["price"] is not None:   # paid for each card played, so the player must be free to play none
            if not up_to:
                self.diagnostics.error("E307", "a price on playing needs 'play up to K': a player who cannot pay "
                                       "must be free to play none", node["price"].span,
                                       f"write 'look {look} {kind} cards play up to {play} {{ ... }}'")
                return None
            price = self.effects(node["price"], attrs.evolve(ctx, refusable=False))
        return fx.LookPlay(look, kind, play, up_to=up_to, price=price)

    @compiles(fx.ReuseAction, "")
    def _fx_reuse_action(self, node: Node, ctx: CheckContext):
        return fx.ReuseAction()

    @compiles(fx.UseProject, "name?:STRING otherwise?:effects")
    def _fx_use_project(self, node: Node, ctx: CheckContext):
        """`use standard project ["NAME"] [else { EFFECTS }]`: the name is checked against the standard projects
        when the game is set up (a declared project may come from another file)."""
        otherwise = self.effects(node["otherwise"], attrs.evolve(ctx)) if node["otherwise"] is not None else None
        return fx.UseProject(node["name"].value if node["name"] is not None else None, otherwise)

    @compiles(fx.SendPiece, "words+:NAME reusing?:REUSING_ONE any_site?:TO_ANY_SITE every_bonus?:TAKING_EVERY_BONUS")
    def _fx_send(self, node: Node, ctx: CheckContext):
        piece = self.piece(node["words"])
        return fx.SendPiece(piece, reusing=node["reusing"] is not None, any_site=node["any_site"] is not None,
                            every_bonus=node["every_bonus"] is not None) if piece else None

    @compiles(fx.MoveMarkers, "steps:SIGNED which:a_site|another_site|each_site")
    def _fx_marker_move(self, node: Node, ctx: CheckContext):
        steps, _ = self.signed(node["steps"], ctx)
        return fx.MoveMarkers((steps,), each=node["which"].kind == "each_site")

    @compiles(fx.CollectBonus, "words+:NAME")
    def _fx_collect_bonus(self, node: Node, ctx: CheckContext):
        piece = self.piece(node["words"])
        return fx.CollectBonus(piece) if piece else None

    @compiles(fx.SiteIntoPlay, "play_word:PLAY")
    def _fx_site_into_play(self, node: Node, ctx: CheckContext):
        return fx.SiteIntoPlay()

    @compiles(fx.SiteOutOfPlay, "play_word:PLAY")
    def _fx_site_out_of_play(self, node: Node, ctx: CheckContext):
        return fx.SiteOutOfPlay()

    @compiles(fx.Nothing, "")
    def _fx_nothing(self, node: Node, ctx: CheckContext):
        return fx.Nothing()

    @compiles(fx.Neutral, "effects:effects")
    def _fx_neutral(self, node: Node, ctx: CheckContext):
        body = self.effects(node["effects"], attrs.evolve(ctx))
        wrong = _not_neutral(body)
        if wrong is not None:
            self.diagnostics.error("E308", f"'neutral {{ }}' is carried out for nobody, so it can't hold '{wrong}'",
                                   node.span, "a neutral block raises global parameters, places tiles and moves the "
                                   "markers of sites, with choose, if, may and require around them")
            return None
        return fx.Neutral(body)

    @compiles(fx.DecidedBy, "decider:DECIDER effects:effects")
    def _fx_decided_by(self, node: Node, ctx: CheckContext):
        """`decided by DECIDER { }`: the block checks as the effects around it do (they are still the player's:
        a card's are refused when they cannot all be carried out, a trigger's are not)."""
        decider = " ".join(node["decider"].text.split())   # the words as the verb names them, one space apart
        return fx.DecidedBy(decider, self.effects(node["effects"], attrs.evolve(ctx)))

    @compiles(fx.NextCard, "modifiers+")
    def _fx_next_card(self, node: Node, ctx: CheckContext):
        modifiers = []
        for child in node["modifiers"]:
            passive = self.passive(child, ctx)
            if isinstance(passive, fx.Trigger):
                self.diagnostics.error("E307", "'next card' holds modifiers (discount, leeway), not triggers",
                                       child.span)
            elif passive is not None and not _lasts_for_next_card(passive):
                self.diagnostics.error(
                    "E307", "'next card' holds a discount on cards, a requirement leeway or 'use steel | titanium "
                    "as megacredits'; this modifier would do nothing there",
                    child.span, hint="write it as an 'effect:' of an active card, or leave it out")
            elif passive is not None:
                modifiers.append(passive)
        return fx.NextCard(tuple(modifiers))

    # ------------------------------------------------------------------ passive effects

    def passive(self, node: Node, ctx: CheckContext):
        method = self._checker_of(node)
        if method is None:
            return None
        compiled = method(self, node, ctx)
        if compiled is not None:
            self.lint_passive(node, compiled)
        return compiled

    @compiles(fx.Trigger, "once?:ONCE_PER_ACTION subject:you|any_player|another_player event "
                          "including_this?:INCLUDING_THIS effects:effects")
    def _passive_trigger(self, node: Node, ctx: CheckContext):
        subject = {"you": "you", "any_player": "any", "another_player": "another"}[node["subject"].kind]
        including_this = node["including_this"] is not None
        event = self._event(node["event"])
        adding = event.resource if event is not None and event.kind == "add_resource" else None
        produce = event is not None and event.kind == "production"   # every player produces at once: no one sets it off
        harming = event is not None and event.kind in ("harm", "harm_you")
        effects = self.effects(node["effects"], attrs.evolve(ctx, in_trigger=True, refusable=False, adding=adding,
                                                             placing=event is not None and event.kind == "place",
                                                             trigger_subject=None if produce else subject,
                                                             harming=harming))
        if event is None:
            return None
        if subject == "you" and event.kind == "harm_you":
            self.diagnostics.error("E307", "a player never harms themselves: 'you harm you' never happens",
                                   node["subject"].span, "write 'when another player harms you' (or 'when any "
                                                         "player harms you')")
            return None
        if subject == "another" and (including_this or event.kind == "production"):
            # the card's own play is its owner's, and every player produces at once
            what = "including this" if including_this else "produce"
            self.diagnostics.error("E307", f"'another player' never goes with '{what}'", node["subject"].span,
                         "'including this' counts the card's own play, which is its owner's: write 'when you ...'"
                         if including_this else "every player produces at once: write 'when you produce'")
            return None
        if event.kind == "add_resource" and event.here:   # `when you add microbe here`: this card must hold them
            if subject == "another":
                self.diagnostics.error("E307", "'another player' never goes with 'here': only the card's owner adds "
                                       "resources to it", node["subject"].span, "write 'when you add ... here'")
                return None
            if not self._holds_check(event.resource, ctx, node["event"].span):
                return None
        return fx.Trigger(subject, event, effects, including_this, once_per_action=node["once"] is not None)

    def _card_filters(self, nodes: list[Node]) -> dict:
        result: dict = {"excluded": (), "excluded_spans": ()}
        for node in nodes:
            if node.kind == "cost_filter":   # two costs keep the narrower range, as in a CardFilter
                _narrow_cost(result, node)
            elif node.kind == "except_filter":
                result["excluded"] = result["excluded"] + (node["name"].value,)
                result["excluded_spans"] = result["excluded_spans"] + (node["name"].span,)
            elif node.kind == "vp_filter":
                result["with_vp"] = True
            elif node.kind == "no_tags_filter":
                result["no_tags"] = True
            elif node.kind == "holding_filter":
                resource = self.card_resource(node["resource"])
                if resource is None or not self._once(result, "holds", resource, node, "holding RESOURCE"):
                    return None
        others = [node for node in nodes if node.kind in _CARD_ONLY_FILTERS]
        if others:   # the filters the card verbs share, beyond the event's own fields: one CardFilter
            cards = self.card_filter(others)
            if cards is None:
                return None
            result["cards"] = cards
        return result

    def card_filter(self, nodes: list, types: tuple[str, ...] = (), tag: Optional[str] = None) \
            -> Optional[fx.CardFilter]:
        """The card filters written after a card (`with no earth tag`, `with cost <= 16`, `holding microbe`, ...)
        as one CardFilter, or None after reporting why not (an unknown tag or card resource, a filter that holds one
        value given two). Filters of one kind add up: `with space tag with no jovian tag with no earth tag` is a card
        with a space tag and none of the other two; two costs keep the narrower range."""
        fields: dict = {"types": types, "tag": tag}
        for node in nodes:
            if node.kind == "cost_filter":
                _narrow_cost(fields, node)
            elif node.kind == "tag_count_filter":   # `with tags >= 2`: how many tags, the event tag counted
                operator, value = node["operator"].text, int(node["value"].text)
                if operator in (">=", ">", "=="):
                    fields["min_tags"] = value + (1 if operator == ">" else 0)
                if operator in ("<=", "<", "=="):
                    fields["max_tags"] = value - (1 if operator == "<" else 0)
            elif node.kind == "vp_filter":
                fields["with_vp"] = True
            elif node.kind == "no_tags_filter":
                fields["no_tags"] = True
            elif node.kind == "tag_filter":
                found = self.tag(node["tag"])
                if found is None:
                    return None
                fx.filter_tag(fields, found, lacking=False)
            elif node.kind == "lacks_tag_filter":   # `with no jovian or earth tag`: none of them
                for leaf in node["tags"]:
                    found = self.tag(leaf)
                    if found is None:
                        return None
                    fx.filter_tag(fields, found, lacking=True)
            elif node.kind == "type_filter":   # `with event type`, `with active or automated type`
                written = self._filter_types(node, fields["types"])
                if written is None:
                    return None
                fields["types"] = written
            elif node.kind == "any_tag_filter":   # `with earth or jovian tag`: one of them at least
                tags = tuple(self.tag(leaf) for leaf in node["tags"])
                if None in tags:
                    return None
                if not self._once(fields, "any_tag", tuple(dict.fromkeys(tags)), node, "with A or B tag"):
                    return None
            elif node.kind == "holding_filter":
                found = self.card_resource(node["resource"])
                if found is None or not self._once(fields, "holds", found, node, "holding RESOURCE"):
                    return None
            elif node.kind == "requirements_filter":
                fields["requirements"] = fields.get("requirements") or "any"
            elif node.kind == "global_requirements_filter":
                fields["requirements"] = "global"   # the narrower of the two
            elif node.kind == "faction_requirements_filter":   # `"Blue Party" rules`, `envoys in "Blue Party" >= 2`
                fields["requirements"] = "faction"
            elif node.kind == "special_tile_filter":
                fields["special_tile"] = True
            elif node.kind in _LACKING:
                if _LACKING[node.kind] not in fields.get("lacking", ()):
                    fields["lacking"] = fields.get("lacking", ()) + (_LACKING[node.kind],)
            elif node.kind == "except_filter":
                self.diagnostics.error("E301", "'except' names a standard project, not a card", node.span,
                                       "write the card filters: with TAG tag, with no TAG tag, with cost <= N, ...")
                return None
        return fx.CardFilter(**fields)

    def _once(self, fields: dict, key: str, value, node: Node, form: str) -> bool:
        """A filter that holds one value (`holding RESOURCE`, `with A or B tag`) written twice with two: E301,
        as a card holds one kind of resource and two `or` lists would have to be read as one."""
        if fields.get(key) not in (None, (), value):
            self.diagnostics.error("E301", f"'{form}' is given twice with two values: a card passes one",
                                   node.span, "keep one" + (" list: with earth or jovian or science tag"
                                                            if key == "any_tag" else ""))
            return False
        fields[key] = value
        return True

    def _filter_types(self, node: Node, before: tuple[str, ...]) -> Optional[tuple[str, ...]]:
        """`with event type`: the card types (or declared kinds) named, within the type already written before the
        card (`move event ... with event type` is one type; `active card with event type` none: E301)."""
        written = []
        for leaf in node["types"]:
            word = " ".join(leaf.text.lower().split())
            if word not in v.CARD_TYPES and word not in self.card_kinds:
                known = tuple(v.CARD_TYPES) + tuple(self.card_kinds)
                self.diagnostics.error("E105", f"unknown card type '{leaf.text}'", leaf.span,
                                       did_you_mean(word, known) or "card types: " + ", ".join(known))
                return None
            written.append(word)
        if not before:
            return tuple(dict.fromkeys(written))
        kept = tuple(kind for kind in before if kind in written)
        if not kept:
            self.diagnostics.error("E301", f"a {' or '.join(before)} card is never {' or '.join(written)}",
                                   node.span, "keep one type: the word before 'card', or 'with TYPE type'")
            return None
        return kept

    def _played_type(self, name) -> Optional[str]:
        """A card type or declared kind written where a tag may be (`play active card`), or None."""
        word = " ".join(name.text.lower().split()) if name is not None else None
        return word if word in v.CARD_TYPES or word in self.card_kinds else None

    def _played_types(self, names: list) -> Optional[tuple]:
        """The types of `when you play automated or active card` (several words before `card`, each a type or a
        declared kind, as a quantity's `automated or active cards`), () for one word or none (a type or a tag, read
        by the caller), or None after reporting a word that is not a type."""
        if len(names) < 2:
            return ()
        types = []
        for leaf in names:
            word = self._played_type(leaf)
            if word is None:
                self.diagnostics.error("E301", f"'{leaf.text}' is not a card type: several words before 'card' are "
                                       "types (automated or active card)", leaf.span,
                                       "for one of several tags, write the filter: card with earth or space tag")
                return None
            types.append(word)
        return tuple(dict.fromkeys(types))

    def _play_event(self, played: Node) -> Optional[fx.TriggerEvent]:
        """`play earth or space tag` (once per tag) or `play [TYPES or TAG] card|event FILTERS` (once per card)."""
        if played.kind == "played_tag":
            tags = []
            for leaf in played["tags"]:
                tag = self.tag(leaf)
                if tag is None:
                    return None
                tags.append(tag)
            return fx.TriggerEvent("play_tag", tags=tuple(tags))
        tag, types = None, self._played_types(played["names"])
        if types is None:
            return None
        name = played["names"][0] if len(played["names"]) == 1 else None
        written_type = self._played_type(name)
        if name is not None and written_type is None:
            tag = self.tag(name)
            if tag is None:
                return None
        card_kind = played["kind"].text
        named = next((f for f in played["filters"] if f.kind == "except_filter"), None)
        if named is not None:   # `except "NAME"` names a standard project (`when you use standard project`)
            self.diagnostics.error("E301", "'except' names a standard project, not a card: a card played is "
                                   "chosen by its filters", named.span,
                                   "write the card filters: with TAG tag, with no TAG tag, with cost <= N, with "
                                   "vp, ... (a card never sets off its own trigger unless 'including this')")
            return None
        filters = self._card_filters(played["filters"])
        if filters is not None and written_type is not None:   # `play active card`: a type, not a tag
            types = (written_type,)
        if filters is not None and types:   # `play automated or active card`: one of these types
            filters["cards"] = attrs.evolve(filters.get("cards") or fx.CardFilter(), types=types)
        return None if filters is None else fx.TriggerEvent("play_card", tag=tag, card_kind=card_kind, **filters)

    def _event(self, node: Node) -> Optional[fx.TriggerEvent]:
        if node.kind == "plays":
            return self._play_event(node["played"])
        if node.kind == "places":
            words = node["words"]
            word = words[0]
            tile = v.singular(word.text)
            piece = v.lookup_piece([w.text for w in words], self.pieces)
            if piece is not None:
                if node["filters"]:
                    self.diagnostics.error("E301", f"a {piece} goes on a site: its placement has no space filter",
                                 node["filters"][0].span, f"write: when any player places {piece} -> ...")
                    return None
                return fx.TriggerEvent("place_piece", piece=piece)
            if len(words) > 1:
                self.piece(words)
                return None
            if tile not in v.TILES and tile != "tile":
                known = v.TILES + tuple(self.pieces)
                self.diagnostics.error("E103", f"unknown tile '{word.text}'", word.span, did_you_mean(tile, known),
                             respelling(word.span, tile, known, word.text))
                return None
            filters = self._filters(node["filters"])
            if filters is None:
                return None
            lifted = next((f for f in node["filters"] if f.kind == "ignoring_adjacency"), None)
            if lifted is not None:   # a rule of where a tile may go: the trigger's tile is down already
                self.diagnostics.error("E301", "'ignoring adjacency' lifts a rule of where a tile may go; a trigger "
                                       "fires for a tile already placed, so it means nothing here", lifted.span,
                                       "remove it; a trigger's placement says where the tile went: on land, on ocean, "
                                       "on volcanic, on mars, on reserved \"NAME\", on bonus RESOURCE, next to [N] "
                                       "[your] TILE, isolated")
                return None
            return fx.TriggerEvent("place", tile=tile, filters=filters)
        if node.kind == "uses_standard_project":
            for held in node["filters"]:
                if held.kind in _CARD_ONLY_FILTERS:
                    self.diagnostics.error("E301", "a standard project is chosen by its cost or its name", held.span,
                                           "write: when you use standard project with cost >= 20 except \"Sell "
                                           "Patents\"")
                    return None
                if held.kind == "holding_filter":
                    self.diagnostics.error("E301", "a standard project holds no resources", held.span,
                                 "'holding RESOURCE' goes with a card played: when any player plays card holding "
                                 "microbe")
                    return None
                if held.kind in ("vp_filter", "no_tags_filter"):
                    what = "victory points" if held.kind == "vp_filter" else "tags"
                    self.diagnostics.error("E301", f"a standard project has no {what}, so this filter says "
                                           "nothing about one", held.span, "a standard project is chosen by its "
                                           "cost or its name: when you use standard project with cost >= 20 except "
                                           "\"Sell Patents\"")
                    return None
            filters = self._card_filters(node["filters"])
            return None if filters is None else fx.TriggerEvent("standard_project", **filters)
        if node.kind in _PLAIN_EVENTS:   # an event with nothing to check: `produce`, `gain a new tag`, `harm ...`
            return fx.TriggerEvent(_PLAIN_EVENTS[node.kind])
        if node.kind == "sends":
            piece = self.piece(node["words"])
            return fx.TriggerEvent("send", piece=piece) if piece else None
        if node.kind == "adds":
            resource = self.card_resource(node["resource"], allow_any=True)
            if resource is None:
                return None
            return fx.TriggerEvent("add_resource", resource=resource, here=node["here"] is not None)
        if node.kind == "raises":
            word = node["parameter"]
            parameter = word.text.lower()
            if parameter == "production":  # one of your own productions rose (`gain that production`)
                return fx.TriggerEvent("production_raise")
            if parameter not in self.parameters and parameter != "tr":
                self.diagnostics.error("E108", f"unknown global parameter '{word.text}'", word.span,
                             did_you_mean(parameter, tuple(self.parameters) + ("tr",)),
                             respelling(word.span, parameter, tuple(self.parameters) + ("tr",), word.text))
                return None
            return fx.TriggerEvent("raise", parameter=parameter)
        self.diagnostics.error("E999", f"internal: unknown trigger event '{node.kind}'", node.span)
        return None

    @compiles(fx.Discount, "amount:INT resource?:NAME target")
    def _passive_discount(self, node: Node, ctx: CheckContext):
        amount = int(node["amount"].text)
        resource = "megacredits"
        if node["resource"] is not None:
            resource = self._standard_resource(node["resource"])
            if resource is None:
                return None
        target_node = node["target"]
        kind = target_node.kind
        per_node = target_node["per"]
        per_tag = None
        if kind == "on_cards":
            tag_leaf = target_node["tag"]
            tag = self.tag(tag_leaf) if tag_leaf else None
            if tag_leaf and tag is None:
                return None
            cards = None
            if target_node["filters"]:   # `discount 2 on cards with requirements`: the card filters
                cards = self.card_filter(target_node["filters"])
                if cards is None:
                    return None
            target = fx.DiscountTarget("cards", tag=tag, cards=cards)
            per_leaf = _card_tag_word(per_node)
            if per_leaf is not None:  # `on cards per building tag`: N off each such tag of the card played
                per_tag = self.tag(per_leaf)
                if per_tag == "event":
                    self.diagnostics.error("E102", "'event' is a card type, not a tag", per_leaf.span,
                                 "to discount events, write 'discount N on event cards'")
                if per_tag in (None, "event"):
                    return None
                per_node = None
        elif kind in ("on_standard_project", "on_standard_action"):
            target = fx.DiscountTarget(kind[3:], name=target_node["name"].value, name_span=target_node["name"].span)
        elif kind == "on_action":   # `discount 3 on action of "Guild Hall"`: what its `pay` asks, in megacredits
            if resource != "megacredits":
                self.diagnostics.error("E301", f"an action's price is what its 'pay' asks, in megacredits: a "
                                       f"discount in {resource} would never lower it", node["resource"].span,
                                       f"write 'discount {amount} on action of {target_node['name'].text}'")
                return None
            if not target_node["name"].value.strip():
                self.diagnostics.error("E109", "a discount on an action names the card, corporation or faction whose "
                                       "action it lowers, not an empty name", target_node["name"].span,
                                       'write: discount 3 on action of "Guild Hall"')
                return None
            target = fx.DiscountTarget("action", name=target_node["name"].value, name_span=target_node["name"].span)
        else:
            target = fx.DiscountTarget(kind[3:])
            if kind in ("on_milestones", "on_awards") and resource != "megacredits":
                self.diagnostics.error("E301", f"{kind[3:]} are paid in megacredits: a discount in {resource} would "
                                       "never lower their price", node["resource"].span,
                                       f"write 'discount {amount} on {kind[3:]}'")
                return None
            if kind in ("on_milestones", "on_awards") and per_node is not None:
                self.diagnostics.error("E301", f"a discount on {kind[3:]} is a fixed amount: it is not scaled by a "
                                       "quantity", per_node.span, f"write 'discount {amount} on {kind[3:]}'")
                return None
        # `discount 1 megacredits on standard action "Trade"`: only the price in megacredits (another resource
        # written is the only price it can lower anyway, and keeps the form it always had)
        written = resource == "megacredits" and node["resource"] is not None
        if per_node is None:
            return fx.Discount(amount, resource, target, per_tag, resource_written=written)
        divisor, quantity = self.per_quantity(per_node["quantity"], ctx)   # `per 2 orbitals here`
        if quantity is None:
            return None
        return fx.Discount(amount, resource, target, per_tag, per=quantity, divisor=divisor, resource_written=written)

    @compiles(fx.Tax, "amount:INT resource:NAME step:NAME")
    def _passive_tax(self, node: Node, ctx: CheckContext):
        amount_leaf, resource_leaf, step_word = node["amount"], node["resource"], node["step"]
        resource = self._standard_resource(resource_leaf)
        if resource is None:
            return None
        if resource != "megacredits":
            self.diagnostics.error("E301", "a tax is paid in megacredits", resource_leaf.span,
                         f"write: tax {amount_leaf.text} megacredits per tr step")
            return None
        if step_word.text.lower() != "tr":
            self.diagnostics.error("E108", f"only TR steps are taxed, not '{step_word.text}'", step_word.span,
                         f"write: tax {amount_leaf.text} megacredits per tr step")
            return None
        amount = int(amount_leaf.text)
        if amount < 1:
            self.diagnostics.error("E302", "a tax of 0 taxes nothing", amount_leaf.span)
            return None
        return fx.Tax(amount, resource)

    @compiles(fx.TileBan, "tile:NAME here:NEXT_TO_THIS_TILE")
    def _passive_tile_ban(self, node: Node, ctx: CheckContext):
        word = node["tile"]
        tile = v.singular(word.text)
        if tile not in v.TILE_WORDS:
            self.diagnostics.error("E103", f"unknown tile '{word.text}'", word.span, did_you_mean(tile, v.TILE_WORDS),
                                   respelling(word.span, tile, v.TILE_WORDS, word.text))
            return None
        if ctx.definition not in ("card", "corporation"):
            self.diagnostics.error("E502", f"'this tile' is the tile a card places; a {ctx.definition} has none",
                                   node.span, "keep it on a card that places a tile")
            return None
        if not ctx.places_tile:   # compiled, as it harms nothing: it bans no space while the card has no tile
            self.diagnostics.warning("W104", "'this tile' is the tile the card places, but the card places none: "
                                     "the ban never keeps a tile off", node.span, "place a tile in 'play:' first")
        return fx.TileBan(tile)

    @compiles(fx.TagCountsAs, "tag:NAME as_tag:NAME")
    def _passive_tag_counts_as(self, node: Node, ctx: CheckContext):
        tag, as_tag = self.tag(node["tag"]), self.tag(node["as_tag"])
        if tag is None or as_tag is None:
            return None
        for leaf, name in ((node["tag"], tag), (node["as_tag"], as_tag)):
            if name == "event":
                self.diagnostics.error("E102", "'event' is a card type, not a tag", leaf.span,
                                       "an event's tag is counted by `events played`")
                return None
            if name in self.wild_tags:   # a wild tag is already any tag, and no tag is a wild one
                self.diagnostics.error("E301", f"'{name}' is a wild tag (`tag {name} as any tag`): it counts as "
                                       "every tag already", leaf.span, "name two tags of a kind")
                return None
        if tag == as_tag:
            self.diagnostics.error("E301", f"{tag} tags count as {tag} tags already", node["as_tag"].span,
                                   "name another tag: `mars tags count as science tags`")
            return None
        return fx.TagCountsAs(tag, as_tag)

    @compiles(fx.GainSpaceBonus, "count:INT more:MORE")
    def _fx_gain_space_bonus(self, node: Node, ctx: CheckContext):
        if not ctx.placing:
            self.diagnostics.error("E307", "'more space bonus' means the space of the tile just placed; it works "
                                   "only in a 'when ... places TILE tile' trigger", node.span,
                                   "write: effect: when you place tile on mars -> gain 1 more space bonus")
            return None
        return fx.GainSpaceBonus(int(node["count"].text))

    @compiles(fx.KeepEnergy, "")
    def _passive_keep_energy(self, node: Node, ctx: CheckContext):
        return fx.KeepEnergy()

    @compiles(fx.SkipTr, "steps:INT what:NAME")
    def _passive_skip_tr(self, node: Node, ctx: CheckContext):
        steps_leaf, what = node["steps"], node["what"]
        steps = int(steps_leaf.text)
        plural = "step" if steps == 1 else "steps"
        if what.text.lower() != "tr":
            self.diagnostics.error("E108", f"only TR steps are skipped, not {what.text} steps", what.span,
                                   f"write: skip first {steps} tr {plural} each generation")
            return None
        if steps < 1:
            self.diagnostics.error("E302", "skipping the first 0 TR steps skips nothing", steps_leaf.span,
                                   "write: skip first 1 tr step each generation")
            return None
        return fx.SkipTr(steps)

    @compiles(fx.ResearchDeal, "cards?:INT up_to?:UP_TO most?:INT")
    def _passive_research_deal(self, node: Node, ctx: CheckContext):
        cards = int(node["cards"].text) if node["cards"] is not None else None
        most = int(node["most"].text) if node["most"] is not None else None
        if cards is not None and cards < 1:
            self.diagnostics.error("E302", "a research phase that deals 0 cards deals nothing to choose from",
                                   node["cards"].span,
                                   "write: research buy up to 0 (nothing bought), or deal 1 or more")
            return None
        if cards is not None and cards > MAX_RESEARCH_CARDS:
            self.diagnostics.error("E302", f"at most {MAX_RESEARCH_CARDS} cards can be dealt in research",
                                   node["cards"].span)
            return None
        if cards is not None and most is not None and most >= cards:
            self.diagnostics.warning("W104", f"buying up to {most} of {cards} cards dealt limits nothing",
                                     node["most"].span, f"write: research {cards} cards")
        return fx.ResearchDeal(cards, most)

    @compiles(fx.InfluenceBonus, "change:SIGNED")
    def _passive_influence_bonus(self, node: Node, ctx: CheckContext):
        value, _ = self.signed(node["change"], ctx)
        return fx.InfluenceBonus(value)

    @compiles(fx.OceanBonus, "tile:NAME change:SIGNED resource:NAME")
    def _passive_ocean_bonus(self, node: Node, ctx: CheckContext):
        word, resource_leaf = node["tile"], node["resource"]
        tile = v.singular(word.text)
        if tile not in v.OCEAN_TILES:
            oceans = tuple(sorted(v.OCEAN_TILES))
            self.diagnostics.error("E103", f"only the tiles next to which a placement pays ({', '.join(oceans)}) have "
                                   f"a bonus, not '{word.text}'", word.span, did_you_mean(tile, oceans),
                                   respelling(word.span, tile, oceans, word.text))
            return None
        if self._standard_resource(resource_leaf) != "megacredits":
            self.diagnostics.error("E301", "the bonus of an adjacent tile is paid in megacredits", resource_leaf.span,
                         f"write: {word.text} bonus {node['change'].text} megacredits")
            return None
        value, _ = self.signed(node["change"], ctx)
        return fx.OceanBonus(value, tile)

    @compiles(fx.ResourceValue, "resource:NAME change:SIGNED")
    def _passive_resource_value(self, node: Node, ctx: CheckContext):
        resource = self._standard_resource(node["resource"])
        if resource and resource not in ("steel", "titanium"):
            self.diagnostics.error("E301", "only steel and titanium have a value in megacredits", node["resource"].span)
            return None
        value, _ = self.signed(node["change"], ctx)
        return fx.ResourceValue(resource, value) if resource else None

    @compiles(fx.RequirementLeeway, "scope:NAME plus_minus:PLUS_MINUS steps:INT")
    def _passive_leeway(self, node: Node, ctx: CheckContext):
        word = node["scope"]
        scope = word.text.lower()
        if scope != "global" and scope not in self.parameters:
            self.diagnostics.error("E108", f"unknown global parameter '{word.text}'", word.span,
                         did_you_mean(scope, ("global",) + tuple(self.parameters)) or
                         "write 'global requirements +-N' or 'PARAMETER requirements +-N'",
                         respelling(word.span, scope, ("global",) + tuple(self.parameters), word.text))
            return None
        return fx.RequirementLeeway(int(node["steps"].text), None if scope == "global" else scope)

    @compiles(fx.Protect, "half?:HALF resources:name_list scope:PROTECT_SCOPE")
    def _passive_protect(self, node: Node, ctx: CheckContext):
        """`protect animals here`, `protect plants from opponents`, and `protect production from opponents` (Private
        Security: an opponent's red-bordered `any production(...)` cannot pick you); `protect half plants from
        opponents` (Botanical Experience: an opponent's removal takes half, rounded up), resources of the stock only."""
        resources = []
        scope = "here" if node["scope"].text == "here" else "opponents"
        half = node["half"] is not None
        if half and scope == "here":
            self.diagnostics.error("E301", "'half' protects a player's resources from opponents, not a card's",
                                   node["half"].span, "write: protect half RESOURCE from opponents, or protect "
                                   "RESOURCE here")
            return None
        for leaf in node["resources"].leaves():
            if leaf.text.lower() in ("production", "productions"):
                if scope == "here":
                    self.diagnostics.error("E301", "production is a player's, not a card's: it is protected from "
                                           "opponents", leaf.span, "write: protect production from opponents")
                    return None
                if half:
                    self.diagnostics.error("E301", "a production is protected whole or not at all: 'half' takes "
                                           "resources of the stock", leaf.span,
                                           "write: protect production from opponents, or protect half plants from "
                                           "opponents")
                    return None
                resources.append(PRODUCTION)
                continue
            resource = self.any_resource(leaf)
            if resource is None:
                return None
            if half and resource not in v.STANDARD_RESOURCES:
                self.diagnostics.error("E301", f"'half' protects resources of the stock, and '{leaf.text}' is a card "
                                       "resource", leaf.span, "write: protect half plants from opponents (a standard "
                                       "resource)")
                return None
            resources.append(resource)
        if scope == "here":
            for resource in resources:
                if not self._holds_check(resource, ctx, node.span):
                    return None
        return fx.Protect(tuple(resources), scope, half=half)

    @compiles(fx.Substitute, "resource:NAME here?:on_this_card value?:INT instead:NAME tag?:NAME projects*:STRING")
    def _passive_substitute(self, node: Node, ctx: CheckContext):
        here = node["here"] is not None
        value_leaf = node["value"]
        written, instead_leaf, tag_leaf = node["resource"], node["instead"], node["tag"]
        project_leaves = node["projects"]
        if here and v.normalize(written.text) in v.STANDARD_RESOURCES:   # `use steel here as ...`: the stock's
            metal = v.normalize(written.text) in ("steel", "titanium")   # at their own value (E301 otherwise)
            value = f" {value_leaf.text}" if value_leaf is not None and not metal and not project_leaves else ""
            where = f' for standard project "{project_leaves[0].value}"' if project_leaves else \
                (f" for {tag_leaf.text} cards" if tag_leaf is not None else "")
            self.diagnostics.error("E301", f"'{written.text}' is a resource of your stock, not of this card: 'here' "
                                   "names resources on the card", written.span,
                                   f"write: use {written.text} as{value} megacredits{where}")
            return None
        if here:  # card resources on this card
            resource = self.card_resource(written)
            if resource is not None and not self._holds_check(resource, ctx, written.span):
                return None
        else:
            resource = self._standard_resource(written)
        instead = self._standard_resource(instead_leaf)
        if instead and instead != "megacredits" and not (here and instead == "heat" and tag_leaf is None):
            self.diagnostics.error("E301", "a resource can only stand in for megacredits (or, on this card, for heat)",
                         instead_leaf.span, "write: use heat as megacredits, or use fighters here as 2 heat")
            return None
        tag = None
        if tag_leaf is not None:
            tag = self.tag(tag_leaf)
            if tag is None:
                return None
        if not here and resource is None and (value_leaf is not None or tag_leaf is not None):
            # a card resource written without `here` (`use spores as 3 megacredits for space cards`)
            value = value_leaf.text if value_leaf is not None else "1"
            self.diagnostics.error("E301", "only resources on this card ('use RES here as ...') pay at a value of "
                                   "their own", written.span, f"write: use {written.text} here as {value} "
                                   f"megacredits" + (f" for {tag_leaf.text} cards" if tag_leaf is not None else ""))
            return None
        if not here and value_leaf is not None and resource in ("steel", "titanium"):
            self.diagnostics.error("E301", f"{resource} pays at its own value (2 or 3 MC, changed by '{resource} "
                                   f"value +N')", value_leaf.span,
                                   f"write: use {written.text} as megacredits" +
                                   (f" for {tag_leaf.text} cards" if tag_leaf is not None else "") +
                                   f", or {resource} value +1")
            return None
        if not here and value_leaf is not None and int(value_leaf.text) != 1 and project_leaves:
            self.diagnostics.error("E301", "a resource from your stock pays for a standard project at 1 MC each "
                                   "(steel and titanium at their value)", value_leaf.span,
                                   f'write: use {written.text} as megacredits for standard project '
                                   f'"{project_leaves[0].value}"')
            return None
        if not here and value_leaf is not None and int(value_leaf.text) != 1 and tag is None:
            # everywhere money is paid at a value of its own: the payments of every project, award and card
            self.diagnostics.error("E301", "a resource from your stock pays at a value of its own only for cards "
                                   "with a tag", value_leaf.span,
                                   f"write: use {written.text} as {value_leaf.text} megacredits for building cards, "
                                   f"or use {written.text} as megacredits")
            return None
        value = int(value_leaf.text) if value_leaf is not None else 1
        if value < 1:
            self.diagnostics.error("E302", "a resource paying megacredits is worth at least 1", value_leaf.span)
            return None
        if project_leaves and instead != "megacredits":
            self.diagnostics.error("E301", "a standard project is paid in megacredits", instead_leaf.span,
                                   f'write: use {written.text} here as {value} megacredits for standard project '
                                   f'"{project_leaves[0].value}"')
            return None
        if resource and instead:
            return fx.Substitute(resource, instead, value=value, here=here, tag=tag,
                                 projects=tuple(leaf.value for leaf in project_leaves),
                                 project_spans=tuple(leaf.span for leaf in project_leaves))
        return None


    @compiles(fx.MarkerOffset, "words+:NAME steps:SIGNED")
    def _passive_marker_offset(self, node: Node, ctx: CheckContext):
        piece = self.piece(node["words"])
        steps, _ = self.signed(node["steps"], ctx)
        if steps < 1:
            self.diagnostics.error("E302", "a visit may raise the marker, never lower it: write +1 or more",
                                   node["steps"].span)
            return None
        return fx.MarkerOffset(piece, steps) if piece else None

    @compiles(fx.CardPrice, "amount:INT resource:NAME change?:LESS|MORE")
    def _passive_card_price(self, node: Node, ctx: CheckContext):
        if self._standard_resource(node["resource"]) not in (None, "megacredits"):
            self.diagnostics.error("E301", "cards are bought with megacredits", node["resource"].span,
                         "write: buy cards for 5 megacredits")
            return None
        change = node["change"].text.lower() if node["change"] is not None else None
        amount = int(node["amount"].text)
        if change is not None and amount == 0:
            self.diagnostics.error("E302", f"'buy cards for 0 megacredits {change}' changes no price",
                                   node["amount"].span, f"write: buy cards for 1 MC {change}")
            return None
        return fx.CardPrice(amount, change)


# what a `neutral { }` block may hold: effects that reward or cost no player (a site's markers moving, an ocean
# removed, nothing), and blocks whose contents are checked
_NEUTRAL = (fx.ChangeParameter, fx.PlaceTile, fx.Require, fx.Choice, fx.Conditional, fx.May, fx.IfYouCan, fx.Neutral,
            fx.MoveMarkers, fx.Nothing, fx.RemoveTile)


# where a card moves from, and to (`move ... from play to another player`)
_ZONES = ("play", "events", "hand")
_PLAY_ZONES = ("hand", "events")   # where `play card from ...` takes a card
_DESTINATIONS = {"hand": "hand", "discard": "discard", "another player": "another_player", "here": "here"}

# trigger events written with nothing to check, by their parse: `produce`; `gain a new tag`; `harm another player`
# (resources removed, production lowered, of anyone) and `harm you` (of the owner); `become leader of a faction` (a
# faction's leader changes to the player)

def _narrow_cost(fields: dict, node: Node) -> None:
    """`with cost >= N` (`>`, `<=`, `<`, `==`) into `fields`' min_cost and max_cost; a second cost filter keeps the
    narrower range (`with cost >= 10 with cost <= 20`)."""
    operator, value = node["operator"].text, int(node["value"].text)
    if operator in (">=", ">", "=="):
        low = value + (1 if operator == ">" else 0)
        fields["min_cost"] = max(low, fields.get("min_cost") or low)
    if operator in ("<=", "<", "=="):
        high = value - (1 if operator == "<" else 0)
        fields["max_cost"] = high if fields.get("max_cost") is None else min(high, fields["max_cost"])

_PLAIN_EVENTS = {"produces": "production", "gains_new_tag": "new_tag", "harms": "harm", "harms_you": "harm_you",
                 "becomes_leader": "become_leader"}
# card filters a trigger compiles into its event's CardFilter (the others have fields of the event's own)
_CARD_ONLY_FILTERS = ("tag_filter", "any_tag_filter", "lacks_tag_filter", "type_filter", "requirements_filter",
                      "global_requirements_filter", "special_tile_filter", "no_requirements_filter",
                      "no_global_requirements_filter", "no_vp_filter", "no_special_tile_filter",
                      "faction_requirements_filter", "no_faction_requirements_filter", "tag_count_filter")
# `with no ...`: the property a card lacks, as CardFilter.lacking names it
_LACKING = {"no_requirements_filter": "requirements", "no_global_requirements_filter": "global requirements",
            "no_faction_requirements_filter": "faction requirements",
            "no_vp_filter": "vp", "no_special_tile_filter": "special tile"}


def _not_neutral(effects: tuple) -> Optional[str]:
    """The first effect in a `neutral { }` block that would reward or cost a player (its verb), or None."""
    for e in fx.walk(effects):  # a block that may not be there is found before its contents
        if isinstance(e, fx.ChangeParameter) and e.parameter == "tr":
            return "tr"
        if not isinstance(e, _NEUTRAL):
            return e.kind_name
    return None


def _targets_player(compiled) -> bool:
    """Whether a compiled effect chooses another player as its target (whom `that player's events` then means)."""
    return compiled is not None and fx.targets_player(compiled)


def _card_tag_word(per: Optional[Node]) -> Optional[Leaf]:
    """The tag word of `per building tag` (one word, then `tag`, no number, no cap) after a card discount, which
    counts the tags of the card played; None for any other quantity, counted for the discount's owner."""
    if per is None:
        return None
    terms = per["quantity"]["terms"]
    if len(terms) != 1 or terms[0].kind != "term" or terms[0]["cap"] is not None:
        return None
    words = terms[0]["words"]
    if len(words) == 2 and words[0].type == "NAME" and words[1].text.lower() == "tag":
        return words[0]
    return None


def _lasts_for_next_card(modifier) -> bool:
    """The modifiers the engine reads from `next card { }` until the next card is played (runtime/rules/prices.py
    and legality.py `card_using`): a discount on cards, a requirement leeway, and steel or titanium paying money
    whatever the card's tags. Any other would check and do nothing, so `check` refuses it (E307)."""
    if isinstance(modifier, fx.Discount):
        return modifier.resource == "megacredits" and modifier.target.kind == "cards"
    if isinstance(modifier, fx.RequirementLeeway):
        return True
    return isinstance(modifier, fx.Substitute) and modifier.resource in ("steel", "titanium") and \
        modifier.instead_of == "megacredits" and not modifier.here and not modifier.projects
