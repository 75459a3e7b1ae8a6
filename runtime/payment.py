"""Prices and payment: discounts, steel/titanium values, heat as money, and the "how to pay" decision.

Every price in the game goes through here: cards (printed cost minus discounts), standard projects, standard
actions (in plants or heat), milestones, awards and card purchases. Paying never makes change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Optional

from tharsis.compiler import effects as fx

from .decisions import Decision, Option, shared_options
from .flow import ask, push, step

if TYPE_CHECKING:
    from .game import Game

CARD_PRICE = 3
_BUY, _DECLINE = shared_options("buy {}", True, constant=True), shared_options("discard {}", False, constant=True)
BASE_VALUE = {"steel": 2, "titanium": 3}


class PaymentMixin:
    def passives(self: "Game", player: int, kind: type) -> list:
        """The player's active passive effects of one kind, from their corporation and cards in play.
        Cards never leave play, so the list is cached per player and rebuilt when a card is added."""
        return self._passive_cache(player)[1].get(kind, [])

    def _passive_cache(self: "Game", player: int) -> tuple:
        """(cards in play, passives by kind, derived values): the cache behind `passives`. The derived values
        (standard costs, substitutes for money, triggers with their cards) depend on nothing but the cards in play,
        so they live and die with them: a new card in play starts an empty table. Clones share an entry until one
        of them plays a card."""
        played = self.state.players[player].played
        cache = self._passives.get(player)
        if cache is None or cache[0] != len(played):
            by_kind: dict[type, list] = {}
            for card in played:
                for passive in self.library[card.name].passives:
                    by_kind.setdefault(type(passive), []).append(passive)
            cache = (len(played), by_kind, {})
            self._passives[player] = cache
        return cache

    def resource_value(self: "Game", player: int, resource: str) -> int:
        """What one steel or titanium is worth to the player (cached with the passives)."""
        derived = self._passive_cache(player)[2]
        value = derived.get(resource)
        if value is None:
            value = derived[resource] = BASE_VALUE[resource] + sum(
                m.delta for m in self.passives(player, fx.ResourceValue) if m.resource == resource)
        return value

    def leeway(self: "Game", player: int) -> int:
        """Steps of leeway on global requirements: from cards in play (cached) and for the next card played."""
        derived = self._passive_cache(player)[2]
        steps = derived.get("leeway")
        if steps is None:
            steps = derived["leeway"] = sum(m.steps for m in self.passives(player, fx.RequirementLeeway))
        modifiers = self.state.players[player].next_card_modifiers
        if modifiers:
            steps += sum(m.steps for m in modifiers if isinstance(m, fx.RequirementLeeway))
        return steps

    def card_cost(self: "Game", player: int, name: str) -> int:
        """A card's price: its cost minus the discounts of cards in play (cached) and for the next card."""
        card = self.library[name]
        derived = self._passive_cache(player)[2]
        discounts = derived.get("card discounts")
        if discounts is None:
            discounts = derived["card discounts"] = [d for d in self.passives(player, fx.Discount)
                                                     if _discounts_cards(d)]
        modifiers = self.state.players[player].next_card_modifiers
        if modifiers:
            discounts = discounts + [m for m in modifiers if isinstance(m, fx.Discount) and _discounts_cards(m)]
        total = 0
        for d in discounts:
            if d.target.tag is None or d.target.tag in card.tags:
                total += d.amount
        return max(0, card.cost - total)

    def standard_cost(self: "Game", player: int, definition) -> int:
        """The cost of a standard project or action after the player's discounts (cached with the passives:
        the menu asks this for every project at every turn)."""
        derived = self._passive_cache(player)[2]
        key = (definition.kind, definition.name)
        cost = derived.get(key)
        if cost is None:
            cost = derived[key] = self._discounted_standard_cost(player, definition)
        return cost

    def _discounted_standard_cost(self: "Game", player: int, definition) -> int:
        kind = definition.kind  # standard_project | standard_action
        resource = getattr(definition, "cost_resource", "megacredits")
        total = 0
        for d in self.passives(player, fx.Discount):
            if d.resource != resource:
                continue
            if d.target.kind == kind and d.target.name == definition.name:
                total += d.amount
            elif d.target.kind == "standard_projects" and kind == "standard_project":
                total += d.amount
        return max(0, definition.cost - total)

    def starting_card_price(self: "Game", player: int) -> int:
        discount = sum(d.amount for d in self.passives(player, fx.Discount) if d.target.kind == "starting_cards")
        return max(0, CARD_PRICE - discount)

    def substitutes(self: "Game", player: int) -> tuple[str, ...]:
        """What the player may pay money with besides steel and titanium (cached with the passives)."""
        derived = self._passive_cache(player)[2]
        found = derived.get("substitutes")
        if found is None:
            found = derived["substitutes"] = tuple(dict.fromkeys(  # each resource once, however many cards
                s.resource for s in self.passives(player, fx.Substitute) if s.instead_of == "megacredits"))
        return found

    def money_power(self: "Game", player: int) -> int:
        """The most the player can pay where only money and its substitutes (heat for Helion...) count: what
        `can_pay` adds up when no steel or titanium may be used."""
        stock = self.state.players[player].resources
        total = stock["megacredits"]
        for resource in self.substitutes(player):
            if stock[resource] > 0:
                total += stock[resource] * (self.resource_value(player, resource) if resource in BASE_VALUE else 1)
        return total

    def payment_options(self: "Game", player: int, cost: int, using: tuple[str, ...] = ()) -> list[dict]:
        """Every sensible way to pay `cost`: no resource beyond what is needed, money last."""
        return list(self.payments(player, cost, using))

    def payments(self: "Game", player: int, cost: int, using: tuple[str, ...] = ()) -> Iterator[dict]:
        """The payments of `payment_options`, one at a time (the most steel and titanium first)."""
        if cost <= 0:
            yield {}
            return
        stock = self.state.players[player].resources
        values = self._payment_values(player, using)
        if not values:
            if stock["megacredits"] >= cost:
                yield {"megacredits": cost}
            return
        yield from _payments(list(values), list(values.values()), stock, 0, cost, {})

    def _payment_values(self: "Game", player: int, using: tuple[str, ...]) -> dict[str, int]:
        """The resources besides money the player may pay this with now, and what each unit is worth."""
        stock = self.state.players[player].resources
        kinds = [r for r in ("steel", "titanium") if r in using and stock[r] > 0]
        kinds += [r for r in self.substitutes(player) if stock[r] > 0 and r not in kinds]
        return {r: (self.resource_value(player, r) if r in BASE_VALUE else 1) for r in kinds}

    def _money_only(self: "Game", player: int, using: tuple[str, ...]) -> bool:
        """Whether nothing but money can pay now (`_payment_values` would be empty), without building it."""
        stock = self.state.players[player].resources
        for resource in using:
            if resource in BASE_VALUE and stock[resource] > 0:
                return False
        for resource in self.substitutes(player):
            if stock[resource] > 0:
                return False
        return True

    def can_pay(self: "Game", player: int, cost: int, using: tuple[str, ...] = ()) -> bool:
        """Whether some payment covers `cost`, without listing the payments: overpaying with one steel or
        titanium is allowed, so the total value of what may be used decides."""
        if cost <= 0:
            return True
        stock = self.state.players[player].resources
        total = stock["megacredits"]
        if total >= cost:
            return True
        if not using:
            return self.money_power(player) >= cost
        substitutes = self.substitutes(player)
        if not using and not substitutes:  # money alone: the common case, no table of values to build
            return False
        for resource, value in self._payment_values(player, using).items():  # the same as payment_options
            total += stock[resource] * value
        return total >= cost

    def pay(self: "Game", player: int, cost: int, using: tuple[str, ...] = (), what: str = "",
            acceptable: Optional[tuple] = None) -> None:
        """Ask how to pay when there is more than one way, then take the resources. `acceptable`, a triple
        (effects, context, in some order), keeps only the payments after which those effects can all still be
        carried out (in the order written, or in some order the player may choose)."""
        stock = self.state.players[player].resources
        if cost <= 0:
            return  # the one payment is nothing
        if stock["megacredits"] >= cost and self._money_only(player, using):
            stock["megacredits"] -= cost  # the one payment: no question, nothing to filter
            return
        options = self.payment_options(player, cost, using)
        if acceptable is not None:  # the checks before are conservative: never filter every payment away
            effects, ctx, some_order = acceptable
            check = self.possible_in_some_order if some_order else self.possible
            options = [o for o in options if check(effects, ctx, paid=o)] or options
        if not options:
            raise AssertionError(f"cannot pay {cost} for {what}")  # callers check can_pay first
        if len(options) == 1:
            paid(self, options[0], player)
            return
        ask(self, Decision(player, "pay", f"Pay {cost} MC for {what}",
                           tuple(Option(describe_payment(o), o) for o in options)), paid, player)


def _discounts_cards(discount) -> bool:
    return discount.resource == "megacredits" and discount.target.kind == "cards"


@step
def paid(game: "Game", payment: dict, player: int) -> None:
    stock = game.state.players[player].resources
    for resource, amount in payment.items():
        stock[resource] -= amount


# ------------------------------------------------------------------ buying cards

@step
def offer_cards(game: "Game", player: int, names: tuple, price) -> None:
    """Offer each card of `names` for `price` (None: the starting-card price, computed when the offer begins);
    an unaffordable or declined card is discarded."""
    if price is None:
        price = game.starting_card_price(player)
    while names:
        name, names = names[0], names[1:]
        if price == 0:
            game.state.players[player].hand.append(name)
            continue
        if game.can_pay(player, price):
            if names:
                push(game, offer_cards, player, names, price)
            ask(game, Decision(player, "buy", f"Buy {name} for {price} MC?",
                               (_BUY(name), _DECLINE(name))),
                card_bought, player, name, price)
            return
        game.state.discard.append(name)


@step
def card_bought(game: "Game", buy: bool, player: int, name: str, price: int) -> None:
    if not buy:
        game.state.discard.append(name)
        return
    push(game, add_to_hand, player, name)
    game.pay(player, price, (), f"buying {name}")


@step
def add_to_hand(game: "Game", player: int, name: str) -> None:
    game.state.players[player].hand.append(name)


def _payments(kinds: list, values: list, stock: dict, index: int, remaining: int, chosen: dict) -> Iterator[dict]:
    if index == len(kinds):
        if stock["megacredits"] >= remaining:
            payment = dict(chosen)
            if remaining > 0:
                payment["megacredits"] = remaining
            yield payment
        return
    resource, value = kinds[index], values[index]
    most = min(stock[resource], -(-remaining // value)) if remaining > 0 else 0
    for amount in range(most, -1, -1):
        if amount:
            chosen[resource] = amount
        yield from _payments(kinds, values, stock, index + 1, max(0, remaining - amount * value), chosen)
        chosen.pop(resource, None)


def describe_payment(payment: dict) -> str:
    if not payment:
        return "nothing"
    order = ("steel", "titanium", "heat", "megacredits")
    return " + ".join(f"{payment[r]} {'MC' if r == 'megacredits' else r}" for r in order if r in payment)
