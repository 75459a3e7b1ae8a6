"""Rules text in players' words, generated from compiled cards: what the engine will do, in English or Chinese.

Designers read it to check that their card says what they meant (`tharsis cards --format rules --lang zh`), the
gallery prints it on each card face and `tharsis play` shows it. There is one renderer for every language: the
code below decides the structure (which sentence, which parts, in what nesting) and every word comes from the
language's phrase table, `templates/phrases/<lang>.yaml` (sentence patterns with `{slots}`, nouns, tags,
measure words), and from the content's names in that language (`.names` files, compiler/names.py: 孢子农场 for
Spore Farm). The card's layout is the Jinja template `templates/card.txt.j2`, which takes its words from the same
table; element_text.py says the other definitions (boards, milestones, awards, standard projects) the same way.
A new effect kind fails loudly here until it has a branch, and a phrase missing from one language's table fails
the tests (tests/test_rules_text.py compares the tables key by key).

A counted thing has two parts, because languages order them differently: English says `1 VP per animal here`,
Chinese `本卡上每有1个动物，得1分` (where the things are, then how many, then what). `_measure` gives both, the
`where` part (empty in English, whose patterns keep it in the phrase) and the `what`; the patterns of each place a
quantity can stand (a `per` clause, a comparison, a noun on its own) put them together.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Mapping, Optional

import attrs
import jinja2
import yaml

from . import effects as fx, vocabulary as v
from .names import LANGUAGES, NO_NAMES, Names  # noqa: F401  (LANGUAGES: rules_text.LANGUAGES, as before)
from .text import times_x

_UNITS = {"temperature": "unit_temperature", "oxygen": "unit_oxygen", "oceans": "unit_oceans"}
_VALUES = ("parameter", "tr", "tr_raised", "removed", "highest_production", "constant")  # read off a track, not counted


@attrs.frozen
class Phrases:
    """One language's words, and the content's names in it. Names neither knows (a designer's own resource or tag
    that no names file translates) stay as written."""

    language: str
    patterns: Mapping[str, str]
    nouns: Mapping[str, tuple[str, str]]   # name -> (singular, plural); Chinese has one form
    tags: Mapping[str, str]
    units: Mapping[str, str]               # measure word before a noun (Chinese 张/个/点); empty in English
    sets: Mapping[str, str]
    variants: Mapping[str, str]
    plural_suffix: str                     # for names the table does not know: `balloon` -> `balloons`
    joins: Mapping[str, str]
    article_before_vowel: str
    article: str
    names: Names = NO_NAMES

    def __call__(self, key: str, **slots) -> str:
        return self.patterns[key].format(**slots)

    def name(self, definition_or_name, kind: str = "card") -> str:
        """What players of this language call a definition, or a name of `kind` (a special tile is named after its
        card, `kind` card)."""
        return self.names.display_name(definition_or_name, self.language, kind)

    def area(self, name: str) -> str:
        """A board's reserved area, as the names files call it (or the card it is named after)."""
        return self.names.area(name, self.language)

    def noun(self, name: str, count: int = 2) -> str:
        resource = self.names.get("resource", name, self.language)
        if resource is not None:
            return resource
        if name not in self.nouns:   # a declared name: English plural (none for a mass noun: `data`), Chinese none
            return name if count == 1 or (self.plural_suffix and name in v.MASS_NOUNS) else name + self.plural_suffix
        one, many = self.nouns[name]
        return one if count == 1 else many

    def parameter(self, name: str) -> str:
        """A global parameter's name: the table's word for the printed three, a declared one as it is named."""
        declared = self.names.get("parameter", name, self.language)
        if declared is not None:
            return declared
        return self.nouns[name][1] if name in self.nouns else name[:1].upper() + name[1:]

    def card_type(self, name: str) -> str:
        """A card type (`automated`) or a declared kind of card (`mission`), as the table or the designer says it."""
        declared = self.names.get("card_kind", name, self.language)
        if declared is not None:
            return declared
        return self.nouns[f"type_{name}"][0] if f"type_{name}" in self.nouns else name

    def tag(self, name: str) -> str:
        return self.names.get("tag", name, self.language) or self.tags.get(name, name)

    def piece(self, name: str, count: int = 1) -> str:
        """A declared kind of piece, as a names file or the table says it, else as declared (`cargo ships`)."""
        declared = self.names.get("piece", name, self.language)
        if declared is not None:
            return declared
        if name in self.nouns:
            one, many = self.nouns[name]
            return one if count == 1 else many
        if not self.plural_suffix or count == 1:
            return name
        from .vocabulary import plural_noun
        return plural_noun(name, count)

    def pieces(self, count: str, name: str, grammatical_count: int) -> str:
        """`2 outposts`, `2个前哨站`; `an outpost` for one."""
        if count == "1":
            return self("a_piece", a_piece=self.a(self.piece(name, 1)))
        return self("counted", n=count, unit=self.unit("default"), noun=self.piece(name, grammatical_count))

    def stage(self, name: str) -> str:
        """A stage of a kind of card (`current`), as a names file says it, else as declared."""
        return self.names.get("stage", name, self.language) or name

    def role(self, name: str) -> str:
        """A government's role, as a names file says it, else as declared."""
        return self.names.get("role", name, self.language) or name

    def tile(self, name: str, count: int = 1) -> str:
        """A tile (`city`, `ocean`, `greenery`, `special`): `city tile`, 城市板块; a kind the catalogue has no noun
        for (a designer's new kind of tile) is told as a special tile."""
        key = f"{name}_tile"
        return self.noun(key if key in self.nouns else "special_tile", count)

    def set_name(self, name: str) -> str:
        """A set: the base game, Corporate Era, or an expansion (which a names file may name)."""
        return self.names.get("expansion", name, self.language) or self.sets.get(name, name)

    def variant(self, name: str) -> str:
        return self.variants.get(name, name)

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

    def series(self, kind: str, parts) -> str:
        """A list whose last two join apart from the rest: `plant, microbe or animal`, Chinese `植物、微生物或动物`."""
        parts = list(parts)
        if len(parts) < 3:
            return self.join(kind, parts)
        return self.joins[f"{kind}_series"].join(parts[:-1]) + self.joins[kind] + parts[-1]

    def upper_first(self, words: str) -> str:
        return words[:1].upper() + words[1:]


@lru_cache(maxsize=None)
def phrases(language: str = "en", names: Optional[Names] = None) -> Phrases:
    """The phrase table of `language` (one of LANGUAGES), speaking the content's `names` (a library's `names`)."""
    table = _table(language)
    return attrs.evolve(table, names=names) if names else table


@lru_cache(maxsize=None)
def _table(language: str) -> Phrases:
    if language not in LANGUAGES:
        raise ValueError(f"no rules text in {language!r}; languages: {', '.join(LANGUAGES)}")
    source = jinja2.PackageLoader("tharsis.compiler", "templates").get_source(
        _environment(), f"phrases/{language}.yaml")[0]
    table = yaml.safe_load(source)
    nouns = {name: (forms, forms) if isinstance(forms, str) else tuple(forms)
             for name, forms in table["nouns"].items()}
    return Phrases(language=language, patterns=table["patterns"], nouns=nouns, tags=table["tags"],
                   units=table["units"], sets=table["sets"], variants=table["variants"],
                   plural_suffix=table["plural_suffix"], joins=table["joins"],
                   article_before_vowel=table["articles"]["before_vowel"], article=table["articles"]["other"])


# ------------------------------------------------------------------------------------------- quantities

@attrs.frozen
class _Counted:
    """A quantity in two parts: `where` (whose, or where they are: 你, 本卡上, 火星上; English keeps it inside `what`)
    and `what` (the things: `opponent plant tags`, 植物标志); `unit` keys the measure word; `value` for a number
    read off a track (oxygen, TR), compared as `oxygen at least 9%` rather than counted; `total` for a sum."""

    where: str
    what: str
    unit: str = "default"
    value: bool = False
    total: bool = False


def _owner(t: Phrases, scope: str, owner: bool) -> str:
    """Whose things are counted (Chinese 你, 全场, 对手); none for an award, which compares every player's."""
    return "" if scope == "you" and not owner else t(f"owner_{scope}")


def _measure(t: Phrases, m: fx.Measure, one: bool = False, owner: bool = True) -> _Counted:  # noqa: C901
    """One counted thing. `one`: it follows 'per' with no divisor, so English reads it in the singular."""
    count = 1 if one else 2
    scope = t(f"scope_{m.scope}") if m.scope in ("all", "opponents") else ""
    whose = _owner(t, m.scope, owner)
    k = m.kind
    if k == "tags":
        suffix = "_one" if one else ""
        if m.name:
            return _Counted(whose, t("tags_of" + suffix, tag=t.tag(m.name), scope=scope))
        return _Counted(whose, t("tags_any" + suffix, scope=scope))
    if k == "tiles":
        scope = {"you": t("tiles_yours"), "opponents": t("tiles_opponents")}.get(m.scope, "")
        name = "tile" if m.name == v.ANY_TILE else ("special_tile" if m.name == v.SPECIAL else
                                                     "named_tile" if m.name == v.NAMED else m.name)
        place = (t("tiles_on_mars") if m.on_mars else "") + (t("tiles_off_mars") if m.off_mars else "") + \
            (t("tiles_in_rows", first=m.rows[0], last=m.rows[1]) if m.rows else "")
        # every player's, and nothing says where: "city tile in play" (the printed cards' words; Chinese 全场 says it)
        everyone = t("tiles_in_play") if m.scope == "all" and not place else ""
        next_to = t("tiles_next_to", what=t.noun(m.next_to)) if m.next_to else ""
        if m.mark:   # `cities with cathedral`: a declared mark on the tile
            next_to += t("tiles_with_mark", mark=t.noun(m.mark, 1))
        if place and m.scope == "all":
            whose = ""  # `cities on mars` are everyone's: 火星上 says where
        at = t("at") if whose and place else ""
        return _Counted(t("tiles_where", owner=whose, at=at, place=place),
                        t("tiles", scope=scope, what=t.noun(name, count), where=place + next_to + everyone,
                          next_to=next_to),
                        unit="tile")
    if k == "resource_here":
        return _Counted(t("here"), t("resource_here", what=t.noun(m.name or "resource", count)))
    if k == "added":
        return _Counted("", t("resource_added", what=t.noun(m.name or "resource", count)))
    if k == "adjacent_tiles":
        return _Counted("", t("adjacent_tiles", what=t.noun(m.name, count)), unit="tile")
    if k == "placed_tiles":
        whose = {"you": t("tiles_yours"), "opponents": t("tiles_opponents")}.get(m.scope, "")
        name = "tile" if m.name == v.ANY_TILE else ("special_tile" if m.name == v.SPECIAL else m.name)
        return _Counted("", t("placed_tiles", whose=whose, what=t.noun(name, count)), unit="tile")
    if k in ("stock", "production"):
        what = t(f"measure_{k}", scope=scope, what=t.noun(m.name, 2 if k == "stock" else 1))
        return _Counted(whose, what, unit=m.name if k == "stock" else "step")
    if k == "cards":
        kinds = t("card_kinds", kinds=t.series("or", [t.card_type(name) for name in m.names])) if m.names else ""
        costing = t("cards_costing", n=m.min_cost) if m.min_cost is not None else ""
        requirements = (t("cards_in_play") if m.in_play else "") + \
            (t("cards_with_requirements") if m.with_requirements else "")
        if m.no_tags:
            requirements += t("cards_with_no_tags")
        return _Counted(whose, t("measure_cards", scope=scope, kinds=kinds, requirements=requirements,
                                 costing=costing, filters=card_filter(t, m.cards)), unit="card")
    if k == "parameter":
        return _Counted("", t.parameter(m.name), unit="step", value=True)
    if k == "constant":
        return _Counted("", str(m.value), value=True)
    if k == "pieces":
        if one and m.scope == "all":   # `per PIECE in play`: "per PIECE in play", never "per all PIECE"
            return _Counted(whose, t("measure_pieces_all_one", what=t.piece(m.piece, count)))
        return _Counted(whose, t("measure_pieces", scope=scope, what=t.piece(m.piece, count)))
    if k == "players":
        return _Counted("", t("measure_players"), value=True)
    if k == "passed":
        return _Counted("", t(f"measure_passed_{m.scope}"), value=True)
    if k == "generation":
        return _Counted("", t.noun("generation", count))
    if k == "empty_spaces":
        return _Counted(whose, t("measure_empty_spaces"), unit="tile")
    if k == "adjacent_empty":
        return _Counted("", t("measure_adjacent_empty"), unit="tile")
    if k in ("influence", "role", "factions_led", "leader", "pieces_in", "factions_with", "ruling", "used"):
        return _faction_measure(t, m, count, whose)
    if k == "card_resources":
        on_cards = (t("owner_of", owner=whose) if whose else "") + t("on_cards")
        what = t("measure_card_resources_of", scope=scope, what=t.noun(m.name, count)) if m.name else \
            t("measure_card_resources", scope=scope)
        return _Counted(on_cards, what)
    if k == "tr_raised":  # 你本时代提升的改造度: whose goes inside the phrase
        return _Counted("", t("measure_tr_raised", scope=scope, owner=whose), unit="step", value=True)
    if k == "removed":  # 所有玩家本时代从其他玩家处移除的植物: who removed them inside the phrase
        what = t("measure_removed", what=t.noun(m.name or "resource", count), by=t(f"removed_by_{m.scope}"))
        return _Counted("", what, unit=m.name if m.name in v.STANDARD_RESOURCES else "default", value=True)
    unit = {"cards_in_hand": "card", "events_played": "card", "distinct_tags": "kind",
            "raised_productions": "kind", "distinct_resources": "kind"}.get(k, "step")
    return _Counted(whose, t(f"measure_{k}", scope=scope, owner=whose), unit=unit, value=k in _VALUES)


def _faction_name(t: Phrases, m: fx.Measure) -> str:
    """The faction a measure names (as the names files call it), or the ruling or the dominant one."""
    return t.name(m.faction, "faction") if m.faction is not None else t(f"faction_{m.which}")


def _faction_measure(t: Phrases, m: fx.Measure, count: int, whose: str) -> _Counted:
    """Influence, a role held, factions led, a faction's leader, pieces in a faction, factions with pieces."""
    k = m.kind
    if k == "influence":
        return _Counted(whose, t("measure_influence"), unit="step", value=True)
    if k == "role":
        return _Counted(whose, t("measure_role", role=t.role(m.name)), value=True)
    if k == "factions_led":
        return _Counted(whose, t("measure_factions_led"), unit="faction")
    if k == "leader":
        return _Counted(whose, t("measure_leader", faction=_faction_name(t, m)), value=True)
    if k == "factions_with":
        return _Counted(whose, t("measure_factions_with", pieces=t.piece(m.piece, 2)), unit="faction")
    if k == "ruling":
        return _Counted("", t("measure_ruling", faction=_faction_name(t, m)), value=True)
    if k == "used":
        return _Counted(whose, t("measure_used", name=t.name(m.name, "standard_action")), value=True)
    return _Counted(whose, t("measure_pieces_in", pieces=t.piece(m.piece, count), faction=_faction_name(t, m),
                             besides=t("besides_leader") if m.besides_leader else ""))


def _quantity(t: Phrases, q: fx.Quantity, one: bool = False, owner: bool = True) -> _Counted:
    """A quantity; a sum of several reads as one list (`steel + titanium`, 钢铁与钛), whose first says whose."""
    if any(m.cap is not None or m.cap_by is not None or m.subtract for m in q.terms):
        return _arithmetic(t, q, owner)
    if len(q.terms) == 1:
        return _measure(t, q.terms[0], one, owner)
    parts, said = [], None
    for m in q.terms:
        term = _measure(t, m, one, owner)
        where = "" if term.where == said else term.where  # 你的植物标志、微生物标志与动物标志
        said = term.where
        parts.append(_standalone(t, attrs.evolve(term, where=where)))
    return _Counted("", t.series("plus", parts), total=True)


def _arithmetic(t: Phrases, q: fx.Quantity, owner: bool) -> _Counted:
    """A quantity with caps or a subtraction: `jovian tags (at most 5) minus influence (never below 0)`."""
    total, floored = "", False
    for m in q.terms:
        term = _standalone(t, _measure(t, m, False, owner))
        if m.cap is not None:
            term = t("quantity_capped", what=term, n=m.cap)
        if m.cap_by is not None:   # "the smaller of your Earth tags and your Jovian tags"
            term = t("quantity_smaller", what=term, other=_standalone(t, _measure(t, m.cap_by, False, owner)))
        if not total:
            total = term
        elif m.subtract:
            total, floored = t("quantity_minus", total=total, what=term), True
        else:
            total = t.join("plus", [total, term])
    return _Counted("", t("quantity_floored", total=total) if floored else total, total=True)


def _standalone(t: Phrases, c: _Counted) -> str:
    """A quantity as a noun on its own: `animals here`, 本卡上的动物."""
    return t("of", where=c.where, what=c.what) if c.where else c.what


def _amount(t: Phrases, c: _Counted) -> str:
    """How many there are, as the bound of a number: `cards in hand`, 你的手牌数 (a stock or a production is an
    amount already: 你的热能产量)."""
    counted = not c.value and not c.total and c.unit in ("default", "card", "tile", "kind")
    return t("amount_of", what=_standalone(t, c)) if counted else _standalone(t, c)


def _per_clause(t: Phrases, c: _Counted, divisor: int) -> str:
    """`per 2 jovian tags`, 你每有2个木星标志，: what an amount (or VP) is counted per."""
    key = ("per_total" if c.total else "per") + ("_many" if divisor > 1 else "_one")
    return t(key, n=divisor, unit=t.unit(c.unit), what=c.what, where=c.where)


def _per(t: Phrases, a: fx.Amount) -> str:
    if a.per is None:
        return ""
    terms = a.per.terms
    if len(terms) == 1 and terms[0].kind == "parameter" and terms[0].name == "oceans" and terms[0].cap is None \
            and terms[0].cap_by is None:   # the oceans counted are tiles: "per ocean tile", 每有1个海洋板块
        one = a.divisor == 1
        tiles = _Counted("", t("tiles", scope="", what=t.noun(v.OCEAN, 1 if one else 2), where="", next_to=""),
                         unit="tile")
        return _per_clause(t, tiles, a.divisor)
    return _per_clause(t, _quantity(t, a.per, one=a.divisor == 1), a.divisor)


def _count(a: fx.Amount) -> str:
    """The number of an amount, without its sign: `3`, `X`, `3X` (`gain 3X megacredits`)."""
    return times_x(abs(a.coefficient), a.variable)


def _things(t: Phrases, a: fx.Amount, name: str) -> str:
    """`3 plants`, `1 MC`: the number with its noun (the `per` clause is a slot of its own)."""
    return t.counted(_count(a), name, 2 if a.variable else abs(a.coefficient))


def _steps(t: Phrases, a: fx.Amount, unit: str = "step") -> str:
    """`1 step`, 1点: steps of production or TR; `unit="parameter_step"`: of a global parameter's track, which the
    Chinese rulebook counts in 格 (提升一格氧气浓度), not 点."""
    return t.counted(_count(a), unit, 1 if _count(a) == "1" else 2)


def _condition(t: Phrases, c: fx.Condition) -> str:
    """A requirement: `oxygen at least 9%`, 你至少有3个植物标志; several that count one player's things say whose
    once (你至少有1个金星标志，至少有1个地球标志); groups joined by `or` read one after the other."""
    return t.join("or", [_comparisons(t, group) for group in c.groups])


def _comparisons(t: Phrases, comparisons) -> str:
    parts, said = [], None
    for comparison in comparisons:
        terms = comparison.quantity.terms
        if len(terms) == 1 and terms[0].kind == "ruling" and comparison.operator == ">=" and comparison.value == 1:
            parts.append(t("faction_rules", faction=t.name(terms[0].faction, "faction")))
            said = None
            continue
        counted = _quantity(t, comparison.quantity)
        operator = comparison.operator
        if counted.value:
            parameter = comparison.global_parameter
            unit = parameter_unit(t, parameter, comparison.unit) if parameter else t.unit(counted.unit)
            parts.append(t("comparison", what=_standalone(t, counted), operator=t(f"operator_{operator}"),
                           value=comparison.value, unit=unit))
            said = None
            continue
        where = "" if counted.where == said else counted.where
        said = counted.where
        parts.append(t("comparison_total" if counted.total else "comparison_count", what=counted.what, where=where,
                       operator=t(f"operator_count_{operator}"), value=comparison.value, unit=t.unit(counted.unit)))
    return t.series("and", parts)


def parameter_unit(t: Phrases, parameter: str, declared: str = "") -> str:
    """The unit a value of a global parameter is written with: the printed three's from the table (℃ in Chinese),
    a declared one's own (`%`, `C`, or a count: none)."""
    if parameter in _UNITS:
        return t(_UNITS[parameter])
    return t("unit_temperature") if declared == "C" else declared


def card_filter(t: Phrases, f: Optional[fx.CardFilter]) -> str:
    """A CardFilter as qualifiers after a card (English) or beside it (Chinese): its types, tags, requirements,
    costs, points, resource and special tile, in that order."""
    if f is None:
        return ""
    parts = []
    if f.types:
        parts.append(t("card_filter_types", kinds=t.series("or", [t.card_type(name) for name in f.types])))
    for tag in f.tags_needed:
        parts.append(t("card_filter_tag", a_tag=t.a(t.tag(tag))))
    if f.any_tag:
        parts.append(t("card_filter_tag", a_tag=t.a(t.series("or", [t.tag(tag) for tag in f.any_tag]))))
    if f.tags_lacked:   # none of them: "with no Jovian or Earth tag"
        parts.append(t("card_filter_lacks", tag=t.series("or", [t.tag(tag) for tag in f.tags_lacked])))
    if f.no_tags:
        parts.append(t("cards_with_no_tags"))
    if f.min_tags is not None and f.min_tags == f.max_tags:
        parts.append(t("card_filter_tags_exactly", n=f.min_tags, tags=_tags_word(f.min_tags)))
    else:
        if f.min_tags is not None:
            parts.append(t("card_filter_min_tags", n=f.min_tags, tags=_tags_word(f.min_tags)))
        if f.max_tags is not None:
            parts.append(t("card_filter_max_tags", n=f.max_tags, tags=_tags_word(f.max_tags)))
    if f.requirements is not None:
        parts.append(t({"global": "card_filter_global_requirements", "faction": "card_filter_faction_requirements"}
                       .get(f.requirements, "card_filter_requirements")))
    if f.min_cost is not None:
        parts.append(t("card_filter_min_cost", n=f.min_cost))
    if f.max_cost is not None:
        parts.append(t("card_filter_max_cost", n=f.max_cost))
    if f.with_vp:
        parts.append(t("card_filter_vp"))
    if f.holds is not None:
        parts.append(t("card_filter_holding", what=t.noun(f.holds)))
    if f.special_tile:
        parts.append(t("card_filter_special_tile"))
    for word in f.lacking:   # `with no requirements`, `with no vp`, ...
        parts.append(t("card_filter_no_" + word.replace(" ", "_")))
    return "".join(parts)


def _tags_word(n: int) -> str:
    """The English word after a number of tags (the Chinese phrases have no slot for it)."""
    return "tag" if n == 1 else "tags"


def _filters(t: Phrases, filters) -> str:
    words = []
    for f in filters:
        if f.kind == "reserved":
            words.append(t("on_reserved", name=t.area(f.reserved)))
        elif f.kind == "bonus":
            words.append(t("on_bonus", bonuses=t.series("or", [t.noun(b, 1) for b in f.bonuses])))
        elif f.kind == "no_bonus":
            words.append(t("on_no_bonus"))
        elif f.kind == "next_to":
            what = t.noun(f.tile if f.tile != "tile" else "tile", f.count)
            words.append(t("next_to", at_least=t("at_least", n=f.count) if f.count > 1 else "",
                           whose=t("next_to_yours") if f.own else (t("next_to_opponents") if f.opponent else ""),
                           what=what))
        elif f.kind == "not_next_to":
            words.append(t("not_next_to", what=t.noun(f.tile, 1),
                           whose=t("not_next_to_yours") if f.own else (t("not_next_to_opponents") if f.opponent
                                                                        else "")))
        elif f.kind == "next_to_marker":
            words.append(t("next_to_marker", name=f.marker))
        elif f.kind == "next_to_placed":
            words.append(t("next_to_placed"))
        elif f.kind == "on_tile":
            what = t.noun("tile", 1) if f.tile == "tile" else t.tile(f.tile, 1)
            whose = t("next_to_yours") if f.own else (t("next_to_opponents") if f.opponent else "")
            words.append(t("on_tile", what=whose + what if whose else t.a(what)))
        else:
            words.append(t(f"on_{f.kind}"))
    return t("filters", list=t.join("filters", words)) if words else ""


# ------------------------------------------------------------------------------------------- effects

def _sentences(t: Phrases, effects) -> str:
    return t.join("sentences", (_sentence(t, e) for e in effects))


_SENTENCES: dict[type, Callable[[Phrases, object], str]] = {}   # effect class -> its rules text, `(t, effect)`


def sentence_of(*kinds: type):
    """Register the function below as the rules text of `kinds` (compiler/effects.py's verb classes)."""

    def register(function: Callable[[Phrases, object], str]) -> Callable[[Phrases, object], str]:
        for kind in kinds:
            _SENTENCES[kind] = function
        return function

    return register


def _sentence(t: Phrases, e) -> str:
    say = _SENTENCES.get(type(e))
    if say is None:
        raise TypeError(f"no rules text for {type(e).__name__}: register one with @sentence_of in "
                        "compiler/rules_text.py")
    return say(t, e)


@sentence_of(fx.Gain, fx.Lose, fx.Spend, fx.Steal)
def _gain(t: Phrases, e) -> str:
    key = e.kind_name + ("_up_to" if isinstance(e, (fx.Steal, fx.Lose)) and e.up_to else "")
    key += "_harmed" if isinstance(e, fx.Steal) and e.harmed else ""
    return t(key, what=_things(t, e.amount, e.resource), per=_per(t, e.amount))


@sentence_of(fx.Give)
def _give(t: Phrases, e) -> str:
    return t(f"give{'_up_to' if e.up_to else ''}_{e.to}", what=_things(t, e.amount, e.resource))


@sentence_of(fx.FaceDown)
def _face_down(t: Phrases, e) -> str:
    return t("face_down")


@sentence_of(fx.Pay)
def _pay(t: Phrases, e) -> str:
    using = t("pay_using", resources=t.series("or", [t.noun(r, 1) for r in e.using])) if e.using else ""
    return t("pay", what=_things(t, e.amount, "megacredits"), per=_per(t, e.amount), using=using)


@sentence_of(fx.Production, fx.AnyProduction)
def _production(t: Phrases, e) -> str:
    whose = t("production_any_player") if isinstance(e, fx.AnyProduction) else t("production_yours")
    parts = []
    floors: dict[int, list[str]] = {}   # `megacredits at least 1, steel at least 1, ...`: one clause per floor
    for change in e.changes:
        if change.floor is not None:   # `plants at least 3`
            if change.floor not in floors:
                floors[change.floor] = []
                parts.append(change.floor)   # where the clause goes, written once all are known
            floors[change.floor].append(t.noun(change.resource, 1))
            continue
        verb = t("decrease") if change.amount.coefficient < 0 else t("increase")
        steps = _steps(t, change.amount)  # English says it after the production, Chinese before
        production = t("production_of_bonus", steps=steps) if change.resource == "bonus" else \
            t("production_of_lowest", steps=steps) if change.resource == "lowest" else \
            t("production_of", whose=whose, resource=t.noun(change.resource, 1), steps=steps)
        parts.append(t("production_change", verb=verb, production=production, steps=steps,
                       per=_per(t, change.amount)))
    parts = [part if isinstance(part, str) else
             t("production_at_least", resource=floors[part][0], n=part) if len(floors[part]) == 1 else
             t("productions_at_least", resources=t.series("each", floors[part]), n=part) for part in parts]
    return t("production", changes=t.upper_first(t.join("production", parts)))


@sentence_of(fx.ChangeParameter)
def _parameter(t: Phrases, e) -> str:
    what = t("your_tr") if e.parameter == "tr" else t.parameter(e.parameter)
    verb = t("param_lower") if e.amount.coefficient < 0 else t("param_raise")
    steps = _steps(t, e.amount, "step" if e.parameter == "tr" else "parameter_step")
    return t("parameter", verb=verb, what=what, steps=steps, per=_per(t, e.amount))


@sentence_of(fx.PlaceTile)
def _place(t: Phrases, e) -> str:
    name = t("tile_name", name=t.name(e.name)) if e.name else ""  # a special tile is named after its card
    tiles = t("tiles_count", n=e.count, unit=t.unit("tile"), tile=t.tile(e.tile, e.count)) if e.count > 1 \
        else t("a_tile", a_tile=t.a(t.tile(e.tile, 1)))
    return t("place", tiles=tiles, name=name, filters=_filters(t, e.filters))


@sentence_of(fx.SiteIntoPlay, fx.SiteOutOfPlay, fx.Nothing)
def _site_words(t: Phrases, e) -> str:
    return t(e.kind_name)


@sentence_of(fx.PlaceMarker)
def _place_marker(t: Phrases, e) -> str:
    return t("place_marker", name=e.name, filters=_filters(t, e.filters),
             blocks=t("marker_blocks") if e.blocks else "")


@sentence_of(fx.MoveMarker)
def _move_marker(t: Phrases, e) -> str:
    itself = fx.SpaceFilter("next_to_marker", marker=e.name)
    rest = tuple(f for f in e.filters if f != itself)
    collect = t("marker_collects_space") if e.space_only else t("marker_collects") if e.collect else ""
    return t("move_marker", name=e.name, near=t("marker_near") if itself in e.filters else "",
             filters=_filters(t, rest), collect=collect)


@sentence_of(fx.ClaimSpace)
def _claim(t: Phrases, e) -> str:
    collect = t("marker_collects_space") if e.space_only else t("marker_collects") if e.collect else ""
    return t("claim", filters=_filters(t, e.filters), collect=collect)


@sentence_of(fx.Draw, fx.Discard)
def _draw(t: Phrases, e) -> str:
    key = e.kind_name + ("_up_to" if isinstance(e, fx.Discard) and e.up_to else "")
    return t(key, what=_things(t, e.amount, "card"), per=_per(t, e.amount))


@sentence_of(fx.LookKeep)
def _look_keep(t: Phrases, e) -> str:
    return t("look_keep", look=times_x(e.look, e.variable), keep=e.keep)


@sentence_of(fx.LookDiscard)
def _look_discard(t: Phrases, e) -> str:
    return t("look_discard", look=times_x(e.look, e.variable), keep=e.keep)


@sentence_of(fx.LookBuy)
def _look_buy(t: Phrases, e) -> str:
    return t("look_buy_one") if e.look == 1 and not e.variable else t("look_buy", n=times_x(e.look, e.variable))


@sentence_of(fx.AddResources)
def _add(t: Phrases, e) -> str:
    what = _things(t, e.amount, e.resource)
    if e.excluded:   # `add 1 resource except science`: "1 resource other than science"
        what = t("add_except", what=what, resources=t.series("or", [t.noun(r) for r in e.excluded]))
    kind = t("add_kind", kind=t.card_type(e.card_type)) if e.card_type else ""   # `to any active card`
    if e.tag:
        return t(f"add_{e.target}_tagged", what=what, per=_per(t, e.amount), a_tag=t.a(t.tag(e.tag)), n=e.cards,
                 kind=kind)
    return t(f"add_{e.target}", what=what, per=_per(t, e.amount), n=e.cards, kind=kind)


@sentence_of(fx.RemoveResources)
def _remove(t: Phrases, e) -> str:
    source = "next_to_placed" if e.next_to_placed else e.source
    key = f"remove_{source}" + ("_up_to" if e.up_to else "")
    sentence = t(key, what=_things(t, e.amount, e.resource), per=_per(t, e.amount))
    if e.player_tag:
        sentence += t("only_players_with", a_tag=t.a(t.tag(e.player_tag)))
    return sentence


@sentence_of(fx.Choice)
def _choice(t: Phrases, e) -> str:
    """All the options in one sentence, each option's effects joined by `;`: "Choose one: Gain 2 MC; or: add 1
    microbe to that card. Gain 2 MC." (with a sentence per option, the last 2 MC read as the second option's)."""
    return t("choice", options=_go_on(t, [_one_sentence(t, o) for o in e.options], "options"))


@sentence_of(fx.Conditional)
def _conditional(t: Phrases, e) -> str:
    then = _one_sentence(t, e.then)
    if not e.otherwise:
        return t("if", condition=_condition(t, e.condition), effects=then, otherwise="")
    # both branches in one sentence, so that what follows the `else { }` does not read as part of it
    then, otherwise = _go_on(t, [then, _one_sentence(t, e.otherwise)], None)
    return t("if", condition=_condition(t, e.condition), effects=then, otherwise=t("otherwise", effects=otherwise))


@sentence_of(fx.ChooseX)
def _choose_x(t: Phrases, e) -> str:
    return t("choose_x", minimum=e.minimum, maximum=_amount(t, _quantity(t, e.maximum)),
             effects=_one_sentence(t, e.body))


@sentence_of(fx.May, fx.IfYouCan, fx.EachOpponent, fx.EachPlayer, fx.Neutral, fx.ThatPlayer)
def _block(t: Phrases, e) -> str:
    must = "_must" if getattr(e, "must", False) else ""   # `each player must { }`: every one must be able to
    if getattr(e, "condition", None) is not None:   # `each player with CONDITION { }`
        return t(f"{e.kind_name}_with{must}", condition=_condition(t, e.condition), effects=_one_sentence(t, e.body))
    return t(f"{e.kind_name}{must}", effects=_one_sentence(t, e.body))


@sentence_of(fx.DecidedBy)
def _decided_by(t: Phrases, e) -> str:
    """`decided by first player { }`: who is asked, and that the effects stay the reader's."""
    decider = t(f"decider_{e.decider.replace(' ', '_')}")
    return t("decided_by", decider=decider, effects=_one_sentence(t, e.body))


def _one_sentence(t: Phrases, effects) -> str:
    """A block's effects as one sentence, its parts joined by `;` (Chinese `；`), so that where the block ends is
    plain: "Each opponent: lose up to 5 MC; decrease your MC production 1 step. Gain 10 MC." (with a sentence each,
    the 10 MC read as the opponents')."""
    sentences = [_sentence(t, e) for e in effects]
    if len(sentences) < 2:
        return t.join("sentences", sentences)
    return _go_on(t, sentences, "block")


def _go_on(t: Phrases, sentences: list[str], join: Optional[str]):
    """`sentences` as the parts of one: each but the last without its full stop, each after the first from a small
    letter in English (not `MC ...`); joined with the `join` of the language's table, or as a list for a template
    that has its own words between them (`; otherwise:`)."""
    end = t.joins["sentence_end"]
    parts = [s[:-len(end)] if end and s.endswith(end) else s for s in sentences[:-1]] + sentences[-1:]
    if t.language == "en":   # each part after the first goes on in the same sentence
        parts = parts[:1] + [p[:1].lower() + p[1:] if p[1:2].islower() else p for p in parts[1:]]
    return parts if join is None else t.join(join, parts)


@sentence_of(fx.CopyProduction)
def _copy_production(t: Phrases, e) -> str:
    if e.count == 1:
        return t("copy_production", tag=t.tag(e.tag))
    return t("copy_production_different", count=e.count, tag=t.tag(e.tag))


def _a_card(t: Phrases, f: fx.CardFilter) -> str:
    """A card chosen by a card verb, in players' words: `an active card with victory points`."""
    what = t("event_card") if f.types == ("event",) else \
        t("typed_card", kind=t.series("or", [t.card_type(name) for name in f.types])) if f.types else t("project_card")
    rest = attrs.evolve(f, types=(), tag=None)
    return t.a(t("tagged", tag=t.tag(f.tag), what=what) if f.tag else what) + card_filter(t, rest)


@sentence_of(fx.MoveCard)
def _move_card(t: Phrases, e) -> str:
    if e.resources:
        return t(f"move_card_{e.source}_to_{e.destination}_with", a_card=_a_card(t, e.cards), n=e.resources)
    return t(f"move_card_{e.source}_to_{e.destination}", a_card=_a_card(t, e.cards))


@sentence_of(fx.DoubleKept)
def _double_kept(t: Phrases, e) -> str:
    return t("double_kept")


@sentence_of(fx.MoveThisCard)
def _move_this(t: Phrases, e) -> str:
    return t(f"move_this_{e.destination}")


@sentence_of(fx.CopyPlay)
def _copy_play(t: Phrases, e) -> str:
    return t("copy_play", a_card=_a_card(t, e.cards))


@sentence_of(fx.Reveal)
def _reveal(t: Phrases, e) -> str:
    return t("reveal", a_tag=t.a(t.tag(e.tag)), effects=_one_sentence(t, e.then))


@sentence_of(fx.FundAward, fx.ReuseAction, fx.GainRaised, fx.TakeRole, fx.ChangeGovernment, fx.SiteIntoPlay,
             fx.SiteOutOfPlay, fx.Nothing)
def _fixed(t: Phrases, e) -> str:
    return t(e.kind_name)


@sentence_of(fx.UseProject)
def _use_project(t: Phrases, e) -> str:
    project = t("use_project_named", name=e.name) if e.name is not None else t("use_project_any")
    if e.otherwise is None:
        return t("use_project", project=project)
    return t("use_project_else", project=project, effects=_one_sentence(t, e.otherwise))


@sentence_of(fx.PassTurn)
def _pass_turn(t: Phrases, e) -> str:
    return t("pass_turn")


@sentence_of(fx.TakeActions)
def _take_actions(t: Phrases, e) -> str:
    return t("take_actions" if e.count > 1 else "take_action", n=e.count)


@sentence_of(fx.RemoveTile)
def _remove_tile(t: Phrases, e) -> str:
    tiles = t("tiles_count", n=e.count, unit=t.unit("tile"), tile=t.noun(f"{e.tile}_tile", e.count)) \
        if e.count > 1 else t("a_tile", a_tile=t.a(t.noun(f"{e.tile}_tile", 1)))
    return t("remove_tile", tiles=tiles)


@sentence_of(fx.PutMark)
def _put_mark(t: Phrases, e) -> str:
    what = t.noun("tile", 1) if e.tile == v.ANY_TILE else t.tile(e.tile, 1)
    whose = t("next_to_yours") if e.own else (t("next_to_opponents") if e.opponent else t("put_mark_any"))
    most = t("put_mark_most", n=e.most, mark=t.noun(e.mark, e.most), tile=what) if e.most is not None else ""
    text = t("put_mark", n=e.count, mark=t.noun(e.mark, e.count), tile=whose + what, filters=_filters(t, e.filters),
             most=most)
    for effect in e.body:   # the block: the player's effects, and `that player { }` the tile owner's
        text += " " + (t("put_mark_owner", effects=_one_sentence(t, effect.body)) if type(effect) is fx.ThatPlayer
                       else _sentence(t, effect))
    return text


@sentence_of(fx.ReplaceTile)
def _replace_tile(t: Phrases, e) -> str:
    old = t.noun("tile", 2) if e.old == v.ANY_TILE else t.tile(e.old, 2)
    name = t("tile_name", name=t.name(e.name)) if e.name else ""
    return t("replace_tile", old=old, filters=_filters(t, e.filters), new=t.a(t.tile(e.new, 1)), name=name)


@sentence_of(fx.Repeat)
def _repeat(t: Phrases, e) -> str:
    terms = e.times.terms
    if len(terms) == 1 and terms[0].kind == "constant" and terms[0].cap is None:   # `repeat 3 times`
        return t("repeat_fixed", n=terms[0].value, effects=_one_sentence(t, e.body))
    return t("repeat", times=_amount(t, _quantity(t, e.times)), effects=_one_sentence(t, e.body))


@sentence_of(fx.Rank)
def _rank(t: Phrases, e) -> str:
    places = [t("rank_place", place=t(f"place_{index + 1}"), effects=_sentences(t, effects))
              for index, effects in enumerate(e.places)]
    minimum = t("rank_minimum", n=e.minimum) if e.minimum is not None else ""
    return t("rank", score=_standalone(t, _quantity(t, e.score)),
             order=t("rank_lowest" if e.lowest else "rank_highest"), minimum=minimum,
             places=t.join("sentences", places))


@sentence_of(fx.ResolveStage, fx.AdvanceStages)
def _stages(t: Phrases, e) -> str:
    return t(e.kind_name, kind=t.card_type(e.card_kind))


@sentence_of(fx.LookPlay)
def _look_play(t: Phrases, e) -> str:
    if e.up_to:   # the player may play none; a price is paid for each card played
        price = t("look_play_price", price=_one_sentence(t, e.price).rstrip(".。")) if e.price else ""
        return t("look_play_up_to", n=e.look, kind=t.card_type(e.card_kind), k=e.play, price=price)
    if e.card_kind == "corporation":  # a corporation starts (its M€) and the others are discarded
        return t("look_play_corporation", n=e.look, k=e.play)
    if e.look == 1 and e.play == 1:   # not "the top 1 cards ... the others": there are none
        return t("look_play_one", kind=t.card_type(e.card_kind))
    return t("look_play", n=e.look, kind=t.card_type(e.card_kind), k=e.play)


@sentence_of(fx.RevealUntil)
def _reveal_until(t: Phrases, e) -> str:
    tags = ((e.tag,) if e.tag is not None else ()) + (e.cards.tags_needed if e.cards is not None else ())
    rest = attrs.evolve(e.cards, types=(), tag=None, more_tags=()) if e.cards is not None else None
    wanted = [t("with_tag", a_tag=t.a(t.tag(tag))) for tag in tags]
    wanted += [t("with_icon", what=t.noun(e.icon, 1)) if e.icon is not None else "",
               t("holding", what=t.noun(e.holds)) if e.holds is not None else "",
               card_filter(t, rest).strip() if rest is not None else ""]
    cards = t.counted(str(e.count), "card", e.count)
    if e.cards is not None and e.cards.types:   # `with event type`: "2 event cards with a space tag"
        kinds = t.series("or", [t.card_type(name) for name in e.cards.types])
        cards = t("revealed_typed", n=e.count, kind=kinds, cards=t.noun("card", e.count))
    return t("reveal_until", n=e.count, cards=cards, kind=kinds if e.cards is not None and e.cards.types else "",
             wanted=t.join("filters", [w for w in wanted if w]))


@sentence_of(fx.RevealFromHand)
def _reveal_from_hand(t: Phrases, e) -> str:
    return t("reveal_from_hand", wanted=card_filter(t, e.cards), effects=_one_sentence(t, e.body))


@sentence_of(fx.SharedReveal)
def _shared_reveal(t: Phrases, e) -> str:
    terms = e.count.terms
    if all(m.kind == "constant" and not m.subtract and m.cap is None for m in terms):
        revealed = t("shared_reveal_n", n=sum(m.value for m in terms))
    else:
        revealed = t("shared_reveal", count=_amount(t, _quantity(t, e.count)))
    return t("shared_pick_rounds" if e.until_none_left else "shared_pick", revealed=revealed, take=e.take)


@sentence_of(fx.PlayFromHand)
def _play_from_hand(t: Phrases, e) -> str:
    parts = [t("play_discount", n=m.amount) if isinstance(m, fx.Discount) else t("play_ignoring")
             for m in e.modifiers]
    key, how = ("play_from_hand", "play_how") if e.source == "hand" else (f"play_from_{e.source}", "play_again_how")
    sentence = t(key, how=t(how, parts=t.join("and", parts)) if parts else "",
                 a_card=_a_card(t, e.cards) if e.cards is not None else t.a(t("project_card")))
    return sentence + (t("play_then_discard") if e.discard else "")


@sentence_of(fx.RevealEach)
def _reveal_each(t: Phrases, e) -> str:
    """The draw, then each case as "if it ..., EFFECTS", joined as the options of a choice are, and what becomes
    of the cards looked at after the first that passes a case."""
    terms = e.count.terms
    if all(m.kind == "constant" and not m.subtract and m.cap is None for m in terms):
        drawn = t("reveal_each_n", n=sum(m.value for m in terms))
    else:
        drawn = t("reveal_each", count=_amount(t, _quantity(t, e.count)))
    end = t.joins["sentence_end"]
    cases = []
    for f, body in zip(e.filters, e.cases):
        effects = _one_sentence(t, body)
        effects = effects[:-len(end)] if end and effects.endswith(end) else effects
        if t.language == "en" and effects[1:2].islower():
            effects = effects[:1].lower() + effects[1:]
        cases.append(t("reveal_each_case", a_card=_a_card(t, f), effects=effects))
    return t("reveal_each_cases", drawn=drawn, cases=t.join("block", cases))


@sentence_of(fx.PlayIt)
def _play_it(t: Phrases, e) -> str:
    key = "play_it_free" if e.free else "play_it"
    return t(key, ignoring=t("play_it_ignoring") if e.ignoring else "")


@sentence_of(fx.EventsTags)
def _events_tags(t: Phrases, e) -> str:
    return t("events_tags")


@sentence_of(fx.Require)
def _require(t: Phrases, e) -> str:
    return t("require", condition=_condition(t, e.condition))


@sentence_of(fx.NextCard)
def _next_card(t: Phrases, e) -> str:
    return t("next_card", effects=_sentences(t, e.modifiers))


# ------------------------------------------------------------------------------------------- pieces and sites

@sentence_of(fx.PlacePiece)
def _place_piece(t: Phrases, e) -> str:
    return t("place_piece", pieces=t.pieces(str(e.count), e.piece, e.count),
             also=t("place_piece_also") if e.also_own else "") + \
        (t("place_piece_twice") if e.builds == 2 else "")


@sentence_of(fx.SendPiece)
def _send(t: Phrases, e) -> str:
    sentence = t("send_reusing" if e.reusing else "send", a_piece=t.pieces("1", e.piece, 1))
    space = "" if t.language == "zh" else " "
    if e.any_site:   # a site another piece visits now may be visited too
        sentence += space + t("send_any_site")
    if e.every_bonus:   # every piece's bonus to the visitor (Coordinated Raid)
        sentence += space + t("send_every_bonus")
    return sentence


@sentence_of(fx.GainPieces)
def _gain_pieces(t: Phrases, e) -> str:
    return t("gain", what=t.pieces(_count(e.amount), e.piece, 2 if e.amount.variable else e.amount.coefficient),
             per=_per(t, e.amount))


@sentence_of(fx.MoveMarkers)
def _move_markers(t: Phrases, e) -> str:
    moves = [t("marker_move", verb=t("marker_lower") if step < 0 else t("marker_raise"),
               site=t("marker_each" if e.each else "marker_a" if index == 0 else "marker_another"),
               steps=t.counted(str(abs(step)), "marker_step", abs(step)))
             for index, step in enumerate(e.steps)]
    return t("marker_moves", moves=t.upper_first(t.join("and", moves)))


@sentence_of(fx.CollectBonus)
def _collect_bonus(t: Phrases, e) -> str:
    return t("collect_bonus", pieces=t.piece(e.piece, 2))


# ------------------------------------------------------------------------------------------- factions

@sentence_of(fx.PlaceInFaction)
def _place_in_faction(t: Phrases, e) -> str:
    pieces = t.pieces(str(e.count), e.piece, e.count)
    where = t.name(e.faction, "faction") if e.faction is not None else ""
    return t(f"place_in_{'named' if e.faction else 'a'}_faction{'_neutral' if e.neutral else ''}", pieces=pieces,
             faction=where)


@sentence_of(fx.RemoveFromFaction)
def _remove_from_faction(t: Phrases, e) -> str:
    return t("remove_from_faction", a_piece=t.pieces("1", e.piece, 1))


@sentence_of(fx.ReplaceNeutral)
def _replace_neutral(t: Phrases, e) -> str:
    return t("replace_neutral", piece=t.piece(e.piece, 1))


# ------------------------------------------------------------------------------------------- passive effects

@sentence_of(fx.Trigger)
def _trigger(t: Phrases, e) -> str:
    return t("when_once_per_action" if e.once_per_action else "when", event=_event(t, e),
             effects=_sentences(t, e.effects))


@sentence_of(fx.Discount)
def _discount(t: Phrases, e) -> str:
    target = e.target
    if target.kind == "cards":
        filters = card_filter(t, target.cards)
        what = t("discount_tagged_cards", a_tag=t.a(t.tag(target.tag)), filters=filters) if target.tag else \
            t("discount_cards", filters=filters)
    else:
        # `discount 1 megacredits on standard action "Trade"`: its price in MC only, not its other prices
        key = f"discount_{target.kind}" + ("_in_mc" if e.resource_written and target.kind == "standard_action" else "")
        if target.kind == "action":   # a faction's (its policy action) or a card's
            name = t.names.get("faction", target.name, t.language) or t.name(target.name)
        else:
            name = t.name(target.name, target.kind) if target.name else ""
        what = t(key, name=name)
    amount = t.counted(str(e.amount), e.resource, e.amount)
    if e.per_tag:
        return t("discount_per_tag", what=what, amount=amount, tag=t.tag(e.per_tag))
    own_tag = _own_tag(e)
    if own_tag is not None:   # `per your mars tags`: the owner's tags in play, never the card's own (Mars Direct)
        return t("discount_per_own_tag_" + ("one" if e.divisor == 1 else "many"), what=what, amount=amount,
                 tag=t.tag(own_tag), n=e.divisor)
    if e.per is not None:   # `per 2 orbitals here`: 1 MC less for every 2 orbitals on this card
        return t("discount_per", what=what, amount=amount,
                 per=_per_clause(t, _quantity(t, e.per, one=e.divisor == 1), e.divisor))
    return t("discount", what=what, amount=amount)


def _own_tag(e) -> Optional[str]:
    """The tag of a card discount scaled by the owner's own tags of one kind (`discount 1 on mars cards per your mars
    tags`), said "for each mars tag you have in play" so that it never reads as `per mars tag`, the card's own."""
    if e.per is None or e.target.kind != "cards" or len(e.per.terms) != 1:
        return None
    m = e.per.terms[0]
    if m.kind != "tags" or m.scope != "you" or m.name is None or m.cap is not None or m.cap_by is not None:
        return None
    return m.name


@sentence_of(fx.ResourceValue)
def _resource_value(t: Phrases, e) -> str:
    """`titanium value -1` (Boom Town's) lowers the value: "1 MC less", never "-1 MC more"."""
    if e.delta < 0:
        return t("resource_value_less", resource=t.noun(e.resource, 1), n=-e.delta)
    return t("resource_value", resource=t.noun(e.resource, 1), n=e.delta)


@sentence_of(fx.RequirementLeeway)
def _leeway(t: Phrases, e) -> str:
    if e.parameter:
        return t("leeway_of", n=e.steps, what=t.parameter(e.parameter))
    return t("leeway", n=e.steps)


@sentence_of(fx.Protect)
def _protect(t: Phrases, e) -> str:
    production = t("protect_production") if "production" in e.resources else ""
    resources = t.series("or", [t.noun(r) for r in e.resources if r != "production"])
    if not resources:
        return production
    if e.scope == "here":
        return t("protect_here", resources=t.upper_first(resources))
    opponents = t("protect_half_from_opponents" if e.half else "protect_from_opponents", resources=resources)
    return t.join("sentences", [opponents, production]) if production else opponents


@sentence_of(fx.Tax)
def _tax(t: Phrases, e) -> str:
    return t("tax", amount=t.counted(str(e.amount), e.resource, e.amount))


@sentence_of(fx.TileBan)
def _tile_ban(t: Phrases, e) -> str:
    what = t.noun("tile", 1) if e.tile == v.ANY_TILE else t.tile(e.tile, 1)
    return t("tile_ban", what=what)

@sentence_of(fx.TagCountsAs)
def _tag_counts_as(t: Phrases, e) -> str:
    return t("tag_counts_as", tag=t.tag(e.tag), as_tag=t.tag(e.as_tag))


@sentence_of(fx.GainSpaceBonus)
def _gain_space_bonus(t: Phrases, e) -> str:
    return t("gain_space_bonus", n=e.amount)


@sentence_of(fx.KeepEnergy)
def _keep_energy(t: Phrases, e) -> str:
    return t("keep_energy")


@sentence_of(fx.ResearchDeal)
def _research_deal(t: Phrases, e) -> str:
    if e.cards is None:
        return t("research_buy_most", most=e.most)
    if e.most is None:
        return t("research_deal", n=e.cards)
    return t("research_deal_most", n=e.cards, most=e.most)


@sentence_of(fx.SkipTr)
def _skip_tr(t: Phrases, e) -> str:
    return t("skip_tr_one" if e.steps == 1 else "skip_tr", n=e.steps)


@sentence_of(fx.InfluenceBonus)
def _influence_bonus(t: Phrases, e) -> str:
    return t("influence_bonus", n=e.amount)


@sentence_of(fx.OceanBonus)
def _ocean_bonus(t: Phrases, e) -> str:
    return t("ocean_bonus", tile=t.tile(e.tile), amount=t.counted(str(e.amount), e.resource, e.amount))


@sentence_of(fx.MarkerOffset)
def _marker_offset(t: Phrases, e) -> str:
    return t("marker_offset", a_piece=t.pieces("1", e.piece, 1), steps=t.counted(str(e.steps), "marker_step", e.steps))


@sentence_of(fx.KeptPlayable)
def _kept_playable(t: Phrases, e) -> str:
    if not e.discount:
        return t("kept_playable")
    return t("kept_playable_less", amount=t.counted(str(e.discount), "megacredits", e.discount))


@sentence_of(fx.CardPrice)
def _card_price(t: Phrases, e) -> str:
    key = f"card_price_{e.change}" if e.change else "card_price"
    return t(key, amount=t.counted(str(e.amount), "megacredits", e.amount))


@sentence_of(fx.Substitute)
def _substitute(t: Phrases, e) -> str:
    if e.here and e.instead_of == "heat":
        return t("substitute_here_heat", resource=t.noun(e.resource), n=e.value)
    if e.here:
        tag = t("substitute_for", a_tag=t.a(t.tag(e.tag))) if e.tag else \
            t("substitute_for_projects", projects=t.series("or", [t.name(n, "standard_project") for n in e.projects])) \
            if e.projects else ""
        return t("substitute_here", resource=t.noun(e.resource), n=e.value, tag=tag)
    if e.tag is not None:
        return t("substitute_tagged", resource=t.noun(e.resource), n=e.value,
                 tag=t("substitute_for", a_tag=t.a(t.tag(e.tag))))
    if e.projects:   # a stock resource towards named standard projects (steel and titanium at their card value)
        key = "substitute_projects_metal" if e.resource in ("steel", "titanium") else "substitute_projects"
        return t(key, resource=t.noun(e.resource, 1),
                 projects=t.series("or", [t.name(n, "standard_project") for n in e.projects]))
    return t("substitute", resource=t.noun(e.resource, 1))


def _event(t: Phrases, trigger: fx.Trigger) -> str:
    ev = trigger.event
    who = trigger.subject  # you | any | another
    slots = {"including_this": t("including_this") if trigger.including_this else "",
             "including_this_per_tag": t("including_this_per_tag") if trigger.including_this else "",
             "costing": t("costing", n=ev.min_cost) if ev.min_cost is not None else ""}
    if ev.kind == "play_tag":
        slots["a_tags"] = t.a(t.series("or", [t.tag(tag) for tag in ev.tags]))
    elif ev.kind == "play_card":
        what = t("event_card") if ev.card_kind == "event" else t("project_card")
        if ev.cards is not None and ev.cards.types:   # `play active card`: the type names the card
            what = t("typed_card", kind=t.series("or", [t.card_type(name) for name in ev.cards.types]))
        slots["a_card"] = t.a(t("tagged", tag=t.tag(ev.tag), what=what) if ev.tag else what)
        if ev.with_vp:
            slots["a_card"] = t("with_vp", a_card=slots["a_card"])
        if ev.no_tags:
            slots["a_card"] += t("cards_with_no_tags")
        if ev.holds:
            slots["a_card"] = t("card_holding", a_card=slots["a_card"], what=t.noun(ev.holds))
        if ev.cards is not None:
            slots["a_card"] += card_filter(t, attrs.evolve(ev.cards, types=()))
    elif ev.kind in ("send", "place_piece"):
        slots["a_piece"] = t.pieces("1", ev.piece, 1)
    elif ev.kind == "add_resource":
        slots["what"] = t.noun(ev.resource)
        if ev.here:   # `add microbe here`: to this card only, whoever adds it
            return t(f"event_add_resource_here_{who}", **slots)
    elif ev.kind == "place":
        slots["a_tile"] = t("any_tile") if ev.tile == v.ANY_TILE else t.a(t.tile(ev.tile, 1))
        slots["filters"] = _filters(t, ev.filters)
    elif ev.kind == "standard_project":
        slots["except"] = "".join(t("other_than", name=t.name(name, "standard_project")) for name in ev.excluded)
    elif ev.kind == "raise":
        slots["what"] = t("your_tr") if ev.parameter == "tr" else t.parameter(ev.parameter)
    key = "event_production" if ev.kind == "production" else f"event_{ev.kind}_{who}"
    return t(key, **slots)


def _victory_points(t: Phrases, vp) -> str:
    if vp.scorers is not None:   # every player (each opponent) scores by their own count, while the card's condition
        scored = _victory_points(t, attrs.evolve(vp, scorers=None, condition=None))
        who = t("vp_scorers_" + vp.scorers.replace(" ", "_"))
        if vp.condition is not None:
            return t("vp_each_if", who=who, vp=scored, condition=_condition(t, vp.condition))
        return t("vp_each", who=who, vp=scored)
    if vp.condition is not None:
        return t("vp_if", n=vp.points, condition=_condition(t, vp.condition))
    if vp.per is not None:
        counted = _quantity(t, vp.per, one=vp.divisor == 1)
        per = _per_clause(t, counted, vp.divisor)
        unit = t.unit(counted.unit)
        if vp.divisor > 1:
            return t("vp_per_many", n=vp.points, divisor=vp.divisor, unit=unit, what=counted.what, per=per)
        return t("vp_per_one", n=vp.points, unit=unit, what=counted.what, per=per)
    return t("vp", n=vp.points)


# ------------------------------------------------------------------------------------------- public parts

def sentences(effects, language: str = "en", names: Optional[Names] = None) -> str:
    """A run of compiled effects, as the card says them (`tharsis play` shows standard projects this way)."""
    return _sentences(phrases(language, names), effects)


def condition(c: fx.Condition, language: str = "en", names: Optional[Names] = None) -> str:
    """A requirement (`oxygen at least 9%`), e.g. a milestone's."""
    return _condition(phrases(language, names), c)


def quantity(q: fx.Quantity, language: str = "en", names: Optional[Names] = None, *, owner: bool = True) -> str:
    """What a quantity counts (`jovian tags`), e.g. an award's measure. `owner` False leaves out whose they are
    (an award compares every player's: 拥有最多板块, not 你的板块)."""
    return _standalone(phrases(language, names), _quantity(phrases(language, names), q, owner=owner))


def trigger_event(trigger: fx.Trigger, language: str = "en", names: Optional[Names] = None) -> str:
    """What fires a trigger, as after `When` (`any player plays a card that holds microbes`): a site's
    `inactive until`."""
    return _event(phrases(language, names), trigger)


def victory_points(vp, language: str = "en", names: Optional[Names] = None) -> str:
    """A card's victory points as a sentence (`1 VP per animal here.`), or nothing."""
    return _victory_points(phrases(language, names), vp) if vp else ""


# ------------------------------------------------------------------------------------------- cards

@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.PackageLoader("tharsis.compiler", "templates"),
                              trim_blocks=True, lstrip_blocks=True, autoescape=False)


def title(t: Phrases, definition, translated: Optional[str] = None) -> str:
    """A definition's name, with its number: `Spore Farm (#SF1)`; a translated name keeps the card text's after it,
    to find the card by (孢子农场（Spore Farm，#SF1）). `translated`: the name in the language, if not the names
    files'."""
    number = getattr(definition, "number", None)
    translated = translated or t.name(definition)
    if translated == definition.name:
        return definition.name + (t("number", n=number) if number else "")
    return t("title_translated", translated=translated, name=definition.name,
             number=t("number_inner", n=number) if number else "")


def parts(definition, language: str = "en", names: Optional[Names] = None) -> dict:
    """Each part of a card's rules text on its own, in `language`: what the card template lays out, and what the
    gallery prints on a card face (`name`: the card's name in `language`, from `names`)."""
    t = phrases(language, names)
    actions = []
    for option in definition.actions:
        # a cost that ends on a condition (`require data here >= 1`) reads in Chinese as "仅当…时，": its comma leads
        # into a sentence, and before the arrow there is none
        cost = _sentences(t, option.cost).rstrip("，")
        effects = _sentences(t, option.effects)
        action = t("action_with_cost", cost=cost, effects=effects) if cost else effects
        actions.append(t("repeatable", action=action) if option.repeatable else action)
    stages = [t("on_reveal" if stage == "reveal" else "on_stage", stage=t.stage(stage), effects=_sentences(t, effects))
              for stage, effects in getattr(definition, "on_stage", ())]
    return {
        "needs": t("needs", sets=t.series("and", [t.set_name(name) for name in definition.needs]))
        if getattr(definition, "needs", ()) else "",
        "stages": stages,
        "name": t.name(definition),
        "requirement": _condition(t, definition.requirements) if definition.requirements else "",
        "play": _sentences(t, definition.play),
        "first_action": _sentences(t, getattr(definition, "first_action", ())),
        "actions": actions,
        "passives": [_sentence(t, p) for p in definition.passives],
        "vp": _victory_points(t, definition.vp) if definition.vp else "",
    }


def card(definition, language: str = "en", names: Optional[Names] = None) -> str:
    """A card or corporation as rules text in `language` (see LANGUAGES), its names from `names` (a library's)."""
    t = phrases(language, names)
    return _environment().get_template("card.txt.j2").render(
        card=definition, t=t, title=title(t, definition), tags=t.join("tags", [t.tag(tag) for tag in definition.tags]),
        set=t.set_name(definition.set),
        **parts(definition, language, names)).rstrip()
