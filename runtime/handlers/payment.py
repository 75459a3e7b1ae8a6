"""Paying: the "how to pay" decision and buying cards (an effect handler).

Interface: `pay(game, player, cost, using, what, acceptable)` asks how to pay when there is more than one way and
takes the resources (never making change); `offer_cards` (a step) offers cards to buy one at a time. What things
cost and whether a player can pay is runtime/rules/prices.py's check; this module only takes what is paid.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from tharsis.compiler.vocabulary import plural

from ..core.decisions import Decision, Option, shared_options
from ..core.flow import ask, push, step
from ..rules.checks import payment_blind, possible, possible_in_some_order
from ..rules.prices import can_pay, heat_means, money_only, payment_options, starting_card_price
from ..rules.taxes import tax_rate

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["describe_payment", "discard_face_down", "offer_cards", "offer_some_cards", "pay", "spend", "taxed_steps"]


_BUY, _DECLINE = shared_options("buy {}", True, constant=True), shared_options("discard {}", False, constant=True)
_OFFERS: dict[str, tuple[Option, Option]] = {}   # (buy, decline) of each card: `_offer`


def _offer(name: str) -> tuple[Option, Option]:
    """The options of a card offered for purchase, both at once and kept (a research phase offers a card per
    decision, and options are never changed)."""
    found = _OFFERS.get(name)
    if found is None:
        found = _OFFERS[name] = (_BUY(name), _DECLINE(name))
    return found


def pay(game: "Table", player: int, cost: int, using: tuple[str, ...] = (), what: str = "",
        acceptable: Optional[tuple] = None) -> bool:
    """Ask how to pay when there is more than one way, then take the resources: True when it was paid at once,
    False when the player is asked (it is paid when they answer). `acceptable`, a triple (effects, context, in
    some order), keeps only the payments after which those effects can all still be carried out (in the order
    written, or in some order the player may choose)."""
    stock = game.state.players[player].resources
    if cost <= 0:
        return True  # the one payment is nothing
    if stock["megacredits"] >= cost and money_only(game, player, using):
        stock["megacredits"] -= cost  # the one payment: no question, nothing to filter
        return True
    options = payment_options(game, player, cost, using)
    if acceptable is not None and not payment_blind(game, acceptable[0]):
        # the checks before are conservative: never filter every payment away (effects whose checks read no stock,
        # `payment_blind`, keep every payment or none: nothing to filter)
        effects, ctx, some_order = acceptable
        check = possible_in_some_order if some_order else possible
        options = [o for o in options if check(game, effects, ctx, paid=o)] or options
    if not options:
        raise AssertionError(f"cannot pay {cost} for {what}")  # callers check can_pay first
    if len(options) == 1:
        paid(game, options[0], player)
        return True
    # a list comprehension, not a generator: a generator is resumed, as a call, for every option (docs/benchmarks.md)
    ask(game, Decision(player, "pay", f"Pay {cost} MC for {what}",
                       tuple([Option(describe_payment(o), o) for o in options])), paid, player)
    return False


def taxed_steps(game: "Table", player: int, steps: int) -> int:
    """The TR steps a player gains of `steps` under the taxes in force: all of them, their tax paid (at once when
    money alone can pay it, else asked how, next), or none when the player cannot pay the tax (the reference engine's
    ruling party's tax: the parameter still moves, the TR is not gained)."""
    rate = tax_rate(game, player) if steps > 0 else 0
    if not rate:
        return steps
    cost = rate * steps
    if not can_pay(game, player, cost):
        game.log_event("untaxed", player, steps, cost)
        return 0
    stock = game.state.players[player].resources
    if money_only(game, player, ()) and stock["megacredits"] >= cost:
        stock["megacredits"] -= cost
    else:
        push(game, pay_tax, player, cost)
    game.log_event("tax", player, steps, cost)
    return steps


@step
def pay_tax(game: "Table", player: int, cost: int) -> None:
    """The tax on TR steps already gained, paid as money is (asked how when heat may pay too); what the player can
    no longer pay (money spent since) is taken as far as it goes."""
    if can_pay(game, player, cost):
        pay(game, player, cost, (), "TR")
        return
    stock = game.state.players[player].resources
    stock["megacredits"] -= min(cost, stock["megacredits"])


@step
def paid(game: "Table", payment: dict, player: int) -> None:
    state = game.state.players[player]
    stock = state.resources
    for resource, amount in payment.items():
        if resource[0] == "@":  # resources on a card (`use RES here as N megacredits`)
            state.card(resource[1:]).resources -= amount
        else:
            stock[resource] -= amount


def spend(game: "Table", player: int, resource: str, amount: int) -> None:
    """Take `amount` of a resource from the player's stock; heat the stock lacks comes from the resources of their
    cards that stand in for it (`use fighters here as 2 heat`), the fewest that cover it, card by card in the order
    they came into play (the stock first: its heat has no other use to keep it for)."""
    state = game.state.players[player]
    stock = state.resources
    taken = min(amount, stock[resource])
    stock[resource] -= taken
    missing = amount - taken
    if missing <= 0 or resource != "heat":
        return
    for name, value in heat_means(game, player):
        card = state.card(name)
        if card is None or missing <= 0:
            continue
        used = min(card.resources, -(-missing // value))
        card.resources -= used
        missing -= used * value


# ------------------------------------------------------------------ buying cards

@step
def offer_cards(game: "Table", player: int, names: tuple, price, decider: Optional[int] = None) -> None:
    """Offer each card of `names` for `price` (None: the starting-card price, computed when the offer begins);
    an unaffordable or declined card is discarded. `decider`: who is asked which to buy, when not `player`
    (`decided by ... { look 4 buy }`); how they are paid for stays `player`'s own choice."""
    if price is None:
        price = starting_card_price(game, player)
        game.begin("starting_cards", player)
    while names:
        name, names = names[0], names[1:]
        if price == 0:
            game.state.players[player].hand.append(name)
            continue
        if can_pay(game, player, price):
            # `decider_argument` and `asking` written out: a research phase offers a card per decision
            if decider is None:
                if names:
                    push(game, offer_cards, player, names, price)
                asked, for_player = player, None
            else:
                if names:
                    push(game, offer_cards, player, names, price, decider)
                asked, for_player = decider, player
            ask(game, Decision(asked, "buy", f"Buy {name} for {price} MC?",
                               _offer(name), for_player),
                card_bought, player, name, price)
            return
        discard_face_down(game, player, (name,))


@step
def offer_some_cards(game: "Table", player: int, names: tuple, price: int, most: int) -> None:
    """Offer each card of `names` for `price` as `offer_cards` does, but buy no more than `most` of them (`research
    buy up to 4`): once that many are bought, the rest are discarded as declined cards are."""
    while names:
        name, names = names[0], names[1:]
        if most <= 0 or (price and not can_pay(game, player, price)):
            discard_face_down(game, player, (name,))
            continue
        if price == 0:
            game.state.players[player].hand.append(name)
            most -= 1
            continue
        ask(game, Decision(player, "buy", f"Buy {name} for {price} MC? (at most {most} more)", _offer(name)),
            some_card_bought, player, name, price, names, most)
        return


@step
def some_card_bought(game: "Table", buy: bool, player: int, name: str, price: int, names: tuple, most: int) -> None:
    """A card of `offer_some_cards` bought or declined; the rest are offered after its payment."""
    if names:
        push(game, offer_some_cards, player, names, price, most - 1 if buy else most)
    card_bought(game, buy, player, name, price)


@step
def card_bought(game: "Table", buy: bool, player: int, name: str, price: int) -> None:
    if not buy:
        discard_face_down(game, player, (name,))
        return
    if pay(game, player, price, (), f"buying {name}"):
        game.state.players[player].hand.append(name)
    else:  # asked how to pay (heat as money): the card joins the hand once paid
        push(game, add_to_hand, player, name)


def discard_face_down(game: "Table", player: int, names) -> None:
    """Cards a player declines (not bought, looked at and not kept) go to the discard pile face down (the rulebook):
    the other players know how many, only `player` which."""
    state = game.state
    state.discard.extend(names)
    for name in names:
        state.face_down[name] = player


@step
def add_to_hand(game: "Table", player: int, name: str) -> None:
    game.state.players[player].hand.append(name)


_ORDER = ("steel", "titanium", "heat", "megacredits")


def describe_payment(payment: dict) -> str:
    if not payment:
        return "nothing"
    # card resources (`@CARD`) come after the standard resources, the only ones in a payment made of them alone too;
    # a loop and a list, not generators (every option of every payment decision is described: docs/benchmarks.md)
    order = _ORDER
    for r in payment:
        if r not in _ORDER:   # a card's resources (`@Card`), or a stock resource paying for cards with a tag after heat
            order = ("steel", "titanium", "heat") + \
                tuple(sorted([r for r in payment if r[0] != "@" and r not in _ORDER])) + \
                tuple(sorted([r for r in payment if r[0] == "@"])) + ("megacredits",)
            break
    return " + ".join([f"{payment[r]} {_means_word(r, payment[r])}" for r in order if r in payment])


def _means_word(resource: str, amount: int) -> str:
    if resource == "megacredits":
        return "MC"
    if resource[0] == "@":
        return "from " + resource[1:]
    return plural(resource, amount)   # `2 plants`, `1 plant`
