"""Cards moving between zones: a card of a player's play area, played events or hand taken back to the hand,
discarded, or put into another player's play area (the handler of fx.MoveCard, after its card is picked).

A card leaving a play area ends its lasting effects and takes its resources with it (its tile stays on the board);
one entering a play area starts with none. The passive effects of both play areas are then counted again
(runtime/rules/passives.py caches them per play area). Interface: `moved`, the step that carries a pick out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.decisions import Decision, Option
from ..core.flow import ask, step
from ..core.state import CardInPlay

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["moved"]


@step
def moved(game: "Table", name: str, player: int, source: str, destination: str) -> None:
    """Take the picked card out of `source` and put it where `destination` says (another player: theirs to pick
    when there are several)."""
    state = game.state.players[player]
    if source == "hand":
        state.hand.remove(name)
    elif source == "events":
        state.events.remove(name)
    else:
        state.played.remove(state.card(name))
        game._passives.pop(player, None)
    if destination == "hand":
        state.hand.append(name)
    elif destination == "discard":
        definition = game.library[name]
        if definition.type in game.elements.card_kinds:   # under its own pile, never among the project cards
            game.state.piles.setdefault(definition.type, []).insert(0, name)
        else:
            game.state.discard.append(name)
    else:
        others = [p.index for p in game.state.players if p.index != player]
        if len(others) == 1:
            given(game, others[0], name)
        else:
            players = game.state.players
            ask(game, Decision(player, "player", f"Into whose play area does {name} go?",
                               tuple(Option(f"player {players[i].name}", i) for i in others)), given, name)


@step
def given(game: "Table", receiver: int, name: str) -> None:
    """The card joins the receiver's play area, with no resources; its lasting effects are theirs from now on."""
    game.state.players[receiver].played.append(CardInPlay(name))
    game._passives.pop(receiver, None)
