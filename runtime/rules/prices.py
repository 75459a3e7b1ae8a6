"""Prices and what a player can pay: discounts, steel/titanium values, heat as money (a rules check).

Interface: `card_cost`, `standard_cost`, `starting_card_price`, `card_price`, `leeway` (requirement steps),
`resource_value`, `substitutes`, `money_power`, `can_pay`, and the ways to pay (`payments`, `payment_options`,
`money_only`). Why here: every price in the game (cards, standard projects and actions, milestones, awards, card
purchases) is asked by the legality checks, the menu and the bots thousands of times a game, never changing the
state; taking the payment is runtime/handlers/payment.py's. Derived values are cached with the passives
(runtime/rules/passives.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Optional

from tharsis.compiler import effects as fx

from .card_filters import card_matches
from .kept import kept_discount
from .measures import Where, quantity
from .passives import passive_cache, passives, sourced

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["BASE_VALUE", "CARD_PRICE", "action_effects", "available", "can_pay", "can_pay_price", "can_spend",
           "heat_means", "heat_power", "card_cost", "card_means", "goal_price",
           "card_price", "leeway", "money_only", "money_power", "payment_options", "payments", "resource_value",
           "project_means", "standard_cost", "standard_prices", "starting_card_price", "stock_means_value",
           "scaled_discounts", "substitutes"]

CARD_PRICE = 3
BASE_VALUE = {"steel": 2, "titanium": 3}


def resource_value(game: "Table", player: int, resource: str) -> int:
    """What one steel or titanium is worth to the player (cached with the passives)."""
    derived = passive_cache(game, player)[2]
    value = derived.get(resource)
    if value is None:
        value = derived[resource] = BASE_VALUE[resource] + sum(
            m.delta for m in passives(game, player, fx.ResourceValue) if m.resource == resource)
    return value


def leeway(game: "Table", player: int):
    """Steps of leeway on global requirements, from cards in play (cached) and for the next card played: an int
    for every global parameter alike, or, when some leeway names one parameter (`radiation requirements +-2`), a dict
    of steps by parameter (None: every parameter)."""
    derived = passive_cache(game, player)[2]
    steps = derived.get("leeway")
    if steps is None:
        steps = derived["leeway"] = _leeway_sum(passives(game, player, fx.RequirementLeeway))
    modifiers = game.state.players[player].next_card_modifiers
    if modifiers:
        extra = _leeway_sum(m for m in modifiers if isinstance(m, fx.RequirementLeeway))
        if steps.__class__ is int and extra.__class__ is int:
            return steps + extra
        total = dict(steps) if steps.__class__ is dict else {None: steps}
        for key, value in (extra.items() if extra.__class__ is dict else ((None, extra),)):
            total[key] = total.get(key, 0) + value
        return total
    return steps


def _leeway_sum(modifiers):
    general, named = 0, {}
    for m in modifiers:
        if m.parameter is None:
            general += m.steps
        else:
            named[m.parameter] = named.get(m.parameter, 0) + m.steps
    if not named:
        return general
    named[None] = general
    return named


def card_cost(game: "Table", player: int, name: str) -> int:
    """A card's price: its cost minus the discounts of cards in play (cached) and for the next card."""
    card = game.library[name]
    cache = passive_cache(game, player)
    derived = cache[2]
    discounts = derived.get("card discounts")
    if discounts is None:
        discounts = derived["card discounts"] = [d for d in passives(game, player, fx.Discount)
                                                 if _discounts_cards(d)]
    modifiers = game.state.players[player].next_card_modifiers
    if modifiers:
        discounts = discounts + [m for m in modifiers if isinstance(m, fx.Discount) and _discounts_cards(m)]
    total = 0
    for d in discounts:
        if d.per is None and (d.target.tag is None or d.target.tag in card.tags) and \
                (d.target.cards is None or card_matches(card, d.target.cards)):
            # `discount 2 on cards per building tag`: 2 off for each building tag of the card
            total += d.amount if d.per_tag is None else d.amount * card.tags.count(d.per_tag)
    if game.elements.kept_cards:   # a card kept on a card of the player's: N MC less per resource on it
        total += kept_discount(game, player, name)
    if cache[0] < 0:   # a discount scaled by a quantity, which the cache never keeps (passives.py)
        for source, d in scaled_discounts(game, player):
            if _discounts_cards(d) and (d.target.tag is None or d.target.tag in card.tags) and \
                    (d.target.cards is None or card_matches(card, d.target.cards)):
                total += _scaled(game, player, source, d)
    return max(0, card.cost - total)


def scaled_discounts(game: "Table", player: int) -> list:
    """(card, discount) of each discount of the player scaled by a quantity (`per 2 orbitals here`), the card being
    what `here` means; asked only when the player has one."""
    found = []
    for source, d in sourced(game, player, fx.Discount):
        if d.per is not None:
            found.append((source, d))
    return found


def _scaled(game: "Table", player: int, source: str, d) -> int:
    """What a scaled discount takes off now: its amount for each (or each `per N`) of its quantity, counted for
    the player with `here` the card it is on."""
    return d.amount * (quantity(game, d.per, Where(player, source)) // d.divisor)


def standard_cost(game: "Table", player: int, definition) -> int:
    """The cost of a standard project or action after the player's discounts (cached with the passives:
    the menu asks this for every project at every turn)."""
    derived = passive_cache(game, player)[2]
    key = id(definition)  # the game's library outlives its caches; an int hashes faster than a tuple
    cost = derived.get(key)
    if cost is None:
        cost = derived[key] = _discounted_standard_cost(game, player, definition)
    return cost


def _discounted_standard_cost(game: "Table", player: int, definition) -> int:
    resource = getattr(definition, "cost_resource", "megacredits")
    return _discounted(game, player, definition, definition.cost, resource)


def _discounted(game: "Table", player: int, definition, cost: int, resource: str) -> int:
    """One cost of a standard project or action after the player's discounts: a discount naming a resource lowers
    the cost in that resource; one in megacredits (no resource written) lowers the cost in megacredits and, on a
    standard project or action with alternative costs, each of them (9 MC, 3 energy or 3 titanium: 8, 2 or 2 after 1
    off)."""
    kind = definition.kind  # standard_project | standard_action
    every = bool(definition.alternatives)
    total = 0
    scaled = passive_cache(game, player)[0] < 0   # some discount is scaled by a quantity (passives.py)
    for source, d in (sourced(game, player, fx.Discount) if scaled else
                      [(None, d) for d in passives(game, player, fx.Discount)]):
        # `discount 1 megacredits on standard action "Trade"`: its price in megacredits only
        if d.resource != resource and not (every and d.resource == "megacredits" and not d.resource_written):
            continue
        if (d.target.kind == kind and d.target.name == definition.name) or \
                (d.target.kind == "standard_projects" and kind == "standard_project"):
            total += d.amount if d.per is None else _scaled(game, player, source, d)
    return max(0, cost - total)


def action_effects(game: "Table", player: int, name: str, effects: tuple) -> tuple:
    """The effects of an option of the action of `name` (a card's, a corporation's or a faction's policy action: its
    cost and effects in one list) as the player carries them out: their `discount N on action of "NAME"` taken off
    what its fixed `pay N megacredits` asks (the first such payment, then the next, never below 0). Unchanged in a game
    where no card discounts an action (`GameElements.action_discounts`), or for a player with no such discount."""
    if not game.elements.action_discounts:
        return effects
    total, scaled = 0, False
    for d in passives(game, player, fx.Discount):   # cached; the card a scaled one is on is looked for only then
        if d.target.kind == "action" and d.target.name == name:
            if d.per is None:
                total += d.amount
            else:
                scaled = True
    if scaled:
        for source, d in sourced(game, player, fx.Discount):
            if d.per is not None and d.target.kind == "action" and d.target.name == name:
                total += _scaled(game, player, source, d)
    if total <= 0:
        return effects
    lowered = []
    for e in effects:
        if total and e.__class__ is fx.Pay and not e.amount.variable and e.amount.per is None:
            taken = min(total, e.amount.coefficient)
            total -= taken
            e = fx.Pay(fx.Amount(e.amount.coefficient - taken), e.using)
        lowered.append(e)
    return tuple(lowered)


def standard_prices(game: "Table", player: int, definition) -> tuple[tuple[int, str], ...]:
    """Every way to pay a standard project or action, (amount, resource) after the player's discounts (cached
    with the passives); one way for most of them."""
    if not definition.alternatives:
        return ((standard_cost(game, player, definition), getattr(definition, "cost_resource", "megacredits")),)
    derived = passive_cache(game, player)[2]
    key = ("prices", id(definition))
    prices = derived.get(key)
    if prices is None:
        prices = derived[key] = tuple((_discounted(game, player, definition, amount, resource), resource)
                                      for amount, resource in definition.prices)
    return prices


def can_pay_price(game: "Table", player: int, amount: int, resource: str) -> bool:
    """Whether the player can pay one cost of a standard project or action: megacredits as any payment of money
    (Helion's heat...), another resource from the stock."""
    if resource == "megacredits":
        return can_pay(game, player, amount)
    return can_spend(game, player, resource, amount)


def goal_price(game: "Table", player: int, kind: str, cost: int, derived: Optional[dict] = None) -> int:
    """What claiming a milestone (kind "milestones") or funding an award ("awards") costs the player: `cost`, the
    printed price, less their `discount N on milestones | awards` (Nirgal Enterprises': never below 0). The sum of
    their discounts is cached with the passives: the menu asks it at every turn. `derived`: the player's derived
    values when the caller holds them already (the turn's menu), as for `money_power`."""
    if derived is None:
        derived = passive_cache(game, player)[2]
    discount = derived.get(kind)
    if discount is None:   # a loop, not a generator: the compiled build's cpdef functions take no closures
        discount = 0
        for d in passives(game, player, fx.Discount):
            if d.target.kind == kind and d.resource == "megacredits":
                discount += d.amount
        derived[kind] = discount
    return cost - discount if cost > discount else 0


def starting_card_price(game: "Table", player: int) -> int:
    discount = sum(d.amount for d in passives(game, player, fx.Discount)
                   if d.target.kind == "starting_cards" and d.per is None)
    if passive_cache(game, player)[0] < 0:   # a discount scaled by a quantity (passives.py)
        discount += sum(_scaled(game, player, source, d) for source, d in scaled_discounts(game, player)
                        if d.target.kind == "starting_cards")
    return max(0, card_price(game, player) - discount)


def substitutes(game: "Table", player: int) -> tuple[str, ...]:
    """What the player may pay money with besides steel and titanium (cached with the passives)."""
    derived = passive_cache(game, player)[2]
    found = derived.get("substitutes")
    if found is None:
        found = derived["substitutes"] = tuple(dict.fromkeys(  # each resource once, however many cards
            s.resource for s in passives(game, player, fx.Substitute)
            if s.instead_of == "megacredits" and not s.here and s.tag is None and not s.projects))
    return found


def card_means(game: "Table", player: int, card) -> tuple[str, ...]:
    """The card resources that may pay for `card` (`use balloons here as 3 megacredits for space cards`): each as
    "@CARD", the card in play they lie on, when it holds some; and the resources of the stock that pay for cards
    with its tag only (`use plants as 3 megacredits for building cards`), by name, when the stock has some. Empty
    for almost every player (cached lookup)."""
    if not game.elements.card_payments:  # no card of the game's content pays with its resources
        return ()
    derived = passive_cache(game, player)[2]
    found = derived.get("card means")
    if found is None:
        found = derived["card means"] = tuple(
            (in_play.name, s) for in_play in game.state.players[player].played
            for s in game.library[in_play.name].passives
            if isinstance(s, fx.Substitute) and s.here and s.instead_of == "megacredits") + tuple(
            (None, s) for s in passives(game, player, fx.Substitute) if _pays_for_tagged_cards(s))
    if not found:
        return ()
    means = []
    for name, substitute in found:
        if substitute.projects:   # `for standard project "Aquifer"`: towards those projects, no card
            continue
        if substitute.tag is None or substitute.tag in card.tags:
            if name is None:   # a resource of the stock, for cards with that tag
                if game.state.players[player].resources[substitute.resource] > 0 and substitute.resource not in means:
                    means.append(substitute.resource)
                continue
            in_play = game.state.players[player].card(name)
            if in_play is not None and in_play.resources > 0:
                means.append("@" + name)
    return tuple(means)


def _pays_for_tagged_cards(s: fx.Substitute) -> bool:
    """A resource of the stock that pays megacredits for cards with a tag only (`use plants as 3 megacredits for
    building cards`)."""
    return not s.here and s.tag is not None and s.instead_of == "megacredits"


def _tagged_stock(game: "Table", player: int) -> frozenset:
    """The stock resources that pay for cards with a tag only (`use plants as 3 megacredits for building cards`):
    none unless some card of the game's content says so (cached with the passives)."""
    if not game.elements.card_payments:
        return frozenset()
    derived = passive_cache(game, player)[2]
    found = derived.get("tagged stock")
    if found is None:
        found = derived["tagged stock"] = frozenset(
            s.resource for s in passives(game, player, fx.Substitute) if _pays_for_tagged_cards(s))
    return found


def project_means(game: "Table", player: int, project: str) -> tuple[str, ...]:
    """What besides money may pay for the standard project `project`: the card resources of `use asteroids here as
    1 megacredits for standard project "Aquifer" or "Asteroid"`, each as "@CARD" when its card holds some, and the
    stock resources of `use steel as megacredits for standard project "City"` (Prefabrication of Human Habitats), by
    name, at their value for a card, when the stock has some. Empty for almost every player (nothing looked at when
    no card of the game's content lets anything pay for a standard project)."""
    if not game.elements.project_payments:
        return ()
    means = []
    for in_play in game.state.players[player].played:
        for s in game.library[in_play.name].passives:
            if isinstance(s, fx.Substitute) and s.here and project in s.projects and in_play.resources > 0 and \
                    "@" + in_play.name not in means:
                means.append("@" + in_play.name)
                break
    stock = game.state.players[player].resources
    for s in passives(game, player, fx.Substitute):
        if not s.here and project in s.projects and stock[s.resource] > 0 and s.resource not in means:
            means.append(s.resource)
    return tuple(means)


def stock_means_value(game: "Table", player: int, resource: str) -> int:
    """What one unit of a stock resource pays, in megacredits, where it pays for cards with a tag only (`use plants
    as 3 megacredits for building cards`): the best of the player's such modifiers."""
    return max((s.value for s in passives(game, player, fx.Substitute)
                if s.resource == resource and _pays_for_tagged_cards(s)), default=1)


def card_means_value(game: "Table", player: int, means: str) -> int:
    """What one resource on the card `means` ("@CARD") pays, in megacredits."""
    name = means[1:]
    return max((s.value for s in game.library[name].passives
                if isinstance(s, fx.Substitute) and s.here and s.instead_of == "megacredits"), default=1)


def heat_means(game: "Table", player: int) -> tuple:
    """(card, heat each) of the player's cards in play whose resources stand in for heat (`use fighters here as 2
    heat`): empty for almost every player (cached with the passives; nothing looked at when no card of the game's
    content says so)."""
    if not game.elements.heat_payments:
        return ()
    derived = passive_cache(game, player)[2]
    found = derived.get("heat means")
    if found is None:
        found = derived["heat means"] = tuple(
            (in_play.name, s.value) for in_play in game.state.players[player].played
            for s in game.library[in_play.name].passives
            if isinstance(s, fx.Substitute) and s.here and s.instead_of == "heat")
    return found


def heat_power(game: "Table", player: int) -> int:
    """The heat the player can spend: their stock, and what the resources of their cards that stand in for heat
    are worth."""
    state = game.state.players[player]
    total = state.resources["heat"]
    for name, value in heat_means(game, player):
        in_play = state.card(name)
        total += in_play.resources * value if in_play is not None else 0
    return total


def can_spend(game: "Table", player: int, resource: str, amount: int) -> bool:
    """Whether the player can spend `amount` of a resource: their stock (and, for heat, the card resources that
    stand in for it)."""
    if resource == "heat" and game.elements.heat_payments:
        return heat_power(game, player) >= amount
    return game.state.players[player].resources[resource] >= amount


def available(game: "Table", player: int, resource: str) -> int:
    """How much of a means of payment the player has: a stock, or the resources on a card ("@CARD")."""
    if resource[0] == "@":
        in_play = game.state.players[player].card(resource[1:])
        return in_play.resources if in_play is not None else 0
    return game.state.players[player].resources[resource]


def money_power(game: "Table", player: int, derived: Optional[dict] = None) -> int:
    """The most the player can pay where only money and its substitutes (heat for Helion...) count: what
    `can_pay` adds up when no steel or titanium may be used. `derived`: the player's derived values
    (`passive_cache(game, player)[2]`) when the caller holds them already (the turn's menu, at every action)."""
    stock = game.state.players[player].resources
    total = stock["megacredits"]
    if derived is None:
        derived = passive_cache(game, player)[2]
    found = derived.get("substitutes")   # `substitutes`, read where it is cached
    for resource in found if found is not None else substitutes(game, player):  # `_other_means`, money only
        if stock[resource] > 0:
            total += stock[resource] * (resource_value(game, player, resource) if resource in BASE_VALUE else 1)
    return total


def payment_options(game: "Table", player: int, cost: int, using: tuple[str, ...] = ()) -> list[dict]:
    """Every sensible way to pay `cost`: no resource beyond what is needed, money last."""
    return list(payments(game, player, cost, using))


def payments(game: "Table", player: int, cost: int, using: tuple[str, ...] = ()) -> Iterator[dict]:
    """The payments of `payment_options`, one at a time (the most steel and titanium first)."""
    if cost <= 0:
        yield {}
        return
    stock = game.state.players[player].resources
    if money_only(game, player, using):   # most payments: `_payment_values` would be empty, and is not built
        if stock["megacredits"] >= cost:
            yield {"megacredits": cost}
        return
    values = _payment_values(game, player, using)
    if any(r[0] == "@" for r in values):  # resources on cards pay too: a view of stock and cards together
        stock = dict(stock)
        stock.update((r, available(game, player, r)) for r in values if r[0] == "@")
    yield from _payments(list(values), list(values.values()), stock, 0, cost, {})


def _payment_values(game: "Table", player: int, using: tuple[str, ...]) -> dict[str, int]:
    """The resources besides money the player may pay this with now, and what each unit is worth."""
    return {r: (resource_value(game, player, r) if r in BASE_VALUE else
                card_means_value(game, player, r) if r[0] == "@" else
                stock_means_value(game, player, r) if r in using and r in _tagged_stock(game, player) else 1)
            for r in _other_means(game, player, using)}


def _other_means(game: "Table", player: int, using: tuple[str, ...]) -> Iterator[str]:
    """The resources besides money the player has and may pay this with now, each once: the steel or titanium
    `using` allows, then money's substitutes (heat for Helion)."""
    stock = game.state.players[player].resources
    allowed = [r for r in ("steel", "titanium") if r in using and stock[r] > 0]
    yield from allowed
    for means in using:
        if means[0] == "@" and available(game, player, means) > 0:
            yield means
        elif means not in BASE_VALUE and stock[means] > 0 and means not in allowed:
            # plants for building cards (`_tagged_stock`), heat for a named standard project (`project_means`)
            allowed.append(means)
            yield means
    for resource in substitutes(game, player):
        if stock[resource] > 0 and resource not in allowed:
            yield resource


def money_only(game: "Table", player: int, using: tuple[str, ...]) -> bool:
    """Whether nothing but money can pay now (`_payment_values` would be empty), without building it."""
    stock = game.state.players[player].resources
    for resource in using:   # steel and titanium (a card's tags) are looked at here; anything else the general way
        if resource not in BASE_VALUE:
            return next(_other_means(game, player, using), None) is None
        if stock[resource] > 0:
            return False
    # no steel or titanium to use (most payments: projects, awards, cards bought): only money's substitutes remain
    found = passive_cache(game, player)[2].get("substitutes")   # `substitutes`, read where it is cached
    for resource in found if found is not None else substitutes(game, player):
        if stock[resource] > 0:
            return False
    return True


def can_pay(game: "Table", player: int, cost: int, using: tuple[str, ...] = ()) -> bool:
    """Whether some payment covers `cost`, without listing the payments: overpaying with one steel or
    titanium is allowed, so the total value of what may be used decides."""
    if cost <= 0:
        return True
    stock = game.state.players[player].resources
    total = stock["megacredits"]
    if total >= cost:
        return True
    if not using:   # `money_power(...) >= cost`, written out: the menu asks this of every project it checks
        found = passive_cache(game, player)[2].get("substitutes")
        for resource in found if found is not None else substitutes(game, player):
            if stock[resource] > 0:
                total += stock[resource] * (resource_value(game, player, resource) if resource in BASE_VALUE else 1)
        return total >= cost
    derived = passive_cache(game, player)[2]
    for resource in using:
        if resource not in BASE_VALUE:   # card resources or a stock that pays for tagged cards: the general way
            for means, value in _payment_values(game, player, using).items():  # the same as payment_options
                total += available(game, player, means) * value
            return total >= cost
    # steel and titanium only (a card's tags; nearly every card checked): `_payment_values` written out without
    # its generator and dict, the values read where they are cached (the random bot checks cards at every turn)
    for resource in using:
        if stock[resource] > 0:
            value = derived.get(resource)   # `resource_value`
            total += stock[resource] * (value if value is not None else resource_value(game, player, resource))
    found = derived.get("substitutes")
    for resource in found if found is not None else substitutes(game, player):   # heat for Helion
        if stock[resource] > 0 and resource not in using:
            total += stock[resource] * (resource_value(game, player, resource) if resource in BASE_VALUE else 1)
    return total >= cost


def _discounts_cards(discount) -> bool:
    return discount.resource == "megacredits" and discount.target.kind == "cards"


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


def card_price(game: "Table", player: int) -> int:
    """What buying a card to hand costs the player (research, `look N buy`, and before the starting discounts the
    starting cards): 3 MC, or what a `buy cards for N megacredits` modifier of theirs says (the lowest of several),
    then N less or more for each `buy cards for N megacredits less | more` (never below 0)."""
    if not game.elements.card_prices:  # no card of the game's content sets the price
        return CARD_PRICE
    prices = passives(game, player, fx.CardPrice)
    if not prices:
        return CARD_PRICE
    fixed = [p.amount for p in prices if p.change is None]
    price = min(fixed) if fixed else CARD_PRICE
    for p in prices:
        if p.change is not None:
            price += p.amount if p.change == "more" else -p.amount
    return max(price, 0)
