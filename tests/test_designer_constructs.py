"""The constructs issue 29 added for Turmoil, as a designer meets them outside Turmoil: what compiles, what is
refused with a coded error (and why), and that each prints back as text compiling to the same definition. What they
do in a game is tests/scenarios/rules/designer-constructs.yaml's."""

import pytest

from tharsis.compiler import compile_text, text

KIND = 'card kind "omen" { set: lab  deal: 0 keep 0  stages: far, near, now }\n'


def _errors(source: str) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in compile_text(source).errors]


@pytest.mark.parametrize("source, code, words", [
    ('card "A" #L1 { type: event  cost: 0  play: lose 1 heat per cards in hand }', "E301", "lose up to"),
    ('card "A" #L1 { type: active  cost: 0  repeatable action: gain 1 heat }', "E307", "needs a cost"),
    ('card "A" #L1 { type: event  cost: 0  on reveal: gain 1 MC  play: gain 1 MC }', "E202", "stages"),
    (KIND + 'card "A" #L1 { type: omen  on nowish: gain 1 MC  play: gain 1 MC }', "E110", "no stage 'nowish'"),
    ('card kind "deal" { deal: 2 keep 1 }\ncard "A" #L1 { type: event  cost: 0  play: advance deals }', "E105",
     "no stages"),
    (KIND + 'card "A" #L1 { type: event  cost: 0  play: advance omans }', "E105", "unknown kind of card"),
    ('card "A" #L1 { type: event  cost: 0  needs: nowhere  play: gain 1 MC }', "E110", "the set 'nowhere'"),
    ('rule "R" { at: end of generation  after: nowhere  play: neutral { temperature +1 } }', "E110", "the set"),
    ('card "A" #L1 { type: event  cost: 0  play: remove city tile }', "E103", "only ocean tiles"),
    ('card "A" #L1 { type: event  cost: 0  play: rank players by tr { second: tr +1 } }', "E302", "in order"),
    ('card "A" #L1 { type: active  cost: 0  effect: tax 3 steel per tr step }', "E301", "megacredits"),
    ('card "A" #L1 { type: active  cost: 0  effect: tax 3 megacredits per oxygen step }', "E108", "TR steps"),
    ('card kind "omen" { deal: 0 keep 0  stages: far, reveal }', "E301", "not a stage"),
])
def test_a_misused_construct_is_refused_with_a_coded_error(source, code, words):
    errors = _errors(source)
    assert any(found == code and words in message for found, message in errors), errors


CONSTRUCTS = KIND + """
card "Omen Card" #L1 {
  set: lab  type: omen
  needs: corpera
  on reveal: gain 1 MC
  on near: each player { lose up to 2 megacredits per building tags max 5 - cards in hand }
  play: rank players by lowest tr at least 1 { first: tr +1 | second: discard up to 2 };
        repeat cards in hand times { gain 1 plant }; add 1 microbe to each card with resources
}

card "Either" #L2 {
  set: lab  type: active  cost: 3
  requires: oxygen >= 9% or jovian tags max 2 - 1 >= 1 and tr >= 20
  repeatable action: pay 2 megacredits -> gain 1 heat
  effect: tax 3 megacredits per tr step
}

standard action "Town Hall" {
  set: lab
  cost: 0
  once per generation
  play: advance omen cards; resolve omen; neutral { remove ocean tile }
}

rule "Last Word" { set: lab  at: end of generation  after: corpera  play: advance omens }
"""


def test_every_construct_compiles_and_prints_back_as_the_same_definitions():
    first = compile_text(CONSTRUCTS)
    assert not first.errors, [(d.code, d.message) for d in first.errors]
    again = compile_text(text.content(first.library.definitions))
    assert not again.errors, [(d.code, d.message) for d in again.errors]
    for before, after in zip(first.library.definitions, again.library.definitions):
        fields = [f for f in ("play", "actions", "passives", "requirements", "on_stage", "needs", "stages", "after",
                              "once_per_generation", "type") if hasattr(before, f)]
        assert [getattr(before, f) for f in fields] == [getattr(after, f) for f in fields], before.name


def test_a_kind_name_may_have_several_words():
    result = compile_text('card kind "global omen" { deal: 0 keep 0  stages: far, now }\n'
                          'card "A" #L1 { type: global omen  play: gain 1 MC }\n'
                          'card "B" #L2 { type: event  cost: 0  play: advance global omens; resolve global omen }')
    assert not result.errors, [(d.code, d.message) for d in result.errors]
    assert result.library.get("A").type == "global omen"


def test_a_staged_card_counts_printed_tags_only_as_an_award_does():
    source = ('tag wild as any tag\n' + KIND +
              'card "A" #L1 { type: omen  play: each player { gain 1 MC per jovian tags } }\n'
              'card "B" #L2 { type: event  cost: 0  play: gain 1 MC per jovian tags }')
    result = compile_text(source)
    staged = result.library.get("A").play[0].body[0].amount.per.terms[0]
    played = result.library.get("B").play[0].amount.per.terms[0]
    assert staged.wild_tags == () and played.wild_tags == ("wild",)
