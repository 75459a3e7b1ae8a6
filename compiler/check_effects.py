"""Checking effects: one method per effect and passive kind (a grammar rule), AST node -> compiled effect.

Pipeline place: part of the checker (checker.py holds definitions, fields, names, numbers and quantities; this
mixin the effects inside `play:`, `action:`, `effect:` and board tracks). Each `_fx_<rule>` / `_passive_<rule>`
validates its words and returns a compiled object from compiler/effects.py, or None after reporting why.
"""

from __future__ import annotations

from typing import Optional

import attrs

from . import effects as fx
from . import vocabulary as v
from .diagnostics import Span, did_you_mean, respelling
from .syntax import Leaf, Node

UNKNOWN_HOLDS = "?"
IGNORED_REQUIREMENT_STEPS = 1000  # "ignoring global requirements": more steps than any scale has  # the card declares a resource type that failed to check: don't report its uses again


@attrs.define
class Context:
    """What an effect may refer to where it is written."""

    definition: str
    holds: Optional[str] = None
    x_bound: bool = False
    in_trigger: bool = False
    places_tile: bool = False
    placed_bonus: bool = False
    printed_tags: bool = False   # tags counted are the printed ones: a wild tag counts as none (a staged card's)


class EffectChecks:
    """Mixed into `Checker`; uses its vocabulary lookups (`tag`, `card_resource`, ...) and `self.d`."""

    # ------------------------------------------------------------------ effects

    def effects(self, node: Node, ctx: Context) -> tuple:
        # `production(bonus +1)` refers to the placement just made; allow it after a bonus-filtered placement.
        result = []
        for child in node.nodes():
            if child.kind == "marker_move" and child.nodes()[0].kind == "another_site":
                self._another_site(child, result, ctx)
                continue
            compiled = self.effect(child, ctx)
            if compiled is not None:
                result.append(compiled)
            if isinstance(compiled, fx.PlaceTile) and compiled.tile not in v.OCEAN_TILES:
                ctx.places_tile = True
                if any(f.kind == "bonus" for f in compiled.filters):
                    ctx.placed_bonus = True
        return tuple(result)

    def effect(self, node: Node, ctx: Context):
        method = getattr(self, "_fx_" + node.kind, None)
        if method is None:  # grammar and checker out of step: a bug, reported rather than raised
            self.d.error("E999", f"internal: no checker for '{node.kind}'", node.span)
            return None
        compiled = method(node, ctx)
        if compiled is not None:
            self.lint_effect(node, compiled)  # compiler/lints.py: what compiles but cannot be meant
        return compiled

    def _another_site(self, node: Node, result: list, ctx: Context) -> None:
        """`marker -1 on another site` moves the marker of a site other than the one the move just before it chose
        (`marker +1 on a site`): the two compile into one effect, whose sites are chosen in turn (E315 elsewhere)."""
        before = result[-1] if result else None
        if not isinstance(before, fx.MoveMarkers) or before.each:
            self.d.error("E315", "'another site' means another than the site the move before it chose", node.span,
                         "write it right after a move on a site: marker +1 on a site; marker -1 on another site")
            return
        steps, _ = self.signed(node.children[0], ctx)
        result[-1] = fx.MoveMarkers(before.steps + (steps,))

    def _per(self, node: Node) -> Optional[Node]:
        pers = node.nodes("per")
        return pers[0] if pers else None

    def _fx_gain(self, node: Node, ctx: Context):
        value, variable = self.count(node.children[0], ctx)
        words = node.leaves("NAME")
        piece = v.lookup_piece([w.text for w in words], self.pieces)
        if piece is not None or len(words) > 1:
            piece = piece or self.piece(words)
            return fx.GainPieces(piece, self.amount(value, variable, self._per(node), ctx)) if piece else None
        resource = self._standard_resource(words[0])
        if resource is None:
            return None
        return fx.Gain(resource, self.amount(value, variable, self._per(node), ctx))

    def _fx_lose(self, node: Node, ctx: Context):
        up_to = node.first("UP_TO") is not None
        rest = [c for c in node.children if not (isinstance(c, Leaf) and c.type == "UP_TO")]
        value, variable = self.count(rest[0], ctx)
        resource = self._standard_resource(rest[1])
        per = self._per(node)
        if per is not None and not up_to:
            self.d.error("E301", "a loss counted 'per' something must be written 'lose up to': how many there will "
                                 "be to lose is known only then", node.span,
                         f"write: lose up to {rest[0].text} {rest[1].text} per ...")
            return None
        amount = self.amount(value, variable, per, ctx)
        return fx.Lose(resource, amount, up_to) if resource else None

    def _fx_spend(self, node: Node, ctx: Context):
        value, variable = self.count(node.children[0], ctx)
        resource = self._standard_resource(node.children[1])
        return fx.Spend(resource, fx.Amount(value, variable)) if resource else None

    def _fx_pay(self, node: Node, ctx: Context):
        value, variable = self.count(node.children[0], ctx)
        resource = self._standard_resource(node.children[1])
        if resource and resource != "megacredits":
            self.d.error("E301", f"'pay' is for megacredits; use 'spend {value} {node.children[1].text}'",
                         node.children[1].span)
            return None
        using = []
        for names in node.nodes("name_list"):
            for leaf in names.leaves():
                substitute = self._standard_resource(leaf)
                if substitute:
                    using.append(substitute)
        return fx.Pay(fx.Amount(value, variable), tuple(using)) if resource else None

    def _deltas(self, node: Node, ctx: Context, negative_only: bool) -> Optional[tuple]:
        changes = []
        for delta in node.nodes("delta"):
            word = delta.children[0]
            if word.text.lower() == "lowest" and not negative_only:
                resource = "lowest"  # one of the player's lowest productions, their choice
            elif word.text.lower() == "bonus":
                if not ctx.placed_bonus:
                    self.d.error("E502", "'bonus' means the resource of the space just placed on, but no "
                                         "placement here is filtered 'on bonus ...'", word.span)
                    return None
                resource = "bonus"
            else:
                resource = self._standard_resource(word)
                if resource is None:
                    return None
            value, variable = self.signed(delta.children[1], ctx)
            if negative_only and value > 0:
                self.d.error("E304", "'any production' can only decrease another player's production",
                             delta.children[1].span, "to raise your own, use production(...)")
                return None
            changes.append(fx.ProductionChange(resource, self.amount(value, variable, self._per(delta), ctx)))
        return tuple(changes)

    def _fx_production(self, node: Node, ctx: Context):
        changes = self._deltas(node, ctx, negative_only=False)
        return fx.Production(changes) if changes else None

    def _fx_any_production(self, node: Node, ctx: Context):
        changes = self._deltas(node, ctx, negative_only=True)
        return fx.AnyProduction(changes) if changes else None

    def _fx_parameter_change(self, node: Node, ctx: Context):
        word = node.children[0]
        parameter = word.text.lower()
        raisable = ("tr",) + tuple(p for p in self.parameters if p != "oceans")
        if parameter not in raisable:
            hint = did_you_mean(parameter, raisable)
            fixes = respelling(word.span, parameter, raisable, word.text)
            if v.normalize(parameter) in v.OCEAN_TILES:
                hint, fixes = "oceans rise by placing tiles: place ocean", ()
            self.d.error("E108", f"unknown effect or parameter '{word.text}'", word.span,
                         hint or "a line like 'NAME +N' changes tr or a global parameter (" +
                         ", ".join(p for p in raisable if p != "tr") + '); declare a new one with '
                         'parameter "NAME" { scale: ... }', fixes)
            return None
        value, variable = self.signed(node.children[1], ctx)
        return fx.ChangeParameter(parameter, self.amount(value, variable, self._per(node), ctx))

    def _filters(self, nodes: list[Node]) -> Optional[tuple]:
        filters = []
        for node in nodes:
            if node.kind == "on_kind":
                word = node.children[0]
                kind = "mars" if word.text.lower() == "mars" else v.singular(word.text)
                if kind not in v.SPACE_KINDS + ("mars",):
                    self.d.error("E107", f"unknown kind of space '{word.text}'", word.span,
                                 did_you_mean(kind, v.SPACE_KINDS) or "write: on land, on ocean, on volcanic, on mars",
                                 respelling(word.span, kind, v.SPACE_KINDS, word.text))
                    return None
                filters.append(fx.SpaceFilter(kind))
            elif node.kind == "on_reserved":
                filters.append(fx.SpaceFilter("reserved", reserved=node.children[0].value,
                                              reserved_span=node.children[0].span))
            elif node.kind == "on_bonus":
                bonuses = []
                for leaf in node.leaves("NAME"):
                    bonus = v.normalize(leaf.text)
                    if bonus not in v.BOARD_BONUSES:
                        self.d.error("E107", f"unknown space bonus '{leaf.text}'", leaf.span,
                                     did_you_mean(bonus, v.BOARD_BONUSES),
                                     respelling(leaf.span, bonus, v.BOARD_BONUSES, leaf.text))
                        return None
                    bonuses.append(bonus)
                filters.append(fx.SpaceFilter("bonus", bonuses=tuple(bonuses)))
            elif node.kind == "next_to":
                count = int(node.first("INT").text) if node.first("INT") else 1
                own = node.first("OWNER") is not None
                word = node.first("NAME")
                tile = v.singular(word.text)
                if tile not in v.TILE_WORDS:
                    self.d.error("E103", f"unknown tile '{word.text}'", word.span, did_you_mean(tile, v.TILE_WORDS),
                                 respelling(word.span, tile, v.TILE_WORDS, word.text))
                    return None
                filters.append(fx.SpaceFilter("next_to", count=count, own=own, tile=tile))
            elif node.kind == "isolated":
                filters.append(fx.SpaceFilter("isolated"))
            elif node.kind == "ignoring_adjacency":
                filters.append(fx.SpaceFilter("ignoring_adjacency"))
            elif node.kind == "also_where_you_have_one":
                self.d.error("E301", "'also where you have one' lifts a site's one-per-player rule: it goes with a "
                                     "piece, not a tile", node.span, "write: place PIECE also where you have one")
                return None
        return tuple(filters)

    def _fx_place(self, node: Node, ctx: Context):
        count_leaf = node.first("INT")
        words = node.leaves("NAME")
        word = words[0]
        tile = v.singular(word.text)
        name_leaf = node.first("STRING")
        neutral = len(words) > 1 and words[0].text.lower() == "neutral"
        piece = v.lookup_piece([w.text for w in words[1:] if neutral] or [w.text for w in words], self.pieces)
        into = [f for f in node.nodes() if f.kind in ("in_a_faction", "in_faction")]
        if piece is not None and (into or neutral):
            return self._place_in_faction(piece, node, count_leaf, name_leaf, into, neutral)
        if piece is not None:
            return self._place_piece(piece, node, count_leaf, name_leaf)
        if tile not in v.TILES or len(words) > 1:
            written = " ".join(w.text for w in words)
            span = Span(word.span.path, word.span.line, word.span.column, words[-1].span.end_line,
                        words[-1].span.end_column)
            known = v.TILES + tuple(self.pieces)
            phrase = v.piece_name(written) if len(words) > 1 else tile
            self.d.error("E103" if len(words) == 1 or not self.pieces else "E111",
                         f"unknown tile or piece '{written}'" if self.pieces else f"unknown tile '{written}'", span,
                         did_you_mean(phrase, known) or "tiles: " + ", ".join(v.TILES) +
                         ("; pieces: " + ", ".join(self.pieces) if self.pieces else ""),
                         respelling(span, phrase, known, written))
            return None
        count = int(count_leaf.text) if count_leaf else 1
        if count < 1:
            self.d.error("E302", "place at least 1 tile", count_leaf.span)
            return None
        if tile in v.NAMED_TILES and name_leaf is None:
            self.d.error("E201", "a special tile needs a name: place special \"Mohole Area\" ...", word.span)
            return None
        filters = self._filters(node.nodes())
        if filters is None:
            return None
        return fx.PlaceTile(tile, count, name_leaf.value if name_leaf else None, filters)

    def _place_in_faction(self, piece: str, node: Node, count_leaf, name_leaf, into: list, neutral: bool):
        """`place [N] [neutral] PIECE in (a faction | "NAME")`: pieces from a reserve into one faction."""
        count = int(count_leaf.text) if count_leaf else 1
        if count < 1:
            self.d.error("E302", "place at least 1 piece", count_leaf.span)
            return None
        others = [f for f in node.nodes() if f.kind not in ("in_a_faction", "in_faction")]
        if name_leaf is not None or others or len(into) != 1:
            self.d.error("E301", f"a {piece} placed in a faction has no name and no other place", node.span,
                         f'write: place {piece} in a faction, or place {piece} in "NAME"')
            return None
        faction = None
        if into[0].kind == "in_faction":
            faction = self.faction(into[0].children[0])
            if faction is None:
                return None
        return fx.PlaceInFaction(piece, count, faction, neutral)

    def _fx_remove_piece(self, node: Node, ctx: Context):
        piece = self.piece(node.leaves("NAME"))
        return fx.RemoveFromFaction(piece) if piece else None

    def _fx_replace_piece(self, node: Node, ctx: Context):
        piece = self.piece(node.leaves("NAME"))
        return fx.ReplaceNeutral(piece) if piece else None

    def _fx_take_role(self, node: Node, ctx: Context):
        return fx.TakeRole()

    def _fx_change_government(self, node: Node, ctx: Context):
        return fx.ChangeGovernment()

    def _passive_ocean_bonus(self, node: Node, ctx: Context):
        words = node.leaves("NAME")
        tile, resource_leaf = v.singular(words[0].text), words[1]
        if tile not in v.OCEAN_TILES:
            oceans = tuple(sorted(v.OCEAN_TILES))
            self.d.error("E103", f"only the tiles next to which a placement pays ({', '.join(oceans)}) have a bonus, "
                                 f"not '{words[0].text}'", words[0].span, did_you_mean(tile, oceans),
                         respelling(words[0].span, tile, oceans, words[0].text))
            return None
        if self._standard_resource(resource_leaf) != "megacredits":
            self.d.error("E301", "the bonus of an adjacent tile is paid in megacredits", resource_leaf.span,
                         f"write: {words[0].text} bonus {node.first('SIGNED').text} megacredits")
            return None
        value, _ = self.signed(node.first("SIGNED"), ctx)
        return fx.OceanBonus(value, tile)

    def _passive_influence_bonus(self, node: Node, ctx: Context):
        value, _ = self.signed(node.children[0], ctx)
        return fx.InfluenceBonus(value)

    def _place_piece(self, piece: str, node: Node, count_leaf, name_leaf):
        """`place outpost [also where you have one]`: a piece on a site; the filters of tiles do not apply."""
        count = int(count_leaf.text) if count_leaf else 1
        if count < 1:
            self.d.error("E302", "place at least 1 piece", count_leaf.span)
            return None
        others = [f for f in node.nodes() if f.kind != "also_where_you_have_one"]
        if name_leaf is not None or others:
            self.d.error("E301", f"a {piece} goes on a site: it has no name and no space filter",
                         (name_leaf or others[0]).span, f"write: place {piece} (also where you have one)")
            return None
        return fx.PlacePiece(piece, count, also_own=bool(node.nodes("also_where_you_have_one")))

    def _fx_claim(self, node: Node, ctx: Context):
        filters = self._filters(node.nodes())
        return fx.ClaimSpace(filters) if filters is not None else None

    def _fx_draw(self, node: Node, ctx: Context):
        value, variable = self.count(node.children[0], ctx)
        return fx.Draw(self.amount(value, variable, self._per(node), ctx))

    def _fx_look_keep(self, node: Node, ctx: Context):
        look, variable = self.count(node.children[0], ctx)
        keep = int(node.children[1].text)
        if not 0 < keep or (not variable and keep > look):
            self.d.error("E302", f"can't keep {keep} of {look} cards", node.children[1].span)
            return None
        return fx.LookKeep(look, keep, variable)

    def _fx_look_buy(self, node: Node, ctx: Context):
        look, variable = self.count(node.children[0], ctx)
        return fx.LookBuy(look, variable)

    def _fx_discard(self, node: Node, ctx: Context):
        up_to = node.first("UP_TO") is not None
        rest = [c for c in node.children if not (isinstance(c, Leaf) and c.type == "UP_TO")]
        value, variable = self.count(rest[0], ctx)
        return fx.Discard(fx.Amount(value, variable), up_to)

    def _fx_add(self, node: Node, ctx: Context):
        value, variable = self.count(node.children[0], ctx)
        target_node = next(child for child in node.nodes() if child.kind != "per")
        target = target_node.kind
        if len(node.nodes("per")) > 1:
            self.d.error("E301", "'per' is given twice", node.nodes("per")[1].span,
                         "count once: add N RESOURCE per QUANTITY to ...")
            return None
        resource = self.card_resource(node.children[1], allow_any=target != "here")
        tag_leaf = target_node.first("NAME")  # `to any TAG card`: only a card with that tag
        tag = self.tag(tag_leaf) if tag_leaf is not None else None
        if resource is None or (tag_leaf is not None and tag is None):
            return None
        if target == "here":
            if not self._holds_check(resource, ctx, node.children[1].span):
                return None
        if target == "that_card" and not ctx.in_trigger:
            self.d.error("E307", "'that card' means the card that fired a trigger; it works only in 'when ...'",
                         target_node.span)
            return None
        return fx.AddResources(resource, self.amount(value, variable, self._per(node), ctx), target, tag)

    def _holds_check(self, resource: str, ctx: Context, span: Span) -> bool:
        if ctx.holds == UNKNOWN_HOLDS:
            return False
        if ctx.holds is None:
            self.d.error("E501", "this card holds no resources, so nothing can be added here or removed from here",
                         span, f"add 'holds: {resource}'")
            return False
        if resource not in (ctx.holds, "resource"):
            self.d.error("E503", f"this card holds {v.plural(ctx.holds)}, not {v.plural(resource)}", span)
            return False
        return True

    def _fx_remove(self, node: Node, ctx: Context):
        up_to = node.first("UP_TO") is not None
        rest = [c for c in node.children if not (isinstance(c, Leaf) and c.type == "UP_TO")]
        value, variable = self.count(rest[0], ctx)
        source = rest[2]
        if source.kind == "any_player":
            resource = self._standard_resource(rest[1])
            if resource is None:
                return None
            player_tag = None
            for tag_node in source.nodes("player_tag"):
                player_tag = self.tag(tag_node.children[0])
                if player_tag is None:
                    return None
            return fx.RemoveResources(resource, fx.Amount(value, variable), "any_player", up_to=up_to,
                                      next_to_placed=source.first("NEXT_TO_IT") is not None, player_tag=player_tag)
        resource = self.card_resource(rest[1], allow_any=True)
        if resource is None:
            return None
        if source.kind == "here" and not self._holds_check(resource, ctx, rest[1].span):
            return None
        return fx.RemoveResources(resource, fx.Amount(value, variable), source.kind, up_to=up_to)

    def _fx_steal(self, node: Node, ctx: Context):
        up_to = node.first("UP_TO") is not None
        rest = [c for c in node.children if not (isinstance(c, Leaf) and c.type == "UP_TO")]
        value, variable = self.count(rest[0], ctx)
        resource = self._standard_resource(rest[1])
        return fx.Steal(resource, fx.Amount(value, variable), up_to) if resource else None

    def _fx_choice(self, node: Node, ctx: Context):
        options = tuple(self.effects(branch, attrs.evolve(ctx)) for branch in node.nodes("effects"))
        return fx.Choice(options)

    def _fx_conditional(self, node: Node, ctx: Context):
        condition = self.condition(node.nodes("condition")[0], ctx)
        blocks = node.nodes("effects")
        then = self.effects(blocks[0], attrs.evolve(ctx))
        otherwise = self.effects(blocks[1], attrs.evolve(ctx)) if len(blocks) > 1 else ()
        return fx.Conditional(condition, then, otherwise) if condition else None

    def _fx_choose_x(self, node: Node, ctx: Context):
        minimum_leaf = node.first("INT")
        maximum = self.quantity(node.nodes("quantity")[0], ctx)
        body = self.effects(node.nodes("effects")[0], attrs.evolve(ctx, x_bound=True))
        if maximum is None:
            return None
        return fx.ChooseX(int(minimum_leaf.text) if minimum_leaf else 0, maximum, body)

    def _fx_may(self, node: Node, ctx: Context):
        return fx.May(self.effects(node.nodes("effects")[0], attrs.evolve(ctx)))

    def _fx_copy_production(self, node: Node, ctx: Context):
        tag = self.tag(node.children[0])
        return fx.CopyProduction(tag) if tag else None

    def _fx_reveal(self, node: Node, ctx: Context):
        tag = self.tag(node.children[0])
        then = self.effects(node.nodes("effects")[0], attrs.evolve(ctx))
        return fx.Reveal(tag, then) if tag else None

    def _fx_require(self, node: Node, ctx: Context):
        condition = self.condition(node.nodes("condition")[0], ctx)
        return fx.Require(condition) if condition else None

    def _fx_reveal_until(self, node: Node, ctx: Context):
        count = int(node.children[0].text)
        if count < 1:
            self.d.error("E302", "reveal until at least 1 card", node.children[0].span)
            return None
        wanted = node.children[1]
        if wanted.kind == "with_tag":
            tag = self.tag(wanted.children[0])
            return fx.RevealUntil(count, tag=tag) if tag else None
        resource = self.card_resource(wanted.children[0])
        if resource is None:
            return None
        if wanted.kind == "with_icon":
            return fx.RevealUntil(count, icon=resource)
        return fx.RevealUntil(count, holds=resource)

    def _fx_play_from_hand(self, node: Node, ctx: Context):
        modifiers = []
        discount = node.first("INT")
        if discount is not None:
            modifiers.append(fx.Discount(int(discount.text), "megacredits", fx.DiscountTarget("cards")))
        if node.first("IGNORING_REQUIREMENTS") is not None:
            modifiers.append(fx.RequirementLeeway(IGNORED_REQUIREMENT_STEPS))
        return fx.PlayFromHand(tuple(modifiers))

    def _fx_gain_raised(self, node: Node, ctx: Context):
        if not ctx.in_trigger:
            self.d.error("E307", "'gain that production' means a production just raised; it works only in "
                                 "'when you raise production -> ...'", node.span)
            return None
        return fx.GainRaised()

    def _fx_each_opponent(self, node: Node, ctx: Context):
        return fx.EachOpponent(self.effects(node.nodes("effects")[0], attrs.evolve(ctx)))

    def _fx_each_player(self, node: Node, ctx: Context):
        return fx.EachPlayer(self.effects(node.nodes("effects")[0], attrs.evolve(ctx)))

    def _fx_remove_tile(self, node: Node, ctx: Context):
        count_leaf, word = next((c for c in node.children if c.type in ("INT", "X", "MULTIPLE_X")), None), \
            node.first("NAME")
        if count_leaf is not None and count_leaf.type != "INT":
            self.d.error("E302", "remove a number of tiles, not X", count_leaf.span)
            return None
        tile = v.singular(word.text)
        removable = tuple(sorted(v.OCEAN_TILES))  # an ocean leaves the board back to its supply; others cannot
        if tile not in removable:
            self.d.error("E103", f"only {' or '.join(removable)} tiles can be removed, not '{word.text}'", word.span,
                         did_you_mean(tile, removable) or f"write: remove {removable[0]} tile",
                         respelling(word.span, tile, removable, word.text))
            return None
        count = int(count_leaf.text) if count_leaf else 1
        if count < 1:
            self.d.error("E302", "remove at least 1 tile", count_leaf.span)
            return None
        return fx.RemoveTile(tile, count)

    def _fx_repeat(self, node: Node, ctx: Context):
        times = self.quantity(node.nodes("quantity")[0], ctx)
        body = self.effects(node.nodes("effects")[0], attrs.evolve(ctx))
        return fx.Repeat(times, body) if times is not None else None

    def _fx_rank(self, node: Node, ctx: Context):
        score = self.quantity(node.nodes("quantity")[0], ctx)
        minimum = node.first("INT")
        places, expected = [], ("first", "second", "third", "fourth", "fifth")
        for index, place in enumerate(node.nodes("rank_place")):
            key = place.children[0]
            word = key.text.rstrip(":").strip()
            if word != expected[index]:
                self.d.error("E302", f"the places of a rank come in order: '{expected[index]}:' here, not '{word}:'",
                             key.span, f"write: {expected[index]}:")
                return None
            places.append(self.effects(place.nodes("effects")[0], attrs.evolve(ctx)))
        if score is None:
            return None
        return fx.Rank(score, tuple(places), lowest=node.first("LOWEST") is not None,
                       minimum=int(minimum.text) if minimum is not None else None)

    def _fx_resolve_stage(self, node: Node, ctx: Context):
        kind = self._staged_kind(node)
        return fx.ResolveStage(kind) if kind else None

    def _fx_advance_stages(self, node: Node, ctx: Context):
        kind = self._staged_kind(node)
        return fx.AdvanceStages(kind) if kind else None

    def _staged_kind(self, node: Node) -> Optional[str]:
        """The declared kind of card a `resolve`/`advance` names, in the singular or the plural (`advance
        missions`); whether it has stages is checked once every file is in (compiler/pipeline.py)."""
        words = node.leaves("NAME")
        if len(words) > 1 and v.singular(words[-1].text) == "card":  # `advance mission cards`
            words = words[:-1]
        written = " ".join(leaf.text.lower() for leaf in words)
        singular = " ".join([w.text.lower() for w in words[:-1]] + [v.singular(words[-1].text)])
        for kind in (written, singular):
            if kind in self.staged_kinds:
                return kind
            if kind in self.card_kinds:
                self.d.error("E105", f"the cards of '{kind}' have no stages to resolve or advance", node.span,
                             f'give the kind stages: card kind "{kind}" {{ ... stages: far, near }}')
                return None
        span = Span(words[0].span.path, words[0].span.line, words[0].span.column, words[-1].span.end_line,
                    words[-1].span.end_column)
        self.d.error("E105", f"unknown kind of card '{written}'", span,
                     did_you_mean(singular, self.card_kinds) or
                     ("declared kinds: " + ", ".join(self.card_kinds) if self.card_kinds else
                      'declare one with: card kind "NAME" { deal: 0 keep 0  stages: far, near }'),
                     respelling(span, singular, self.card_kinds, written))
        return None

    def _fx_fund_award(self, node: Node, ctx: Context):
        return fx.FundAward()

    def _fx_look_play(self, node: Node, ctx: Context):
        numbers = node.leaves("INT")
        look, word, play = int(numbers[0].text), node.first("NAME"), int(numbers[1].text)
        kind = word.text.lower()
        if kind not in self.card_kinds:
            self.d.error("E105", f"unknown kind of card '{word.text}'", word.span,
                         did_you_mean(kind, self.card_kinds) or
                         ("declared kinds: " + ", ".join(self.card_kinds) if self.card_kinds else
                          'declare one with: card kind "NAME" { deal: N keep K }'),
                         respelling(word.span, kind, self.card_kinds, word.text))
            return None
        if not 0 < play <= look:
            self.d.error("E302", f"can't play {play} of {look} cards", numbers[1].span)
            return None
        return fx.LookPlay(look, kind, play)

    def _fx_reuse_action(self, node: Node, ctx: Context):
        return fx.ReuseAction()

    def _fx_send(self, node: Node, ctx: Context):
        piece = self.piece(node.leaves("NAME"))
        return fx.SendPiece(piece) if piece else None

    def _fx_marker_move(self, node: Node, ctx: Context):
        steps, _ = self.signed(node.children[0], ctx)
        return fx.MoveMarkers((steps,), each=node.nodes()[0].kind == "each_site")

    def _fx_collect_bonus(self, node: Node, ctx: Context):
        piece = self.piece(node.leaves("NAME"))
        return fx.CollectBonus(piece) if piece else None

    def _fx_site_into_play(self, node: Node, ctx: Context):
        return fx.SiteIntoPlay()

    def _fx_site_out_of_play(self, node: Node, ctx: Context):
        return fx.SiteOutOfPlay()

    def _fx_nothing(self, node: Node, ctx: Context):
        return fx.Nothing()

    def _fx_neutral(self, node: Node, ctx: Context):
        body = self.effects(node.nodes("effects")[0], attrs.evolve(ctx))
        wrong = _not_neutral(body)
        if wrong is not None:
            self.d.error("E308", f"'neutral {{ }}' is carried out for nobody, so it can't hold '{wrong}'", node.span,
                         "a neutral block raises global parameters, places tiles and moves the markers of sites, "
                         "with choose, if, may and require around them")
            return None
        return fx.Neutral(body)

    def _fx_next_card(self, node: Node, ctx: Context):
        modifiers = []
        for child in node.nodes():
            passive = self.passive(child, ctx)
            if isinstance(passive, fx.Trigger):
                self.d.error("E307", "'next card' holds modifiers (discount, leeway), not triggers", child.span)
            elif passive is not None:
                modifiers.append(passive)
        return fx.NextCard(tuple(modifiers))

    # ------------------------------------------------------------------ passive effects

    def passive(self, node: Node, ctx: Context):
        method = getattr(self, "_passive_" + node.kind, None)
        if method is None:
            self.d.error("E999", f"internal: no checker for '{node.kind}'", node.span)
            return None
        compiled = method(node, ctx)
        if compiled is not None:
            self.lint_passive(node, compiled)
        return compiled

    def _passive_trigger(self, node: Node, ctx: Context):
        subject = {"you": "you", "any_player": "any", "another_player": "another"}[node.children[0].kind]
        event_node = node.children[1]
        including_this = node.first("INCLUDING_THIS") is not None
        event = self._event(event_node)
        effects = self.effects(node.nodes("effects")[-1], attrs.evolve(ctx, in_trigger=True))
        if event is None:
            return None
        if subject == "another" and (including_this or event.kind == "production"):
            # the card's own play is its owner's, and every player produces at once
            what = "including this" if including_this else "produce"
            self.d.error("E307", f"'another player' never goes with '{what}'", node.children[0].span,
                         "'including this' counts the card's own play, which is its owner's: write 'when you ...'"
                         if including_this else "every player produces at once: write 'when you produce'")
            return None
        return fx.Trigger(subject, event, effects, including_this)

    def _card_filters(self, nodes: list[Node]) -> dict:
        result: dict = {"excluded": (), "excluded_spans": ()}
        for node in nodes:
            if node.kind == "cost_filter":
                operator, value = node.children[0].text, int(node.children[1].text)
                if operator in (">=", ">"):
                    result["min_cost"] = value + (1 if operator == ">" else 0)
                elif operator in ("<=", "<"):
                    result["max_cost"] = value - (1 if operator == "<" else 0)
                else:
                    result["min_cost"] = result["max_cost"] = value
            elif node.kind == "except_filter":
                result["excluded"] = result["excluded"] + (node.children[0].value,)
                result["excluded_spans"] = result["excluded_spans"] + (node.children[0].span,)
            elif node.kind == "vp_filter":
                result["with_vp"] = True
            elif node.kind == "no_tags_filter":
                result["no_tags"] = True
            elif node.kind == "holding_filter":
                resource = self.card_resource(node.children[0])
                if resource is None:
                    return None
                result["holds"] = resource
        return result

    def _event(self, node: Node) -> Optional[fx.TriggerEvent]:
        if node.kind == "plays":
            played = node.nodes()[0]
            if played.kind == "played_tag":
                tags = []
                for leaf in played.leaves("NAME"):
                    tag = self.tag(leaf)
                    if tag is None:
                        return None
                    tags.append(tag)
                return fx.TriggerEvent("play_tag", tags=tuple(tags))
            tag = None
            name = played.first("NAME")
            if name is not None:
                tag = self.tag(name)
                if tag is None:
                    return None
            card_kind = played.first("CARD_KIND").text
            filters = self._card_filters(played.nodes())
            return None if filters is None else fx.TriggerEvent("play_card", tag=tag, card_kind=card_kind, **filters)
        if node.kind == "places":
            words = node.leaves("NAME")
            word = words[0]
            tile = v.singular(word.text)
            piece = v.lookup_piece([w.text for w in words], self.pieces)
            if piece is not None:
                if node.nodes():
                    self.d.error("E301", f"a {piece} goes on a site: its placement has no space filter",
                                 node.nodes()[0].span, f"write: when any player places {piece} -> ...")
                    return None
                return fx.TriggerEvent("place_piece", piece=piece)
            if len(words) > 1:
                self.piece(words)
                return None
            if tile not in v.TILES and tile != "tile":
                known = v.TILES + tuple(self.pieces)
                self.d.error("E103", f"unknown tile '{word.text}'", word.span, did_you_mean(tile, known),
                             respelling(word.span, tile, known, word.text))
                return None
            filters = self._filters(node.nodes())
            if filters is None:
                return None
            return fx.TriggerEvent("place", tile=tile, filters=filters)
        if node.kind == "uses_standard_project":
            for held in node.nodes("holding_filter"):
                self.d.error("E301", "a standard project holds no resources", held.span,
                             "'holding RESOURCE' goes with a card played: when any player plays card holding microbe")
                return None
            filters = self._card_filters(node.nodes())
            return None if filters is None else fx.TriggerEvent("standard_project", **filters)
        if node.kind == "produces":
            return fx.TriggerEvent("production")
        if node.kind == "sends":
            piece = self.piece(node.leaves("NAME"))
            return fx.TriggerEvent("send", piece=piece) if piece else None
        if node.kind == "gains_new_tag":
            return fx.TriggerEvent("new_tag")
        if node.kind == "adds":
            resource = self.card_resource(node.first("NAME"), allow_any=True)
            return fx.TriggerEvent("add_resource", resource=resource) if resource else None
        if node.kind == "raises":
            word = node.first("NAME")
            parameter = word.text.lower()
            if parameter == "production":  # one of your own productions rose (`gain that production`)
                return fx.TriggerEvent("production_raise")
            if parameter not in self.parameters and parameter != "tr":
                self.d.error("E108", f"unknown global parameter '{word.text}'", word.span,
                             did_you_mean(parameter, tuple(self.parameters) + ("tr",)),
                             respelling(word.span, parameter, tuple(self.parameters) + ("tr",), word.text))
                return None
            return fx.TriggerEvent("raise", parameter=parameter)
        self.d.error("E999", f"internal: unknown trigger event '{node.kind}'", node.span)
        return None

    def _passive_discount(self, node: Node, ctx: Context):
        amount = int(node.children[0].text)
        resource = "megacredits"
        names = [c for c in node.children[1:] if isinstance(c, Leaf) and c.type == "NAME"]
        if names:
            resource = self._standard_resource(names[0])
            if resource is None:
                return None
        target_node = node.nodes()[0]
        kind = target_node.kind
        per_tag = None
        if kind == "on_cards":
            tag_leaf = target_node.first("NAME")
            tag = self.tag(tag_leaf) if tag_leaf else None
            if tag_leaf and tag is None:
                return None
            target = fx.DiscountTarget("cards", tag=tag)
            for per_node in target_node.nodes("per_tag"):  # `on cards per building tag`: N off each such tag
                per_tag = self.tag(per_node.children[0])
                if per_tag == "event":
                    self.d.error("E102", "'event' is a card type, not a tag", per_node.children[0].span,
                                 "to discount events, write 'discount N on event cards'")
                if per_tag in (None, "event"):
                    return None
        elif kind in ("on_standard_project", "on_standard_action"):
            target = fx.DiscountTarget(kind[3:], name=target_node.children[0].value,
                                       name_span=target_node.children[0].span)
        else:
            target = fx.DiscountTarget(kind[3:])
        return fx.Discount(amount, resource, target, per_tag)

    def _passive_tax(self, node: Node, ctx: Context):
        amount_leaf, resource_leaf, step_word = node.children[0], node.children[1], node.children[2]
        resource = self._standard_resource(resource_leaf)
        if resource is None:
            return None
        if resource != "megacredits":
            self.d.error("E301", "a tax is paid in megacredits", resource_leaf.span,
                         f"write: tax {amount_leaf.text} megacredits per tr step")
            return None
        if step_word.text.lower() != "tr":
            self.d.error("E108", f"only TR steps are taxed, not '{step_word.text}'", step_word.span,
                         f"write: tax {amount_leaf.text} megacredits per tr step")
            return None
        amount = int(amount_leaf.text)
        if amount < 1:
            self.d.error("E302", "a tax of 0 taxes nothing", amount_leaf.span)
            return None
        return fx.Tax(amount, resource)

    def _passive_resource_value(self, node: Node, ctx: Context):
        resource = self._standard_resource(node.children[0])
        if resource and resource not in ("steel", "titanium"):
            self.d.error("E301", "only steel and titanium have a value in megacredits", node.children[0].span)
            return None
        value, _ = self.signed(node.children[1], ctx)
        return fx.ResourceValue(resource, value) if resource else None

    def _passive_leeway(self, node: Node, ctx: Context):
        word = node.children[0]
        scope = word.text.lower()
        if scope != "global" and scope not in self.parameters:
            self.d.error("E108", f"unknown global parameter '{word.text}'", word.span,
                         did_you_mean(scope, ("global",) + tuple(self.parameters)) or
                         "write 'global requirements +-N' or 'PARAMETER requirements +-N'",
                         respelling(word.span, scope, ("global",) + tuple(self.parameters), word.text))
            return None
        return fx.RequirementLeeway(int(node.children[2].text), None if scope == "global" else scope)

    def _passive_protect(self, node: Node, ctx: Context):
        resources = []
        for leaf in node.nodes("name_list")[0].leaves():
            resource = self.any_resource(leaf)
            if resource is None:
                return None
            resources.append(resource)
        scope = "here" if node.children[-1].text == "here" else "opponents"
        if scope == "here":
            for resource in resources:
                if not self._holds_check(resource, ctx, node.span):
                    return None
        return fx.Protect(tuple(resources), scope)

    def _passive_marker_offset(self, node: Node, ctx: Context):
        piece = self.piece(node.leaves("NAME"))
        steps, _ = self.signed(node.first("SIGNED"), ctx)
        if steps < 1:
            self.d.error("E302", "a visit may raise the marker, never lower it: write +1 or more",
                         node.first("SIGNED").span)
            return None
        return fx.MarkerOffset(piece, steps) if piece else None

    def _passive_card_price(self, node: Node, ctx: Context):
        amount = int(node.first("INT").text)
        if self._standard_resource(node.first("NAME")) not in (None, "megacredits"):
            self.d.error("E301", "cards are bought with megacredits", node.first("NAME").span,
                         "write: buy cards for 5 megacredits")
            return None
        return fx.CardPrice(amount)

    def _passive_substitute(self, node: Node, ctx: Context):
        here = bool(node.nodes("on_this_card"))
        value_leaf = node.first("INT")
        names = [c for c in node.children if isinstance(c, Leaf) and c.type == "NAME"]
        if here:  # card resources on this card
            resource = self.card_resource(names[0])
            if resource is not None and not self._holds_check(resource, ctx, names[0].span):
                return None
        else:
            resource = self._standard_resource(names[0])
        instead = self._standard_resource(names[1])
        if instead and instead != "megacredits" and not (here and instead == "heat" and len(names) == 2):
            self.d.error("E301", "a resource can only stand in for megacredits (or, on this card, for heat)",
                         names[1].span, "write: use heat as megacredits, or use fighters here as 2 heat")
            return None
        tag = None
        if len(names) > 2:
            tag = self.tag(names[2])
            if tag is None:
                return None
        if not here and (tag is not None or value_leaf is not None):
            self.d.error("E301", "only resources on this card ('use RES here as ...') pay at a value of their own "
                                 "or for cards with a tag", names[0].span,
                         f"write: use {names[0].text} here as {value_leaf.text if value_leaf else 1} megacredits")
            return None
        value = int(value_leaf.text) if value_leaf is not None else 1
        if value < 1:
            self.d.error("E302", "a resource paying megacredits is worth at least 1", value_leaf.span)
            return None
        if resource and instead:
            return fx.Substitute(resource, instead, value=value, here=here, tag=tag)
        return None


def _not_neutral(effects: tuple) -> Optional[str]:
    """The first effect in a `neutral { }` block that would reward or cost a player (its kind), or None."""
    for e in effects:
        if isinstance(e, fx.ChangeParameter) and e.parameter != "tr":
            continue
        if isinstance(e, (fx.PlaceTile, fx.Require, fx.RemoveTile, fx.MoveMarkers, fx.Nothing)):
            continue
        if isinstance(e, fx.Choice):
            inner = next((w for o in e.options if (w := _not_neutral(o)) is not None), None)
        elif isinstance(e, fx.Conditional):
            inner = _not_neutral(e.then) or _not_neutral(e.otherwise)
        elif isinstance(e, (fx.May, fx.Neutral)):
            inner = _not_neutral(e.body)
        else:
            inner = "tr" if isinstance(e, fx.ChangeParameter) else e.kind_name
        if inner is not None:
            return inner
    return None
