"""Carrying out the seven actions of the action phase (RULES.md section 4) as steps of the flow (an effect handler).

Interface: `take_action(game, player, action)` starts an action (an option value of runtime/rules/legality.py's
`action_candidates`, already checked there) as steps of the flow; `play_card` and `use_card_action` are its two
longest cases. Why apart from legality.py: which actions are legal is asked far more often than one is taken, and
never changes the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tharsis.compiler import text

from ..core.decisions import Decision, Option
from ..core.flow import Step, ask, push, step, then
from ..core.state import CardInPlay
from ..rules.checks import (
    PLAYER_CONTEXTS,
    EffectContext,
    card_context,
    own_play_steps,
    possible_in_some_order,
    possible_with_a_payment,
)
from ..rules.legality import (
    award_cost,
    card_action_options,
    card_using,
    milestone_cost,
    play_context,
    usable_prices,
)
from ..rules.measures import failing
from ..rules.prices import action_effects, can_pay, card_cost, leeway, project_means, standard_cost
from ..rules.taxes import with_tax
from . import (
    effects,  # as a module: effects imports this one (an effect may play a card)
    zones,
)
from .payment import pay, spend
from .triggers import fire, new_action, new_tags

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["play_card", "take_action", "use_card_action"]


def take_action(game: "Table", player: int, action: tuple) -> None:
    kind = action[0]
    new_action(game)
    state = game.state.players[player]
    if kind == "first_action":
        corporation = state.take_first_action()
        game.begin("first_action", player, corporation)
        effects.run_effects(game, game.library[corporation].first_action, 0, EffectContext(player, card=corporation),
                            None)
    elif kind == "play":
        play_card(game, player, action[1])
    elif kind == "card_action":
        use_card_action(game, player, action[1])
    elif kind == "project":
        start_project(game, player, action[1])
    elif kind == "convert":
        conversion = game.standard_actions[action[1]]
        game.begin("convert", player, conversion.name)
        if conversion.once_per_generation:
            state.actions_used.append(conversion.name)
        if conversion.alternatives:
            choose_price(game, player, action)
            return
        cost = standard_cost(game, player, conversion)
        if conversion.cost_resource == "megacredits" and cost:  # paid as money is (Helion's heat too)
            push(game, conversion_paid, player, conversion.name)
            pay(game, player, cost, (), conversion.name)
            return
        spend(game, player, conversion.cost_resource, cost)
        effects.run_effects(game, conversion.play, 0, PLAYER_CONTEXTS[player], None)
    elif kind == "milestone":
        game.begin("milestone", player, action[1])
        push(game, claimed_milestone, player, action[1])
        pay(game, player, milestone_cost(game, player), (), action[1])
    elif kind == "award":
        game.begin("award", player, action[1])
        push(game, funded_award, player, action[1])
        pay(game, player, award_cost(game, player), (), action[1])


def start_project(game: "Table", player: int, name: str) -> None:
    """Pay for and carry out a standard project: the turn's action, and a card's `use standard project`."""
    project = game.standard_projects[name]
    game.begin("project", player, name)
    if project.alternatives:
        choose_price(game, player, ("project", name))
        return
    push(game, project_paid, player, name)
    pay(game, player, standard_cost(game, player, project), project_means(game, player, name), name)


def choose_price(game: "Table", player: int, action: tuple) -> None:
    """A standard project or action with alternative costs (`cost: 9 megacredits | 3 energy | 3 titanium`): the
    player picks one they can pay (asked when there are several), then pays it."""
    kind, name = action
    definition = game.standard_projects[name] if kind == "project" else game.standard_actions[name]
    prices = usable_prices(game, player, definition)
    if len(prices) == 1:
        price_chosen(game, prices[0], player, action)
        return
    ask(game, Decision(player, "pay", f"How do you pay for {name}?",
                       tuple(Option(f"{amount} {'MC' if resource == 'megacredits' else resource}", {resource: amount})
                             for amount, resource in prices)), price_chosen, player, action)


@step
def price_chosen(game: "Table", price, player: int, action: tuple) -> None:
    """`price`: the cost chosen, as a payment is written ({resource: amount}) or as (amount, resource)."""
    (resource, amount), = price.items() if isinstance(price, dict) else ((price[1], price[0]),)
    kind, name = action
    after = (project_paid, player, name) if kind == "project" else (conversion_paid, player, name)
    if resource != "megacredits":
        spend(game, player, resource, amount)
        after[0](game, *after[1:])
        return
    push(game, *after)
    pay(game, player, amount, project_means(game, player, name) if kind == "project" else (), name)


@step
def conversion_paid(game: "Table", player: int, name: str) -> None:
    effects.run_effects(game, game.standard_actions[name].play, 0, PLAYER_CONTEXTS[player], None)


@step
def project_paid(game: "Table", player: int, name: str) -> None:
    project = game.standard_projects[name]
    push(game, fire_standard_project, player, name)
    effects.run_effects(game, project.play, 0, PLAYER_CONTEXTS[player], None)


@step
def fire_standard_project(game: "Table", player: int, name: str) -> None:
    fire(game, "standard_project", player, project=game.standard_projects[name])


@step
def claimed_milestone(game: "Table", player: int, name: str) -> None:
    game.state.milestones.append((name, player))


@step
def funded_award(game: "Table", player: int, name: str) -> None:
    game.state.awards.append((name, player))


def play_card(game: "Table", player: int, name: str, source: str = "hand") -> None:
    """Pay for and play a card: from the hand (or kept on a card, played as if from hand), or, `source` "events",
    one of the player's played events again (`play event ... from events`)."""
    card = game.library[name]
    using = card_using(game, player, card)
    game.begin("play", player, name)
    push(game, card_paid, player, name, *((source,) if source != "hand" else ()))
    ctx = play_context(game, player, name)
    pay(game, player, card_cost(game, player, name), using, name,
        acceptable=(with_tax(game, card.play, ctx), ctx, True))


@step
def card_paid(game: "Table", player: int, name: str, source: str = "hand") -> None:
    state = game.state.players[player]
    if source == "events":   # played again: it leaves the events pile, which it joins again once played
        state.events.remove(name)
    else:
        try:
            state.hand.remove(name)
        except ValueError:   # not in hand: kept on a card in play (`cards here may be played as if from hand`)
            zones.take_kept(game, player, name)
    state.next_card_modifiers = []  # `next card { }` modifiers are used up by this card
    enter_play(game, player, name, play_context(game, player, name))


def enter_play(game: "Table", player: int, name: str, ctx: EffectContext) -> None:
    """The card paid for (or free) goes into the player's play area (an event into none: `card_played` puts it
    among the events), the `when you gain a new tag` triggers fire, and its effects run with the player's own
    triggers, in the order the player chooses (seed 000). One sequence for every way a card is played."""
    card = game.library[name]
    fresh = new_tags(game, player, name) if "new_tag" in game._trigger_events else 0
    if card.type != "event":
        game.state.players[player].played.append(CardInPlay(name))
    if fresh:
        fire(game, "new_tag", player, times=fresh)
    game.flow.playing = (player, name)
    push(game, card_played, player, name, True)
    effects.run_in_chosen_order(game, card.play, ctx, own_play_steps(game, player, name))


@step
def play_for_free(game: "Table", player: int, name: str) -> None:
    """Play a card of a declared kind for free; when it cannot be played, it goes under its kind's pile (or, for a
    kind with `unplayable to: discard`, out of the game) and its owner carries out the kind's `unplayable` effects
    instead."""
    state = game.state
    card = game.library[name]
    if card.kind == "corporation":  # a corporation has no requirement: it starts (a second one, or more)
        play_corporation(game, player, name)
        return
    ctx = play_context(game, player, name)
    if failing(game, card.requirements, ctx.where, leeway(game, player)) is None and \
            possible_in_some_order(game, card.play, ctx):
        game.begin("play", player, name)
        enter_play(game, player, name, ctx)
        return
    game.begin("unplayable", player, name)
    kind = game.elements.card_kinds.get(card.type)
    if kind is None or kind.unplayable_to == "pile":   # under its own pile, never among the project cards
        state.piles.setdefault(card.type, []).insert(0, name)
    effects.run_effects(game, kind.unplayable if kind is not None else (), 0, EffectContext(player), None)


def play_revealed(game: "Table", player: int, name: str, free: bool, ignoring: bool) -> None:
    """`play it` in a case of `reveal N cards one by one { }`: the card, now in the player's hand, played from it,
    paid for as from hand (`free`: for nothing) and meeting its requirements (`ignoring`: none of them checked). A
    card that cannot be played so stays in the hand: the reference engine plays it whatever its effects, and an
    effect that cannot be carried out is never begun here."""
    card = game.library[name]
    ctx = play_context(game, player, name)
    if not ignoring and failing(game, card.requirements, ctx.where, leeway(game, player)) is not None:
        return
    if not free:
        cost, using = card_cost(game, player, name), card_using(game, player, card)
        taxed = with_tax(game, card.play, ctx)
        if can_pay(game, player, cost, using) and possible_with_a_payment(game, taxed, ctx, cost, using):
            play_card(game, player, name)
        return
    if not possible_in_some_order(game, card.play, ctx):
        return
    game.begin("play", player, name)
    game.state.players[player].hand.remove(name)
    enter_play(game, player, name, ctx)


def play_corporation(game: "Table", index: int, name: str) -> None:
    """A corporation comes into the player's play area: the one chosen at set-up, or another played by a card (as
    the reference engine's `playAdditionalCorporationCard`): its starting megacredits are gained, its start effects
    run, its `when you play` triggers fire for it, and its first action (if any) waits for the player's next action."""
    player = game.state.players[index]
    corporation = game.library[name]
    # before its starting megacredits, which are its effect; a later one is told as played ("ann plays Teractor")
    game.begin("play" if player.corporations else "start", index, name)
    player.resources["megacredits"] += corporation.starting_megacredits
    position = len(player.corporations)  # in play after the corporations before it, before the project cards
    player.add_corporation(name, bool(corporation.first_action))
    fresh = new_tags(game, index, name)
    player.played.insert(position, CardInPlay(name))
    game.flow.playing = (index, name)
    then(game, Step(effects.run_effects, (corporation.play, 0, EffectContext(index, card=name), None)),
         Step(fire_while_playing, ("play", index, name)), Step(set_playing, (None,)))
    if fresh:
        fire(game, "new_tag", index, times=fresh)


@step(name="phases.fire_while_playing")  # saves made before it moved here hold this name
def fire_while_playing(game: "Table", event: str, index: int, name: str) -> None:
    fire(game, event, index, card=name)


@step(name="phases.set_playing")
def set_playing(game: "Table", playing) -> None:
    game.flow.playing = playing


@step
def card_played(game: "Table", player: int, name: str, own_done: bool = False) -> None:
    """After a card's effects: an event joins the event pile (its player's, or the one its own effects sent it to);
    then the `play` triggers (its own silent) of the
    other players (`own_done`: the player's own resolved among the card's effects)."""
    if game.library[name].type == "event":
        pile = game.flow.event_pile   # `move this card to that player's events`: theirs
        if pile is not None and pile[0] == name:
            game.flow.event_pile = None
            player_pile = pile[1]
        else:
            player_pile = player
        game.state.players[player_pile].events.append(name)
    game.flow.playing = (player, name)
    push(game, stop_playing)
    fire(game, "play", player, card=name, except_owner=player if own_done else None)


@step
def stop_playing(game: "Table") -> None:
    game.flow.playing = None


def use_card_action(game: "Table", player: int, name: str, again: bool = False) -> None:
    """Take a card's action; a card used this generation offers only its repeatable options, unless it is used
    `again` (`repeat used action of another card`: any of its options)."""
    definition = game.library[name]
    card = game.state.players[player].card(name)
    used = card.used if card is not None else name in game.state.players[player].actions_used
    indexes = card_action_options(game, player, name, used and not again)
    if len(definition.actions) > 1:
        ask(game, Decision(player, "option", f"Which action of {name}?",
                           tuple(Option(describe_action(definition.actions[i]), i) for i in indexes)),
            card_action_chosen, player, name)
        return
    card_action_chosen(game, indexes[0], player, name)


@step
def card_action_chosen(game: "Table", index: int, player: int, name: str) -> None:
    option = game.library[name].actions[index]
    if not option.repeatable:
        card = game.state.players[player].card(name)
        if card is not None:
            card.used = True
        else:  # a policy action of the ruling faction: once a generation
            game.state.players[player].actions_used.append(name)
    game.begin("action", player, name, index)
    ctx = card_context(player, name)
    # one list, so that paying the cost leaves the effects possible (a second `pay` among them)
    effects.run_effects(game, action_effects(game, player, name, option.cost + option.effects), 0, ctx, None)


def describe_action(option) -> str:
    """A card's action as its effects ("Spend 1 energy -> ..."): the option's label, and how narration tells it."""
    if option.cost:
        return f"{text.effects(option.cost)} -> {text.effects(option.effects)}"
    return text.effects(option.effects)
