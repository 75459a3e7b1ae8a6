"""The facts of a compiled definition as plain data, for `tharsis cards` and for tools reading its JSON."""

from __future__ import annotations

from . import text


def facts(definition) -> dict:
    row = {"kind": definition.kind, "name": definition.name}
    if definition.kind in ("card", "corporation"):
        row.update(
            number=definition.number,
            set=definition.set,
            type=definition.type,
            cost=definition.cost,
            tags=list(definition.tags),
            requirements=[
                {"measure": text.quantity(c.quantity), "operator": c.operator, "value": c.value,
                 "global": c.global_parameter is not None}
                for c in (definition.requirements.comparisons if definition.requirements else ())
            ],
            requirements_text=text.condition(definition.requirements),
            vp=_vp(definition.vp),
            vp_text=text.victory_points(definition.vp),
            holds=definition.holds,
        )
        if definition.kind == "corporation":
            row["starting_megacredits"] = definition.starting_megacredits
    elif definition.kind in ("standard_project", "standard_action"):
        row.update(cost=definition.cost, cost_resource=getattr(definition, "cost_resource", "megacredits"),
                   variant=definition.variant)
        if definition.alternatives:  # `cost: 9 megacredits | 3 energy | 3 titanium`: every way to pay
            row["prices"] = [{"amount": amount, "resource": resource} for amount, resource in definition.prices]
    elif definition.kind == "piece":
        row.update(set=definition.set, supply=definition.supply, limit=definition.limit, returns=definition.returns,
                   neutral=definition.neutral)
    elif definition.kind == "faction":
        row.update(set=definition.set, bonus=text.card_effects(definition.bonus),
                   policy=[text.effect(p, card_text=True) for p in definition.passives] +
                   [text.card_effects(o.cost + o.effects) for o in definition.actions])
    elif definition.kind == "government":
        row.update(set=definition.set, factions=list(definition.factions), piece=definition.piece,
                   ruling=definition.ruling, role=definition.role, vp_text=text.victory_points(definition.vp))
    elif definition.kind == "site":
        row.update(set=definition.set, piece=definition.piece, capacity=definition.capacity,
                   per_player=definition.per_player, visitor=definition.visitor,
                   track=[text.card_effects(step) for step in definition.track], marker=definition.marker,
                   bonus=text.card_effects(definition.bonus), build=text.card_effects(definition.build),
                   inactive_until=text.trigger_event(definition.inactive_until, card_text=True)
                   if definition.inactive_until is not None else None)
    elif definition.kind == "milestone":
        row.update(requirement=text.condition(definition.requirement))
    elif definition.kind == "award":
        row.update(measure=text.quantity(definition.measure))
    elif definition.kind == "board":
        row.update(spaces=len(definition.spaces), milestones=list(definition.milestones),
                   awards=list(definition.awards))
    row["file"] = definition.source.path
    row["line"] = definition.source.line
    return row


def _vp(vp):
    if vp is None:
        return None
    result = {"points": vp.points}
    if vp.scorers is not None:   # only then: the other cards' facts as before
        result["scorers"] = vp.scorers
    if vp.per is not None:
        result.update(per=text.quantity(vp.per), divisor=vp.divisor)
    if vp.condition is not None:
        result.update(condition=text.condition(vp.condition))
    return result


def render_table(rows: list[dict]) -> str:
    columns = ("number", "name", "kind", "set", "type", "cost", "tags", "requirements_text", "vp_text")
    headers = ("#", "name", "kind", "set", "type", "cost", "tags", "requires", "vp")
    cells = [[_cell(row.get(c)) for c in columns] for row in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths)),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    lines.append(f"{len(rows)} definitions")
    return "\n".join(lines)


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return ",".join(map(str, value))
    return str(value)
