"""Declared pieces and sites: where a piece may go, which site may be visited, how far a marker may move (a rules
check: nothing here changes the state).

A site (compiler/definitions.py `Site`) in play is a `SiteState` (core/state.py): its marker, whether it is active,
the owners of its pieces in order of arrival, and its visitor. The rules these checks state, for every site alike:
pieces hold the lowest steps, so the marker never stands below their number (its *floor*) nor past the last step of
the track; an inactive site is neither visited nor built on, and its marker does not move; a site takes one
visitor at a time, and holds at most `capacity` pieces, `per_player` of each player's unless that limit is lifted.
A kind of piece with a `supply:` is counted in each player's supply (`PlayerState.pieces`); one without has as many
as needed. Interface: `supply`, `has_free`, `visitable`, `placeable`, `can_move`, `moved`, `movable`, `floor`,
`last_step`, `owned`, `emptied` (sites that may leave play), `outside` (set-aside sites that may come in).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..core.state import SiteState

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["can_move", "emptied", "floor", "has_free", "last_step", "movable", "moved", "outside", "owned",
           "placeable", "supply", "visitable"]


def supply(game: "Table", player: int, piece: str) -> Optional[int]:
    """The pieces of a kind in the player's supply; None for a kind without a supply (as many as needed)."""
    declared = game.elements.pieces.get(piece)
    if declared is None or declared.supply is None:
        return None
    return game.state.players[player].pieces.get(piece, 0)


def has_free(game: "Table", player: int, piece: str) -> bool:
    """Whether the player has a piece of this kind to place or send now."""
    left = supply(game, player, piece)
    return left is None or left > 0


def floor(site: SiteState) -> int:
    """The lowest step the marker may stand on: the first step no piece covers."""
    return len(site.pieces)


def last_step(game: "Table", site: SiteState) -> int:
    return len(game.elements.sites[site.name].track) - 1


def visitable(game: "Table", piece: str, any_site: bool = False) -> list[SiteState]:
    """The active sites this kind of piece visits and that no piece visits now (`any_site`: visited or not, `send
    PIECE to any site`)."""
    sites = game.elements.sites
    return [s for s in game.state.sites if s.active and (any_site or s.visitor is None) and
            sites[s.name].visitor == piece]


def visiting(game: "Table", player: int, piece: str) -> list[SiteState]:
    """The sites a piece of the player's of this kind visits now (`send PIECE reusing one` may take it back)."""
    sites = game.elements.sites
    return [s for s in game.state.sites if (s.visitor == player or player in s.more_visitors) and
            sites[s.name].visitor == piece]


def placeable(game: "Table", player: int, piece: str, also_own: bool = False) -> list[SiteState]:
    """The active sites that hold this kind of piece and have room for one of the player's (`also_own`: the
    site's limit per player lifted)."""
    if not has_free(game, player, piece):
        return []
    sites, found = game.elements.sites, []
    for s in game.state.sites:
        declared = sites[s.name]
        if not s.active or declared.piece != piece or len(s.pieces) >= declared.capacity:
            continue
        if not also_own and declared.per_player is not None and s.pieces.count(player) >= declared.per_player:
            continue
        found.append(s)
    return found


def moved(game: "Table", site: SiteState, steps: int) -> int:
    """Where the marker of `site` stands after moving `steps` (up or down) within its floor and its last step."""
    return max(floor(site), min(last_step(game, site), site.marker + steps))


def can_move(game: "Table", site: SiteState, steps: int) -> bool:
    """Whether moving the marker `steps` changes anything: an active site whose marker is not stopped there."""
    return site.active and steps != 0 and moved(game, site, steps) != site.marker


def movable(game: "Table", steps: tuple, exclude: Optional[str] = None) -> list[SiteState]:
    """The sites whose marker the first of `steps` can move, such that another site can take each later move
    (`marker +1 on a site; marker -1 on another site`: a pair of different sites)."""
    first, rest = steps[0], steps[1:]
    found = []
    for site in game.state.sites:
        if site.name == exclude or not can_move(game, site, first):
            continue
        if rest and not movable(game, rest, site.name):
            continue
        found.append(site)
    return found


def owned(game: "Table", players, piece: str) -> int:
    """The pieces of a kind the players have: on sites (held or visiting) and in their supplies."""
    sites, total = game.elements.sites, 0
    wanted = set(players)
    for site in game.state.sites:
        declared = sites[site.name]
        if declared.piece == piece:
            total += sum(1 for owner in site.pieces if owner in wanted)
        if declared.visitor == piece and site.visitor in wanted:
            total += 1
        if site.more_visitors and declared.visitor == piece:   # `send PIECE to any site` (Coordinated Raid)
            total += sum(1 for owner in site.more_visitors if owner in wanted)
    if piece in game.elements.pieces and game.elements.pieces[piece].supply is not None:
        states = game.state.players
        total += sum(states[p].pieces.get(piece, 0) for p in wanted)
    return total


def emptied(game: "Table") -> list[SiteState]:
    """The sites in play that hold no piece and have no visitor: those that may be set aside."""
    return [s for s in game.state.sites if not s.pieces and s.visitor is None and not s.more_visitors]


def outside(game: "Table") -> list[str]:
    """The set-aside sites of the sets in play, which an effect may bring into play."""
    return list(game.state.set_aside)
