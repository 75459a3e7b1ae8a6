"""Buying cards as one choice for a human: the engine offers cards one at a time, the player picks them all at once.

The engine asks "buy X or discard X?" per card (runtime/game.py `offer_card`), which keeps the log a plain list of
labels. At the table a player looks at the ten starting cards (or the four research cards) together and keeps
some. `upcoming` finds the whole run of offers by answering "discard" on a clone of the game; `check` tries a
selection on another clone, so a selection the player cannot afford is refused before anything is applied; the
session then answers each real offer from the selection, so the log holds the same labels as card-by-card answers.
"""

from __future__ import annotations

import re
from typing import Optional, Union

import attrs

_PRICE = re.compile(r"for (\d+) MC")


@attrs.frozen
class Offer:
    player: int
    cards: tuple[str, ...]
    price: Optional[int]       # per card, from the decision's prompt; None if the prompt does not say


def card_of(label: str) -> str:
    """The card an offer's option names: "buy Birds" and "discard Birds" -> "Birds"."""
    return label.partition(" ")[2]


def upcoming(game, player: int) -> Offer:
    """The cards `player` is about to be offered in a row, starting with the pending decision."""
    copy = game.clone()
    cards: list[str] = []
    price = None
    while (decision := copy.pending()) is not None and decision.player == player and decision.kind == "buy":
        buy, discard = _buy_and_discard(decision)
        cards.append(card_of(buy.label))
        if price is None and (found := _PRICE.search(decision.prompt)):
            price = int(found.group(1))
        copy.apply(discard.label)
    return Offer(player, tuple(cards), price)


def _buy_and_discard(decision):
    buy = next(o for o in decision.options if o.label.startswith("buy "))
    discard = next(o for o in decision.options if o.label.startswith("discard "))
    return buy, discard


def parse(answer: str, offer: Offer) -> Union[list[str], str]:
    """The cards a `buy ...` answer selects (`buy 1 3 5`, `buy 1-3`, `buy all`, `buy none`, also without `buy`),
    or a message saying what is wrong with it."""
    words = answer.replace(",", " ").split()
    if words and words[0].lower() == "buy":
        words = words[1:]
    if not words:
        return "say which cards to buy: buy 1 3 5, buy all or buy none"
    if len(words) == 1 and words[0].lower() in ("all", "none"):
        return list(offer.cards) if words[0].lower() == "all" else []
    chosen: list[int] = []
    for word in words:
        low, dash, high = word.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            return f"{word!r} is not a card number; answer like: buy 1 3 5, buy 2-4, buy all or buy none"
        numbers = range(int(low), int(high) + 1) if dash else [int(low)]
        for number in numbers:
            if not 1 <= number <= len(offer.cards):
                return f"there is no card {number}: the cards are numbered 1-{len(offer.cards)}"
            if number - 1 not in chosen:
                chosen.append(number - 1)
    return [offer.cards[i] for i in sorted(chosen)]


def check(game, offer: Offer, chosen: list[str]) -> Optional[str]:
    """None if buying exactly `chosen` works; else why not (the money runs out before the last card)."""
    copy = game.clone()
    bought: list[str] = []
    while (decision := copy.pending()) is not None and decision.player == offer.player \
            and decision.kind in ("buy", "pay"):
        if decision.kind == "pay":
            copy.apply(decision.options[0].label)
            continue
        buy, discard = _buy_and_discard(decision)
        wanted = card_of(buy.label) in chosen
        copy.apply(buy.label if wanted else discard.label)
        if wanted:
            bought.append(card_of(buy.label))
    if len(bought) == len(chosen):
        return None
    price = f" at {offer.price} MC each" if offer.price is not None else ""
    return (f"you cannot afford {len(chosen)} cards{price}: {len(bought)} is the most you can pay for "
            f"(you have {game.state.players[offer.player].resources['megacredits']} MC)")


def plan(offer: Offer, chosen: list[str]) -> dict[str, str]:
    """The engine's answer for each offered card: "buy NAME" or "discard NAME"."""
    return {card: (f"buy {card}" if card in chosen else f"discard {card}") for card in offer.cards}
