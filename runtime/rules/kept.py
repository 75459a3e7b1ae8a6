"""Cards kept on a card in play (`move card from hand to here`, Self-Replicating Robots): which of them its player may
play as if from hand (`cards here may be played as if from hand`), and at what discount. Questions only: the menu
(runtime/rules/legality.py) and the prices (runtime/rules/prices.py) ask them; runtime/handlers/zones.py puts the
cards there and takes them off.

Each card in play keeps its cards in `CardInPlay.kept`, `[name, resources on it]` pairs (None while it keeps none);
the cards are face up, public like the card they are on. Only games whose sets have such a card ask
(`GameElements.kept_cards`): the others pay nothing for the construct.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tharsis.compiler import effects as fx

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["kept_cards", "kept_discount", "kept_names"]


def kept_cards(game: "Table", player: int) -> list[tuple[str, str]]:
    """`(card kept, the card it is kept on)` for every card kept on the player's cards in play that a `cards here
    may be played as if from hand` of that card lets them play (the menu offers them beside the hand)."""
    result = []
    library = game.library
    for card in game.state.players[player].played:
        if card.kept and any(type(p) is fx.KeptPlayable for p in library[card.name].passives):
            result.extend((name, card.name) for name, _ in card.kept)
    return result


def kept_discount(game: "Table", player: int, name: str) -> int:
    """What card `name`, kept on one of the player's cards, costs less: the holder's N MC per resource on it."""
    library = game.library
    for card in game.state.players[player].played:
        if card.kept:
            for kept, resources in card.kept:
                if kept == name:
                    return sum(p.discount for p in library[card.name].passives if type(p) is fx.KeptPlayable) * \
                        resources
    return 0


def kept_names(game: "Table", player: int) -> list[str]:
    """The cards the player may play as if from hand besides the hand (none in a game without such a card)."""
    if not game.elements.kept_cards:
        return []
    return [name for name, _ in kept_cards(game, player)]
