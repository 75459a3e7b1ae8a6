"""`RESOURCE added` (issue 30, trial 2): in a `when ... add RESOURCE` trigger, what the effect that set it off added.
The count travels in the trigger's EffectContext (`added`), which saves encode only when it is set, so that every
save written before it is read, and written, as it was. tests/scenarios/rules/added-resources.yaml plays it."""

from tharsis.runtime.api.game import Game, GameOptions
from tharsis.runtime.api.saves import decode, encode
from tharsis.runtime.rules.checks import EffectContext


def _game() -> Game:
    return Game(GameOptions(players=("alice", "bob"), seed=1), start=False)


def test_a_context_without_a_count_added_saves_as_before():
    game = _game()
    saved = encode(game, EffectContext(0, card=None, x=2))
    assert len(saved["ctx"]) == 9   # `added` (and `decider`, `actor` after it) left out at their defaults
    assert decode(game, saved) == EffectContext(0, x=2)


def test_a_context_with_a_count_added_saves_and_loads_it():
    game = _game()
    ctx = EffectContext(1, added=3)
    saved = encode(game, ctx)
    assert len(saved["ctx"]) == 10   # up to `added`; `decider` and `actor`, after it, left out at their defaults
    assert decode(game, saved) == ctx
    assert decode(game, saved).where.added == 3
