"""Factions and the government, as checks: the policy in force, who may place, remove or replace a piece, take the
role or use a policy action, and where a faction's lead and the dominance would go (a rules check: nothing here
changes the state; runtime/handlers/politics.py carries the changes out).

The semantics are the reference engine's (its party and political-phase modules), written without its names:
- a faction's leader is the owner of its first piece; it changes only when another owner has more pieces there than
  the leader's owner (ties keep it); then the new leader is the first owner with the most pieces, looking from the old
  leader's seat in turn order (from the acting player's, for a neutral leader), neutral last;
- the dominant faction has the most pieces; a tie keeps it; when it loses the lead, the new one is the faction with
  the most found first walking the board order backwards from it (the faction itself left out).
Interface: `policy`, `policy_actions`, `leader_of`, `dominant_after`, `can_place_pieces`, `removable`, `replaceable`,
`can_take_role`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..core.state import ACTION, NEUTRAL

if TYPE_CHECKING:
    from ..core.state import FactionState, GovernmentState
    from ..core.table import Table

__all__ = ["can_place_pieces", "can_take_role", "dominant_after", "leader_of", "policy", "policy_actions", "removable",
           "replaceable"]


def policy(game: "Table") -> Optional[str]:
    """The faction whose policy is in force: the ruling one, during the action phase only (the reference engine's
    policies never act in production, between generations or in the final greenery phase)."""
    government = game.state.government
    return government.ruling if government is not None and game.state.phase == ACTION else None


def policy_actions(game: "Table") -> Optional[str]:
    """The ruling faction when its policy is in force and offers actions (else None)."""
    name = policy(game)
    return name if name is not None and game.elements.factions[name].actions else None


def leader_of(faction: "FactionState", order: list[int], actor: int) -> Optional[int]:
    """Who leads the faction once its pieces changed: the leader stays while nobody has more pieces there; else the
    first owner with the most, in turn order from the old leader's seat (the actor's, for a neutral leader), neutral
    last. None when the faction is empty."""
    if not faction.pieces:
        return None
    leader = faction.leader
    if leader is None:
        return faction.pieces[0]
    most = max(faction.pieces.count(owner) for owner in set(faction.pieces))
    if faction.pieces.count(leader) == most:
        return leader
    seat = actor if leader == NEUTRAL else leader
    start = order.index(seat) if seat in order else 0
    for owner in order[start:] + order[:start] + [NEUTRAL]:
        if faction.pieces.count(owner) == most:
            return owner
    return leader


def dominant_after(government: "GovernmentState", current: Optional[str], forced: bool = False) -> Optional[str]:
    """The dominant faction: `current` while it has the most pieces (unless `forced`: a new one must be found, the
    ruling faction having just emptied); else the first faction with the most walking the board order backwards from
    `current`, `current` itself left out."""
    factions = government.factions
    if not factions:
        return None
    most = max(len(f.pieces) for f in factions)
    names = [f.name for f in factions]
    if current not in names:
        return next(f.name for f in factions if len(f.pieces) == most)
    at = names.index(current)
    if not forced and len(factions[at].pieces) == most:
        return current
    for step in range(1, len(factions)):
        candidate = factions[(at - step) % len(factions)]
        if len(candidate.pieces) == most:
            return candidate.name
    return current


def can_place_pieces(game: "Table", player: int, count: int, neutral: bool) -> bool:
    """Whether `count` pieces can be placed from the player's reserve (the neutral reserve)."""
    government = game.state.government
    if government is None:
        return False
    if neutral:
        return government.neutral >= count
    piece = game.elements.government.piece
    return game.state.players[player].pieces.get(piece, 0) >= count


def removable(game: "Table") -> list[tuple[str, int]]:
    """(faction, owner) of every piece that may be removed: one that leads no faction (a leader's owner with more
    than one piece there has such a piece), in board order, then turn order, neutral last."""
    government = game.state.government
    if government is None:
        return []
    owners = game.turn_order() + [NEUTRAL]
    found = []
    for faction in government.factions:
        for owner in owners:
            if faction.count(owner) - (1 if faction.leader == owner else 0) > 0:
                found.append((faction.name, owner))
    return found


def replaceable(game: "Table", player: int) -> list[str]:
    """The factions with a neutral piece that leads nothing, which one of the player's reserve pieces may replace."""
    if not can_place_pieces(game, player, 1, False):
        return []
    return [name for name, owner in removable(game) if owner == NEUTRAL]


def can_take_role(game: "Table", player: int) -> bool:
    """Whether the player may take the role: held by nobody (a neutral piece), and a piece in their reserve."""
    government = game.state.government
    return government is not None and game.elements.government.role is not None and \
        government.role in (NEUTRAL, None) and can_place_pieces(game, player, 1, False)
