"""Rules text in English, generated from compiled cards: what the engine will do, in players' words.

Designers read it to check that their card says what they meant (`tharsis cards --format rules`); the card's
layout comes from the Jinja template templates/card.txt.j2, each effect's sentence from `sentence` below (one
branch per compiled effect kind, so a new kind fails loudly here until it has words).
"""

from __future__ import annotations

from functools import lru_cache

import jinja2

from . import effects as fx
from . import text
from . import vocabulary as v

_OPERATOR = {">=": "at least", "<=": "at most", "==": "exactly", ">": "more than", "<": "less than"}
_MONEY = {"megacredits": "MC"}


def _upper_first(words: str) -> str:
    return words[:1].upper() + words[1:]


def _a(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _res(name: str, count: int = 2) -> str:
    return _MONEY.get(name) or v.plural(name, count)


def _count(a: fx.Amount) -> str:
    return "X" if a.variable else str(abs(a.coefficient))


def _of(a: fx.Amount, thing: str) -> str:
    """`3 plants`, `1 MC per city on mars`: the number, the thing, then what it is counted per."""
    return f"{_count(a)} {thing}{text.per(a)}"


def condition(c) -> str:
    parts = []
    for comparison in c.comparisons:
        unit = {"temperature": "°C", "oxygen": "%"}.get(comparison.global_parameter or "", "")
        parts.append(f"{text.quantity(comparison.quantity)} {_OPERATOR[comparison.operator]} "
                     f"{comparison.value}{unit}")
    return " and ".join(parts)


def _filters(filters) -> str:
    words = []
    for f in filters:
        if f.kind == "ocean":
            words.append("on an area reserved for oceans")
        elif f.kind in ("land", "mars"):
            words.append(f"on {'a land area' if f.kind == 'land' else 'Mars'}")
        elif f.kind == "volcanic":
            words.append("on a volcanic area")
        elif f.kind == "reserved":
            words.append(f"on the area reserved for {f.reserved}")
        elif f.kind == "bonus":
            words.append("on an area with a " + " or ".join(f.bonuses) + " placement bonus")
        elif f.kind == "next_to":
            whose = "your " if f.own else ""
            what = v.plural(f.tile, f.count) if f.tile != "tile" else ("tiles" if f.count > 1 else "tile")
            words.append(f"next to {'at least ' + str(f.count) + ' ' if f.count > 1 else ''}{whose}{what}")
        elif f.kind == "isolated":
            words.append("next to no other tile")
    return (" " + " ".join(words)) if words else ""


def sentences(effects) -> str:
    return " ".join(sentence(e) for e in effects)


def sentence(e) -> str:  # noqa: C901 - one branch per effect kind, on purpose
    if isinstance(e, fx.Gain):
        return f"Gain {_of(e.amount, _res(e.resource, e.amount.coefficient))}."
    if isinstance(e, fx.Lose):
        return f"Lose {_of(e.amount, _res(e.resource, e.amount.coefficient))} (you must have them)."
    if isinstance(e, fx.Spend):
        return f"Spend {_of(e.amount, _res(e.resource, e.amount.coefficient))}."
    if isinstance(e, fx.Pay):
        using = f" ({' or '.join(e.using)} may be used)" if e.using else ""
        return f"Pay {_of(e.amount, 'MC')}{using}."
    if isinstance(e, (fx.Production, fx.AnyProduction)):
        whose = "any player's" if isinstance(e, fx.AnyProduction) else "your"
        parts = []
        for change in e.changes:
            verb = "decrease" if change.amount.coefficient < 0 else "increase"
            resource = "the production of that bonus" if change.resource == "bonus" else \
                f"{whose} {_res(change.resource, 1)} production"
            steps = _count(change.amount)
            parts.append(f"{verb} {resource} {_of(change.amount, 'step' if steps == '1' else 'steps')}")
        return _upper_first(", ".join(parts)) + "."
    if isinstance(e, fx.ChangeParameter):
        verb = "lower" if e.amount.coefficient < 0 else "raise"
        what = "your TR" if e.parameter == "tr" else e.parameter
        steps = _count(e.amount)
        return f"{verb.capitalize()} {what} {_of(e.amount, 'step' if steps == '1' else 'steps')}."
    if isinstance(e, fx.PlaceTile):
        name = f" ({e.name})" if e.name else ""
        tiles = f"{e.count} {e.tile} tiles" if e.count > 1 else _a(f"{e.tile} tile")
        return f"Place {tiles}{name}{_filters(e.filters)}."
    if isinstance(e, fx.ClaimSpace):
        return f"Put your marker on a free area{_filters(e.filters)}: only you may place a tile there."
    if isinstance(e, fx.Draw):
        return f"Draw {_of(e.amount, 'card' if _count(e.amount) == '1' else 'cards')}."
    if isinstance(e, fx.LookKeep):
        return f"Look at the top {e.look} cards and keep {e.keep} of them; discard the rest."
    if isinstance(e, fx.LookBuy):
        return f"Look at the top {'card' if e.look == 1 else str(e.look) + ' cards'}: buy or discard each."
    if isinstance(e, fx.Discard):
        return f"Discard {_of(e.amount, 'card' if _count(e.amount) == '1' else 'cards')} from your hand."
    if isinstance(e, fx.AddResources):
        where = {"here": "to this card", "another_card": "to another of your cards",
                 "any_card": "to one of your cards", "any_card_with_resources": "to one of your cards that "
                 "already has a resource", "that_card": "to that card"}[e.target]
        kind = "resource" if e.resource == "resource" else e.resource
        return f"Add {_of(e.amount, v.plural(kind, e.amount.coefficient))} {where}."
    if isinstance(e, fx.RemoveResources):
        up_to = "up to " if e.up_to else ""
        where = {"here": "from this card", "any_card": "from any card", "any_player": "from any player"}[e.source]
        if e.next_to_placed:
            where = "from the owner of a tile next to it"
        optional = " (optional)" if e.up_to else ""
        return f"Remove {up_to}{_of(e.amount, _res(e.resource, e.amount.coefficient))} {where}{optional}."
    if isinstance(e, fx.Steal):
        return f"Steal {'up to ' if e.up_to else ''}{_of(e.amount, _res(e.resource, e.amount.coefficient))} " \
               f"from any player."
    if isinstance(e, fx.Choice):
        return "Choose one: " + " Or: ".join(sentences(o) for o in e.options)
    if isinstance(e, fx.Conditional):
        otherwise = f" Otherwise: {sentences(e.otherwise)}" if e.otherwise else ""
        return f"If {condition(e.condition)}: {sentences(e.then)}{otherwise}"
    if isinstance(e, fx.ChooseX):
        return f"Choose X from {e.minimum} to {text.quantity(e.maximum)}: {sentences(e.body)}"
    if isinstance(e, fx.May):
        return f"You may: {sentences(e.body)}"
    if isinstance(e, fx.CopyProduction):
        return f"Copy the production box of one of your {e.tag} cards."
    if isinstance(e, fx.Reveal):
        return f"Reveal the top card of the deck; if it has {_a(e.tag)} tag: {sentences(e.then)} Then discard it."
    if isinstance(e, fx.Require):
        return f"Only if {condition(e.condition)}."
    if isinstance(e, fx.NextCard):
        return "The next card you play this generation: " + sentences(e.modifiers)
    if isinstance(e, fx.Trigger):
        return f"When {_event(e)}: {sentences(e.effects)}"
    if isinstance(e, fx.Discount):
        t = e.target
        what = {"cards": f"Cards{' with a ' + t.tag + ' tag' if t.tag else ''} cost",
                "standard_project": f"The standard project {t.name} costs",
                "standard_projects": "Standard projects cost",
                "standard_action": f"The standard action {t.name} costs",
                "starting_cards": "Each starting card costs"}[t.kind]
        return f"{what} you {e.amount} {_res(e.resource, e.amount)} less."
    if isinstance(e, fx.ResourceValue):
        return f"Your {e.resource} is worth {e.delta} MC more."
    if isinstance(e, fx.RequirementLeeway):
        return f"Your global requirements are {e.steps} steps easier, either way."
    if isinstance(e, fx.Protect):
        resources = " or ".join(v.plural(r) for r in e.resources)
        if e.scope == "here":
            return f"{_upper_first(resources)} on this card cannot be removed."
        return f"Opponents cannot remove your {resources}."
    if isinstance(e, fx.Substitute):
        return f"You may pay with {e.resource} as if it were MC."
    raise TypeError(f"no rules text for {type(e).__name__}")


def _event(trigger: fx.Trigger) -> str:
    ev = trigger.event
    who = "you" if trigger.subject == "you" else "any player"
    own = " (including this card)" if trigger.including_this else ""
    costs = f" costing {ev.min_cost} MC or more" if ev.min_cost is not None else ""
    if ev.kind == "play_tag":
        return f"{who} play{'s' if who != 'you' else ''} {_a(' or '.join(ev.tags))} tag{own} (once per tag)"
    if ev.kind == "play_card":
        what = _a(f"{ev.tag + ' ' if ev.tag else ''}{'event' if ev.card_kind == 'event' else 'card'}")
        return f"{who} play{'s' if who != 'you' else ''} {what}{costs}{own}"
    if ev.kind == "place":
        what = "a tile" if ev.tile == "tile" else _a(f"{ev.tile} tile")
        return f"{who} place{'s' if who != 'you' else ''} {what}{_filters(ev.filters)}{own}"
    if ev.kind == "standard_project":
        except_ = "".join(f" other than {name}" for name in ev.excluded)
        return f"{who} use{'s' if who != 'you' else ''} a standard project{costs}{except_}"
    if ev.kind == "production":
        return "the production phase starts"
    what = "your TR" if ev.parameter == "tr" else ev.parameter
    return f"{who} raise{'s' if who != 'you' else ''} {what}"


def victory_points(vp) -> str:
    if vp.condition is not None:
        return f"{vp.points} VP if {condition(vp.condition)}."
    if vp.per is not None:
        divisor = f"{vp.divisor} " if vp.divisor > 1 else ""
        return f"{vp.points} VP per {divisor}{text.quantity(vp.per, one=vp.divisor == 1)}."
    return f"{vp.points} VP."


@lru_cache(maxsize=1)
def _template() -> jinja2.Template:
    environment = jinja2.Environment(loader=jinja2.PackageLoader("tharsis.compiler", "templates"),
                                     trim_blocks=True, lstrip_blocks=True, autoescape=False)
    return environment.get_template("card.txt.j2")


def card(definition) -> str:
    """A card or corporation as English rules text."""
    d = definition
    actions = []
    for option in d.actions:
        cost = sentences(option.cost)
        actions.append(f"{cost} -> {sentences(option.effects)}" if cost else sentences(option.effects))
    return _template().render(
        card=d, requirement=condition(d.requirements) if d.requirements else "",
        play=sentences(d.play), first_action=sentences(getattr(d, "first_action", ())), actions=actions,
        passives=[sentence(p) for p in d.passives], vp=victory_points(d.vp) if d.vp else "").rstrip()
