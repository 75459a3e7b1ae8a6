"""`each opponent [with CONDITION] must { }` and `each player ... must { }` (issue 30, trial 2: Recession): the block
required of every player it names. What it does in a game is tests/scenarios/rules/each-must.yaml's; here, the
text: it compiles to the field `must`, prints back as written, reads as rules text in English and Chinese, and is
refused where nothing checks the effects first."""

import pytest

from tharsis.compiler import compile_text, effects as fx, rules_text, text

CARD = 'card "Levy" {{\n  type: event  cost: 0\n  play: {}\n}}\n'


def _card(play: str):
    result = compile_text(CARD.format(play), "<levy>")
    assert result.diagnostics == [], [(d.code, d.message) for d in result.diagnostics]
    return result.library.cards[0]


@pytest.mark.parametrize(("play", "kind", "english", "chinese"), [
    ("each opponent must { production(megacredits -1) }", fx.EachOpponent,
     "Each opponent (every one must be able to): Decrease your MC production 1 step.",
     "每个对手（每个对手都必须能执行）"),
    ("each player must { lose 2 plants }", fx.EachPlayer, "Each player (every one must be able to): Lose 2 plants",
     "每名玩家（每名玩家都必须能执行）"),
    ("each opponent with plants >= 1 must { lose 1 plant }", fx.EachOpponent, "Each opponent with ",
     "的对手（每个都必须能执行）"),
    ("each player with plants >= 1 must { lose 1 plant }", fx.EachPlayer, " (every one must be able to): Lose 1 plant",
     "的玩家（每名都必须能执行）"),
])
def test_must_compiles_prints_back_and_reads_in_both_languages(play, kind, english, chinese):
    card = _card(play)
    block = card.play[0]
    assert type(block) is kind and block.must
    assert f"play: {play}" in text.card(card)
    assert english in rules_text.card(card, "en")
    assert chinese in rules_text.card(card, "zh")


def test_without_must_the_block_reads_and_compiles_as_before():
    card = _card("each opponent { production(megacredits -1) }")
    assert not card.play[0].must
    assert "must" not in text.card(card) and "must be able" not in rules_text.card(card, "en")


def test_must_where_nothing_checks_the_effects_first_is_E307():
    source = ('card "Levy Office" {\n  type: active  cost: 0\n'
              '  effect: when you play card -> each opponent must { lose up to 1 plant }\n}\n')
    errors = [d for d in compile_text(source, "<office>").diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == ["E307"]
    assert "'must'" in errors[0].message and "leave out 'must'" in errors[0].hint
