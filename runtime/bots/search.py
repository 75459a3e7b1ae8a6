"""A search bot: information-set Monte Carlo search over determinisations, built on the research API.

At every top-level action decision (the choices that shape a game) it spends `playouts` playouts on a few candidate
actions. A playout samples a determinisation of what the bot cannot see (runtime/api/research.py), applies the
candidate, lets every seat continue with the greedy policy for `horizon` top-level actions, and scores the position
from the bot's side with `evaluate`. The playouts are shared out by sequential halving (Karnin, Koren and Somekh,
2013): in each round every surviving candidate is tried on the same sampled worlds (common random numbers, so they
are compared on equal luck) and the better half goes on, until one is left. That is information-set Monte Carlo
search at the root, tuned for what matters at the root, picking the best move rather than balancing exploration;
deeper levels would need far more playouts than a game of Terraforming Mars affords per move, and truncated greedy
playouts carry most of the benefit. Candidates are compared by label, which is the same in every determinisation.
Candidate actions are the greedy bot's `width` best by its own valuation, plus passing/ending the turn, so the
search spends its playouts where they can change the choice.

`evaluate` estimates each player's final score: the points they have now, plus what their stock and income will
still become, in victory points. Three things make that estimate sound enough to search with:
- income counts once per production phase still to come (`productions_left`: `GENERATIONS` times the share of
  terraforming still to do), and a playout that went through a production phase counts one fewer to come, its
  income being in the stock already (`since`): reaching a production phase sooner is worth nothing in itself;
- a megacredit is worth what it buys at the margin, `MC_PER_VP` = 20 megacredits a point (a standard project's
  greenery costs 23); valued any higher, money kept looks better than almost anything it can buy, and a bot that
  believes that hoards to the end (an earlier version finished games with hundreds of megacredits unspent);
- heat and plants are worth what their conversions still give: heat (and energy, which turns into heat) only
  while the temperature can rise, plants a greenery each and its oxygen step while oxygen can rise.

Buying cards is where greedy loses most: it buys almost every card it is offered (77 of 85 in a typical game of
its own) and plays a third of them. This bot buys a card only if greedy's valuation of it beats its price by
`buy_margin` and fewer than `hand_limit` cards in its hand are valued as high. Every other decision (paying,
placing, drafting, ...) goes to the greedy bot, whose one-step heuristics are good enough there.

The bot decides from what its seat can see (the determinisations redeal everything else) and is deterministic for a
given seed and game position (its random numbers come from `decision_rng`), so replays, undo and `simulate --jobs`
give the same games.
"""

from __future__ import annotations

import math
from typing import Optional

from tharsis.compiler import effects as fx
from tharsis.compiler.vocabulary import GREENERY_TILES, TILE_RAISES

from ..api import END, FINAL_GREENERY, Decision, GameState, Option
from ..api.queries import card_cost, final_scores, parameter_value, standard_cost
from .driver import decision_rng
from .greedy import WEIGHT, GreedyBot, buys_nothing, card_value, progress

MC_PER_VP = 20.0        # megacredits a victory point costs at the margin (see the module docstring)
CARD_IN_HAND = 1.5      # megacredits of an unplayed card in hand
SCALE = 20.0            # a lead in victory points that maps to an evaluation of tanh(1), about 0.76
GENERATIONS = 18.0      # generations all of terraforming is taken to last after the first: tuned (its games against
                        # greedy take 13.3, but counting income longer makes it build more, which pays against greedy)
BUY_MARGIN = 4.0        # buy a card only if greedy values it this many megacredits above its price to play
HAND_LIMIT = 6          # ... and fewer than this many cards in hand are valued as high
ADJACENCY = 0.3         # points a greenery adds to a neighbouring city, on average
HEAT_LIKE = ("heat", "energy")   # energy turns into heat at production


def productions_left(game) -> float:
    """Production phases still to come: this generation's, and one per generation the rest of the terraforming
    takes at `GENERATIONS` for all of it. It reads the parameters alone, not the pace of the generations played so
    far (which would jump whenever a generation ends); a search comparing positions before and after a production
    phase takes the phases it went through off (`estimates(game, since)`)."""
    state = game.state
    if game.over or state.phase in (FINAL_GREENERY, END):
        return 0.0
    pending = 1.0  # set-up, research, action and production phases come before this generation's production
    if game.options.solo:
        return pending + max(0, game.elements.solo_generations - state.generation)
    return pending + GENERATIONS * (1.0 - progress(game))


def _steps_left(game, parameter: str) -> int:
    low, high, step = game.elements.scales[parameter][:3]
    return max(0, (high - parameter_value(game, parameter)) // step)


def _conversions(game, player: int, tr_points: float) -> list[tuple[tuple[str, ...], int, float, float, int]]:
    """The standard actions that turn a resource into points: (resources that feed it, units per conversion,
    points of one conversion while its parameter can rise, points after, conversions until it cannot)."""
    found = []
    for conversion in game.standard_actions.values():
        resource = conversion.cost_resource
        cost = max(1, standard_cost(game, player, conversion))
        for effect in conversion.play:
            if isinstance(effect, fx.ChangeParameter) and effect.parameter in game.elements.scales:
                raises, lasting = effect.parameter, 0.0
            elif isinstance(effect, fx.PlaceTile) and effect.tile in TILE_RAISES:
                raises = TILE_RAISES[effect.tile]   # a greenery's point and its neighbouring cities' stay
                lasting = (1.0 + ADJACENCY) if effect.tile in GREENERY_TILES else 0.0
            else:
                continue
            feeds = HEAT_LIKE if resource == "heat" else (resource,)
            found.append((feeds, cost, lasting + tr_points, lasting, _steps_left(game, raises)))
            break
    return found


def estimates(game, since: Optional[int] = None) -> list[float]:
    """Each player's expected final score: their points now, their money (stock, income at every production to
    come, cards in hand) at `MC_PER_VP`, and what their conversions will still give (see the module docstring).
    At the end of the game, the final scores."""
    scores = final_scores(game)["players"]
    if game.over:
        return [float(row["total"]) for row in scores]
    left = productions_left(game)
    if since is not None:  # seen from generation `since`: the productions since then are in the stock already
        left = max(0.0, left - (game.state.generation - since))
    tr_points = 1.0 + left / MC_PER_VP  # a step of TR: a point, and a megacredit at every production to come
    result = []
    for index, (player, row) in enumerate(zip(game.state.players, scores)):
        stock, production = player.resources, player.production
        money = CARD_IN_HAND * len(player.hand) + left * player.tr
        converted = set()
        points = 0.0
        for feeds, cost, while_rising, after, steps in _conversions(game, index, tr_points):
            units = sum(stock.get(r, 0) + left * production.get(r, 0) for r in feeds)
            converted.update(feeds)
            rising = min(units, cost * steps)
            points += (rising * while_rising + (units - rising) * after) / cost
        for resource, weight in WEIGHT.items():
            if resource not in converted:
                money += weight * (stock[resource] + left * production[resource])
        result.append(row["total"] + money / MC_PER_VP + points)
    return result


def evaluate(game, index: int, since: Optional[int] = None) -> float:
    """The position from `index`'s side, about -1..1: the estimated lead over the best opponent, squashed. At the
    end of the game, the real result (a win counts more than any lead). `since`: the generation a search started
    in, to compare positions it reached before and after a production phase on the same footing."""
    if game.over:
        return GameState(game).returns()[index]
    scores = estimates(game, since)
    others = [e for i, e in enumerate(scores) if i != index]
    lead = scores[index] - max(others) if others else scores[index] - 63  # solo: against the TR-63 target, roughly
    return math.tanh(lead / SCALE)


class SearchBot:
    """`mcts`: determinised search at the root with greedy playouts, and its own rule for buying cards (see the
    module docstring)."""

    name = "mcts"

    def __init__(self, seed: int = 0, playouts: int = 16, horizon: int = 8, width: int = 6,
                 buy_margin: float = BUY_MARGIN, hand_limit: int = HAND_LIMIT):
        self.seed = seed
        self.playouts = playouts
        self.horizon = horizon      # top-level action decisions a playout runs before it is scored
        self.width = width
        self.buy_margin, self.hand_limit = buy_margin, hand_limit
        self.greedy = GreedyBot(seed)

    def choose(self, game, decision: Decision) -> Option:
        if decision.kind == "buy":
            return self._buy(game, decision)
        if decision.kind != "action":
            return self.greedy.choose(game, decision)
        candidates = self._candidates(game, decision)
        if len(candidates) == 1:
            return candidates[0]
        rng = decision_rng(self.seed, game)
        root, generation = GameState(game), game.state.generation
        alive = list(range(len(candidates)))
        totals = [0.0] * len(candidates)
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        spent = 0
        for round_number in range(rounds):
            # Sequential halving: each surviving candidate gets an equal share of this round's playouts, all of
            # them on the same sampled worlds (common random numbers), and the better half goes on.
            share = max(1, (self.playouts - spent) // (len(alive) * (rounds - round_number)))
            # fresh worlds each round (a playout is deterministic: the same world would tell the same again),
            # each sampled once and cloned for every candidate tried on it
            worlds = [root.determinize(decision.player, rng.getrandbits(63)).game for _ in range(share)]
            for index in alive:
                for world in worlds:
                    world = world.clone()
                    world.apply(candidates[index].label)
                    self._playout(world)
                    totals[index] += evaluate(world, decision.player, generation)
            spent += share * len(alive)
            if len(alive) == 1:
                break
            alive.sort(key=lambda i: -totals[i])   # the totals of survivors cover the same worlds
            alive = alive[:max(1, (len(alive) + 1) // 2)]
        return candidates[alive[0]]

    def _buy(self, game, decision: Decision) -> Option:
        """Buy a card only if it is worth `buy_margin` more than its price to play, and the hand does not already
        hold `hand_limit` cards worth as much (cards that would wait too long for money to play them)."""
        buy, decline = decision.options[0], decision.options[-1]
        if buy.value is not True:
            return self.greedy.choose(game, decision)
        player = decision.player
        name = buy.label[len("buy "):]

        def net(card: str) -> float:
            return card_value(game, card, player) - card_cost(game, player, card)

        worth = net(name)
        if worth < self.buy_margin:
            return decline
        as_good = sum(1 for card in game.state.players[player].hand if net(card) >= worth)
        return buy if as_good < self.hand_limit else decline

    def _candidates(self, game, decision: Decision) -> list[Option]:
        """The greedy bot's `width` favourites, and the way to stop acting (pass / end the turn) if it is legal. A
        standard project that would do nothing now (the ocean project after the last ocean) is never one."""
        options = decision.options
        stopping = [o for o in options if o.value in (("pass",), ("end",))]
        doing = [o for o in options if o not in stopping and not buys_nothing(game, o.value)]
        ranked = sorted(doing, key=lambda o: -self.greedy.action_value(game, decision.player, o.value))
        chosen = ranked[:self.width] + stopping[:1]
        return chosen or list(options[:1])

    def _playout(self, world) -> None:
        actions = 0
        while not world.over and actions < self.horizon:
            decision = world.pending()
            if decision.kind == "action":
                actions += 1
            world.apply(self.greedy.choose(world, decision))
