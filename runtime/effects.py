"""Executing compiled effects, and deciding beforehand whether they can be carried out.

`possible` answers "may this card/action be used now?" without changing anything (RULES.md 4A: every effect
must be possible except raising a maxed parameter, adding a resource nobody can hold, and optional removals).
`run_effects` carries effects out as a step of the flow (runtime/flow.py): one handler per compiled effect class,
looked up in `HANDLERS`; a handler either finishes at once or pushes steps and asks questions, each resumed by a
small named function below. Effects that never ask (gains, draws...) run inline in `run_effects`' loop.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import attrs

from tharsis.compiler import effects as fx
from tharsis.compiler import text

from .decisions import Decision, NumberOptions, Option, discard_option, space_option
from .flow import Step, ask, push, step
from .measures import Where, holds, quantity
from .narration import conjugate
from .state import NEUTRAL

if TYPE_CHECKING:
    from .game import Game

MINIMUM_PRODUCTION = {"megacredits": -5}
ORDER_CHOICE_LIMIT = 8  # longer effect lists run in a feasible order without asking (bounded work)


@attrs.define(unsafe_hash=True)  # immutable by convention: a frozen class costs 3x more to make
class Context:
    """Who carries out an effect, for which card, with which X, after placing on which space."""

    player: int
    card: Optional[str] = None        # the card "here" means
    playing: Optional[str] = None     # a card being played (its event tags count)
    x: int = 0
    placed: Optional[str] = None      # the space of the last tile placed by this effect list
    placed_bonuses: tuple = ()        # the `on bonus ...` resources that placement was restricted to
    that_card: Optional[str] = None   # the card that fired the trigger being resolved

    def with_x(self, x: int) -> "Context":
        return Context(self.player, self.card, self.playing, x, self.placed, self.placed_bonuses, self.that_card)

    def with_placed(self, placed: Optional[str], bonuses: tuple) -> "Context":
        """The context of the effects after a placement (`attrs.evolve` is slow on this hot path)."""
        return Context(self.player, self.card, self.playing, self.x, placed, bonuses, self.that_card)

    @property
    def where(self) -> Where:
        return Where(self.player, self.card, self.playing)


class EffectsMixin:
    def value(self: "Game", a: fx.Amount, ctx: Context) -> int:
        number = a.coefficient * (ctx.x if a.variable else 1)
        if a.per is not None:
            number *= quantity(self, a.per, ctx.where) // a.divisor
        return number

    # ------------------------------------------------------------------ can it be done?

    def possible(self: "Game", effects: tuple, ctx: Context, paid: Optional[dict] = None) -> bool:
        """All effects can be carried out in order: the player's own stock and production changes of earlier
        effects (and the `paid` payment, which may use what an effect needs) are applied provisionally, and
        undone, while the later ones are checked."""
        undo: list[tuple[dict, str, int]] = []
        try:
            if paid:
                self._apply_payment(ctx, paid, undo)
            return self._check_and_apply(effects, ctx, undo)
        finally:
            _rollback(undo, 0)

    def possible_in_some_order(self: "Game", effects: tuple, ctx: Context, paid: Optional[dict] = None,
                               first: Optional[tuple] = None) -> bool:
        """A played card's effects can be carried out in an order the player may choose (RULES.md 4A), `first`
        (one of its steps) first when given. Two orders are tried, so the work stays linear in the list: as
        written, and with tile placements first, whose triggers (a card's own `including this` one) may pay for
        the rest. Like the reference, other reorderings (an increase to pay for your own decrease) are not sought."""
        if first is None:
            if self.possible(effects, ctx, paid):  # the steps as written are the effects as written
                return True
            placing_first = _placing_first(effects)
            return placing_first is not None and self.possible(placing_first, ctx, paid)
        steps = _steps(effects)
        steps.remove(first)
        if self.possible(first + sum(steps, ()), ctx, paid):
            return True
        placing_first = sorted(steps, key=lambda step: not any(isinstance(e, fx.PlaceTile) for e in step))
        return placing_first != steps and self.possible(first + sum(placing_first, ()), ctx, paid)

    def possible_with_a_payment(self: "Game", effects: tuple, ctx: Context, cost: int, using: tuple) -> bool:
        """A card's effects can be carried out in some order after some payment of `cost` (RULES.md 4A). When
        no check of the effects reads the player's stock, every payment gives the same answer: one is tried."""
        payments = self.payments(ctx.player, cost, using)
        if _stock_blind(effects):
            first = next(payments, None)
            return first is not None and self.possible_in_some_order(effects, ctx, paid=first)
        return any(self.possible_in_some_order(effects, ctx, paid=p) for p in payments)

    def _apply_payment(self: "Game", ctx: Context, paid: Optional[dict], undo: list) -> None:
        stock = self.state.players[ctx.player].resources
        for resource, amount in (paid or {}).items():
            stock[resource] -= amount
            undo.append((stock, resource, -amount))

    def _check_and_apply(self: "Game", effects: tuple, ctx: Context, undo: list) -> bool:
        """Check effects in order, applying each one's certain changes (recorded in `undo`) before the next.
        Only the kinds in `_CHANGING` have certain changes; the others skip the two look-ups (a hot loop)."""
        last = len(effects) - 1
        for index, e in enumerate(effects):
            kind = type(e)
            check = _POSSIBLE.get(kind)
            if check is not None and not check(self, e, ctx):
                return False
            if kind not in _CHANGING or index == last:  # the last effect's changes have nothing left to affect
                continue
            changes = self._certain_changes(e, ctx)
            if kind is fx.PlaceTile:  # the only kind whose triggers `_triggered_changes` looks at
                changes = changes + self._triggered_changes(e, ctx)
            for table, resource, delta in changes:
                table[resource] += delta
                undo.append((table, resource, delta))
        return True

    def _certain_changes(self: "Game", e, ctx: Context) -> list:
        """Changes to the player's own stock and production that an effect surely makes."""
        player = self.state.players[ctx.player]
        if isinstance(e, fx.Gain):
            return [(player.resources, e.resource, self.value(e.amount, ctx))]
        if isinstance(e, (fx.Lose, fx.Spend)):
            return [(player.resources, e.resource, -self.value(e.amount, ctx))]
        if isinstance(e, fx.Production):
            return [(player.production, c.resource, self.value(c.amount, ctx)) for c in e.changes
                    if c.resource != "bonus"]
        if isinstance(e, fx.Pay):  # a later payment must be checked against what this one leaves
            payments = self.payment_options(ctx.player, self.value(e.amount, ctx), e.using)
            return [(player.resources, r, -amount) for r, amount in payments[0].items()] if payments else []
        return []

    def _triggered_changes(self: "Game", e, ctx: Context) -> list:
        """The certain changes of the player's own triggers that placing this effect's tile fires, so that a
        card whose own trigger pays for its effects (a city first, then the production it raised is spent) is
        possible in the order the player may choose (RULES.md 4A). Only triggers without space filters count."""
        if not isinstance(e, fx.PlaceTile) or (e.tile == "ocean" and self.maxed("oceans")):
            return []
        names = [card.name for card in self.state.players[ctx.player].played]
        if ctx.playing is not None and ctx.playing not in names:
            names.append(ctx.playing)  # being checked from hand: its `including this` triggers will fire
        changes = []
        for name in names:
            for trigger in self.library[name].passives:
                if not isinstance(trigger, fx.Trigger) or trigger.event.kind != "place" or trigger.event.filters:
                    continue
                if name == ctx.playing and not trigger.including_this:
                    continue
                if trigger.event.tile not in ("tile", e.tile):
                    continue
                placed = min(e.count, len(self.board.mars))  # never more tiles than Mars has spaces
                for effect in trigger.effects:
                    changes.extend((table, resource, delta * placed) for table, resource, delta in
                                   self._certain_changes(effect, Context(ctx.player, card=name)))
        return changes

    # ------------------------------------------------------------------ targets (no decisions)

    def x_range(self: "Game", e: fx.ChooseX, ctx: Context) -> tuple[int, int]:
        """The values X may take: from the minimum up to the largest X the body can be carried out with.
        Every effect that uses X needs more of something as X grows (spend, discard, production -X) or nothing
        at all, so the possible values are a range found in O(log X) checks, however large the quantity."""
        def works(x: int) -> bool:
            return self.possible(e.body, ctx.with_x(x))

        low, high = e.minimum, quantity(self, e.maximum, ctx.where)
        if low > high or not works(low):
            return low, low - 1
        if works(high):  # often the whole range (sell up to every card in hand)
            return e.minimum, high
        high -= 1
        while low < high:  # invariant: works(low), and not works(high + 1)
            middle = (low + high + 1) // 2
            if works(middle):
                low = middle
            else:
                high = middle - 1
        return e.minimum, low

    def bonus_resources(self: "Game", ctx: Context) -> list[str]:
        """The productions `production(bonus ...)` may raise: the resources printed on the space just placed."""
        if ctx.placed is None:
            return []
        allowed = ctx.placed_bonuses or ("steel", "titanium", "plant", "energy", "heat", "megacredits")
        printed = [b for b, _ in self.board.spaces[ctx.placed].bonuses if b in allowed]
        return list(dict.fromkeys(printed))

    def _production_targets(self: "Game", e, ctx) -> list[int]:
        def can_lose(index):
            production = self.state.players[index].production
            return all(production[c.resource] + self.value(c.amount, ctx) >= MINIMUM_PRODUCTION.get(c.resource, 0)
                       for c in e.changes)

        if self.options.solo:
            return [NEUTRAL]  # the neutral opponent takes every "any player" attack (RULES.md 7, solo)
        # RULES.md 4A: any player who has enough, yourself included, at the player's choice
        return [i for i in range(len(self.state.players)) if can_lose(i)]

    def _claimable(self: "Game", player: int, filters) -> list[str]:
        return [s for s in self.legal_spaces(player, "special", filters) if s not in self.state.claims]

    def _resource_cards(self: "Game", player: int, resource: str, exclude: Optional[str] = None,
                        with_resources: bool = False) -> list[str]:
        result = []
        for card in self.state.players[player].played:
            holds_type = self.library[card.name].holds
            if holds_type is None or card.name == exclude:
                continue
            if resource != "resource" and holds_type != resource:
                continue
            if with_resources and card.resources == 0:
                continue
            result.append(card.name)
        return result

    def protected(self: "Game", owner: int, remover: int, resource: str, card: Optional[str] = None) -> bool:
        for passive_card in self.state.players[owner].played:
            for p in self.library[passive_card.name].passives:
                if not isinstance(p, fx.Protect) or (resource not in p.resources and "resource" not in p.resources):
                    continue
                if p.scope == "here" and card == passive_card.name:
                    return True
                if p.scope == "opponents" and remover != owner:
                    return True
        return False

    def _cards_to_remove_from(self: "Game", e, ctx) -> list[tuple[int, str]]:
        needed = 1 if e.up_to else self.value(e.amount, ctx)
        result = []
        for index, other in enumerate(self.state.players):
            for card in other.played:
                held = self.library[card.name].holds
                if held is None or (e.resource != "resource" and held != e.resource) or card.resources < needed:
                    continue
                if self.protected(index, ctx.player, held, card.name):
                    continue
                result.append((index, card.name))
        return result

    def _owns_tile_next_to(self: "Game", index: int, space: Optional[str]) -> bool:
        if space is None:
            return False
        return any(self.state.tiles.get(n) is not None and self.state.tiles[n].owner == index
                   for n in self.board.neighbours[space])

    def _copyable(self: "Game", e, ctx) -> list[str]:
        result = []
        for card in self.state.players[ctx.player].played:
            definition = self.library[card.name]
            if e.tag not in definition.tags or card.name == ctx.card:
                continue
            boxes = _production_box(definition)
            if boxes and self.possible(boxes, attrs.evolve(ctx, card=card.name)):
                result.append(card.name)
        return result


# ------------------------------------------------------------------ doing it: steps and handlers

@step
def run_effects(game: "Game", effects: tuple, index: int, ctx: Context, steps_after) -> None:
    """Carry out `effects[index:]`; then, when `steps_after` is a tuple, the remaining steps of a card whose
    effects are played in the order its player chooses. A placement tells the later effects where "it" is."""
    stack = game.flow.stack
    count = len(effects)
    while index < count:
        e = effects[index]
        index += 1
        kind = type(e)
        inline = INLINE.get(kind)
        if inline is not None:
            inline(game, e, ctx)
            continue
        if kind is fx.PlaceTile:
            place_next(game, e, ctx, e.count, ctx.placed, (effects, index, steps_after))
            return
        if kind is fx.Pay:  # offer only payments that leave the rest of the list possible
            if index < count or steps_after is not None:
                stack.append(Step(run_effects, (effects, index, ctx, steps_after)))
            game.pay(ctx.player, game.value(e.amount, ctx), e.using, "an action",
                     acceptable=(effects[index:], ctx, False))
            return
        if index < count or steps_after is not None:
            stack.append(Step(run_effects, (effects, index, ctx, steps_after)))
        HANDLERS[kind](game, e, ctx)
        return
    if steps_after is not None:
        chosen_order(game, steps_after, ctx)


def run_in_chosen_order(game: "Game", effects: tuple, ctx: Context) -> None:
    """A played card's effects, in the order its player chooses (RULES.md 4A) when the order can matter.
    An effect about the tile just placed (`production(bonus ...)`, `... next to it`) stays with its placement."""
    steps = _steps(effects)
    if len(steps) < 2 or all(commutes(s) for s in steps):
        run_effects(game, effects, 0, ctx, None)
        return
    chosen_order(game, tuple(steps), ctx)


@step
def chosen_order(game: "Game", steps: tuple, ctx: Context) -> None:
    if not steps:
        return
    # offer only the effects after which the others can still all be done
    effects = sum(steps, ())
    if len(steps) > ORDER_CHOICE_LIMIT:  # a very long list: the first step that keeps the rest possible
        firsts = [next((i for i, s in enumerate(steps) if game.possible_in_some_order(effects, ctx, first=s)), 0)]
    else:
        firsts = [i for i, s in enumerate(steps) if game.possible_in_some_order(effects, ctx, first=s)] or [0]
    if len(firsts) > 1:
        ask(game, Decision(ctx.player, "order", "Which effect of the card first?",
                           tuple(Option(text.effects(steps[i]), i) for i in firsts)), order_chosen, steps, ctx)
        return
    order_chosen(game, firsts[0], steps, ctx)


@step
def order_chosen(game: "Game", index: int, steps: tuple, ctx: Context) -> None:
    run_effects(game, steps[index], 0, ctx, steps[:index] + steps[index + 1:])


def _gain(game, e, ctx):
    game.state.players[ctx.player].resources[e.resource] += max(0, game.value(e.amount, ctx))


def _lose(game, e, ctx):
    stock = game.state.players[ctx.player].resources
    stock[e.resource] = max(0, stock[e.resource] - game.value(e.amount, ctx))


def _production(game, e, ctx):
    production_changes(game, e, ctx, 0)


@step
def production_changes(game: "Game", e, ctx: Context, index: int) -> None:
    changes = e.changes
    while index < len(changes):
        change = changes[index]
        index += 1
        resource = change.resource
        if resource == "bonus":
            choices = game.bonus_resources(ctx)
            if not choices:
                continue
            if len(choices) > 1:
                push(game, production_changes, e, ctx, index)
                ask(game, Decision(ctx.player, "option", "Which production rises?",
                                   tuple(Option(r, r) for r in choices)), production_chosen, e, ctx, index - 1)
                return
            resource = choices[0]
        production_chosen(game, resource, e, ctx, index - 1)


@step
def production_chosen(game: "Game", resource: str, e, ctx: Context, index: int) -> None:
    production = game.state.players[ctx.player].production
    delta = game.value(e.changes[index].amount, ctx)
    production[resource] = max(MINIMUM_PRODUCTION.get(resource, 0), production[resource] + delta)


def _any_production(game, e, ctx):
    targets = game._production_targets(e, ctx)
    if not targets:
        return
    choose_player(game, ctx.player, targets, "Whose production decreases? " + text.effect(e),
                  any_production_target, e, ctx)


@step
def any_production_target(game: "Game", target: int, e, ctx: Context) -> None:
    if target == NEUTRAL:
        game.log_event("the neutral opponent's production decreases")
        return
    production = game.state.players[target].production
    for change in e.changes:
        production[change.resource] += game.value(change.amount, ctx)


def _parameter(game, e, ctx):
    steps = game.value(e.amount, ctx)
    if e.parameter == "tr":
        game.raise_tr(ctx.player, steps)
        if steps > 0:
            game.fire("raise", ctx.player, parameter="tr")
        return
    game.raise_parameter(ctx.player, e.parameter, steps)


@step
def place_next(game: "Game", e, ctx: Context, remaining: int, placed, continuation: tuple) -> None:
    """Place the `remaining` tiles of `e` one after the other, then carry on with the effects after it."""
    if remaining == 0:
        effects, index, steps_after = continuation
        run_effects(game, effects, index, ctx.with_placed(placed, _bonus_filter(e)),
                    steps_after)
        return
    game.place(ctx.player, e.tile, e.filters, e.name, card=ctx.card,
               then=Step(placed_one, (e, ctx, remaining - 1, placed, continuation)))


@step
def placed_one(game: "Game", e, ctx: Context, remaining: int, placed, continuation: tuple, space) -> None:
    if space is None:  # no legal space (or no ocean) left: the rest cannot be placed either
        remaining = 0
    place_next(game, e, ctx, remaining, space or placed, continuation)


def _claim(game, e, ctx):
    spaces = game._claimable(ctx.player, e.filters)
    if not spaces:
        return
    ask(game, Decision(ctx.player, "space", "Which space do you claim?", tuple(map(space_option, spaces))),
        claimed, ctx.player)


@step
def claimed(game: "Game", space: str, player: int) -> None:
    game.state.claims[space] = player


def _draw(game, e, ctx):
    game.draw(ctx.player, game.value(e.amount, ctx))


def _look_keep(game, e, ctx):
    keep_next(game, ctx.player, tuple(game.take_from_deck(e.look)), e.keep)


@step
def keep_next(game: "Game", player: int, seen: tuple, remaining: int) -> None:
    if remaining <= 0 or not seen:
        game.state.discard.extend(seen)
        return
    ask(game, Decision(player, "keep", "Which card do you keep?", tuple(Option(f"keep {name}", name) for name in seen)),
        kept, player, seen, remaining)


@step
def kept(game: "Game", name: str, player: int, seen: tuple, remaining: int) -> None:
    rest = list(seen)
    rest.remove(name)
    game.state.players[player].hand.append(name)
    keep_next(game, player, tuple(rest), remaining - 1)


def _look_buy(game, e, ctx):
    from .payment import offer_cards
    offer_cards(game, ctx.player, tuple(game.take_from_deck(e.look)), game.card_price(ctx.player))


def _discard(game, e, ctx):
    discard_next(game, ctx.player, game.value(e.amount, ctx))


@step
def discard_next(game: "Game", player: int, remaining: int) -> None:
    hand = game.state.players[player].hand
    if remaining <= 0 or not hand:
        return
    ask(game, Decision(player, "discard", "Which card do you discard?",
                       tuple(map(discard_option, dict.fromkeys(hand)))),
        discarded, player, remaining)


@step
def discarded(game: "Game", name: str, player: int, remaining: int) -> None:
    game.state.players[player].hand.remove(name)
    game.state.discard.append(name)
    discard_next(game, player, remaining - 1)


def _add(game, e, ctx):
    amount = game.value(e.amount, ctx)
    player = game.state.players[ctx.player]
    if e.target == "here":
        targets = [ctx.card] if player.card(ctx.card) else []
    elif e.target == "that_card":  # the card that fired the trigger, if it can hold this resource
        targets = [ctx.that_card] if ctx.that_card in game._resource_cards(ctx.player, e.resource) else []
    else:
        targets = game._resource_cards(ctx.player, e.resource,
                                       exclude=ctx.card if e.target == "another_card" else None,
                                       with_resources=e.target == "any_card_with_resources")
    if not targets:
        return  # adding a resource nobody can hold is allowed and does nothing
    if len(targets) == 1:
        added(game, targets[0], ctx.player, amount)
        return
    ask(game, Decision(ctx.player, "card", f"Which card gets {text.effect(e)}?",
                       tuple(Option(f"card {name}", name) for name in targets)), added, ctx.player, amount)


@step
def added(game: "Game", name: str, player: int, amount: int) -> None:
    game.state.players[player].card(name).resources += amount


def _remove(game, e, ctx):
    amount = game.value(e.amount, ctx)
    players = game.state.players
    if e.source == "here":
        card = players[ctx.player].card(ctx.card)
        if card:
            card.resources = max(0, card.resources - amount)
        return
    if e.source == "any_card":
        targets = game._cards_to_remove_from(e, ctx)
        options = [Option(f"card {name} ({players[i].name})", (i, name)) for i, name in targets]
        if e.up_to:
            options.append(Option("remove nothing", None))
        if game.options.solo:
            options.insert(0, Option("neutral opponent", NEUTRAL))
        if not options:
            return
        ask(game, Decision(ctx.player, "card", text.effect(e), tuple(options)), removed_from_card, amount)
        return
    # from any player's stock
    candidates = []
    for index, other in enumerate(players):
        if index == ctx.player:  # the reference offers only opponents: removing your own is never wanted
            continue
        if other.resources[e.resource] <= 0 or game.protected(index, ctx.player, e.resource):
            continue
        if e.next_to_placed and not game._owns_tile_next_to(index, ctx.placed):
            continue
        candidates.append(index)
    options = [Option(f"player {players[i].name}", i) for i in candidates] + [Option("remove nothing", None)]
    if game.options.solo:  # the neutral opponent may be the target (and loses nothing that matters)
        options.insert(0, Option("neutral opponent", NEUTRAL))
    ask(game, Decision(ctx.player, "player", text.effect(e), tuple(options)), removed_from_player, e.resource,
        amount)


@step
def removed_from_card(game: "Game", target, amount: int) -> None:
    if target is None or target == NEUTRAL:
        return
    index, name = target
    card = game.state.players[index].card(name)
    card.resources -= min(amount, card.resources)


@step
def removed_from_player(game: "Game", target, resource: str, amount: int) -> None:
    if target is None or target == NEUTRAL:
        return
    stock = game.state.players[target].resources
    stock[resource] -= min(amount, stock[resource])


def _steal(game, e, ctx):
    amount = game.value(e.amount, ctx)
    players = game.state.players
    candidates = [i for i, p in enumerate(players) if i != ctx.player and p.resources[e.resource] > 0
                  and not game.protected(i, ctx.player, e.resource)]
    options = [Option(f"player {players[i].name}", i) for i in candidates] + [Option("steal nothing", None)]
    if game.options.solo:  # RULES.md 7: you may steal from the neutral opponent, who always has enough
        options.insert(0, Option("neutral opponent", NEUTRAL))
    ask(game, Decision(ctx.player, "player", text.effect(e), tuple(options)), stolen, ctx.player, e.resource, amount)


@step
def stolen(game: "Game", target, player: int, resource: str, amount: int) -> None:
    players = game.state.players
    if target == NEUTRAL:
        players[player].resources[resource] += amount
        return
    if target is not None:
        taken = min(amount, players[target].resources[resource])
        players[target].resources[resource] -= taken
        players[player].resources[resource] += taken


def _choice(game, e, ctx):
    options = [Option(text.effects(o) or "nothing", i) for i, o in enumerate(e.options) if game.possible(o, ctx)]
    if not options:
        return
    ask(game, Decision(ctx.player, "option", "Choose one", tuple(options)), option_chosen, e, ctx)


@step
def option_chosen(game: "Game", index: int, e, ctx: Context) -> None:
    run_effects(game, e.options[index], 0, ctx, None)


def _conditional(game, e, ctx):
    branch = e.then if holds(game, e.condition, ctx.where) else e.otherwise
    run_effects(game, branch, 0, ctx, None)


def _choose_x(game, e, ctx):
    low, high = game.x_range(e, ctx)
    if low > high:
        return
    ask(game, Decision(ctx.player, "x", "Choose X: " + text.effects(e.body), NumberOptions(low, high)),
        x_chosen, e, ctx)


@step
def x_chosen(game: "Game", x: int, e, ctx: Context) -> None:
    run_effects(game, e.body, 0, ctx.with_x(x), None)


def _may(game, e, ctx):
    if not game.possible(e.body, ctx):
        return
    ask(game, Decision(ctx.player, "option", "Optional: " + text.effects(e.body),
                       (Option("yes", True), Option("no", False))), may_chosen, e, ctx)


@step
def may_chosen(game: "Game", yes: bool, e, ctx: Context) -> None:
    if yes:
        run_effects(game, e.body, 0, ctx, None)


def _copy_production(game, e, ctx):
    names = game._copyable(e, ctx)
    if not names:
        return
    ask(game, Decision(ctx.player, "card", "Copy the production of which card?",
                       tuple(Option(f"card {n}", n) for n in names)), copy_chosen, ctx)


@step
def copy_chosen(game: "Game", name: str, ctx: Context) -> None:
    copied = game.library[name]
    boxes = _production_box(copied)
    # a box that raises "the production of the bonus" refers to the copied card's own tile
    placement = next((p for p in copied.play if isinstance(p, fx.PlaceTile)), None)
    tile = game.state.players[ctx.player].card(name).tile
    run_effects(game, boxes, 0, attrs.evolve(ctx, card=name, placed=tile,
                                             placed_bonuses=_bonus_filter(placement) if placement else ()), None)


def _reveal(game, e, ctx):
    revealed = game.take_from_deck(1)
    if not revealed:
        return
    who = game.state.players[ctx.player].name
    game.log_event(f"{who} {conjugate(who, 'reveal')} {revealed[0]}")
    push(game, discard_cards, tuple(revealed))
    if e.tag in game.library[revealed[0]].tags:
        run_effects(game, e.then, 0, ctx, None)


@step
def discard_cards(game: "Game", names: tuple) -> None:
    game.state.discard.extend(names)


def _require(game, e, ctx):
    return


def _next_card(game, e, ctx):
    game.state.players[ctx.player].next_card_modifiers.extend(e.modifiers)


# ------------------------------------------------------------------ helpers with decisions

def choose_player(game: "Game", chooser: int, candidates: list[int], prompt: str, resume, *args) -> None:
    """Resume with the one candidate, or ask the chooser which."""
    if len(candidates) == 1:
        resume(game, candidates[0], *args)
        return
    players = game.state.players
    ask(game, Decision(chooser, "player", prompt, tuple(Option(f"player {players[i].name}", i) for i in candidates)),
        resume, *args)


# ------------------------------------------------------------------ the condition of each kind of effect
# `_check_and_apply` looks the check up by the effect's exact type (effect classes never subclass one another, so
# this is what `isinstance` would decide, without walking a chain of tests on the hottest path of the engine).


def _can_lose(game: "Game", e, ctx: Context) -> bool:
    return game.state.players[ctx.player].resources[e.resource] >= game.value(e.amount, ctx)


def _can_pay(game: "Game", e: fx.Pay, ctx: Context) -> bool:
    return game.can_pay(ctx.player, game.value(e.amount, ctx), e.using)


def _can_change_production(game: "Game", e: fx.Production, ctx: Context) -> bool:
    production = game.state.players[ctx.player].production
    for change in e.changes:
        delta = game.value(change.amount, ctx)
        if change.resource != "bonus" and delta < 0 and production[change.resource] + delta < \
                MINIMUM_PRODUCTION.get(change.resource, 0):
            return False
    return True


def _can_remove(game: "Game", e: fx.RemoveResources, ctx: Context) -> bool:
    if e.up_to or e.source == "any_player":
        return True
    if e.source == "here":
        card = game.state.players[ctx.player].card(ctx.card)
        return card is not None and card.resources >= game.value(e.amount, ctx)
    # solo: the neutral opponent always has the resource to give (RULES.md 7)
    return game.options.solo or bool(game._cards_to_remove_from(e, ctx))


def _can_choose_x(game: "Game", e: fx.ChooseX, ctx: Context) -> bool:
    # some X works: the smallest does (see x_range), no need to find the largest
    return quantity(game, e.maximum, ctx.where) >= e.minimum and game.possible(e.body, ctx.with_x(e.minimum))


def _can_take_branch(game: "Game", e: fx.Conditional, ctx: Context) -> bool:
    return game.possible(e.then if holds(game, e.condition, ctx.where) else e.otherwise, ctx)


_POSSIBLE = {
    fx.Lose: _can_lose,
    fx.Spend: _can_lose,
    fx.Pay: _can_pay,
    fx.Production: _can_change_production,
    fx.AnyProduction: lambda game, e, ctx: bool(game._production_targets(e, ctx)),
    fx.PlaceTile: lambda game, e, ctx: game.can_place(ctx.player, e),
    fx.ClaimSpace: lambda game, e, ctx: bool(game._claimable(ctx.player, e.filters)),
    fx.RemoveResources: _can_remove,
    fx.Discard: lambda game, e, ctx: len(game.state.players[ctx.player].hand) >= game.value(e.amount, ctx),
    fx.Choice: lambda game, e, ctx: any(game.possible(option, ctx) for option in e.options),
    fx.Conditional: _can_take_branch,
    fx.ChooseX: _can_choose_x,
    fx.Require: lambda game, e, ctx: holds(game, e.condition, ctx.where),
    fx.CopyProduction: lambda game, e, ctx: bool(game._copyable(e, ctx)),
    # nothing left to reveal: the action cannot be taken
    fx.Reveal: lambda game, e, ctx: bool(game.state.deck or game.state.discard),
}
# the kinds `_certain_changes`/`_triggered_changes` find changes for (`possible` skips both for the others)
_CHANGING = frozenset({fx.Gain, fx.Lose, fx.Spend, fx.Production, fx.Pay, fx.PlaceTile})


def unconditional(effects: tuple) -> bool:
    """Whether effects can always be carried out: none has a condition in `_POSSIBLE`, or it only raises
    productions by fixed amounts (the menu checks such standard projects first: their check is cheap and holds)."""
    return all(type(e) not in _POSSIBLE or (type(e) is fx.Production and all(
        c.resource == "bonus" or (not c.amount.variable and c.amount.per is None and c.amount.coefficient >= 0)
        for c in e.changes)) for e in effects)


# the kinds whose check reads only productions, the hand or the deck, never the player's stock of resources
_STOCK_BLIND_CHECKS = frozenset({fx.Production, fx.AnyProduction, fx.Discard, fx.CopyProduction, fx.Reveal})
_STOCK_BLIND: dict[int, tuple] = {}


def _stock_blind(effects: tuple) -> bool:
    """Whether no check of these effects reads the player's stock (so how a card is paid cannot matter to them).
    Cached per list, by identity (see `_placing_first`)."""
    cached = _STOCK_BLIND.get(id(effects))
    if cached is None or cached[0] is not effects:
        if len(_STOCK_BLIND) > 4096:
            _STOCK_BLIND.clear()
        cached = _STOCK_BLIND[id(effects)] = (effects, type(effects) is tuple and all(
            type(e) not in _POSSIBLE or (type(e) in _STOCK_BLIND_CHECKS and not _counts_anything(e))
            for e in effects))
    return cached[1]


def _counts_anything(e) -> bool:
    """Whether an effect has an amount `per` some quantity (which might be a stock)."""
    amounts = [c.amount for c in getattr(e, "changes", ())] + [getattr(e, "amount", None)]
    return any(a is not None and a.per is not None for a in amounts)


def _rollback(undo: list, mark: int) -> None:
    """Undo the provisional changes recorded after `mark`, newest first."""
    while len(undo) > mark:
        table, resource, delta = undo.pop()
        table[resource] -= delta


def _steps(effects: tuple) -> list[tuple]:
    steps: list[tuple] = []
    for e in effects:
        about_placement = (isinstance(e, fx.Production) and any(c.resource == "bonus" for c in e.changes)) or \
            (isinstance(e, fx.RemoveResources) and e.next_to_placed)
        if about_placement and steps:
            steps[-1] = steps[-1] + (e,)
        else:
            steps.append((e,))
    return steps


_PLACING_FIRST: dict[int, tuple] = {}


def _placing_first(effects: tuple) -> Optional[tuple]:
    """The effects with the steps that place tiles moved first, or None when that is the order written. Cached
    per effect list (a card's list lives as long as the content; the entry keeps it, so its id stays its own)."""
    cached = _PLACING_FIRST.get(id(effects))
    if cached is None or cached[0] is not effects:
        steps = _steps(effects)
        reordered = sorted(steps, key=lambda step: not any(isinstance(e, fx.PlaceTile) for e in step))
        cached = (effects, None if reordered == steps else sum(reordered, ()))
        if len(_PLACING_FIRST) > 4096:  # lists made on the fly must not pile up
            _PLACING_FIRST.clear()
        _PLACING_FIRST[id(effects)] = cached
    return cached[1]


def commutes(effects: tuple) -> bool:
    """Effects whose order against other such effects cannot matter: plain gains and increases."""
    for e in effects:
        if isinstance(e, (fx.Gain, fx.AddResources)) and not e.amount.variable:
            continue
        if isinstance(e, fx.Production) and all(c.amount.coefficient > 0 and c.resource != "bonus"
                                                for c in e.changes):
            continue
        return False
    return True


def _production_box(definition) -> tuple:
    """A card's production box: its own production changes and its decreases of any player's production."""
    return tuple(e for e in definition.play if isinstance(e, (fx.Production, fx.AnyProduction)))


def _bonus_filter(effect: fx.PlaceTile) -> tuple:
    return next((f.bonuses for f in effect.filters if f.kind == "bonus"), ())


# effects that never ask or push: run inline by `run_effects`' loop
INLINE = {fx.Gain: _gain, fx.Lose: _lose, fx.Spend: _lose, fx.Draw: _draw, fx.Require: _require,
          fx.NextCard: _next_card}
# effects that may ask or push steps (PlaceTile and Pay are handled by `run_effects` itself: a placement threads
# "it", a payment is checked against the effects after it)
HANDLERS = {
    fx.Production: _production, fx.AnyProduction: _any_production,
    fx.ChangeParameter: _parameter, fx.ClaimSpace: _claim, fx.LookKeep: _look_keep, fx.LookBuy: _look_buy,
    fx.Discard: _discard, fx.AddResources: _add, fx.RemoveResources: _remove, fx.Steal: _steal, fx.Choice: _choice,
    fx.Conditional: _conditional, fx.ChooseX: _choose_x, fx.May: _may, fx.CopyProduction: _copy_production,
    fx.Reveal: _reveal,
}
assert set(HANDLERS) | set(INLINE) | {fx.PlaceTile, fx.Pay} == set(fx.IMMEDIATE), \
    "every immediate effect kind needs a runtime handler"
