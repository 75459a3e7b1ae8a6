"""A search bot: information-set Monte Carlo search over determinisations, built on the research API.

At every top-level action decision (the choices that shape a game) it runs `playouts` iterations. Each iteration
samples a determinisation of what the bot cannot see (runtime/research.py), picks one of the candidate actions by
UCB1 over the statistics gathered so far (the tree is keyed by option labels, which are the same in every
determinisation), applies it, lets every seat continue with the greedy policy for a short horizon, and scores the
position from the bot's side with `evaluate`. It then plays the action it tried most. This is the root level of
single-observer ISMCTS; deeper levels would need far more playouts than a game of Terraforming Mars affords per
move, and truncated greedy playouts carry most of the benefit.

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
EXPLORATION = 0.7      # UCB1's constant, on evaluations scaled to about [-1, 1]
SCALE = 20.0           # victory points that map to an evaluation of about 1


def estimate(game, index: int) -> float:
    """A player's expected final score: points now, plus what their income and stock will buy before the end."""
    return _estimates(game)[index]


def _estimates(game) -> list[float]:
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
    """`mcts`: determinised UCB1 search at the root with greedy playouts (see the module docstring)."""

    name = "mcts"

    def __init__(self, seed: int = 0, playouts: int = 32, horizon: int = 12, width: int = 6):
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
        visits = [0] * len(candidates)
        totals = [0.0] * len(candidates)
        for iteration in range(self.playouts):
            if iteration < len(candidates):
                pick = iteration
            else:
                log_n = math.log(iteration)
                pick = max(range(len(candidates)), key=lambda i: totals[i] / visits[i]
                           + EXPLORATION * math.sqrt(log_n / visits[i]))
            world = root.determinize(decision.player, rng.getrandbits(63)).game
            world.apply(candidates[pick].label)
            self._playout(world)
            visits[pick] += 1
            totals[pick] += evaluate(world, decision.player)
        best = max(range(len(candidates)), key=lambda i: (visits[i], totals[i] / max(visits[i], 1)))
        return candidates[best]

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
