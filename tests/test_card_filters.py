"""Card filters and the card verbs (issue 30): one set of filters wherever cards are counted or chosen, cards moving
between zones, another card's immediate effects copied, `each player with CONDITION`, and the lasting effects of a
declared kind's cards. Each construct compiles, writes back as the same text, reads in English and Chinese, and
its contradictions are warned of; tests/scenarios/cards/published-constructs.yaml plays them."""

import attrs
import pytest

from tharsis.compiler import compile_text, effects as fx, rules_text, text

CARDS = """
card "Lab Clerk" {
  type: active  cost: 6  tags: science
  effect: when you play active card with no earth tag with global requirements -> gain 3 megacredits
  effect: when any player plays card with earth tag with special tile -> gain 1 MC
  vp: 1 per 3 event cards with no earth tag costing 10 or less
}

card "Census" {
  type: automated  cost: 3
  play: gain 1 MC per active cards with vp holding animal; gain 1 steel per cards with global requirements
}

card "Recall" {
  type: event  cost: 2
  play: move active card with earth tag from play to hand; move event with special tile from events to discard
}

card "Handover" {
  type: event  cost: 1
  play: move card with cost <= 10 from hand to another player; copy play of another science card with requirements
}

card "Fast Track" {
  type: event  cost: 1
  play: play event with requirements from hand with discount 5;
        each player with tr raised this generation >= 1 { gain 2 MC };
        each opponent with cards in hand >= 5 { discard 1 }
}

card "Astra" {
  type: active  cost: 7
  play: move event with no special tile from events to hand;
        gain 1 MC per cards with no requirements with no vp;
        draw 1 per event cards with no global requirements
  effect: when you play card with no requirements with no special tile -> gain 1 MC
  effect: discount 2 on cards with requirements
  effect: discount 1 on space cards with no earth tag with cost >= 10 per space tag
}

card "Diversity" {
  type: event  cost: 1
  requires: distinct resources >= 9
  play: tr +1; production(plants at least 3)
}
"""


def _compiled(source: str):
    result = compile_text(source, "<filters>")
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert errors == [], [d.message for d in errors]
    return result


def test_every_construct_compiles_and_writes_back_as_the_same_definitions():
    first = _compiled(CARDS).library.definitions
    again = _compiled(text.content(first, (), (), ())).library.definitions
    assert [attrs.evolve(d, source=None) for d in again] == [attrs.evolve(d, source=None) for d in first]


def test_the_filters_compile_into_one_card_filter():
    library = _compiled(CARDS).library
    clerk = library.get("Lab Clerk").passives[0].event
    assert clerk.cards == fx.CardFilter(types=("active",), lacks="earth", requirements="global")
    recall = library.get("Recall").play
    assert recall[0] == fx.MoveCard(fx.CardFilter(types=("active",), tag="earth"), "play", "hand")
    assert recall[1] == fx.MoveCard(fx.CardFilter(types=("event",), special_tile=True), "events", "discard")
    astra = library.get("Astra")
    assert astra.play[0] == fx.MoveCard(fx.CardFilter(types=("event",), lacking=("special tile",)), "events", "hand")
    assert astra.play[1].amount.per.terms[0].cards == fx.CardFilter(lacking=("requirements", "vp"))
    assert astra.passives[0].event.cards == fx.CardFilter(lacking=("requirements", "special tile"))
    assert astra.passives[1] == fx.Discount(2, "megacredits", fx.DiscountTarget("cards", cards=fx.CardFilter(
        requirements="any")))
    space = fx.DiscountTarget("cards", tag="space", cards=fx.CardFilter(lacks="earth", min_cost=10))
    assert astra.passives[2] == fx.Discount(1, "megacredits", space, per_tag="space")
    vp = library.get("Lab Clerk").vp.per.terms[0]
    assert vp.names == ("event",) and vp.cards == fx.CardFilter(lacks="earth", max_cost=10)


@pytest.mark.parametrize("language, expected", [
    ("en", ["an active card with no earth tag with a global requirement", "back into your hand",
            "Each player with tr raised this generation at least 1", "kinds of resources",
            "Raise your plant production to 3 if it is lower", "an event that places no special tile",
            "cards with no requirement with no victory points", "event cards with no global requirement",
            "Cards with requirements cost you 2 MC less.",
            "Cards with a space tag with no earth tag costing 10 MC or more cost you 1 MC less for each space tag"]),
    ("zh", ["行动牌（无地球标志）（有星球参数需求）", "收回手牌", "资源种类", "若你的植物产量低于3点，将其提升至3点",
            "事件牌（不放置特殊板块）", "牌（无需求）（无胜利点数）", "你打出牌（有需求）时，少支付2 M€。"]),
])
def test_the_constructs_read_as_rules_text(language, expected):
    library = _compiled(CARDS).library
    read = "\n".join(rules_text.card(d, language) for d in library.cards)
    for phrase in expected:
        assert phrase in read


@pytest.mark.parametrize("line, code, message", [
    ("effect: when you play earth card with no earth tag -> gain 1 MC", "W106", "both have and lack the earth tag"),
    ("play: move card with no tags with earth tag from play to hand", "W104", "a card with no tags has no earth tag"),
    ("play: copy play of another card with cost >= 20 with cost <= 10", "W104", "no cost is both 20 or more"),
    ("play: move event with special tile with no special tile from events to hand", "W104",
     "both place a special tile and place none"),
    ("play: copy play of another card with vp with no vp", "W104", "both print victory points and print none"),
    ("effect: when you play card with global requirements with no requirements -> gain 1 MC", "W106",
     "both have a global requirement and lack it"),
])
def test_filters_no_card_can_pass_are_warned_of(line, code, message):
    result = compile_text(f'card "Never" {{\n  type: active  cost: 1\n  {line}\n}}\n', "<never>")
    assert [(d.code, message in d.message) for d in result.diagnostics] == [(code, True)]


@pytest.mark.parametrize("line, wanted", [
    ("play: move card from deck to hand", "cards move from your play area, your events or your hand"),
    ("play: move card from play to pile", "a card moves to your hand, the discard pile or another player"),
    ("play: move card from hand to hand", "a card from hand cannot move to hand"),
    ("play: move card from events to another player", "cannot move to another player"),
    ("play: copy play of another event", "an event is not in a play area"),
    ("play: move card with jovan tag from play to hand", "unknown tag 'jovan'"),
    ("effect: when you use standard project with earth tag -> gain 1 MC", "a standard project is chosen by"),
])
def test_bad_card_verbs_get_a_clear_error(line, wanted):
    result = compile_text(f'card "Bad" {{\n  type: active  cost: 1\n  {line}\n}}\n', "<bad>")
    assert any(d.severity == "error" and wanted in d.message for d in result.diagnostics), \
        [d.message for d in result.diagnostics]


def test_a_declared_kind_may_have_lasting_effects_but_a_staged_kind_may_not():
    kinds = 'card kind "mission" { deal: 0 keep 0 }\ncard kind "omen" { deal: 0 keep 0  stages: near, here }\n'
    kept = compile_text(kinds + 'card "Patron" { type: mission  holds: science  action: add 1 science here\n'
                                '  effect: when you play science tag -> gain 1 MC }\n', "<kinds>")
    assert [d.message for d in kept.diagnostics if d.severity == "error"] == []
    staged = compile_text(kinds + 'card "Portent" { type: omen  effect: when you play science tag -> gain 1 MC }\n',
                          "<kinds>")
    assert [d.code for d in staged.diagnostics] == ["E204"] and "nobody's play area" in staged.diagnostics[0].message
    automated = compile_text('card "Box" { type: automated  cost: 1  action: gain 1 MC }\n', "<kinds>")
    assert [d.code for d in automated.diagnostics] == ["E204"]


def test_a_filter_on_one_of_several_tags_compiles_matches_writes_back_and_is_linted():
    """`with earth or jovian tag` (issue 30): a card with at least one of the tags passes; a trigger with it fires
    once per card (tests/scenarios/rules/triggers.yaml), and a reveal from hand takes it too."""
    from tharsis.runtime.rules.measures import card_matches

    source = """
card "Relay Station" {
  type: active  cost: 6  tags: space
  effect: when you play card with earth or jovian tag -> gain 1 MC
}

card "Show Off" {
  type: event  cost: 1
  play: reveal X cards from hand with earth or jovian tag with cost >= 10 { gain X megacredits }
}
"""
    result = compile_text(source, "<any tag>")
    assert [d.message for d in result.diagnostics] == []
    library = result.library
    trigger = library.get("Relay Station").passives[0]
    assert trigger.event.cards == fx.CardFilter(any_tag=("earth", "jovian"))
    assert library.get("Show Off").play[0].cards == fx.CardFilter(min_cost=10, any_tag=("earth", "jovian"))
    again = compile_text(text.content(library.definitions, (), (), ()), "<again>").library
    assert [d.passives + d.play for d in again.definitions] == [d.passives + d.play for d in library.definitions]
    wanted = trigger.event.cards

    class Card:   # only what the matcher reads
        def __init__(self, *tags):
            self.tags, self.type, self.requirements, self.cost, self.vp, self.holds, self.play = tags, "automated", \
                None, 10, None, None, ()

    assert [card_matches(Card(*tags), wanted) for tags in (("earth",), ("jovian", "space"), ("earth", "jovian"),
                                                          ("space",), ())] == [True, True, True, False, False]
    warned = compile_text('card "Odd" {\n  type: event  cost: 1\n  play: move card with earth or jovian tag with no '
                          'tags from hand to discard\n}\n', "<odd>").diagnostics
    assert [(d.code, d.message) for d in warned] == [
        ("W104", "no card passes these filters: a card with no tags has no earth or jovian tag")]


def test_a_faction_requirement_filter_reads_back_and_contradicts_its_negation():
    """`with faction requirements` (issue 30, trial 5: High Circles' "party requirement") reads back as written
    wherever a card filter goes, and with `with no faction requirements` beside it no card passes (W-lint)."""
    from tharsis.compiler import compile_text, text
    source = ('card "Party Census" {\n  type: active  cost: 0\n'
              '  play: reveal cards until 1 with faction requirements;\n'
              '        gain 1 titanium per cards with no faction requirements\n'
              '  effect: when you play card with faction requirements -> gain 2 megacredits\n}\n')
    result = compile_text(source, "<faction>")
    assert not result.diagnostics, [(d.code, d.message) for d in result.diagnostics]
    written = text.card(result.library.cards[0])
    assert "reveal cards until 1 with faction requirements" in written
    assert "per cards with no faction requirements" in written
    assert "when you play card with faction requirements ->" in written
    both = compile_text('card "Odd" {\n  type: active  cost: 0\n  effect: when you play card with faction '
                        'requirements with no faction requirements -> gain 1 plant\n}\n', "<faction>")
    assert [(d.code, d.message) for d in both.diagnostics] == [
        ("W106", "this trigger can never fire: a card cannot both have a faction requirement and lack it")]
