"""The bots: players that answer pending decisions through the public API, as a human's terminal does.

`RandomBot` picks uniformly among the legal options (seeded), `GreedyBot` scores each option with a documented
heuristic, `SearchBot` searches sampled worlds of what it cannot see; all are deterministic for a seed. `BOTS`
names them for the command line (random, greedy, mcts).

May import: runtime/api/ only (`Game`, the decisions, the research `GameState`, the rules' questions of
api/queries.py), and the compiled definitions of tharsis.compiler, which are public data. A bot is a client of
the engine like any other: what it may ask, any user of docs/api.md may ask (a contract in pyproject.toml checks
this). They live inside runtime/ only to be compiled with the engine (setup.py): a greedy game spends about half
its time in the bot.
"""

from __future__ import annotations

from .driver import decision_rng, play_out
from .greedy import GreedyBot
from .random_bot import RandomBot

__all__ = ["BOTS", "GreedyBot", "RandomBot", "SearchBot", "decision_rng", "play_out"]


def _search(seed: int = 0):
    """The search bot, imported when first seated: it loads the research API (and its determinisation), which a
    game of the other bots, and every start of the command line, does without."""
    from .search import SearchBot

    return SearchBot(seed)


BOTS = {"random": RandomBot, "greedy": GreedyBot, "mcts": _search}


def __getattr__(name: str):
    if name == "SearchBot":
        from .search import SearchBot
        return SearchBot
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
