"""The greedy bot: a one-step heuristic player, simple enough to read in a minute.

It values everything in megacredit-equivalents and takes the best option:
- an action is worth its estimated value minus its price; claiming a milestone always wins, funding an award only
  when the bot leads that award; converting plants or heat is always worth it; it passes when nothing is worth
  more than keeping the money;
- a card's value: 5 per VP, 5 + the generations left per TR step (temperature, oxygen, ocean, greenery, TR: a
  point plus its income), production weighted by resource and by the generations left, 3 per card drawn, 6 per
  lasting effect or action;
- it buys a card when its value exceeds the price by a margin it can afford; it keeps the best cards;
- it pays with steel, titanium and heat before money; it places tiles where the printed bonus plus adjacent
  oceans pay most (greeneries next to its cities, cities next to its greeneries); it targets the leading opponent.
"""

from __future__ import annotations

from tharsis.compiler import effects as fx
from tharsis.compiler.vocabulary import CITY_TILES, GREENERY_TILES, OCEAN_TILES, TILE_RAISES

from ..api import Decision, Option
from ..api.queries import Where, card_cost, maxed, quantity, standard_cost, tax_rate
from .driver import decision_rng

WEIGHT = {"megacredits": 1.0, "steel": 2.0, "titanium": 3.0, "plant": 2.0, "energy": 1.5, "heat": 1.0}
VP = 5.0
CARD = 3.0
LASTING = 6.0
PIECE = 4.0    # a piece placed in a faction: a step towards leading it (influence, a VP, the role and its TR)


def progress(game) -> float:
    """How far terraforming is, 0 to 1: the mean fraction of each parameter that ends the game, on its declared
    scale (the printed three, and every declared one that `ends game: yes`, or `solo` in a solo game)."""
    state, ending = game.state, game.elements.ending
    if len(ending) == 3:  # the printed three alone, fields of the state: read without a loop (asked thousands of times)
        (_, t_low, t_span, _), (_, o_low, o_span, _), (_, n_low, n_span, _) = ending
        return ((state.temperature - t_low) / t_span + (state.oxygen - o_low) / o_span +
                (state.oceans - n_low) / n_span) / 3
    total = 0.0
    for name, low, span, printed in ending:
        fraction = ((getattr(state, name) if printed else state.parameters[name]) - low) / span
        total += 0.0 if fraction < 0.0 else 1.0 if fraction > 1.0 else fraction
    return total / len(ending)


def generations_left(game) -> float:
    """A solo game lasts the generations its expansions declare; any other, about 10 generations of terraforming."""
    if game.options.solo:
        return max(1.0, game.elements.solo_generations - game.state.generation)
    return max(1.0, 10 * (1 - progress(game)))


def terraform_value(game) -> float:
    """A TR step: a victory point now, plus a megacredit of income for every generation left."""
    return VP + generations_left(game)


def effects_value(game, effects, player: int, card=None) -> float:
    total = 0.0
    left = generations_left(game)
    taxed = tax_rate(game, player)  # what a TR step costs under the taxes in force (the ruling party's)
    for e in effects:
        if isinstance(e, (fx.Gain,)):
            total += WEIGHT[e.resource] * _amount(game, e.amount, player, card)
        elif isinstance(e, (fx.Lose, fx.Spend)):
            total -= WEIGHT[e.resource] * _amount(game, e.amount, player, card)
        elif isinstance(e, fx.Pay):
            total -= _amount(game, e.amount, player, card)
        elif isinstance(e, fx.Production):
            for change in e.changes:
                weight = WEIGHT.get(change.resource, 1.5)
                total += weight * _amount(game, change.amount, player, card) * left
        elif isinstance(e, fx.AnyProduction):
            total += 2.0
        elif isinstance(e, fx.ChangeParameter):
            steps = _amount(game, e.amount, player, card)
            if e.parameter == "tr" or not maxed(game, e.parameter):
                total += (terraform_value(game) - (taxed if steps > 0 else 0)) * steps
        elif isinstance(e, fx.PlaceTile):
            tr = terraform_value(game) - taxed
            if e.tile in OCEAN_TILES:
                per_tile = 0 if maxed(game, TILE_RAISES[e.tile]) else tr + 2
            else:
                per_tile = tr + VP if e.tile in GREENERY_TILES else 10.0 if e.tile in CITY_TILES else 4.0
            total += per_tile * e.count
        elif isinstance(e, (fx.Draw,)):
            total += CARD * _amount(game, e.amount, player, card)
        elif isinstance(e, (fx.LookKeep,)):
            total += CARD * e.keep
        elif isinstance(e, fx.AddResources):
            total += 2.0 * _amount(game, e.amount, player, card)
        elif isinstance(e, (fx.RemoveResources, fx.Steal)):
            total += 1.0
        elif isinstance(e, fx.Choice):
            total += max((effects_value(game, o, player, card) for o in e.options), default=0.0)
        elif isinstance(e, (fx.Conditional,)):
            total += effects_value(game, e.then, player, card)
        elif isinstance(e, (fx.ChooseX, fx.May)):
            total += 3.0
        elif isinstance(e, fx.PlaceInFaction) and not e.neutral:
            total += PIECE * e.count
        elif isinstance(e, (fx.ReplaceNeutral, fx.RemoveFromFaction)):
            total += PIECE / 2
        elif isinstance(e, fx.TakeRole):
            total += VP + terraform_value(game) - taxed
    return total


def _amount(game, amount: fx.Amount, player: int, card) -> float:
    value = float(amount.coefficient)
    if amount.variable:
        value *= 2
    if amount.per is not None:
        value *= quantity(game, amount.per, Where(player, card)) // amount.divisor
    return value


def card_value(game, name: str, player: int) -> float:
    card = game.library[name]
    value = effects_value(game, card.play, player, name)
    if card.vp is not None:
        value += VP * (card.vp.points if card.vp.per is None and card.vp.condition is None else 1.5)
    value += LASTING * (len(card.passives) + (1 if card.actions else 0))
    return value


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int = 0):
        self.seed = seed

    def choose(self, game, decision: Decision) -> Option:
        handler = getattr(self, "_" + decision.kind, None)
        if handler is None:
            return decision.options[0]
        return handler(game, decision)

    # ------------------------------------------------------------------ actions

    def _action(self, game, decision: Decision) -> Option:
        best, best_value = None, 0.5
        for option in decision.options:
            value = self.action_value(game, decision.player, option.value)
            if value > best_value:
                best, best_value = option, value
        if best is None:
            best = self._terraform_anyway(game, decision)
        if best is None:
            return next(o for o in decision.options if o.value in (("pass",), ("end",), ("first_action",)))
        return best

    def _terraform_anyway(self, game, decision: Decision):
        """With nothing better to do, spend spare money on the standard project that terraforms most per MC
        (so games between greedy bots always end)."""
        best, best_ratio = None, 0.0
        for option in decision.options:
            if option.value[0] != "project":
                continue
            project = game.standard_projects[option.value[1]]
            cost = max(1, standard_cost(game, decision.player, project))
            ratio = effects_value(game, project.play, decision.player) / cost
            if ratio > best_ratio:
                best, best_ratio = option, ratio
        return best

    def action_value(self, game, player: int, action: tuple) -> float:
        kind = action[0]
        if kind == "first_action":
            return 1000.0
        if kind in ("pass", "end"):
            return 0.0
        if kind == "milestone":
            return 100.0
        if kind == "convert":
            conversion = game.standard_actions[action[1]]
            if conversion.cost_resource != "megacredits":  # plants to greenery, heat to temperature: always
                return 60.0
            return effects_value(game, conversion.play, player) + 1.0 - standard_cost(game, player, conversion)
        if kind == "award":
            return 40.0 if self._leads(game, player, action[1]) else -1.0
        if kind == "play":
            return card_value(game, action[1], player) - card_cost(game, player, action[1])
        if kind == "card_action":
            definition = game.library[action[1]]
            return max(effects_value(game, o.effects, player, action[1]) + effects_value(game, o.cost, player, action[1])
                       for o in definition.actions) + 1.0
        if kind == "project":
            project = game.standard_projects[action[1]]
            if not any(isinstance(e, (fx.PlaceTile, fx.ChangeParameter, fx.Production)) for e in project.play):
                return -1.0  # Sell Patents and the like: only worth it when broke, never chosen greedily
            value = effects_value(game, project.play, player)
            return value - standard_cost(game, player, project) + 2.0
        return 0.0

    def _leads(self, game, player: int, name: str) -> bool:
        measure = game.awards[name].measure
        mine = quantity(game, measure, Where(player))
        return all(mine > quantity(game, measure, Where(i)) for i in range(len(game.state.players)) if i != player)

    # ------------------------------------------------------------------ other decisions

    def _pay(self, game, decision: Decision) -> Option:
        return min(decision.options, key=lambda o: o.value.get("megacredits", 0))

    def _buy(self, game, decision: Decision) -> Option:
        buy = decision.options[0]
        name = buy.label[len("buy "):]
        stock = game.state.players[decision.player].resources["megacredits"]
        if card_value(game, name, decision.player) - game.library[name].cost > -8 and stock >= 10:
            return buy
        return decision.options[-1]

    def _best_card(self, game, decision: Decision) -> Option:
        return max(decision.options, key=lambda o: card_value(game, o.value, decision.player)
                   if o.value in game.library else 0)

    _keep = _best_card
    _draft = _best_card

    def _corporation(self, game, decision: Decision) -> Option:
        def value(option):
            corporation = game.library[option.value]
            return corporation.starting_megacredits + effects_value(game, corporation.play, decision.player) \
                + LASTING * len(corporation.passives)
        return max(decision.options, key=value)

    def _discard(self, game, decision: Decision) -> Option:
        return min(decision.options, key=lambda o: card_value(game, o.value, decision.player))

    def _space(self, game, decision: Decision) -> Option:
        board, tiles, player = game.board, game.state.tiles, decision.player
        tie_break = decision_rng(self.seed, game)

        def value(option):
            sid = option.value
            space = board.spaces[sid]
            score = sum(WEIGHT.get(b, CARD) * n for b, n in space.bonuses)
            for n in board.neighbours.get(sid, ()):
                tile = tiles.get(n)
                if tile is None:
                    continue
                if tile.kind in OCEAN_TILES:
                    score += 2
                if tile.owner == player and tile.is_city:
                    score += 3
                if tile.owner == player and tile.kind in GREENERY_TILES:
                    score += 2
            return score + tie_break.random() * 0.01
        return max(decision.options, key=value)

    def _faction(self, game, decision: Decision) -> Option:
        """Where to place (or replace): a faction the bot leads or would lead with one more piece, else the dominant
        one; what to remove: an opponent's piece from the dominant faction, else the first offered."""
        government, player = game.state.government, decision.player

        def place_value(option):
            if not isinstance(option.value, str):
                return 0
            faction = government.faction(option.value)
            mine = faction.pieces.count(player) + 1
            most = max((faction.pieces.count(o) for o in set(faction.pieces) if o != player), default=0)
            return (2 if mine > most or faction.leader == player else 0) + (1 if faction.name == government.dominant
                                                                             else 0)

        def remove_value(option):
            name, owner = option.value
            return (owner != player) * 2 + (name == government.dominant)

        if isinstance(decision.options[0].value, tuple):
            return max(decision.options, key=remove_value)
        return max(decision.options, key=place_value)

    def _player(self, game, decision: Decision) -> Option:
        players = game.state.players
        targets = [o for o in decision.options if isinstance(o.value, int) and o.value != decision.player]
        if not targets:
            return decision.options[0]
        return max(targets, key=lambda o: players[o.value].tr)

    def _x(self, game, decision: Decision) -> Option:
        return decision.options[-1]  # the largest X (the options are ascending; there may be millions)

    def _option(self, game, decision: Decision) -> Option:
        for option in decision.options:
            if option.value is True:
                return option
        return decision.options[0]

    def _order(self, game, decision: Decision) -> Option:
        return decision.options[0]  # the order the card is written in

    _trigger_order = _order

    def _final(self, game, decision: Decision) -> Option:
        return decision.options[0]

    def _card(self, game, decision: Decision) -> Option:
        own = [o for o in decision.options if not (isinstance(o.value, tuple) and o.value[0] == decision.player)]
        return (own or list(decision.options))[0]
