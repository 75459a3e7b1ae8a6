"""A search bot: information-set Monte Carlo search over determinisations, built on the research API.

At every top-level action decision (the choices that shape a game) it spends `playouts` playouts on a few candidate
actions. A playout samples a determinisation of what the bot cannot see (runtime/research.py), applies the
candidate, lets every seat continue with the greedy policy for `horizon` top-level actions, and scores the position
from the bot's side with `evaluate`. The playouts are shared out by sequential halving (Karnin, Koren and Somekh,
2013): in each round every surviving candidate is tried on the same sampled worlds (common random numbers, so they
are compared on equal luck) and the better half goes on, until one is left. That is information-set Monte Carlo
search at the root, tuned for what matters at the root, picking the best move rather than balancing exploration;
deeper levels would need far more playouts than a game of Terraforming Mars affords per move, and truncated greedy
playouts carry most of the benefit. Candidates are compared by label, which is the same in every determinisation.

Every other decision (paying, placing, buying, ...) goes to the greedy bot, whose one-step heuristics are good
enough there. The bot is deterministic for a given seed and game position (its random numbers come from
`decision_rng`), so replays, undo and `simulate --jobs` give the same games.

Candidate actions are the greedy bot's `width` best by its own valuation, plus passing/ending the turn, so the
search spends its playouts where they can change the choice.
"""

from __future__ import annotations

import math

from .bots import decision_rng
from .decisions import Decision, Option
from .greedy import WEIGHT, GreedyBot, generations_left
from .research import GameState
from .scoring import final_scores

MC_PER_VP = 8.0        # what a victory point costs late in a game, in megacredit-equivalents
CARD_IN_HAND = 1.5     # megacredit-equivalents of an unplayed card
SCALE = 20.0           # victory points that map to an evaluation of about 1


def _estimates(game) -> list[float]:
    """Each player's expected final score: points now, plus what their income and stock will buy before the end."""
    scores = final_scores(game)
    left = 0.0 if game.over else generations_left(game)
    result = []
    for player, row in zip(game.state.players, scores["players"]):
        income = player.tr + sum(WEIGHT[r] * n for r, n in player.production.items())
        stock = sum(WEIGHT[r] * n for r, n in player.resources.items()) + CARD_IN_HAND * len(player.hand)
        result.append(row["total"] + (left * income + (0 if game.over else stock)) / MC_PER_VP)
    return result


def evaluate(game, index: int) -> float:
    """The position from `index`'s side, about -1..1: the lead over the best opponent, squashed. At the end of
    the game, the real result (a win counts more than any lead)."""
    if game.over:
        returns = GameState(game).returns()
        return returns[index]
    estimates = _estimates(game)
    mine = estimates[index]
    others = [e for i, e in enumerate(estimates) if i != index]
    lead = mine - max(others) if others else mine - 63  # solo: against the TR-63 / terraforming target, roughly
    return math.tanh(lead / SCALE)


class SearchBot:
    """`mcts`: determinised search at the root with greedy playouts (see the module docstring)."""

    name = "mcts"

    def __init__(self, seed: int = 0, playouts: int = 16, horizon: int = 8, width: int = 6):
        self.seed = seed
        self.playouts = playouts
        self.horizon = horizon      # top-level action decisions a playout runs before it is scored
        self.width = width
        self.greedy = GreedyBot(seed)

    def choose(self, game, decision: Decision) -> Option:
        if decision.kind != "action":
            return self.greedy.choose(game, decision)
        candidates = self._candidates(game, decision)
        if len(candidates) == 1:
            return candidates[0]
        rng = decision_rng(self.seed, game)
        root = GameState(game)
        alive = list(range(len(candidates)))
        totals = [0.0] * len(candidates)
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        spent = 0
        for round_number in range(rounds):
            # Sequential halving: each surviving candidate gets an equal share of this round's playouts, all of
            # them on the same sampled worlds (common random numbers), and the better half goes on.
            share = max(1, (self.playouts - spent) // (len(alive) * (rounds - round_number)))
            seeds = [rng.getrandbits(63) for _ in range(share)]
            for index in alive:
                for seed in seeds:
                    world = root.determinize(decision.player, seed).game
                    world.apply(candidates[index].label)
                    self._playout(world)
                    totals[index] += evaluate(world, decision.player)
            spent += share * len(alive)
            if len(alive) == 1:
                break
            alive.sort(key=lambda i: -totals[i])   # the totals of survivors cover the same worlds
            alive = alive[:max(1, (len(alive) + 1) // 2)]
        return candidates[alive[0]]

    def _candidates(self, game, decision: Decision) -> list[Option]:
        """The greedy bot's `width` favourites, and the way to stop acting (pass / end the turn) if it is legal."""
        options = decision.options
        stopping = [o for o in options if o.value in (("pass",), ("end",))]
        doing = [o for o in options if o not in stopping]
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
