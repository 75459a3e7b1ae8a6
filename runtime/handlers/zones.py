"""Cards moving between zones: a card of a player's play area, played events or hand taken back to the hand,
discarded, or put into another player's play area (the handler of fx.MoveCard, after its card is picked); cards
revealed from the deck that the players take into hand in turn (fx.SharedReveal).

A card leaving a play area ends its lasting effects and takes its resources with it (its tile stays on the board);
one entering a play area starts with none. The passive effects of both play areas are then counted again
(runtime/rules/passives.py caches them per play area). Interface: `moved`, the step that carries a pick out;
`shared_reveal` (the handler) and `taking_revealed` (whether the question asked is a pick of revealed cards, which a
bot values as it values a card kept).

A shared reveal is public: every player sees the cards revealed and who takes which (the log names them), so its
frames hold the cards for everyone (runtime/api/hidden.py); each pick is a question put to the player who picks,
not to the card's owner.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..core.decisions import Decision, Option, asking, shared_options
from ..core.flow import ask, step
from ..core.state import CardInPlay
from ..rules.measures import quantity

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["double_kept", "moved", "shared_reveal", "take_kept", "taking_revealed"]


@step
def moved(game: "Table", name: str, player: int, source: str, destination: str, decider: Optional[int] = None,
          holder: Optional[str] = None, resources: int = 0) -> None:
    """Take the picked card out of `source` and put it where `destination` says (another player: theirs to pick
    when there are several; `decider`'s, who picked the card, in a `decided by ... { }` block; `here`: kept face up
    on the card `holder` of the player's, with `resources` on it)."""
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
    elif destination == "here":
        kept_on = state.card(holder)
        if kept_on is None:   # the card left play before the pick was answered: the card goes back to hand
            state.hand.append(name)
            return
        if kept_on.kept is None:
            kept_on.kept = []
        kept_on.kept.append([name, resources])
        game.log_event("kept", player, name, holder)
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
            asked, for_player = asking(player, decider)
            ask(game, Decision(asked, "player", f"Into whose play area does {name} go?",
                               tuple(Option(f"player {players[i].name}", i) for i in others), for_player), given, name)


@step
def given(game: "Table", receiver: int, name: str) -> None:
    """The card joins the receiver's play area, with no resources; its lasting effects are theirs from now on."""
    game.state.players[receiver].played.append(CardInPlay(name))
    game._passives.pop(receiver, None)


# ------------------------------------------------------------------ cards revealed for every player to pick from

def shared_reveal(game: "Table", e, ctx) -> None:
    """`reveal QUANTITY cards, each player takes K [until none left]`: the cards come off the deck face up, then the
    players pick, in turn order from the card's owner (ctx.player), K each at their turn; once every player has had
    a turn the rest are discarded, unless the picks go round until none is left."""
    revealed = tuple(game.take_from_deck(quantity(game, e.count, ctx.where)))
    if not revealed:
        return
    game.log_event("reveal_shared", ctx.player, revealed)
    order = game.turn_order()
    start = order.index(ctx.player) if ctx.player in order else 0
    pick_next(game, revealed, tuple(order[start:] + order[:start]), 0, e.take, e.until_none_left)


@step
def pick_next(game: "Table", revealed: tuple, pickers: tuple, turn: int, take: int, rounds: bool) -> None:
    """The next pick of `revealed` (the cards not taken yet), the `turn`-th of the round: `pickers[turn // take]`
    picks (going round when `rounds`); when every player has picked (or nothing is left) the rest are discarded."""
    if not revealed:
        return
    if not rounds and turn >= take * len(pickers):
        game.state.discard.extend(revealed)
        game.log_event("discard_revealed", None, revealed)
        return
    picker = pickers[(turn // take) % len(pickers)]
    ask(game, Decision(picker, "card", "Which revealed card do you take into hand?",
                       tuple(map(_take_option, revealed))), revealed_taken, revealed, pickers, turn, take, rounds)


@step
def revealed_taken(game: "Table", name: str, revealed: tuple, pickers: tuple, turn: int, take: int,
                   rounds: bool) -> None:
    picker = pickers[(turn // take) % len(pickers)]
    rest = list(revealed)
    rest.remove(name)
    game.state.players[picker].hand.append(name)
    game.log_event("take_revealed", picker, name)
    pick_next(game, tuple(rest), pickers, turn + 1, take, rounds)


_take_option = shared_options("take {}")


def taking_revealed(game: "Table") -> bool:
    """Whether the question asked is a pick of cards revealed for every player (a bot takes the card it values
    most, as when it keeps a card)."""
    asking = game.flow.asking
    return asking is not None and asking.resume is revealed_taken


# ------------------------------------------------------------------ cards kept on a card in play

def take_kept(game: "Table", player: int, name: str) -> bool:
    """Take card `name` off the player's card it is kept on, its resources with it (as it is played); False when it
    is kept on none."""
    for card in game.state.players[player].played:
        if card.kept:
            for pair in card.kept:
                if pair[0] == name:
                    card.kept.remove(pair)
                    if not card.kept:
                        card.kept = None   # as a card that never kept any (saves, equality)
                    return True
    return False


def double_kept(game: "Table", e, ctx) -> None:
    """`double resources on a card here`: the player picks one of the cards kept on this card (asked when there
    are several)."""
    card = game.state.players[ctx.player].card(ctx.card)
    names = [name for name, _ in card.kept] if card is not None and card.kept else []
    if len(names) == 1:
        doubled(game, names[0], ctx.player, ctx.card)
    elif names:
        ask(game, ctx.question("card", "Double the resources on which card here?",
                               tuple(Option(f"card {name}", name) for name in names)), doubled, ctx.player, ctx.card)


@step
def doubled(game: "Table", name: str, player: int, holder: str) -> None:
    card = game.state.players[player].card(holder)
    for pair in card.kept if card is not None and card.kept else ():
        if pair[0] == name:
            pair[1] *= 2
            game.log_event("kept_doubled", player, name, pair[1])
