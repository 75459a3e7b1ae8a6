"""Evaluating quantities and conditions against a game: "jovian tags", "cities on mars", "oxygen >= 9%".

Each `Measure.kind` compiled by compiler/quantities.py has one counter here. A `Scope` tells whose things count
and which card "here" and "adjacent" refer to. Interface: `Where`, `quantity`, `holds`, `failing`, `count`,
`tag_counts`, `tags_of`, `players_in_scope`, `OPERATORS`, and `card_matches`, the one reading of a card filter
(counted here, and read by the triggers and the card verbs: a rules check, nothing here changes the state).
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Optional

import attrs

from tharsis.compiler.effects import (
    Condition,
    EventsTags,
    InfluenceBonus,
    Measure,
    Quantity,
    TagCountsAs,
)
from tharsis.compiler.vocabulary import ANY_TILE, CITY_TILES, GLOBAL_RANGES, NAMED, SPECIAL

from ..core.state import RESOURCES
from .card_filters import bears_tag, card_matches, filter_tags
from .passives import passive_cache, passives
from .sites import owned

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["OPERATORS", "Where", "bears_tag", "card_matches", "count", "failing", "holds", "parameter_value",
           "players_in_scope",
           "quantity", "tag_counts", "tags_of"]

OPERATORS = {">=": operator.ge, "<=": operator.le, "==": operator.eq, ">": operator.gt, "<": operator.lt}


@attrs.define(unsafe_hash=True)  # immutable by convention: a frozen class costs 3x more to make
class Where:
    """The point of view of an evaluation: the player, the card `here` refers to, a card being played."""

    player: int
    card: Optional[str] = None       # name of the card in play that "here"/"adjacent" mean
    playing: Optional[str] = None    # an event being played: its tags count while it resolves
    added: int = 0                   # in a `when ... add RESOURCE` trigger: the resources its effect added
    placed: Optional[str] = None     # the space of the tile just placed (`your tiles next to it` in its trigger)


def players_in_scope(game: "Table", where: Where, scope: str):
    if scope == "all":
        return range(len(game.state.players))
    if scope == "opponents":
        return [i for i in range(len(game.state.players)) if i != where.player]
    return (where.player,)


def tags_of(game: "Table", player: int, playing: Optional[str] = None) -> list[str]:
    """Tags in play: corporation and non-event project cards, plus an event while it is being played, and, for a
    player whose events' tags count (`your events' tags count`), the tags of their played events."""
    library = game.library
    tags: list[str] = []
    for card in game.state.players[player].played:
        tags.extend(library[card.name].tags)
    events = _counted_events(game, player)
    for name in events:
        tags.extend(library[name].tags)
    if playing and library[playing].type == "event" and playing not in events:
        tags.extend(library[playing].tags)
    return tags


def _counted_events(game: "Table", player: int) -> list:
    """The played events whose tags count for the player: all of them with `your events' tags count` (Odyssey),
    else none."""
    if passive_cache(game, player)[1].get(EventsTags):
        return game.state.players[player].events
    return []


def count(game: "Table", measure: Measure, where: Where) -> int:
    """The value of one measure, by its kind's counter in `_COUNTERS` (a table: the menu counts at every turn)."""
    counter = _COUNTERS.get(measure.kind)
    if counter is None:
        raise ValueError(f"no counter for measure kind {measure.kind!r}")
    scope = measure.scope
    if scope == "all" or scope == "opponents":
        return counter(game, measure, where, players_in_scope(game, where, scope))
    return counter(game, measure, where, (where.player,))   # `players_in_scope`'s one player, without a call


def _tags(game: "Table", measure: Measure, where: Where, players) -> int:
    """The printed tags of the kind named (of every kind without a name); the wild tags are added once per quantity
    by `_wild`, not here: one wild tag is one tag of its owner's choice, not one of every kind."""
    name, playing, total = measure.name, where.playing, 0
    for p in players:
        counts = tag_counts(game, p)
        total += counts[None] if name is None else counts.get(name, 0)
        if playing and p == where.player and game.library[playing].type == "event" and \
                playing not in _counted_events(game, p):
            tags = game.library[playing].tags
            total += len(tags) if name is None else tags.count(name) + _counted_as(game, p, tags, name)
    return total


def _counted_as(game: "Table", player: int, tags, name: str) -> int:
    """The tags among `tags` that count as `name` for the player by a `mars tags count as science tags` of theirs."""
    total = 0
    for counted in passives(game, player, TagCountsAs):
        if counted.as_tag == name:
            total += tags.count(counted.tag)
    return total


def _wild(game: "Table", measure: Measure, where: Where) -> int:
    """The wild tags a tag count may add: the evaluating player's own (never an opponent's: the printed text
    makes it a tag of its owner's choice during their own actions), when the measure was compiled to take them
    (not at scoring, in awards or in what the game itself carries out: the compiler leaves `wild_tags` empty)."""
    if measure.kind != "tags" or not measure.wild_tags or measure.name is None or measure.scope == "opponents":
        return 0
    counts = tag_counts(game, where.player)
    return sum(counts.get(tag, 0) for tag in measure.wild_tags)


def tag_counts(game: "Table", player: int) -> dict:
    """The player's tags in play, counted by tag (and all of them under None). Cards in play never lose their
    tags, so the count is cached with the player's passives and renewed when a card enters play."""
    cache = passive_cache(game, player)
    derived = cache[2]
    counts = derived.get("tags")
    # a player whose events' tags count: the events played since the count was made (they join no play area,
    # so the cache of the cards in play does not see them) make it afresh
    events = len(game.state.players[player].events) if cache[1].get(EventsTags) else -1
    if counts is None or derived.get("tags_events", -1) != events:
        tags = tags_of(game, player)
        counts = derived["tags"] = {None: len(tags)}
        derived["tags_events"] = events
        for tag in tags:
            counts[tag] = counts.get(tag, 0) + 1
        # `mars tags count as science tags`: the printed tags of one kind added to another's count (the total stays
        # the printed one); read from the printed counts, so two such passives never chain
        for counted in passives(game, player, TagCountsAs):
            extra = tags.count(counted.tag)
            if extra:
                counts[counted.as_tag] = counts.get(counted.as_tag, 0) + extra
    return counts


def _tiles(game: "Table", measure: Measure, where: Where, players) -> int:
    state, board = game.state, game.board
    if measure.kind == "adjacent_tiles":
        card = state.players[where.player].card(where.card) if where.card else None
        if card is None or card.tile is None:
            return 0
        spaces = board.neighbours[card.tile]
        owners = None
    else:
        owners = None if measure.scope == "all" else set(players)
        if measure.name == NAMED:   # `named tiles`: every tile with a name (special tiles, named cities)
            spaces = list(state.tiles)
        elif not (measure.on_mars or measure.off_mars or measure.rows or measure.next_to or measure.mark):  # no board
            # one loop, `_tile_matches` written out: a call for each tile on Mars cost more than the count (the
            # milestones and awards count tiles whenever the menu checks them)
            name, total = measure.name, 0
            every, city = name is None or name == ANY_TILE, name in CITY_TILES
            for tile in state.tiles.values():
                if (owners is None or tile.owner in owners) and \
                        (every or (tile.is_city if city else tile.kind == name)):
                    total += 1
            if state.covered and not every:   # a tile under another counts as its kind (a space counts once)
                total += sum(1 for tile in state.covered.values() if (owners is None or tile.owner in owners) and
                             (tile.is_city if city else tile.kind == name))
            return total
        else:
            spaces = list(state.tiles)
    total = 0
    covered = state.covered
    for space_id in spaces:
        tile = state.tiles.get(space_id)
        if tile is None:
            continue
        if not _tile_matches(tile, measure.name):
            tile = covered.get(space_id) if covered else None   # the tile under it, when that one counts
            if tile is None or not _tile_matches(tile, measure.name):
                continue
        if owners is not None and tile.owner not in owners:
            continue
        if measure.mark is not None and not tile.marked(measure.mark):   # `cities with cathedral`
            continue
        space = board.spaces[space_id]
        if measure.on_mars and not space.on_mars:
            continue
        if measure.off_mars and space.on_mars:   # `cities off mars`: Phobos Space Haven's, a reserved off-board one
            continue
        if measure.rows and not (space.on_mars and measure.rows[0] <= space.row <= measure.rows[1]):
            continue
        if measure.next_to and not any(
                _tile_matches(state.tiles[n], measure.next_to) or (n in covered and _tile_matches(covered[n],
                                                                                                  measure.next_to))
                for n in board.neighbours[space_id] if n in state.tiles):
            continue
        total += 1
    return total


def _placed_tiles(game: "Table", measure: Measure, where: Where, players) -> int:
    """`[your | opponent] TILES next to it`: the tiles around the tile that set off a placement trigger (Philares:
    one per new adjacency between your tile and an opponent's). `opponent`: any owner but the player, the solo
    game's neutral tiles included, never an ocean (nobody's); none where no tile was placed."""
    if where.placed is None:
        return 0
    tiles, me, scope, covered = game.state.tiles, where.player, measure.scope, game.state.covered
    total = 0
    for n in game.board.neighbours[where.placed]:
        tile = tiles.get(n)
        if tile is not None and not _tile_matches(tile, measure.name):
            tile = covered.get(n)   # the tile under it, when that one counts
        if tile is None or not _tile_matches(tile, measure.name):
            continue
        if (scope == "you" and tile.owner != me) or (scope == "opponents" and (tile.owner is None or tile.owner == me)):
            continue
        total += 1
    return total


def _cards(game: "Table", measure: Measure, where: Where, players) -> int:
    state, library = game.state, game.library
    total = 0
    in_play = measure.in_play
    for p in players:
        for card in state.players[p].played:
            definition = library[card.name]
            if definition.kind != "card" and not in_play:   # `cards in play`: the corporation too
                continue
            if measure.names and definition.type not in measure.names:
                continue
            if measure.with_requirements and definition.requirements is None:
                continue
            if measure.min_cost is not None and definition.cost < measure.min_cost:
                continue
            if measure.no_tags and filter_tags(definition):
                continue
            if measure.cards is not None and not card_matches(definition, measure.cards):
                continue
            total += 1
        if not in_play and (not measure.names or "event" in measure.names):
            total += sum(1 for name in state.players[p].events if _event_matches(library[name], measure))
    return total


def _resource_here(game: "Table", measure: Measure, where: Where, players) -> int:
    card = game.state.players[where.player].card(where.card) if where.card else None
    return card.resources if card else 0


def _card_resources(game: "Table", measure: Measure, players) -> int:
    """Card resources on the players' cards in play: of the type named (`animals on cards`), or of every type."""
    states, library, name, total = game.state.players, game.library, measure.name, 0
    for p in players:
        for card in states[p].played:
            if card.resources and (name is None or library[card.name].holds == name):
                total += card.resources
    return total


def _event_kind(game: "Table", player: int) -> int:
    """The event tag as one more kind of tag in `distinct tags`, for a player whose events' tags count and who has
    played one (the reference engine's Odyssey: its events are face up, the event tag among their tags)."""
    return int(bool(_counted_events(game, player)))


def _distinct_resources(game: "Table", measure: Measure, where: Where, players) -> int:
    """The kinds of resource the player has: standard resources in stock and card resources on cards (one each)."""
    state, library = game.state.players[where.player], game.library
    held = {library[card.name].holds for card in state.played if card.resources}
    return sum(1 for amount in state.resources.values() if amount > 0) + len(held - {None})


def _raised_productions(game: "Table", measure: Measure, where: Where, players) -> int:
    player = game.state.players[where.player]
    return sum(1 for r in RESOURCES if player.production[r] > player.starting_production)


# The counters that add up one reading of each player's state over the players in scope, each written out as a
# plain loop: a generator, or a reading function called for each player, costs more than the reading on this hot
# path (the menu counts stocks, TR and hands at every turn).

def _stock(game: "Table", measure: Measure, where: Where, players) -> int:
    states, name, total = game.state.players, measure.name, 0
    for p in players:
        total += states[p].resources[name]
    return total


def _production(game: "Table", measure: Measure, where: Where, players) -> int:
    states, name, total = game.state.players, measure.name, 0
    for p in players:
        total += states[p].production[name]
    return total


def _tr(game: "Table", measure: Measure, where: Where, players) -> int:
    states, total = game.state.players, 0
    for p in players:
        total += states[p].tr
    return total


def _tr_raised(game: "Table", measure: Measure, where: Where, players) -> int:
    states, total = game.state.players, 0
    for p in players:
        total += states[p].tr_raised_this_generation
    return total


def _removed(game: "Table", measure: Measure, where: Where, players) -> int:
    """Resources of a kind (every kind: no name) the players removed from other players this generation."""
    states, name, total = game.state.players, measure.name, 0
    for p in players:
        removed = states[p].removed_this_generation
        if removed:
            total += removed.get(name, 0) if name is not None else sum(removed.values())
    return total


def _passed(game: "Table", measure: Measure, where: Where, players) -> int:
    """The players (of the measure's scope: all, or the opponents) who have passed this generation."""
    states, total = game.state.players, 0
    for p in players:
        if states[p].passed:
            total += 1
    return total


def _cards_in_hand(game: "Table", measure: Measure, where: Where, players) -> int:
    states, total = game.state.players, 0
    for p in players:
        total += len(states[p].hand)
    return total


def _events_played(game: "Table", measure: Measure, where: Where, players) -> int:
    states, total = game.state.players, 0
    for p in players:
        total += len(states[p].events)
    return total


_COUNTERS = {
    "tags": _tags,
    "distinct_tags": lambda game, m, where, players: len(set(tags_of(game, where.player, where.playing)) -
                                                         set(m.wild_tags)) + _event_kind(game, where.player),
    "distinct_resources": _distinct_resources,
    "resource_here": _resource_here,
    "card_resources": lambda game, m, where, players: _card_resources(game, m, players),
    "tiles": _tiles,
    "adjacent_tiles": _tiles,
    "placed_tiles": _placed_tiles,
    "stock": _stock,
    "production": _production,
    "highest_production": lambda game, m, where, players: max(game.state.players[where.player].production.values()),
    "raised_productions": _raised_productions,
    "tr": _tr,
    "tr_raised": _tr_raised,
    "removed": _removed,
    "cards_in_hand": _cards_in_hand,
    "passed": _passed,
    "events_played": _events_played,
    "cards": _cards,
    "parameter": lambda game, m, where, players: parameter_value(game.state, m.name),
    "constant": lambda game, m, where, players: m.value,
    "influence": lambda game, m, where, players: _influence(game, where.player),
    "role": lambda game, m, where, players: int(_government(game) is not None and
                                                game.state.government.role == where.player),
    "factions_led": lambda game, m, where, players: sum(
        1 for f in _factions(game) if f.leader == where.player),
    "leader": lambda game, m, where, players: int(_faction(game, m) is not None and
                                                  _faction(game, m).leader == where.player),
    "pieces_in": lambda game, m, where, players: _pieces_in(game, m, where.player),
    "factions_with": lambda game, m, where, players: sum(1 for f in _factions(game) if where.player in f.pieces),
    "used": lambda game, m, where, players: game.state.players[where.player].actions_used.count(m.name),
    "empty_spaces": lambda game, m, where, players: _empty_spaces(game, where.player),
    "adjacent_empty": lambda game, m, where, players: _adjacent_empty(game, where),
    "ruling": lambda game, m, where, players: int(_government(game) is not None and
                                                  game.state.government.ruling == m.faction),
    "pieces": lambda game, m, where, players: owned(game, players, m.piece),
    "players": lambda game, m, where, players: len(game.state.players),
    "generation": lambda game, m, where, players: game.state.generation,
    "added": lambda game, m, where, players: where.added,
}


def _adjacent_empty(game: "Table", where: Where) -> int:
    """`adjacent empty spaces`: the spaces with no tile around this card's tile (Red City: "1 VP for every empty
    space next to this tile"; the reference engine counts a neighbour with no tile); none before it is placed."""
    card = game.state.players[where.player].card(where.card) if where.card else None
    if card is None or card.tile is None:
        return 0
    tiles = game.state.tiles
    return sum(1 for n in game.board.neighbours[card.tile] if n not in tiles)


def _empty_spaces(game: "Table", player: int) -> int:
    """The spaces of Mars with no tile next to at least one tile of the player's, each counted once."""
    tiles, board = game.state.tiles, game.board
    near = set()
    for sid, tile in tiles.items():
        if tile.owner == player:
            near.update(n for n in board.neighbours[sid] if n not in tiles and board.spaces[n].on_mars)
    return len(near)


def _government(game: "Table"):
    return game.state.government


def _factions(game: "Table") -> list:
    government = game.state.government
    return government.factions if government is not None else []


def _faction(game: "Table", m: Measure):
    """The faction a measure names: by its name, or the ruling or the dominant one (None without a government)."""
    government = game.state.government
    if government is None:
        return None
    name = m.faction if m.faction is not None else (government.ruling if m.which == "ruling" else government.dominant)
    return government.faction(name)


def _pieces_in(game: "Table", m: Measure, player: int) -> int:
    """The player's pieces in a faction; `besides leader`: less the one that leads it."""
    faction = _faction(game, m)
    if faction is None:
        return 0
    count = faction.count(player)
    return count - 1 if m.besides_leader and count and faction.leader == player else count


def _influence(game: "Table", player: int) -> int:
    """The government's count of the player's influence, and their `influence +N` modifiers."""
    declared = game.elements.government
    if declared is None or game.state.government is None:
        return 0
    counted = quantity(game, declared.influence, Where(player)) if declared.influence is not None else 0
    return counted + sum(bonus.amount for bonus in passives(game, player, InfluenceBonus))


def parameter_value(state, name: str) -> int:
    """A global parameter's value now (the printed three, or a declared one in play)."""
    if name == "temperature":
        return state.temperature
    if name == "oxygen":
        return state.oxygen
    if name == "oceans":
        return state.oceans
    value = state.parameters.get(name)
    if value is None:  # a parameter of an expansion not in play: never reached, so no requirement on it holds
        return -(1 << 30)
    return value


def _event_matches(definition, measure: Measure) -> bool:
    if measure.cards is not None and not card_matches(definition, measure.cards):
        return False
    if measure.with_requirements and definition.requirements is None:
        return False
    if measure.no_tags and filter_tags(definition):
        return False
    return measure.min_cost is None or definition.cost >= measure.min_cost


def _tile_matches(tile, wanted: Optional[str]) -> bool:
    if wanted is None or wanted == ANY_TILE:
        return True
    if wanted in CITY_TILES:
        return tile.is_city
    if wanted == NAMED:   # `named tiles`: a special tile, or a city placed with a name (Capital)
        return tile.kind == SPECIAL or tile.name is not None
    return tile.kind == wanted


def quantity(game: "Table", q: Quantity, where: Where) -> int:
    """The sum of the terms, each capped at its `max`; with a term subtracted, never below 0. The player's wild
    tags are counted once in the whole sum (`per space tag + earth tag`: one wild tag is one tag, not two)."""
    terms = q.terms
    if len(terms) == 1:   # nearly every quantity: one term, no cap, no wild tags (`_split`'s fast path, written out:
        term = terms[0]   # requirements, awards, milestones and X ranges count at every turn)
        if term.cap is None and not term.wild_tags and term.cap_by is None:
            return count(game, term, where)
    raw, wild = _split(game, q, where)
    return raw + wild


def _split(game: "Table", q: Quantity, where: Where) -> tuple[int, int]:
    """The quantity without the wild tags, and the wild tags it may add (0 for most quantities)."""
    terms = q.terms
    if len(terms) == 1 and terms[0].cap is None and terms[0].cap_by is None:  # nearly every quantity: no loop
        m = terms[0]
        return count(game, m, where), (_wild(game, m, where) if m.wild_tags else 0)
    total, floored, wild, wild_used = 0, False, 0, False
    for m in terms:
        value = count(game, m, where)
        if m.cap_by is not None:   # `earth tags max jovian tags`: the smaller, the wild tags counted once
            shared = _wild(game, m, where) if m.wild_tags and not wild_used and not m.subtract else 0
            value = _smaller(value, count(game, m.cap_by, where), shared, bool(m.cap_by.wild_tags))
            wild_used = wild_used or bool(shared)
        elif m.wild_tags and not wild and not wild_used and not m.subtract:
            wild = _wild(game, m, where)
            if wild and m.cap is not None:  # the wild tag is counted inside this term's cap
                wild = max(0, min(wild, m.cap - value))
        if m.cap is not None and value > m.cap:
            value = m.cap
        if m.subtract:
            total, floored = total - value, True
        else:
            total += value
    return (max(0, total), wild) if floored else (total, wild)


def _smaller(value: int, cap: int, wild: int, cap_counts_wild: bool) -> int:
    """The smaller of two counts, `wild` wild tags each going to one side (a wild tag is one tag of one kind): the
    most the smaller can be, `min(a + w, b + w, (a + b + w) // 2)` when both sides count them ("per
    pair of Earth and Jovian tags": 1 Earth, 1 Jovian and 1 wild tag make 1 pair, not 2)."""
    if not cap_counts_wild:
        return min(value + wild, cap)
    return min(value + wild, cap + wild, (value + cap + wild) // 2)


def holds(game: "Table", condition: Optional[Condition], where: Where, leeway: int = 0) -> bool:
    return failing(game, condition, where, leeway) is None


def failing(game: "Table", condition: Optional[Condition], where: Where, leeway: int = 0):
    """The first comparison that does not hold (with `leeway` steps on global ones), or None; with `or`, the first
    failing comparison of the first group when no group holds."""
    if condition is None:
        return None
    first = _failing(game, condition.comparisons, where, leeway)
    if first is None or not condition.alternatives:
        return first
    for group in condition.alternatives:
        if _failing(game, group, where, leeway) is None:
            return None
    return first


def _failing(game: "Table", comparisons: tuple, where: Where, leeway):
    """The first comparison that does not hold. The player's wild tags are shared among the comparisons of one
    group: each is one tag of their choice, so it fills one missing tag of one comparison (a card needing three
    different tags is not played with one wild tag alone), and is left out where it would break an
    upper limit."""
    spare = None  # the wild tags not yet given to a comparison, counted at the first comparison that has some
    for comparison in comparisons:
        terms = comparison.quantity.terms
        if len(terms) == 1 and terms[0].cap is None and not terms[0].wild_tags:
            value, wild = count(game, terms[0], where), 0   # `_split`'s commonest case, written out: a milestone's
        else:                                               # or a card's requirement, checked at every turn
            value, wild = _split(game, comparison.quantity, where)
        target = comparison.value
        parameter = comparison.global_parameter if leeway else None   # a property that looks at the terms: asked
        if parameter:                                                 # only when there is leeway to give
            steps = leeway if leeway.__class__ is int else leeway.get(parameter, 0) + leeway.get(None, 0)
            step = game.elements.scales.get(parameter, GLOBAL_RANGES.get(parameter, (0, 0, 0)))[2] * steps
            if comparison.operator in (">=", ">"):
                target -= step
            elif comparison.operator in ("<=", "<"):
                target += step
        test = OPERATORS[comparison.operator]
        if test(value, target):
            continue
        if wild:
            if spare is None:
                spare = wild
            needed = next((n for n in range(1, spare + 1) if test(value + n, target)), None)
            if needed is not None:
                spare -= needed
                continue
        return comparison
    return None
