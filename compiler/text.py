"""Canonical text for compiled values: quantities, conditions, victory points.

Used by `tharsis cards` (requirements and VP as readable strings), by runtime messages ("requires oxygen >= 9%")
and by the docs. Rendering a compiled value and compiling the text again gives the same value.
"""

from __future__ import annotations

from . import vocabulary as v
from .definitions import VictoryPoints
from .effects import Comparison, Condition, Measure, Quantity

_UNITS = {"temperature": "C", "oxygen": "%", "oceans": ""}
_SCOPE_WORD = {"you": "", "all": "all ", "opponents": "opponent ", "this": ""}


def measure(m: Measure, one: bool = False) -> str:
    """`one`: the phrase follows 'per' with no divisor, so it reads in the singular ('1 per jovian tag')."""
    many = (lambda word: word) if one else v.plural
    scope = _SCOPE_WORD.get(m.scope, "")
    k = m.kind
    if k == "tags":
        return f"{scope}{m.name + ' ' if m.name else ''}tag{'' if one else 's'}"
    if k == "distinct_tags":
        return f"{scope}distinct tags"
    if k == "resource_here":
        return f"{many(m.name) if m.name else many('resource')} here"
    if k == "card_resources":
        return f"{scope}resources on cards"
    if k == "tiles":
        scope = "your " if m.scope == "you" else ("opponent " if m.scope == "opponents" else "")
        name = {"tile": many("tile"), "special": "special " + many("tile")}.get(m.name, many(m.name))
        text = f"{scope}{name}"
        if m.on_mars:
            text += " on mars"
        if m.rows:
            text += f" in rows {m.rows[0]} to {m.rows[1]}"
        if m.next_to:
            text += f" next to {v.plural(m.next_to)}"
        return text
    if k == "adjacent_tiles":
        return f"adjacent {many(m.name)}"
    if k == "stock":
        return f"{scope}{v.plural(m.name)}"
    if k == "production":
        return f"{scope}{m.name} production"
    if k == "highest_production":
        return f"{scope}highest production"
    if k == "raised_productions":
        return f"{scope}raised productions"
    if k == "tr":
        return f"{scope}tr"
    if k == "tr_raised":
        return f"{scope}tr raised this generation"
    if k == "cards_in_hand":
        return f"{scope}cards in hand"
    if k == "events_played":
        return f"{scope}events played"
    if k == "cards":
        text = scope + (" or ".join(m.names) + " " if m.names else "") + "cards"
        if m.with_requirements:
            text += " with requirements"
        if m.min_cost is not None:
            text += f" costing {m.min_cost} or more"
        return text
    if k == "parameter":
        return m.name
    return k


def quantity(q: Quantity, one: bool = False) -> str:
    return " + ".join(measure(m, one) for m in q.terms)


def comparison(c: Comparison) -> str:
    unit = _UNITS.get(c.global_parameter or "", "")
    return f"{quantity(c.quantity)} {c.operator} {c.value}{unit}"


def condition(c: Condition | None) -> str:
    if c is None:
        return ""
    return " and ".join(comparison(x) for x in c.comparisons)


def victory_points(vp: VictoryPoints | None) -> str:
    if vp is None:
        return ""
    if vp.condition is not None:
        return f"{vp.points} if {condition(vp.condition)}"
    if vp.per is not None:
        divisor = f"{vp.divisor} " if vp.divisor > 1 else ""
        return f"{vp.points} per {divisor}{quantity(vp.per, one=vp.divisor == 1)}"
    return str(vp.points)
