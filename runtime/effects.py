"""Executing compiled effects, and deciding beforehand whether they can be carried out.

`possible` answers "may this card/action be used now?" without changing anything (RULES.md 4A: every effect
must be possible except raising a maxed parameter, adding a resource nobody can hold, and optional removals).
`run` carries effects out as a generator: whenever a choice is needed it yields a `Decision` and resumes with
the chosen `Option`. One handler per compiled effect class, looked up in `HANDLERS`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Optional

import attrs

from tharsis.compiler import effects as fx
from tharsis.compiler import text

from .decisions import Decision, NumberOptions, Option
from .measures import Where, holds, quantity
from .state import NEUTRAL

if TYPE_CHECKING:
    from .game import Game

MINIMUM_PRODUCTION = {"megacredits": -5}
ORDER_CHOICE_LIMIT = 8  # longer effect lists run in a feasible order without asking (bounded work)


@attrs.frozen
class Context:
    """Who carries out an effect, for which card, with which X, after placing on which space."""

    player: int
    card: Optional[str] = None        # the card "here" means
    playing: Optional[str] = None     # a card being played (its event tags count)
    x: int = 0
    placed: Optional[str] = None      # the space of the last tile placed by this effect list
    placed_bonuses: tuple = ()        # the `on bonus ...` resources that placement was restricted to
    that_card: Optional[str] = None   # the card that fired the trigger being resolved

    @property
    def where(self) -> Where:
        return Where(self.player, self.card, self.playing)


class EffectsMixin:
    def context(self, player: int, card: Optional[str] = None, playing: Optional[str] = None) -> Context:
        return Context(player, card, playing)

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
        steps = _steps(effects)
        if first is not None:
            steps.remove(first)
        head = first or ()
        if self.possible(head + sum(steps, ()), ctx, paid):
            return True
        placing_first = sorted(steps, key=lambda step: not any(isinstance(e, fx.PlaceTile) for e in step))
        return placing_first != steps and self.possible(head + sum(placing_first, ()), ctx, paid)

    def _apply_payment(self: "Game", ctx: Context, paid: Optional[dict], undo: list) -> None:
        stock = self.state.players[ctx.player].resources
        for resource, amount in (paid or {}).items():
            stock[resource] -= amount
            undo.append((stock, resource, -amount))

    def _check_and_apply(self: "Game", effects: tuple, ctx: Context, undo: list) -> bool:
        """Check effects in order, applying each one's certain changes (recorded in `undo`) before the next."""
        for e in effects:
            if not self.possible_one(e, ctx):
                return False
            for table, resource, delta in self._certain_changes(e, ctx) + self._triggered_changes(e, ctx):
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

    def possible_one(self: "Game", e, ctx: Context) -> bool:
        player = self.state.players[ctx.player]
        if isinstance(e, (fx.Lose, fx.Spend)):
            return player.resources[e.resource] >= self.value(e.amount, ctx)
        if isinstance(e, fx.Pay):
            return self.can_pay(ctx.player, self.value(e.amount, ctx), e.using)
        if isinstance(e, fx.Production):
            for change in e.changes:
                delta = self.value(change.amount, ctx)
                if change.resource != "bonus" and delta < 0 and player.production[change.resource] + delta < \
                        MINIMUM_PRODUCTION.get(change.resource, 0):
                    return False
            return True
        if isinstance(e, fx.AnyProduction):
            return bool(self._production_targets(e, ctx))
        if isinstance(e, fx.PlaceTile):
            return self.can_place(ctx.player, e)
        if isinstance(e, fx.ClaimSpace):
            return bool(self._claimable(ctx.player, e.filters))
        if isinstance(e, fx.RemoveResources):
            if e.up_to or e.source == "any_player":
                return True
            if e.source == "here":
                card = player.card(ctx.card)
                return card is not None and card.resources >= self.value(e.amount, ctx)
            # solo: the neutral opponent always has the resource to give (RULES.md 7)
            return self.options.solo or bool(self._cards_to_remove_from(e, ctx))
        if isinstance(e, fx.Discard):
            return len(player.hand) >= self.value(e.amount, ctx)
        if isinstance(e, fx.Choice):
            return any(self.possible(option, ctx) for option in e.options)
        if isinstance(e, fx.Conditional):
            branch = e.then if holds(self, e.condition, ctx.where) else e.otherwise
            return self.possible(branch, ctx)
        if isinstance(e, fx.ChooseX):
            low, high = self.x_range(e, ctx)
            return low <= high
        if isinstance(e, fx.Require):
            return holds(self, e.condition, ctx.where)
        if isinstance(e, fx.CopyProduction):
            return bool(self._copyable(e, ctx))
        if isinstance(e, fx.Reveal):  # nothing left to reveal: the action cannot be taken
            return bool(self.state.deck or self.state.discard)
        return True

    # ------------------------------------------------------------------ doing it

    def run(self: "Game", effects: tuple, ctx: Context) -> Iterator:
        for index, e in enumerate(effects):
            if isinstance(e, fx.Pay):  # offer only payments that leave the rest of the list possible
                rest = effects[index + 1:]
                yield from self.pay(ctx.player, self.value(e.amount, ctx), e.using, "an action",
                                    acceptable=lambda paid, rest=rest, ctx=ctx: self.possible(rest, ctx, paid=paid))
                continue
            result = yield from HANDLERS[type(e)](self, e, ctx)
            if isinstance(result, Context):
                ctx = result  # a placement tells later effects where "it" is
        return ctx

    def run_in_chosen_order(self: "Game", effects: tuple, ctx: Context) -> Iterator:
        """A played card's effects, in the order its player chooses (RULES.md 4A) when the order can matter.
        An effect about the tile just placed (`production(bonus ...)`, `... next to it`) stays with its placement."""
        steps = _steps(effects)
        if len(steps) < 2 or all(commutes(step) for step in steps):
            yield from self.run(effects, ctx)
            return
        while steps:
            # offer only the effects after which the others can still all be done
            if len(steps) > ORDER_CHOICE_LIMIT:  # a very long list: the first step that keeps the rest possible
                firsts = [next((i for i, step in enumerate(steps)
                                if self.possible_in_some_order(sum(steps, ()), ctx, first=step)), 0)]
            else:
                firsts = [i for i, step in enumerate(steps)
                          if self.possible_in_some_order(sum(steps, ()), ctx, first=step)] or [0]
            index = firsts[0]
            if len(firsts) > 1:
                choice = yield Decision(ctx.player, "order", "Which effect of the card first?",
                                        tuple(Option(text.effects(steps[i]), i) for i in firsts))
                index = choice.value
            ctx = yield from self.run(steps.pop(index), ctx)

    def _gain(self, e, ctx):
        self.state.players[ctx.player].resources[e.resource] += max(0, self.value(e.amount, ctx))
        return
        yield

    def _lose(self, e, ctx):
        stock = self.state.players[ctx.player].resources
        stock[e.resource] = max(0, stock[e.resource] - self.value(e.amount, ctx))
        return
        yield

    def _pay_effect(self, e, ctx):
        yield from self.pay(ctx.player, self.value(e.amount, ctx), e.using, "an action")

    def _production(self, e, ctx):
        player = self.state.players[ctx.player]
        for change in e.changes:
            resource = change.resource
            if resource == "bonus":
                resource = yield from self._bonus_resource(ctx)
                if resource is None:
                    continue
            delta = self.value(change.amount, ctx)
            player.production[resource] = max(MINIMUM_PRODUCTION.get(resource, 0), player.production[resource] + delta)

    def _bonus_resource(self, ctx):
        if ctx.placed is None:
            return None
        allowed = ctx.placed_bonuses or ("steel", "titanium", "plant", "energy", "heat", "megacredits")
        printed = [b for b, _ in self.board.spaces[ctx.placed].bonuses if b in allowed]
        if not printed:
            return None
        if len(set(printed)) == 1:
            return printed[0]
        choice = yield Decision(ctx.player, "option", "Which production rises?",
                                tuple(Option(r, r) for r in dict.fromkeys(printed)))
        return choice.value

    def _production_targets(self, e, ctx) -> list[int]:
        def can_lose(index):
            production = self.state.players[index].production
            return all(production[c.resource] + self.value(c.amount, ctx) >= MINIMUM_PRODUCTION.get(c.resource, 0)
                       for c in e.changes)

        if self.options.solo:
            return [NEUTRAL]  # the neutral opponent takes every "any player" attack (RULES.md 7, solo)
        # RULES.md 4A: any player who has enough, yourself included, at the player's choice
        return [i for i in range(len(self.state.players)) if can_lose(i)]

    def _any_production(self, e, ctx):
        targets = self._production_targets(e, ctx)
        if not targets:
            return
        target = yield from self.choose_player(ctx.player, targets, "Whose production decreases? " + text.effect(e))
        if target == NEUTRAL:
            self.log_event("the neutral opponent's production decreases")
            return
        production = self.state.players[target].production
        for change in e.changes:
            production[change.resource] += self.value(change.amount, ctx)

    def _parameter(self, e, ctx):
        steps = self.value(e.amount, ctx)
        if e.parameter == "tr":
            self.raise_tr(ctx.player, steps)
            if steps > 0:
                yield from self.fire("raise", ctx.player, parameter="tr")
            return
        yield from self.raise_parameter(ctx.player, e.parameter, steps)

    def _place(self, e, ctx):
        placed = ctx.placed
        for _ in range(e.count):
            sid = yield from self.place(ctx.player, e.tile, e.filters, e.name, card=ctx.card)
            if sid is None:  # no legal space (or no ocean) left: the rest cannot be placed either
                break
            placed = sid
        return attrs.evolve(ctx, placed=placed, placed_bonuses=_bonus_filter(e))

    def _claimable(self, player: int, filters) -> list[str]:
        return [s for s in self.legal_spaces(player, "special", filters) if s not in self.state.claims]

    def _claim(self, e, ctx):
        spaces = self._claimable(ctx.player, e.filters)
        if not spaces:
            return
        choice = yield Decision(ctx.player, "space", "Which space do you claim?",
                                tuple(Option(f"space {s}", s) for s in spaces))
        self.state.claims[choice.value] = ctx.player

    def _draw(self, e, ctx):
        self.draw(ctx.player, self.value(e.amount, ctx))
        return
        yield

    def _look_keep(self, e, ctx):
        seen = self.take_from_deck(e.look)
        for _ in range(min(e.keep, len(seen))):
            choice = yield Decision(ctx.player, "keep", "Which card do you keep?",
                                    tuple(Option(f"keep {name}", name) for name in seen))
            seen.remove(choice.value)
            self.state.players[ctx.player].hand.append(choice.value)
        self.state.discard.extend(seen)

    def _look_buy(self, e, ctx):
        for name in self.take_from_deck(e.look):
            yield from self.offer_card(ctx.player, name, self.card_price(ctx.player))

    def _discard(self, e, ctx):
        hand = self.state.players[ctx.player].hand
        for _ in range(min(self.value(e.amount, ctx), len(hand))):
            choice = yield Decision(ctx.player, "discard", "Which card do you discard?",
                                    tuple(Option(f"discard {name}", name) for name in dict.fromkeys(hand)))
            hand.remove(choice.value)
            self.state.discard.append(choice.value)

    def _resource_cards(self, player: int, resource: str, exclude: Optional[str] = None,
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

    def _add(self, e, ctx):
        amount = self.value(e.amount, ctx)
        player = self.state.players[ctx.player]
        if e.target == "here":
            targets = [ctx.card] if player.card(ctx.card) else []
        elif e.target == "that_card":  # the card that fired the trigger, if it can hold this resource
            targets = [ctx.that_card] if ctx.that_card in self._resource_cards(ctx.player, e.resource) else []
        else:
            targets = self._resource_cards(ctx.player, e.resource,
                                           exclude=ctx.card if e.target == "another_card" else None,
                                           with_resources=e.target == "any_card_with_resources")
        if not targets:
            return  # adding a resource nobody can hold is allowed and does nothing
        if len(targets) == 1:
            target = targets[0]
        else:
            choice = yield Decision(ctx.player, "card", f"Which card gets {text.effect(e)}?",
                                    tuple(Option(f"card {name}", name) for name in targets))
            target = choice.value
        player.card(target).resources += amount

    def protected(self, owner: int, remover: int, resource: str, card: Optional[str] = None) -> bool:
        for passive_card in self.state.players[owner].played:
            for p in self.library[passive_card.name].passives:
                if not isinstance(p, fx.Protect) or (resource not in p.resources and "resource" not in p.resources):
                    continue
                if p.scope == "here" and card == passive_card.name:
                    return True
                if p.scope == "opponents" and remover != owner:
                    return True
        return False

    def _cards_to_remove_from(self, e, ctx) -> list[tuple[int, str]]:
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

    def _remove(self, e, ctx):
        amount = self.value(e.amount, ctx)
        players = self.state.players
        if e.source == "here":
            card = players[ctx.player].card(ctx.card)
            if card:
                card.resources = max(0, card.resources - amount)
            return
        if e.source == "any_card":
            targets = self._cards_to_remove_from(e, ctx)
            options = [Option(f"card {name} ({players[i].name})", (i, name)) for i, name in targets]
            if e.up_to:
                options.append(Option("remove nothing", None))
            if self.options.solo:
                options.insert(0, Option("neutral opponent", NEUTRAL))
            if not options:
                return
            choice = yield Decision(ctx.player, "card", text.effect(e), tuple(options))
            if choice.value in (None, NEUTRAL):
                return
            index, name = choice.value
            card = players[index].card(name)
            card.resources -= min(amount, card.resources)
            return
        # from any player's stock
        candidates = []
        for index, other in enumerate(players):
            if index == ctx.player:  # the reference offers only opponents: removing your own is never wanted
                continue
            if other.resources[e.resource] <= 0 or self.protected(index, ctx.player, e.resource):
                continue
            if e.next_to_placed and not self._owns_tile_next_to(index, ctx.placed):
                continue
            candidates.append(index)
        options = [Option(f"player {players[i].name}", i) for i in candidates] + [Option("remove nothing", None)]
        if self.options.solo:  # the neutral opponent may be the target (and loses nothing that matters)
            options.insert(0, Option("neutral opponent", NEUTRAL))
        choice = yield Decision(ctx.player, "player", text.effect(e), tuple(options))
        if choice.value == NEUTRAL:
            return
        if choice.value is not None:
            stock = players[choice.value].resources
            stock[e.resource] -= min(amount, stock[e.resource])

    def _owns_tile_next_to(self, index: int, space: Optional[str]) -> bool:
        if space is None:
            return False
        return any(self.state.tiles.get(n) is not None and self.state.tiles[n].owner == index
                   for n in self.board.neighbours[space])

    def _steal(self, e, ctx):
        amount = self.value(e.amount, ctx)
        players = self.state.players
        candidates = [i for i, p in enumerate(players) if i != ctx.player and p.resources[e.resource] > 0
                      and not self.protected(i, ctx.player, e.resource)]
        options = [Option(f"player {players[i].name}", i) for i in candidates] + [Option("steal nothing", None)]
        if self.options.solo:  # RULES.md 7: you may steal from the neutral opponent, who always has enough
            options.insert(0, Option("neutral opponent", NEUTRAL))
        choice = yield Decision(ctx.player, "player", text.effect(e), tuple(options))
        if choice.value == NEUTRAL:
            players[ctx.player].resources[e.resource] += amount
            return
        if choice.value is not None:
            taken = min(amount, players[choice.value].resources[e.resource])
            players[choice.value].resources[e.resource] -= taken
            players[ctx.player].resources[e.resource] += taken

    def _choice(self, e, ctx):
        options = [Option(text.effects(o) or "nothing", i) for i, o in enumerate(e.options) if self.possible(o, ctx)]
        if not options:
            return
        choice = yield Decision(ctx.player, "option", "Choose one", tuple(options))
        yield from self.run(e.options[choice.value], ctx)

    def _conditional(self, e, ctx):
        branch = e.then if holds(self, e.condition, ctx.where) else e.otherwise
        yield from self.run(branch, ctx)

    def _choose_x(self, e, ctx):
        low, high = self.x_range(e, ctx)
        if low > high:
            return
        choice = yield Decision(ctx.player, "x", "Choose X: " + text.effects(e.body), NumberOptions(low, high))
        yield from self.run(e.body, attrs.evolve(ctx, x=choice.value))

    def x_range(self: "Game", e: fx.ChooseX, ctx: Context) -> tuple[int, int]:
        """The values X may take: from the minimum up to the largest X the body can be carried out with.
        Every effect that uses X needs more of something as X grows (spend, discard, production -X) or nothing
        at all, so the possible values are a range found in O(log X) checks, however large the quantity."""
        def works(x: int) -> bool:
            return self.possible(e.body, attrs.evolve(ctx, x=x))

        low, high = e.minimum, quantity(self, e.maximum, ctx.where)
        if low > high or not works(low):
            return low, low - 1
        while low < high:  # invariant: works(low)
            middle = (low + high + 1) // 2
            if works(middle):
                low = middle
            else:
                high = middle - 1
        return e.minimum, low

    def _may(self, e, ctx):
        if not self.possible(e.body, ctx):
            return
        choice = yield Decision(ctx.player, "option", "Optional: " + text.effects(e.body),
                                (Option("yes", True), Option("no", False)))
        if choice.value:
            yield from self.run(e.body, ctx)

    def _copyable(self, e, ctx) -> list[str]:
        result = []
        for card in self.state.players[ctx.player].played:
            definition = self.library[card.name]
            if e.tag not in definition.tags or card.name == ctx.card:
                continue
            boxes = _production_box(definition)
            if boxes and self.possible(boxes, attrs.evolve(ctx, card=card.name)):
                result.append(card.name)
        return result

    def _copy_production(self, e, ctx):
        names = self._copyable(e, ctx)
        if not names:
            return
        choice = yield Decision(ctx.player, "card", "Copy the production of which card?",
                                tuple(Option(f"card {n}", n) for n in names))
        copied = self.library[choice.value]
        boxes = _production_box(copied)
        # a box that raises "the production of the bonus" refers to the copied card's own tile
        placement = next((p for p in copied.play if isinstance(p, fx.PlaceTile)), None)
        tile = self.state.players[ctx.player].card(choice.value).tile
        yield from self.run(boxes, attrs.evolve(ctx, card=choice.value, placed=tile,
                                                placed_bonuses=_bonus_filter(placement) if placement else ()))

    def _reveal(self, e, ctx):
        revealed = self.take_from_deck(1)
        if not revealed:
            return
        self.log_event(f"{self.state.players[ctx.player].name} reveals {revealed[0]}")
        if e.tag in self.library[revealed[0]].tags:
            yield from self.run(e.then, ctx)
        self.state.discard.extend(revealed)

    def _require(self, e, ctx):
        return
        yield

    def _next_card(self, e, ctx):
        self.state.players[ctx.player].next_card_modifiers.extend(e.modifiers)
        return
        yield

    # ------------------------------------------------------------------ helpers with decisions

    def choose_player(self: "Game", chooser: int, candidates: list[int], prompt: str) -> Iterator:
        if len(candidates) == 1:
            return candidates[0]
        players = self.state.players
        choice = yield Decision(chooser, "player", prompt,
                                tuple(Option(f"player {players[i].name}", i) for i in candidates))
        return choice.value


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


HANDLERS = {
    fx.Gain: EffectsMixin._gain, fx.Lose: EffectsMixin._lose, fx.Spend: EffectsMixin._lose,
    fx.Pay: EffectsMixin._pay_effect, fx.Production: EffectsMixin._production,
    fx.AnyProduction: EffectsMixin._any_production, fx.ChangeParameter: EffectsMixin._parameter,
    fx.PlaceTile: EffectsMixin._place, fx.ClaimSpace: EffectsMixin._claim, fx.Draw: EffectsMixin._draw,
    fx.LookKeep: EffectsMixin._look_keep, fx.LookBuy: EffectsMixin._look_buy, fx.Discard: EffectsMixin._discard,
    fx.AddResources: EffectsMixin._add, fx.RemoveResources: EffectsMixin._remove, fx.Steal: EffectsMixin._steal,
    fx.Choice: EffectsMixin._choice, fx.Conditional: EffectsMixin._conditional, fx.ChooseX: EffectsMixin._choose_x,
    fx.May: EffectsMixin._may, fx.CopyProduction: EffectsMixin._copy_production, fx.Reveal: EffectsMixin._reveal,
    fx.Require: EffectsMixin._require, fx.NextCard: EffectsMixin._next_card,
}
assert set(HANDLERS) == set(fx.IMMEDIATE), "every immediate effect kind needs a runtime handler"
