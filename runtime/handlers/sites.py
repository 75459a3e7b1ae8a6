"""Pieces and sites: placing a piece on a site, a visit, markers, sites coming into play and leaving it (an
effect handler).

Interface: what the handlers of the compiled effects `place PIECE`, `send PIECE`, `gain N PIECE`, `marker ...` and
`collect bonus per PIECE` do (`place_piece` is called by effects.py's loop with the effects after it, the others by
its handlers), the steps that carry out the picks of `site into play` and `site out of play` (`site_brought`,
`site_removed`: effects.py's `PICK_ONE`), and the game's own moments: `set_up` (the sites dealt and
the supplies filled), `return_pieces` (the end of a generation), `activate` (an event that wakes inactive sites).
What may be done is runtime/rules/sites.py's check; this module changes the state and asks the questions.

A visit, in the order of the reference engine (docs/rules-coverage.md): the marker may first be raised by the
visitor's `PIECE marker +N` modifiers; the visitor carries out the effects of the marker's step; every piece on
the site gives its owner the site's `bonus` (owners in the order their first piece arrived, each all of theirs in
a row, the visitor's own included); the visitor's piece stays on the site; the marker goes back to its floor; then
the `send` triggers fire. A placement: the piece goes on the site, the marker is pushed up to the floor, the
placer carries out the site's `build` effects, then `place` triggers fire (the piece's kind named).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from tharsis.compiler import effects as fx, text

from ..core import rng
from ..core.decisions import Decision, Option, asking, decider_argument
from ..core.flow import Step, ask, step, then
from ..core.state import SiteState
from ..rules.checks import EffectContext, play_matches, possible, value_of
from ..rules.passives import passives
from ..rules.sites import has_free, movable, moved, owned, placeable, supply, visitable, visiting
from ..rules.taxes import with_tax
from . import effects  # as a module: effects imports this one (a site's effects are effects)
from .triggers import fire

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["activate", "collect_bonus", "gain_pieces", "move_markers", "place_piece", "return_pieces", "send",
           "set_up", "site_brought", "site_choice", "site_removed"]


# ------------------------------------------------------------------ the game's moments

def set_up(game: "Table") -> None:
    """The sites of the sets in play: those the options name, else as many as each expansion's table deals for
    this number of players, drawn with the game's RNG (a set no table covers: all of its sites); the rest are set
    aside. Each player's supply of every kind of piece that has one. Nothing for content without sites."""
    elements, state = game.elements, game.state
    for name, piece in elements.pieces.items():
        if piece.supply is not None:
            for player in state.players:
                player.pieces[name] = piece.supply
    if not elements.sites:
        return
    chosen = list(dict.fromkeys(game.options.sites))
    if chosen:
        unknown = [name for name in chosen if name not in elements.sites]
        if unknown:
            from tharsis.compiler.diagnostics import did_you_mean
            hint = did_you_mean(unknown[0], elements.sites)
            raise ValueError(f"unknown site {unknown[0]!r}" + (f" ({hint})" if hint else "") +
                             f"; sites: {', '.join(sorted(elements.sites))}")
        dealt = chosen
    else:
        dealt = []
        by_set: dict[str, list[str]] = {}
        for name, site in elements.sites.items():
            by_set.setdefault(site.set, []).append(name)
        for set_name in sorted(by_set):
            pool = sorted(by_set[set_name])
            table = elements.site_tables.get(set_name)
            if table is None:
                dealt += pool
                continue
            state.rng = rng.shuffle(state.rng, pool)
            dealt += pool[:table.get(len(state.players), len(pool))]
    state.sites = [_in_play(game, name) for name in sorted(dealt)]
    state.set_aside = sorted(name for name in elements.sites if name not in dealt)


def _in_play(game: "Table", name: str) -> SiteState:
    """A site as it comes into play: its marker on its start, inactive while its `inactive until` event has not
    happened (a card in play of any player that would have set it off wakes it at once, as the reference engine
    does when a card brings one in)."""
    declared = game.elements.sites[name]
    active = declared.inactive_until is None or _woken(game, declared.inactive_until.event)
    return SiteState(name, declared.marker, active)


def _woken(game: "Table", event: fx.TriggerEvent) -> bool:
    library = game.library
    return any(play_matches(game, event, library[card.name]) for player in game.state.players
               for card in player.played)


def return_pieces(game: "Table") -> None:
    """The end of a generation: the pieces of the kinds that return (`returns: end of generation`) leave the
    sites and go back to their owners' supplies."""
    if not game.state.sites:  # no sites in the game (nothing else is looked at: every generation of every game)
        return
    pieces, sites = game.elements.pieces, game.elements.sites
    returning = {name for name, piece in pieces.items() if piece.returns == "end_of_generation"}
    if not returning:
        return
    players = game.state.players
    for site in game.state.sites:
        declared = sites[site.name]
        if site.visitor is not None and declared.visitor in returning:
            _give_back(players[site.visitor], declared.visitor, pieces)
            site.visitor = None
        if site.more_visitors and declared.visitor in returning:   # `send PIECE to any site` (Coordinated Raid)
            for owner in site.more_visitors:
                _give_back(players[owner], declared.visitor, pieces)
            site.more_visitors = []
        if declared.piece in returning and site.pieces:
            for owner in site.pieces:
                _give_back(players[owner], declared.piece, pieces)
            site.pieces = []


def _give_back(player, piece: str, pieces: dict) -> None:
    if pieces[piece].supply is not None:
        player.pieces[piece] = player.pieces.get(piece, 0) + 1


def activate(game: "Table", event: str, actor: int, card) -> None:
    """An event that may wake inactive sites (`inactive until: any player plays card holding microbe`): each
    inactive site whose event it is becomes active, for good."""
    sites = game.elements.sites
    for site in game.state.sites:
        if site.active:
            continue
        wanted = sites[site.name].inactive_until
        if event == "play" and card is not None and play_matches(game, wanted.event, game.library[card]):
            site.active = True
            game.log_event("site_active", actor, site.name)


def site_choice(game: "Table") -> Optional[tuple[str, object]]:
    """What the pending decision of sites is for, read where this module's handlers left the flow (as
    runtime/handlers/tiles.py `placing` reads a placement): ("place", PIECE) for a piece placed on the site chosen,
    ("visit", PIECE) for a visit, ("marker", STEPS) for a marker moved STEPS (up or down); None for anything else.
    A bot values each site by it: what a piece there brings is not what a visit there gives."""
    asking = game.flow.asking
    if asking is None:
        return None
    resume = asking.resume
    if resume is piece_placed:
        return ("place", asking.args[0].piece)
    if resume is visited:
        return ("visit", asking.args[0])
    if resume is marker_chosen:
        return ("marker", asking.args[0][0])
    return None


# ------------------------------------------------------------------ placing a piece

def place_piece(game: "Table", e: fx.PlacePiece, ctx: EffectContext, rest: tuple = ()) -> None:
    """Ask on which site the piece goes (only sites after whose `build` the effects still to come stay possible,
    when some are: a production lost after the placement, covered by one site's production; and, under a tax on TR
    steps, only sites whose `build` steps the player can also pay for, as the reference engine offers a tile whose
    placement bonus is an ocean only to a builder who can pay the tax on it), then place it."""
    sites = placeable(game, ctx.player, e.piece, e.also_own)
    if not sites:
        return
    if rest or game.elements.taxed:
        declared, fitting = game.elements.sites, []
        for site in sites:
            effects = declared[site.name].build * e.builds + tuple(rest)
            taxed = with_tax(game, effects, ctx)  # the same tuple when no step of it is taxed
            if (not rest and taxed is effects) or possible(game, taxed, ctx):
                fitting.append(site)
        sites = fitting or sites
    ask(game, ctx.question("site", f"On which site do you place {_a(e.piece)}?",
                           tuple(Option(f"site {s.name}", s.name) for s in sites)), piece_placed, e, ctx, e.count - 1)


@step
def piece_placed(game: "Table", name: str, e: fx.PlacePiece, ctx: EffectContext, remaining: int) -> None:
    state = game.state
    site, declared = state.site(name), game.elements.sites[name]
    player = ctx.player
    left = supply(game, player, e.piece)
    if left is not None:
        state.players[player].pieces[e.piece] = left - 1
    site.pieces.append(player)
    if site.marker < len(site.pieces):
        site.marker = len(site.pieces)
        game.log_event("marker", None, name, site.marker)
    steps = [Step(effects.run_effects, (declared.build, 0, EffectContext(player), None))] * e.builds + \
        [Step(fire_placed, (player, e.piece))]
    if remaining > 0:
        steps.append(Step(place_again, (e, ctx, remaining)))
    game.begin("build", player, name, e.piece)
    then(game, *steps)


@step
def place_again(game: "Table", e: fx.PlacePiece, ctx: EffectContext, remaining: int) -> None:
    sites = placeable(game, ctx.player, e.piece, e.also_own)
    if sites:
        ask(game, ctx.question("site", f"On which site do you place {_a(e.piece)}?",
                               tuple(Option(f"site {s.name}", s.name) for s in sites)), piece_placed, e, ctx,
            remaining - 1)


@step
def fire_placed(game: "Table", player: int, piece: str) -> None:
    fire(game, "place_piece", player, piece=piece)


# ------------------------------------------------------------------ a visit

def send(game: "Table", e: fx.SendPiece, ctx: EffectContext) -> None:
    if e.reusing:
        send_reusing(game, e, ctx)
        return
    sites = visitable(game, e.piece, e.any_site) if has_free(game, ctx.player, e.piece) else []
    if not sites:
        return
    if e.any_site or e.every_bonus:   # Coordinated Raid: to any site, every piece's bonus to the visitor
        ask(game, ctx.question("site", f"Which site does your {e.piece} visit?",
                               tuple(Option(f"site {s.name}", s.name) for s in sites)), raided, e.piece, ctx.player,
            e.every_bonus, *ctx.decided)
        return
    ask(game, ctx.question("site", f"Which site does your {e.piece} visit?",
                           tuple(Option(f"site {s.name}", s.name) for s in sites)), visited, e.piece, ctx.player,
        *ctx.decided)


def send_reusing(game: "Table", e: fx.SendPiece, ctx: EffectContext) -> None:
    """`send PIECE reusing one`: the piece sent is one of the supply's or one of the player's now visiting a site,
    which they pick (asked only when there is a choice); a piece taken back leaves its site free, and the site to
    visit is one of those that were free before, never the one it left (the reference engine's Huygens Observatory
    offers the places it could visit before the piece is taken back)."""
    sites = visitable(game, e.piece, e.any_site)
    if not sites:
        return
    options = [Option(f"{e.piece} from your supply", None)] if has_free(game, ctx.player, e.piece) else []
    options += [Option(f"{e.piece} from site {s.name}", s.name) for s in visiting(game, ctx.player, e.piece)]
    if not options:
        return
    ask(game, ctx.question("option", f"Which {e.piece} do you send?", tuple(options)), piece_reused, e.piece,
        tuple(s.name for s in sites), ctx, e.every_bonus if (e.any_site or e.every_bonus) else None)


@step
def piece_reused(game: "Table", origin: Optional[str], piece: str, names: tuple, ctx: EffectContext,
                 raid: Optional[bool] = None) -> None:
    """The piece to send chosen (`origin`: the site it leaves, None from the supply); then the site it visits (a
    raid's, `raid` telling whether it takes every bonus, when the send is `to any site` or `taking every bonus`)."""
    if origin is not None:
        _leave(game.state.site(origin), ctx.player)
        _give_back(game.state.players[ctx.player], piece, game.elements.pieces)
        game.log_event("piece_back", ctx.player, origin, piece)
    # never the site it left (with `to any site` that one was among the sites to visit)
    options = tuple(Option(f"site {name}", name) for name in names if name != origin)
    if not options:
        return
    if raid is not None:
        ask(game, ctx.question("site", f"Which site does your {piece} visit?", options), raided, piece, ctx.player,
            raid, *ctx.decided)
        return
    ask(game, ctx.question("site", f"Which site does your {piece} visit?", options), visited, piece, ctx.player,
        *ctx.decided)


def _leave(site: SiteState, player: int) -> None:
    """A piece of the player's stops visiting the site (the first of theirs: the visitor, else one of the others;
    the next visitor, if any, becomes the site's visitor)."""
    if site.visitor == player:
        site.visitor = site.more_visitors.pop(0) if site.more_visitors else None
    else:
        site.more_visitors.remove(player)


@step
def raided(game: "Table", name: str, piece: str, player: int, every_bonus: bool,
           decider: Optional[int] = None) -> None:
    """`send PIECE to any site [taking every bonus]`: the piece joins the site's visitors (its visitor when it has
    none); with `taking every bonus` the marker is not raised first and the visitor takes the bonus of every piece
    on the site, their owners none (the reference engine's selfish trade); without it, the visit is as any other."""
    if not every_bonus:   # an ordinary visit, to a site visited already or not
        visited(game, name, piece, player, decider)
        return
    site = _arrive(game, name, piece, player)
    declared = game.elements.sites[name]
    steps = [Step(effects.run_effects, (declared.track[site.marker], 0, EffectContext(player), None))]
    if declared.bonus and site.pieces:
        steps.append(Step(give_bonus, (name, player, len(site.pieces))))
    steps += [Step(marker_home, (name,)), Step(fire_sent, (player, declared.visitor))]
    then(game, *steps)


def _arrive(game: "Table", name: str, piece: str, player: int):
    """The piece leaves the player's supply (if their kind has one) and visits the site: its visitor, or one more
    beside the piece visiting already (`send PIECE to any site`); the visit begins in the log. The site's state."""
    site = game.state.site(name)
    left = supply(game, player, piece)
    if left is not None:
        game.state.players[player].pieces[piece] = left - 1
    if site.visitor is None:
        site.visitor = player
    else:
        site.more_visitors.append(player)
    game.begin("visit", player, name, piece)
    return site


@step
def visited(game: "Table", name: str, piece: str, player: int, decider: Optional[int] = None) -> None:
    """The visitor arrives: it may first raise the marker by its modifiers (asked only when the steps it could
    reach give things of different kinds: otherwise the most is taken, as the reference engine does)."""
    site = _arrive(game, name, piece, player)
    offset = sum(m.steps for m in passives(game, player, fx.MarkerOffset) if m.piece == piece)
    highest = moved(game, site, offset) if offset > 0 and site.active else site.marker
    if highest <= site.marker:
        visit(game, name, player)
        return
    track = game.elements.sites[name].track
    if len({_kinds(track[step_]) for step_ in range(site.marker, highest + 1)}) == 1:
        marker_raised(game, highest, name, player)
        return
    asked, for_player = asking(player, decider)
    ask(game, Decision(asked, "marker", f"Raise the marker of {name} before the visit?",
                       tuple(Option(f"step {step_}: {text.effects(track[step_])}", step_)
                             for step_ in range(highest, site.marker - 1, -1)), for_player), marker_raised, name,
        player)


def _kinds(effects_: tuple) -> tuple:
    """What a step gives, without the amounts: steps of the same kinds differ only in how much they give."""
    return tuple((type(e), getattr(e, "resource", None), tuple(getattr(c, "resource", None)
                                                               for c in getattr(e, "changes", ())))
                 for e in effects_)


@step
def marker_raised(game: "Table", marker: int, name: str, player: int) -> None:
    site = game.state.site(name)
    if marker != site.marker:
        site.marker = marker
        game.log_event("marker", player, name, marker)
    visit(game, name, player)


def visit(game: "Table", name: str, player: int) -> None:
    """The visit itself: the step's effects for the visitor, the bonuses of the pieces there, the marker back to
    its floor, then the `send` triggers."""
    site, declared = game.state.site(name), game.elements.sites[name]
    steps = [Step(effects.run_effects, (declared.track[site.marker], 0, EffectContext(player), None))]
    owners = list(dict.fromkeys(site.pieces))
    steps += [Step(give_bonus, (name, owner, site.pieces.count(owner))) for owner in owners if declared.bonus]
    steps += [Step(marker_home, (name,)), Step(fire_sent, (player, declared.visitor))]
    then(game, *steps)


@step
def give_bonus(game: "Table", name: str, owner: int, count: int) -> None:
    bonus = game.elements.sites[name].bonus
    game.begin("site_bonus", owner, name)
    effects.run_effects(game, bonus * count, 0, EffectContext(owner), None)


@step
def marker_home(game: "Table", name: str) -> None:
    site = game.state.site(name)
    if site.marker != len(site.pieces):
        site.marker = len(site.pieces)
        game.log_event("marker", None, name, site.marker)


@step
def fire_sent(game: "Table", player: int, piece: str) -> None:
    fire(game, "send", player, piece=piece)


# ------------------------------------------------------------------ more pieces, markers, bonuses, sites

def gain_pieces(game: "Table", e: fx.GainPieces, ctx: EffectContext) -> None:
    """More pieces in the supply, never beyond the kind's limit (pieces on sites count toward it)."""
    left = supply(game, ctx.player, e.piece)
    if left is None:
        return
    limit = game.elements.pieces[e.piece].limit
    gained = max(0, value_of(game, e.amount, ctx))
    if limit is not None:
        gained = min(gained, max(0, limit - owned(game, (ctx.player,), e.piece)))
    game.state.players[ctx.player].pieces[e.piece] = left + gained


def move_markers(game: "Table", e: fx.MoveMarkers, ctx: EffectContext) -> None:
    if e.each:
        for site in game.state.sites:
            if site.active:
                after = moved(game, site, e.steps[0])
                if after != site.marker:
                    site.marker = after
                    game.log_event("marker", None, site.name, after)
        return
    marker_next(game, e.steps, ctx.player, None, *ctx.decided)


@step
def marker_next(game: "Table", steps: tuple, player: int, exclude, decider: Optional[int] = None) -> None:
    if not steps:
        return
    sites = movable(game, steps, exclude)
    if not sites:
        return
    verb = "raise" if steps[0] > 0 else "lower"
    asked, for_player = asking(player, decider)
    ask(game, Decision(asked, "site", f"On which site do you {verb} the marker {abs(steps[0])} "
                                      f"step{'s' if abs(steps[0]) > 1 else ''}?",
                       tuple(Option(f"site {s.name}", s.name) for s in sites), for_player), marker_chosen, steps,
        player, *decider_argument(decider))


@step
def marker_chosen(game: "Table", name: str, steps: tuple, player: int, decider: Optional[int] = None) -> None:
    site = game.state.site(name)
    site.marker = moved(game, site, steps[0])
    game.log_event("marker", player, name, site.marker)
    marker_next(game, steps[1:], player, name, *decider_argument(decider))


def collect_bonus(game: "Table", e: fx.CollectBonus, ctx: EffectContext) -> None:
    """The bonus of the site under each of the player's pieces of that kind, once per piece, site by site."""
    sites = game.elements.sites
    steps = [Step(give_bonus, (s.name, ctx.player, s.pieces.count(ctx.player))) for s in game.state.sites
             if sites[s.name].piece == e.piece and ctx.player in s.pieces and sites[s.name].bonus]
    then(game, *steps)


@step
def site_brought(game: "Table", name: str, player: int) -> None:
    game.state.set_aside.remove(name)
    game.state.sites.append(_in_play(game, name))
    game.log_event("site_in", player, name)


@step
def site_removed(game: "Table", name: str, player: int) -> None:
    state = game.state
    state.sites.remove(state.site(name))
    state.set_aside.append(name)
    state.set_aside.sort()
    game.log_event("site_out", player, name)


def _a(piece: str) -> str:
    return ("an " if piece[:1] in "aeiou" else "a ") + piece

