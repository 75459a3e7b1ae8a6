"""What a compiled definition is and does, as numbers: the facts behind the option features (option_features.py).

A learner choosing between cards needs to see them: their cost, tags, type, requirements, victory points, what
their play gives. All of it is in the compiled objects the engine runs (compiler/definitions.py, compiler/effects.py),
so it is read from them here, for any card of any content, a designer's included: no card is named, and an effect
verb is read by its class, the registry's. Each fact is a sum over the effects as written, not a simulation: `gain 2
plants per plant tag` counts 2 plants and marks the amount as scaled; the options of a `choose { }` count as the best
of them field by field and mark a choice. That is what a feature must be: cheap, the same for every game, and
monotone in what the card gives.

Interface: `Facts` (what a run of effects does, by field) from `definition_facts(definition)`,
`action_facts(actions)` and `effects_facts(effects)`; `requirement_bounds(condition, vocabulary)`; `Vocabulary`
(`vocabulary_of(content)`) names the columns of a content: its tags, card resources and parameters.
"""

from __future__ import annotations

from typing import Iterable, Optional

import attrs

from tharsis.compiler import effects as fx
from tharsis.compiler.vocabulary import CARD_RESOURCES, GLOBAL_RANGES, TAGS

__all__ = ["DOES", "Facts", "Vocabulary", "action_facts", "definition_facts", "effects_facts", "requirement_bounds",
           "vocabulary_of"]


@attrs.frozen
class Vocabulary:
    """The named columns of a content: tags (the printed ones first, then those its definitions declare),
    card resources (likewise), and the global parameters with their scales (the printed three, then the declared
    ones, sorted): a policy learnt on one content keeps its columns on another that only adds names at the end."""

    tags: tuple[str, ...]
    card_resources: tuple[str, ...]
    scales: tuple[tuple[str, int, int], ...]   # (parameter, low, high)

    @property
    def parameters(self) -> tuple[str, ...]:
        return tuple(name for name, _, _ in self.scales)


def vocabulary_of(content) -> Vocabulary:
    """The vocabulary of a loaded content (`Game.content`)."""
    definitions = content.definitions
    tags = {t for d in definitions for t in getattr(d, "tags", ()) or ()}
    held = {d.holds for d in definitions if getattr(d, "holds", None)}
    declared = sorted((p.name, p.low, p.high) for p in content.of_kind("parameter") if p.name not in GLOBAL_RANGES)
    return Vocabulary(TAGS + tuple(sorted(tags - set(TAGS))),
                      CARD_RESOURCES + tuple(sorted(held - set(CARD_RESOURCES))),
                      tuple((name, low, high) for name, (low, high, _, _) in GLOBAL_RANGES.items()) + tuple(declared))


# What the effects of a move do, field by field (the "does" block of docs/api.md's option features), with the scale
# each is divided by: production steps, stock gained or lost, parameter steps, tiles, cards, card resources, pieces,
# harm to opponents, and the shape of the amounts.
DOES = ("production", "stock", "parameters", "tiles", "cards drawn", "card resources", "pieces", "attack",
        "scaled", "choice", "other effects")


@attrs.define
class Facts:
    """Sums by field: `production` and `stock` per standard resource, `parameters` per parameter (TR first),
    `tiles` per tile kind; the rest single numbers. Unscaled: option_features.py divides."""

    production: dict = attrs.field(factory=dict)
    stock: dict = attrs.field(factory=dict)
    parameters: dict = attrs.field(factory=dict)
    tiles: dict = attrs.field(factory=dict)
    cards: float = 0.0
    card_resources: float = 0.0
    pieces: float = 0.0
    attack: float = 0.0
    scaled: float = 0.0
    choice: float = 0.0
    other: float = 0.0

    def add(self, table: str, key: str, amount: float) -> None:
        values = getattr(self, table)
        values[key] = values.get(key, 0.0) + amount

    def best_of(self, others: list["Facts"]) -> None:
        """Adds the field-by-field best of `others` (the options of a choice)."""
        for table in ("production", "stock", "parameters", "tiles"):
            keys = {k for other in others for k in getattr(other, table)}
            for key in keys:
                self.add(table, key, max(getattr(other, table).get(key, 0.0) for other in others))
        for name in ("cards", "card_resources", "pieces", "attack", "other"):
            setattr(self, name, getattr(self, name) + max(getattr(other, name) for other in others))
        self.scaled = max([self.scaled] + [other.scaled for other in others])   # a mark, 0 or 1


def _amount(amount: fx.Amount, facts: Facts) -> float:
    """The written coefficient; an amount of X or per a quantity is marked as scaled."""
    if amount.variable or amount.per is not None:
        facts.scaled = 1.0
    return float(amount.coefficient)


def _mine(e, facts: Facts) -> None:
    """Adds one effect (and what is written inside it) to `facts`."""
    kind = type(e)
    if kind is fx.Gain:
        facts.add("stock", e.resource, _amount(e.amount, facts))
    elif kind in (fx.Lose, fx.Spend):
        facts.add("stock", e.resource, -_amount(e.amount, facts))
    elif kind is fx.Pay:
        facts.add("stock", "megacredits", -_amount(e.amount, facts))
    elif kind is fx.Production:
        for change in e.changes:
            facts.add("production", change.resource, _amount(change.amount, facts))
    elif kind is fx.AnyProduction:
        facts.attack += sum(abs(_amount(change.amount, facts)) for change in e.changes)
    elif kind is fx.ChangeParameter:
        facts.add("parameters", e.parameter, _amount(e.amount, facts))
    elif kind is fx.PlaceTile:
        facts.add("tiles", e.tile, float(e.count))
    elif kind is fx.Draw:
        facts.cards += _amount(e.amount, facts)
    elif kind is fx.LookKeep:
        facts.cards += e.keep
        facts.choice = 1.0
    elif kind is fx.AddResources:
        facts.card_resources += _amount(e.amount, facts) * max(e.cards, 1)   # `to each of K different cards`
    elif kind is fx.RemoveResources:
        if e.source in ("here", "your_card"):
            facts.card_resources -= _amount(e.amount, facts)
        else:
            facts.attack += _amount(e.amount, facts)
    elif kind is fx.Steal:
        amount = _amount(e.amount, facts)
        facts.attack += amount
        facts.add("stock", e.resource, amount)
    elif kind in (fx.PlacePiece, fx.PlaceInFaction):
        facts.pieces += e.count
    elif kind in (fx.SendPiece, fx.ReplaceNeutral):
        facts.pieces += 1
    elif kind is fx.EachOpponent:
        facts.attack += 1
    elif kind is fx.Choice:
        facts.choice = 1.0
        options = [effects_facts(option) for option in e.options]
        if options:
            facts.best_of(options)
    elif kind in (fx.May, fx.ChooseX):
        facts.choice = 1.0
        if kind is fx.ChooseX:
            facts.scaled = 1.0
        _walk(e.body, facts)
    elif kind is fx.IfYouCan:   # no choice: its effects, when they can be carried out
        _walk(e.body, facts)
    elif kind is fx.Conditional:
        _walk(e.then, facts)
    elif kind in (fx.EachPlayer, fx.Repeat, fx.DecidedBy):   # `decided by`: the effects are the player's
        if kind is fx.Repeat:
            facts.scaled = 1.0
        _walk(e.body, facts)
    elif kind is not fx.Nothing:
        facts.other += 1


def _walk(effects: Iterable, facts: Facts) -> None:
    for e in effects:
        _mine(e, facts)


def effects_facts(effects: Iterable) -> Facts:
    """The facts of a run of effects, as the player who carries them out gains or loses by them."""
    facts = Facts()
    _walk(effects, facts)
    return facts


def action_facts(actions) -> Facts:
    """The facts of a card's actions (`ActionOption`s: cost, then effects): one action as it is; several (a card
    with two actions) as the best of them field by field, marked as a choice."""
    options = [effects_facts(tuple(a.cost) + tuple(a.effects)) for a in actions]
    if len(options) == 1:
        return options[0]
    facts = Facts()
    if options:
        facts.best_of(options)
        facts.choice = 1.0
    return facts


def definition_facts(definition) -> Facts:
    """What playing a card, a corporation or a card of a declared kind does: its `play` (and a corporation's first
    action); a standard project or action: its effects, with its price (in its first resource) as stock lost."""
    facts = effects_facts(tuple(getattr(definition, "play", ())) + tuple(getattr(definition, "first_action", ())))
    if definition.kind in ("standard_project", "standard_action"):
        resource = getattr(definition, "cost_resource", "megacredits")
        facts.add("stock", resource, -float(definition.cost))
    return facts


def requirement_bounds(condition: Optional[fx.Condition], vocabulary: Vocabulary) -> tuple[dict, dict, int, int]:
    """A requirement read as bounds: {parameter: fraction of its scale at least}, {parameter: fraction of its scale
    left above the most allowed}, the tags it requires, and the number of its other comparisons (any other measure,
    and each alternative of an `or`)."""
    at_least, at_most, tags, other = {}, {}, 0, 0
    if condition is None:
        return at_least, at_most, tags, other
    scales = {name: (low, high) for name, low, high in vocabulary.scales}
    for comparison in condition.comparisons:
        parameter = comparison.global_parameter
        if parameter in scales:
            low, high = scales[parameter]
            span = max(1, high - low)
            if comparison.operator in (">=", ">"):
                at_least[parameter] = (comparison.value - low) / span
            elif comparison.operator in ("<=", "<"):
                at_most[parameter] = (high - comparison.value) / span
            else:
                other += 1
        elif all(term.kind == "tags" for term in comparison.quantity.terms) and comparison.operator in (">=", ">"):
            tags += comparison.value
        else:
            other += 1
    other += len(condition.alternatives)
    return at_least, at_most, tags, other

