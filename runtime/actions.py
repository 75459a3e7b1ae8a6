"""The seven actions of the action phase (RULES.md section 4): which are legal now, and carrying one out.

`action_candidates` lists every action a player might take as `Option`s whose values are small tuples
(("play", card), ("project", name), ("convert", name), ("milestone", name), ("award", name),
("card_action", card), ("first_action",), ("pass",), ("end",)); `why_not` says why one is refused and `is_legal`
checks the same without words; `take_action` starts one as steps of the flow.
`ActionMenu` is the action decision kept in the flow; it checks an option only when asked about it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import attrs

from tharsis.compiler import effects as fx
from tharsis.compiler import text

from .decisions import Decision, LazyDecision, Option
from .effects import Context, run_effects, run_in_chosen_order, unconditional
from .flow import ask, push, step
from .measures import Where, failing
from .narration import conjugate
from .state import CardInPlay

if TYPE_CHECKING:
    from .game import Game

MILESTONE_COST = 8
MAX_MILESTONES = 3
AWARD_COSTS = (8, 14, 20)


class ActionsMixin:
    # ------------------------------------------------------------------ what is legal

    def playable(self: "Game", player: int, name: str) -> tuple[bool, str]:
        """Can `player` play card `name` from hand now? (True, "") or (False, the reason)."""
        card = self.library[name]
        problem = failing(self, card.requirements, Where(player, name), self.leeway(player))
        if problem is not None:
            return False, f"requires {text.comparison(problem)}"
        cost = self.card_cost(player, name)
        using = paid_with(card)
        if not self.can_pay(player, cost, using):
            return False, f"costs {cost} MC"
        ctx = self._play_context(player, name)
        if not self.possible_with_a_payment(card.play, ctx, cost, using):
            return False, "its effects cannot all be carried out"
        return True, ""

    def _play_context(self: "Game", player: int, name: str) -> Context:
        return Context(player, card=name if self.library[name].type != "event" else None, playing=name)

    def card_action_options(self: "Game", player: int, name: str) -> list[int]:
        definition = self.library[name]
        ctx = Context(player, card=name)
        return [i for i, option in enumerate(definition.actions) if self.possible(option.cost + option.effects, ctx)]

    def award_cost(self: "Game") -> int:
        return AWARD_COSTS[min(len(self.state.awards), len(AWARD_COSTS) - 1)]

    def why_not(self: "Game", player: int, action: tuple) -> Optional[str]:
        """None if `action` is legal for `player` now, else the reason it is refused, in the player's words."""
        state = self.state.players[player]
        kind, name = action[0], (action[1] if len(action) > 1 else None)
        if kind in ("pass", "end"):
            return None
        if kind == "first_action":
            return None if not state.first_action_done else "the first action was already taken"
        if not state.first_action_done:
            return f"{state.corporation}'s first action must be taken first"
        if kind == "play":
            if name not in state.hand:
                return f"{name} is not in your hand"
            ok, reason = self.playable(player, name)
            return None if ok else f"{name} {reason}"
        if kind == "card_action":
            card = state.card(name)
            if card is None or not self.library[name].actions:
                return f"you have no card {name} with an action in play"
            if card.used:
                return f"{name}'s action was already used this generation"
            return None if self.card_action_options(player, name) else f"{name}'s action cannot be carried out now"
        if kind == "project":
            project = self.standard_projects.get(name)
            if project is None:
                return f"there is no standard project {name}"
            cost = self.standard_cost(player, project)
            if not self.can_pay(player, cost):
                return f"{name} costs {cost} MC"
            return None if self.possible(project.play, Context(player)) else f"{name} cannot be carried out now"
        if kind == "convert":
            conversion = self.standard_actions.get(name)
            if conversion is None:
                return f"there is no standard action {name}"
            cost = self.standard_cost(player, conversion)
            if state.resources[conversion.cost_resource] < cost:
                return f"{name} needs {cost} {conversion.cost_resource}"
            return None if self.standard_action_possible(player, conversion) else f"{name} cannot be done now"
        if kind == "milestone":
            if name not in self.milestones:
                return f"there is no milestone {name} in this game"
            if name in {m for m, _ in self.state.milestones}:
                return f"{name} is already claimed"
            if len(self.state.milestones) >= MAX_MILESTONES:
                return f"{MAX_MILESTONES} milestones are already claimed"
            problem = failing(self, self.milestones[name].requirement, Where(player))
            if problem is not None:
                return f"{name} requires {text.comparison(problem)}"
            return None if self.can_pay(player, MILESTONE_COST) else f"claiming costs {MILESTONE_COST} MC"
        if kind == "award":
            if name not in self.awards:
                return f"there is no award {name} in this game"
            if name in {a for a, _ in self.state.awards}:
                return f"{name} is already funded"
            if len(self.state.awards) >= len(AWARD_COSTS):
                return f"{len(AWARD_COSTS)} awards are already funded"
            cost = self.award_cost()
            return None if self.can_pay(player, cost) else f"funding costs {cost} MC"
        return f"unknown action {kind!r}"

    def is_legal(self: "Game", player: int, action: tuple) -> bool:
        """`why_not(player, action) is None`, without words: the same conditions, cheapest first (the menu and
        the bots ask this thousands of times a game; tests check that both always agree). The check of each
        kind is looked up in `_LEGAL` rather than found by a chain of comparisons."""
        check = _LEGAL.get(action[0])
        return check is not None and check(self, player, action)

    def standard_action_possible(self: "Game", player: int, definition) -> bool:
        cost = self.standard_cost(player, definition)
        if self.state.players[player].resources[definition.cost_resource] < cost:
            return False
        for effect in definition.play:  # converting heat needs a temperature that can still rise
            if isinstance(effect, fx.ChangeParameter) and effect.parameter != "tr" and self.maxed(effect.parameter):
                return False
        return self.possible(definition.play, Context(player))

    def action_candidates(self: "Game", player: int) -> list[Option]:
        """Every action that might be legal now, unchecked and cheap to list; the menu checks them one at a
        time with `is_legal`."""
        state = self.state.players[player]
        candidates = [_option("play", n) for n in dict.fromkeys(state.hand)]
        library = self.library
        candidates += [_option("card_action", c.name) for c in state.played if not c.used and library[c.name].actions]
        candidates += self._fixed_candidates  # last: `cheapest_first` relies on it
        return candidates


@attrs.define(unsafe_hash=True)  # immutable by convention (made at every turn: a frozen class costs more)
class ActionMenu:
    """The action decision as it is kept in the flow: who, which action of the turn. `bind(game)` gives the
    lazy `Decision` (runtime/decisions.py) for one game: options are checked only when they are asked about."""

    player: int
    number: int
    eager_options = None  # never answered automatically: the turn step has already handled a lone option

    @property
    def prompt(self) -> str:
        return f"action {self.number} of 2"

    def closing(self) -> Option:
        return Option("pass", ("pass",)) if self.number == 1 else Option("end turn", ("end",))

    def bind(self, game: "Game") -> LazyDecision:
        player = self.player

        def allowed(option: Option) -> bool:
            action = option.value
            check = _LEGAL.get(action[0])  # `game.is_legal`, one call layer less on the menu's hottest path
            return check is not None and check(game, player, action)

        return LazyDecision(player, "action", self.prompt, lambda: game.action_candidates(player), allowed,
                            (self.closing(),), parse=_parse_action)


# ------------------------------------------------------------------ `is_legal` of each kind of action


def _always(game: "Game", player: int, action: tuple) -> bool:
    return True


def _first_action_legal(game: "Game", player: int, action: tuple) -> bool:
    return not game.state.players[player].first_action_done


def _project_legal(game: "Game", player: int, action: tuple) -> bool:
    project = game.standard_projects.get(action[1])
    return project is not None and game.state.players[player].first_action_done and \
        game.can_pay(player, game.standard_cost(player, project)) and game.possible(project.play, Context(player))


def _convert_legal(game: "Game", player: int, action: tuple) -> bool:
    conversion = game.standard_actions.get(action[1])
    return conversion is not None and game.state.players[player].first_action_done and \
        game.standard_action_possible(player, conversion)


def _play_legal(game: "Game", player: int, action: tuple) -> bool:
    state, name = game.state.players[player], action[1]
    if not state.first_action_done or name not in state.hand:
        return False
    card = game.library[name]
    cost = game.card_cost(player, name)
    using = paid_with(card)
    if not game.can_pay(player, cost, using) or \
            failing(game, card.requirements, Where(player, name), game.leeway(player)) is not None:
        return False
    ctx = game._play_context(player, name)
    return game.possible_with_a_payment(card.play, ctx, cost, using)


def _card_action_legal(game: "Game", player: int, action: tuple) -> bool:
    state, name = game.state.players[player], action[1]
    if not state.first_action_done:
        return False
    card = state.card(name)
    return card is not None and not card.used and bool(game.library[name].actions) and \
        bool(game.card_action_options(player, name))


def _milestone_legal(game: "Game", player: int, action: tuple) -> bool:
    name, claimed = action[1], game.state.milestones
    if len(claimed) >= MAX_MILESTONES or name not in game.milestones or \
            not game.state.players[player].first_action_done or not game.can_pay(player, MILESTONE_COST):
        return False
    for taken, _ in claimed:
        if taken == name:
            return False
    return failing(game, game.milestones[name].requirement, Where(player)) is None


def _award_legal(game: "Game", player: int, action: tuple) -> bool:
    name, funded = action[1], game.state.awards
    if len(funded) >= len(AWARD_COSTS) or name not in game.awards or \
            not game.state.players[player].first_action_done:
        return False
    for taken, _ in funded:
        if taken == name:
            return False
    return game.can_pay(player, game.award_cost())


_LEGAL = {"pass": _always, "end": _always, "first_action": _first_action_legal, "project": _project_legal,
          "convert": _convert_legal, "play": _play_legal, "card_action": _card_action_legal,
          "milestone": _milestone_legal, "award": _award_legal}


_OPTIONS: dict[tuple[str, str], Option] = {}


def _option(kind: str, name: str) -> Option:
    """The option to play a card or use its action. Options are frozen, so one per card and kind is made per
    process and shared by every menu (the menu lists a card in hand at every turn of the game)."""
    option = _OPTIONS.get((kind, name))
    if option is None:
        option = _OPTIONS[kind, name] = Option(f"{'play' if kind == 'play' else 'action'} {name}", (kind, name))
    return option


_ORDERS: dict[int, tuple] = {}


def cheapest_first(game: "Game", player: int):
    """The order in which `any_legal` looks for a legal action: standard projects (those whose effects cannot fail
    first), conversions and awards, a few comparisons each, then cards and milestones (requirements, payments).
    Projects, awards and milestones the player cannot pay for with money (and its substitutes), the only way to
    pay them, are left out: each would be checked and refused. It yields lazily, so a turn with an affordable
    project never lists the cards. The menu lists its fixed candidates after the cards (`action_candidates`)."""
    fixed = game._fixed_candidates
    cached = _ORDERS.get(id(fixed))
    if cached is None or cached[0] is not fixed:
        groups = {kind: [o for o in fixed if o.value[0] == kind] for kind in ("project", "convert", "award",
                                                                              "milestone")}
        cached = _ORDERS[id(fixed)] = (fixed, groups["project"], groups["convert"], groups["award"],
                                       groups["milestone"])
    _, projects, conversions, awards, milestones = cached
    count = len(fixed)

    def order(candidates):
        power = game.money_power(player)
        derived = game._passive_cache(player)[2]  # the projects' prices change only with the cards in play
        priced = derived.get("project prices")
        if priced is None:
            standard = game.standard_projects
            priced = [(game.standard_cost(player, standard[o.value[1]]), o) for o in projects]
            priced = derived["project prices"] = [p for p in priced if unconditional(standard[p[1].value[1]].play)] \
                + [p for p in priced if not unconditional(standard[p[1].value[1]].play)]
        for price, option in priced:
            if price <= power:
                yield option
        yield from conversions
        if awards and power >= game.award_cost() and len(game.state.awards) < len(AWARD_COSTS):
            yield from awards
        listed = candidates()
        yield from listed[:len(listed) - count]
        if milestones and power >= MILESTONE_COST and len(game.state.milestones) < MAX_MILESTONES:
            yield from milestones

    return order


_PREFIXES = (("play ", "play"), ("action ", "card_action"), ("standard project ", "project"),
             ("convert ", "convert"), ("claim ", "milestone"), ("fund ", "award"))


def _parse_action(label: str) -> Optional[Option]:
    """The action option a label names exactly (the inverse of the labels of `action_candidates`)."""
    for prefix, kind in _PREFIXES:
        if label.startswith(prefix):
            return Option(label, (kind, label[len(prefix):]))
    return None


def fixed_candidates(projects: dict, conversions: dict, milestones: dict, awards: dict, solo: bool) -> tuple:
    """Standard projects, standard actions, milestones and awards of a game: the same in every turn."""
    candidates = [Option(f"standard project {n}", ("project", n)) for n in projects]
    candidates += [Option(f"convert {n}", ("convert", n)) for n in conversions]
    if not solo:
        candidates += [Option(f"claim {n}", ("milestone", n)) for n in milestones]
        candidates += [Option(f"fund {n}", ("award", n)) for n in awards]
    return tuple(candidates)


def paid_with(card) -> tuple[str, ...]:
    """What a card may be paid with besides money: steel for a building tag, titanium for a space tag."""
    tags = card.tags
    if "building" in tags:
        return ("steel", "titanium") if "space" in tags else ("steel",)
    return ("titanium",) if "space" in tags else ()


def take_action(game: "Game", player: int, action: tuple) -> None:
    kind = action[0]
    state = game.state.players[player]
    name = state.name
    if kind == "first_action":
        state.first_action_done = True
        corporation = state.corporation
        game.log_event(f"{name} {conjugate(name, 'take')} {corporation}'s first action")
        run_effects(game, game.library[corporation].first_action, 0, Context(player, card=corporation), None)
    elif kind == "play":
        play_card(game, player, action[1])
    elif kind == "card_action":
        use_card_action(game, player, action[1])
    elif kind == "project":
        project = game.standard_projects[action[1]]
        game.log_event(f"{name} {conjugate(name, 'use')} standard project {project.name}")
        push(game, project_paid, player, project.name)
        game.pay(player, game.standard_cost(player, project), (), project.name)
    elif kind == "convert":
        conversion = game.standard_actions[action[1]]
        game.log_event(f"{name} {conjugate(name, 'convert')}: {conversion.name}")
        state.resources[conversion.cost_resource] -= game.standard_cost(player, conversion)
        run_effects(game, conversion.play, 0, Context(player), None)
    elif kind == "milestone":
        game.log_event(f"{name} {conjugate(name, 'claim')} {action[1]}")
        push(game, claimed_milestone, player, action[1])
        game.pay(player, MILESTONE_COST, (), action[1])
    elif kind == "award":
        game.log_event(f"{name} {conjugate(name, 'fund')} {action[1]}")
        push(game, funded_award, player, action[1])
        game.pay(player, game.award_cost(), (), action[1])


@step
def project_paid(game: "Game", player: int, name: str) -> None:
    project = game.standard_projects[name]
    push(game, fire_standard_project, player, name)
    run_effects(game, project.play, 0, Context(player), None)


@step
def fire_standard_project(game: "Game", player: int, name: str) -> None:
    game.fire("standard_project", player, project=game.standard_projects[name])


@step
def claimed_milestone(game: "Game", player: int, name: str) -> None:
    game.state.milestones.append((name, player))


@step
def funded_award(game: "Game", player: int, name: str) -> None:
    game.state.awards.append((name, player))


def play_card(game: "Game", player: int, name: str) -> None:
    card = game.library[name]
    using = paid_with(card)
    who = game.state.players[player].name
    game.log_event(f"{who} {conjugate(who, 'play')} {name}")
    push(game, card_paid, player, name)
    game.pay(player, game.card_cost(player, name), using, name,
             acceptable=(card.play, game._play_context(player, name), True))


@step
def card_paid(game: "Game", player: int, name: str) -> None:
    card = game.library[name]
    state = game.state.players[player]
    state.hand.remove(name)
    state.next_card_modifiers = []  # `next card { }` modifiers are used up by this card
    if card.type != "event":
        state.played.append(CardInPlay(name))
    game.flow.playing = (player, name)
    push(game, card_played, player, name)
    run_in_chosen_order(game, card.play, game._play_context(player, name))


@step
def card_played(game: "Game", player: int, name: str) -> None:
    """After a card's effects: an event joins the event pile; then the `play` triggers (its own silent)."""
    if game.library[name].type == "event":
        game.state.players[player].events.append(name)
    game.flow.playing = (player, name)
    push(game, stop_playing)
    game.fire("play", player, card=name)


@step
def stop_playing(game: "Game") -> None:
    game.flow.playing = None


def use_card_action(game: "Game", player: int, name: str) -> None:
    definition = game.library[name]
    indexes = game.card_action_options(player, name)
    if len(definition.actions) > 1:
        ask(game, Decision(player, "option", f"Which action of {name}?",
                           tuple(Option(_describe(definition.actions[i]), i) for i in indexes)),
            card_action_chosen, player, name)
        return
    card_action_chosen(game, indexes[0], player, name)


@step
def card_action_chosen(game: "Game", index: int, player: int, name: str) -> None:
    option = game.library[name].actions[index]
    game.state.players[player].card(name).used = True
    who = game.state.players[player].name
    game.log_event(f"{who} {conjugate(who, 'use')} {name}: {_describe(option)}")
    ctx = Context(player, card=name)
    # one list, so that paying the cost leaves the effects possible (a second `pay` among them)
    run_effects(game, option.cost + option.effects, 0, ctx, None)


def _describe(option) -> str:
    if option.cost:
        return f"{text.effects(option.cost)} -> {text.effects(option.effects)}"
    return text.effects(option.effects)
