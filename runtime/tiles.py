"""Tiles and global parameters: where a tile may go, what placing it gives, and raising the parameters.

Placement rules (RULES.md section 5): oceans only on ocean spaces, cities not next to cities and not on
reserved spaces, greeneries next to one of your tiles when possible; a card's filters replace the default rule
they speak about (Mangrove's `on ocean`, Urbanized Area's `next to 2 cities`). Placing gives the printed bonus
plus 2 MC per adjacent ocean; track bonuses chain (oxygen 8 % raises temperature, which may place an ocean).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Optional

from tharsis.compiler import effects as fx
from tharsis.compiler.vocabulary import GLOBAL_RANGES

from .decisions import Decision, space_option
from .effects import Context, run_effects
from .flow import Step, ask, push, step
from .measures import Where, holds
from .narration import conjugate
from .state import Tile

if TYPE_CHECKING:
    from .game import Game

OCEAN_BONUS = 2


class TilesMixin:
    # ------------------------------------------------------------------ where

    def legal_spaces(self: "Game", player: int, tile: str, filters: tuple = (), name: Optional[str] = None) -> list[str]:
        board = self.board
        result = list(self._free_spaces(player, tile, filters))
        if tile == "greenery" and not filters:
            # the spaces next to the player's tiles, found from those tiles (a few) rather than from every free
            # space's neighbours (dozens): the same spaces, in the free spaces' order
            neighbours = board.neighbours
            near = {n for sid, placed in self.state.tiles.items() if placed.owner == player for n in neighbours[sid]}
            own = [s for s in result if s in near]
            if own:
                result = own
        # An unaffordable space is still "a free space next to your tiles" (FAQ): price it only now.
        return [s for s in result if self._affordable(player, s, tile)]

    def space_cost(self: "Game", player: int, sid: str) -> int:
        """The extra megacredits a space costs now (a board's `costs N if CONDITION` only while it holds)."""
        space = self.board.spaces[sid]
        if not space.extra_cost or (space.cost_condition is not None and
                                    not holds(self, space.cost_condition, Where(player))):
            return 0
        return space.extra_cost

    def _affordable(self: "Game", player: int, sid: str, tile: str) -> bool:
        """Whether the player can pay what the space will cost when `put_tile` charges it (its condition is checked
        once, with the tile down: the 9th ocean on a `costs 6 if oceans <= 8` space is free, so needs no 6 MC)."""
        if not self.board.spaces[sid].extra_cost:
            return True
        cost = self._cost_once_placed(player, sid, tile)
        return not cost or self.can_pay(player, cost)

    def _cost_once_placed(self: "Game", player: int, sid: str, tile: str) -> int:
        """`space_cost` as `put_tile` will find it, the tile on the space (an ocean out of the supply); the state is
        put back as it was."""
        state = self.state
        ocean = tile == "ocean"
        state.tiles[sid] = Tile(kind=tile, owner=None if ocean else player, is_city=tile == "city")
        state.oceans += 1 if ocean else 0
        try:
            return self.space_cost(player, sid)
        finally:
            del state.tiles[sid]
            state.oceans -= 1 if ocean else 0

    def _free_spaces(self: "Game", player: int, tile: str, filters: tuple) -> Iterator[str]:
        """Spaces where the tile may go by kind, filters, reservations, claims and city spacing."""
        state, board = self.state, self.board
        if not filters:  # the common case, with no per-space filter to test
            tiles, claims = state.tiles, state.claims
            cities = {sid for sid, placed in tiles.items() if placed.is_city} if tile == "city" else None
            neighbours = board.neighbours
            for sid in board.open_ids["ocean" if tile == "ocean" else "land"]:
                if sid in tiles:
                    continue
                if claims:
                    claimant = claims.get(sid)
                    if claimant is not None and claimant != player:
                        continue
                if cities and not cities.isdisjoint(neighbours[sid]):
                    continue
                yield sid
            return
        reserved = next((f.reserved for f in filters if f.kind == "reserved"), None)
        if reserved and reserved in board.reserved_names:
            space = board.reserved_names[reserved]
            if space not in state.tiles:
                yield space
            return
        kinds = {f.kind for f in filters}
        spaced = tile == "city" and not any(f.kind == "next_to" and f.tile == "city" for f in filters)
        near = None  # "next to" a kind of tile: only the neighbours of such tiles can qualify
        for f in filters:
            if f.kind == "next_to" and f.count >= 1:
                adjacent = {n for s, placed in state.tiles.items() if _neighbour_counts(f, placed, player)
                            for n in board.neighbours[s]}
                near = adjacent if near is None else near & adjacent
        if near is not None and not near:
            return
        for space in board.mars:
            sid = space.id
            if (near is not None and sid not in near) or sid in state.tiles or space.reserved:
                continue
            claimant = state.claims.get(sid)
            if claimant is not None and claimant != player:
                continue
            if not self._space_kind_ok(space, tile, kinds) or (filters and not self._filters_ok(player, sid, filters)):
                continue
            if spaced and self._next_to_city(sid):
                continue
            yield sid

    def _space_kind_ok(self: "Game", space, tile: str, kinds: set[str]) -> bool:
        if "ocean" in kinds:
            return space.kind == "ocean"
        if "land" in kinds or "volcanic" in kinds:
            if space.kind != "land":
                return False
            return "volcanic" not in kinds or space.volcanic or not self.board.has_volcanic
        return space.kind == ("ocean" if tile == "ocean" else "land")

    def _filters_ok(self: "Game", player: int, sid: str, filters: tuple) -> bool:
        state, board = self.state, self.board
        for f in filters:
            if f.kind == "bonus":
                if board.bonus_kinds[sid].isdisjoint(f.bonuses):
                    return False
            elif f.kind == "next_to":
                count = 0
                for n in board.neighbours[sid]:
                    neighbour = state.tiles.get(n)
                    if neighbour is not None and _neighbour_counts(f, neighbour, player):
                        count += 1
                if count < f.count:
                    return False
            elif f.kind == "isolated":
                if any(n in state.tiles for n in board.neighbours[sid]):
                    return False
        return True

    def _next_to_city(self: "Game", sid: str) -> bool:
        return any(self.state.tiles.get(n) is not None and self.state.tiles[n].is_city
                   for n in self.board.neighbours[sid])

    def can_place(self: "Game", player: int, effect: fx.PlaceTile) -> bool:
        if effect.tile == "ocean" and not any(f.kind == "land" for f in effect.filters):
            return True  # an ocean with none left (or no space) is skipped, never blocks
        if effect.tile == "ocean":
            return True
        if effect.tile == "greenery" and not effect.filters:  # the own-tile rule may leave only unaffordable spaces
            return bool(self.legal_spaces(player, "greenery"))
        tile = effect.tile
        return any(self._affordable(player, s, tile) for s in self._free_spaces(player, tile, effect.filters))

    # ------------------------------------------------------------------ placing

    def place(self: "Game", player: int, tile: str, filters: tuple = (), name: Optional[str] = None,
              card: Optional[str] = None, then: Optional[Step] = None) -> None:
        """Choose a space (asking when there is a choice), put the tile, give bonuses, raise what it raises, fire
        triggers; `then` (a step) runs afterwards with the space as its last argument (None: nothing placed)."""
        state = self.state
        spaces = None
        if not (tile == "ocean" and state.oceans >= GLOBAL_RANGES["oceans"][1]):
            spaces = self.legal_spaces(player, tile, filters, name)
        if not spaces:
            if then is not None:
                push(self, then.function, *then.args, None)
            return
        if len(spaces) == 1:
            space_chosen(self, spaces[0], player, tile, name, card, then)
            return
        label = f'{tile} "{name}"' if name else tile
        ask(self, Decision(player, "space", f"Where do you place the {label}?",
                           tuple(map(space_option, spaces))), space_chosen, player, tile, name, card, then)

    # ------------------------------------------------------------------ parameters

    def parameter_value(self: "Game", parameter: str) -> int:
        return getattr(self.state, parameter)

    def maxed(self: "Game", parameter: str) -> bool:
        return self.parameter_value(parameter) >= GLOBAL_RANGES[parameter][1]

    def raise_parameter(self: "Game", player: int, parameter: str, steps: int) -> None:
        """Raise temperature or oxygen `steps` steps (negative lowers), with TR and the track bonuses."""
        raise_parameter(self, player, parameter, steps)

    def raise_tr(self: "Game", player: int, steps: int) -> None:
        state = self.state.players[player]
        state.tr += steps
        if steps > 0:
            state.tr_raised_this_generation += steps

    def terraformed(self: "Game") -> bool:
        return all(self.maxed(p) for p in ("temperature", "oxygen", "oceans"))


def _neighbour_counts(f, tile: Tile, player: int) -> bool:
    """Whether a tile next to a space counts for a `next to` filter: its kind, and its owner when it says "your"."""
    if f.own and tile.owner != player:
        return False
    return f.tile == "tile" or (f.tile == "city" and tile.is_city) or tile.kind == f.tile


@step
def space_chosen(game: "Game", sid: str, player: int, tile: str, name, card, then: Optional[Step]) -> None:
    if then is not None:
        push(game, then.function, *then.args, sid)
    put_tile(game, player, sid, tile, name, card)


def put_tile(game: "Game", player: Optional[int], sid: str, tile: str, name: Optional[str] = None,
             card: Optional[str] = None, neutral: bool = False) -> None:
    state = game.state
    is_city = tile == "city"
    owner = None if tile == "ocean" else player
    state.tiles[sid] = Tile(kind=tile, owner=owner, name=name, is_city=is_city)
    state.claims.pop(sid, None)
    if card is not None and player is not None and player >= 0:
        in_play = state.players[player].card(card)
        if in_play is not None and in_play.tile is None:
            in_play.tile = sid
    if neutral or player is None or player < 0:
        return
    who = state.players[player].name
    game.log_event(f"{who} {conjugate(who, 'place')} {tile}{' ' + repr(name) if name else ''} on {sid}")
    if tile == "ocean":  # out of the supply before any bonus: an ocean bonus with the 9th finds none left
        state.oceans += 1
    push(game, tile_bonuses, player, sid, tile, 0)
    extra_cost = game.space_cost(player, sid)  # after an ocean left the supply: the 9th on it costs nothing
    if extra_cost:
        game.pay(player, extra_cost, (), f"building on space {sid}")


@step
def tile_bonuses(game: "Game", player: int, sid: str, tile: str, index: int) -> None:
    """The printed bonuses from `index` on (an ocean bonus places an ocean first), then the adjacent oceans'
    money, the parameter the tile raises and the `place` triggers."""
    state, board = game.state, game.board
    bonuses = board.spaces[sid].bonuses
    stock = state.players[player].resources
    while index < len(bonuses):
        bonus, count = bonuses[index]
        index += 1
        if bonus == "card":
            game.draw(player, count)
        elif bonus == "ocean":
            push(game, tile_bonuses, player, sid, tile, index)
            for _ in range(count):
                push(game, place_bonus_ocean, player)
            return
        else:
            stock[bonus] += count
    adjacent_oceans = sum(1 for n in board.neighbours[sid] if n in state.tiles and state.tiles[n].kind == "ocean")
    stock["megacredits"] += OCEAN_BONUS * adjacent_oceans
    is_city = tile == "city"
    push(game, fire_place, player, tile, sid, is_city)
    if tile == "ocean":
        game.raise_tr(player, 1)
        push(game, fire_raise, player, "tr")
        game.fire("raise", player, parameter="oceans")
    elif tile == "greenery" and not game.flow.no_oxygen:
        game.raise_parameter(player, "oxygen", 1)


@step
def place_bonus_ocean(game: "Game", player: int) -> None:
    game.place(player, "ocean")


@step
def fire_place(game: "Game", player: int, tile: str, sid: str, is_city: bool) -> None:
    game.fire("place", player, tile=tile, space=sid, is_city=is_city)


@step
def fire_raise(game: "Game", player: int, parameter: str) -> None:
    game.fire("raise", player, parameter=parameter)


@step
def raise_parameter(game: "Game", player: int, parameter: str, steps: int) -> None:
    """Raise temperature or oxygen `steps` steps (negative lowers), with TR and the track bonuses; each step's
    bonuses and triggers resolve before the next step."""
    low, high, size, _ = GLOBAL_RANGES[parameter]
    state = game.state
    if steps < 0:
        for _ in range(-steps):
            value = getattr(state, parameter)
            if value <= low:
                return  # at its minimum: further steps change nothing (a huge count costs nothing)
            setattr(state, parameter, value - size)
        return
    if steps == 0:
        return
    value = getattr(state, parameter)
    if value >= high:
        return
    value += size
    setattr(state, parameter, value)
    push(game, raise_parameter, player, parameter, steps - 1)
    if player is None or player < 0:
        return
    game.raise_tr(player, 1)
    push(game, fire_raise, player, "tr")
    push(game, fire_raise, player, parameter)
    for track in reversed(game.board.board.tracks):
        if track.parameter == parameter and track.value == value:
            push(game, run_effects, track.effects, 0, Context(player), None)
