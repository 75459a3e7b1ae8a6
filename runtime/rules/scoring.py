"""Final scoring (RULES.md section 6): TR, milestones, awards, greeneries, cities, card VP; ties by megacredits.

Interface: `final_scores` (the result), `award_points`, `card_points`. A rules check: it reads the state only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tharsis.compiler.vocabulary import GREENERY_TILES

from .measures import Where, holds, quantity
from .spaces import terraformed

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["AWARD_VP", "MILESTONE_VP", "award_points", "card_points", "final_scores", "government_points"]

MILESTONE_VP = 5
AWARD_VP = (5, 2)


def award_points(game: "Table") -> dict[int, dict[str, int]]:
    """Points per player per funded award: ties for 1st all get 5 and no 2nd; no 2nd place with two players."""
    count = len(game.state.players)
    result: dict[int, dict[str, int]] = {i: {} for i in range(count)}
    for name, _funder in game.state.awards:
        measure = game.awards[name].measure
        values = {i: quantity(game, measure, Where(i)) for i in range(count)}
        best = max(values.values())
        first = [i for i, v in values.items() if v == best]
        for i in first:
            result[i][name] = AWARD_VP[0]
        if len(first) == 1 and count > 2:
            rest = [v for i, v in values.items() if i not in first]
            if rest:
                second_value = max(rest)
                for i, v in values.items():
                    if v == second_value and i not in first:
                        result[i][name] = AWARD_VP[1]
    return result


def government_points(game: "Table", index: int) -> int:
    """The victory points the declared government gives a player at the end (`vp: 1 per chair + factions you
    lead`), 0 without one."""
    declared = game.elements.government
    if declared is None or declared.vp is None or game.state.government is None:
        return 0
    return _points(game, declared.vp, Where(index))


def _points(game: "Table", vp, where: Where) -> int:
    if vp.scorers is not None:   # its owner scores only as one of every player, by their own count
        return _scored(game, vp, where, where.player) if vp.scorers == "each player" else 0
    if vp.condition is not None:
        return vp.points if holds(game, vp.condition, where) else 0
    if vp.per is not None:
        return vp.points * (quantity(game, vp.per, where) // vp.divisor)
    return vp.points


def _scored(game: "Table", vp, owner: Where, scorer: int) -> int:
    """What a card whose points go to every player (`vp: each player -1 per your city if animals here >= 10`) gives
    one of them: its condition is the card's, judged from its owner's side; the count is the scorer's own."""
    if vp.condition is not None and not holds(game, vp.condition, owner):
        return 0
    if vp.per is None:
        return vp.points
    return vp.points * (quantity(game, vp.per, Where(scorer, card=owner.card)) // vp.divisor)


def card_points(game: "Table", index: int) -> dict[str, int]:
    """A player's points from cards, by card: their own cards' `vp:`, and what another player's card gives them
    (`vp: each opponent ...`), under that card's name."""
    state = game.state
    player = state.players[index]
    points: dict[str, int] = {}
    names = [c.name for c in player.played] + list(player.events)
    for name in names:
        vp = game.library[name].vp
        if vp is None:
            continue
        value = _points(game, vp, Where(index, card=name))
        if value:
            points[name] = value
    shared = game.elements.shared_vp
    if shared:
        for owner, other in enumerate(state.players):
            if owner == index:
                continue
            for name in [c.name for c in other.played] + list(other.events):
                if name in shared:
                    value = _scored(game, game.library[name].vp, Where(owner, card=name), index)
                    if value:
                        points[name] = points.get(name, 0) + value
    return points


def final_scores(game: "Table") -> dict:
    state, board = game.state, game.board
    awards = award_points(game)
    players = []
    for index, player in enumerate(state.players):
        greeneries = sum(1 for t in state.tiles.values() if t.kind in GREENERY_TILES and t.owner == index)
        cities = 0
        for sid, tile in state.tiles.items():
            if tile.is_city and tile.owner == index:
                cities += sum(1 for n in board.neighbours[sid]
                              if n in state.tiles and state.tiles[n].kind in GREENERY_TILES)
        if state.covered:   # a tile under another still scores as its kind (and is a greenery next to a city)
            greeneries, cities = _covered_points(state, board, index, greeneries, cities)
        cards = card_points(game, index)
        milestones = MILESTONE_VP * sum(1 for _, owner in state.milestones if owner == index)
        breakdown = {
            "tr": player.tr,
            "milestones": milestones,
            "awards": sum(awards[index].values()),
            "greeneries": greeneries,
            "cities": cities,
            "cards": sum(cards.values()),
        }
        if game.elements.government is not None:  # only with a government: other results as before
            breakdown["government"] = government_points(game, index)
        breakdown["total"] = sum(breakdown.values())
        players.append({"name": player.name, **breakdown, "megacredits": player.resources["megacredits"],
                        "award_detail": awards[index], "card_detail": cards})
    ranking = sorted(range(len(players)), key=lambda i: (players[i]["total"], players[i]["megacredits"]),
                     reverse=True)
    top = players[ranking[0]]
    tied = [i for i in ranking if players[i]["total"] == top["total"]]
    result = {"players": players, "winner": top["name"], "tie_break": len(tied) > 1,
              "generations": state.generation}
    shared = [players[i]["name"] for i in tied if players[i]["megacredits"] == top["megacredits"]]
    if len(shared) > 1:  # equal on points and megacredits: the win is shared (RULES.md 6); `winner` stays the first
        result["tied"] = shared
    if game.options.solo:
        if game.options.solo_tr63:
            won = state.players[0].tr >= 63
        else:
            won = terraformed(game)
        result["solo_won"] = won
        result["winner"] = top["name"] if won else None
    return result


def _covered_points(state, board, index: int, greeneries: int, cities: int) -> tuple[int, int]:
    """The greeneries and the cities' greenery points of a player once a tile went on top of another: a tile below
    scores as its kind for its owner, and a space holding a greenery (on top or below) is a greenery next to a
    city; a space with a city of the player's, on top or below, scores its neighbours once."""
    tiles, covered = state.tiles, state.covered

    def greenery(n: str) -> bool:
        return (n in tiles and tiles[n].kind in GREENERY_TILES) or (n in covered and covered[n].kind in GREENERY_TILES)

    greeneries += sum(1 for t in covered.values() if t.kind in GREENERY_TILES and t.owner == index)
    cities = 0
    for sid, tile in tiles.items():
        below = covered.get(sid)
        if (tile.is_city and tile.owner == index) or (below is not None and below.is_city and below.owner == index):
            cities += sum(1 for n in board.neighbours[sid] if greenery(n))
    return greeneries, cities
