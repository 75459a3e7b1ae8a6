"""Canonical text for compiled values: quantities, conditions, victory points.

Used by `tharsis cards` (requirements and VP as readable strings), by runtime messages ("requires oxygen >= 9%")
and by the docs. Rendering a compiled value and compiling the text again gives the same value.
"""

from __future__ import annotations

from . import vocabulary as v
from .definitions import VictoryPoints
from .effects import Comparison, Condition, Measure, Quantity
from .memo import per_list

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


# ------------------------------------------------------------------------------------------- effects

from . import effects as fx  # noqa: E402  (kept beside the code that uses it)


def amount(a: fx.Amount, signed: bool = False) -> str:
    """The number with its `per` clause: `+1 per 2 power tags` (production deltas, draw, tr)."""
    return number(a, signed) + per(a)


def number(a: fx.Amount, signed: bool = False) -> str:
    if a.variable:
        return ("-" if a.coefficient < 0 else ("+" if signed else "")) + "X"
    return f"{a.coefficient:+d}" if signed else str(a.coefficient)


def per(a: fx.Amount) -> str:
    if a.per is None:
        return ""
    divisor = f"{a.divisor} " if a.divisor > 1 else ""
    return f" per {divisor}{quantity(a.per, one=a.divisor == 1)}"


def _resource(name: str, a: fx.Amount) -> str:
    return name if a.variable else v.plural(name, abs(a.coefficient))


def _filters(filters) -> str:
    parts = []
    for f in filters:
        if f.kind in ("land", "ocean", "volcanic", "mars"):
            parts.append(f"on {f.kind}")
        elif f.kind == "reserved":
            parts.append(f'on reserved "{f.reserved}"')
        elif f.kind == "bonus":
            parts.append("on bonus " + " or ".join(f.bonuses))
        elif f.kind == "next_to":
            count = f"{f.count} " if f.count > 1 else ""
            parts.append(f"next to {count}{'your ' if f.own else ''}{v.plural(f.tile, f.count)}")
        elif f.kind == "isolated":
            parts.append("isolated")
    return (" " + " ".join(parts)) if parts else ""


@per_list
def effects(items) -> str:
    """The canonical text of an effect list (the engine labels options and prompts with it as it plays)."""
    return "; ".join(effect(e) for e in items)


def effect(e) -> str:
    """The canonical source text of a compiled effect (used for option labels and rules text)."""
    if isinstance(e, (fx.Gain, fx.Lose, fx.Spend)):
        verb = {fx.Gain: "gain", fx.Lose: "lose", fx.Spend: "spend"}[type(e)]
        return f"{verb} {number(e.amount)} {_resource(e.resource, e.amount)}{per(e.amount)}"
    if isinstance(e, fx.Pay):
        using = (" using " + ", ".join(e.using)) if e.using else ""
        return f"pay {amount(e.amount)} megacredits{using}"
    if isinstance(e, (fx.Production, fx.AnyProduction)):
        inner = ", ".join(f"{c.resource} {amount(c.amount, signed=True)}" for c in e.changes)
        return ("any " if isinstance(e, fx.AnyProduction) else "") + f"production({inner})"
    if isinstance(e, fx.ChangeParameter):
        return f"{e.parameter} {amount(e.amount, signed=True)}"
    if isinstance(e, fx.PlaceTile):
        count = f"{e.count} " if e.count > 1 else ""
        name = f' "{e.name}"' if e.name else ""
        return f"place {count}{v.plural(e.tile, e.count)}{name}{_filters(e.filters)}"
    if isinstance(e, fx.ClaimSpace):
        return "claim space" + _filters(e.filters)
    if isinstance(e, fx.Draw):
        return f"draw {amount(e.amount)}"
    if isinstance(e, fx.LookKeep):
        return f"look {e.look} keep {e.keep}"
    if isinstance(e, fx.LookBuy):
        return f"look {e.look} buy"
    if isinstance(e, fx.Discard):
        return f"discard {amount(e.amount)}"
    if isinstance(e, fx.AddResources):
        target = {"here": "here", "another_card": "to another card", "any_card": "to any card",
                  "any_card_with_resources": "to any card with resources", "that_card": "to that card"}[e.target]
        return f"add {number(e.amount)} {_resource(e.resource, e.amount)} {target}"
    if isinstance(e, fx.RemoveResources):
        source = {"here": "here", "any_card": "from any card", "any_player": "from any player"}[e.source]
        if e.next_to_placed:
            source += " next to it"
        return f"remove {'up to ' if e.up_to else ''}{number(e.amount)} {_resource(e.resource, e.amount)} {source}"
    if isinstance(e, fx.Steal):
        return f"steal {'up to ' if e.up_to else ''}{number(e.amount)} {_resource(e.resource, e.amount)} from any player"
    if isinstance(e, fx.Choice):
        return "choose { " + " | ".join(effects(o) for o in e.options) + " }"
    if isinstance(e, fx.Conditional):
        text = f"if {condition(e.condition)} {{ {effects(e.then)} }}"
        return text + (f" else {{ {effects(e.otherwise)} }}" if e.otherwise else "")
    if isinstance(e, fx.ChooseX):
        low = f"from {e.minimum} " if e.minimum else ""
        return f"choose X {low}up to {quantity(e.maximum)} {{ {effects(e.body)} }}"
    if isinstance(e, fx.May):
        return f"may {{ {effects(e.body)} }}"
    if isinstance(e, fx.CopyProduction):
        return f"copy production of {e.tag} card"
    if isinstance(e, fx.Reveal):
        return f"reveal top card if {e.tag} tag {{ {effects(e.then)} }}"
    if isinstance(e, fx.Require):
        return f"require {condition(e.condition)}"
    if isinstance(e, fx.NextCard):
        return "next card { " + "; ".join(effect(m) for m in e.modifiers) + " }"
    if isinstance(e, fx.Discount):
        t = e.target
        target = {"cards": f"{t.tag + ' ' if t.tag else ''}cards", "standard_project": f'standard project "{t.name}"',
                  "standard_projects": "standard projects", "standard_action": f'standard action "{t.name}"',
                  "starting_cards": "starting cards"}[t.kind]
        resource = "" if e.resource == "megacredits" else f" {e.resource}"
        return f"discount {e.amount}{resource} on {target}"
    if isinstance(e, fx.ResourceValue):
        return f"{e.resource} value {e.delta:+d}"
    if isinstance(e, fx.RequirementLeeway):
        return f"global requirements +-{e.steps}"
    if isinstance(e, fx.Protect):
        return f"protect {', '.join(e.resources)} " + ("here" if e.scope == "here" else "from opponents")
    if isinstance(e, fx.Substitute):
        return f"use {e.resource} as {e.instead_of}"
    if isinstance(e, fx.Trigger):
        return f"when {'you' if e.subject == 'you' else 'any player'} {_event(e.event)}" + \
            (" including this" if e.including_this else "") + f" -> {effects(e.effects)}"
    return type(e).__name__


def _event(ev: fx.TriggerEvent) -> str:
    costs = ""
    if ev.min_cost is not None:
        costs += f" with cost >= {ev.min_cost}"
    if ev.max_cost is not None:
        costs += f" with cost <= {ev.max_cost}"
    if ev.kind == "play_tag":
        return "play " + " or ".join(ev.tags) + " tag"
    if ev.kind == "play_card":
        return f"play {ev.tag + ' ' if ev.tag else ''}{ev.card_kind}{costs}"
    if ev.kind == "place":
        return f"place {ev.tile} tile{_filters(ev.filters)}"
    if ev.kind == "standard_project":
        return "use standard project" + costs + "".join(f' except "{n}"' for n in ev.excluded)
    if ev.kind == "production":
        return "produce"
    return f"raise {ev.parameter}"


def _set_name(name: str) -> str:
    return name if name.isidentifier() else f'"{name}"'


def _fields(*fields: str) -> str:
    """Fields that share a line, two spaces apart; an empty one (a field the card does not have) is left out."""
    return "  ".join(field for field in fields if field)


def card(definition) -> str:
    """A card or corporation as canonical card text, generated from what was compiled (round-trips, see
    tests/test_text_roundtrip.py): what the engine will actually do, in the language designers write. The layout
    is the bundled cards' own (a card's set, type, cost and tags on one line; `set:` only when not the base game),
    and it is what `tharsis fmt` writes."""
    d = definition
    head = "corporation" if d.kind == "corporation" else "card"
    number = f" #{d.number}" if d.number else ""
    lines = [f'{head} "{d.name}"{number} {{']
    set_name = f"set: {_set_name(d.set)}" if d.set != "base" else ""
    tags = "tags: " + ", ".join(d.tags) if d.tags else ""
    if d.kind == "corporation":
        variant = f"variant: {d.variant}" if d.variant else ""
        set_and_tags = _fields(set_name, tags)
        lines += [f"  {field}" for field in (variant, set_and_tags, f"start: {d.starting_megacredits} megacredits")
                  if field]
    else:
        lines.append("  " + _fields(set_name, f"type: {d.type}", f"cost: {d.cost}", tags))
    if d.requirements:
        lines.append(f"  requires: {condition(d.requirements)}")
    if d.holds:
        lines.append(f"  holds: {d.holds}")
    if d.play:
        lines.append(f"  play: {effects(d.play)}")
    if getattr(d, "first_action", ()):
        lines.append(f"  first action: {effects(d.first_action)}")
    if d.actions:
        options = []
        for option in d.actions:
            cost = effects(option.cost)
            options.append((cost + " -> " if cost else "") + effects(option.effects))
        lines.append("  action: " + " | ".join(options))
    for passive in d.passives:
        lines.append(f"  effect: {effect(passive)}")
    if d.vp:
        lines.append(f"  vp: {victory_points(d.vp)}")
    lines.append("}")
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------- whole content

def content(definitions, tags=(), card_resources=()) -> str:
    """Definitions of every kind as card text, after the `tag` and `resource` declarations they need: the output
    of `tharsis cards --format text`, which checks clean and compiles back to the same definitions."""
    parts = []
    declarations = [f"tag {', '.join(sorted(tags))}"] if tags else []
    if card_resources:
        declarations.append(f"resource {', '.join(sorted(card_resources))}")
    if declarations:
        parts.append("\n".join(declarations))
    parts.extend(definition(d) for d in definitions)
    return "\n\n".join(parts)


def definition(d) -> str:
    """One definition of any kind as canonical card text."""
    if d.kind in ("card", "corporation"):
        return card(d)
    variant = [f"  variant: {d.variant}"] if getattr(d, "variant", None) else []
    if d.kind == "standard_project":
        return "\n".join([f'standard project "{d.name}" {{', f"  cost: {d.cost}", f"  play: {effects(d.play)}",
                          *variant, "}"])
    if d.kind == "standard_action":
        resource = "" if d.cost_resource == "megacredits" else f" {v.plural(d.cost_resource, d.cost)}"
        return "\n".join([f'standard action "{d.name}" {{', f"  cost: {d.cost}{resource}",
                          f"  play: {effects(d.play)}", *variant, "}"])
    if d.kind == "milestone":
        return f'milestone "{d.name}" {{\n  requires: {condition(d.requirement)}\n}}'
    if d.kind == "award":
        return f'award "{d.name}" {{\n  measure: {quantity(d.measure)}\n}}'
    return board(d)


def board(b) -> str:
    lines = [f'board "{b.name}" {{']
    if b.milestones:
        lines.append("  milestones: " + ", ".join(f'"{name}"' for name in b.milestones))
    if b.awards:
        lines.append("  awards: " + ", ".join(f'"{name}"' for name in b.awards))
    offboard = [s for s in b.spaces if s.row < 0]
    if offboard:
        lines.append("  offboard: " + ", ".join(f'"{s.reserved}"' for s in offboard))
    rows: dict[int, list] = {}
    for space in b.spaces:
        if space.row >= 0:
            rows.setdefault(space.row, []).append(space)
    for row in sorted(rows):
        lines.append("  row: " + " ".join(_space(s) for s in sorted(rows[row], key=lambda s: s.x)))
    for track in b.tracks:
        lines.append(f"  track: {track.parameter} {track.value}{_UNITS.get(track.parameter, '')} -> "
                     f"{effects(track.effects)}")
    lines.append("}")
    return "\n".join(lines)


def _space(s) -> str:
    text = "volcanic" if s.volcanic else s.kind
    if s.bonuses:
        text += "(" + ", ".join((f"{count} " if count != 1 else "") + name for name, count in s.bonuses) + ")"
    if s.reserved:
        text += f' reserved "{s.reserved}"'
    if s.extra_cost:
        text += f" costs {s.extra_cost}"
        if s.cost_condition is not None:
            text += f" if {condition(s.cost_condition)}"
    return text
