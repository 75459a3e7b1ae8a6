"""Design lints: card text that compiles but cannot mean what its designer wanted, reported as warnings.

Pipeline place: part of the checker. `Checker` (checker.py) and `EffectChecks` (check_effects.py) call these hooks
with each AST node and what it compiled to, so every warning has the node's position; the lints themselves read
only compiled values and the declared vocabulary (the global parameters' scales), never a card's name:

- W103 an amount of zero: the effect does nothing (`gain 0 heat`, `production(heat +0)`, `vp: 0`, `reveal 0 cards,
  each player takes 1`);
- W104 an effect that can never happen: card filters no card passes (`move card with no tags with earth tag ...`,
  `reveal X cards from hand with vp with no tags ...`),
  a placement (or a replacement) whose filters no space meets (`on land on ocean`,
  `isolated` and `next to`, more than 6 neighbours), the branch of an `if` its condition rules out, what follows a
  `require` that is never met, `choose X from N` beyond what X can reach;
- W105 a requirement that can never be met (`requires: oxygen > 14%`, `plant tags >= 3 and plant tags < 2`);
- W106 a trigger that can never fire (`with cost >= 20 with cost <= 10`, `with earth tag with no earth tag`, a
  placement no space allows);
- W107 victory points that can never be scored (`vp: 2 if oceans > 9`, `vp: 1 per 10 oceans`);
- W108 an effect given twice where once is meant: two identical `effect:` lines, identical options of a
  `choose { }` or an action, one production changed twice in one `production( )`, an `if` whose branches match.
"""

from __future__ import annotations

import math
from typing import Optional

import attrs

from . import effects as fx, text, vocabulary as v
from .diagnostics import Span
from .syntax import Leaf, Node

NEIGHBOURS = 6  # a hexagonal space has 6 neighbours
_BOUNDLESS = (0, math.inf)


class DesignLints:
    """Mixed into `Checker`; uses `self.diagnostics` and `self.parameters` (every parameter's scale)."""

    # ------------------------------------------------------------------ hooks

    def lint_effect(self, node: Node, compiled) -> None:
        # a verb's amounts (its `Amount` fields, compiler/effects.py): nothing happens when one is zero
        if any(_is_zero(getattr(compiled, name)) for name in compiled.amounts):
            self._zero(node, f"'{text.effect(compiled, card_text=True)}' does nothing")
        elif isinstance(compiled, (fx.Production, fx.AnyProduction)):
            self._production(node, compiled)
        elif isinstance(compiled, fx.MoveMarkers) and 0 in compiled.steps:
            self._zero(node, f"'{text.effect(compiled, card_text=True)}' moves a marker 0 steps")
        elif isinstance(compiled, (fx.PlaceTile, fx.ClaimSpace, fx.PlaceMarker, fx.MoveMarker)):
            why = self._unplaceable(compiled.filters)
            if why:
                what = "marker" if isinstance(compiled, (fx.PlaceMarker, fx.MoveMarker)) else "tile"
                self.diagnostics.warning("W104", f"no space can take this {what}: {why}", node.span,
                                         "remove one of the filters that contradict each other")
        elif isinstance(compiled, fx.ReplaceTile):
            why = self._unplaceable(compiled.filters)
            if why:
                self.diagnostics.warning("W104", f"no tile of yours can be the one replaced: {why}", node.span,
                                         "remove one of the filters that contradict each other")
        elif isinstance(compiled, fx.PutMark):
            why = self._unplaceable(compiled.filters + (fx.SpaceFilter("on_tile", tile=compiled.tile),))
            if why:
                self.diagnostics.warning("W104", f"no tile can take this {compiled.mark}: {why}", node.span,
                                         "remove one of the filters that contradict each other")
        elif isinstance(compiled, (fx.SharedReveal, fx.RevealEach)) and self.range_of(compiled.count)[1] <= 0:
            self._zero(node, f"'{text.effect(compiled, card_text=True)}' reveals no card")
        elif isinstance(compiled, fx.RevealEach) and any(no_card_passes(f) for f in compiled.filters):
            empty = next(no_card_passes(f) for f in compiled.filters if no_card_passes(f))
            self.diagnostics.warning("W104", f"no card passes the filters of a case: {empty}", node.span,
                                     "remove one of the filters that contradict each other")
        elif isinstance(compiled, (fx.MoveCard, fx.CopyPlay, fx.PlayFromHand, fx.RevealFromHand)) \
                and compiled.cards is not None \
                and no_card_passes(compiled.cards):
            self.diagnostics.warning("W104", f"no card passes these filters: {no_card_passes(compiled.cards)}",
                                     node.span, "remove one of the filters that contradict each other")
        elif isinstance(compiled, fx.Conditional):
            self._conditional(node, compiled)
        elif isinstance(compiled, fx.Require):
            never = self._never_met_at(node["condition"], compiled.condition)
            if never is not None:
                self.diagnostics.warning("W104", f"this requirement can never be met ({never[1]}), so nothing after it "
                                                 "happens", never[0], "check the comparison and its value")
        elif isinstance(compiled, fx.Choice):
            self._duplicate_options(compiled.options, "option", node["options"])
        elif isinstance(compiled, fx.ChooseX):
            high = self.range_of(compiled.maximum)[1]
            if compiled.minimum > high:
                self.diagnostics.warning("W104",
                                         f"X runs from {compiled.minimum} up to at most {high}: it can never be chosen",
                                         node.span, f"lower the 'from {compiled.minimum}'")

    def lint_passive(self, node: Node, compiled) -> None:
        if isinstance(compiled, fx.Trigger):
            why = self._never_fires(compiled.event)
            if why:
                self.diagnostics.warning("W106", f"this trigger can never fire: {why}", node["event"].span,
                                         "check its filters")
        elif isinstance(compiled, fx.Discount) and compiled.amount == 0:
            self._zero(node, "'discount 0' makes nothing cheaper")
        elif isinstance(compiled, fx.ResourceValue) and compiled.delta == 0:
            self._zero(node, f"'{compiled.resource} value +0' changes nothing")
        elif isinstance(compiled, fx.RequirementLeeway) and compiled.steps == 0:
            self._zero(node, "'requirements +-0' changes nothing")

    def lint_definition(self, node: Node, definition) -> None:
        fields = {}
        for field in node.nodes():
            fields.setdefault(field.kind, []).append(field)
        condition = getattr(definition, "requirements", None) or getattr(definition, "requirement", None)
        if condition is not None and "requires_field" in fields:
            never = self._never_met_at(fields["requires_field"][0]["condition"], condition)
            if never is not None:
                self.diagnostics.warning("W105", f"this requirement can never be met: {never[1]}", never[0],
                                         "check the comparison and its value (a card that can never be played, a "
                                         "milestone no one can claim)")
        vp = getattr(definition, "vp", None)
        if vp is not None and "vp_field" in fields:
            self._victory_points(fields["vp_field"][0], vp)
        self._duplicate_passives(fields.get("effect_field", []), getattr(definition, "passives", ()))
        actions = fields.get("action_field", [])
        if actions and getattr(definition, "actions", ()):
            options = [(option.cost, option.effects) for option in definition.actions]
            self._duplicate_options(options, "action", actions[0]["options"])

    # ------------------------------------------------------------------ ranges and conditions

    def range_of(self, quantity: fx.Quantity) -> tuple[float, float]:
        """The values a quantity can ever take: a global parameter its scale, a megacredit production from -5,
        any other count from 0, without an upper bound."""
        low, high = 0, 0
        for term in quantity.terms:
            term_low, term_high = self._measure_range(term)
            low, high = low + term_low, high + term_high
        return low, high

    def _measure_range(self, measure: fx.Measure) -> tuple[float, float]:
        if measure.kind == "parameter" and measure.name in self.parameters:
            minimum, maximum = self.parameters[measure.name][:2]
            return minimum, maximum
        if measure.kind == "constant":
            return measure.value, measure.value
        if measure.kind == "production" and measure.name == "megacredits":
            return -5, math.inf
        return _BOUNDLESS

    def _never(self, condition: fx.Condition) -> Optional[tuple[int, str]]:
        """(the index of the comparison that rules the condition out, why), or None: a comparison outside what its
        quantity can reach, or comparisons of one quantity that rule each other out."""
        bounds: dict[fx.Quantity, tuple[float, float]] = {}
        for index, comparison in enumerate(condition.comparisons):
            low, high = bounds.get(comparison.quantity, self.range_of(comparison.quantity))
            wanted_low, wanted_high = _wanted(comparison)
            low, high = max(low, wanted_low), min(high, wanted_high)
            if low > high:
                return index, self._why_never(comparison, comparison.quantity in bounds)
            bounds[comparison.quantity] = (low, high)
        return None

    def _never_met_at(self, condition_node: Node, condition: fx.Condition) -> Optional[tuple[Span, str]]:
        """Where (the comparison) and why `condition`, written as `condition_node`, can never hold."""
        found = self._never(condition)
        if found is None:
            return None
        comparisons = condition_node["comparisons"]
        index, why = found
        return (comparisons[index].span if index < len(comparisons) else condition_node.span), why

    def always_met(self, condition: fx.Condition) -> bool:
        """Every comparison holds whatever happens (`oxygen >= 0%`, `plant tags >= 0`)."""
        for comparison in condition.comparisons:
            low, high = self.range_of(comparison.quantity)
            wanted_low, wanted_high = _wanted(comparison)
            if not (wanted_low <= low and high <= wanted_high):
                return False
        return True

    def _why_never(self, comparison: fx.Comparison, with_others: bool) -> str:
        written = text.comparison(comparison)
        if with_others:
            return f"'{written}' contradicts the comparison before it"
        low, high = self.range_of(comparison.quantity)
        unit = comparison.unit
        if high == math.inf:
            return f"'{written}', and it is never below {low:g}{unit}"
        return f"'{written}', and it runs from {low:g}{unit} to {high:g}{unit}"

    # ------------------------------------------------------------------ the lints

    def _zero(self, node: Node, message: str) -> None:
        self.diagnostics.warning("W103", message, _zero_leaf(node) or node.span,
                                 "give the amount it should have, or remove the effect")

    def _production(self, node: Node, compiled) -> None:
        seen: dict[str, Node] = {}
        for delta, change in zip(node["deltas"], compiled.changes):
            if _is_zero(change.amount):
                self._zero(delta, f"'{delta['resource'].text} {delta['change'].text}' changes no production")
            if change.resource in seen and change.resource not in ("lowest", "bonus"):
                self.diagnostics.warning("W108", f"{change.resource} production is changed twice in one production( )",
                                         delta.span, "add the two changes up into one")
            seen.setdefault(change.resource, delta)

    def _unplaceable(self, filters: tuple) -> Optional[str]:
        kinds = {f.kind for f in filters if f.kind in v.SPACE_KINDS}
        if v.OCEAN_SPACE in kinds and kinds & {v.LAND, v.VOLCANIC}:
            other = v.LAND if v.LAND in kinds else v.VOLCANIC
            return f"a space is never both 'on ocean' and 'on {other}'"
        if kinds & {v.LAND, v.VOLCANIC} and any(f.kind == "on_tile" and f.tile in v.OCEAN_TILES for f in filters):
            return "an ocean tile is never on a land space"
        if any(f.kind == "no_bonus" for f in filters) and any(f.kind == "bonus" for f in filters):
            return "'on no bonus' and 'on bonus' ask for a space without and with a bonus"
        near = [f for f in filters if f.kind == "next_to" and f.tile != v.CLAIM]  # a marker is no tile
        if near and any(f.kind == "isolated" for f in filters):
            return "'isolated' means no tile next to it, and 'next to' asks for one"
        for none in (f for f in filters if f.kind == "not_next_to"):   # `next to no greenery next to greenery`
            if any(f.tile == none.tile or none.tile == "tile" for f in near if (f.own or not none.own) and
                   (f.opponent or not none.opponent)):
                return f"'next to no {none.tile}' rules out the tile that 'next to' asks for"
        # tiles of different kinds are different neighbours (a city is never an ocean); `tile`, `special` and a
        # kind asked for twice (`next to 1 city next to 2 your cities`) may be the same neighbour, so not added up
        kinds = [f.tile for f in near]
        distinct = len(set(kinds)) == len(kinds) and set(kinds) <= set(v.TILES) - v.NAMED_TILES
        wanted = sum(f.count for f in near) if distinct else max((f.count for f in near), default=0)
        if wanted > NEIGHBOURS:
            return f"a space has {NEIGHBOURS} neighbours, and this asks for {wanted} tiles next to it"
        return None

    def _conditional(self, node: Node, compiled: fx.Conditional) -> None:
        never = self._never_met_at(node["condition"], compiled.condition)
        if never is not None:
            self.diagnostics.warning("W104",
                                     f"the condition can never be met ({never[1]}), so what it guards never happens",
                                     never[0], "check the comparison and its value")
        elif compiled.otherwise and self.always_met(compiled.condition):
            self.diagnostics.warning("W104", "the condition is always met, so the 'else' never happens",
                                     node["otherwise"].span,
                                     "drop the 'if', or fix its comparison")
        if compiled.otherwise and compiled.then == compiled.otherwise:
            self.diagnostics.warning("W108",
                                     "both branches of this 'if' are the same, so the condition changes nothing",
                                     node.span, "keep the effects without the 'if'")

    def _never_fires(self, event: fx.TriggerEvent) -> Optional[str]:
        low = event.min_cost if event.min_cost is not None else 0
        if event.max_cost is not None and (event.max_cost < 0 or low > event.max_cost):
            bound = "a card costs 0 or more" if event.max_cost < 0 else \
                f"no cost is both {event.min_cost} or more and {event.max_cost} or less"
            return bound
        if event.kind == "place":
            return self._unplaceable(event.filters)
        if event.kind == "play_card":
            cards = event.cards or fx.CardFilter()   # the event's own fields and the card filters, as one
            return no_card_passes(attrs.evolve(cards, tag=event.tag or cards.tag,
                                               no_tags=event.no_tags or cards.no_tags,
                                               with_vp=event.with_vp or cards.with_vp))
        return None

    def _victory_points(self, field: Node, vp) -> None:
        value = field["value"]
        if vp.points == 0:
            self.diagnostics.warning("W103", "'vp: 0' scores nothing", value["points"].span,
                                     "give the card its points, or remove the 'vp:' field")
            return
        if vp.condition is not None:
            never = self._never_met_at(value["condition"], vp.condition)
            if never is not None:
                self.diagnostics.warning("W107", f"these points can never be scored: {never[1]}", never[0],
                                         "check the comparison and its value")
        if vp.per is not None:   # with a condition too: `vp: each player -1 per your city if animals here >= 10`
            high = self.range_of(vp.per)[1]
            if high < vp.divisor:
                self.diagnostics.warning("W107", f"these points can never be scored: {text.quantity(vp.per)} never "
                                                 f"reaches {vp.divisor} (at most {high:g})", value.span,
                                         "count per a number it can reach")

    def _duplicate_passives(self, fields: list[Node], passives: tuple) -> None:
        if len(fields) != len(passives):  # a passive that did not compile: the fields and effects do not pair up
            return
        seen: dict = {}
        for field, passive in zip(fields, passives):
            if passive in seen:
                # the first one's line goes in the hint: `tharsis fmt` moves lines, never what a warning says
                self.diagnostics.warning("W108", "the same effect is given twice, so it happens twice", field.span,
                                         f"the first is at line {seen[passive].span.line}: remove one, or write "
                                         "what the second should do")
            else:
                seen[passive] = field

    def _duplicate_options(self, options, what: str, option_nodes: list) -> None:
        if len(option_nodes) != len(options):
            return
        seen: dict = {}
        for option_node, option in zip(option_nodes, options):
            if option in seen:
                self.diagnostics.warning("W108",
                                         f"this {what} is the same as an earlier one, so there is nothing to choose",
                                         option_node.span, "remove it, or make it different")
            else:
                seen[option] = option_node


def _wanted(comparison: fx.Comparison) -> tuple[float, float]:
    value, operator = comparison.value, comparison.operator
    return {">=": (value, math.inf), ">": (value + 1, math.inf), "<=": (-math.inf, value),
            "<": (-math.inf, value - 1), "==": (value, value)}[operator]


def _is_zero(amount: fx.Amount) -> bool:
    return amount.coefficient == 0 and not amount.variable


def _zero_leaf(node: Node) -> Optional[Span]:
    """The position of the zero that makes an effect do nothing: the first 0 among the node's own words."""
    for child in node.children:
        if isinstance(child, Leaf) and child.type in ("INT", "SIGNED", "SIGNED_INT") and \
                child.text.lstrip("+-").isdigit() and int(child.text.lstrip("+-")) == 0:
            return child.span
    return None


def no_card_passes(f: fx.CardFilter) -> Optional[str]:
    """Why no card can pass a card filter (`with earth tag with no earth tag`), or None when one can."""
    both = next((tag for tag in f.tags_needed if tag in f.tags_lacked), None)
    if both is not None:
        return f"a card cannot both have and lack the {both} tag"
    if f.tags_needed and f.no_tags:
        return f"a card with no tags has no {f.tags_needed[0]} tag"
    if f.any_tag and f.no_tags:
        return f"a card with no tags has no {' or '.join(f.any_tag)} tag"
    if f.any_tag and set(f.any_tag) <= set(f.tags_lacked):
        return f"a card cannot both have and lack the {' or '.join(f.any_tag)} tag"
    if f.min_cost is not None and f.max_cost is not None and f.min_cost > f.max_cost:
        return f"no cost is both {f.min_cost} or more and {f.max_cost} or less"
    if f.max_cost is not None and f.max_cost < 0:
        return "a card costs 0 or more"
    return _no_tag_count_passes(f)


def _no_tag_count_passes(f: fx.CardFilter) -> Optional[str]:
    """The tag-count side of `no_card_passes` (`with tags >= 2 with tags <= 1`, `with no tags with tags >= 1`,
    `with earth tag with tags == 0`), the rest of its checks after it."""
    needed = len(set(f.tags_needed)) + (1 if f.any_tag else 0)
    if f.min_tags is not None and f.max_tags is not None and f.min_tags > f.max_tags:
        return f"no card bears both {f.min_tags} or more tags and {f.max_tags} or fewer"
    if f.max_tags is not None and f.max_tags < 0:
        return "a card bears 0 tags or more"
    if f.no_tags and f.min_tags is not None and f.min_tags > 0:
        return f"a card with no tags does not bear {f.min_tags} or more"
    if f.max_tags is not None and needed > f.max_tags:
        return f"a card with the tags named bears more than {f.max_tags}"
    return _no_other_card_passes(f)


def _no_other_card_passes(f: fx.CardFilter) -> Optional[str]:
    """The requirements, points and special tile side of `no_card_passes`."""
    lacking = set(f.lacking)
    if f.requirements is not None and ("requirements" in lacking or
                                       f"{f.requirements} requirements" in lacking):
        what = f"a {f.requirements} requirement" if f.requirements in ("global", "faction") else "requirements"
        return f"a card cannot both have {what} and lack {'them' if what == 'requirements' else 'it'}"
    if f.with_vp and "vp" in lacking:
        return "a card cannot both print victory points and print none"
    if f.special_tile and "special tile" in lacking:
        return "a card cannot both place a special tile and place none"
    return None
