"""Where a tile may go, what a space costs, and the global parameters' limits (a rules check).

Interface: `legal_spaces`, `can_place`, `free_spaces`, `affordable`, `space_cost`,
`parameter_value`, `maxed`, `terraformed`. Placement rules (RULES.md section 5): oceans only on ocean spaces,
cities not next to cities and not on reserved spaces, greeneries next to one of your tiles when possible; a card's
filters replace the default rule they speak about (Mangrove's `on ocean`, Urbanized Area's `next to 2 cities`).
Why apart from runtime/handlers/tiles.py: these only answer questions (a space's price is found with the tile put down
provisionally and taken away again); placing the tile and what follows is tiles.py's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Optional

from tharsis.compiler import effects as fx
from tharsis.compiler.vocabulary import (
    ANY_TILE,
    CITY_TILES,
    CLAIM,
    GLOBAL_RANGES,
    GREENERY_TILES,
    LAND,
    NAMED_TILES,
    OCEAN_SPACE,
    OCEAN_TILES,
    SPECIAL,
    VOLCANIC,
)

from ..core.state import Tile
from .measures import Where, holds
from .prices import can_pay

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["affordable", "blocked_spaces", "can_place", "cost_once_placed", "free_spaces", "legal_spaces",
           "markable_tiles", "marker_spaces", "maxed", "next_to_placed", "parameter_value", "placed_meets",
           "replaceable_tiles", "space_cost", "terraformed"]


def legal_spaces(game: "Table", player: int, tile: str, filters: tuple = (), name: Optional[str] = None) -> list[str]:
    board, state = game.board, game.state
    if filters or state.claims or state.markers or game.elements.tile_bans:
        result = list(free_spaces(game, player, tile, filters))
    else:   # `free_spaces` of a plain placement, with no claim, marker or tile ban, as one list: a placement
        tiles = state.tiles   # lists dozens of spaces, and the generator's resumption cost more than each test
        if tile in CITY_TILES:   # not next to another city
            cities, neighbours = {sid for sid, placed in tiles.items() if placed.is_city}, board.neighbours
            result = [s for s in board.open_ids[_space_kind(tile)] if s not in tiles and
                      cities.isdisjoint(neighbours[s])]
        else:
            result = [s for s in board.open_ids[_space_kind(tile)] if s not in tiles]
    if tile in GREENERY_TILES and not filters:
        # the spaces next to the player's tiles, found from those tiles (a few) rather than from every free
        # space's neighbours (dozens): the same spaces, in the free spaces' order
        neighbours = board.neighbours
        near = {n for sid, placed in state.tiles.items() if placed.owner == player for n in neighbours[sid]}
        own = [s for s in result if s in near]
        if own:
            result = own
    # An unaffordable space is still "a free space next to your tiles" (FAQ): price it only now. `affordable`'s
    # first test is written out: most spaces cost nothing extra, and a placement lists dozens of them
    spaces = board.spaces
    return [s for s in result if not spaces[s].extra_cost or affordable(game, player, s, tile)]


def space_cost(game: "Table", player: int, sid: str) -> int:
    """The extra megacredits a space costs now (a board's `costs N if CONDITION` only while it holds)."""
    space = game.board.spaces[sid]
    if not space.extra_cost or (space.cost_condition is not None and
                                not holds(game, space.cost_condition, Where(player))):
        return 0
    return space.extra_cost


def affordable(game: "Table", player: int, sid: str, tile: str) -> bool:
    """Whether the player can pay what the space will cost when `put_tile` charges it (its condition is checked
    once, with the tile down: the 9th ocean on a `costs 6 if oceans <= 8` space is free, so needs no 6 MC)."""
    if not game.board.spaces[sid].extra_cost:
        return True
    cost = cost_once_placed(game, player, sid, tile)
    return not cost or can_pay(game, player, cost)


def cost_once_placed(game: "Table", player: int, sid: str, tile: str) -> int:
    """`space_cost` as `put_tile` will find it, the tile on the space (an ocean out of the supply); the state is
    put back as it was. What a placement's spaces cost, for the checks and for the play view."""
    state = game.state
    ocean = tile in OCEAN_TILES
    under = state.tiles.get(sid)   # a tile placed `on top of` another: put back after
    state.tiles[sid] = Tile(kind=tile, owner=None if ocean else player, is_city=tile in CITY_TILES)
    state.oceans += 1 if ocean else 0
    try:
        return space_cost(game, player, sid)
    finally:
        if under is None:
            del state.tiles[sid]
        else:
            state.tiles[sid] = under
        state.oceans -= 1 if ocean else 0


def next_to_placed(filters: tuple, placed: Optional[str]) -> tuple:
    """A placement's filters with `next to it` made the space it means: next to `placed`, the tile the same effects
    placed just before (no space at all when they placed none: the checker refuses the text where that is known,
    E307). The checks that judge a card before it is played leave `next to it` out (that tile is not down yet)."""
    if not filters or not any(f.kind == "next_to_placed" for f in filters):
        return filters
    return tuple(fx.SpaceFilter("next_to_space", space=placed) if f.kind == "next_to_placed" else f for f in filters)


def free_spaces(game: "Table", player: int, tile: str, filters: tuple) -> Iterator[str]:
    """Spaces where the tile may go by kind, filters, reservations, claims and city spacing. Without filters the
    board's open spaces of the tile's kind are the candidates; a "next to" filter narrows them to the neighbours of
    such tiles first (a few, where the board has dozens)."""
    state, board = game.state, game.board
    kinds = cover = None
    if filters and not board.has_volcanic and any(f.kind == VOLCANIC for f in filters):
        # a board without volcanic spaces: `on volcanic` is any space under the ordinary rules, and an override
        # written for the volcanic space (`ignoring adjacency`) falls with it (Lava Tube Settlement on Hellas)
        filters = tuple(f for f in filters if f.kind not in (VOLCANIC, "ignoring_adjacency"))
    if not filters:
        candidates = board.open_ids[_space_kind(tile)]
    else:
        reserved = next((f.reserved for f in filters if f.kind == "reserved"), None)
        if reserved and reserved in board.reserved_names:
            space = board.reserved_names[reserved]
            if space not in state.tiles:
                yield space
            return
        kinds = {f.kind for f in filters}
        cover = next((f for f in filters if f.kind == "on_tile"), None)
        near = None
        for f in filters:
            if f.kind == "next_to" and f.count >= 1:
                if f.tile == CLAIM:  # `next to your claim`: the spaces around the markers
                    adjacent = {n for s, claimant in state.claims.items() if not f.own or claimant == player
                                for n in board.neighbours[s]}
                else:
                    adjacent = {n for s, placed in state.tiles.items() if _neighbour_counts(f, placed, player)
                                for n in board.neighbours[s]}
                    adjacent.update(n for s, placed in state.covered.items() if _neighbour_counts(f, placed, player)
                                    for n in board.neighbours[s])
                near = adjacent if near is None else near & adjacent
            elif f.kind == "next_to_marker":   # the spaces around that marker (none while it is off the board)
                marker = state.markers.get(f.marker)
                adjacent = set(board.neighbours[marker.space]) if marker is not None else set()
                near = adjacent if near is None else near & adjacent
            elif f.kind == "next_to_space":   # `next to it`: around the tile placed just before (none: nowhere)
                adjacent = set(board.neighbours[f.space]) if f.space is not None else set()
                near = adjacent if near is None else near & adjacent
        candidates = [s.id for s in board.mars if not s.reserved and (near is None or s.id in near)]
    tiles, claims, neighbours = state.tiles, state.claims, board.neighbours
    blocked = blocked_spaces(state) if state.markers else None
    banned = banned_spaces(game, tile) if game.elements.tile_bans else None
    spaced = tile in CITY_TILES and (not filters or not any((f.kind == "next_to" and f.tile in CITY_TILES) or
                                                            f.kind == "ignoring_adjacency" for f in filters))
    cities = {sid for sid, placed in tiles.items() if placed.is_city} if spaced else None
    for sid in candidates:
        if sid in tiles:
            # `on top of TILE`: a space holding such a tile, not covering one already (one tile on another)
            if cover is None or sid in state.covered or not _covers(cover, tiles[sid], player):
                continue
        elif cover is not None:
            continue
        if claims:
            claimant = claims.get(sid)
            if claimant is not None and claimant != player:
                continue
        if blocked and sid in blocked:
            continue
        if banned and sid in banned:
            continue
        if kinds is not None and (not _space_kind_ok(game, board.spaces[sid], tile, kinds) or
                                  not _filters_ok(game, player, sid, filters)):
            continue
        if cities and not cities.isdisjoint(neighbours[sid]):
            continue
        yield sid


def marker_spaces(game: "Table", player: int, filters: tuple) -> list[str]:
    """Where a named marker may go (`place marker`, `move marker`): a free space as a special tile's would be (land
    unless the filters say otherwise; no tile, no reserved space, no other player's claim, no blocking marker), with
    no marker on it, whatever its price (a marker pays nothing)."""
    taken = {m.space for m in game.state.markers.values()}
    return [s for s in free_spaces(game, player, SPECIAL, filters) if s not in taken]


def banned_spaces(game: "Table", tile: str) -> frozenset:
    """The spaces where no tile of this kind may go for a card in play that bans it next to its own tile (`no
    greenery next to this tile`, Red City: whoever places it; the reference engine's greenery spaces leave out the
    spaces next to a Red City tile)."""
    banned = set()
    library, neighbours = game.library, game.board.neighbours
    for player in game.state.players:
        for card in player.played:
            if card.tile is None:
                continue
            for p in library[card.name].passives:
                if type(p) is fx.TileBan and (p.tile == ANY_TILE or p.tile == tile or
                                              (p.tile in CITY_TILES and tile in CITY_TILES)):
                    banned.update(neighbours[card.tile])
    return frozenset(banned)


def blocked_spaces(state) -> frozenset:
    """The spaces where no tile may go for a marker on them (`place marker "Nomad" blocking tiles`)."""
    return frozenset(m.space for m in state.markers.values() if m.blocks)


def _space_kind(tile: str) -> str:
    """The kind of space a tile goes on when no filter says otherwise: oceans on ocean spaces, the rest on land."""
    return OCEAN_SPACE if tile in OCEAN_TILES else LAND


def _space_kind_ok(game: "Table", space, tile: str, kinds: set[str]) -> bool:
    if OCEAN_SPACE in kinds:
        return space.kind == OCEAN_SPACE
    if LAND in kinds or VOLCANIC in kinds:
        if space.kind != LAND:
            return False
        return VOLCANIC not in kinds or space.volcanic or not game.board.has_volcanic
    # on top of a tile: the space is that tile's, whatever its kind (New Holland's city on an ocean space)
    return "on_tile" in kinds or space.kind == _space_kind(tile)


def _covers(f, tile: Tile, player: int) -> bool:
    """Whether a tile on a space is one `on top of [your | opponent] TILE` may cover: its kind and its owner."""
    if (f.own and tile.owner != player) or (f.opponent and (tile.owner is None or tile.owner == player)):
        return False
    return f.tile == ANY_TILE or (f.tile in CITY_TILES and tile.is_city) or tile.kind == f.tile


def _filters_ok(game: "Table", player: int, sid: str, filters: tuple) -> bool:
    state, board = game.state, game.board
    for f in filters:
        if f.kind == "bonus":
            if board.bonus_kinds[sid].isdisjoint(f.bonuses):
                return False
        elif f.kind == "no_bonus":
            if board.bonus_kinds[sid]:
                return False
        elif f.kind == "next_to":
            if _near(game, f, sid, player) < f.count:
                return False
        elif f.kind == "not_next_to":
            if _near(game, f, sid, player):
                return False
        elif f.kind == "isolated":
            if any(n in state.tiles for n in board.neighbours[sid]):
                return False
        elif f.kind == "claim":
            if state.claims.get(sid) != player:
                return False
        elif f.kind == "next_to_marker":
            if not _next_to_marker(game, f, sid):
                return False
        elif f.kind == "next_to_space":
            if f.space is None or sid not in board.neighbours[f.space]:
                return False
    return True


def _next_to_marker(game: "Table", f, sid: str) -> bool:
    marker = game.state.markers.get(f.marker)
    return marker is not None and sid in game.board.neighbours[marker.space]


def placed_meets(game: "Table", owner: int, sid: str, filters: tuple) -> bool:
    """Whether the space a tile has just been put on meets a placement trigger's filters, seen from the trigger's
    owner (`next to your city`: a city of the owner's). The same words as a placement's, read of the tile already
    there: the kind of space as printed (`on volcanic` is a volcanic space, on every board), `on reserved "NAME"`
    the space the board reserves under that name (none on a board without it), `next to` and `isolated` the tiles
    around it now. `ignoring adjacency` never reaches here: it says where a tile may go, and the checker refuses it
    on a trigger (E301)."""
    board, tiles = game.board, game.state.tiles
    space = board.spaces[sid]
    for f in filters:
        kind = f.kind
        if kind == "mars":
            if not space.on_mars:
                return False
        elif kind == "bonus":
            if board.bonus_kinds[sid].isdisjoint(f.bonuses):
                return False
        elif kind == "no_bonus":
            if board.bonus_kinds[sid]:
                return False
        elif kind == LAND:
            if space.kind != LAND:
                return False
        elif kind == OCEAN_SPACE:
            if space.kind != OCEAN_SPACE:
                return False
        elif kind == VOLCANIC:
            if not space.volcanic:
                return False
        elif kind == "reserved":
            if board.reserved_names.get(f.reserved) != sid:
                return False
        elif kind == "next_to":
            if _near(game, f, sid, owner) < f.count:
                return False
        elif kind == "not_next_to":
            if _near(game, f, sid, owner):
                return False
        elif kind == "isolated":
            if any(n in tiles for n in board.neighbours[sid]):
                return False
        elif kind == "claim":
            if tiles[sid].claimed != owner:
                return False
        elif kind == "next_to_marker":
            if not _next_to_marker(game, f, sid):
                return False
    return True


def replaceable_tiles(game: "Table", player: int, effect: fx.ReplaceTile) -> list[str]:
    """The spaces of the player's tiles that `replace your TILE [FILTER ...] with TILE` may pick, in board order:
    on Mars, of the kind named (a city whatever its name; `tile`: any kind), meeting the filters as a placement
    trigger reads them of a tile there (`next to your city`: the player's), not already the new kind, and whose
    space the player can pay for with the new tile on it (a board's `costs N if ...`, as a placement pays it)."""
    state, board = game.state, game.board
    old, new, filters = effect.old, effect.new, effect.filters
    result = []
    for sid in sorted(state.tiles):
        placed = state.tiles[sid]
        if placed.owner != player or not board.spaces[sid].on_mars:
            continue
        if old != ANY_TILE and placed.kind != old and not (old in CITY_TILES and placed.is_city):
            continue
        if placed.kind == new and (new not in NAMED_TILES or placed.name == effect.name):
            continue
        if filters and not placed_meets(game, player, sid, filters):
            continue
        if board.spaces[sid].extra_cost and not _affordable_instead(game, player, sid, placed, new):
            continue
        result.append(sid)
    return result


def markable_tiles(game: "Table", player: int, effect: fx.PutMark) -> list[str]:
    """The spaces of the tiles `put MARK on [your | opponent] TILE [FILTER ...] [max N]` may pick, in board order:
    the tile on top of its space, of the kind named (a city whatever its name; `tile`: any), whose owner the words
    allow (any player's without them), meeting the filters as a placement trigger reads them of a tile there, and
    with room for the mark (`max N`: at most N of it on one tile, those put now included)."""
    state = game.state
    tile_word, mark, most = effect.tile, effect.mark, effect.most
    result = []
    for sid in sorted(state.tiles):
        placed = state.tiles[sid]
        if tile_word != ANY_TILE and placed.kind != tile_word and not (tile_word in CITY_TILES and placed.is_city):
            continue
        if (effect.own and placed.owner != player) or \
                (effect.opponent and (placed.owner is None or placed.owner == player)):
            continue
        if most is not None and placed.marked(mark) + effect.count > most:
            continue
        if effect.filters and not placed_meets(game, player, sid, effect.filters):
            continue
        result.append(sid)
    return result


def _affordable_instead(game: "Table", player: int, sid: str, placed: Tile, new: str) -> bool:
    """Whether the player can pay what the space costs with the new tile in place of `placed` (put back after)."""
    state = game.state
    state.tiles[sid] = Tile(kind=new, owner=player, is_city=new in CITY_TILES)
    try:
        cost = space_cost(game, player, sid)
    finally:
        state.tiles[sid] = placed
    return not cost or can_pay(game, player, cost)


def can_place(game: "Table", player: int, effect: fx.PlaceTile) -> bool:
    if effect.tile in OCEAN_TILES and not any(f.kind == LAND for f in effect.filters):
        return True  # an ocean with none left (or no space) is skipped, never blocks
    if effect.tile in OCEAN_TILES:
        return True
    if effect.tile in GREENERY_TILES and not effect.filters:  # the own-tile rule may leave only unaffordable spaces
        return _greenery_placeable(game, player, effect.tile)
    tile, spaces = effect.tile, game.board.spaces
    for sid in free_spaces(game, player, tile, effect.filters):   # a loop, `affordable`'s first test written out:
        if not spaces[sid].extra_cost or affordable(game, player, sid, tile):   # the menu asks this at every turn
            return True
    return False


def _greenery_placeable(game: "Table", player: int, tile: str) -> bool:
    """`bool(legal_spaces(game, player, tile))` for a greenery without filters, without listing the spaces (the
    greenery project and every card with a greenery ask it at each turn): the free land spaces next to the player's
    tiles, found from those tiles, decide when there are some; otherwise the first affordable free space does."""
    state, board = game.state, game.board
    if state.markers or game.elements.tile_bans:  # a marker or a card may ban spaces: the general path does
        return bool(legal_spaces(game, player, tile))
    tiles, claims, neighbours = state.tiles, state.claims, board.neighbours
    land = _open_land(board)
    near = [n for sid, placed in tiles.items() if placed.owner == player for n in neighbours[sid]
            if n in land and n not in tiles and (not claims or claims.get(n, player) == player)]
    if near:
        return any(affordable(game, player, sid, tile) for sid in near)
    return any(affordable(game, player, sid, tile) for sid in free_spaces(game, player, tile, ()))


_OPEN_LAND: dict[int, tuple] = {}


def _open_land(board) -> frozenset:
    """The board's open land spaces (`open_ids`) as a set, made once per board map (shared by every game)."""
    cached = _OPEN_LAND.get(id(board))
    if cached is None or cached[0] is not board:
        cached = _OPEN_LAND[id(board)] = (board, frozenset(board.open_ids[LAND]))
    return cached[1]


def parameter_value(game: "Table", parameter: str) -> int:
    """A global parameter's value: the printed three are fields of the state, declared ones a table."""
    if parameter in GLOBAL_RANGES:
        return getattr(game.state, parameter)
    return game.state.parameters[parameter]


def maxed(game: "Table", parameter: str) -> bool:
    """At its top; a parameter of an expansion not in play (raised by a card dealt without it: `check` says W115)
    counts as maxed, as nothing can raise it."""
    if parameter not in game.elements.scales:
        return True
    return parameter_value(game, parameter) >= game.elements.scales[parameter][1]


def terraformed(game: "Table") -> bool:
    """The printed three parameters are maxed, and so is every declared one that `ends game: yes` (or `solo`, in a
    solo game): the game's elements list them (`ending`)."""
    return all(maxed(game, name) for name, *_ in game.elements.ending)


def _near(game: "Table", f, sid: str, player: int) -> int:
    """How many neighbours of a space count for a `next to` filter: tiles, or `claim space` markers (`next to
    [your] claim`: anyone's, or the player's)."""
    neighbours = game.board.neighbours[sid]
    if f.tile == CLAIM:
        claims = game.state.claims
        return sum(1 for n in neighbours if n in claims and (not f.own or claims[n] == player))
    tiles, covered = game.state.tiles, game.state.covered
    if covered:   # a space holding a tile on top of another counts once, when either of them counts
        return sum(1 for n in neighbours if n in tiles and (_neighbour_counts(f, tiles[n], player) or (
            n in covered and _neighbour_counts(f, covered[n], player))))
    return sum(1 for n in neighbours if n in tiles and _neighbour_counts(f, tiles[n], player))


def _neighbour_counts(f, tile: Tile, player: int) -> bool:
    """Whether a tile next to a space counts for a `next to` filter: its kind, and its owner when it says "your"
    or "opponent" (another player's, the solo game's neutral tiles too)."""
    if f.own and tile.owner != player:
        return False
    if f.opponent and (tile.owner is None or tile.owner == player):   # `next to opponent tile`: not yours, no ocean
        return False
    return f.tile == ANY_TILE or (f.tile in CITY_TILES and tile.is_city) or tile.kind == f.tile
