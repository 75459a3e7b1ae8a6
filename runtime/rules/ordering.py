"""Whether the order of a played card's steps can matter (RULES.md 4A): a rules check for the order question.

A card's effects and the player's own triggers it sets off are carried out in the order its player chooses; the
question is worth asking only when one step can change what another can do or gives. Each step is read as what it
reads (a stock it spends, a production it lowers, a count its amount is `per`, a condition, the tiles a placement
looks at, the deck a look takes from) and what it writes (a stock, a production, the board, the hand, the cards'
resources); two steps are independent when neither writes what the other reads. A step whose effects are not
described here, or that fires triggers of the players' (a placement, a raise that a trigger in play answers), reads
and writes everything: the question is then asked as before. Interface: `order_matters(game, steps)`.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from tharsis.compiler import effects as fx
from tharsis.compiler.vocabulary import TILE_RAISES

from .measures import parameter_value
from .passives import triggers_on

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["order_matters"]

EVERYTHING = ("*",)
_ANY = None  # a name in a token that stands for every name of its kind: ("production", None) is every production

# what each kind of measure reads (the scope's other players add OTHERS)
_MEASURE_READS = {
    "tags": ("played",), "distinct_tags": ("played",), "cards": ("played",), "events_played": ("played",),
    "tiles": ("tiles",), "adjacent_tiles": ("tiles",), "empty_spaces": ("tiles",), "adjacent_empty": ("tiles",),
    "resource_here": ("cards",), "card_resources": ("cards",),
    "tr": ("tr",), "tr_raised": ("tr",), "cards_in_hand": ("hand",),
    "highest_production": ("production", _ANY), "raised_productions": ("production", _ANY),
    "constant": None, "players": None, "generation": None,
}
OTHERS = ("others",)


def order_matters(game: "Table", steps) -> bool:
    """Whether some two of `steps` (a card's effects as `effect_steps` groups them, and triggered steps
    `(CARD, effect, ...)`) depend on each other: one writes what the other reads."""
    described = [_step(game, step) for step in steps]
    return any(_depends(a, b) or _depends(b, a) for a, b in combinations(described, 2))


def _depends(first: tuple[set, set], then: tuple[set, set]) -> bool:
    """Whether `then` reads something `first` writes (a wildcard name, or EVERYTHING, matches)."""
    writes, reads = first[1], then[0]
    if not writes or not reads:
        return False
    if EVERYTHING in writes or EVERYTHING in reads:
        return True
    for token in reads:
        if token in writes:
            return True
        if len(token) == 2 and ((token[0], _ANY) in writes or (token[1] is _ANY and
                                                             any(w[0] == token[0] for w in writes))):
            return True
    return False


def _step(game: "Table", step: tuple) -> tuple[set, set]:
    effects = step[1:] if step and step[0].__class__ is str else step
    reads: set = set()
    writes: set = set()
    for e in effects:
        _effect(game, e, reads, writes)
    return reads, writes


def _everything(reads: set, writes: set) -> None:
    reads.add(EVERYTHING)
    writes.add(EVERYTHING)


def _quantity(q, reads: set) -> None:
    if q is None:
        return
    for m in q.terms:
        token = _MEASURE_READS.get(m.kind, EVERYTHING) if m.kind not in ("stock", "production", "parameter") \
            else (m.kind if m.kind != "parameter" else "param", m.name)
        if token is not None:
            reads.add(token)
        if m.scope in ("all", "opponents"):
            reads.add(OTHERS)


def _amount(a, reads: set) -> None:
    if a is not None and a.per is not None:
        _quantity(a.per, reads)


def _condition(c, reads: set) -> None:
    if c is None:
        return
    for group in (c.comparisons,) + tuple(c.alternatives):
        for comparison in group:
            quantity = getattr(comparison, "quantity", None)
            if quantity is None:
                reads.add(EVERYTHING)  # a ruling party, or another comparison not on a quantity
            else:
                _quantity(quantity, reads)


def _answered(game: "Table", event: str) -> bool:
    """Whether some player has a trigger in play that this kind of event fires (it may then do anything)."""
    return any(triggers_on(game, p, event) for p in range(len(game.state.players)))


def _effect(game: "Table", e, reads: set, writes: set) -> None:
    describe = _DESCRIBED.get(type(e))
    if describe is None:  # a placement (its bonuses and triggers), a look at the deck, a play from hand, ...
        _everything(reads, writes)
    else:
        describe(game, e, reads, writes)


def _inner(game: "Table", effects: tuple, reads: set, writes: set) -> None:
    for effect in effects:
        _effect(game, effect, reads, writes)


def _gain(game: "Table", e, reads: set, writes: set) -> None:
    _amount(e.amount, reads)
    writes.add(("stock", e.resource))


def _lose(game: "Table", e, reads: set, writes: set) -> None:
    _amount(e.amount, reads)
    reads.add(("stock", e.resource))
    writes.add(("stock", e.resource))
    if type(e) is fx.Spend and game.elements.heat_payments:  # heat may come from cards
        reads.add(("cards",))
        writes.add(("cards",))


def _pay(game: "Table", e, reads: set, writes: set) -> None:
    _amount(e.amount, reads)
    reads.update((("stock", _ANY), ("cards",)))
    writes.update((("stock", _ANY), ("cards",)))


def _production(game: "Table", e, reads: set, writes: set) -> None:
    for change in e.changes:
        _amount(change.amount, reads)
        if change.resource in ("bonus", "lowest"):
            reads.update((("production", _ANY), ("tiles",)))
            writes.add(("production", _ANY))
        else:
            writes.add(("production", change.resource))
            if change.amount.coefficient < 0:
                reads.add(("production", change.resource))
                continue
        if _answered(game, "production_raise"):  # a raise a trigger in play answers
            _everything(reads, writes)


def _parameter(game: "Table", e, reads: set, writes: set) -> None:
    _amount(e.amount, reads)
    _raise(game, e.parameter, reads, writes, set())


def _raise(game: "Table", parameter: str, reads: set, writes: set, seen: set) -> None:
    """A raise of `parameter`: the TR it gives (and its tax), whether it is maxed, the track bonuses still ahead
    on its scale (a production, a card, another raise, a tile), and anything when a trigger in play answers it."""
    writes.add(("tr",))
    if game.elements.government is not None:  # a tax on TR may be due
        reads.add(("stock", _ANY))
        writes.add(("stock", _ANY))
    if _answered(game, "raise"):
        _everything(reads, writes)
        return
    if parameter == "tr" or parameter in seen:
        return
    seen.add(parameter)
    reads.add(("param", parameter))
    writes.add(("param", parameter))
    value = parameter_value(game.state, parameter)
    for track in game.board.board.tracks:
        if track.parameter == parameter and track.value > value:
            for effect in track.effects:
                if type(effect) is fx.ChangeParameter:
                    _raise(game, effect.parameter, reads, writes, seen)
                else:
                    _effect(game, effect, reads, writes)


def _place(game: "Table", e, reads: set, writes: set) -> None:
    """A tile placed: the spaces free, what its space and its neighbours give (resources, cards, MC), the
    parameter it raises; anything when a trigger in play answers placements."""
    if _answered(game, "place"):
        _everything(reads, writes)
        return
    reads.update((("tiles",), ("stock", "megacredits")))  # a space may cost megacredits (Hellas' south pole)
    writes.update((("tiles",), ("stock", _ANY), ("hand",), ("deck", "draw")))
    if e.tile in TILE_RAISES:
        _raise(game, TILE_RAISES[e.tile], reads, writes, set())


def _draw(game: "Table", e, reads: set, writes: set) -> None:
    _amount(e.amount, reads)
    writes.update((("hand",), ("deck", "draw")))  # draws after draws: the same cards to the same hand


def _space_bonus(game: "Table", e, reads: set, writes: set) -> None:
    """`gain 1 more space bonus`: a stock, or a card drawn; it reads the space of a tile already placed."""
    writes.update((("stock", _ANY), ("hand",), ("deck", "draw")))


def _discard(game: "Table", e, reads: set, writes: set) -> None:
    _amount(e.amount, reads)
    reads.add(("hand",))
    writes.add(("hand",))


def _add(game: "Table", e, reads: set, writes: set) -> None:
    _amount(e.amount, reads)
    # the cards that may take them: those in play (no step changes which), or those already holding some
    reads.add(("cards",) if e.target in ("any_card_with_resources", "each_card_with_resources") else ("played",))
    writes.add(("cards",))
    if _answered(game, "add_resource"):
        _everything(reads, writes)


def _remove(game: "Table", e, reads: set, writes: set) -> None:
    """From this card or another of the player's (its resources), from any card (another player's too), or from
    any player's stock (never the player's own: a removal's red border)."""
    _amount(e.amount, reads)
    if e.source != "any_player" and e.source != "each_opponent":
        reads.add(("cards",))
        writes.add(("cards",))
    if e.source not in ("here", "your_card"):
        reads.add(OTHERS)
        writes.add(OTHERS)
    if e.next_to_placed:
        reads.add(("tiles",))


def _any_production(game: "Table", e, reads: set, writes: set) -> None:
    """A decrease of any player's production, the player's own included: the productions it lowers."""
    for change in e.changes:
        _amount(change.amount, reads)
        reads.add(("production", change.resource))
        writes.add(("production", change.resource))
    reads.add(OTHERS)
    writes.add(OTHERS)


def _steal(game: "Table", e, reads: set, writes: set) -> None:
    _amount(e.amount, reads)
    reads.add(OTHERS)
    writes.update((OTHERS, ("stock", e.resource)))


_DESCRIBED = {
    fx.Gain: _gain,
    fx.Lose: _lose,
    fx.Spend: _lose,
    fx.Pay: _pay,
    fx.Production: _production,
    fx.ChangeParameter: _parameter,
    fx.PlaceTile: _place,
    fx.Draw: _draw,
    fx.GainSpaceBonus: _space_bonus,
    fx.Discard: _discard,
    fx.AddResources: _add,
    fx.RemoveResources: _remove,
    fx.Steal: _steal,
    fx.AnyProduction: _any_production,
    fx.Choice: lambda game, e, reads, writes: [_inner(game, option, reads, writes) for option in e.options],
    fx.Conditional: lambda game, e, reads, writes: (_condition(e.condition, reads),
                                                    _inner(game, e.then + e.otherwise, reads, writes)),
    fx.ChooseX: lambda game, e, reads, writes: (_quantity(e.maximum, reads), _inner(game, e.body, reads, writes)),
    fx.May: lambda game, e, reads, writes: _inner(game, e.body, reads, writes),
    fx.IfYouCan: lambda game, e, reads, writes: _inner(game, e.body, reads, writes),
    # who decides changes nothing the block reads or writes (its effects are the player's)
    fx.DecidedBy: lambda game, e, reads, writes: _inner(game, e.body, reads, writes),
    fx.Require: lambda game, e, reads, writes: _condition(e.condition, reads),
    fx.Nothing: lambda game, e, reads, writes: None,
}
