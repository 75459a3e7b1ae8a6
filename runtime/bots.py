"""Bots: players that answer pending decisions through the same API as humans (`Game.pending` / `Game.apply`).

`RandomBot` picks uniformly among the legal options (seeded). `GreedyBot` scores each option with a simple,
documented heuristic (see its docstring). Both are deterministic for a given seed.
"""

from __future__ import annotations

from .decisions import Decision, LazyDecision, Option
from .rng import Stream


def decision_rng(seed: int, game) -> Stream:
    """A generator fixed by the bot's seed and the game's progress, not by the bot's history: replaying, undoing
    or loading a game therefore gives the bots the very same choices."""
    return Stream(seed * 1_000_003 + len(game.log))


class RandomBot:
    """Uniform over the legal options. It passes only when passing is all it can do, or with probability
    `pass_chance` otherwise, so a game of random bots still terraforms Mars and ends.

    On the action menu it never lists the legal actions: it tries the possible ones in a random order and takes
    the first that is legal, which is the same uniform choice among the legal ones at a fraction of the cost."""

    name = "random"

    def __init__(self, seed: int = 0, pass_chance: float = 0.1):
        self.seed = seed
        self.pass_chance = pass_chance

    def choose(self, game, decision: Decision) -> Option:
        rng = decision_rng(self.seed, game)
        if isinstance(decision, LazyDecision):
            candidates = decision.candidates()
            always = decision.always
            passing = rng.random() < self.pass_chance  # like choosing among all the options, passing included
            if passing:
                candidates += always
            legal = decision.legal
            for last in range(len(candidates) - 1, -1, -1):  # a Fisher-Yates shuffle, stopped at the first legal
                pick = rng.below(last + 1)
                option = candidates[pick]
                if (passing and any(option is a for a in always)) or legal(option):
                    return option
                candidates[pick] = candidates[last]
            return always[0]
        options = decision.options
        if decision.kind == "action":
            doing = [o for o in options if o.value not in (("pass",), ("end",))]
            if doing and rng.random() >= self.pass_chance:
                return doing[rng.below(len(doing))]
        return options[rng.below(len(options))]


def _greedy(seed: int = 0):
    from .greedy import GreedyBot  # greedy imports decision_rng from here

    return GreedyBot(seed)


def _search(seed: int = 0):
    from .search import SearchBot  # search builds on greedy and on the research API

    return SearchBot(seed)


BOTS = {"random": RandomBot, "greedy": _greedy, "mcts": _search}


def play_out(game, bots: dict[int, object]) -> None:
    """Let bots answer every decision until the game ends."""
    while not game.over:
        decision = game.pending()
        game.apply(bots[decision.player].choose(game, decision))
