"""Rules text for the definitions that are not cards: standard projects and actions, milestones, awards, boards,
declared parameters, kinds of card, rules and expansions, in players' words, in English or Chinese.

`tharsis cards --format rules` prints them after the cards, so that a designer reads what the engine understood of
a board (its areas and placement bonuses summed up, its track bonuses), a milestone or a standard project as they
read a card. The words come from the same phrase tables and names as the cards' (rules_text.py); this module only
decides what each kind of definition says.
"""

from __future__ import annotations

from typing import Optional

from . import rules_text, vocabulary as v
from .names import Names
from .rules_text import Phrases, phrases

_BONUS_ORDER = ("plant", "steel", "titanium", "energy", "heat", "megacredits", "card", v.OCEAN)


def definition(d, language: str = "en", names: Optional[Names] = None) -> str:
    """Any definition as rules text in `language`, its names from `names` (a library's `names`)."""
    if d.kind in ("card", "corporation"):
        return rules_text.card(d, language, names)
    t = phrases(language, names)
    header, lines = _WRITERS[d.kind](t, d)
    head = _title(t, d) + t("dash") + header
    if getattr(d, "set", "base") != "base":
        head += t("set_header", set=t.set_name(d.set))
    return "\n".join([head] + ["  " + line for line in lines if line])


def _title(t: Phrases, d) -> str:
    """The name in the language; a declared parameter or kind of card may have its word in the phrase table."""
    if d.kind == "parameter":
        return rules_text.title(t, d, translated=t.parameter(d.name))
    if d.kind == "card_kind":
        return rules_text.title(t, d, translated=t.card_type(d.name))
    if d.kind == "expansion":
        return rules_text.title(t, d, translated=t.set_name(d.name))
    if d.kind in ("faction", "government"):
        return rules_text.title(t, d, translated=t.name(d.name, d.kind))
    return rules_text.title(t, d)


def _variant(t: Phrases, d) -> str:
    return t("variant_header", variant=t.variant(d.variant)) if getattr(d, "variant", None) else ""


def _standard_project(t: Phrases, d):
    header = t("standard_project_header", cost=d.cost) if not d.alternatives else \
        t("standard_project_header_prices", cost=_prices(t, d.prices))
    return header + _variant(t, d), [rules_text.sentences(d.play, t.language, t.names)]


def _standard_action(t: Phrases, d):
    lines = [rules_text.sentences(d.play, t.language, t.names)]
    if d.once_per_generation:
        lines.append(t("once_per_generation"))
    return t("standard_action_header", cost=_prices(t, d.prices)) + _variant(t, d), lines


def _prices(t: Phrases, prices) -> str:
    """`9 MC or 3 energy or 3 titanium`: every way to pay, as the player may choose."""
    said = [t.counted(str(amount), resource, amount) for amount, resource in prices]
    text = said[0]
    for other in said[1:]:
        text = t("cost_or", first=text, second=other)
    return text


def _milestone(t: Phrases, d):
    return t("milestone_header"), [t("requires", requirement=rules_text.condition(d.requirement, t.language,
                                                                                  t.names))]


def _award(t: Phrases, d):
    return t("award_header"), [t("award_measure", what=rules_text.quantity(d.measure, t.language, t.names,
                                                                           owner=False))]


def _board(t: Phrases, b):
    lines = []
    if b.milestones:
        lines.append(t("board_milestones", names=t.join("names", [t.name(n, "milestone") for n in b.milestones])))
    if b.awards:
        lines.append(t("board_awards", names=t.join("names", [t.name(n, "award") for n in b.awards])))
    lines.append(_areas(t, b))
    offboard = [s.reserved for s in b.spaces if not s.on_mars and s.reserved]
    if offboard:
        lines.append(t("board_offboard", names=t.join("names", [t.area(name) for name in offboard])))
    lines.append(_bonuses(t, b))
    for space in b.spaces:
        if space.extra_cost:
            condition = t("extra_cost_while", condition=rules_text.condition(space.cost_condition, t.language,
                                                                             t.names)) \
                if space.cost_condition is not None else ""
            lines.append(t("board_extra_cost", id=space.id, n=space.extra_cost, condition=condition))
    lines += [_track(t, track.parameter, track.value, rules_text.parameter_unit(t, track.parameter), track.effects)
              for track in b.tracks]
    return t("board_header"), lines


def _areas(t: Phrases, b) -> str:
    """How many areas of each kind Mars has on this board."""
    mars = [s for s in b.spaces if s.on_mars]
    reserved = [s.reserved for s in mars if s.reserved]
    land = [s for s in mars if s.kind == v.LAND and not s.reserved]
    volcanic = sum(1 for s in land if s.volcanic)
    return t("board_areas", n=len(mars), land=len(land),
             volcanic=t("board_volcanic", n=volcanic) if volcanic else "",
             oceans=sum(1 for s in mars if s.kind == v.OCEAN_SPACE),
             reserved="".join(t("board_reserved", name=t.area(name)) for name in reserved))


def _bonuses(t: Phrases, b) -> str:
    """The placement bonuses of Mars summed up by resource: `27 plants on 19 areas`."""
    totals: dict[str, list[int]] = {}
    for space in b.spaces:
        if space.on_mars:
            for name, count in space.bonuses:
                total = totals.setdefault(name, [0, 0])
                total[0] += count
                total[1] += 1
    order = sorted(totals, key=lambda name: (_BONUS_ORDER.index(name) if name in _BONUS_ORDER else 99, name))
    items = [t("board_bonus", what=t.counted(str(totals[name][0]), name, totals[name][0]), n=totals[name][1])
             for name in order]
    return t("board_bonuses", list=t.join("list", items)) if items else ""


def _track(t: Phrases, parameter: str, value: int, unit: str, effects) -> str:
    return t("track", what=t.parameter(parameter), value=value, unit=unit,
             effects=rules_text.sentences(effects, t.language, t.names))


def _parameter(t: Phrases, d):
    unit = rules_text.parameter_unit(t, d.name, d.unit)
    lines = [_track(t, d.name, track.value, unit, track.effects) for track in d.tracks]
    if d.tr_per_step != 1:
        lines.append(t("parameter_tr", n=d.tr_per_step))
    lines.append(t(f"parameter_ends_{d.ends_game}"))
    return t("parameter_header", low=d.low, high=d.high, step=d.step, unit=unit), lines


def _card_kind(t: Phrases, d):
    lines = [t("card_kind_deal", deal=d.deal, keep=d.keep)] if d.deal else []
    if d.stages:
        lines.append(t("card_kind_stages", stages=t.join("list", [t.stage(stage) for stage in d.stages])))
    aside = "_discard" if d.unplayable_to == "discard" else ""   # out of the game, not under its pile
    if d.unplayable:
        lines.append(t("card_kind_unplayable" + aside,
                       effects=rules_text.sentences(d.unplayable, t.language, t.names)))
    elif aside:
        lines.append(t("card_kind_set_aside"))
    return t("card_kind_header"), lines


def _rule(t: Phrases, d):
    lines = [t(f"rule_{d.at}", by=t(f"rule_by_{d.by}"), effects=rules_text.sentences(d.play, t.language, t.names))]
    if d.after:
        lines.append(t("rule_after", sets=t.series("and", [t.set_name(name) for name in d.after])))
    return t("rule_header"), lines


def _expansion(t: Phrases, d):
    lines = []
    if d.offboard:
        lines.append(t("board_offboard", names=t.join("names", [t.area(name) for name in d.offboard])))
    if d.milestones:
        lines.append(t("board_milestones", names=t.join("names", [t.name(n, "milestone") for n in d.milestones])))
    if d.awards:
        lines.append(t("board_awards", names=t.join("names", [t.name(n, "award") for n in d.awards])))
    if d.solo_generations:
        lines.append(t("expansion_solo", n=d.solo_generations))
    if d.sites:
        counts = [t("expansion_site_count", sites=count,
                    players=t("players_one") if players == 1 else t("players_many", n=players))
                  for players, count in d.sites]
        lines.append(t("expansion_sites", counts=t.join("list", counts)))
    return t("expansion_header"), lines


def _piece(t: Phrases, d):
    lines = [t("piece_supply", n=d.supply) if d.supply is not None else t("piece_unlimited")]
    if d.limit is not None:
        lines.append(t("piece_limit", n=d.limit))
    if d.returns:
        lines.append(t("piece_returns"))
    if d.neutral:
        lines.append(t("piece_neutral", n=d.neutral))
    return t("piece_header"), lines


def _faction(t: Phrases, d):
    lines = []
    if d.bonus:
        lines.append(t("faction_bonus", effects=rules_text.sentences(d.bonus, t.language, t.names)))
    for part in rules_text.parts(d, t.language, t.names)["actions"]:
        lines.append(t("faction_action", effects=part))
    for passive in d.passives:
        lines.append(t("faction_policy", effects=rules_text.sentences((passive,), t.language, t.names)))
    return t("faction_header"), lines


def _government(t: Phrases, d):
    lines = [t("government_factions", factions=t.join("names", [t.name(n, "faction") for n in d.factions]),
               pieces=t.piece(d.piece, 2), ruling=t.name(d.ruling, "faction"))]
    if d.role:
        reward = rules_text.sentences(d.role_reward, t.language, t.names) if d.role_reward else ""
        lines.append(t("government_role", role=t.role(d.role), reward=t("government_reward", effects=reward)
                       if reward else ""))
    if d.influence is not None:
        lines.append(t("government_influence", what=rules_text.quantity(d.influence, t.language, t.names)))
    if d.vp:
        lines.append(rules_text.victory_points(d.vp, t.language, t.names))
    return t("government_header"), lines


def _site(t: Phrases, d):
    per_player = t("site_per_player", n=d.per_player) if d.per_player is not None else ""
    lines = [t("site_holds", n=d.capacity, pieces=t.piece(d.piece, d.capacity), per_player=per_player)]
    if d.visitor:
        lines.append(t("site_visited", a_piece=t.pieces("1", d.visitor, 1)))
    steps = [t("site_step", n=index, effects=rules_text.sentences(step, t.language, t.names))
             for index, step in enumerate(d.track)]
    lines.append(t("site_track", steps=t.join("steps", steps)))
    lines.append(t("site_marker", n=d.marker))
    if d.bonus:
        lines.append(t("site_bonus", effects=rules_text.sentences(d.bonus, t.language, t.names)))
    if d.build:
        lines.append(t("site_build", effects=rules_text.sentences(d.build, t.language, t.names)))
    if d.inactive_until is not None:
        lines.append(t("site_inactive", event=rules_text.trigger_event(d.inactive_until, t.language, t.names)))
    return t("site_header"), lines


def writer(kind: str):
    """The function that says a definition of `kind` that is not a card: (Phrases, definition) -> (its header, its
    lines); the gallery lays a site's or a faction's lines out on a face."""
    return _WRITERS[kind]


_WRITERS = {"standard_project": _standard_project, "standard_action": _standard_action, "milestone": _milestone,
            "award": _award, "board": _board, "parameter": _parameter, "card_kind": _card_kind, "rule": _rule,
            "expansion": _expansion, "piece": _piece, "site": _site, "faction": _faction, "government": _government}
