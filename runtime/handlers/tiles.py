"""Placing tiles and raising the global parameters and TR (an effect handler).

Interface: `place` (choose a space, asking when there is a choice, and put the tile), `put_tile` (on a known
space), `raise_parameter` (a step) and `raise_tr`; `marker_placed` and `marker_moved`, the steps that carry out the
picks of `place marker` and `move marker` (effects.py's `PICK_ONE`). Placing gives the printed bonus plus 2 MC per
adjacent ocean, raises what the tile raises and fires the `place` triggers; track bonuses chain (oxygen 8 % raises
temperature, which may place an ocean). Where a tile may go is runtime/rules/spaces.py's check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import attrs

from tharsis.compiler import effects as fx
from tharsis.compiler.vocabulary import CITY_TILES, GLOBAL_RANGES, OCEAN, OCEAN_TILES, TILE_RAISES

from ..core.decisions import Decision, asking, space_option
from ..core.flow import Step, ask, push, step
from ..core.state import ACTION, NEUTRAL, BoardMarker, Tile
from ..rules.checks import EffectContext
from ..rules.passives import passives
from ..rules.spaces import legal_spaces, replaceable_tiles, space_cost
from ..rules.taxes import skippable_steps
from . import effects, triggers  # as modules: they import this one (see runtime/handlers/effects.py)
from .payment import pay, taxed_steps

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["OCEAN_BONUS", "marker_moved", "marker_placed", "place", "placing", "put_tile", "raise_parameter",
           "raise_tr", "replace"]

OCEAN_BONUS = 2


# ------------------------------------------------------------------ placing

def place(game: "Table", player: int, tile: str, filters: tuple = (), name: Optional[str] = None,
          card: Optional[str] = None, then: Optional[Step] = None, neutral: bool = False,
          decider: Optional[int] = None) -> None:
    """Choose a space (asking when there is a choice), put the tile, give bonuses, raise what it raises, fire
    triggers; `then` (a step) runs afterwards with the space as its last argument (None: nothing placed).
    `neutral`: `player` chooses the space of a tile placed for nobody (see `put_unrewarded`). `decider`: the
    player asked where, when not `player` (`decided by ... { }`): the tile is still `player`'s."""
    state = game.state
    spaces = None
    if not (tile in OCEAN_TILES and state.oceans >= GLOBAL_RANGES[TILE_RAISES[tile]][1]):
        spaces = legal_spaces(game, player, tile, filters, name)
    if not spaces:
        if then is not None:
            push(game, then.function, *then.args, None)
        return
    if neutral:
        if len(spaces) == 1:
            unrewarded_space_chosen(game, spaces[0], player, tile, then)
            return
        asked, for_player = asking(player, decider)
        ask(game, Decision(asked, "space", f"Where is the {tile} placed (for nobody)?",
                           space_option.many(spaces), for_player), unrewarded_space_chosen, player, tile, then)
        return
    if len(spaces) == 1:
        space_chosen(game, spaces[0], player, tile, name, card, then)
        return
    label = f'{tile} "{name}"' if name else tile
    asked, for_player = asking(player, decider)
    ask(game, Decision(asked, "space", f"Where do you place the {label}?",
                       space_option.many(spaces), for_player), space_chosen, player, tile, name, card, then)


@step
def unrewarded_space_chosen(game: "Table", sid: str, player: int, tile: str, then: Optional[Step]) -> None:
    """A tile placed for nobody (`neutral { place ocean }`): it belongs to nobody, gives no placement bonus and no
    TR, and an ocean still leaves the supply; the greenery's oxygen rises for nobody; only `any player` triggers
    fire."""
    if then is not None:
        push(game, then.function, *then.args, sid)
    state = game.state
    is_city = tile in CITY_TILES
    if sid in state.tiles:   # `neutral { place city on top of ocean }`: the tile below stays, covered
        state.covered[sid] = state.tiles[sid]
    state.tiles[sid] = Tile(kind=tile, owner=None, is_city=is_city, claimed=state.claims.pop(sid, None))
    game.begin("place_nobody", None, sid, tile)
    push(game, fire_place, NEUTRAL, tile, sid, is_city)
    if tile in OCEAN_TILES:
        state.oceans += 1
        push(game, fire_raise, NEUTRAL, TILE_RAISES[tile])
    elif tile in TILE_RAISES:
        push(game, raise_parameter, player, TILE_RAISES[tile], 1, True)


def replace(game: "Table", e: fx.ReplaceTile, ctx: EffectContext) -> None:
    """`replace your TILE ... with TILE`: the player picks one of their tiles the effect allows (asked even when
    there is one, so that the question says which tile goes), and the new tile takes its space."""
    spaces = replaceable_tiles(game, ctx.player, e)
    if not spaces:
        return
    label = f'{e.new} "{e.name}"' if e.name else e.new
    ask(game, ctx.question("space", f"Which of your tiles is replaced by the {label}?",
                           space_option.many(spaces)), tile_replaced, ctx.player, e.new, e.name, ctx.card)


@step
def tile_replaced(game: "Table", sid: str, player: int, new: str, name: Optional[str], card: Optional[str]) -> None:
    """The old tile leaves Mars: nothing it raised goes down (a greenery's oxygen stays), and it no longer counts (a
    greenery less, a city less). The new one is put down on its space as any placement is, the placement rules
    aside: it is the player's, gives the space's bonuses and the adjacent oceans' money, pays what the space costs,
    raises what it raises (a greenery: oxygen, with TR) and fires the triggers of a placement."""
    old = game.state.tiles.pop(sid)
    game.log_event("tile_removed", None, sid, old.kind)
    put_tile(game, player, sid, new, name, card)


# ------------------------------------------------------------------ marks on tiles

@step
def mark_put(game: "Table", sid: str, e: fx.PutMark, ctx: EffectContext) -> None:
    """`put MARK on TILE ... { EFFECTS }`: the mark goes on the tile picked (a new, immutable tile with it: copies of
    the game share the old one), then the block runs, its `that player` the tile's owner (nobody's tile: none)."""
    state = game.state
    tile = state.tiles[sid]
    marks = dict(tile.marks)
    marks[e.mark] = marks.get(e.mark, 0) + e.count
    state.tiles[sid] = attrs.evolve(tile, marks=tuple(sorted(marks.items())))
    game.log_event("mark_put", ctx.player, sid, e.mark, e.count)
    if e.body:
        owner = tile.owner if tile.owner is not None and tile.owner >= 0 else None
        effects.run_effects(game, e.body, 0, attrs.evolve(ctx, actor=owner), None)


# ------------------------------------------------------------------ named markers on the board

@step
def marker_placed(game: "Table", sid: str, player: int, name: str, blocks: bool) -> None:
    """`place marker "NAME" [blocking tiles]`: the marker, one in the game, goes on the space (from wherever it
    stood) as the player's; `blocking tiles` is what the card declares of it, kept with it as it moves."""
    game.state.markers[name] = BoardMarker(sid, player, blocks)
    game.log_event("marker_placed", player, name, sid)


@step
def marker_moved(game: "Table", sid: str, player: int, name: str, collect: bool) -> None:
    """`move marker "NAME" ... [collecting bonus]`: the marker moves on, and the mover collects what a tile placed
    there would give them (the printed bonus, the adjacent oceans' money); no tile is placed, so no trigger fires."""
    old = game.state.markers[name]
    game.state.markers[name] = BoardMarker(sid, old.owner, old.blocks)
    game.log_event("marker_moved", player, name, sid)
    if collect:
        marker_bonuses(game, player, sid, 0)


@step
def marker_bonuses(game: "Table", player: int, sid: str, index: int) -> None:
    """The bonuses a marker collects on its space, from `index` on: as a tile's (an ocean bonus places an ocean
    first, then the rest), then 2 MC per adjacent ocean (more with `ocean bonus +N megacredits`)."""
    bonuses = game.board.spaces[sid].bonuses
    if index == 0:
        game.begin("bonus", player, sid)
    index = printed_bonuses(game, player, bonuses, index)
    if index is not None:  # an ocean bonus: its oceans first, then on from here
        push(game, marker_bonuses, player, sid, index)
        place_bonus_oceans(game, player, bonuses[index - 1][1])
        return
    ocean_money(game, player, adjacent_oceans(game, sid))
    game.log_event("end")


def printed_bonuses(game: "Table", player: int, bonuses: tuple, index: int) -> Optional[int]:
    """Collect a space's printed bonuses from `index` on, for a tile placed there or a marker moved there; at an
    ocean bonus, stop and give the index after it (the caller places its oceans first, then goes on from there, so
    that each bonus ocean is placed before the rest is collected); None when every bonus was collected."""
    stock = game.state.players[player].resources
    while index < len(bonuses):
        bonus, count = bonuses[index]
        index += 1
        if bonus == "card":
            game.draw(player, count)
        elif bonus in OCEAN_TILES:
            return index
        else:
            stock[bonus] += count
    return None


def place_bonus_oceans(game: "Table", player: int, count: int) -> None:
    for _ in range(count):
        push(game, place_bonus_ocean, player)


def adjacent_oceans(game: "Table", sid: str) -> int:
    """The spaces next to `sid` holding an ocean, on top or covered (New Holland's city on one counts as an ocean)."""
    tiles, covered = game.state.tiles, game.state.covered
    oceans = sum(1 for n in game.board.neighbours[sid] if n in tiles and tiles[n].kind in OCEAN_TILES)
    if covered:
        oceans += sum(1 for n in game.board.neighbours[sid] if n in covered and covered[n].kind in OCEAN_TILES)
    return oceans


def ocean_money(game: "Table", player: int, oceans: int) -> None:
    """The money for `oceans` oceans next to the space: 2 MC each by the rules, more with `ocean bonus +N
    megacredits`."""
    if oceans:
        game.state.players[player].resources["megacredits"] += \
            (OCEAN_BONUS + sum(b.amount for b in passives(game, player, fx.OceanBonus))) * oceans


def placing(game: "Table") -> Optional[str]:
    """The kind of tile the pending decision places ("ocean", "city"...), or None when it is no placement: the play
    view prices each space with that tile down, as `put_tile` will (the 9th ocean on Hellas' south pole is free)."""
    asking = game.flow.asking
    return asking.args[1] if asking is not None and asking.resume is space_chosen else None


# ------------------------------------------------------------------ parameters

def raise_tr(game: "Table", player: int, steps: int) -> int:
    """Change a player's TR; a rise is subject to the taxes in force (runtime/handlers/payment.py `taxed_steps`).
    The steps gained (or lost)."""
    state = game.state.players[player]
    if steps > 0 and game.elements.tr_skipped and game.state.phase == ACTION:
        steps -= skipped_steps(game, player, steps)
    if steps > 0 and game.elements.taxed:
        steps = taxed_steps(game, player, steps)
    state.tr += steps
    if steps > 0:
        state.tr_raised_this_generation += steps
    return steps


def skipped_steps(game: "Table", player: int, steps: int) -> int:
    """How many of `steps` TR steps gained in the action phase the player does not gain, under their `skip first N
    tr steps each generation` (Preservation Program): the first N of the generation, counted in
    `tr_skipped_this_generation` (reset as a generation starts). Skipped before the tax, which they then escape, as
    in the reference engine."""
    state = game.state.players[player]
    skipped = skippable_steps(game, player)
    if skipped > steps:
        skipped = steps
    if skipped:
        state.tr_skipped_this_generation += skipped
        game.log_event("tr_skipped", player, skipped)
    return skipped


@step
def space_chosen(game: "Table", sid: str, player: int, tile: str, name, card, then: Optional[Step]) -> None:
    if then is not None:
        push(game, then.function, *then.args, sid)
    put_tile(game, player, sid, tile, name, card)


def put_tile(game: "Table", player: Optional[int], sid: str, tile: str, name: Optional[str] = None,
             card: Optional[str] = None, neutral: bool = False) -> None:
    state = game.state
    is_city = tile in CITY_TILES
    ocean = tile in OCEAN_TILES
    owner = None if ocean else player
    under = state.tiles.get(sid)
    if under is not None:  # `place city on top of ocean`: the tile below stays, covered, and still counts
        state.covered[sid] = under
    state.tiles[sid] = Tile(kind=tile, owner=owner, name=name, is_city=is_city, claimed=state.claims.pop(sid, None))
    if card is not None and player is not None and player >= 0:
        in_play = state.players[player].card(card)
        if in_play is not None and in_play.tile is None:
            in_play.tile = sid
    if neutral or player is None or player < 0:
        return
    game.begin("place", player, sid, tile, name)
    raised = 0
    if ocean:  # out of the supply before any bonus: an ocean bonus with the 9th finds none left
        state.oceans += 1
        raised = raise_tr(game, player, 1)  # with the count, so that while a bonus ocean is placed the two agree
    if under is not None:  # the space's printed bonuses went to the tile below (the reference engine's rule too)
        push(game, tile_bonuses, player, sid, tile, 0, True, False)
    else:
        push(game, tile_bonuses, player, sid, tile, 0, *(() if raised or not ocean else (False,)))
    extra_cost = space_cost(game, player, sid)  # after an ocean left the supply: the 9th on it costs nothing
    if extra_cost:
        pay(game, player, extra_cost, (), f"building on space {sid}")


@step
def tile_bonuses(game: "Table", player: int, sid: str, tile: str, index: int, tr_gained: bool = True,
                 printed: bool = True) -> None:
    """The printed bonuses from `index` on (an ocean bonus places an ocean first), then the adjacent oceans'
    money, the parameter the tile raises (an ocean's count and TR rose as it was put down) and the triggers.
    `printed` False: a tile put on top of another, whose space gave its printed bonuses to the tile below."""
    bonuses = game.board.spaces[sid].bonuses if printed else ()
    if index == 0 and bonuses:  # the bonuses are a cause of their own, within the placement
        game.log_event("bonus", player, sid)
    stopped = printed_bonuses(game, player, bonuses, index)
    if stopped is not None:  # an ocean bonus: its oceans first, then on from here
        push(game, tile_bonuses, player, sid, tile, stopped, *(() if tr_gained else (False,)))
        place_bonus_oceans(game, player, bonuses[stopped - 1][1])
        return
    oceans = adjacent_oceans(game, sid)
    if oceans and not bonuses:  # the oceans' money alone is the cause, logged before it is given
        game.log_event("bonus", player, sid)
    ocean_money(game, player, oceans)
    if bonuses or oceans:
        game.log_event("end")
    push(game, fire_place, player, tile, sid, tile in CITY_TILES)
    if tile in OCEAN_TILES:  # its TR came with the count (put_tile); what reacts to the raise comes after the bonuses
        if tr_gained:
            push(game, fire_raise, player, "tr")
        triggers.fire(game, "raise", player, parameter=TILE_RAISES[tile])
    elif tile in TILE_RAISES and not game.flow.no_oxygen:  # the solo game's final greeneries raise nothing
        raise_parameter(game, player, TILE_RAISES[tile], 1)


@step
def place_bonus_ocean(game: "Table", player: int) -> None:
    place(game, player, OCEAN)


@step
def fire_place(game: "Table", player: int, tile: str, sid: str, is_city: bool) -> None:
    triggers.fire(game, "place", player, tile=tile, space=sid, is_city=is_city)


@step
def fire_raise(game: "Table", player: int, parameter: str) -> None:
    triggers.fire(game, "raise", player, parameter=parameter)


@step
def raise_parameter(game: "Table", player: int, parameter: str, steps: int, neutral: bool = False) -> None:
    """Raise a global parameter `steps` steps (negative lowers), with TR and the track bonuses; each step's
    bonuses and triggers resolve before the next step. `neutral`: raised for nobody (a `neutral { }` block, a
    rule of the game acting): no TR, only `any player` triggers fire, and of the track bonuses only the raises of
    other parameters and ocean placements happen, neutrally; `player` still makes the choices. A parameter of an
    expansion not in play (a card that raises it dealt without it: `check` says W115) is not there to raise:
    nothing happens, as for a parameter at its top."""
    scale = game.elements.scales.get(parameter)
    if scale is None:
        return
    low, high, size, _ = scale
    state = game.state
    builtin = parameter in GLOBAL_RANGES
    if steps < 0:
        for _ in range(-steps):
            value = getattr(state, parameter) if builtin else state.parameters[parameter]
            if value <= low:
                return  # at its minimum: further steps change nothing (a huge count costs nothing)
            _set_parameter(state, parameter, value - size, builtin)
        return
    if steps == 0:
        return
    value = getattr(state, parameter) if builtin else state.parameters[parameter]
    if value >= high:
        return
    value += size
    _set_parameter(state, parameter, value, builtin)
    if neutral:
        push(game, raise_parameter, player, parameter, steps - 1, True)
        push(game, fire_raise, NEUTRAL, parameter)
        for track in reversed(game.board.board.tracks):
            if track.parameter == parameter and track.value == value:
                chained = neutral_part(track.effects)
                if chained:
                    push(game, track_bonus, chained, EffectContext(player, neutral=True), parameter, value)
        return
    push(game, raise_parameter, player, parameter, steps - 1)
    if player is None or player < 0:
        return
    if raise_tr(game, player, 1):
        push(game, fire_raise, player, "tr")
    push(game, fire_raise, player, parameter)
    for track in reversed(game.board.board.tracks):
        if track.parameter == parameter and track.value == value:
            push(game, track_bonus, track.effects, EffectContext(player), parameter, value)


@step
def track_bonus(game: "Table", bonus: tuple, ctx: EffectContext, parameter: str, value: int) -> None:
    """The bonus printed on a parameter's track at `value` (a heat production step, an ocean), as its own cause."""
    game.begin("track", None if ctx.neutral else ctx.player, parameter, value)
    effects.run_effects(game, bonus, 0, ctx, None)


def _set_parameter(state, parameter: str, value: int, builtin: bool) -> None:
    if builtin:
        setattr(state, parameter, value)
    else:
        state.parameters[parameter] = value


def neutral_part(track_effects: tuple) -> tuple:
    """What of a track bonus still happens when nobody is rewarded: raising another parameter, placing an ocean."""
    return tuple(e for e in track_effects if (isinstance(e, fx.ChangeParameter) and e.parameter != "tr") or
                 (isinstance(e, fx.PlaceTile) and e.tile in OCEAN_TILES))
