"""Factions and the government: setting them up, placing, removing and replacing pieces, taking the role, and the
change of government (an effect handler).

The state is `state.government` (runtime/core/state.py `GovernmentState`); each player's reserve is their supply of
the government's piece. After every change to a faction's pieces its leader and the dominant faction are found again
(runtime/rules/politics.py `leader_of`, `dominant_after`, the reference engine's rules). The change of government,
step by step: the dominant faction rules; the old role holder's piece goes back to its owner's reserve; the new
ruling faction's leader takes the role (nobody's leader: a neutral piece, if one is left); its other pieces go back
(neutral ones to the neutral reserve); its bonus is carried out (once, decided by the first player); its policy is in
force from the next action phase; a player who took the role gains what the role gives; the dominant faction is found
anew among the rest, walking backwards from the ruling one. Interface: `set_up`, and the handlers `place`, `remove`,
`replace`, `take_role`, `change`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tharsis.compiler import effects as fx

from ..core.decisions import Option
from ..core.flow import Step, ask, step, then
from ..core.state import NEUTRAL, FactionState, GovernmentState
from ..rules.checks import EffectContext
from ..rules.politics import can_place_pieces, dominant_after, leader_of, removable, replaceable

# as modules: effects imports this one (the bonus and the role's reward are effects); triggers for a new leader
from . import effects, triggers

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["change", "place", "remove", "replace", "set_up", "take_role"]


def set_up(game: "Table") -> None:
    """The government of the sets in play, as the game starts: its factions empty, the declared faction ruling and
    dominant, the role held by a neutral piece (when the piece has a neutral reserve), no bonus given (nobody has
    anything yet)."""
    declared = game.elements.government
    if declared is None:
        return
    piece = game.elements.pieces.get(declared.piece)
    government = GovernmentState([FactionState(name) for name in declared.factions], ruling=declared.ruling,
                                 dominant=declared.ruling, neutral=piece.neutral if piece is not None else 0)
    if declared.role is not None and government.neutral > 0:
        government.role = NEUTRAL
        government.neutral -= 1
    game.state.government = government


def _owner_name(game: "Table", owner: int) -> str:
    return "neutral" if owner == NEUTRAL else game.state.players[owner].name


def _settle(game: "Table", faction: FactionState, actor: int) -> None:
    """After a faction's pieces changed: its leader, then the dominant faction. A player who now leads it where
    another or nobody did sets off `when you become leader of a faction` (as the reference engine's faction leader)."""
    before = faction.leader
    faction.leader = leader_of(faction, game.turn_order(), actor)
    government = game.state.government
    government.dominant = dominant_after(government, government.dominant)
    if faction.leader != before and faction.leader is not None and faction.leader != NEUTRAL:
        triggers.fire(game, "become_leader", faction.leader)


def put_piece(game: "Table", faction_name: str, owner: int, actor: int) -> None:
    """One piece of `owner` (NEUTRAL: from the neutral reserve) from its reserve into a faction."""
    government = game.state.government
    if owner == NEUTRAL:
        if government.neutral <= 0:
            return  # the neutral reserve is empty: nothing to place (as the reference engine does)
        government.neutral -= 1
    else:
        game.state.players[owner].pieces[game.elements.government.piece] -= 1
    faction = government.faction(faction_name)
    faction.pieces.append(owner)
    game.log_event("faction_in", None if owner == NEUTRAL else owner, faction_name)
    _settle(game, faction, actor)


def _back(game: "Table", owner: int, count: int = 1) -> None:
    """Pieces back to their owner's reserve (the neutral reserve for neutral ones)."""
    if owner == NEUTRAL:
        game.state.government.neutral += count
    else:
        pieces = game.state.players[owner].pieces
        piece = game.elements.government.piece
        pieces[piece] = pieces.get(piece, 0) + count


# ------------------------------------------------------------------ placing, removing, replacing

def place(game: "Table", e: fx.PlaceInFaction, ctx: EffectContext) -> None:
    if game.state.government is None or not can_place_pieces(game, ctx.player, e.count, e.neutral):
        return
    owner = NEUTRAL if e.neutral else ctx.player
    if e.faction is not None:
        faction_chosen(game, e.faction, owner, e.count, ctx.player)
        return
    names = [f.name for f in game.state.government.factions]
    ask(game, ctx.question("faction", f"In which faction do you place {e.count} {e.piece}"
                           f"{'s' if e.count > 1 else ''}?", tuple(Option(f"faction {name}", name) for name in names)),
        faction_chosen, owner, e.count, ctx.player)


@step
def faction_chosen(game: "Table", name: str, owner: int, count: int, actor: int) -> None:
    for _ in range(count):
        put_piece(game, name, owner, actor)


def remove(game: "Table", e: fx.RemoveFromFaction, ctx: EffectContext) -> None:
    choices = removable(game)
    if not choices:
        return
    ask(game, ctx.question("faction", "Which piece do you remove?",
                           tuple(Option(f"faction {name} {_owner_name(game, owner)}", (name, owner))
                                 for name, owner in choices)), piece_removed, ctx.player)


@step
def piece_removed(game: "Table", choice: tuple, actor: int) -> None:
    name, owner = choice
    faction = game.state.government.faction(name)
    faction.pieces.reverse()
    faction.pieces.remove(owner)  # the latest of that owner's pieces: the first (its leader, maybe) stays
    faction.pieces.reverse()
    _back(game, owner)
    game.log_event("faction_out", None if owner == NEUTRAL else owner, name)
    _settle(game, faction, actor)


def replace(game: "Table", e: fx.ReplaceNeutral, ctx: EffectContext) -> None:
    names = replaceable(game, ctx.player)
    if not names:
        return
    ask(game, ctx.question("faction", "In which faction do you replace a neutral piece?",
                           tuple(Option(f"faction {name}", name) for name in names)), neutral_replaced, ctx.player)


@step
def neutral_replaced(game: "Table", name: str, player: int) -> None:
    piece_removed(game, (name, NEUTRAL), player)
    put_piece(game, name, player, player)


# ------------------------------------------------------------------ the role

def take_role(game: "Table", e: fx.TakeRole, ctx: EffectContext) -> None:
    """The role held by nobody becomes the player's: the neutral piece holding it goes back to the neutral reserve,
    one of the player's reserve pieces takes it, and the player gains what the role gives."""
    government = game.state.government
    if government is None or government.role not in (NEUTRAL, None) or not can_place_pieces(game, ctx.player, 1, False):
        return
    if government.role == NEUTRAL:
        _back(game, NEUTRAL)
    game.state.players[ctx.player].pieces[game.elements.government.piece] -= 1
    government.role = ctx.player
    game.log_event("role", ctx.player, game.elements.government.role)
    effects.run_effects(game, game.elements.government.role_reward, 0, EffectContext(ctx.player), None)


# ------------------------------------------------------------------ the change of government

def change(game: "Table", e: fx.ChangeGovernment, ctx: EffectContext) -> None:
    """The dominant faction comes to power (the module docstring says each step)."""
    government = game.state.government
    declared = game.elements.government
    if government is None:
        return
    ruling = government.faction(government.dominant)
    government.ruling = ruling.name
    game.begin("government", None, ruling.name)
    returned = [] if government.role is None else [government.role]
    if government.role is not None:
        _back(game, government.role)  # the old role holder's piece goes back
    holder = ruling.leader
    if holder is not None:
        ruling.pieces.remove(holder)  # the leader's piece takes the role
    elif government.neutral > 0:
        holder, government.neutral = NEUTRAL, government.neutral - 1
    for owner in ruling.pieces:  # the other pieces go back
        _back(game, owner)
    returned += ruling.pieces
    ruling.pieces, ruling.leader = [], None
    government.role = holder if declared.role is not None else None
    if declared.role is None and holder is not None:
        _back(game, holder)  # no role to hold: the leader's piece goes back too
        returned.append(holder)
    if returned:  # told as one note: whose pieces went back, by owner (NEUTRAL: the neutral reserve's)
        game.log_event("pieces_back", None, ruling.name, tuple(sorted(returned, key=lambda o: (o == NEUTRAL, o))))
    government.dominant = dominant_after(government, ruling.name, forced=True)
    steps = [Step(bonus_given, (ruling.name, ctx.player))]
    if declared.role is not None and holder is not None and holder != NEUTRAL:
        steps.append(Step(role_taken, (holder,)))
    then(game, *steps)


@step
def bonus_given(game: "Table", name: str, player: int) -> None:
    """The new ruling faction's bonus, carried out once, as a cause of its own (so a narrator tells it apart from
    the pieces going back), decided by `player`."""
    game.begin("faction_bonus", None, name)
    effects.run_effects(game, game.elements.factions[name].bonus, 0, EffectContext(player), None)


@step
def role_taken(game: "Table", player: int) -> None:
    """A player's piece took the role with the new government: what the role gives, as a cause of its own."""
    game.begin("role", player, game.elements.government.role)
    effects.run_effects(game, game.elements.government.role_reward, 0, EffectContext(player), None)
