"""Carrying out compiled effects: one handler per effect verb (compiler/effects.py's classes).

Interface: `run_effects(game, effects, index, ctx, steps_after)`, a step of the flow (runtime/core/flow.py) that
carries effects out in order; `run_in_chosen_order` (a played card's effects, in the order its player chooses);
`choose_player`; the tables `INLINE` (verbs that never ask, run inside `run_effects`' loop: gains, draws...),
`HANDLERS` (verbs that may push steps and ask, each question resumed by a small named step below) and
`PICK_ONE` (verbs whose player picks one of a list, one `Pick` each). A handler is registered for its verb with
`@handles(fx.Gain, inline=True)`; an immediate verb without exactly one handler stops the import, naming it.
Why this shape: a handler either finishes at once or pushes steps and asks, so the game can stop at any question,
be cloned and be saved (saves name the steps, so a step keeps its name and arguments). Whether an effect can be
carried out at all is decided beforehand by runtime/rules/checks.py; placing tiles, raising parameters, paying and
firing triggers are the handlers of tiles.py, payment.py and triggers.py, which this module calls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional

import attrs

from tharsis.compiler import effects as fx, text
from tharsis.compiler.memo import per_list
from tharsis.compiler.vocabulary import OCEAN_TILES

# effects place tiles and fire triggers, which run effects in turn: the three modules import one another as
# modules (never names), which works in whichever order they are first imported
from ..core.decisions import (
    Decision,
    NumberOptions,
    Option,
    asking,
    decider_argument,
    discard_option,
    shared_options,
    space_option,
)
from ..core.flow import Step, ask, push, step
from ..core.state import NEUTRAL
from ..rules.checks import (
    MINIMUM_PRODUCTION,
    EffectContext,
    adds_to_no_card,
    bonus_filter,
    bonus_resources,
    cards_playable_from_hand,
    cards_to_remove_from,
    claimable,
    commutes,
    copyable,
    copyable_plays,
    each_kept,
    effect_steps,
    fundable_awards,
    halved,
    lowest_productions,
    marker_destinations,
    movable_cards,
    names_resource,
    own_cards_to_remove_from,
    owns_tile_next_to,
    possible,
    production_box,
    production_targets,
    protected,
    raises_only_maxed,
    resource_cards,
    reusable_actions,
    reveal_range,
    revealable_in_hand,
    steal_targets,
    stealable,
    steps_possible,
    triggered_context,
    value_of,
    x_range,
)
from ..rules.legality import any_legal_action, extra_action_menu, usable_projects
from ..rules.measures import Where, bears_tag, card_matches, holds, quantity, tag_counts
from ..rules.ordering import order_matters
from ..rules.prices import card_price
from ..rules.sites import emptied, outside
from ..rules.spaces import markable_tiles, next_to_placed
from . import actions, politics, sites, stages, tiles, triggers, zones
from .payment import discard_face_down, offer_cards, pay, spend

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["HANDLERS", "INLINE", "PICK_ONE", "choose_player", "handles", "run_effects", "run_in_chosen_order"]

ORDER_CHOICE_LIMIT = 8  # longer effect lists run in a feasible order without asking (bounded work)

INLINE: dict[type, Callable] = {}     # verbs that never ask nor push a step: run inside `run_effects`' loop
HANDLERS: dict[type, Callable] = {}   # verbs that may ask or push steps
# run by `run_effects` itself: a placement tells the effects after it where "it" is, a payment is checked against them
# (a piece placed on a site too: the sites offered are those after which the rest stays possible)
IN_THE_LOOP = frozenset({fx.PlaceTile, fx.Pay, fx.PlacePiece})


def handles(*kinds: type, inline: bool = False):
    """Register the function below, `(game, effect, ctx)`, as the handler of `kinds`; `inline` when it never asks
    nor pushes a step (it then runs inside `run_effects`' loop, without a frame of its own)."""

    def register(handler: Callable) -> Callable:
        for kind in kinds:
            (INLINE if inline else HANDLERS)[kind] = handler
        return handler

    return register


# ------------------------------------------------------------------ running effects: the loop and its steps

@step
def run_effects(game: "Table", effects: tuple, index: int, ctx: EffectContext, steps_after) -> None:
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
            pay(game, ctx.player, value_of(game, e.amount, ctx), e.using, "an action",
                acceptable=(effects[index:], ctx, False))
            return
        if kind is fx.PlacePiece:  # offer only sites after which the rest of the list stays possible
            if index < count or steps_after is not None:
                stack.append(Step(run_effects, (effects, index, ctx, steps_after)))
            later = effects[index:]  # and the card's steps still to come (not the triggers it set off: optional)
            for later_step in steps_after or ():
                if not later_step or later_step[0].__class__ is not str:
                    later += later_step
            sites.place_piece(game, e, ctx, later)
            return
        if kind is fx.PlayFromHand and names_card_played(effects, index):  # the rest's `that card` is the card
            play_then(game, e, ctx, (effects, index, steps_after))
            return
        if index < count or steps_after is not None:
            stack.append(Step(run_effects, (effects, index, ctx, steps_after)))
        HANDLERS[kind](game, e, ctx)
        return
    if steps_after is not None:
        chosen_order(game, steps_after, ctx)


def run_in_chosen_order(game: "Table", effects: tuple, ctx: EffectContext, triggered: tuple = ()) -> None:
    """A played card's effects and the player's own triggers it sets off (`triggered`, steps `(CARD, ...)` from
    `own_play_steps`), in the order its player chooses (RULES.md 4A; seed 000) when the order can matter: when one
    step can change what another can do or gives (runtime/rules/ordering.py); otherwise as written, every order
    being the same. An effect about the tile just placed (`production(bonus ...)`, `... next to it`) stays with its
    placement."""
    steps = effect_steps(effects) + list(triggered)
    if len(steps) < 2 or all(commutes(_effects_of(s)) for s in steps) or not order_matters(game, steps):
        for fired in reversed(triggered):  # as written: the card's effects, then its triggers
            push(game, run_triggered, fired, ctx)
        run_effects(game, effects, 0, ctx, None)
        return
    chosen_order(game, tuple(steps), ctx)


@step
def run_triggered(game: "Table", fired: tuple, ctx: EffectContext) -> None:
    """A trigger of the player's own that a card they play sets off, `(CARD, effect, ...)`, as its own cause."""
    game.begin("trigger", ctx.player, fired[0])
    run_effects(game, fired[1:], 0, triggered_context(fired, ctx), None)


def _effects_of(step: tuple) -> tuple:
    return step[1:] if step and step[0].__class__ is str else step


@step
def chosen_order(game: "Table", steps: tuple, ctx: EffectContext) -> None:
    if not steps:
        return
    # offer only the steps after which the others can still all be done; a trigger is named by its card
    order = list(steps)
    if len(steps) > ORDER_CHOICE_LIMIT:  # a very long list: the first step that keeps the rest possible
        firsts = [next((i for i in range(len(steps)) if _first_works(game, order, i, ctx)), 0)]
    else:
        firsts = [i for i in range(len(steps)) if _first_works(game, order, i, ctx)] or [0]
    if len(firsts) > 1:
        ask(game, ctx.question("order", "Which effect of the card first?",
                               tuple(Option(_step_label(steps[i]), i) for i in firsts)), order_chosen, steps, ctx)
        return
    order_chosen(game, firsts[0], steps, ctx)


def _first_works(game: "Table", steps: list, index: int, ctx: EffectContext) -> bool:
    return steps_possible(game, [steps[index]] + steps[:index] + steps[index + 1:], ctx, fixed=1)


def _step_label(step: tuple) -> str:
    if step and step[0].__class__ is str:
        return f"{step[0]}: {text.effects(step[1:])}"
    return text.effects(step)


@step
def order_chosen(game: "Table", index: int, steps: tuple, ctx: EffectContext) -> None:
    step, rest = steps[index], steps[:index] + steps[index + 1:]
    if step and step[0].__class__ is str:  # a trigger the card set off: its own context, then the rest
        if rest:
            push(game, chosen_order, rest, ctx)
        run_triggered(game, step, ctx)
        return
    run_effects(game, step, 0, ctx, rest)


@handles(fx.Gain, inline=True)
def _gain(game, e, ctx):
    game.state.players[ctx.player].resources[e.resource] += max(0, value_of(game, e.amount, ctx))


@handles(fx.Lose, inline=True)
def _lose(game, e, ctx):
    stock = game.state.players[ctx.player].resources
    stock[e.resource] = max(0, stock[e.resource] - value_of(game, e.amount, ctx))


@handles(fx.Spend, inline=True)
def _spend(game, e, ctx):
    if game.elements.heat_payments:  # heat the stock lacks may come from cards (runtime/handlers/payment.py)
        spend(game, ctx.player, e.resource, value_of(game, e.amount, ctx))
        return
    _lose(game, e, ctx)


@handles(fx.Production)
def _production(game, e, ctx):
    production_changes(game, e, ctx, 0)


@step
def production_changes(game: "Table", e, ctx: EffectContext, index: int) -> None:
    changes = e.changes
    while index < len(changes):
        change = changes[index]
        index += 1
        resource = change.resource
        if resource == "bonus" or resource == "lowest":
            choices = bonus_resources(game, ctx) if resource == "bonus" else lowest_productions(game, ctx.player)
            if not choices:
                continue
            if len(choices) > 1:
                push(game, production_changes, e, ctx, index)
                ask(game, ctx.question("option", "Which production rises?",
                                       tuple(Option(r, r) for r in choices)), production_chosen, e, ctx, index - 1)
                return
            resource = choices[0]
        production_chosen(game, resource, e, ctx, index - 1)


@step
def production_chosen(game: "Table", resource: str, e, ctx: EffectContext, index: int) -> None:
    production = game.state.players[ctx.player].production
    delta = value_of(game, e.changes[index].amount, ctx)
    before = production[resource]
    production[resource] = max(MINIMUM_PRODUCTION.get(resource, 0), before + delta)
    if production[resource] > before:
        triggers.fire(game, "production_raise", ctx.player, raised=(resource, production[resource] - before))


@handles(fx.AnyProduction)
def _any_production(game, e, ctx):
    targets = production_targets(game, e, ctx)
    game.flow.target = None   # "that player" of a later `move this card to that player's events`: nobody yet
    if not targets:
        return
    choose_player(game, ctx.asked, targets, "Whose production decreases? " + text.effect(e),
                  any_production_target, e, ctx, for_player=ctx.for_player)


@step
def any_production_target(game: "Table", target: int, e, ctx: EffectContext) -> None:
    _targeted(game, target)
    if target == NEUTRAL:
        game.log_event("neutral_production", ctx.player)
        return
    production = game.state.players[target].production
    for change in e.changes:
        amount = value_of(game, change.amount, ctx)
        production[change.resource] += amount
        if amount < 0:
            record_harm(game, ctx.player, target)


@handles(fx.ChangeParameter)
def _parameter(game, e, ctx):
    steps = value_of(game, e.amount, ctx)
    if ctx.neutral:  # for nobody: no TR (the checker allows only global parameters in `neutral { }`)
        if e.parameter != "tr":
            tiles.raise_parameter(game, ctx.player, e.parameter, steps, True)
        return
    if e.parameter == "tr":
        gained = tiles.raise_tr(game, ctx.player, steps)
        if gained > 0:  # `when you raise tr` fires for every step, as for a parameter raised N steps
            triggers.fire(game, "raise", ctx.player, parameter="tr", times=gained)
        return
    tiles.raise_parameter(game, ctx.player, e.parameter, steps)


@step
def place_next(game: "Table", e, ctx: EffectContext, remaining: int, placed, continuation: tuple) -> None:
    """Place the `remaining` tiles of `e` one after the other, then carry on with the effects after it."""
    if remaining == 0:
        effects, index, steps_after = continuation
        run_effects(game, effects, index, ctx.with_placed(placed, bonus_filter(e)),
                    steps_after)
        return
    tiles.place(game, ctx.player, e.tile, next_to_placed(e.filters, placed), e.name, card=ctx.card,
                then=Step(placed_one, (e, ctx, remaining - 1, placed, continuation)), neutral=ctx.neutral,
                decider=ctx.decider)


@step
def placed_one(game: "Table", e, ctx: EffectContext, remaining: int, placed, continuation: tuple, space) -> None:
    if space is None:  # no legal space (or no ocean) left: the rest cannot be placed either
        remaining = 0
    place_next(game, e, ctx, remaining, space or placed, continuation)


@step
def claimed(game: "Table", space: str, player: int, oceans: Optional[bool] = None) -> None:
    """`claim space`: the player's marker on the space; `oceans` None: nothing collected (an argument left out then,
    so that the flows of saved games read as before), True (`collecting bonus`): what a tile placed there would give,
    False (`collecting space bonus`): the space's printed bonus only, as a marker moved there collects it."""
    game.state.claims[space] = player
    if oceans is not None:
        tiles.marker_bonuses(game, player, space, 0, oceans)


@handles(fx.Draw, inline=True)
def _draw(game, e, ctx):
    game.draw(ctx.player, value_of(game, e.amount, ctx))


@handles(fx.LookKeep)
def _look_keep(game, e, ctx):
    look = e.look * ctx.x if e.variable else e.look
    keep_next(game, ctx.player, tuple(game.take_from_deck(look)), e.keep, *ctx.decided)


@handles(fx.LookDiscard)
def _look_discard(game, e, ctx):
    """The top of the discard pile is its end (the last card discarded); the cards taken leave it, and those not
    kept go back on it, face down as any card looked at and declined."""
    state = game.state
    look = min(e.look * ctx.x if e.variable else e.look, len(state.discard))
    taken = tuple(reversed(state.discard[len(state.discard) - look:]))
    del state.discard[len(state.discard) - look:]
    for name in taken:
        state.face_down.pop(name, None)
    keep_next(game, ctx.player, taken, e.keep, *ctx.decided)


@step
def keep_next(game: "Table", player: int, seen: tuple, remaining: int, decider: Optional[int] = None) -> None:
    if remaining <= 0 or not seen:
        discard_face_down(game, player, seen)
        return
    asked, for_player = asking(player, decider)
    ask_for_one(game, asked, "keep", "Which card do you keep?", "keep", seen, kept, player, seen, remaining,
                *decider_argument(decider), for_player=for_player)


@step
def kept(game: "Table", name: str, player: int, seen: tuple, remaining: int, decider: Optional[int] = None) -> None:
    rest = list(seen)
    rest.remove(name)
    game.state.players[player].hand.append(name)
    keep_next(game, player, tuple(rest), remaining - 1, *decider_argument(decider))


@handles(fx.LookBuy)
def _look_buy(game, e, ctx):
    look = e.look * ctx.x if e.variable else e.look
    offer_cards(game, ctx.player, tuple(game.take_from_deck(look)), card_price(game, ctx.player), *ctx.decided)


@handles(fx.Discard)
def _discard(game, e, ctx):
    discard_next(game, ctx.player, value_of(game, e.amount, ctx), *ctx.decided)


@step
def discard_next(game: "Table", player: int, remaining: int, decider: Optional[int] = None) -> None:
    hand = game.state.players[player].hand
    if remaining <= 0 or not hand:
        return
    asked, for_player = asking(player, decider)
    ask(game, Decision(asked, "discard", "Which card do you discard?",
                       discard_option.many(dict.fromkeys(hand)), for_player),
        discarded, player, remaining, *decider_argument(decider))


@step
def discarded(game: "Table", name: str, player: int, remaining: int, decider: Optional[int] = None) -> None:
    game.state.players[player].hand.remove(name)
    game.state.discard.append(name)
    discard_next(game, player, remaining - 1, *decider_argument(decider))


@handles(fx.AddResources)
def _add(game, e, ctx):
    amount = value_of(game, e.amount, ctx)
    player = game.state.players[ctx.player]
    if e.target == "here":
        targets = [ctx.card] if player.card(ctx.card) else []
    elif e.target == "that_card":  # the card that fired the trigger, if it can hold this resource
        targets = [ctx.that_card] if ctx.that_card in resource_cards(game, ctx.player, e.resource,
                                                                     excluded=e.excluded) else []
    else:
        targets = resource_cards(game, ctx.player, e.resource,
                                 exclude=ctx.card if e.target == "another_card" else None,
                                 with_resources=e.target in ("any_card_with_resources", "each_card_with_resources"),
                                 tag=e.tag, card_type=e.card_type, excluded=e.excluded)
    if not targets or amount <= 0:
        return  # adding a resource nobody can hold is allowed and does nothing
    if e.target in ("each_card", "each_card_with_resources"):  # to every such card of the player's
        for name in reversed(targets):
            push(game, added, name, ctx.player, amount)
        return
    if e.target == "different_cards":   # N different cards, one chosen at a time; all of them when N or fewer
        if len(targets) <= e.cards:
            for name in reversed(targets):
                push(game, added, name, ctx.player, amount)
        else:
            different_next(game, e, ctx.player, tuple(targets), e.cards, amount, *ctx.decided)
        return
    if e.target == "any_cards" and len(targets) > 1:  # split: one unit at a time, to the card the player picks
        split_next(game, e, ctx.player, tuple(targets), amount, *ctx.decided)
        return
    if len(targets) == 1:
        added(game, targets[0], ctx.player, amount)
        return
    ask_for_one(game, ctx.asked, "card", f"Which card gets {text.effect(e)}?", "card", targets, added, ctx.player,
                amount, for_player=ctx.for_player)


@step
def split_next(game: "Table", e, player: int, targets: tuple, remaining: int, decider: Optional[int] = None) -> None:
    if remaining <= 0:
        return
    push(game, split_next, e, player, targets, remaining - 1, *decider_argument(decider))
    resource = "resource" if e.resource == "resource" else e.resource
    asked, for_player = asking(player, decider)
    ask_for_one(game, asked, "card", f"Which card gets 1 {resource} ({remaining} to place)?", "card", targets,
                added, player, 1, for_player=for_player)


@step
def different_next(game: "Table", e, player: int, targets: tuple, remaining: int, amount: int,
                   decider: Optional[int] = None) -> None:
    """`add N RESOURCE to each of K different cards`: the next of the K cards, among those not chosen yet."""
    if remaining <= 0 or not targets:
        return
    asked, for_player = asking(player, decider)
    ask_for_one(game, asked, "card", f"Which card gets {text.effect(attrs.evolve(e, target='any_card'))} "
                f"({remaining} more different cards)?", "card", targets, different_chosen, e, player, targets,
                remaining, amount, *decider_argument(decider), for_player=for_player)


@step
def different_chosen(game: "Table", name: str, e, player: int, targets: tuple, remaining: int, amount: int,
                     decider: Optional[int] = None) -> None:
    push(game, different_next, e, player, tuple(t for t in targets if t != name), remaining - 1, amount,
         *decider_argument(decider))
    added(game, name, player, amount)


@step
def added(game: "Table", name: str, player: int, amount: int) -> None:
    game.state.players[player].card(name).resources += amount
    triggers.fire(game, "add_resource", player, card=name, added=amount)


@handles(fx.RemoveResources)
def _remove(game, e, ctx):
    amount = value_of(game, e.amount, ctx)
    players = game.state.players
    if e.source == "here":
        card = players[ctx.player].card(ctx.card)
        if card:
            card.resources = max(0, card.resources - amount)
        return
    if e.source == "your_card":  # one of the player's own cards, the player's choice
        names = own_cards_to_remove_from(game, e, ctx) if amount > 0 else []
        if len(names) == 1 and not e.up_to:
            removed_from_card(game, (ctx.player, names[0]), amount)
            return
        options = [Option(f"card {name}", (ctx.player, name)) for name in names]
        if e.up_to:
            options.append(Option("remove nothing", None))
        if options:
            ask(game, ctx.question("card", text.effect(e), tuple(options)), removed_from_card, amount)
        return
    if e.source == "any_card":
        targets = cards_to_remove_from(game, e, ctx)
        options = [Option(f"card {name} ({players[i].name})", (i, name)) for i, name in targets]
        if e.up_to:
            options.append(Option("remove nothing", None))
        if game.options.solo:
            options.insert(0, Option("neutral opponent", NEUTRAL))
        if not options:
            return
        ask(game, ctx.question("card", text.effect(e), tuple(options)), removed_from_card, amount, ctx.player,
            e.resource)
        return
    if e.source == "each_opponent":   # an attack on every other player, in seat order (the reference engine's)
        for index in range(len(players)):
            if index != ctx.player and not protected(game, index, ctx.player, e.resource):
                _take_from_player(game, index, e.resource, amount, ctx.player)
        return
    # from any player's stock
    candidates = []
    for index, other in enumerate(players):
        if index == ctx.player:  # the reference offers only opponents: removing your own is never wanted
            continue
        if other.resources[e.resource] <= 0 or protected(game, index, ctx.player, e.resource):
            continue
        if e.next_to_placed and not owns_tile_next_to(game, index, ctx.placed):
            continue
        if e.player_tag is not None and e.player_tag not in tag_counts(game, index):
            continue
        candidates.append(index)
    options = [Option(f"player {players[i].name}", i) for i in candidates] + [Option("remove nothing", None)]
    if game.options.solo:  # the neutral opponent may be the target (and loses nothing that matters)
        options.insert(0, Option("neutral opponent", NEUTRAL))
    ask(game, ctx.question("player", text.effect(e), tuple(options)), removed_from_player, e.resource, amount,
        ctx.player)


@step
def removed_from_card(game: "Table", target, amount: int, by: Optional[int] = None, kind: str = "resource") -> None:
    """`by`: the player removing `kind` from any card (None: from their own card, a cost); what a card of a player
    loses is recorded as what it holds."""
    if target is None:
        return
    if target == NEUTRAL:
        _record_removal(game, by, NEUTRAL, kind, amount)
        return
    index, name = target
    card = game.state.players[index].card(name)
    taken = min(amount, card.resources)
    card.resources -= taken
    _record_removal(game, by, index, game.library[name].holds or kind, taken)


@step
def removed_from_player(game: "Table", target, resource: str, amount: int, by: Optional[int] = None) -> None:
    _targeted(game, target)
    if target is None:
        return
    if target == NEUTRAL:
        _record_removal(game, by, NEUTRAL, resource, amount)
        return
    _take_from_player(game, target, resource, amount, by)


def _take_from_player(game: "Table", target: int, resource: str, amount: int, by: Optional[int]) -> None:
    """Up to `amount` of the target's `resource` taken by `by` (half of it, rounded up, where the target protects
    half), recorded as a removal and a harm."""
    stock = game.state.players[target].resources
    taken = min(amount, stock[resource])
    if halved(game, target, by, resource):   # `protect half plants from opponents`: half, rounded up
        taken = (taken + 1) // 2
    stock[resource] -= taken
    _record_removal(game, by, target, resource, taken)


def _record_removal(game: "Table", by: Optional[int], target: int, resource: str, amount: int) -> None:
    """What `by` removed from another player (the neutral opponent of a solo game too, who always has what is
    removed, as the reference engine counts it), kept for the generation: `plants removed from opponents this
    generation`. Steps saved before `by` existed carry none and record nothing."""
    if by is None or target == by or amount <= 0:
        return
    removed = game.state.players[by].removed_this_generation
    removed[resource] = removed.get(resource, 0) + amount
    record_harm(game, by, target)


def record_harm(game: "Table", by: Optional[int], target: int) -> None:
    """`by` removed `target`'s resources or decreased their production: `target` remembers it for the generation
    (`steal 3 megacredits from any player who harmed you this generation`). The neutral opponent of a solo game
    remembers nothing and harms nobody."""
    if by is None or by == target or target == NEUTRAL or by == NEUTRAL:
        return
    harmed_by = game.state.players[target].harmed_by_this_generation
    if by not in harmed_by:
        harmed_by.append(by)
    triggers.fire(game, "harm", by, victim=target)   # once per harm (nothing in a game without such a trigger)


@handles(fx.Give)
def _give(game, e, ctx):
    """`give [up to] N RESOURCE to the victim | that player`: from the player's stock into theirs; nothing when
    there is no such player (the neutral opponent) or it is the giver."""
    receiver = ctx.victim if e.to == "victim" else ctx.actor
    if receiver is None or receiver < 0 or receiver == ctx.player:
        return
    players = game.state.players
    stock = players[ctx.player].resources
    given = min(max(0, value_of(game, e.amount, ctx)), stock[e.resource])
    stock[e.resource] -= given
    players[receiver].resources[e.resource] += given


@handles(fx.FaceDown)
def _face_down(game, e, ctx):
    """`turn this card face down`: the card leaves its owner's play area (its resources with it; its tags,
    passives, actions and VP no longer count) into the face-down part of their events pile, which nothing counts."""
    state = game.state.players[ctx.player]
    card = state.card(ctx.card)
    if card is None:   # no longer in play (turned face down already by another effect under way)
        return
    state.played.remove(card)
    state.events_face_down.append(ctx.card)
    game._passives.pop(ctx.player, None)
    game.log_event("face_down", ctx.player, ctx.card)


def _targeted(game: "Table", target) -> None:
    """The player an effect just targeted (None: nobody, or the neutral opponent, who keeps no event pile) is
    "that player" of a later `move this card to that player's events` of the same card."""
    game.flow.target = target if target is not None and target >= 0 else None


@handles(fx.MoveThisCard)
def _move_this(game, e, ctx):
    """The event being played goes into the event pile of the player the card's earlier effect targeted, when
    `card_played` files it (runtime/handlers/actions.py); it stays its player's when that effect targeted nobody."""
    target = game.flow.target
    if target is not None and target != ctx.player and ctx.playing is not None:
        game.flow.event_pile = (ctx.playing, target)


@handles(fx.DoubleKept)
def _double_kept(game, e, ctx):
    zones.double_kept(game, e, ctx)


@handles(fx.Steal)
def _steal(game, e, ctx):
    amount = value_of(game, e.amount, ctx)
    game.flow.target = None
    players = game.state.players
    if not e.up_to:  # `steal N`: exactly N, from an opponent who has them (runtime/rules/checks.py `stealable`)
        options = [Option(f"player {players[i].name}", i) for i in stealable(game, e, ctx)]
        if game.options.solo and not e.harmed:
            options.insert(0, Option("neutral opponent", NEUTRAL))
        if options:
            ask(game, ctx.question("player", text.effect(e), tuple(options)), stolen, ctx.player,
                e.resource, amount)
        return
    candidates = [i for i in steal_targets(game, e, ctx) if players[i].resources[e.resource] > 0
                  and not protected(game, i, ctx.player, e.resource)]
    options = [Option(f"player {players[i].name}", i) for i in candidates] + [Option("steal nothing", None)]
    if game.options.solo and not e.harmed:  # RULES.md 7: you may steal from the neutral opponent, who always has enough
        options.insert(0, Option("neutral opponent", NEUTRAL))
    ask(game, ctx.question("player", text.effect(e), tuple(options)), stolen, ctx.player, e.resource, amount)


@step
def stolen(game: "Table", target, player: int, resource: str, amount: int) -> None:
    _targeted(game, target)
    players = game.state.players
    if target == NEUTRAL:
        players[player].resources[resource] += amount
        _record_removal(game, player, NEUTRAL, resource, amount)
        return
    if target is not None:
        taken = min(amount, players[target].resources[resource])
        if halved(game, target, player, resource):   # `protect half ... from opponents`: half, rounded up
            taken = (taken + 1) // 2
        players[target].resources[resource] -= taken
        players[player].resources[resource] += taken
        _record_removal(game, player, target, resource, taken)


@handles(fx.Choice)
def _choice(game, e, ctx):
    chosen = [i for i, o in enumerate(e.options) if possible(game, o, ctx)]
    useful = [i for i in chosen if not raises_only_maxed(game, e.options[i])
              and not adds_to_no_card(game, e.options[i], ctx)]
    # a raise of a maxed parameter, or resources added to no card (`add 1 resource to that card` when that card
    # holds none), is offered only when nothing else is (it would change nothing)
    labels = _option_labels(e.options)
    options = [Option(labels[i], i) for i in (useful or chosen)]
    if not options:
        return
    ask(game, ctx.question("option", "Choose one", tuple(options)), option_chosen, e, ctx)


@per_list
def _option_labels(options: tuple) -> tuple[str, ...]:
    """Each option as its effects, without the `require` conditions that only decide whether it is offered (unless
    two options would then read alike): the rules text of a compiled choice, written once (a card's choice is
    offered at each play)."""
    shown = [text.effects(tuple(e for e in option if type(e) is not fx.Require)) or "nothing" for option in options]
    return tuple(label if shown.count(label) == 1 else (text.effects(option) or "nothing")
                 for label, option in zip(shown, options))


@step
def option_chosen(game: "Table", index: int, e, ctx: EffectContext) -> None:
    run_effects(game, e.options[index], 0, ctx, None)


@handles(fx.Conditional)
def _conditional(game, e, ctx):
    branch = e.then if holds(game, e.condition, ctx.where) else e.otherwise
    run_effects(game, branch, 0, ctx, None)


@handles(fx.ChooseX)
def _choose_x(game, e, ctx):
    ask_x(game, e, ctx, "Choose X: ", x_range(game, e, ctx), x_chosen)


def ask_x(game: "Table", e, ctx: EffectContext, prompt: str, bounds: tuple[int, int], resume) -> None:
    """Ask the player for X in `bounds` (nothing when it is empty: no X works), `prompt` followed by the block's
    effects; `resume(game, x, e, ctx)` carries on (`choose X` and `reveal X cards from hand` alike)."""
    low, high = bounds
    if low > high:
        return
    ask(game, ctx.question("x", prompt + text.effects(e.body), NumberOptions(low, high)), resume, e, ctx)


@step
def x_chosen(game: "Table", x: int, e, ctx: EffectContext) -> None:
    run_effects(game, e.body, 0, ctx.with_x(x), None)


@handles(fx.May)
def _may(game, e, ctx):
    if not possible(game, e.body, ctx):
        return
    ask(game, ctx.question("option", "Optional: " + text.effects(e.body),
                           (Option("yes", True), Option("no", False))), may_chosen, e, ctx)


@handles(fx.IfYouCan)
def _if_you_can(game, e, ctx):
    """`if you can { }`: the block when its effects can all be carried out, nothing otherwise; nothing is asked."""
    if possible(game, e.body, ctx):
        run_effects(game, e.body, 0, ctx, None)


@step
def may_chosen(game: "Table", yes: bool, e, ctx: EffectContext) -> None:
    if yes:
        run_effects(game, e.body, 0, ctx, None)


@step
def copy_chosen(game: "Table", name: str, ctx: EffectContext) -> None:
    copied = game.library[name]
    boxes = production_box(copied)
    # a box that raises "the production of the bonus" refers to the copied card's own tile
    placement = next((p for p in copied.play if isinstance(p, fx.PlaceTile)), None)
    tile = game.state.players[ctx.player].card(name).tile
    run_effects(game, boxes, 0, attrs.evolve(ctx, card=name, placed=tile,
                                             placed_bonuses=bonus_filter(placement) if placement else ()), None)


@handles(fx.CopyProduction)
def _copy_production(game, e, ctx):
    """One card's production box (the step saves hold, `copy_chosen`), or N different cards' one after another: each
    pick is offered after the box before it has run, among the cards not yet copied (nothing left: no more copies)."""
    if e.count == 1:
        ask_for_one(game, ctx.asked, "card", "Copy the production of which card?", "card", copyable(game, e, ctx),
                    copy_chosen, ctx, for_player=ctx.for_player)
    else:
        offer_another_copy(game, e, ctx, ())


@step
def offer_another_copy(game: "Table", e: fx.CopyProduction, ctx: EffectContext, copied: tuple) -> None:
    names = [name for name in copyable(game, e, ctx) if name not in copied]
    prompt = f"Copy the production of which card ({len(copied) + 1} of {e.count})?"
    ask_for_one(game, ctx.asked, "card", prompt, "card", names, copied_one_of_several, e, ctx, copied,
                for_player=ctx.for_player)


@step
def copied_one_of_several(game: "Table", name: str, e: fx.CopyProduction, ctx: EffectContext, copied: tuple) -> None:
    copied += (name,)
    if len(copied) < e.count:
        push(game, offer_another_copy, e, ctx, copied)   # runs once the box copied now is carried out
    copy_chosen(game, name, ctx)


@step
def play_copied(game: "Table", name: str, ctx: EffectContext) -> None:
    """`copy play of another card`: the picked card's `play:` effects again, `here` meaning that card."""
    copied = game.library[name]
    run_in_chosen_order(game, copied.play, attrs.evolve(ctx, card=name), ())


@handles(fx.Reveal)
def _reveal(game, e, ctx):
    revealed = game.take_from_deck(1)
    if not revealed:
        return
    game.log_event("reveal", ctx.player, revealed[0])
    push(game, discard_cards, tuple(revealed))
    if bears_tag(game.library[revealed[0]], e.tag):
        run_effects(game, e.then, 0, ctx, None)


@step
def discard_cards(game: "Table", names: tuple) -> None:
    game.state.discard.extend(names)


@handles(fx.Require, inline=True)
def _require(game, e, ctx):
    return


@handles(fx.RevealUntil, inline=True)
def _reveal_until(game, e, ctx):
    """Reveal cards one by one until `count` match (or the deck and discard pile run out); the matching ones go to
    the hand, the others to the discard pile once all are revealed (so none is revealed twice)."""
    library, found, missed = game.library, [], []
    while len(found) < e.count:
        revealed = game.take_from_deck(1)
        if not revealed:
            break
        definition = library[revealed[0]]
        matches = (e.tag is None or bears_tag(definition, e.tag)) and \
            (e.icon is None or names_resource(definition, e.icon)) and \
            (e.holds is None or definition.holds == e.holds) and (e.cards is None or card_matches(definition, e.cards))
        (found if matches else missed).append(revealed[0])
    game.state.players[ctx.player].hand.extend(found)
    game.state.discard.extend(missed)
    game.log_event("reveal_until", ctx.player, len(found) + len(missed), tuple(found))


@handles(fx.RevealFromHand)
def _reveal_from_hand(game, e, ctx):
    ask_x(game, e, ctx, "Reveal X cards from hand: ", reveal_range(game, e, ctx), revealed_from_hand)


@step
def revealed_from_hand(game: "Table", x: int, e, ctx: EffectContext) -> None:
    """X is chosen: the player picks which X of the cards that pass are shown (one at a time), unless they are all
    shown (or none), then the block runs with that X. (The step's name and arguments are those saves of the form
    before the pick hold: a save made at the question of X resumes here.)"""
    reveal_next(game, (), x, e, ctx)


@step
def reveal_next(game: "Table", chosen: tuple, x: int, e, ctx: EffectContext) -> None:
    """One more card of the X to reveal, the player's pick among the cards that pass and are not shown yet; once
    there are X, the log names them and the block runs."""
    left = [name for name in dict.fromkeys(revealable_in_hand(game, e, ctx.player)) if name not in chosen]
    if len(chosen) < x and len(chosen) + len(left) > x:
        ask(game, ctx.question("card", f"Which card do you reveal ({x - len(chosen)} to go)?",
                               tuple(map(_reveal_option, left))), revealed_one, chosen, x, e, ctx)
        return
    shown = chosen + tuple(left[:x - len(chosen)])  # every card left is shown: no choice to make
    game.log_event("reveal_from_hand", ctx.player, shown)
    run_effects(game, e.body, 0, ctx.with_x(x), None)


@step
def revealed_one(game: "Table", name: str, chosen: tuple, x: int, e, ctx: EffectContext) -> None:
    reveal_next(game, chosen + (name,), x, e, ctx)


_reveal_option = shared_options("reveal {}")


@step
def played_from_hand(game: "Table", name: str, player: int, source: str = "hand", discard: bool = False) -> None:
    """`play card from hand` (or `from events`): the card picked is paid for and played as from hand; `then
    discard`: once played (its effects and the triggers it sets off), it goes to the discard pile. (Saves made
    before the zones held no `source`: a card from hand keeps the step's arguments as they were.)"""
    if discard:
        push(game, discard_played_event, player, name)
    actions.play_card(game, player, name, source)


@step
def discard_played_event(game: "Table", player: int, name: str) -> None:
    """`then discard`: the event just played leaves the events pile it joined (its player's, or the one its own
    effects sent it to) for the discard pile."""
    for index in (player,) + tuple(i for i in range(len(game.state.players)) if i != player):
        events = game.state.players[index].events
        if name in events:
            del events[len(events) - 1 - events[::-1].index(name)]
            game.state.discard.append(name)
            game.log_event("discard_event", player, name)
            return


@handles(fx.RevealEach)
def _reveal_each(game, e, ctx):
    """`reveal N cards one by one { }`: the cards drawn face up go into the hand; the first, in the order drawn,
    that passes a case's filters (the cases tried in written order) has that case carried out, `it` being that card
    (`ctx.that_card`), and the cards after it are not looked at."""
    drawn = game.take_from_deck(max(0, quantity(game, e.count, ctx.where)))
    if not drawn:
        return
    game.state.players[ctx.player].hand.extend(drawn)
    library = game.library
    for name in drawn:
        game.log_event("reveal", ctx.player, name)
    for name in drawn:
        for cards, body in zip(e.filters, e.cases):
            if card_matches(library[name], cards):
                run_effects(game, body, 0, attrs.evolve(ctx, that_card=name), None)
                return


@handles(fx.PlayIt)
def _play_it(game, e, ctx):
    """`play it`: the card a case of `reveal N cards one by one` looked at, from the hand, if it is still there
    and can be played so (else it stays in the hand)."""
    name = ctx.that_card
    if name is not None and name in game.state.players[ctx.player].hand:
        actions.play_revealed(game, ctx.player, name, e.free, e.ignoring)


def names_card_played(effects: tuple, index: int) -> bool:
    """Whether an effect after a `play card from hand` (at `index` - 1) says `that card`: the card it plays."""
    for e in fx.walk(effects[index:]):
        if type(e) is fx.AddResources and e.target == "that_card":
            return True
    return False


def play_then(game: "Table", e: fx.PlayFromHand, ctx: EffectContext, continuation: tuple) -> None:
    """`play card from hand; ... that card`: the card played is `that card` for the effects after it (Valuable Gases'
    "play an active card from hand ... and add 5 resources to it"), which run once it is played (its own
    effects first, as the reference engine's callback after the play). No card to play: no `that card`, the rest
    runs. (Only lists that say `that card` take this path, so the flows of other cards are as before.)"""
    effects, index, steps_after = continuation
    values = cards_playable_from_hand(game, ctx.player, e.modifiers, e.cards, ctx.playing)
    if not values:
        run_effects(game, effects, index, attrs.evolve(ctx, that_card=None), steps_after)
        return
    _play_offered(game, e, ctx)
    ask(game, ctx.question("card", "Which card do you play from your hand?", tuple(map(_labelled("play"), values))),
        played_then, ctx, continuation)


@step
def played_then(game: "Table", name: str, ctx: EffectContext, continuation: tuple) -> None:
    effects, index, steps_after = continuation
    push(game, run_effects, effects, index, attrs.evolve(ctx, that_card=name), steps_after)
    actions.play_card(game, ctx.player, name)


@handles(fx.GainRaised, inline=True)
def _gain_raised(game, e, ctx):
    if ctx.raised is not None:
        resource, steps = ctx.raised
        game.state.players[ctx.player].resources[resource] += steps


@handles(fx.EachOpponent, fx.EachPlayer)
def _each(game, e, ctx):
    """Each player the block names, in turn: with `must`, none when one of them cannot (judged before any acts;
    where the effects are checked first, as a card's are, the card was refused instead)."""
    players = each_kept(game, e, ctx.player)
    if e.must and not all(possible(game, e.body, EffectContext(index)) for index in players):
        return
    for index in reversed(players):
        push(game, opponent_turn, e, index)


@step
def opponent_turn(game: "Table", e, index: int) -> None:
    ctx = EffectContext(index)
    if possible(game, e.body, ctx):
        run_effects(game, e.body, 0, ctx, None)


@handles(fx.ThatPlayer)
def _that_player(game, e, ctx):
    """The block, carried out by the player who set the trigger off (its `that card` theirs); nothing when nobody
    did (a neutral placement) or when they cannot carry it out, as `each opponent { }` skips such a player."""
    if ctx.actor is None or ctx.actor < 0:
        return
    theirs = EffectContext(ctx.actor, card=ctx.card, that_card=ctx.that_card)
    if possible(game, e.body, theirs):
        run_effects(game, e.body, 0, theirs, None)


@handles(fx.RemoveTile)
def _remove_tile(game, e, ctx):
    remove_next_tile(game, e.tile, ctx.player, e.count, *ctx.decided)


@step
def remove_next_tile(game: "Table", tile: str, player: int, remaining: int, decider: Optional[int] = None) -> None:
    """Take `remaining` tiles of this kind off Mars, one at a time, the player choosing which (nothing when there
    is none left)."""
    spaces = [sid for sid, placed in game.state.tiles.items() if placed.kind == tile and game.board.spaces[sid].on_mars]
    if remaining <= 0 or not spaces:
        return
    if remaining > 1:
        push(game, remove_next_tile, tile, player, remaining - 1, *decider_argument(decider))
    if len(spaces) == 1:
        tile_removed(game, spaces[0], tile)
        return
    asked, for_player = asking(player, decider)
    ask(game, Decision(asked, "space", f"Which {tile} tile is removed?", space_option.many(sorted(spaces)),
                       for_player), tile_removed, tile)


@step
def tile_removed(game: "Table", sid: str, tile: str) -> None:
    """The tile leaves the board: its space is free again and an ocean goes back to the supply (no TR changes)."""
    state = game.state
    del state.tiles[sid]
    if tile in OCEAN_TILES:
        state.oceans -= 1
    game.log_event("tile_removed", None, sid, tile)


@handles(fx.Repeat)
def _repeat(game, e, ctx):
    times = quantity(game, e.times, ctx.where)
    if times > 0:
        repeat_next(game, e, ctx, times)


@step
def repeat_next(game: "Table", e, ctx: EffectContext, remaining: int) -> None:
    """One more time of a `repeat`: the body, when it can be carried out, then the rest."""
    if remaining > 1:
        push(game, repeat_next, e, ctx, remaining - 1)
    if possible(game, e.body, ctx):
        run_effects(game, e.body, 0, ctx, None)


@handles(fx.Rank)
def _rank(game, e, ctx):
    """Every player's score first; then each player in a place that has effects carries them out, in turn order.
    A player's place is 1 + the players with a higher score (a lower one with `lowest`)."""
    order = game.turn_order()
    scores = {index: quantity(game, e.score, Where(index)) for index in order}
    taking_part = [i for i in order if e.minimum is None or scores[i] >= e.minimum]
    for index in reversed(taking_part):
        better = sum(1 for other in taking_part
                     if (scores[other] < scores[index] if e.lowest else scores[other] > scores[index]))
        if better < len(e.places):
            push(game, player_turn, e.places[better], index)


@step
def player_turn(game: "Table", body: tuple, index: int) -> None:
    """A player carries out effects as their own (a rank's place), when they can."""
    ctx = EffectContext(index)
    if possible(game, body, ctx):
        run_effects(game, body, 0, ctx, None)


@step
def award_funded(game: "Table", name: str, player: int) -> None:
    game.log_event("award_free", player, name)
    game.state.awards.append((name, player))


@handles(fx.LookPlay)
def _look_play(game, e, ctx):
    pile = game.state.piles.get(e.card_kind, [])
    seen = tuple(pile.pop() for _ in range(min(e.look, len(pile))))
    if e.up_to:
        choose_seen(game, e, ctx, seen, e.play)
        return
    play_next_seen(game, ctx.player, e.card_kind, seen, e.play, *ctx.decided)


@step
def choose_seen(game: "Table", e, ctx: EffectContext, seen: tuple, remaining: int) -> None:
    """`look N KIND cards play up to K [{ PRICE }]`: the next card to play, or none (the rest go under the pile);
    with a price, offered only while it can be paid."""
    if remaining <= 0 or not seen or (e.price and not possible(game, e.price, ctx)):
        game.state.piles.setdefault(e.card_kind, [])[:0] = list(seen)  # the others go under the pile
        return
    options = tuple(Option(f"play {name}", name) for name in seen) + (Option("play none", ""),)
    price = f" (first: {text.effects(e.price)})" if e.price else ""
    ask(game, ctx.question("play_kept", f"Which {e.card_kind} card do you play{price}?", options),
        seen_priced, e, ctx, seen, remaining)


@step
def seen_priced(game: "Table", name: str, e, ctx: EffectContext, seen: tuple, remaining: int) -> None:
    if not name:   # none: every card seen goes under the pile
        choose_seen(game, e, ctx, seen, 0)
        return
    rest = list(seen)
    rest.remove(name)
    push(game, choose_seen, e, ctx, tuple(rest), remaining - 1)
    push(game, played_seen, ctx.player, name)
    run_effects(game, e.price, 0, ctx, None)   # the price first; the card once it is paid


@step
def played_seen(game: "Table", player: int, name: str) -> None:
    actions.play_for_free(game, player, name)


@step
def play_next_seen(game: "Table", player: int, kind: str, seen: tuple, remaining: int,
                   decider: Optional[int] = None) -> None:
    if remaining <= 0 or not seen:
        if kind == "corporation":  # discarded, as the printed Merger: out of the game
            if seen:
                game.log_event("discard_kind", player, len(seen), kind)
            return
        game.state.piles.setdefault(kind, [])[:0] = list(seen)  # the others go under the pile
        return
    asked, for_player = asking(player, decider)
    ask_for_one(game, asked, "play_kept", f"Which {kind} card do you play?", "play", seen, seen_chosen, player,
                kind, seen, remaining, *decider_argument(decider), for_player=for_player)


@step
def seen_chosen(game: "Table", name: str, player: int, kind: str, seen: tuple, remaining: int,
                decider: Optional[int] = None) -> None:
    rest = list(seen)
    rest.remove(name)
    push(game, play_next_seen, player, kind, tuple(rest), remaining - 1, *decider_argument(decider))
    actions.play_for_free(game, player, name)


@step
def reused(game: "Table", name: str, player: int) -> None:
    actions.use_card_action(game, player, name, again=True)


@handles(fx.UseProject)
def _use_project(game, e, ctx):
    """`use standard project`: the named project, else the one the player picks among those they can pay and carry
    out (asked even when there is one: the player sees what is paid); none: the else block."""
    names = usable_projects(game, ctx.player, e.name)
    if not names:
        if e.otherwise is not None:
            run_effects(game, e.otherwise, 0, ctx, None)
        return
    if e.name is not None:
        actions.start_project(game, ctx.player, e.name)
        return
    ask(game, ctx.question("option", "Which standard project do you use?",
                           tuple(Option(n, ("project", n)) for n in names)), project_chosen, ctx.player)


@step
def project_chosen(game: "Table", project: tuple, player: int) -> None:
    """`project`: ("project", NAME), as the action menu's value of that standard project (one id for both in the
    research action space)."""
    actions.start_project(game, player, project[1])


@handles(fx.PassTurn)
def _pass_turn(game, e, ctx):
    """`pass`: the player passes, as the turn's pass does (runtime/sequence/phases.py `action_chosen`); the turn's
    second action, if any, is then not asked (`turn_action` skips a player who has passed)."""
    game.state.players[ctx.player].passed = True
    game.log_event("pass", ctx.player)


@handles(fx.TakeActions)
def _take_actions(game, e, ctx):
    """`take N actions`: N actions now, one after the other, each from the action menu without pass or end turn;
    once they are taken, the card being played (if any) is again the one being played (an action may play
    another, which ends by clearing it)."""
    push(game, resume_playing, game.flow.playing)
    extra_action(game, ctx.player, e.count)


@step
def extra_action(game: "Table", player: int, left: int) -> None:
    """One of the `left` extra actions: the corporation's first action while it is not taken (as a turn's first
    action is), else the menu; when the player can do nothing at all, or has passed (a `pass` among the actions
    taken), the actions left are lost (logged): a player who passed takes no more actions this generation."""
    if left <= 0:
        return
    state = game.state.players[player]
    if state.passed:
        game.log_event("actions_lost", player, left)
        return
    if not state.first_action_done:
        first = text.effects(game.library[state.pending_first_action()].first_action)
        ask(game, Decision(player, "action", f"extra action ({left} to take)",
                           (Option(f"first action: {first}", ("first_action",)),)), extra_action_taken, player, left)
        return
    menu = extra_action_menu(player, left)
    if not any_legal_action(menu.bind(game)):
        game.log_event("actions_lost", player, left)
        return
    ask(game, menu, extra_action_taken, player, left)


@step
def extra_action_taken(game: "Table", action: tuple, player: int, left: int) -> None:
    push(game, extra_action, player, left - 1)
    actions.take_action(game, player, action)


@step
def resume_playing(game: "Table", playing) -> None:
    game.flow.playing = playing


@handles(fx.Neutral)
def _neutral(game, e, ctx):
    run_effects(game, e.body, 0, ctx.as_neutral(), None)


@handles(fx.DecidedBy)
def _decided_by(game, e, ctx):
    """`decided by DECIDER { }`: the block's questions go to the decider, its effects stay the player's. An opponent of
    the player's choice is asked for first (by whoever asks this context's questions); in solo, and when the decider
    is the player, the player decides."""
    if e.decider == "opponent of your choice":
        order = game.turn_order()
        start = order.index(ctx.player) if ctx.player in order else 0
        opponents = order[start + 1:] + order[:start]
        if len(opponents) > 1:
            players = game.state.players
            ask(game, ctx.question("player", "Which opponent decides? " + text.effects(e.body), tuple(
                Option(f"player {players[i].name}", i) for i in opponents)), decider_chosen, e, ctx)
            return
        decider_chosen(game, opponents[0] if opponents else ctx.player, e, ctx)
        return
    count = len(game.state.players)
    decider = {"first player": game.state.first_player, "player to your left": (ctx.player + 1) % count,
               "player to your right": (ctx.player - 1) % count}[e.decider]
    decider_chosen(game, decider, e, ctx)


@step
def decider_chosen(game: "Table", decider: int, e, ctx: EffectContext) -> None:
    run_effects(game, e.body, 0, ctx.decided_by(decider), None)


@handles(fx.NextCard, inline=True)
def _next_card(game, e, ctx):
    game.state.players[ctx.player].next_card_modifiers.extend(e.modifiers)


# ------------------------------------------------------------------ helpers with decisions

def ask_for_one(game: "Table", player: int, kind: str, prompt: str, verb: str, names, resume, *args,
                for_player: Optional[int] = None) -> None:
    """Ask `player` which one of `names` (options labelled "VERB NAME"), then `resume(game, name, *args)`; nothing
    when there is none to choose (the effect does nothing, as the rules say of an effect with no target).
    `for_player`: the player the choice is made for, when another decides (`decided by ... { }`)."""
    if names:
        ask(game, Decision(player, kind, prompt, tuple(Option(f"{verb} {name}", name) for name in names), for_player),
            resume, *args)


def choose_player(game: "Table", chooser: int, candidates: list[int], prompt: str, resume, *args,
                  for_player: Optional[int] = None) -> None:
    """Resume with the one candidate, or ask the chooser which (`for_player`: as `ask_for_one`'s)."""
    if len(candidates) == 1:
        resume(game, candidates[0], *args)
        return
    players = game.state.players
    ask(game, Decision(chooser, "player", prompt, tuple(Option(f"player {players[i].name}", i) for i in candidates),
                       for_player), resume, *args)


@handles(fx.GainSpaceBonus)
def _gain_space_bonus(game, e, ctx):
    """`gain 1 more space bonus`, in a placement trigger: 1 more of a kind of the printed bonus of the space of the
    tile just placed (as a tile there collects it: a card is drawn), the player's pick of several kinds; nothing for
    an ocean bonus, a bare space or a tile on top of another (the reference engine's Geological Expedition)."""
    sid = ctx.placed
    if sid is None or sid not in game.board.spaces or (game.state.covered and sid in game.state.covered):
        return
    kinds = list(dict.fromkeys(bonus for bonus, _ in game.board.spaces[sid].bonuses if bonus not in OCEAN_TILES))
    if len(kinds) == 1:
        space_bonus_chosen(game, kinds[0], ctx.player, e.amount)
        return
    if kinds:
        ask(game, Decision(ctx.asked, "option", "Which bonus of the space do you gain once more?",
                           tuple(Option(f"gain {kind}", kind) for kind in kinds), ctx.for_player),
            space_bonus_chosen, ctx.player, e.amount)


@step
def space_bonus_chosen(game: "Table", kind: str, player: int, amount: int) -> None:
    tiles.printed_bonuses(game, player, ((kind, amount),), 0)


# ------------------------------------------------------------------ verbs handled by their own modules

handles(fx.ReplaceTile)(tiles.replace)
handles(fx.SharedReveal)(zones.shared_reveal)
handles(fx.ResolveStage)(stages.resolve)
handles(fx.AdvanceStages)(stages.advance)
handles(fx.PlaceInFaction)(politics.place)
handles(fx.RemoveFromFaction)(politics.remove)
handles(fx.ReplaceNeutral)(politics.replace)
handles(fx.TakeRole)(politics.take_role)
handles(fx.ChangeGovernment)(politics.change)


# ------------------------------------------------------------------ effects that pick one of a list

def _labelled(verb: str) -> Callable[[str], Option]:
    """Options labelled "VERB NAME" (`play Kelp Farming`), as the log records them."""
    return lambda name: Option(f"{verb} {name}", name)


def _play_offered(game: "Table", e, ctx: EffectContext) -> None:
    game.state.players[ctx.player].next_card_modifiers.extend(e.modifiers)  # used up by the card played


@attrs.frozen
class Pick:
    """A verb whose player picks one of a list and a step carries the pick out, in one shape: what is offered
    (nothing offered: the effect does nothing, as the rules say of an effect with no target), the question, and
    the step resumed with the pick and `arguments(e, ctx)` (saved games name that step and hold those arguments, so
    both stay as they are). `offered`: what picking starts with, once there is something to pick."""

    decision: str                                 # the Decision's kind
    prompt: object                                # the question, or a function of the effect giving it
    choices: Callable[["Table", object, EffectContext], list]
    option: Callable[[object], Option]            # a value offered -> its Option
    chosen: Callable                              # a @step: (game, value, *arguments(e, ctx))
    arguments: Callable[[object, EffectContext], tuple] = lambda e, ctx: (ctx.player,)
    offered: Optional[Callable[["Table", object, EffectContext], None]] = None


# pieces and sites (runtime/handlers/sites.py carries them out; the rules are runtime/rules/sites.py's)

@handles(fx.GainPieces, inline=True)
def _gain_pieces(game, e, ctx):
    sites.gain_pieces(game, e, ctx)


@handles(fx.Nothing, inline=True)
def _nothing(game, e, ctx):
    return


@handles(fx.SendPiece)
def _send(game, e, ctx):
    sites.send(game, e, ctx)


@handles(fx.MoveMarkers)
def _move_markers(game, e, ctx):
    sites.move_markers(game, e, ctx)


@handles(fx.CollectBonus)
def _collect_bonus(game, e, ctx):
    sites.collect_bonus(game, e, ctx)


PICK_ONE = {
    fx.ClaimSpace: Pick("space", "Which space do you claim?", option=space_option, chosen=claimed,
                        choices=lambda game, e, ctx: claimable(game, ctx.player, e.filters),
                        arguments=lambda e, ctx: (ctx.player,) + ((not e.space_only,) if e.collect else ())),
    fx.PlaceMarker: Pick("space", "Where do you place the marker?", option=space_option, chosen=tiles.marker_placed,
                         choices=lambda game, e, ctx: marker_destinations(game, ctx.player, e),
                         arguments=lambda e, ctx: (ctx.player, e.name, e.blocks)),
    fx.PutMark: Pick("space", "Which tile gets the mark?", option=space_option, chosen=tiles.mark_put,
                     choices=lambda game, e, ctx: markable_tiles(game, ctx.player, e),
                     arguments=lambda e, ctx: (e, ctx)),
    fx.MoveMarker: Pick("space", "Where do you move the marker?", option=space_option, chosen=tiles.marker_moved,
                        choices=lambda game, e, ctx: marker_destinations(game, ctx.player, e),
                        arguments=lambda e, ctx: (ctx.player, e.name, e.collect) + ((False,) if e.space_only else ())),
    fx.MoveCard: Pick("card", "Which card do you move?", option=_labelled("move"), chosen=zones.moved,
                      choices=movable_cards,
                      arguments=lambda e, ctx: (ctx.player, e.source, e.destination) +
                      (ctx.decided if e.destination != "here" else (ctx.decider, ctx.card, e.resources))),
    fx.CopyPlay: Pick("card", "Copy the effects of which card?", option=_labelled("copy"), chosen=play_copied,
                      choices=copyable_plays, arguments=lambda e, ctx: (ctx,)),
    fx.PlayFromHand: Pick("card", lambda e: "Which card do you play from your hand?" if e.source == "hand" else
                          "Which of your played events do you play again?", option=_labelled("play"),
                          chosen=played_from_hand, offered=_play_offered,
                          choices=lambda game, e, ctx: cards_playable_from_hand(game, ctx.player, e.modifiers, e.cards,
                                                                                ctx.playing, e.source),
                          arguments=lambda e, ctx: (ctx.player,) + ((e.source, e.discard)
                                                                    if e.source != "hand" or e.discard else ())),
    fx.FundAward: Pick("award", "Which award do you fund for free?", option=_labelled("fund"), chosen=award_funded,
                       choices=lambda game, e, ctx: fundable_awards(game)),
    fx.ReuseAction: Pick("card", "Repeat the action of which card?", option=_labelled("card"), chosen=reused,
                         choices=lambda game, e, ctx: reusable_actions(game, ctx.player, ctx.card)),
    fx.SiteIntoPlay: Pick("site", "Which site do you bring into play?", option=_labelled("site"),
                          chosen=sites.site_brought, choices=lambda game, e, ctx: outside(game)),
    fx.SiteOutOfPlay: Pick("site", "Which site do you set aside?", option=_labelled("site"),
                           chosen=sites.site_removed, choices=lambda game, e, ctx: [s.name for s in emptied(game)]),
}


def _pick_one(game: "Table", e, ctx: EffectContext) -> None:
    pick = PICK_ONE[type(e)]
    values = pick.choices(game, e, ctx)
    if not values:
        return
    if pick.offered is not None:
        pick.offered(game, e, ctx)
    prompt = pick.prompt if pick.prompt.__class__ is str else pick.prompt(e)
    ask(game, ctx.question(pick.decision, prompt, tuple(map(pick.option, values))), pick.chosen,
        *pick.arguments(e, ctx))


handles(*PICK_ONE)(_pick_one)


def _check_every_verb_is_handled() -> None:
    """Each immediate verb has exactly one handler: inline, one that may ask, or run_effects' own."""
    for kind in fx.IMMEDIATE:
        found = [table for table, kinds in (("INLINE", INLINE), ("HANDLERS", HANDLERS), ("run_effects", IN_THE_LOOP))
                 if kind in kinds]
        if len(found) != 1:
            raise TypeError(f"effect verb '{kind.kind_name}' ({kind.__name__}) needs one handler in "
                            f"runtime/handlers/effects.py, and has {' and '.join(found) or 'none'}")


_check_every_verb_is_handled()

