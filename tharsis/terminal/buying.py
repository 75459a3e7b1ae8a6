"""Buying cards as one choice for a human: the engine offers cards one at a time, the player picks them all at once.

The engine asks "buy X or discard X?" per card (runtime/api/game.py `offer_card`), which keeps the log a plain list of
labels. At the table a player looks at the ten starting cards (or the four research cards) together and keeps
some. `upcoming` finds the whole run of offers by answering "discard" on a clone of the game; `check` tries a
selection on another clone, so a selection the player cannot afford is refused before anything is applied; the
session then answers each real offer from the selection, so the log holds the same labels as card-by-card answers.
"""

from __future__ import annotations

import re
from typing import Optional, Union

import attrs

from ..problems import shorten
from .messages import words

_PRICE = re.compile(r"for (\d+) MC")


@attrs.frozen
class Offer:
    player: int
    cards: tuple[str, ...]
    price: Optional[int]       # per card, from the decision's prompt; None if the prompt does not say
    payer: Optional[int] = None   # whose money buys them when another player picks (`decided by`); None: `player`

    @property
    def buyer(self) -> int:
        """The player whose money buys the cards (and whose hand they join)."""
        return self.player if self.payer is None else self.payer


def card_of(label: str) -> str:
    """The card an offer's option names: "buy Birds" and "discard Birds" -> "Birds"."""
    return label.partition(" ")[2]


def upcoming(game, player: int) -> Offer:
    """The cards `player` is about to be offered in a row, starting with the pending decision."""
    copy = game.clone()
    cards: list[str] = []
    price = None
    first = copy.pending()
    payer = first.for_player if first is not None else None
    # the offers asked of `player` for one buyer (their own, or another's whose cards they pick: `decided by`)
    while (decision := copy.pending()) is not None and decision.player == player and decision.kind == "buy" \
            and decision.for_player == payer:
        buy, discard = _buy_and_discard(decision)
        cards.append(card_of(buy.label))
        if price is None and (found := _PRICE.search(decision.prompt)):
            price = int(found.group(1))
        copy.apply(discard.label)
    return Offer(player, tuple(cards), price, payer)


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


def not_a_number(word: str, language: str = "en") -> Optional[str]:
    """Why a word made of digits other than 0-9 (`²`, `①`, `٣`) is refused, or None for any other word."""
    if word.isdigit() and number(word) is None:
        return words(language)("not_a_digit", word=shorten(word, 20))
    return None


# the words of an answer, in every language (a Chinese player may type either): buy, all, none
_BUY, _ALL, _NONE = ("buy", "买", "购买"), ("all", "全部", "全买"), ("none", "不买", "都不买")


def parse(answer: str, offer: Offer, language: str = "en") -> Union[list[str], str]:
    """The cards a `buy ...` answer selects (`buy 1 3 5`, `buy 1-3`, `buy all`, `buy none`, also without `buy`;
    买 1 3 5, 全部, 不买 too), or a message saying what is wrong with it (in `language`)."""
    say = words(language)
    typed = answer.replace(",", " ").replace("，", " ").replace("、", " ").split()
    if typed and typed[0].lower() in _BUY:
        typed = typed[1:]
    elif typed and typed[0][:1] in ("买",) and typed[0] not in _NONE + _ALL:  # 买1 3 5: no space after 买
        typed[0] = typed[0][1:]
    if not typed:
        return say("say_which")
    if len(typed) == 1 and typed[0].lower() in _ALL + _NONE:
        return list(offer.cards) if typed[0].lower() in _ALL else []
    chosen: list[int] = []
    for word in typed:
        low, dash, high = word.partition("-")
        first, last = number(low), number(high) if dash else number(low)
        if first is None or last is None:
            return (not_a_number(low, language) or not_a_number(high, language)
                    or say("not_a_card_number", word=shorten(word, 20)))
        if first > last:  # `buy 3-1` would select nothing, and the player would buy nothing without a word
            return say("backwards_range", word=shorten(word, 20), fixed=f"{shorten(high, 9)}-{shorten(low, 9)}")
        for card in range(first, last + 1):
            if not 1 <= card <= len(offer.cards):
                shown = card if card < BEYOND else shorten(low, 20)  # only a first number beyond reaches BEYOND
                return say("no_card_number", number=shown, n=len(offer.cards))
            if card - 1 not in chosen:
                chosen.append(card - 1)
    return [offer.cards[i] for i in sorted(chosen)]


def check(game, offer: Offer, chosen: list[str], language: str = "en") -> Optional[str]:
    """None if buying exactly `chosen` works; else why not (the money runs out before the last card)."""
    copy = game.clone()
    bought: list[str] = []
    while (decision := copy.pending()) is not None and (
            (decision.kind == "buy" and decision.player == offer.player and decision.for_player == offer.payer)
            or (decision.kind == "pay" and decision.player == offer.buyer)):
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
    say = words(language)
    price = say("at_each", price=offer.price) if offer.price is not None else ""
    return say("cannot_afford", cards=say("cards_count", n=len(chosen)), price=price, bought=len(bought),
               mc=game.state.players[offer.buyer].resources["megacredits"])


def plan(offer: Offer, chosen: list[str]) -> dict[str, str]:
    """The engine's answer for each offered card: "buy NAME" or "discard NAME"."""
    return {card: (f"buy {card}" if card in chosen else f"discard {card}") for card in offer.cards}
