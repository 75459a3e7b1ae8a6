"""Evaluating quantities and conditions against a game: "jovian tags", "cities on mars", "oxygen >= 9%".

Each `Measure.kind` compiled by compiler/quantities.py has one counter here. A `Scope` tells whose things count
and which card "here" and "adjacent" refer to.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Optional

import attrs

from tharsis.compiler.effects import Condition, Measure, Quantity
from tharsis.compiler.vocabulary import GLOBAL_RANGES

from .state import RESOURCES

if TYPE_CHECKING:
    from .game import Game

OPERATORS = {">=": operator.ge, "<=": operator.le, "==": operator.eq, ">": operator.gt, "<": operator.lt}


@attrs.frozen
class Where:
    """The point of view of an evaluation: the player, the card `here` refers to, a card being played."""

    player: int
    card: Optional[str] = None       # name of the card in play that "here"/"adjacent" mean
    playing: Optional[str] = None    # an event being played: its tags count while it resolves


def players_in_scope(game: "Game", where: Where, scope: str) -> list[int]:
    count = len(game.state.players)
    if scope == "all":
        return list(range(count))
    if scope == "opponents":
        return [i for i in range(count) if i != where.player]
    return [where.player]


def tags_of(game: "Game", player: int, playing: Optional[str] = None) -> list[str]:
    """Tags in play: corporation and non-event project cards, plus an event while it is being played."""
    library = game.library
    tags: list[str] = []
    for card in game.state.players[player].played:
        tags.extend(library[card.name].tags)
    if playing and library[playing].type == "event":
        tags.extend(library[playing].tags)
    return tags


def count(game: "Game", measure: Measure, where: Where) -> int:
    state, library = game.state, game.library
    kind = measure.kind
    scope_players = players_in_scope(game, where, measure.scope)
    if kind == "tags":
        total = 0
        for p in scope_players:
            tags = tags_of(game, p, where.playing if p == where.player else None)
            total += len(tags) if measure.name is None else tags.count(measure.name)
        return total
    if kind == "distinct_tags":
        return len(set(tags_of(game, where.player, where.playing)))
    if kind == "resource_here":
        card = state.players[where.player].card(where.card) if where.card else None
        return card.resources if card else 0
    if kind == "card_resources":
        return sum(c.resources for p in scope_players for c in state.players[p].played)
    if kind in ("tiles", "adjacent_tiles"):
        board = game.board
        if kind == "adjacent_tiles":
            card = state.players[where.player].card(where.card) if where.card else None
            if card is None or card.tile is None:
                return 0
            spaces = board.neighbours[card.tile]
            owners = None
        else:
            spaces = list(state.tiles)
            owners = None if measure.scope == "all" else set(scope_players)
        total = 0
        for space_id in spaces:
            tile = state.tiles.get(space_id)
            if tile is None or not _tile_matches(tile, measure.name):
                continue
            if owners is not None and tile.owner not in owners:
                continue
            space = board.spaces[space_id]
            if measure.on_mars and not space.on_mars:
                continue
            if measure.rows and not (space.on_mars and measure.rows[0] <= space.row <= measure.rows[1]):
                continue
            if measure.next_to and not any(
                    _tile_matches(state.tiles[n], measure.next_to) for n in board.neighbours[space_id]
                    if n in state.tiles):
                continue
            total += 1
        return total
    if kind == "stock":
        return sum(state.players[p].resources[measure.name] for p in scope_players)
    if kind == "production":
        return sum(state.players[p].production[measure.name] for p in scope_players)
    if kind == "highest_production":
        return max(state.players[where.player].production.values())
    if kind == "raised_productions":
        player = state.players[where.player]
        return sum(1 for r in RESOURCES if player.production[r] > player.starting_production)
    if kind == "tr":
        return sum(state.players[p].tr for p in scope_players)
    if kind == "tr_raised":
        return sum(state.players[p].tr_raised_this_generation for p in scope_players)
    if kind == "cards_in_hand":
        return sum(len(state.players[p].hand) for p in scope_players)
    if kind == "events_played":
        return sum(len(state.players[p].events) for p in scope_players)
    if kind == "cards":
        total = 0
        for p in scope_players:
            for card in state.players[p].played:
                definition = library[card.name]
                if definition.kind != "card":
                    continue
                if measure.names and definition.type not in measure.names:
                    continue
                if measure.with_requirements and definition.requirements is None:
                    continue
                if measure.min_cost is not None and definition.cost < measure.min_cost:
                    continue
                total += 1
            if not measure.names or "event" in measure.names:
                total += sum(1 for name in state.players[p].events
                             if _event_matches(library[name], measure))
        return total
    if kind == "parameter":
        return {"temperature": state.temperature, "oxygen": state.oxygen, "oceans": state.oceans}[measure.name]
    raise ValueError(f"no counter for measure kind {kind!r}")


def _event_matches(definition, measure: Measure) -> bool:
    if measure.with_requirements and definition.requirements is None:
        return False
    return measure.min_cost is None or definition.cost >= measure.min_cost


def _tile_matches(tile, wanted: Optional[str]) -> bool:
    if wanted in (None, "tile"):
        return True
    if wanted == "city":
        return tile.is_city
    return tile.kind == wanted


def quantity(game: "Game", q: Quantity, where: Where) -> int:
    return sum(count(game, m, where) for m in q.terms)


def holds(game: "Game", condition: Optional[Condition], where: Where, leeway: int = 0) -> bool:
    return failing(game, condition, where, leeway) is None


def failing(game: "Game", condition: Optional[Condition], where: Where, leeway: int = 0):
    """The first comparison that does not hold (with `leeway` steps on global ones), or None."""
    if condition is None:
        return None
    for comparison in condition.comparisons:
        value = quantity(game, comparison.quantity, where)
        target = comparison.value
        parameter = comparison.global_parameter
        if parameter and leeway:
            step = GLOBAL_RANGES[parameter][2] * leeway
            if comparison.operator in (">=", ">"):
                target -= step
            elif comparison.operator in ("<=", "<"):
                target += step
        if not OPERATORS[comparison.operator](value, target):
            return comparison
    return None
