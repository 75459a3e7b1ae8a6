"""The public API: what players, bots, tools and research code use of the engine (docs/api.md).

`Game` (game.py) builds a game from options and content and runs it as decisions: `pending`, `apply`, `clone`, save
and load (saves.py writes and reads the exact state and flow); the player limits and the names of the phases are
the core's (core/state.py, whose `GameData` is the state a `Game` holds), re-exported here; research.py's
`GameState` is the view for search and learning (legal actions, information states, determinisation by hidden.py,
a fixed action space in action_space.py, the observation vector of encoding.py kept up to date in place by
observation_writer.py, every legal move described by numbers in option_features.py from what card_facts.py reads
of the compiled cards); narration.py turns the event log into sentences; queries.py re-exports the
questions of the rules a player may ask (what a card costs, whether a parameter is maxed, the scores now).

May import: every layer below (sequence, handlers, rules, core), the compiler's definitions, and nothing of
tharsis's tools. The bots above it (runtime/bots/) import this layer only.
"""

from __future__ import annotations

from ..core.decisions import Decision, IllegalChoice, LazyDecision, NumberOptions, Option
from ..core.rng import Stream
from ..core.state import ACTION, END, FINAL_GREENERY, MAX_PLAYERS, MIN_PLAYERS, PHASES, PRODUCTION, RESEARCH, SETUP
from .game import SAVE_FORMAT, ContentError, EndlessGame, Game, GameOptions, load_library

__all__ = ["ACTION", "END", "FINAL_GREENERY", "MAX_PLAYERS", "MIN_PLAYERS", "PHASES", "PRODUCTION", "RESEARCH",
           "SAVE_FORMAT", "SETUP", "ContentError", "Decision", "EndlessGame",
           "Game", "GameOptions", "GameState", "IllegalChoice",
           "LazyDecision", "NumberOptions", "Option", "Stream", "load_library"]


def __getattr__(name: str):
    """`GameState` is imported when first asked for: the research view (and its determinisation) is for search and
    learning, and a game played from the command line never needs it."""
    if name == "GameState":
        from .research import GameState
        return GameState
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
