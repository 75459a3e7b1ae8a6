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

from .problems import shorten

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


BEYOND = 10**9   # what a typed number of more than nine digits reads as: more than any option or card


def number(word: str) -> Optional[int]:
    """The number a typed word writes in the digits 0-9 (`3`, `07`), else None. `²`, `①` or `٣` are digits to
    `str.isdigit()` but not numbers `int()` reads, and a word of thousands of digits is more than `int()` reads at
    all: a number of more than nine digits is read as BEYOND."""
    if not word or not word.isascii() or not word.isdigit():
        return None
    digits = word.lstrip("0") or "0"
    return int(digits) if len(digits) <= 9 else BEYOND


def not_a_number(word: str) -> Optional[str]:
    """Why a word made of digits other than 0-9 (`²`, `①`, `٣`) is refused, or None for any other word."""
    if word.isdigit() and number(word) is None:
        return f"{shorten(word, 20)!r} is not a number you can answer with: type numbers with the digits 0-9"
    return None


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
        first, last = number(low), number(high) if dash else number(low)
        if first is None or last is None:
            return (not_a_number(low) or not_a_number(high) or f"{shorten(word, 20)!r} is not a card number; "
                    "answer like: buy 1 3 5, buy 2-4, buy all or buy none")
        for card in range(first, last + 1):
            if not 1 <= card <= len(offer.cards):
                shown = card if card < BEYOND else shorten(low, 20)  # only a first number beyond reaches BEYOND
                return f"there is no card {shown}: the cards are numbered 1-{len(offer.cards)}"
            if card - 1 not in chosen:
                chosen.append(card - 1)
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
