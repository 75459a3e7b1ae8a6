"""Constructs the published cards of later sets needed (issue 30, item 3): the generation as a count (Flat Mars
Theory), the card filters of a reveal (Nobel Prize's "draw 2 cards with requirements"), production protected from
opponents (Private Security) and the discard pile looked at (Return to Abandoned Technology). Each compiles, writes
back as the same text, reads in English and Chinese, and its misuse is a coded error;
tests/scenarios/cards/published-later-sets.yaml plays them."""

import attrs
import pytest

from tharsis.compiler import compile_text, effects as fx, rules_text, text

CARDS = """
card "Flat Mars Theory" {
  set: pathfinders  type: automated  cost: 8  tags: earth
  requires: science tags <= 1
  play: production(megacredits +1 per generation)
}

card "Nobel Prize" {
  type: event  cost: 1
  play: gain 2 megacredits; reveal cards until 2 with requirements; reveal cards until 1 with space tag with cost >= 10
}

card "Return to Abandoned Technology" {
  set: pathfinders  type: event  cost: 4
  play: look 4 keep 2 from discard
}

card "Private Security" {
  set: pathfinders  type: active  cost: 8  tags: earth
  effect: protect production from opponents
  vp: 1 per 3 generations
}
"""


def _compiled(source: str):
    result = compile_text(source, "<later>")
    assert [d.message for d in result.diagnostics] == []
    return result.library


def test_every_construct_compiles_and_writes_back_as_the_same_definitions():
    first = _compiled(CARDS).definitions
    again = _compiled(text.content(first, (), (), ())).definitions
    assert [attrs.evolve(d, source=None) for d in again] == [attrs.evolve(d, source=None) for d in first]


def test_the_constructs_compile_to_what_the_engine_reads():
    library = _compiled(CARDS)
    per = library.get("Flat Mars Theory").play[0].changes[0].amount.per
    assert per.terms == (fx.Measure("generation", scope="all"),)
    prize = library.get("Nobel Prize").play
    assert prize[1] == fx.RevealUntil(2, cards=fx.CardFilter(requirements="any"))
    assert prize[2] == fx.RevealUntil(1, tag="space", cards=fx.CardFilter(min_cost=10))
    assert library.get("Private Security").passives == (fx.Protect(("production",), "opponents"),)
    assert library.get("Return to Abandoned Technology").play == (fx.LookDiscard(4, 2),)


def test_a_reveal_written_as_before_compiles_as_before():
    library = _compiled('resource floater\ncard "Old" { type: event  cost: 1\n  play: reveal cards until 2 with '
                        'plant tag; reveal cards until 1 with floater icon; reveal cards until 1 holding microbe }\n')
    assert library.get("Old").play == (fx.RevealUntil(2, tag="plant"), fx.RevealUntil(1, icon="floater"),
                                       fx.RevealUntil(1, holds="microbe"))


@pytest.mark.parametrize("language, expected", [
    ("en", ["Increase your MC production 1 step per generation", "until you have revealed 2 cards with requirements",
            "Opponents cannot decrease your production", "1 VP per 3 generations",
            "Take the top 4 cards of the discard pile and keep 2 of them"]),
    ("zh", ["每有1个世代，增加1点M€产量", "直到翻出2张（有需求）的牌", "对手不能降低你的产量",
            "拿起弃牌堆顶的4张牌，保留其中2张"]),
])
def test_the_constructs_read_as_rules_text(language, expected):
    read = "\n".join(rules_text.card(d, language) for d in _compiled(CARDS).cards)
    for phrase in expected:
        assert phrase in read


@pytest.mark.parametrize("line, code, wanted", [
    ("effect: protect production here", "E301", "production is a player's, not a card's"),
    ("play: reveal cards until 1 with space or earth tag with plant or jovian tag", "E301", "given twice"),
    ('play: reveal cards until 1 except "Mine"', "E301", "'except' names a standard project"),
    ("play: gain 1 MC per your generation", "E104", "unknown quantity"),
    ("play: look 2 keep 3 from discard", "E302", "can't keep 3 of 2 cards"),
])
def test_misuse_is_a_coded_error(line, code, wanted):
    result = compile_text(f'card "Bad" {{\n  type: active  cost: 1\n  {line}\n}}\n', "<bad>")
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == [code] and wanted in errors[0].message, [d.message for d in errors]


def test_a_price_on_playing_cards_seen_needs_up_to_and_reads_back():
    """`look N KIND cards play up to K { PRICE }` reads back as written; a price without `up to` is E307 (a
    player who cannot pay must be free to play none)."""
    kind = 'card kind "opening" { set: lab  deal: 0 keep 0 }\n'
    result = compile_text(kind + 'card "Desk" {\n  type: active  cost: 0\n'
                          '  action: look 1 opening cards play up to 1 { pay 3 megacredits }\n}\n', "<look>")
    assert not result.errors, [(d.code, d.message) for d in result.errors]
    desk = next(c for c in result.library.cards if c.name == "Desk")
    assert "look 1 opening cards play up to 1 { pay 3 megacredits }" in text.card(desk)
    refused = compile_text(kind + 'card "Desk" {\n  type: active  cost: 0\n'
                           '  action: look 1 opening cards play 1 { pay 3 megacredits }\n}\n', "<look>")
    assert [d.code for d in refused.errors] == ["E307"]
