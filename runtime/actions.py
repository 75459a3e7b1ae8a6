"""The seven actions of the action phase (RULES.md section 4): which are legal now, and carrying one out.

`action_options` lists every legal action of a player as `Option`s whose values are small tuples
(("play", card), ("project", name), ("convert", name), ("milestone", name), ("award", name),
("card_action", card), ("first_action",), ("pass",), ("end",)); `take_action` runs one as a generator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Optional

from tharsis.compiler import effects as fx
from tharsis.compiler import text

from .decisions import Decision, Option
from .effects import Context
from .measures import Where, failing
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
        using = tuple(r for r, tag in (("steel", "building"), ("titanium", "space")) if tag in card.tags)
        payments = self.payment_options(player, cost, using)
        if not payments:
            return False, f"costs {cost} MC"
        ctx = self._play_context(player, name)
        if not any(self.possible_in_some_order(card.play, ctx, paid=p) for p in payments):
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

    def standard_action_possible(self: "Game", player: int, definition) -> bool:
        cost = self.standard_cost(player, definition)
        if self.state.players[player].resources[definition.cost_resource] < cost:
            return False
        for effect in definition.play:  # converting heat needs a temperature that can still rise
            if isinstance(effect, fx.ChangeParameter) and effect.parameter != "tr" and self.maxed(effect.parameter):
                return False
        return self.possible(definition.play, Context(player))

    def action_options(self: "Game", player: int, first: bool) -> list[Option]:
        state = self.state.players[player]
        if not state.first_action_done:
            corporation = self.library[state.corporation]
            return [Option(f"first action: {text.effects(corporation.first_action)}", ("first_action",))]
        candidates = [(f"play {n}", ("play", n)) for n in dict.fromkeys(state.hand)]
        candidates += [(f"action {c.name}", ("card_action", c.name)) for c in state.played
                       if self.library[c.name].actions]
        candidates += [(f"standard project {n}", ("project", n)) for n in self.standard_projects]
        candidates += [(f"convert {n}", ("convert", n)) for n in self.standard_actions]
        if not self.options.solo:
            candidates += [(f"claim {n}", ("milestone", n)) for n in self.milestones]
            candidates += [(f"fund {n}", ("award", n)) for n in self.awards]
        options = [Option(label, value) for label, value in candidates if self.why_not(player, value) is None]
        options.append(Option("pass", ("pass",)) if first else Option("end turn", ("end",)))
        return options

    # ------------------------------------------------------------------ doing it

    def take_action(self: "Game", player: int, action: tuple) -> Iterator:
        kind = action[0]
        state = self.state.players[player]
        name = state.name
        if kind == "first_action":
            state.first_action_done = True
            corporation = state.corporation
            self.log_event(f"{name} takes {corporation}'s first action")
            yield from self.run(self.library[corporation].first_action, Context(player, card=corporation))
        elif kind == "play":
            yield from self.play_card(player, action[1])
        elif kind == "card_action":
            yield from self.use_card_action(player, action[1])
        elif kind == "project":
            project = self.standard_projects[action[1]]
            self.log_event(f"{name} uses standard project {project.name}")
            yield from self.pay(player, self.standard_cost(player, project), (), project.name)
            yield from self.run(project.play, Context(player))
            yield from self.fire("standard_project", player, project=project)
        elif kind == "convert":
            conversion = self.standard_actions[action[1]]
            self.log_event(f"{name} converts: {conversion.name}")
            state.resources[conversion.cost_resource] -= self.standard_cost(player, conversion)
            yield from self.run(conversion.play, Context(player))
        elif kind == "milestone":
            self.log_event(f"{name} claims {action[1]}")
            yield from self.pay(player, MILESTONE_COST, (), action[1])
            self.state.milestones.append((action[1], player))
        elif kind == "award":
            self.log_event(f"{name} funds {action[1]}")
            yield from self.pay(player, self.award_cost(), (), action[1])
            self.state.awards.append((action[1], player))

    def play_card(self: "Game", player: int, name: str) -> Iterator:
        card = self.library[name]
        state = self.state.players[player]
        using = tuple(r for r, tag in (("steel", "building"), ("titanium", "space")) if tag in card.tags)
        self.log_event(f"{state.name} plays {name}")
        ctx = self._play_context(player, name)
        yield from self.pay(player, self.card_cost(player, name), using, name,
                            acceptable=lambda payment: self.possible_in_some_order(card.play, ctx, paid=payment))
        state.hand.remove(name)
        state.next_card_modifiers = []  # `next card { }` modifiers are used up by this card
        if card.type != "event":
            state.played.append(CardInPlay(name))
        self._playing = (player, name)
        try:
            yield from self.run_in_chosen_order(card.play, ctx)
        finally:
            self._playing = None
        if card.type == "event":
            state.events.append(name)
        self._playing = (player, name)
        try:
            yield from self.fire("play", player, card=name)
        finally:
            self._playing = None

    def use_card_action(self: "Game", player: int, name: str) -> Iterator:
        definition = self.library[name]
        indexes = self.card_action_options(player, name)
        if len(definition.actions) > 1:
            choice = yield Decision(player, "option", f"Which action of {name}?",
                                    tuple(Option(_describe(definition.actions[i]), i) for i in indexes))
            index = choice.value
        else:
            index = indexes[0]
        option = definition.actions[index]
        self.state.players[player].card(name).used = True
        self.log_event(f"{self.state.players[player].name} uses {name}: {_describe(option)}")
        # one list, so that paying the cost leaves the effects possible (a second `pay` among them)
        yield from self.run(option.cost + option.effects, Context(player, card=name))


def _describe(option) -> str:
    if option.cost:
        return f"{text.effects(option.cost)} -> {text.effects(option.effects)}"
    return text.effects(option.effects)
