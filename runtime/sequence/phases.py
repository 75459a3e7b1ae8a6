"""The flow of a game as steps (runtime/core/flow.py): setup, research, the action phase, production, the end.

Each function here is one step: it changes the state, pushes the steps that follow and may ask a question.
`start_game` is the bottom of every game's stack; `generation` pushes one generation and then itself again.
Interface: `start_game`, and the steps a sandbox starts on its own (tharsis/designer/scenarios.py: `start_corporation`,
`research_deal`, `production`, `neutral_city`, `final_greenery_phase`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tharsis.compiler import effects as fx, text
from tharsis.compiler.vocabulary import CITY, GREENERY

from ..core import rng
from ..core.decisions import Decision, NumberOptions, Option
from ..core.flow import EndlessGame, Step, ask, push, step, then
from ..core.state import ACTION, END, FINAL_GREENERY, NEUTRAL, PRODUCTION, RESEARCH, RESOURCES
from ..handlers.actions import play_corporation, play_for_free, take_action
from ..handlers.effects import run_effects
from ..handlers.payment import offer_cards, offer_some_cards
from ..handlers.politics import set_up as set_up_government
from ..handlers.sites import return_pieces, set_up as set_up_sites
from ..handlers.tiles import put_tile
from ..handlers.triggers import fire, new_action
from ..rules.checks import EffectContext
from ..rules.legality import action_menu, any_legal_action, standard_action_possible
from ..rules.passives import passives
from ..rules.prices import card_price
from ..rules.scoring import final_scores
from ..rules.spaces import maxed, parameter_value, terraformed

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["MAX_GENERATIONS", "SOLO_GENERATIONS",
           "final_greenery_phase", "game_ends", "neutral_city", "new_generation", "production",
           "research_deal", "start_corporation", "start_game"]

STARTING_CORPORATIONS, STARTING_CARDS, RESEARCH_CARDS = 2, 10, 4
SOLO_GENERATIONS = 14
# A game that is not over after this many generations never will be: a parameter it waits for cannot reach its top
# (the bundled games end in 8 to 20 generations, random bots included; docs/language.md "Termination").
MAX_GENERATIONS = 100


# ------------------------------------------------------------------ setup (RULES.md section 2)

@step
def start_game(game: "Table") -> None:
    o, state = game.options, game.state
    state.deck = game.project_deck()
    sets = game.sets_in_play()
    corporations = sorted(d.name for d in game.library.values()
                          if d.kind == "corporation" and d.set in sets and sets.issuperset(d.needs)
                          and d.variant is None)
    beginner = [d.name for d in game.library.values() if d.kind == "corporation" and d.variant == "beginner"]
    state.rng = rng.shuffle(state.rng, corporations)
    base_production = 0 if (o.corporate_era or o.solo) else 1
    for player in state.players:
        player.starting_production = base_production
        player.production = {r: base_production for r in RESOURCES}
    fixed = dict(enumerate(o.corporations))
    named = [name for name in fixed.values() if name]
    for name in named:
        definition = game.library.get(name)
        if definition is None or definition.kind != "corporation":
            raise ValueError(f"unknown corporation {name!r}" if definition is None else
                             f"{name!r} is a {definition.kind}, not a corporation")
        if definition.variant is None and named.count(name) > 1:
            raise ValueError(f"{name!r} is given to {named.count(name)} seats; a corporation has one owner")
    corporations = [c for c in corporations if c not in fixed.values()]
    dealt_corporations = []
    for index, _ in enumerate(state.players):
        if fixed.get(index):
            dealt_corporations.append((fixed[index],))
        elif o.beginner and beginner:
            dealt_corporations.append(tuple(beginner[:1]))
        else:
            dealt_corporations.append(tuple(corporations.pop() for _ in range(STARTING_CORPORATIONS)))
    dealt_cards = tuple(tuple(game.take_from_deck(STARTING_CARDS)) for _ in state.players)
    kinds = game.elements.card_kinds
    if kinds:  # declared kinds of card: their piles, and each player's share dealt with the rest
        state.piles = {kind: game.kind_deck(kind) for kind in sorted(kinds)}
        state.kept = [[] for _ in state.players]
        for index, _ in enumerate(state.players):
            for kind in sorted(kinds):
                pile = state.piles[kind]
                for _ in range(min(kinds[kind].deal, len(pile))):
                    state.kept[index].append(pile.pop())
    if game.elements.corporation_pile:  # a card looks at corporations: those not dealt, in their shuffled order
        state.piles["corporation"] = corporations
    set_up_sites(game)  # declared sites dealt, supplies of pieces filled (nothing without them)
    set_up_government(game)  # the declared government's factions, ruling faction and role (nothing without one)
    push(game, generation)
    if o.initial_draft and len(state.players) > 1:
        draft(game, dealt_cards, 1, Step(choose_corporations, (tuple(dealt_corporations), 0, ())))
    else:
        choose_corporations(game, tuple(dealt_corporations), 0, (), dealt_cards)


@step
def choose_corporations(game: "Table", dealt: tuple, position: int, chosen: tuple, cards: tuple) -> None:
    order = game.turn_order()
    if position < len(order):
        index = order[position]
        ask(game, Decision(index, "corporation", "Choose your corporation",
                           tuple(Option(f"corporation {c}", c) for c in dealt[index])),
            corporation_chosen, dealt, position, chosen, cards)
        return
    state = game.state
    for index, name in sorted(chosen):
        for other in dealt[index]:
            if other != name:
                game.log_event("set_aside", index, other)
    steps = [Step(start_corporation, (index, name)) for index, name in chosen]
    if game.options.solo:
        steps.append(Step(neutral_city, (None, 0)))
    steps += [Step(offer_cards, (index, cards[index], None)) for index in order]
    steps += [Step(run_rule, (rule.name, "start_of_game")) for rule in game.elements.rules.get("start_of_game", ())]
    if state.kept:
        steps += [Step(keep_dealt, (index, kind)) for index in order for kind in sorted(game.elements.card_kinds)]
        steps += [Step(play_kept, (index,)) for index in order]
    steps.append(Step(set_phase, (ACTION,)))
    then(game, *steps)


# ------------------------------------------------------------------ declared kinds of card (RULES: the expansion's)

@step
def keep_dealt(game: "Table", index: int, kind: str) -> None:
    """The player keeps `keep` of the cards of `kind` dealt to them (asked one at a time); the rest are discarded.
    The dealt cards wait in `state.kept` with the kept ones, marked apart by the `kept_so_far` count."""
    declared = game.elements.card_kinds[kind]
    dealt = [n for n in game.state.kept[index] if game.library[n].type == kind]
    keep_next_dealt(game, index, kind, tuple(dealt), declared.keep, ())


@step
def keep_next_dealt(game: "Table", index: int, kind: str, offered: tuple, remaining: int, chosen: tuple) -> None:
    state = game.state
    if remaining <= 0 or not offered:
        kept = state.kept[index]
        for name in offered:  # not kept: discarded, under its own pile (never among the project cards)
            kept.remove(name)
            state.piles[kind].insert(0, name)
        if offered:
            game.log_event("discard_kind", index, len(offered), kind)
        return
    ask(game, Decision(index, "keep", f"Which {kind} card do you keep?",
                       tuple(Option(f"keep {name}", name) for name in offered)),
        dealt_kept, index, kind, offered, remaining, chosen)


@step
def dealt_kept(game: "Table", name: str, index: int, kind: str, offered: tuple, remaining: int, chosen: tuple) -> None:
    rest = list(offered)
    rest.remove(name)
    keep_next_dealt(game, index, kind, tuple(rest), remaining - 1, chosen + (name,))


@step
def play_kept(game: "Table", index: int) -> None:
    """The player plays the kept cards of declared kinds, in the order they choose, one after the other."""
    kept = game.state.kept[index]
    if not kept:
        return
    if len(kept) == 1:
        kept_chosen(game, kept[0], index)
        return
    ask(game, Decision(index, "play_kept", "Which card do you play first?",
                       tuple(Option(f"play {name}", name) for name in kept)), kept_chosen, index)


@step
def kept_chosen(game: "Table", name: str, index: int) -> None:
    game.state.kept[index].remove(name)
    push(game, play_kept, index)
    new_action(game)
    play_for_free(game, index, name)


@step
def corporation_chosen(game: "Table", name: str, dealt: tuple, position: int, chosen: tuple, cards: tuple) -> None:
    index = game.turn_order()[position]
    choose_corporations(game, dealt, position + 1, chosen + ((index, name),), cards)


@step
def start_corporation(game: "Table", index: int, name: str) -> None:
    new_action(game)
    play_corporation(game, index, name)


@step
def set_phase(game: "Table", phase: str) -> None:
    game.state.phase = phase


@step
def neutral_city(game: "Table", costs, number: int) -> None:
    """Solo setup: two neutral cities, each with a neutral greenery, placed by counting discarded card costs."""
    state = game.state
    if costs is None:
        revealed = game.take_from_deck(4)
        state.discard.extend(revealed)
        # a deck too small to reveal 4 cards (designers' sets): a missing card counts as cost 0, the first space
        costs = tuple(game.library[name].cost for name in revealed) + (0,) * (4 - len(revealed))
    if number >= 2:
        return
    mars = [s.id for s in game.board.mars]
    city_cost, greenery_cost, order = (costs[0], costs[1], mars) if number == 0 else (costs[2], costs[3], mars[::-1])
    free = [s for s in order if s not in state.tiles]
    if not free:
        return
    city = free[(max(city_cost, 1) - 1) % len(free)]
    put_tile(game, NEUTRAL, city, CITY, neutral=True)
    around = [s for s in game.board.clockwise[city] if s is not None and s not in state.tiles]
    if around:
        greenery_space = around[(max(greenery_cost, 1) - 1) % len(around)]
        put_tile(game, NEUTRAL, greenery_space, GREENERY, neutral=True)
    push(game, neutral_city, costs, number + 1)
    game.begin("neutral_city", None, city)  # what the city sets off (triggers) is its effect
    fire(game, "place", NEUTRAL, tile=CITY, space=city, is_city=True)


# ------------------------------------------------------------------ drafting cards

def draft(game: "Table", packs: tuple, direction: int, after: Step) -> None:
    """Draft `packs` (keep one, pass the rest in `direction`); then run `after` with the kept cards appended."""
    count = len(packs)
    draft_pick(game, tuple(tuple(p) for p in packs), tuple(() for _ in range(count)), 0, direction, after)


@step
def draft_pick(game: "Table", packs: tuple, kept: tuple, index: int, direction: int, after: Step) -> None:
    count = len(packs)
    while True:
        if not any(packs):
            push(game, after.function, *after.args, kept)
            return
        if index >= count:
            packs = tuple(packs[(i - direction) % count] for i in range(count))
            index = 0
            continue
        if packs[index]:
            break
        index += 1
    ask(game, Decision(index, "draft", "Draft a card (keep one, pass the rest)",
                       tuple(Option(f"draft {n}", n) for n in dict.fromkeys(packs[index]))),
        drafted, packs, kept, index, direction, after)


@step
def drafted(game: "Table", name: str, packs: tuple, kept: tuple, index: int, direction: int, after: Step) -> None:
    pack = list(packs[index])
    pack.remove(name)
    packs = packs[:index] + (tuple(pack),) + packs[index + 1:]
    kept = kept[:index] + (kept[index] + (name,),) + kept[index + 1:]
    draft_pick(game, packs, kept, index + 1, direction, after)


# ------------------------------------------------------------------ generations (RULES.md section 3)

@step
def generation(game: "Table") -> None:
    """One generation: research (from the second on), actions, production; then the next or the end."""
    steps = []
    if game.state.generation > 1:
        steps.append(Step(research, ()))
    steps += [Step(action_phase, ()), Step(production_phase, ()), Step(end_of_generation, ())]
    then(game, *steps)


@step
def research(game: "Table") -> None:
    state = game.state
    if not game.options.solo:
        state.first_player = (state.first_player + 1) % len(state.players)
    state.phase = RESEARCH
    push(game, research_deal)


@step
def research_deal(game: "Table") -> None:
    """Four cards to each player (drafted in the draft variant), each bought or discarded."""
    state = game.state
    if game.elements.research_deals:   # `research 5 cards`: a player's own count (Mars Maths)
        packs = tuple(tuple(game.take_from_deck(research_terms(game, index)[0])) for index in range(len(state.players)))
    else:
        packs = tuple(tuple(game.take_from_deck(RESEARCH_CARDS)) for _ in state.players)
    if game.options.draft and len(state.players) > 1:
        draft(game, packs, 1 if state.generation % 2 == 0 else -1, Step(research_offers, ()))
    else:
        research_offers(game, packs)


@step
def research_offers(game: "Table", packs: tuple) -> None:
    game.begin("research")  # the cards bought are its effect
    if game.elements.research_deals:   # `research buy up to 4`: a player may buy no more than that
        steps = []
        for index in game.turn_order():
            most = research_terms(game, index)[1]
            if most is not None and most < len(packs[index]):
                steps.append(Step(offer_some_cards, (index, tuple(packs[index]), card_price(game, index), most)))
            else:
                steps.append(Step(offer_cards, (index, tuple(packs[index]), card_price(game, index))))
        then(game, *steps)
        return
    then(game, *(Step(offer_cards, (index, tuple(packs[index]), card_price(game, index)))
                 for index in game.turn_order()))


def research_terms(game: "Table", player: int) -> tuple:
    """(cards dealt, most bought or None) of the player's research phase: the rules' 4 and any number, unless their
    cards say `research N cards` (several: the largest N, as the reference engine deals 5 to Mars Maths or to a
    lunar project office alike) or `research buy up to M` (several: the smallest M, as its Budget Restrictions and Mars
    Maths caps are both kept)."""
    cards, most = None, None
    for deal in passives(game, player, fx.ResearchDeal):
        if deal.cards is not None and (cards is None or deal.cards > cards):
            cards = deal.cards
        if deal.most is not None and (most is None or deal.most < most):
            most = deal.most
    return (RESEARCH_CARDS if cards is None else cards), most


@step
def action_phase(game: "Table") -> None:
    game.state.phase = ACTION
    for player in game.state.players:
        player.passed = False
    push(game, next_turn, 0)


@step
def next_turn(game: "Table", position: int) -> None:
    """Players take turns in turn order, skipping those who passed, until everyone has passed."""
    players = game.state.players
    count = len(players)
    first = game.state.first_player
    while position < count and players[(first + position) % count].passed:  # turn order, without a list
        position += 1
    if position >= count:
        for player in players:   # a loop: a generator expression is a function made at every call
            if not player.passed:
                push(game, next_turn, 0)
                return
        return
    push(game, next_turn, position + 1)
    turn_action(game, (first + position) % count, 1)


@step
def turn_action(game: "Table", index: int, number: int) -> None:
    player = game.state.players[index]
    if player.passed:   # passed by a card during the first action (`pass`): no second one
        return
    if not player.first_action_done:
        corporation = game.library[player.pending_first_action()]
        option = Option(f"first action: {text.effects(corporation.first_action)}", ("first_action",))
        ask(game, Decision(index, "action", f"action {number} of 2", (option,)), action_chosen, index, number)
        return
    menu = action_menu(index, number)
    ask(game, menu, action_chosen, index, number)
    if game.answer_single_options:
        # the menu's `any_legal()`, called directly on the view `pending` would bind, bound here for it (the view
        # of the question just asked: `pending` reads it, as its own)
        view = game._view = menu.bind(game)
        if not any_legal_action(view):
            # nothing to do but pass (or end the turn): answered at once and not logged, as any single option is
            game.flow.asking = None
            game._view = None
            action_chosen(game, menu.closing().value, index, number)


@step
def action_chosen(game: "Table", action: tuple, index: int, number: int) -> None:
    player = game.state.players[index]
    if action == ("pass",):
        player.passed = True
        game.log_event("pass", index)
        return
    if action == ("end",):
        return
    if number == 1:
        push(game, turn_action, index, 2)
    take_action(game, index, action)


@step
def production_phase(game: "Table") -> None:
    game.state.phase = PRODUCTION
    game.begin("production")  # a cause of its own: what everyone produces, and the `produce` triggers
    push(game, production)


@step
def production(game: "Table") -> None:
    """`when you produce` triggers (in turn order), then every player produces at once. A player whose card says
    `keep energy during production` is first asked, in turn order, how much of their energy becomes heat."""
    new_action(game)
    push(game, produce)
    if game.elements.energy_kept:
        for index in reversed(game.turn_order()):
            if keeps_energy(game, index):
                push(game, ask_energy_converted, index)
    for index in reversed(game.turn_order()):
        push(game, fire_production, index)


def keeps_energy(game: "Table", index: int) -> bool:
    """Whether the player converts only the energy they choose (a `keep energy during production` in play)."""
    return bool(passives(game, index, fx.KeepEnergy))


@step
def ask_energy_converted(game: "Table", index: int) -> None:
    """Supercapacitors' "converting energy to heat during production is optional for each energy resource": the
    player picks how much of their energy becomes heat, 0 to all (the reference engine's question); `produce`
    leaves the rest."""
    energy = game.state.players[index].resources["energy"]
    if energy:
        ask(game, Decision(index, "x", f"How much of your {energy} energy do you convert to heat?",
                           NumberOptions(0, energy)), energy_converted, index)


@step
def energy_converted(game: "Table", amount: int, index: int) -> None:
    stock = game.state.players[index].resources
    stock["energy"] -= amount
    stock["heat"] += amount


@step
def fire_production(game: "Table", index: int) -> None:
    fire(game, "production", index)


@step
def produce(game: "Table") -> None:
    kept = game.elements.energy_kept
    for player in game.state.players:
        stock, production = player.resources, player.production
        if not kept or not keeps_energy(game, player.index):   # else converted as the player chose
            stock["heat"] += stock["energy"]
            stock["energy"] = 0
        stock["megacredits"] += player.tr + production["megacredits"]
        for resource in RESOURCES[1:]:
            stock[resource] += production[resource]
        for card in player.played:
            card.used = False
        player.tr_raised_this_generation = 0
        if player.removed_this_generation:
            player.removed_this_generation = {}
        if player.harmed_by_this_generation:
            player.harmed_by_this_generation = []
        player.next_card_modifiers = []
        if player.actions_used:
            player.actions_used = []


def game_ends(game: "Table") -> bool:
    """Whether the game ends after this generation: when Mars is terraformed, or in solo after its fixed number
    of generations; `max_generations` (a safety stop, not a rule) ends any game sooner, solo included."""
    limit = game.options.max_generations
    if limit is not None and game.state.generation >= limit:
        return True
    if game.options.solo:
        return game.state.generation >= game.elements.solo_generations
    if terraformed(game):
        return True
    if limit is None and game.state.generation >= MAX_GENERATIONS:
        raise _endless(game)
    return False


def _endless(game: "Table") -> EndlessGame:
    """The error of a game past MAX_GENERATIONS, naming the parameters it waits for."""
    scales = game.elements.scales
    waiting = [name for name, *_ in game.elements.ending if not maxed(game, name)]
    told = ", ".join(f"{name} at {parameter_value(game, name)} (its top: {scales[name][1]})" for name in waiting)
    return EndlessGame("generations", f"the game would never end: {MAX_GENERATIONS} generations passed (a game lasts "
                                      f"8 to 20) and the parameters it waits for are not at their top: {told}",
                       tuple(waiting))


@step
def end_of_generation(game: "Table") -> None:
    state = game.state
    return_pieces(game)  # pieces that return at the end of a generation (cargo ships) leave the sites first
    if game_ends(game):
        state.phase = FINAL_GREENERY
        then(game, Step(final_greenery_phase, ()), Step(game_over, ()))
        return
    push(game, next_generation)
    for rule in reversed(game.elements.rules.get("end_of_generation", ())):
        push(game, run_rule, rule.name, "end_of_generation")


@step
def next_generation(game: "Table") -> None:
    new_generation(game)
    push(game, generation)


def new_generation(game: "Table") -> None:
    """The generation number moves on; what a player raised of TR or removed from others since the production (in
    the rules between generations: a role taken, a bonus, a rule's effects) does not count in the new one (the
    reference engine resets the count as a generation starts)."""
    state = game.state
    state.generation += 1
    for player in state.players:
        if player.tr_raised_this_generation:
            player.tr_raised_this_generation = 0
        if player.removed_this_generation:
            player.removed_this_generation = {}
        if player.harmed_by_this_generation:
            player.harmed_by_this_generation = []
        if player.tr_skipped_this_generation:
            player.tr_skipped_this_generation = 0


@step
def run_rule(game: "Table", name: str, moment: str) -> None:
    """A rule declared in text (`rule "..." { at: end of generation ... }`), decided by the first player or by each
    player in turn order."""
    rule = next(r for r in game.elements.rules[moment] if r.name == name)
    game.begin("rule", None, name)
    deciders = game.turn_order() if rule.by == "each_player" else [game.state.first_player]
    for index in reversed(deciders):
        push(game, run_effects, rule.play, 0, EffectContext(index), None)


# ------------------------------------------------------------------ the end (RULES.md section 6)

@step
def final_greenery_phase(game: "Table") -> None:
    game.flow.no_oxygen = game.options.solo  # the solo game's final greeneries do not raise oxygen
    push(game, final_greenery, 0)


@step
def final_greenery(game: "Table", position: int) -> None:
    order = game.turn_order()
    if position >= len(order):
        return
    index = order[position]
    options = tuple(Option(f"convert {n}", n) for n, a in game.greenery_conversions().items()
                    if standard_action_possible(game, index, a))
    if not options:
        push(game, final_greenery, position + 1)
        return
    ask(game, Decision(index, "final", "Convert plants into a greenery?", options + (Option("done", None),)),
        greenery_chosen, position)


@step
def greenery_chosen(game: "Table", name, position: int) -> None:
    if name is None:
        push(game, final_greenery, position + 1)
        return
    index = game.turn_order()[position]
    push(game, final_greenery, position)
    take_action(game, index, ("convert", name))


@step
def game_over(game: "Table") -> None:
    game.state.phase = END
    game.state.over = True
    game.result = final_scores(game)
