"""Which of the seven actions of the action phase (RULES.md section 4) a player may take now (a rules check).

Interface: `action_candidates` lists every action a player might take as `Option`s whose values are small tuples
(("play", card), ("project", name), ("convert", name), ("milestone", name), ("award", name),
("card_action", card), ("first_action",), ("pass",), ("end",)); `why_not` says why one is refused and `is_legal`
checks the same without words; `playable`, `card_action_options`, `standard_action_possible`, `award_cost`,
`play_context` and `paid_with` answer the questions both ask. `ActionMenu` is the action decision kept in the flow;
it checks an option only when asked about it; `any_legal_action` says whether there is one besides passing.
Why apart from runtime/handlers/actions.py: the menu and the bots ask these thousands of times a game and they change
nothing; carrying an action out is actions.py's.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING, Optional

import attrs

from tharsis.compiler import effects as fx, text
from tharsis.compiler.vocabulary import plural

from ..core.decisions import LazyDecision, Option
from ..core.state import MAX_PLAYERS
from .checks import (
    PLAYER_CONTEXTS,
    EffectContext,
    adds_to_no_card,
    card_context,
    first_impossible,
    possible,
    possible_with_a_payment,
    unconditional,
)
from .kept import kept_names
from .measures import Where, failing
from .passives import passive_cache
from .politics import policy_actions
from .prices import (
    action_effects,
    can_pay,
    can_pay_price,
    can_spend,
    card_cost,
    card_means,
    goal_price,
    leeway,
    money_power,
    project_means,
    standard_cost,
    standard_prices,
)
from .spaces import maxed
from .taxes import tax_rate, tr_steps, with_tax

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["AWARD_COSTS", "MAX_MILESTONES", "MILESTONE_COST", "ActionMenu", "action_candidates", "action_menu",
           "award_cost", "milestone_cost", "card_action_options", "any_legal_action", "extra_action_menu",
           "fixed_candidates", "is_legal", "card_using", "paid_with",
           "play_context", "playable", "refused_effect", "standard_action_possible", "usable_prices", "why_not"]


MILESTONE_COST = 8
MAX_MILESTONES = 3
AWARD_COSTS = (8, 14, 20)


# ------------------------------------------------------------------ what is legal

def playable(game: "Table", player: int, name: str) -> tuple[bool, str]:
    """Can `player` play card `name` from hand now? (True, "") or (False, the reason)."""
    card = game.library[name]
    problem = failing(game, card.requirements, Where(player, name), leeway(game, player))
    if problem is not None:
        return False, f"requires {text.comparison(problem)}"
    cost = card_cost(game, player, name)
    using = card_using(game, player, card)
    if not can_pay(game, player, cost, using):
        return False, f"costs {cost} MC"
    ctx = play_context(game, player, name)
    effects = with_tax(game, card.play, ctx)
    if not possible_with_a_payment(game, effects, ctx, cost, using):
        if effects is not card.play and possible_with_a_payment(game, card.play, ctx, cost, using):
            return False, f"its TR steps are taxed {effects[-1].amount.coefficient} MC, which you cannot also pay"
        return False, EFFECTS_REFUSED
    return True, ""


EFFECTS_REFUSED = "its effects cannot all be carried out"   # `why_not` adds what is missing (`_missing`)


EFFECTS_TOGETHER = ": each can be carried out on its own, but not all of them once the card is paid for"


def _in_full(game: "Table", player: int, name: str, reason: str) -> str:
    """`playable`'s reason, with what is missing when the effects are refused: found only when a player asks (the
    menu's checks of every card in hand need no words)."""
    if reason != EFFECTS_REFUSED:
        return reason
    return reason + _missing(game, refused_effect(game, player, name))


def refused_effect(game: "Table", player: int, name: str) -> Optional[tuple]:
    """Why card `name`'s effects are refused (`playable`'s EFFECTS_REFUSED): the first of them, in written order,
    that cannot be carried out, with what it lacks, `(effect, needed, had)` as `first_impossible` gives it; None
    when each can in some order but no order works with every way to pay the card. The terminal says it in the
    player's language; `why_not` in English."""
    ctx = play_context(game, player, name)
    return first_impossible(game, with_tax(game, game.library[name].play, ctx), ctx)


def _missing(game: "Table", stuck: Optional[tuple]) -> str:
    """What the refusal of a card's effects names: the first effect, in written order, that cannot be carried out,
    and what it lacks (`: it needs 2 plants (you have 1)`), or that only all of them together with the payment
    cannot."""
    if stuck is None:
        return EFFECTS_TOGETHER
    effect, needed, had = stuck
    written = text.effect(effect, card_text=True)
    if needed is not None:
        return f": '{written}' needs {needed} {plural(effect.resource, needed)} (you have {had})"
    why = type(effect).impossible
    return f": '{written}' cannot be carried out" + (f" ({why})" if why else "")


def _action_missing(game: "Table", player: int, name: str, only_repeatable: bool) -> str:
    """What a card's action that cannot be taken lacks, option by option (`: 'spend 5 heat' needs 5 heat (you have
    4)`), as `_missing` names it for a card: found only when a player asks why."""
    ctx = card_context(player, name)
    reasons = []
    for option in game.library[name].actions:
        if option.repeatable or not only_repeatable:
            stuck = first_impossible(game, with_tax(game, action_effects(game, player, name, option.cost +
                                                                         option.effects), ctx), ctx)
            if stuck is not None:
                reasons.append(_missing(game, stuck)[2:])
            elif not option.cost and adds_to_no_card(game, option.effects, ctx):
                reasons.extend(_no_card_holds(effect) for effect in option.effects)
    return ": " + "; ".join(dict.fromkeys(reasons)) if reasons else ""


def _no_card_holds(effect: fx.AddResources) -> str:
    """Why an option with no cost that only adds card resources is not offered (`card_action_options`): no card
    of the player's can take them (`'add 2 microbes to any card' needs a card that holds microbes`)."""
    if effect.target == "that_card":
        return f"'{text.effect(effect, card_text=True)}' needs that card to hold {plural(effect.resource, 2)}"
    which = "another " if effect.target == "another_card" else "a "
    kind = f"{effect.tag} " if effect.tag else ""
    holds = f"with {plural(effect.resource, 2)} on it" if effect.target.endswith("with_resources") else \
        f"that holds {plural(effect.resource, 2)}"
    return f"'{text.effect(effect, card_text=True)}' needs {which}{kind}card {holds}"


def play_context(game: "Table", player: int, name: str) -> EffectContext:
    return card_context(player, name if game.library[name].type != "event" else None, name)


def card_action_options(game: "Table", player: int, name: str, only_repeatable: bool = False) -> list[int]:
    """The options of a card's action that can be carried out. As a card is played with no card to take the
    resources it adds, an action with a cost is taken so too: its cost paid, what it adds goes where it can (the
    printed rules: pay the left of the arrow, get what you can of the right). Only an option with no cost that would
    add resources to no card is not offered: it would do nothing at all."""
    ctx = card_context(player, name)
    taxed = game.elements.taxed   # `with_tax` called only where a tax may be in force (a loop, not a list
    found = []                    # comprehension's frame: the menu asks this of every card with an action)
    for i, option in enumerate(game.library[name].actions):
        if option.repeatable or not only_repeatable:
            effects = option.cost + option.effects
            if game.elements.action_discounts:   # `discount 3 on action of "Guild Hall"`
                effects = action_effects(game, player, name, effects)
            if possible(game, with_tax(game, effects, ctx) if taxed else effects, ctx) and \
                    (option.cost or not adds_to_no_card(game, option.effects, ctx)):
                found.append(i)
    return found


def award_cost(game: "Table", player=None) -> int:
    """The price of the next award funded: the printed ladder, and for `player` after their `discount N on awards`."""
    cost = AWARD_COSTS[min(len(game.state.awards), len(AWARD_COSTS) - 1)]
    return cost if player is None or not game.elements.goal_discounts else goal_price(game, player, "awards", cost)


def milestone_cost(game: "Table", player: int) -> int:
    """The price of a milestone for `player`: 8 MC, less their `discount N on milestones`."""
    if not game.elements.goal_discounts:   # no card of the game lowers it: the printed price, asked of nobody
        return MILESTONE_COST
    return goal_price(game, player, "milestones", MILESTONE_COST)


def why_not(game: "Table", player: int, action: tuple) -> Optional[str]:
    """None if `action` is legal for `player` now, else the reason it is refused, in the player's words."""
    state = game.state.players[player]
    kind, name = action[0], (action[1] if len(action) > 1 else None)
    if kind in ("pass", "end"):
        return None
    if kind == "first_action":
        return None if not state.first_action_done else "the first action was already taken"
    if not state.first_action_done:
        return f"{state.pending_first_action()}'s first action must be taken first"
    if kind == "play":
        if name not in state.hand and name not in kept_names(game, player):
            return f"{name} is not in your hand"
        ok, reason = playable(game, player, name)
        return None if ok else f"{name} {_in_full(game, player, name, reason)}"
    if kind == "card_action":
        card = state.card(name)
        if card is None and name in game.elements.factions:  # a policy action
            if policy_actions(game) != name:
                return f"{name} does not rule (or not now): its actions are offered only while its policy is in force"
            if name in state.actions_used and not _repeatable(game.library[name]):
                return f"{name}'s action was already used this generation"
            return None if _policy_action_legal(game, player, action) else \
                f"{name}'s action cannot be carried out now"
        if card is None or not game.library[name].actions:
            return f"you have no card {name} with an action in play"
        if card.used and not _repeatable(game.library[name]):
            return f"{name}'s action was already used this generation"
        return None if card_action_options(game, player, name, card.used) else \
            f"{name}'s action cannot be carried out now" + _action_missing(game, player, name, card.used)
    if kind == "project":
        project = game.standard_projects.get(name)
        if project is None:
            return f"there is no standard project {name}"
        if project.alternatives:
            return _priced_why_not(game, player, project, "costs")
        cost = standard_cost(game, player, project)
        means = project_means(game, player, name)   # card resources that pay towards it (Kuiper's asteroids)
        if not can_pay(game, player, cost, means):
            return f"{name} costs {cost} MC"
        if not possible(game, project.play, EffectContext(player)):
            return f"{name} cannot be carried out now"
        tax = _tax_on(game, player, project.play)
        return None if not tax or can_pay(game, player, cost + tax, means) else \
            f"{name} costs {cost} MC and its TR steps are taxed {tax} MC"
    if kind == "convert":
        conversion = game.standard_actions.get(name)
        if conversion is None:
            return f"there is no standard action {name}"
        if conversion.alternatives:
            return _priced_why_not(game, player, conversion, "needs")
        cost = standard_cost(game, player, conversion)
        if conversion.once_per_generation and name in state.actions_used:
            return f"{name} was already used this generation"
        if conversion.cost_resource == "megacredits" and not can_pay(game, player, cost):
            return f"{name} costs {cost} MC"
        if conversion.cost_resource != "megacredits" and not can_spend(game, player, conversion.cost_resource, cost):
            return f"{name} needs {cost} {conversion.cost_resource}"
        if standard_action_possible(game, player, conversion):
            return None
        tax = _tax_on(game, player, conversion.play)
        if tax and possible(game, conversion.play, EffectContext(player)):
            return f"{name}'s TR steps are taxed {tax} MC, which you cannot also pay"
        return f"{name} cannot be done now"
    if kind == "milestone":
        taken = _taken(name, game.milestones, game.state.milestones, MAX_MILESTONES, "milestone", "claimed")
        if taken is not None:
            return taken
        problem = failing(game, game.milestones[name].requirement, Where(player))
        if problem is not None:
            return f"{name} requires {text.comparison(problem)}"
        cost = milestone_cost(game, player)
        return None if can_pay(game, player, cost) else f"claiming costs {cost} MC"
    if kind == "award":
        taken = _taken(name, game.awards, game.state.awards, len(AWARD_COSTS), "award", "funded")
        if taken is not None:
            return taken
        cost = award_cost(game, player)
        return None if can_pay(game, player, cost) else f"funding costs {cost} MC"
    return f"unknown action {kind!r}"


def _priced_why_not(game: "Table", player: int, definition, verb: str) -> Optional[str]:
    """Why a standard project or action with alternative costs is refused: no cost the player can pay, or nothing
    it could then carry out."""
    prices = standard_prices(game, player, definition)
    if not any(can_pay_price(game, player, amount, resource) for amount, resource in prices):
        said = " or ".join(f"{amount} {'MC' if resource == 'megacredits' else resource}" for amount, resource in prices)
        return f"{definition.name} {verb} {said}"
    return None if usable_prices(game, player, definition) else f"{definition.name} cannot be done now"


def usable_prices(game: "Table", player: int, definition) -> list[tuple[int, str]]:
    """The costs of a standard project or action the player can pay now and after which its effects can be carried
    out (the payment applied provisionally: 3 titanium paid leaves the rest possible or not)."""
    ctx = EffectContext(player)
    usable = []
    for amount, resource in standard_prices(game, player, definition):
        if not can_pay_price(game, player, amount, resource):
            continue
        paid = {resource: amount} if resource != "megacredits" or \
            game.state.players[player].resources["megacredits"] >= amount else None
        if possible(game, definition.play, ctx, paid):
            usable.append((amount, resource))
    return usable


def _taken(name: str, offered: dict, taken: list, limit: int, noun: str, done: str) -> Optional[str]:
    """Why a milestone (an award) cannot be claimed (funded) by anyone now: not in this game, or already taken."""
    if name not in offered:
        return f"there is no {noun} {name} in this game"
    if any(claimed == name for claimed, _ in taken):
        return f"{name} is already {done}"
    if len(taken) >= limit:
        return f"{limit} {noun}s are already {done}"
    return None


def is_legal(game: "Table", player: int, action: tuple) -> bool:
    """`why_not(player, action) is None`, without words: the same conditions, cheapest first (the menu and
    the bots ask this thousands of times a game; tests check that both always agree). The check of each
    kind is looked up in `_LEGAL` rather than found by a chain of comparisons."""
    check = _LEGAL.get(action[0])
    return check is not None and check(game, player, action)


def standard_action_possible(game: "Table", player: int, definition) -> bool:
    if definition.alternatives:
        return bool(usable_prices(game, player, definition))
    cost = passive_cache(game, player)[2].get(id(definition))   # `standard_cost`, read where it is cached
    if cost is None:
        cost = standard_cost(game, player, definition)
    state = game.state.players[player]
    resource = definition.cost_resource
    if resource == "megacredits":   # paid as money is (Helion's heat too)
        if not can_pay(game, player, cost):
            return False
    elif state.resources[resource] < cost and not can_spend(game, player, resource, cost):
        return False   # (heat the stock lacks may come from cards: `can_spend`)
    if definition.once_per_generation and definition.name in state.actions_used:
        return False
    for effect in definition.play:  # converting heat needs a temperature that can still rise
        if isinstance(effect, fx.ChangeParameter) and effect.parameter != "tr" and maxed(game, effect.parameter):
            return False
    if not possible(game, definition.play, PLAYER_CONTEXTS[player]):
        return False
    tax = _tax_on(game, player, definition.play) if game.elements.taxed else 0
    if not tax:
        return True
    if resource == "megacredits":
        return can_pay(game, player, cost + tax)
    return possible(game, (fx.Pay(fx.Amount(tax)),), EffectContext(player), paid={resource: cost})


def _tax_on(game: "Table", player: int, effects: tuple) -> int:
    """The tax on the TR steps these effects give the player now (0 without a tax in force)."""
    rate = tax_rate(game, player)
    return rate * tr_steps(game, effects, PLAYER_CONTEXTS[player]) if rate else 0


def _repeatable(definition) -> bool:
    """Whether a card has an action that may be taken again in the same generation (a loop: the menu asks it of
    every card with an action at every turn, and a generator expression is a function made at each call)."""
    for option in definition.actions:
        if option.repeatable:
            return True
    return False


def action_candidates(game: "Table", player: int) -> list[Option]:
    """Every action that might be legal now, unchecked and cheap to list; the menu checks them one at a
    time with `is_legal`."""
    state = game.state.players[player]
    made, library = _OPTIONS["play"], game.library
    candidates = [made.get(n) or _option("play", n) for n in dict.fromkeys(state.hand)]
    if game.elements.kept_cards:   # cards kept on a card in play, played as if from hand
        candidates += [made.get(n) or _option("play", n) for n in kept_names(game, player)]
    made = _OPTIONS["card_action"]
    for card in state.played:
        actions = library[card.name].actions
        if actions and (not card.used or _repeatable(library[card.name])):
            candidates.append(made.get(card.name) or _option("card_action", card.name))
    # the ruling faction's actions, offered to every player while its policy is in force (none without a government)
    ruling = policy_actions(game) if game.state.government is not None else None
    if ruling is not None and (ruling not in state.actions_used or _repeatable(library[ruling])):
        candidates.append(made.get(ruling) or _option("card_action", ruling))
    candidates += game._fixed_candidates  # last: `any_legal_action` relies on it
    return candidates


_PASS, _END_TURN = Option("pass", ("pass",)), Option("end turn", ("end",))  # options are never changed
# by the action's number: its prompt and its closing option (made once: the turn binds a menu at every action)
_PROMPTS = {1: "action 1 of 2", 2: "action 2 of 2"}
_CLOSINGS = {1: (_PASS,), 2: (_END_TURN,)}


def _prompt(number: int) -> str:
    """A turn's action (1 or 2), or an extra action of `take N actions` (number -N: N of them left to take)."""
    return _PROMPTS[number] if number > 0 else f"extra action ({-number} to take)"


@attrs.define(unsafe_hash=True)  # immutable by convention (made at every turn: a frozen class costs more)
class ActionMenu:
    """The action decision as it is kept in the flow: who, which action of the turn. `bind(game)` gives the
    lazy `Decision` (runtime/core/decisions.py) for one game: options are checked only when they are asked about."""

    player: int
    number: int
    eager_options = None  # never answered automatically: the turn step has already handled a lone option

    @property
    def prompt(self) -> str:
        return _prompt(self.number)

    def closing(self) -> Option:
        """A turn's way to stop acting (an extra action has none: `closing` is asked of a turn's menu only)."""
        return _CLOSINGS[self.number][0]

    def bind(self, game: "Table") -> LazyDecision:
        number = self.number   # `prompt` and `closing()` read here, not called
        if number < 0:   # an extra action (`take N actions`): the menu without pass or end turn
            return MenuDecision(game, self.player, _prompt(number), ())
        return MenuDecision(game, self.player, _PROMPTS[number], _CLOSINGS[number])


# the menus of every seat and action of a turn, made once: a menu is immutable by convention and the turn asks one
# at every action (making an object costs about five calls)
_MENUS = {(player, number): ActionMenu(player, number) for player in range(MAX_PLAYERS) for number in (1, 2)}


def action_menu(player: int, number: int) -> ActionMenu:
    """The action decision of `player`'s action `number` (1 or 2) of a turn, as it is kept in the flow."""
    return _MENUS[player, number]


def extra_action_menu(player: int, left: int) -> ActionMenu:
    """The action decision of an extra action (`take N actions`), `left` of them still to take: the turn's menu
    without pass or end turn (an extra action is taken, not skipped; docs/rules-coverage.md). Saved as a turn's
    menu is, its number the negative count left."""
    return ActionMenu(player, -left)


class MenuDecision(LazyDecision):
    """The action menu of one game at one moment: a `LazyDecision` whose candidates are `action_candidates` and
    whose check of an option is its kind's `is_legal` check, called directly (the bots and the turn's "anything but
    pass?" ask it thousands of times a game, so it is written out rather than given as closures)."""

    __slots__ = ("_game",)

    def __init__(self, game: "Table", player: int, prompt: str, always: tuple[Option]):
        # `LazyDecision.__init__`'s fields, set here (a menu is made at every action of the game); `always`: the
        # closing option (pass, or end the turn), alone
        self.player, self.kind, self.prompt, self.eager_options, self.for_player = player, "action", prompt, None, None
        self._candidates, self._allowed, self.always, self._parse = None, None, always, _parse_action
        self._listed, self.known = None, {}
        self._game = game

    def candidates(self) -> list[Option]:
        if self._candidates is None:
            self._candidates = tuple(action_candidates(self._game, self.player))
        return list(self._candidates)

    def legal(self, option: Option) -> bool:
        label = option.label
        known = self.known.get(label)
        if known is None:
            action = option.value
            check = _LEGAL.get(action[0])
            known = self.known[label] = check is not None and check(self._game, self.player, action)
        return known

    def any_legal(self, order=None) -> bool:
        return any_legal_action(self) if order is None else super().any_legal(order)

    def allows(self, option: Option) -> bool:
        """An action option whose label is the one its value gets (what `action_candidates` makes) is checked at
        once; anything else goes the general way (parsing the label)."""
        value = option.value
        if self._listed is None and type(value) is tuple and len(value) == 2:
            prefix = _PREFIX.get(value[0])
            if prefix is not None and type(value[1]) is str and option.label == prefix + value[1]:
                return self.legal(option)
        return super().allows(option)


# ------------------------------------------------------------------ `is_legal` of each kind of action

def _always(game: "Table", player: int, action: tuple) -> bool:
    return True


def _first_action_legal(game: "Table", player: int, action: tuple) -> bool:
    return not game.state.players[player].first_action_done


def _project_legal(game: "Table", player: int, action: tuple) -> bool:
    if not game.state.players[player].first_action_done:
        return False
    return project_usable(game, player, action[1])


def usable_projects(game: "Table", player: int, name: Optional[str] = None) -> list[str]:
    """The standard projects (the one named, when given) the player can pay and carry out now: those a card's
    `use standard project` offers, checked as the turn's menu checks them."""
    return [n for n in game.standard_projects if (name is None or n == name) and project_usable(game, player, n)]


def project_usable(game: "Table", player: int, name: str) -> bool:
    """Whether the player can pay the standard project `name` (after discounts and taxes) and carry it out."""
    table = passive_cache(game, player)[2].get("projects")   # `_projects`, read where it is cached
    known = (table if table is not None else _projects(game, player)).get(name)
    if known is None:
        return False
    project, cost, certain = known
    if project.alternatives:
        return bool(usable_prices(game, player, project))
    means = project_means(game, player, name) if game.elements.project_payments else ()   # Kuiper's asteroids
    if not can_pay(game, player, cost, means) or \
            not (certain or possible(game, project.play, PLAYER_CONTEXTS[player])):
        return False
    tax = _tax_on(game, player, project.play) if game.elements.taxed else 0
    return not tax or can_pay(game, player, cost + tax, means)


def _projects(game: "Table", player: int) -> dict:
    """Each standard project by name with the player's price of it and whether its effects can always be carried
    out (`unconditional`): the menu checks projects at every turn, and both change only with the cards in play, so
    the table is cached with the player's passives."""
    derived = passive_cache(game, player)[2]
    table = derived.get("projects")
    if table is None:
        table = derived["projects"] = {
            name: (project, standard_cost(game, player, project), unconditional(project.play))
            for name, project in game.standard_projects.items()}
    return table




def _convert_legal(game: "Table", player: int, action: tuple) -> bool:
    conversion = game.standard_actions.get(action[1])
    return conversion is not None and game.state.players[player].first_action_done and \
        standard_action_possible(game, player, conversion)


def _play_legal(game: "Table", player: int, action: tuple) -> bool:
    state, name = game.state.players[player], action[1]
    if not state.first_action_done or (name not in state.hand and name not in kept_names(game, player)):
        return False
    card = game.library[name]
    cost = card_cost(game, player, name)
    using = card_using(game, player, card)
    if not can_pay(game, player, cost, using) or \
            failing(game, card.requirements, Where(player, name), leeway(game, player)) is not None:
        return False
    ctx = play_context(game, player, name)
    return possible_with_a_payment(game, with_tax(game, card.play, ctx), ctx, cost, using)


def _card_action_legal(game: "Table", player: int, action: tuple) -> bool:
    state, name = game.state.players[player], action[1]
    if not state.first_action_done:
        return False
    card = state.card(name)
    if card is None and game.elements.factions:
        return _policy_action_legal(game, player, action)
    return card is not None and (not card.used or _repeatable(game.library[name])) and \
        bool(game.library[name].actions) and bool(card_action_options(game, player, name, card.used))


def _policy_action_legal(game: "Table", player: int, action: tuple) -> bool:
    """The ruling faction's action while its policy is in force: once a generation (its `repeatable action:` options
    again and again), when it can be carried out."""
    name = action[1]
    if policy_actions(game) != name:
        return False
    used = name in game.state.players[player].actions_used
    if used and not _repeatable(game.library[name]):
        return False
    return bool(card_action_options(game, player, name, used))


def _milestone_legal(game: "Table", player: int, action: tuple) -> bool:
    name, claimed = action[1], game.state.milestones
    if len(claimed) >= MAX_MILESTONES or name not in game.milestones or \
            not game.state.players[player].first_action_done or not can_pay(game, player, milestone_cost(game, player)):
        return False
    for taken, _ in claimed:
        if taken == name:
            return False
    return failing(game, game.milestones[name].requirement, _WHERES[player]) is None


_WHERES = tuple(Where(player) for player in range(MAX_PLAYERS))   # a player's own point of view, shared


def _award_legal(game: "Table", player: int, action: tuple) -> bool:
    name, funded = action[1], game.state.awards
    if len(funded) >= len(AWARD_COSTS) or name not in game.awards or \
            not game.state.players[player].first_action_done:
        return False
    for taken, _ in funded:
        if taken == name:
            return False
    return can_pay(game, player, award_cost(game, player))


_LEGAL = {"pass": _always, "end": _always, "first_action": _first_action_legal, "project": _project_legal,
          "convert": _convert_legal, "play": _play_legal, "card_action": _card_action_legal,
          "milestone": _milestone_legal, "award": _award_legal}


_OPTIONS: dict[str, dict[str, Option]] = {"play": {}, "card_action": {}}  # by kind, then by name


def _option(kind: str, name: str) -> Option:
    """The option to play a card or use its action. Options are never changed, so one per card and kind is made
    per process and shared by every menu (the menu lists a card in hand at every turn of the game)."""
    option = _OPTIONS[kind].get(name)
    if option is None:
        option = _OPTIONS[kind][name] = Option(_PREFIX[kind] + name, (kind, name))
    return option


_GROUPS: dict[int, tuple] = {}


def _groups(game: "Table") -> tuple:
    """(fixed candidates, projects, conversions, awards, milestones, awards refused, milestones refused): the menu's
    fixed candidates by kind, split once per game table (shared by every game of the same content and options), and
    for awards and milestones the verdict "refused" of every option of the kind at once, by label (`any_legal_action`
    settles a whole kind with one `dict.update` when the player cannot pay for any of them)."""
    fixed = game._fixed_candidates
    cached = _GROUPS.get(id(fixed))
    if cached is None or cached[0] is not fixed:
        by_kind = [[o for o in fixed if o.value[0] == kind] for kind in ("project", "convert", "award", "milestone")]
        refused = [dict.fromkeys((o.label for o in options), False) for options in by_kind[2:]]
        cached = _GROUPS[id(fixed)] = (fixed, *by_kind, *refused)
    return cached


def _project_prices(game: "Table", player: int) -> list:
    """(price, option, certain, effects) of each standard project for the player, those whose effects cannot fail
    first (`certain`: such a project with one price, legal whenever it is paid for, as `_project_legal` finds;
    `effects`: what is left to check of a project with one price once it is paid for, None for one with several).
    The prices change only with the cards in play (`_menu_tables` caches the list with the player's passives)."""
    projects = _projects(game, player)
    priced = []
    for option in _groups(game)[1]:
        project, cost, certain = projects[option.value[1]]
        single = not project.alternatives
        priced.append((cost if single else 0, option, certain and single, project.play if single else None))
    priced.sort(key=lambda priced_option: not projects[priced_option[1].value[1]][2])  # stable: board order
    return priced


def _conversion_prices(game: "Table", player: int) -> list:
    """(option, resource, cost) of each standard action with one cost (a conversion: 8 plants, 8 heat) for the
    player, cached as the projects' prices are (`_project_prices`)."""
    priced = []
    for option in _groups(game)[2]:
        conversion = game.standard_actions[option.value[1]]
        if not conversion.alternatives:
            priced.append((option, conversion.cost_resource, standard_cost(game, player, conversion)))
    return priced


def _menu_tables(game: "Table", player: int) -> tuple:
    """(fixed candidates, conversions, awards, milestones, awards refused, milestones refused, project prices,
    conversion prices): what `any_legal_action` reads at every turn, as one entry of the player's derived values.
    The groups depend on the game's content only and the prices on the player's passives only (never on the cards
    in play as such: `passive_cache` keeps the derived values when a card with no passive effect joins), so one
    look-up replaces a call for the groups and two for the prices at each menu."""
    fixed, _, conversions, awards, milestones, awards_refused, milestones_refused = _groups(game)
    priced = _project_prices(game, player)
    tables = passive_cache(game, player)[2]["menu"] = (
        fixed, conversions, awards, milestones, awards_refused, milestones_refused,
        priced, _conversion_prices(game, player), _by_money_power(priced))
    return tables


def _by_money_power(priced: list) -> tuple:
    """(prices, dearer, certain, affordable): the projects' verdicts that depend on the player's money power alone,
    for each power at once. `prices` are the projects' distinct prices in ascending order; for a power with
    `index = bisect_right(prices, power)` (the prices it reaches), `dearer[index]` refuses every project it does
    not reach (label: False), `certain[index]` takes as legal every one it reaches whose effects cannot fail (label:
    True; legal when untaxed), and `affordable[index]` lists the (price, option, certain, effects) of `priced` it
    reaches, in their order. The turn's menu then settles the projects with a search and two `dict.update`s
    instead of a comparison of each price at every turn."""
    prices = sorted({price for price, _, _, _ in priced})
    dearer, certain, affordable = [], [], []
    for reached in [-1] + prices:   # index 0: a power below every price
        dearer.append({option.label: False for price, option, _, _ in priced if price > reached})
        certain.append({option.label: True for price, option, sure, _ in priced if price <= reached and sure})
        affordable.append([entry for entry in priced if entry[0] <= reached])
    return prices, dearer, certain, affordable


def _goals_open(game: "Table", player: int, power: int, derived: dict) -> tuple[bool, bool]:
    """Whether an award is left to fund and a milestone to claim at prices the player's money power reaches (their
    `discount N on awards | milestones` taken off): the menu settles every award or milestone at once when not."""
    funded = len(game.state.awards)
    if not game.elements.goal_discounts:   # the printed prices, the same for everyone
        return funded < len(AWARD_COSTS) and power >= AWARD_COSTS[funded], \
            len(game.state.milestones) < MAX_MILESTONES and power >= MILESTONE_COST
    awards = funded < len(AWARD_COSTS) and power >= goal_price(game, player, "awards", AWARD_COSTS[funded], derived)
    milestones = len(game.state.milestones) < MAX_MILESTONES and \
        power >= goal_price(game, player, "milestones", MILESTONE_COST, derived)
    return awards, milestones


def _refuse_conversions(game: "Table", player: int, power: int, converting: list, known: dict) -> None:
    """The menu's memory learns every conversion whose resource the player lacks, as `standard_action_possible` would
    find it (heat excepted when cards may stand in for it)."""
    stock, heat_payments = game.state.players[player].resources, game.elements.heat_payments
    for option, resource, cost in converting:
        if resource == "megacredits":
            if power < cost:
                known[option.label] = False
        elif stock[resource] < cost and (resource != "heat" or not heat_payments):
            known[option.label] = False


def any_legal_action(menu: "MenuDecision") -> bool:
    """Whether the player can do anything but pass, trying the actions cheapest first: standard projects (those
    whose effects cannot fail first), conversions and awards, a few comparisons each, then cards and milestones
    (requirements, payments). Every check is the menu's own (remembered for the bot or player that chooses).

    Projects, awards and milestones are paid with money (and its substitutes) only, so the player's money power,
    worked out once here, settles whole kinds at once, as each one's own check would find them (`_project_legal`,
    `_award_legal`, `_milestone_legal`): every project dearer than it, and every award (milestone) when it is short of
    the price or none is left, is refused; a project whose effects cannot fail, with no tax on its TR, is legal once
    paid for. A conversion whose resource the player lacks is refused as `standard_action_possible` would find it
    (heat excepted when cards may stand in for it). Those verdicts go into the menu's memory (`known`) too: the
    random bot tries the candidates in a random order, and most awards, milestones and dear projects it tries are
    refused (about 600 of its checks a 2-player game); they then cost a look-up each, not a check of prices and
    requirements. The hand is listed only if nothing cheaper is legal."""
    game, player, legal, known = menu._game, menu.player, menu.legal, menu.known
    derived = passive_cache(game, player)[2]   # the player's prices and the menu's tables, read where they are cached
    power = money_power(game, player, derived)
    tables = derived.get("menu")
    fixed, conversions, awards, milestones, awards_refused, milestones_refused, priced, converting, by_power = \
        tables if tables is not None else _menu_tables(game, player)
    awards_open, milestones_open = _goals_open(game, player, power, derived)
    if awards and not awards_open:
        known.update(awards_refused)
    if milestones and not milestones_open:
        known.update(milestones_refused)
    untaxed = not game.elements.taxed and game.state.players[player].first_action_done
    project_payments = game.elements.project_payments   # card resources that pay for named projects (Kuiper's)
    if project_payments:   # a project dearer than the power may still be paid: each one looked at
        anything = False
        for price, option, certain, _ in priced:
            if price > power:
                if not project_means(game, player, option.value[1]):
                    known[option.label] = False
            elif certain and untaxed:
                known[option.label] = anything = True
        if anything:
            return True
    else:   # the verdicts of every project by the power alone (`_by_money_power`)
        prices, dearer, certain, affordable = by_power
        index = bisect_right(prices, power)
        known.update(dearer[index])
        if untaxed and certain[index]:
            known.update(certain[index])
            return True
        priced = affordable[index]   # the projects left to look at below
    _refuse_conversions(game, player, power, converting, known)
    context = PLAYER_CONTEXTS[player]
    for price, option, _, effects in priced:
        if price > power:
            if project_payments and project_means(game, player, option.value[1]) and legal(option):
                return True   # card resources may pay the rest (Kuiper Cooperative's asteroids)
            continue
        if effects is None or not untaxed:
            if legal(option):
                return True
            continue
        # paid for and untaxed, a project with one price is legal when its effects can be carried out: asked here
        # directly, not through `_project_legal`'s layers (Sell Patents, the dearest of these, twice a turn)
        verdict = known.get(option.label)
        if verdict is None:
            verdict = known[option.label] = possible(game, effects, context)
        if verdict:
            return True
    for option in conversions:
        if legal(option):
            return True
    if awards_open:
        for option in awards:
            if legal(option):
                return True
    listed = menu.candidates()
    for option in listed[:len(listed) - len(fixed)]:  # the menu lists its fixed candidates last
        if legal(option):
            return True
    if milestones_open:
        for option in milestones:
            if legal(option):
                return True
    return False


# an action option's label is its kind's prefix and the card's or project's name ("standard project City")
_PREFIX = {"play": "play ", "card_action": "action ", "convert": "convert ", "milestone": "claim ", "award": "fund ",
           "project": "standard project "}
_KINDS = {prefix.split()[0]: kind for kind, prefix in _PREFIX.items()}   # by the label's first word


def _parse_action(label: str) -> Optional[Option]:
    """The action option a label names exactly (the inverse of the labels of `action_candidates`)."""
    first, space, name = label.partition(" ")
    kind = _KINDS.get(first) if space else None
    if kind == "project":
        word, space, name = name.partition(" ")
        if word != "project" or not space:
            return None
    return None if kind is None else Option(label, (kind, name))


def fixed_candidates(projects: dict, conversions: dict, milestones: dict, awards: dict, solo: bool) -> tuple:
    """Standard projects, standard actions, milestones and awards of a game: the same in every turn."""
    candidates = [Option(_PREFIX["project"] + n, ("project", n)) for n in projects]
    candidates += [Option(_PREFIX["convert"] + n, ("convert", n)) for n in conversions]
    if not solo:
        candidates += [Option(_PREFIX["milestone"] + n, ("milestone", n)) for n in milestones]
        candidates += [Option(_PREFIX["award"] + n, ("award", n)) for n in awards]
    return tuple(candidates)


def card_using(game: "Table", player: int, card) -> tuple[str, ...]:
    """Everything besides money that may pay for `card` now: the steel and titanium of its tags (`paid_with`),
    those a `next card { use steel as megacredits }` of the player's allows whatever its tags, and the card
    resources and tagged stock that pay for it (`card_means`)."""
    using = paid_with(card)
    modifiers = game.state.players[player].next_card_modifiers
    if modifiers:   # almost never: only after an event such as Last Resort Ingenuity
        for m in modifiers:
            if isinstance(m, fx.Substitute) and m.instead_of == "megacredits" and not m.here and \
                    not m.projects and (m.tag is None or m.tag in card.tags) and m.resource not in using:
                using = using + (m.resource,)
    return using + card_means(game, player, card)


def paid_with(card) -> tuple[str, ...]:
    """What a card may be paid with besides money: steel for a building tag, titanium for a space tag."""
    tags = card.tags
    if "building" in tags:
        return ("steel", "titanium") if "space" in tags else ("steel",)
    return ("titanium",) if "space" in tags else ()
