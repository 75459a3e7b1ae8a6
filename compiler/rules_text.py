"""Rules text in players' words, generated from compiled cards: what the engine will do, in English or Chinese.

Designers read it to check that their card says what they meant (`tharsis cards --format rules --lang zh`), the
gallery prints it on each card face and `tharsis play` shows it. There is one renderer for every language: the
code below decides the structure (which sentence, which parts, in what nesting) and every word comes from the
language's phrase table, `templates/phrases/<lang>.yaml` (sentence patterns with `{slots}`, nouns, tags,
measure words). The card's layout is the Jinja template `templates/card.txt.j2`, which takes its words from the
same table. A new effect kind fails loudly here until it has a branch, and a phrase missing from one language's
table fails the tests (tests/test_rules_text.py compares the tables key by key).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Mapping

import attrs
import jinja2
import yaml

from . import effects as fx

LANGUAGES = ("en", "zh")
_UNITS = {"temperature": "unit_temperature", "oxygen": "unit_oxygen", "oceans": "unit_oceans"}


@attrs.frozen
class Phrases:
    """One language's words. Names a table does not know (a designer's own resource or tag) stay as written."""

    language: str
    patterns: Mapping[str, str]
    nouns: Mapping[str, tuple[str, str]]   # name -> (singular, plural); Chinese has one form
    tags: Mapping[str, str]
    units: Mapping[str, str]               # measure word before a noun (Chinese 张/个/点); empty in English
    sets: Mapping[str, str]
    plural_suffix: str                     # for names the table does not know: `balloon` -> `balloons`
    joins: Mapping[str, str]
    article_before_vowel: str
    article: str

    def __call__(self, key: str, **slots) -> str:
        return self.patterns[key].format(**slots)

    def noun(self, name: str, count: int = 2) -> str:
        one, many = self.nouns.get(name, (name, name + self.plural_suffix))
        return one if count == 1 else many

    def parameter(self, name: str) -> str:
        """A global parameter's name: the table's word for the printed three, a declared one as it is named."""
        return self.nouns[name][1] if name in self.nouns else name[:1].upper() + name[1:]

    def card_type(self, name: str) -> str:
        """A card type (`automated`) or a declared kind of card (`mission`), as the table or the designer says it."""
        return self.nouns[f"type_{name}"][0] if f"type_{name}" in self.nouns else name

    def tag(self, name: str) -> str:
        return self.tags.get(name, name)

    def unit(self, name: str) -> str:
        return self.units.get(name, self.units["default"])

    def counted(self, count: str, name: str, grammatical_count: int) -> str:
        """`3 plants`, `3点植物`: a number with its noun (and, in Chinese, the measure word between them)."""
        return self("counted", n=count, unit=self.unit(name), noun=self.noun(name, grammatical_count))

    def a(self, words: str) -> str:
        """The indefinite article for English (`an ocean tile`); nothing in languages without one."""
        vowel = words[:1].lower() in "aeiou"
        return (self.article_before_vowel if vowel else self.article) + words

    def join(self, kind: str, parts) -> str:
        return self.joins[kind].join(parts)

    def upper_first(self, words: str) -> str:
        return words[:1].upper() + words[1:]


@lru_cache(maxsize=None)
def phrases(language: str = "en") -> Phrases:
    """The phrase table of `language` (one of LANGUAGES)."""
    if language not in LANGUAGES:
        raise ValueError(f"no rules text in {language!r}; languages: {', '.join(LANGUAGES)}")
    source = jinja2.PackageLoader("tharsis.compiler", "templates").get_source(
        _environment(), f"phrases/{language}.yaml")[0]
    table = yaml.safe_load(source)
    nouns = {name: (forms, forms) if isinstance(forms, str) else tuple(forms)
             for name, forms in table["nouns"].items()}
    return Phrases(language=language, patterns=table["patterns"], nouns=nouns, tags=table["tags"],
                   units=table["units"], sets=table["sets"], plural_suffix=table["plural_suffix"],
                   joins=table["joins"],
                   article_before_vowel=table["articles"]["before_vowel"], article=table["articles"]["other"])


# ------------------------------------------------------------------------------------------- quantities

def _measure(t: Phrases, m: fx.Measure, one: bool = False) -> str:
    """One counted thing. `one`: it follows 'per' with no divisor, so English reads it in the singular."""
    count = 1 if one else 2
    scope = t(f"scope_{m.scope}") if m.scope in ("all", "opponents") else ""
    k = m.kind
    if k == "tags":
        suffix = "_one" if one else ""
        if m.name:
            return t("tags_of" + suffix, tag=t.tag(m.name), scope=scope)
        return t("tags_any" + suffix, scope=scope)
    if k == "tiles":
        scope = {"you": t("tiles_yours"), "opponents": t("tiles_opponents")}.get(m.scope, "")
        name = "tile" if m.name == "tile" else ("special_tile" if m.name == "special" else m.name)
        where = ""
        if m.on_mars:
            where += t("tiles_on_mars")
        if m.rows:
            where += t("tiles_in_rows", first=m.rows[0], last=m.rows[1])
        if m.next_to:
            where += t("tiles_next_to", what=t.noun(m.next_to))
        return t("tiles", scope=scope, what=t.noun(name, count), where=where)
    if k == "resource_here":
        return t("resource_here", what=t.noun(m.name or "resource", count))
    if k == "adjacent_tiles":
        return t("adjacent_tiles", what=t.noun(m.name, count))
    if k in ("stock", "production"):
        return t(f"measure_{k}", scope=scope, what=t.noun(m.name, 2 if k == "stock" else 1))
    if k == "cards":
        kinds = t("card_kinds", kinds=t.join("or", [t.card_type(name) for name in m.names])) if m.names else ""
        costing = t("cards_costing", n=m.min_cost) if m.min_cost is not None else ""
        requirements = t("cards_with_requirements") if m.with_requirements else ""
        if m.no_tags:
            requirements += t("cards_with_no_tags")
        return t("measure_cards", scope=scope, kinds=kinds, requirements=requirements, costing=costing)
    if k == "parameter":
        return t.parameter(m.name)
    if k == "card_resources" and m.name:
        return t("measure_card_resources_of", scope=scope, what=t.noun(m.name, count))
    if k == "constant":
        return str(m.value)
    return t(f"measure_{k}", scope=scope)


def _quantity(t: Phrases, q: fx.Quantity, one: bool = False) -> str:
    return t.join("plus", (_measure(t, m, one) for m in q.terms))


def _unit_of(q: fx.Quantity) -> str:
    """The noun a quantity counts, for the measure word before a divisor (`每2张牌`, `每点植物`)."""
    m = q.terms[0]
    if len(q.terms) > 1:
        return "default"
    if m.kind in ("cards", "cards_in_hand", "events_played"):
        return "card"
    if m.kind == "stock":
        return m.name
    if m.kind in ("production", "highest_production", "tr", "tr_raised", "parameter"):
        return "step"
    return "default"


def _per(t: Phrases, a: fx.Amount) -> str:
    """`per 2 jovian tags`: what an amount is counted per, or nothing."""
    if a.per is None:
        return ""
    what = _quantity(t, a.per, one=a.divisor == 1)
    if a.divisor > 1:
        return t("per_many", n=a.divisor, unit=t.unit(_unit_of(a.per)), what=what)
    return t("per_one", unit=t.unit(_unit_of(a.per)), what=what)


def _times_x(number: int, variable: bool) -> str:
    return (f"{number}X" if number != 1 else "X") if variable else str(number)


def _count(a: fx.Amount) -> str:
    if a.variable:
        return f"{abs(a.coefficient)}X" if abs(a.coefficient) != 1 else "X"  # `gain 3X megacredits`
    return str(abs(a.coefficient))


def _things(t: Phrases, a: fx.Amount, name: str) -> str:
    """`3 plants`, `1 MC`: the number with its noun (the `per` clause is a slot of its own)."""
    return t.counted(_count(a), name, 2 if a.variable else abs(a.coefficient))


def _steps(t: Phrases, a: fx.Amount) -> str:
    return t.counted(_count(a), "step", 1 if _count(a) == "1" else 2)


def _condition(t: Phrases, c: fx.Condition) -> str:
    parts = []
    for comparison in c.comparisons:
        unit = t(_UNITS[comparison.global_parameter]) if comparison.global_parameter in _UNITS else \
            {"C": "°C"}.get(comparison.unit, comparison.unit)
        parts.append(t("comparison", what=_quantity(t, comparison.quantity),
                       operator=t(f"operator_{comparison.operator}"), value=comparison.value, unit=unit))
    return t.join("and", parts)


def _filters(t: Phrases, filters) -> str:
    words = []
    for f in filters:
        if f.kind == "reserved":
            words.append(t("on_reserved", name=f.reserved))
        elif f.kind == "bonus":
            words.append(t("on_bonus", bonuses=t.join("or", [t.noun(b, 1) for b in f.bonuses])))
        elif f.kind == "next_to":
            what = t.noun(f.tile if f.tile != "tile" else "tile", f.count)
            words.append(t("next_to", at_least=t("at_least", n=f.count) if f.count > 1 else "",
                           whose=t("next_to_yours") if f.own else "", what=what))
        else:
            words.append(t(f"on_{f.kind}"))
    return t("filters", list=t.join("filters", words)) if words else ""


# ------------------------------------------------------------------------------------------- effects

def _sentences(t: Phrases, effects) -> str:
    return t.join("sentences", (_sentence(t, e) for e in effects))


def _sentence(t: Phrases, e) -> str:  # noqa: C901 - one branch per effect kind, on purpose
    if isinstance(e, (fx.Gain, fx.Lose, fx.Spend, fx.Steal)):
        key = {fx.Gain: "gain", fx.Lose: "lose", fx.Spend: "spend", fx.Steal: "steal"}[type(e)]
        if isinstance(e, fx.Steal) and e.up_to:
            key = "steal_up_to"
        return t(key, what=_things(t, e.amount, e.resource), per=_per(t, e.amount))
    if isinstance(e, fx.Pay):
        using = t("pay_using", resources=t.join("or", [t.noun(r, 1) for r in e.using])) if e.using else ""
        return t("pay", what=_things(t, e.amount, "megacredits"), per=_per(t, e.amount), using=using)
    if isinstance(e, (fx.Production, fx.AnyProduction)):
        whose = t("production_any_player") if isinstance(e, fx.AnyProduction) else t("production_yours")
        parts = []
        for change in e.changes:
            verb = t("decrease") if change.amount.coefficient < 0 else t("increase")
            production = t("production_of_bonus") if change.resource == "bonus" else \
                t("production_of_lowest") if change.resource == "lowest" else \
                t("production_of", whose=whose, resource=t.noun(change.resource, 1))
            parts.append(t("production_change", verb=verb, production=production, steps=_steps(t, change.amount),
                           per=_per(t, change.amount)))
        return t("production", changes=t.upper_first(t.join("production", parts)))
    if isinstance(e, fx.ChangeParameter):
        what = t("your_tr") if e.parameter == "tr" else t.parameter(e.parameter)
        verb = t("param_lower") if e.amount.coefficient < 0 else t("param_raise")
        return t("parameter", verb=verb, what=what, steps=_steps(t, e.amount), per=_per(t, e.amount))
    if isinstance(e, fx.PlaceTile):
        name = t("tile_name", name=e.name) if e.name else ""
        tile = f"{e.tile}_tile"
        tiles = t("tiles_count", n=e.count, unit=t.unit("tile"), tile=t.noun(tile, e.count)) if e.count > 1 \
            else t("a_tile", a_tile=t.a(t.noun(tile, 1)))
        return t("place", tiles=tiles, name=name, filters=_filters(t, e.filters))
    if isinstance(e, fx.ClaimSpace):
        return t("claim", filters=_filters(t, e.filters))
    if isinstance(e, (fx.Draw, fx.Discard)):
        key = "draw" if isinstance(e, fx.Draw) else "discard"
        return t(key, what=_things(t, e.amount, "card"), per=_per(t, e.amount))
    if isinstance(e, fx.LookKeep):
        return t("look_keep", look=_times_x(e.look, e.variable), keep=e.keep)
    if isinstance(e, fx.LookBuy):
        return t("look_buy_one") if e.look == 1 and not e.variable else t("look_buy", n=_times_x(e.look, e.variable))
    if isinstance(e, fx.AddResources):
        if e.tag:
            return t(f"add_{e.target}_tagged", what=_things(t, e.amount, e.resource), per=_per(t, e.amount),
                     a_tag=t.a(t.tag(e.tag)))
        return t(f"add_{e.target}", what=_things(t, e.amount, e.resource), per=_per(t, e.amount))
    if isinstance(e, fx.RemoveResources):
        source = "next_to_placed" if e.next_to_placed else e.source
        key = f"remove_{source}" + ("_up_to" if e.up_to else "")
        sentence = t(key, what=_things(t, e.amount, e.resource), per=_per(t, e.amount))
        if e.player_tag:
            sentence += t("only_players_with", a_tag=t.a(t.tag(e.player_tag)))
        return sentence
    if isinstance(e, fx.Choice):
        return t("choice", options=t.join("options", (_sentences(t, o) for o in e.options)))
    if isinstance(e, fx.Conditional):
        otherwise = t("otherwise", effects=_sentences(t, e.otherwise)) if e.otherwise else ""
        return t("if", condition=_condition(t, e.condition), effects=_sentences(t, e.then), otherwise=otherwise)
    if isinstance(e, fx.ChooseX):
        return t("choose_x", minimum=e.minimum, maximum=_quantity(t, e.maximum), effects=_sentences(t, e.body))
    if isinstance(e, fx.May):
        return t("may", effects=_sentences(t, e.body))
    if isinstance(e, fx.CopyProduction):
        return t("copy_production", tag=t.tag(e.tag))
    if isinstance(e, fx.Reveal):
        return t("reveal", a_tag=t.a(t.tag(e.tag)), effects=_sentences(t, e.then))
    if isinstance(e, fx.EachOpponent):
        return t("each_opponent", effects=_sentences(t, e.body))
    if isinstance(e, fx.FundAward):
        return t("fund_award")
    if isinstance(e, fx.LookPlay):
        return t("look_play", n=e.look, kind=t.card_type(e.card_kind), k=e.play)
    if isinstance(e, fx.ReuseAction):
        return t("reuse_action")
    if isinstance(e, fx.GainRaised):
        return t("gain_raised")
    if isinstance(e, fx.RevealUntil):
        wanted = t("with_tag", a_tag=t.a(t.tag(e.tag))) if e.tag is not None else \
            t("with_icon", what=t.noun(e.icon, 1)) if e.icon is not None else t("holding", what=t.noun(e.holds))
        return t("reveal_until", n=e.count, wanted=wanted)
    if isinstance(e, fx.PlayFromHand):
        parts = [t("play_discount", n=m.amount) if isinstance(m, fx.Discount) else t("play_ignoring")
                 for m in e.modifiers]
        return t("play_from_hand", how=t.join("and", parts) if parts else "")
    if isinstance(e, fx.Require):
        return t("require", condition=_condition(t, e.condition))
    if isinstance(e, fx.NextCard):
        return t("next_card", effects=_sentences(t, e.modifiers))
    if isinstance(e, fx.Neutral):
        return t("neutral", effects=_sentences(t, e.body))
    if isinstance(e, fx.Trigger):
        return t("when", event=_event(t, e), effects=_sentences(t, e.effects))
    if isinstance(e, fx.Discount):
        target = e.target
        if target.kind == "cards" and target.tag:
            what = t("discount_tagged_cards", a_tag=t.a(t.tag(target.tag)))
        else:
            what = t(f"discount_{target.kind}", name=target.name)
        amount = t.counted(str(e.amount), e.resource, e.amount)
        if e.per_tag:
            return t("discount_per_tag", what=what, amount=amount, tag=t.tag(e.per_tag))
        return t("discount", what=what, amount=amount)
    if isinstance(e, fx.ResourceValue):
        return t("resource_value", resource=t.noun(e.resource, 1), n=e.delta)
    if isinstance(e, fx.RequirementLeeway):
        if e.parameter:
            return t("leeway_of", n=e.steps, what=t.parameter(e.parameter))
        return t("leeway", n=e.steps)
    if isinstance(e, fx.Protect):
        resources = t.join("or", [t.noun(r) for r in e.resources])
        if e.scope == "here":
            return t("protect_here", resources=t.upper_first(resources))
        return t("protect_from_opponents", resources=resources)
    if isinstance(e, fx.Substitute):
        if e.here:
            tag = t("substitute_for", a_tag=t.a(t.tag(e.tag))) if e.tag else ""
            return t("substitute_here", resource=t.noun(e.resource), n=e.value, tag=tag)
        return t("substitute", resource=t.noun(e.resource, 1))
    raise TypeError(f"no rules text for {type(e).__name__}")


def _event(t: Phrases, trigger: fx.Trigger) -> str:
    ev = trigger.event
    who = trigger.subject  # you | any | another
    slots = {"including_this": t("including_this") if trigger.including_this else "",
             "costing": t("costing", n=ev.min_cost) if ev.min_cost is not None else ""}
    if ev.kind == "play_tag":
        slots["a_tags"] = t.a(t.join("or", [t.tag(tag) for tag in ev.tags]))
    elif ev.kind == "play_card":
        what = t("event_card") if ev.card_kind == "event" else t("project_card")
        slots["a_card"] = t.a(t("tagged", tag=t.tag(ev.tag), what=what) if ev.tag else what)
        if ev.with_vp:
            slots["a_card"] += t("with_vp")
        if ev.no_tags:
            slots["a_card"] += t("cards_with_no_tags")
    elif ev.kind == "add_resource":
        slots["what"] = t.noun(ev.resource)
    elif ev.kind == "place":
        slots["a_tile"] = t("any_tile") if ev.tile == "tile" else t.a(t.noun(f"{ev.tile}_tile", 1))
        slots["filters"] = _filters(t, ev.filters)
    elif ev.kind == "standard_project":
        slots["except"] = "".join(t("other_than", name=name) for name in ev.excluded)
    elif ev.kind == "raise":
        slots["what"] = t("your_tr") if ev.parameter == "tr" else t.parameter(ev.parameter)
    key = "event_production" if ev.kind == "production" else f"event_{ev.kind}_{who}"
    return t(key, **slots)


def _victory_points(t: Phrases, vp) -> str:
    if vp.condition is not None:
        return t("vp_if", n=vp.points, condition=_condition(t, vp.condition))
    if vp.per is not None:
        what = _quantity(t, vp.per, one=vp.divisor == 1)
        unit = t.unit(_unit_of(vp.per))
        if vp.divisor > 1:
            return t("vp_per_many", n=vp.points, divisor=vp.divisor, unit=unit, what=what)
        return t("vp_per_one", n=vp.points, unit=unit, what=what)
    return t("vp", n=vp.points)


# ------------------------------------------------------------------------------------------- public parts

def sentences(effects, language: str = "en") -> str:
    """A run of compiled effects, as the card says them (`tharsis play` shows standard projects this way)."""
    return _sentences(phrases(language), effects)


def condition(c: fx.Condition, language: str = "en") -> str:
    """A requirement (`oxygen at least 9%`), e.g. a milestone's."""
    return _condition(phrases(language), c)


def quantity(q: fx.Quantity, language: str = "en") -> str:
    """What a quantity counts (`jovian tags`), e.g. an award's measure."""
    return _quantity(phrases(language), q)


# ------------------------------------------------------------------------------------------- cards

@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.PackageLoader("tharsis.compiler", "templates"),
                              trim_blocks=True, lstrip_blocks=True, autoescape=False)


def parts(definition, language: str = "en") -> dict:
    """Each part of a card's rules text on its own, in `language`: what the card template lays out, and what the
    gallery prints on a card face."""
    t = phrases(language)
    d = definition
    actions = []
    for option in d.actions:
        cost = _sentences(t, option.cost)
        effects = _sentences(t, option.effects)
        actions.append(t("action_with_cost", cost=cost, effects=effects) if cost else effects)
    return {
        "requirement": _condition(t, d.requirements) if d.requirements else "",
        "play": _sentences(t, d.play),
        "first_action": _sentences(t, getattr(d, "first_action", ())),
        "actions": actions,
        "passives": [_sentence(t, p) for p in d.passives],
        "vp": _victory_points(t, d.vp) if d.vp else "",
    }


def card(definition, language: str = "en") -> str:
    """A card or corporation as rules text in `language` (see LANGUAGES)."""
    t = phrases(language)
    d = definition
    return _environment().get_template("card.txt.j2").render(
        card=d, t=t, tags=t.join("tags", [t.tag(tag) for tag in d.tags]), set=t.sets.get(d.set, d.set),
        **parts(d, language)).rstrip()
