"""Canonical text for compiled values: quantities, conditions, victory points, effects, whole definitions.

Used by `tharsis cards` (requirements and VP as readable strings), by runtime messages ("requires oxygen >= 9%")
and by the docs. Rendering a compiled value and compiling the text again gives the same value. Each effect verb's
text is one small function registered for its class with `@text_of(fx.Gain)`; a verb without one is an error
(tests/test_effect_verbs.py names it), never its class name printed into a card.
"""

from __future__ import annotations

from typing import Callable

import attrs

from . import layout, vocabulary as v
from .definitions import VictoryPoints
from .effects import Comparison, Condition, Measure, Quantity
from .memo import per_list

_UNITS = {"temperature": "C", "oxygen": "%", "oceans": ""}
_SCOPE_WORD = {"you": "", "all": "all ", "opponents": "opponent ", "this": ""}


# a player's counts written as a fixed phrase after the scope word (`opponent tr raised this generation`)
_PLAYER_COUNTS = {"highest_production": "highest production", "raised_productions": "raised productions", "tr": "tr",
                  "tr_raised": "tr raised this generation", "cards_in_hand": "cards in hand",
                  "events_played": "events played"}


def measure(m: Measure, one: bool = False) -> str:
    """`one`: the phrase follows 'per' with no divisor, so it reads in the singular ('1 per jovian tag')."""
    many = (lambda word: word) if one else v.plural
    scope = _SCOPE_WORD.get(m.scope, "")
    k = m.kind
    if k == "passed":   # `players passed`, `opponents passed`
        return "opponents passed" if m.scope == "opponents" else "players passed"
    if k in _GAME_COUNTS:   # `players`, `generation`: the game's, nobody's
        return _GAME_COUNTS[k] if one else _GAME_COUNTS[k] + "s"
    if k == "tags":
        return f"{scope}{m.name + ' ' if m.name else ''}tag{'' if one else 's'}"
    if k == "distinct_tags":
        return f"{scope}distinct tags"
    if k == "distinct_resources":
        return "distinct resources"
    if k in ("resource_here", "added"):   # `animals here`, `microbes added`
        return f"{many(m.name) if m.name else many('resource')} {'here' if k == 'resource_here' else 'added'}"
    if k == "card_resources":
        return f"{scope}{v.plural(m.name) if m.name else 'resources'} on cards"
    if k == "tiles":
        return _tiles_measure(m, many)
    if k == "adjacent_tiles":
        return f"adjacent {many(m.name)}"
    if k == "placed_tiles":
        return f"{_tile_words(m, many)} next to it"
    if k == "stock":
        return f"{scope}{v.plural(m.name)}"
    if k == "production":
        return f"{scope}{m.name} production"
    if k in _PLAYER_COUNTS:
        return scope + _PLAYER_COUNTS[k]
    if k == "removed":
        return f"{scope}{v.plural(m.name) if m.name else 'resources'} removed from opponents this generation"
    if k == "cards":
        text = scope + (" or ".join(m.names) + " " if m.names else "") + "cards"
        if m.in_play:
            text += " in play"
        if m.with_requirements:
            text += " with requirements"
        if m.no_tags:
            text += " with no tags"
        if m.min_cost is not None:
            text += f" costing {m.min_cost} or more"
        return text + (card_filter(m.cards, quantity=True) if m.cards is not None else "")
    if k == "parameter":
        return m.name
    if k == "constant":
        return str(m.value)
    if k == "empty_spaces":
        return "empty space next to your tiles" if one else "empty spaces next to your tiles"
    if k == "adjacent_empty":
        return "adjacent empty space" if one else "adjacent empty spaces"
    if k in _FACTION_MEASURES:
        return _faction_measure(m, one)
    if k == "pieces":  # every player's: `outposts in play`, as a card says it
        name = m.piece if one else v.plural_noun(m.piece)
        return f"{name} in play" if m.scope == "all" else f"{scope}{name}"
    return k


_GAME_COUNTS = {"players": "player", "generation": "generation"}   # Measure kind -> its noun (plural: + "s")


def _tile_words(m: Measure, many) -> str:
    """Whose tiles and which: `your cities`, `opponent special tiles`, `named tiles`."""
    scope = "your " if m.scope == "you" else ("opponent " if m.scope == "opponents" else "")
    name = {v.ANY_TILE: many("tile"), v.SPECIAL: "special " + many("tile"),
            v.NAMED: "named " + many("tile")}.get(m.name, many(m.name))
    return f"{scope}{name}"


def _tiles_measure(m: Measure, many) -> str:
    """A count of tiles with its filters, in the order the grammar takes them."""
    text = _tile_words(m, many)
    if m.on_mars:
        text += " on mars"
    if m.off_mars:
        text += " off mars"
    if m.rows:
        text += f" in rows {m.rows[0]} to {m.rows[1]}"
    if m.next_to:
        text += f" next to {v.plural(m.next_to)}"
    if m.mark:
        text += f" with {m.mark}"
    return text


def card_filter(f, quantity: bool = False) -> str:
    """A CardFilter's words after the card (`with no earth tag with cost <= 16`), its types left to the caller; in
    a quantity a cost reads `costing N or more` (a comparison there would end the quantity)."""
    words = [f"with {' or '.join(f.types)} type"] if f.types else []
    words += [f"with {tag} tag" for tag in f.tags_needed]
    if f.any_tag:
        words.append(f"with {' or '.join(f.any_tag)} tag")
    if f.tags_lacked:   # several as one filter: `with no jovian or earth tag`
        words.append(f"with no {' or '.join(f.tags_lacked)} tag")
    if f.no_tags:
        words.append("with no tags")
    if f.min_tags is not None and f.min_tags == f.max_tags:
        words.append(f"with {f.min_tags} {'tag' if f.min_tags == 1 else 'tags'}" if quantity
                     else f"with tags == {f.min_tags}")
    else:
        if f.min_tags is not None:
            words.append(f"with {f.min_tags} or more tags" if quantity else f"with tags >= {f.min_tags}")
        if f.max_tags is not None:
            words.append(f"with {f.max_tags} or less tags" if quantity else f"with tags <= {f.max_tags}")
    if f.requirements is not None:
        words.append({"global": "with global requirements", "faction": "with faction requirements"}.get(
            f.requirements, "with requirements"))
    if f.min_cost is not None and f.min_cost == f.max_cost and not quantity:
        words.append(f"with cost == {f.min_cost}")
    else:
        if f.min_cost is not None:
            words.append(f"costing {f.min_cost} or more" if quantity else f"with cost >= {f.min_cost}")
        if f.max_cost is not None:
            words.append(f"costing {f.max_cost} or less" if quantity else f"with cost <= {f.max_cost}")
    if f.with_vp:
        words.append("with vp")
    if f.holds is not None:
        words.append(f"holding {f.holds}")
    if f.special_tile:
        words.append("with special tile")
    words.extend(f"with no {word}" for word in f.lacking)
    return "".join(" " + w for w in words)


def quantity(q: Quantity, one: bool = False) -> str:
    """`jovian tags max 5 - influence`: each term with its cap, joined by its sign."""
    words = []
    one = one and all(m.cap is None and m.cap_by is None and not m.subtract for m in q.terms)  # `per jovian tags
    for index, m in enumerate(q.terms):                                                     # max 5`: the plural
        term = measure(m, one) + (f" max {m.cap}" if m.cap is not None else "") + \
            (f" max {measure(m.cap_by, False)}" if m.cap_by is not None else "")
        words.append(term if index == 0 else (" - " if m.subtract else " + ") + term)
    return "".join(words)


_FACTION_MEASURES = ("influence", "role", "factions_led", "leader", "pieces_in", "factions_with", "ruling", "used")


def _faction(m: Measure) -> str:
    return f'"{m.faction}"' if m.faction is not None else f"{m.which} faction"


def _faction_measure(m: Measure, one: bool) -> str:
    """The quantities of factions and a government: `influence`, a role, `factions you lead`, `leader of FACTION`,
    `PIECES in FACTION [besides leader]`, `factions with your PIECES`."""
    k = m.kind
    if k in ("influence", "role"):
        return m.name or "influence"
    if k == "used":
        return f'"{m.name}" used this generation'
    if k == "factions_led":
        return "faction you lead" if one else "factions you lead"
    if k == "leader":
        return f"leader of {_faction(m)}"
    if k == "factions_with":
        return f"{'faction' if one else 'factions'} with your {v.plural_noun(m.piece)}"
    if k == "ruling":
        return f"ruling {_faction(m)}"
    return f"{m.piece if one else v.plural_noun(m.piece)} in {_faction(m)}" + (" besides leader" if m.besides_leader
                                                                                 else "")


def comparison(c: Comparison) -> str:
    terms = c.quantity.terms
    if len(terms) == 1 and terms[0].kind == "ruling" and c.operator == ">=" and c.value == 1:
        return f'"{terms[0].faction}" rules'
    unit = c.unit or _UNITS.get(c.global_parameter or "", "")
    return f"{quantity(c.quantity)} {c.operator} {c.value}{unit}"


def condition(c: Condition | None) -> str:
    if c is None:
        return ""
    return " or ".join(" and ".join(comparison(x) for x in group) for group in c.groups)


def victory_points(vp: VictoryPoints | None) -> str:
    if vp is None:
        return ""
    if vp.scorers is not None:  # `each player -1 per your city if animals here >= 10`
        per = ""
        if vp.per is not None:
            divisor = f"{vp.divisor} " if vp.divisor > 1 else ""
            per = f" per {divisor}{quantity(vp.per, one=vp.divisor == 1)}"
        when = f" if {condition(vp.condition)}" if vp.condition is not None else ""
        return f"{vp.scorers} {vp.points}{per}{when}"
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
        multiple = str(abs(a.coefficient)) if abs(a.coefficient) != 1 else ""  # `3X`
        return ("-" if a.coefficient < 0 else ("+" if signed else "")) + multiple + "X"
    return f"{a.coefficient:+d}" if signed else str(a.coefficient)


def per(a: fx.Amount) -> str:
    if a.per is None:
        return ""
    divisor = f"{a.divisor} " if a.divisor > 1 else ""
    return f" per {divisor}{quantity(a.per, one=a.divisor == 1)}"


def times_x(number: int, variable: bool) -> str:
    """A count that may be X: `3`, `X`, `3X` (also the rules text's, compiler/rules_text.py)."""
    return (f"{number}X" if number != 1 else "X") if variable else str(number)


def _resource(name: str, a: fx.Amount, card_text: bool = False) -> str:
    """The resource word after a count. Card text agrees with the count as a designer writes it (`1 MC`, `X plants`);
    the engine's option labels keep the words they have always had (`1 megacredits`, `X plant`)."""
    if card_text and name == "megacredits" and not a.variable and abs(a.coefficient) == 1:
        return "MC"
    if a.variable:
        return v.plural(name) if card_text else name
    return v.plural(name, abs(a.coefficient))


def _production_word(resource: str, card_text: bool) -> str:
    """`production(plants +1)` in card text, as the docs and cards write it; `lowest` and `bonus` are no resources."""
    return v.plural(resource) if card_text and resource in v.STANDARD_RESOURCES else resource


def _filters(filters) -> str:
    parts = []
    for f in filters:
        if f.kind in v.SPACE_KINDS or f.kind == "mars":
            parts.append(f"on {f.kind}")
        elif f.kind == "on_tile":
            whose = "your " if f.own else ("opponent " if f.opponent else "")
            parts.append(f"on top of {whose}{f.tile}")
        elif f.kind == "reserved":
            parts.append(f'on reserved "{f.reserved}"')
        elif f.kind == "bonus":
            parts.append("on bonus " + " or ".join(f.bonuses))
        elif f.kind == "no_bonus":
            parts.append("on no bonus")
        elif f.kind == "next_to":
            count = f"{f.count} " if f.count > 1 else ""
            whose = "your " if f.own else ("opponent " if f.opponent else "")
            parts.append(f"next to {count}{whose}{v.plural(f.tile, f.count)}")
        elif f.kind == "not_next_to":
            whose = "your " if f.own else ("opponent " if f.opponent else "")
            parts.append(f"next to no {whose}{f.tile}")
        elif f.kind == "isolated":
            parts.append("isolated")
        elif f.kind == "claim":
            parts.append("on your claim")
        elif f.kind == "ignoring_adjacency":
            parts.append("ignoring adjacency")
        elif f.kind == "next_to_marker":
            parts.append(f'next to marker "{f.marker}"')
        elif f.kind == "next_to_placed":
            parts.append("next to it")
    return (" " + " ".join(parts)) if parts else ""


@per_list
def effects(items) -> str:
    """The text of an effect list as the engine labels options and prompts with it as it plays (recorded in game
    logs, so it keeps its words); `card_effects` is the same list as card text."""
    return "; ".join(effect(e) for e in items)


def card_effects(items) -> str:
    """An effect list as canonical card text (`tharsis fmt`, `tharsis cards --format text`): English agreement
    as the docs and the bundled cards write it (`production(plants +1)`, `when any player places`, `gain 1 MC`)."""
    return "; ".join(effect(e, card_text=True) for e in items)


def _list(items, card_text: bool) -> str:
    return card_effects(items) if card_text else effects(items)


_WRITERS: dict[type, Callable[..., str]] = {}   # effect class -> its canonical text, `(effect, card_text)`


def text_of(*kinds: type):
    """Register the function below as the canonical text of `kinds` (compiler/effects.py's verb classes)."""

    def register(function: Callable[..., str]) -> Callable[..., str]:
        for kind in kinds:
            _WRITERS[kind] = function
        return function

    return register


def effect(e, card_text: bool = False) -> str:
    """The source text of a compiled effect: an option label of the engine, or with `card_text` canonical card
    text (the two differ only in English agreement: `production(plant +1)` is a label, `production(plants +1)`
    card text). A verb with no text registered is a bug, said as one rather than printed as its class name."""
    writer = _WRITERS.get(type(e))
    if writer is None:
        raise TypeError(f"no canonical text for {type(e).__name__}: register one with @text_of in compiler/text.py")
    return writer(e, card_text)


@text_of(fx.Gain, fx.Lose, fx.Spend)
def _gain(e, c: bool) -> str:
    verb = e.kind_name + (" up to" if getattr(e, "up_to", False) else "")
    return f"{verb} {number(e.amount)} {_resource(e.resource, e.amount, c)}{per(e.amount)}"


@text_of(fx.Give)
def _give(e, c: bool) -> str:
    up_to = " up to" if e.up_to else ""
    to = "the victim" if e.to == "victim" else "that player"
    return f"give{up_to} {number(e.amount)} {_resource(e.resource, e.amount, c)} to {to}"


@text_of(fx.FaceDown)
def _face_down(e, c: bool) -> str:
    return "turn this card face down"


@text_of(fx.Pay)
def _pay(e, c: bool) -> str:
    using = (" using " + ", ".join(e.using)) if e.using else ""
    return f"pay {amount(e.amount)} {_resource('megacredits', e.amount, c)}{using}"


@text_of(fx.Production, fx.AnyProduction)
def _production(e, c: bool) -> str:
    inner = ", ".join(f"{_production_word(x.resource, c)} "
                      f"{amount(x.amount, signed=True) if x.floor is None else f'at least {x.floor}'}"
                      for x in e.changes)
    return ("any " if isinstance(e, fx.AnyProduction) else "") + f"production({inner})"


@text_of(fx.ChangeParameter)
def _parameter(e, c: bool) -> str:
    return f"{e.parameter} {amount(e.amount, signed=True)}"


@text_of(fx.PlaceTile)
def _place(e, c: bool) -> str:
    count = f"{e.count} " if e.count > 1 else ""
    name = f' "{e.name}"' if e.name else ""
    return f"place {count}{v.plural(e.tile, e.count)}{name}{_filters(e.filters)}"


@text_of(fx.ClaimSpace)
def _claim(e, c: bool) -> str:
    collect = " collecting space bonus" if e.space_only else " collecting bonus" if e.collect else ""
    return "claim space" + _filters(e.filters) + collect


@text_of(fx.PlaceMarker)
def _place_marker(e, c: bool) -> str:
    return f'place marker "{e.name}"' + (" blocking tiles" if e.blocks else "") + _filters(e.filters)


@text_of(fx.MoveMarker)
def _move_marker(e, c: bool) -> str:
    itself = fx.SpaceFilter("next_to_marker", marker=e.name)   # `next to it`, written first
    near = " next to it" if itself in e.filters else ""
    rest = tuple(f for f in e.filters if f != itself)
    collect = " collecting space bonus" if e.space_only else " collecting bonus" if e.collect else ""
    return f'move marker "{e.name}"{near}{_filters(rest)}{collect}'


@text_of(fx.Draw)
def _draw(e, c: bool) -> str:
    return f"draw {amount(e.amount)}"


@text_of(fx.LookKeep)
def _look_keep(e, c: bool) -> str:
    return f"look {times_x(e.look, e.variable)} keep {e.keep}"


@text_of(fx.LookDiscard)
def _look_discard(e, c: bool) -> str:
    return f"look {times_x(e.look, e.variable)} keep {e.keep} from discard"


@text_of(fx.LookBuy)
def _look_buy(e, c: bool) -> str:
    return f"look {times_x(e.look, e.variable)} buy"


@text_of(fx.Discard)
def _discard(e, c: bool) -> str:
    return f"discard {'up to ' if e.up_to else ''}{amount(e.amount)}"


@text_of(fx.AddResources)
def _add(e, c: bool) -> str:
    tag = f"{e.card_type or e.tag} " if e.card_type or e.tag else ""
    target = {"here": "here", "another_card": f"to another {tag}card", "any_card": f"to any {tag}card",
              "any_card_with_resources": f"to any {tag}card with resources", "any_cards": f"to any {tag}cards",
              "each_card": f"to each {tag}card", "each_card_with_resources": f"to each {tag}card with resources",
              "that_card": "to that card", "different_cards": f"to each of {e.cards} different {tag}cards"}[e.target]
    counted = per(e.amount)
    what = _resource(e.resource, e.amount, c) + (f" except {' or '.join(e.excluded)}" if e.excluded else "")
    if " here" in counted or " to " in counted:  # before the target, `here` and `to` would end the quantity
        return f"add {number(e.amount)} {what} {target}{counted}"
    return f"add {number(e.amount)} {what}{counted} {target}"


@text_of(fx.RemoveResources)
def _remove(e, c: bool) -> str:
    source = {"here": "here", "your_card": "from your card", "any_card": "from any card",
              "any_player": "from any player", "each_opponent": "from each opponent"}[e.source]
    if e.player_tag:
        source += f" with {e.player_tag} tag"
    if e.next_to_placed:
        source += " next to it"
    return f"remove {'up to ' if e.up_to else ''}{number(e.amount)} {_resource(e.resource, e.amount, c)} {source}"


@text_of(fx.Steal)
def _steal(e, c: bool) -> str:
    return (f"steal {'up to ' if e.up_to else ''}{number(e.amount)} {_resource(e.resource, e.amount, c)} "
            f"from any player{' who harmed you this generation' if e.harmed else ''}")


@text_of(fx.Choice)
def _choice(e, c: bool) -> str:
    return "choose { " + " | ".join(_list(o, c) for o in e.options) + " }"


@text_of(fx.Conditional)
def _conditional(e, c: bool) -> str:
    text = f"if {condition(e.condition)} {{ {_list(e.then, c)} }}"
    return text + (f" else {{ {_list(e.otherwise, c)} }}" if e.otherwise else "")


@text_of(fx.ChooseX)
def _choose_x(e, c: bool) -> str:
    low = f"from {e.minimum} " if e.minimum else ""
    return f"choose X {low}up to {quantity(e.maximum)} {{ {_list(e.body, c)} }}"


@text_of(fx.May)
def _may(e, c: bool) -> str:
    return f"may {{ {_list(e.body, c)} }}"


@text_of(fx.IfYouCan)
def _if_you_can(e, c: bool) -> str:
    return f"if you can {{ {_list(e.body, c)} }}"


@text_of(fx.CopyProduction)
def _copy_production(e, c: bool) -> str:
    if e.count == 1:
        return f"copy production of {e.tag} card"
    return f"copy production of {e.count} different {e.tag} cards"


def _chosen_card(f: fx.CardFilter, event_word: bool = True) -> str:
    """The card a card verb chooses: `active card with vp`, `event with no tags` (a type or a tag, then the rest)."""
    one_type = len(f.types) == 1   # several (`with active or automated type`) stay filters
    word = f.types[0] if one_type and f.types != ("event",) else f.tag or ""
    kind = "event" if f.types == ("event",) and event_word else "card"
    rest = attrs.evolve(f, types=() if one_type else f.types, tag=None if word == f.tag else f.tag)
    return f"{word + ' ' if word else ''}{kind}{card_filter(rest)}"


@text_of(fx.MoveCard)
def _move_card(e, c: bool) -> str:
    kept = f" with {e.resources} resource{'s' if e.resources != 1 else ''}" if e.resources else ""
    return f"move {_chosen_card(e.cards)} from {e.source} to {e.destination.replace('_', ' ')}{kept}"


@text_of(fx.DoubleKept)
def _double_kept(e, c: bool) -> str:
    return "double resources on a card here"


@text_of(fx.MoveThisCard)
def _move_this(e, c: bool) -> str:
    return "move this card to that player's events"


@text_of(fx.CopyPlay)
def _copy_play(e, c: bool) -> str:
    return f"copy play of another {_chosen_card(e.cards, event_word=False)}"


@text_of(fx.Reveal)
def _reveal(e, c: bool) -> str:
    return f"reveal top card if {e.tag} tag {{ {_list(e.then, c)} }}"


@text_of(fx.Require)
def _require(e, c: bool) -> str:
    return f"require {condition(e.condition)}"


@text_of(fx.NextCard)
def _next_card(e, c: bool) -> str:
    return "next card { " + "; ".join(effect(m, c) for m in e.modifiers) + " }"


@text_of(fx.Neutral)
def _neutral(e, c: bool) -> str:
    return f"neutral {{ {_list(e.body, c)} }}"


@text_of(fx.DecidedBy)
def _decided_by(e, c: bool) -> str:
    return f"decided by {e.decider} {{ {_list(e.body, c)} }}"


@text_of(fx.EachOpponent, fx.EachPlayer)
def _each(e, c: bool) -> str:
    who = "each opponent" if type(e) is fx.EachOpponent else "each player"
    with_ = f" with {condition(e.condition)}" if e.condition is not None else ""
    must = " must" if e.must else ""
    return f"{who}{with_}{must} {{ {_list(e.body, c)} }}"


@text_of(fx.ThatPlayer)
def _that_player(e, c: bool) -> str:
    return f"that player {{ {_list(e.body, c)} }}"


@text_of(fx.PutMark)
def _put_mark(e, c: bool) -> str:
    count = f"{e.count} " if e.count > 1 else ""
    whose = "your " if e.own else ("opponent " if e.opponent else "")
    most = f" max {e.most}" if e.most is not None else ""
    body = f" {{ {_list(e.body, c)} }}" if e.body else ""
    return f"put {count}{v.plural(e.mark, e.count)} on {whose}{e.tile}{_filters(e.filters)}{most}{body}"


@text_of(fx.RemoveTile)
def _remove_tile(e, c: bool) -> str:
    return f"remove {str(e.count) + ' ' if e.count > 1 else ''}{e.tile} tile"


@text_of(fx.ReplaceTile)
def _replace_tile(e, c: bool) -> str:
    name = f' "{e.name}"' if e.name else ""
    return f"replace your {e.old + ' ' if e.old != v.ANY_TILE else ''}tile{_filters(e.filters)} with {e.new}{name}"


@text_of(fx.Repeat)
def _repeat(e, c: bool) -> str:
    return f"repeat {quantity(e.times)} times {{ {_list(e.body, c)} }}"


_PLACES = ("first", "second", "third", "fourth", "fifth")


@text_of(fx.Rank)
def _rank(e, c: bool) -> str:
    places = " | ".join(f"{_PLACES[i]}: {_list(p, c)}" for i, p in enumerate(e.places))
    minimum = f" at least {e.minimum}" if e.minimum is not None else ""
    return f"rank players by {'lowest ' if e.lowest else ''}{quantity(e.score)}{minimum} {{ {places} }}"


@text_of(fx.ResolveStage)
def _resolve_stage(e, c: bool) -> str:
    return f"resolve {e.card_kind}"


@text_of(fx.AdvanceStages)
def _advance_stages(e, c: bool) -> str:
    return f"advance {e.card_kind} cards"


@text_of(fx.FundAward)
def _fund_award(e, c: bool) -> str:
    return "fund award for free"


@text_of(fx.LookPlay)
def _look_play(e, c: bool) -> str:
    written = f"look {e.look} {e.card_kind} cards play {'up to ' if e.up_to else ''}{e.play}"
    return written + (f" {{ {effects(e.price)} }}" if e.price else "")


@text_of(fx.ReuseAction)
def _reuse_action(e, c: bool) -> str:
    return "repeat used action of another card"


@text_of(fx.UseProject)
def _use_project(e, c: bool) -> str:
    name = f' "{e.name}"' if e.name is not None else ""
    otherwise = f" else {{ {_list(e.otherwise, c)} }}" if e.otherwise is not None else ""
    return f"use standard project{name}{otherwise}"


@text_of(fx.PassTurn)
def _pass_turn(e, c: bool) -> str:
    return "pass"


@text_of(fx.TakeActions)
def _take_actions(e, c: bool) -> str:
    return f"take {e.count} action{'' if e.count == 1 else 's'}"


@text_of(fx.GainRaised)
def _gain_raised(e, c: bool) -> str:
    return "gain that production"


@text_of(fx.RevealFromHand)
def _reveal_from_hand(e, c: bool) -> str:
    wanted = card_filter(e.cards) if e.cards is not None else ""
    return f"reveal X cards from hand{wanted} {{ {_list(e.body, c)} }}"


@text_of(fx.SharedReveal)
def _shared_reveal(e, c: bool) -> str:
    rounds = " until none left" if e.until_none_left else ""
    return f"reveal {quantity(e.count)} cards, each player takes {e.take}{rounds}"


@text_of(fx.RevealUntil)
def _reveal_until(e, c: bool) -> str:
    wanted = (f" with {e.tag} tag" if e.tag is not None else "") + (f" with {e.icon} icon" if e.icon else "") + \
        (f" holding {e.holds}" if e.holds is not None else "") + (card_filter(e.cards) if e.cards is not None else "")
    return f"reveal cards until {e.count}{wanted}"


@text_of(fx.PlayFromHand)
def _play_from_hand(e, c: bool) -> str:
    words = [f"play {_chosen_card(e.cards) if e.cards is not None else 'card'} from {e.source}"]
    for m in e.modifiers:
        words.append(f"with discount {m.amount}" if isinstance(m, fx.Discount) else "ignoring global requirements")
    if e.discard:
        words.append("then discard")
    return " ".join(words)


@text_of(fx.RevealEach)
def _reveal_each(e, c: bool) -> str:
    cases = " | ".join(f"{card_filter(f).strip()} -> {_list(body, c)}" for f, body in zip(e.filters, e.cases))
    return f"reveal {quantity(e.count)} cards one by one {{ {cases} }}"


@text_of(fx.PlayIt)
def _play_it(e, c: bool) -> str:
    return "play it" + (" for free" if e.free else "") + (" ignoring requirements" if e.ignoring else "")


# ------------------------------------------------------------------------------------------- pieces and sites

@text_of(fx.PlacePiece)
def _place_piece(e, c: bool) -> str:
    count = f"{e.count} " if e.count > 1 else ""
    return f"place {count}{v.plural_noun(e.piece, e.count)}" + (" also where you have one" if e.also_own else "") + \
        (" building twice" if e.builds == 2 else "")


@text_of(fx.SendPiece)
def _send(e, c: bool) -> str:
    return f"send {e.piece}" + (" reusing one" if e.reusing else "") + (" to any site" if e.any_site else "") + \
        (" taking every bonus" if e.every_bonus else "")


@text_of(fx.GainPieces)
def _gain_pieces(e, c: bool) -> str:
    count = 2 if e.amount.variable else e.amount.coefficient
    return f"gain {number(e.amount)} {v.plural_noun(e.piece, count)}{per(e.amount)}"


@text_of(fx.MoveMarkers)
def _marker(e, c: bool) -> str:
    if e.each:
        return f"marker {e.steps[0]:+d} on each site"
    return "; ".join(f"marker {step:+d} on {'a' if index == 0 else 'another'} site"
                     for index, step in enumerate(e.steps))


@text_of(fx.CollectBonus)
def _collect_bonus(e, c: bool) -> str:
    return f"collect bonus per {e.piece}"


@text_of(fx.SiteIntoPlay)
def _site_into_play(e, c: bool) -> str:
    return "site into play"


@text_of(fx.SiteOutOfPlay)
def _site_out_of_play(e, c: bool) -> str:
    return "site out of play"


@text_of(fx.Nothing)
def _nothing(e, c: bool) -> str:
    return "nothing"


# ------------------------------------------------------------------------------------------- factions

@text_of(fx.PlaceInFaction)
def _place_in_faction(e, c: bool) -> str:
    where = f'"{e.faction}"' if e.faction is not None else "a faction"
    count = f"{e.count} " if e.count > 1 else ""
    return f"place {count}{'neutral ' if e.neutral else ''}{v.plural_noun(e.piece, e.count)} in {where}"


@text_of(fx.RemoveFromFaction)
def _remove_from_faction(e, c: bool) -> str:
    return f"remove {'an' if e.piece[:1] in 'aeiou' else 'a'} {e.piece} from a faction"


@text_of(fx.ReplaceNeutral)
def _replace_neutral(e, c: bool) -> str:
    return f"replace a neutral {e.piece}"


@text_of(fx.TakeRole)
def _take_role(e, c: bool) -> str:
    return "take role"


@text_of(fx.ChangeGovernment)
def _change_government(e, c: bool) -> str:
    return "change government"


# ------------------------------------------------------------------------------------------- passive effects

@text_of(fx.Discount)
def _discount(e, c: bool) -> str:
    t = e.target
    target = {"cards": f"{t.tag + ' ' if t.tag else ''}cards{card_filter(t.cards) if t.cards else ''}",
              "standard_project": f'standard project "{t.name}"',
              "standard_projects": "standard projects", "standard_action": f'standard action "{t.name}"',
              "action": f'action of "{t.name}"', "starting_cards": "starting cards", "milestones": "milestones",
              "awards": "awards"}[t.kind]
    resource = "" if e.resource == "megacredits" and not e.resource_written else f" {e.resource}"
    per_tag = f" per {e.per_tag} tag" if e.per_tag else ""
    return f"discount {e.amount}{resource} on {target}{per_tag}{_discount_per(e)}"


def _discount_per(e) -> str:
    """A card discount's scale. The owner's tags of one kind, one each, are written `per your mars tags`: in the
    singular, `per mars tag`, they would be the played card's own tags (`per_tag`), another discount."""
    if e.target.kind == "cards" and e.per is not None and e.divisor == 1 and len(e.per.terms) == 1:
        m = e.per.terms[0]
        if m.kind == "tags" and m.scope == "you" and m.name and m.cap is None and m.cap_by is None:
            return f" per your {m.name} tags"
    return per(e)


@text_of(fx.ResourceValue)
def _resource_value(e, c: bool) -> str:
    return f"{e.resource} value {e.delta:+d}"


@text_of(fx.RequirementLeeway)
def _leeway(e, c: bool) -> str:
    return f"{e.parameter or 'global'} requirements +-{e.steps}"


@text_of(fx.Protect)
def _protect(e, c: bool) -> str:
    resources = (r if r == "production" else v.plural(r) for r in e.resources) if c else e.resources
    half = "half " if e.half else ""
    return f"protect {half}{', '.join(resources)} " + ("here" if e.scope == "here" else "from opponents")


@text_of(fx.Substitute)
def _substitute(e, c: bool) -> str:
    if e.here:
        tag = f" for {e.tag} cards" if e.tag else \
            " for standard project " + " or ".join(f'"{name}"' for name in e.projects) if e.projects else ""
        return f"use {v.plural(e.resource)} here as {e.value} {_resource(e.instead_of, fx.Amount(e.value), c)}{tag}"
    if e.tag is not None:   # a stock resource for cards with a tag, at a value of its own
        value = f"{e.value} {_resource(e.instead_of, fx.Amount(e.value), c)}" if e.value != 1 else e.instead_of
        return f"use {v.plural(e.resource)} as {value} for {e.tag} cards"
    if e.projects:   # a stock resource towards named standard projects
        return f"use {e.resource} as {e.instead_of} for standard project " + " or ".join(f'"{n}"' for n in e.projects)
    return f"use {e.resource} as {e.instead_of}"


@text_of(fx.TileBan)
def _tile_ban(e, c: bool) -> str:
    return f"no {e.tile} next to this tile"

@text_of(fx.TagCountsAs)
def _tag_counts_as(e, c: bool) -> str:
    return f"{e.tag} tags count as {e.as_tag} tags"


@text_of(fx.GainSpaceBonus)
def _gain_space_bonus(e, c: bool) -> str:
    return f"gain {e.amount} more space bonus"


@text_of(fx.KeepEnergy)
def _keep_energy(e, c: bool) -> str:
    return "keep energy during production"


@text_of(fx.ResearchDeal)
def _research_deal(e, c: bool) -> str:
    cards = f" {e.cards} cards" if e.cards is not None else ""
    most = f" buy up to {e.most}" if e.most is not None else ""
    return f"research{cards}{most}"


@text_of(fx.SkipTr)
def _skip_tr(e, c: bool) -> str:
    return f"skip first {e.steps} tr {'step' if e.steps == 1 else 'steps'} each generation"


@text_of(fx.Tax)
def _tax(e, c: bool) -> str:
    return f"tax {e.amount} {e.resource} per tr step"


@text_of(fx.InfluenceBonus)
def _influence_bonus(e, c: bool) -> str:
    return f"influence {e.amount:+d}"


@text_of(fx.OceanBonus)
def _ocean_bonus(e, c: bool) -> str:
    return f"{e.tile} bonus {e.amount:+d} {e.resource}"


@text_of(fx.MarkerOffset)
def _marker_offset(e, c: bool) -> str:
    return f"{e.piece} marker {e.steps:+d}"


@text_of(fx.EventsTags)
def _events_tags(e, c: bool) -> str:
    return "your events' tags count"


@text_of(fx.KeptPlayable)
def _kept_playable(e, c: bool) -> str:
    less = f" for {e.discount} {_resource('megacredits', fx.Amount(e.discount), c)} less per resource on them" \
        if e.discount else ""
    return f"cards here may be played as if from hand{less}"


@text_of(fx.CardPrice)
def _card_price(e, c: bool) -> str:
    change = f" {e.change}" if e.change else ""
    return f"buy cards for {e.amount} {_resource('megacredits', fx.Amount(e.amount), c)}{change}"


@text_of(fx.Trigger)
def _trigger(e, c: bool) -> str:
    once = "once per action " if e.once_per_action else ""
    return f"{once}when {trigger_event(e, c)} -> {_list(e.effects, c)}"


def trigger_event(e: fx.Trigger, card_text: bool = False) -> str:
    """A trigger's subject and event (`any player plays card holding microbe`), as after `when` (and a site's
    `inactive until:`)."""
    subject = {"you": "you", "any": "any player", "another": "another player"}[e.subject]
    event = _event(e.event)
    if card_text and e.subject != "you":  # `when any player places ...`: the verb agrees with its subject
        verb, _, rest = event.partition(" ")
        event = f"{verb}s {rest}".rstrip()
    return f"{subject} {event}" + (" including this" if e.including_this else "")


def _event(ev: fx.TriggerEvent) -> str:
    costs = ""
    if ev.min_cost is not None:
        costs += f" with cost >= {ev.min_cost}"
    if ev.max_cost is not None:
        costs += f" with cost <= {ev.max_cost}"
    if ev.kind == "play_tag":
        return "play " + " or ".join(ev.tags) + " tag"
    if ev.kind == "play_card":
        # the types before `card`, one or several (`play automated or active card`), as a designer writes them
        written = " or ".join(ev.cards.types) + " " if ev.cards is not None and ev.cards.types else ""
        others = card_filter(attrs.evolve(ev.cards, types=())) if ev.cards is not None else ""
        return (f"play {written}{ev.tag + ' ' if ev.tag else ''}{ev.card_kind}{costs}{' with vp' if ev.with_vp else ''}"
                f"{' with no tags' if ev.no_tags else ''}{' holding ' + ev.holds if ev.holds else ''}{others}")
    if ev.kind == "send":
        return f"send {ev.piece}"
    if ev.kind == "place_piece":
        return f"place {ev.piece}"
    if ev.kind == "new_tag":
        return "gain a new tag"
    if ev.kind in ("harm", "harm_you"):
        return "harm another player" if ev.kind == "harm" else "harm you"
    if ev.kind == "become_leader":
        return "become leader of a faction"
    if ev.kind == "place":  # `place tile` for any tile, not `place tile tile`
        return f"place {ev.tile + ' ' if ev.tile != 'tile' else ''}tile{_filters(ev.filters)}"
    if ev.kind == "standard_project":
        return "use standard project" + costs + "".join(f' except "{n}"' for n in ev.excluded)
    if ev.kind == "production":
        return "produce"
    if ev.kind == "production_raise":
        return "raise production"
    if ev.kind == "add_resource":
        return f"add {ev.resource}" + (" here" if ev.here else "")
    return f"raise {ev.parameter}"


def _set_name(name: str) -> str:
    return name if name.isidentifier() else f'"{name}"'


def _fields(*fields: str) -> str:
    """Fields that share a line, two spaces apart; an empty one (a field the card does not have) is left out."""
    return "  ".join(field for field in fields if field)


def _action_fields(actions) -> list[str]:
    """`action:` (once a generation) and `repeatable action:` fields, their options as written."""
    lines = []
    for key, repeatable in (("action", False), ("repeatable action", True)):
        options = []
        for option in actions:
            if option.repeatable == repeatable:
                cost = card_effects(option.cost)
                options.append((cost + " -> " if cost else "") + card_effects(option.effects))
        if options:
            lines += layout.field(key, " | ".join(options))
    return lines


def card(definition) -> str:
    """A card or corporation as canonical card text, generated from what was compiled (round-trips, see
    tests/test_text_roundtrip.py): what the engine will actually do, in the language designers write. The layout
    is the bundled cards' own (a card's set, type, cost and tags on one line; `set:` only when not the base game),
    and it is what `tharsis fmt` writes."""
    head = "corporation" if definition.kind == "corporation" else "card"
    number = f" #{definition.number}" if definition.number else ""
    lines = [f'{head} "{definition.name}"{number} {{']
    set_name = f"set: {_set_name(definition.set)}" if definition.set != "base" else ""
    tags = "tags: " + ", ".join(definition.tags) if definition.tags else ""
    if definition.kind == "corporation":
        variant = f"variant: {definition.variant}" if definition.variant else ""
        set_and_tags = _fields(set_name, tags)
        start = f"start: {definition.starting_megacredits} megacredits"
        lines += [f"  {field}" for field in (variant, set_and_tags, start) if field]
    else:
        # a declared kind of card is free
        cost = f"cost: {definition.cost}" if definition.type in ("automated", "active", "event") else ""
        lines.append("  " + _fields(set_name, f"type: {definition.type}", cost, tags))
    if getattr(definition, "needs", ()):
        lines.append("  needs: " + ", ".join(_set_name(name) for name in definition.needs))
    if definition.requirements:
        lines.append(f"  requires: {condition(definition.requirements)}")
    if definition.holds:
        lines.append(f"  holds: {definition.holds}")
    # effects as card text, a long field broken across lines where a reader expects it (compiler/layout.py)
    # a staged card: what it does on its way, then when played
    for stage, effects in getattr(definition, "on_stage", ()):
        lines += layout.field(f"on {stage}", card_effects(effects))
    if definition.play:
        lines += layout.field("play", card_effects(definition.play))
    if getattr(definition, "first_action", ()):
        lines += layout.field("first action", card_effects(definition.first_action))
    lines += _action_fields(definition.actions)
    for passive in definition.passives:
        lines += layout.field("effect", effect(passive, card_text=True))
    if definition.vp:
        lines.append(f"  vp: {victory_points(definition.vp)}")
    lines.append("}")
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------- whole content

def content(definitions, tags=(), card_resources=(), wild_tags=(), marks=()) -> str:
    """Definitions of every kind as card text, after the `tag`, `resource` and `mark` declarations they need: the output
    of `tharsis cards --format text`, which checks clean and compiles back to the same definitions."""
    parts = []
    plain = sorted(set(tags) - set(wild_tags))
    declarations = [f"tag {', '.join(plain)}"] if plain else []
    declarations += [f"tag {name} as any tag" for name in sorted(wild_tags)]
    if card_resources:
        declarations.append(f"resource {', '.join(sorted(card_resources))}")
    if marks:
        declarations.append(f"mark {', '.join(sorted(marks))}")
    if declarations:
        parts.append("\n".join(declarations))
    parts.extend(definition(d) for d in definitions)
    return "\n\n".join(parts)


def definition(d) -> str:
    """One definition of any kind as canonical card text."""
    if d.kind in ("card", "corporation"):
        return card(d)
    variant = [f"  variant: {d.variant}"] if getattr(d, "variant", None) else []
    set_line = [f"  set: {_set_name(d.set)}"] if getattr(d, "set", "base") != "base" else []
    if d.kind == "standard_project":
        return "\n".join([f'standard project "{d.name}" {{', *set_line, f"  cost: {d.cost}{_alternatives(d)}",
                          *layout.field("play", card_effects(d.play)), *variant, "}"])
    if d.kind == "standard_action":
        resource = "" if d.cost_resource == "megacredits" and not d.alternatives else \
            f" {_price_word(d.cost_resource, d.cost)}"
        once = ["  once per generation"] if d.once_per_generation else []
        return "\n".join([f'standard action "{d.name}" {{', *set_line, f"  cost: {d.cost}{resource}{_alternatives(d)}",
                          *once, *layout.field("play", card_effects(d.play)), *variant, "}"])
    if d.kind == "piece":
        lines = [f'piece "{d.name}" {{', *set_line]
        for key, value in (("supply", d.supply), ("limit", d.limit)):
            if value is not None:
                lines.append(f"  {key}: {value}")
        if d.returns:
            lines.append(f"  returns: {d.returns.replace('_', ' ')}")
        if d.neutral:
            lines.append(f"  neutral: {d.neutral}")
        return "\n".join(lines + ["}"])
    if d.kind in ("faction", "government"):
        return politics(d, set_line)
    if d.kind == "site":
        return site(d, set_line)
    if d.kind == "milestone":
        return "\n".join([f'milestone "{d.name}" {{', *set_line, f"  requires: {condition(d.requirement)}", "}"])
    if d.kind == "award":
        return "\n".join([f'award "{d.name}" {{', *set_line, f"  measure: {quantity(d.measure)}", "}"])
    if d.kind == "parameter":
        unit = d.unit
        lines = [f'parameter "{d.name}" {{', *set_line,
                 f"  scale: {d.low}{unit} to {d.high}{unit} step {d.step}{unit}"]
        if d.ends_game != "yes":
            lines.append(f"  ends game: {d.ends_game}")
        for t in d.tracks:
            lines += layout.field("track", f"{t.value}{unit} -> {card_effects(t.effects)}")
        return "\n".join(lines + ["}"])
    if d.kind == "card_kind":
        lines = [f'card kind "{d.name}" {{', *set_line, f"  deal: {d.deal} keep {d.keep}"]
        if d.stages:
            lines.append("  stages: " + ", ".join(d.stages))
        if d.unplayable:
            lines += layout.field("unplayable", card_effects(d.unplayable))
        if d.unplayable_to != "pile":
            lines.append(f"  unplayable to: {d.unplayable_to}")
        return "\n".join(lines + ["}"])
    if d.kind == "rule":
        by = "" if d.by == "first_player" else f"  by: {d.by.replace('_', ' ')}"
        after = ["  after: " + ", ".join(_set_name(name) for name in d.after)] if d.after else []
        return "\n".join([f'rule "{d.name}" {{', *set_line, f"  at: {d.at.replace('_', ' ')}", *([by] if by else []),
                          *after, *layout.field("play", card_effects(d.play)), "}"])
    if d.kind == "expansion":
        lines = [f'expansion "{d.name}" {{']
        for key, names in (("offboard", d.offboard), ("milestones", d.milestones), ("awards", d.awards)):
            if names:
                lines.append(f"  {key}: " + ", ".join(f'"{name}"' for name in names))
        if d.solo_generations:
            lines.append(f"  solo generations: {d.solo_generations}")
        if d.sites:
            lines.append("  sites: " + ", ".join(f"{n} player{'s' if n > 1 else ''} -> {count}" for n,
                                                 count in d.sites))
        return "\n".join(lines + ["}"])
    return board(d)


def _price_word(resource: str, amount: int) -> str:
    return "megacredits" if resource == "megacredits" else v.plural(resource, amount)


def _alternatives(d) -> str:
    """` | 3 energy | 3 titanium`: the ways to pay after the first."""
    return "".join(f" | {amount} {_price_word(resource, amount)}" for amount, resource in d.alternatives)


def politics(d, set_line: list) -> str:
    """A declared faction or government as canonical card text."""
    if d.kind == "faction":
        lines = [f'faction "{d.name}" {{', *set_line]
        if d.bonus:
            lines += layout.field("bonus", card_effects(d.bonus))
        lines += _action_fields(d.actions)
        for passive in d.passives:
            lines += layout.field("effect", effect(passive, card_text=True))
        return "\n".join(lines + ["}"])
    lines = [f'government "{d.name}" {{', *set_line, *layout.field("factions", ", ".join(
        f'"{name}"' for name in d.factions)), f"  pieces: {d.piece}", f'  ruling: "{d.ruling}"']
    if d.role:
        reward = f" -> {card_effects(d.role_reward)}" if d.role_reward else ""
        lines += layout.field("role", f'"{d.role}"{reward}')
    if d.influence is not None:
        lines.append(f"  influence: {quantity(d.influence)}")
    if d.vp:
        lines.append(f"  vp: {victory_points(d.vp)}")
    return "\n".join(lines + ["}"])


def site(d, set_line: list) -> str:
    """A declared site as canonical card text."""
    per_player = f", {d.per_player} per player" if d.per_player is not None else ""
    lines = [f'site "{d.name}" {{', *set_line,
             f"  holds: {d.capacity} {v.plural_noun(d.piece, d.capacity)}{per_player}"]
    if d.visitor:
        lines.append(f"  visited by: {d.visitor}")
    lines += layout.field("track", " | ".join(card_effects(step) for step in d.track))
    if d.marker:
        lines.append(f"  marker: {d.marker}")
    if d.bonus:
        lines += layout.field("bonus", card_effects(d.bonus))
    if d.build:
        lines += layout.field("build", card_effects(d.build))
    if d.inactive_until is not None:
        lines.append(f"  inactive until: {trigger_event(d.inactive_until, card_text=True)}")
    return "\n".join(lines + ["}"])


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
        lines.append(f"  track: {track.parameter} {track.value}{_UNITS.get(track.parameter, '')} -> "  # built-ins
                     f"{card_effects(track.effects)}")
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
