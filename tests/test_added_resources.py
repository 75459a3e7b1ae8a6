"""`RESOURCE added` (issue 30, trial 2): in a `when ... add RESOURCE` trigger, what the effect that set it off added.
The count travels in the trigger's EffectContext (`added`), which saves encode only when it is set, so that every
save written before it is read, and written, as it was. tests/scenarios/rules/added-resources.yaml plays it."""

import pytest

from tharsis.compiler import compile_text, text
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


@pytest.mark.parametrize("written, code", [
    ("holds: animal  effect: when you add microbe here -> gain 1 titanium", "E503"),
    ("effect: when you add microbe here -> gain 1 titanium", "E501"),
    ("holds: microbe  effect: when another player adds microbe here -> gain 1 titanium", "E307"),
])
def test_a_trigger_on_resources_added_here_needs_a_card_that_holds_them(written, code):
    """`when you add RESOURCE here` listens to this card: it must hold that resource, and only its owner adds to it
    (so `another player` would never fire)."""
    result = compile_text(f'card "Hauler" {{\n  type: active  cost: 1\n  {written}\n}}\n', "<here>")
    assert [d.code for d in result.errors] == [code], [(d.code, d.message) for d in result.errors]


def test_a_trigger_on_resources_added_here_reads_back_as_written():
    result = compile_text('card "Hauler" {\n  type: active  cost: 1  holds: microbe\n'
                          '  effect: when you add microbe here -> gain 1 titanium per microbe added\n}\n', "<here>")
    assert not result.errors
    trigger = result.library.cards[0].passives[0]
    assert trigger.event.here and trigger.event.resource == "microbe"
    assert text.card(result.library.cards[0]).count("when you add microbe here ->") == 1


def test_resources_to_each_of_k_different_cards_read_back_and_need_two_cards_at_least():
    """`to each of K different cards` keeps K through the card text; one card is `to any card` (E302)."""
    result = compile_text('card "Seed" {\n  type: event  cost: 1\n'
                          '  play: add 1 resource to each of 3 different microbe cards\n}\n', "<different>")
    assert not result.errors
    added_effect = result.library.cards[0].play[0]
    assert (added_effect.target, added_effect.cards, added_effect.tag) == ("different_cards", 3, "microbe")
    assert "add 1 resource to each of 3 different microbe cards" in text.card(result.library.cards[0])
    single = compile_text('card "Seed" {\n  type: event  cost: 1\n'
                          '  play: add 1 microbe to each of 1 different cards\n}\n', "<different>")
    assert [d.code for d in single.errors] == ["E302"]

