"""What every bot shares: its randomness, fixed by the game's progress (`decision_rng`), and the loop that lets
bots answer a game's decisions to its end (`play_out`)."""

from __future__ import annotations

from ..api import Stream


def decision_rng(seed: int, game) -> Stream:
    """A generator fixed by the bot's seed and the game's progress, not by the bot's history: replaying, undoing
    or loading a game therefore gives the bots the very same choices."""
    return Stream(seed * 1_000_003 + len(game.log))


def play_out(game, bots: dict[int, object]) -> None:
    """Let bots answer every decision until the game ends."""
    while not game.over:
        decision = game.pending()
        game.apply(bots[decision.player].choose(game, decision))
