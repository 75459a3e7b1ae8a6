"""The random bot: uniform over the legal options, seeded."""

from __future__ import annotations

from ..api import Decision, LazyDecision, Option
from .driver import decision_rng


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
            legal, known = decision.legal, decision.known   # a verdict found already is read, not asked again
            for last in range(len(candidates) - 1, -1, -1):  # a Fisher-Yates shuffle, stopped at the first legal
                pick = rng.below(last + 1)
                option = candidates[pick]
                if passing and any(option is a for a in always):
                    return option
                verdict = known.get(option.label)
                if verdict or (verdict is None and legal(option)):
                    return option
                candidates[pick] = candidates[last]
            return always[0]
        options = decision.eager_options   # `options` of a decision that lists them, without the property's call
        if decision.kind == "action":
            doing = [o for o in options if o.value not in (("pass",), ("end",))]
            if doing and rng.random() >= self.pass_chance:
                return doing[rng.below(len(doing))]
        return options[rng.below(len(options))]
