"""Language constructs a designer of new cards reaches for, each end to end: the text compiles (typos get a
did-you-mean), plays as it says, prints back as the same text and reads as rules text in English and Chinese.

- `add N RES [per QUANTITY] to any|another TAG card`: only a card of yours with that tag;
- `RES on cards`: the resources of one type on your cards (`all RES on cards`: everyone's);
- `when another player EVENT`: only events of a player other than the card's owner;
- `discount N on cards per TAG tag`: N off for each such tag of the card played;
- `remove N RES from your card`: one of your own cards, your choice; a cost that must be payable;
- `gain 3X RES` (a multiple of X) inside `choose X`.

The scenarios declare a tag and a card resource of their own (`cloud`, `balloon`), as a designer's set would.
"""

import pytest
import yaml

from tharsis.compiler import compile_text, rules_text, text
from tharsis.designer import scenarios

DECLARATIONS = "tag cloud\nresource balloon\n"

CARDS = DECLARATIONS + """
card "Cloud Dock" {
  type: active  cost: 0  tags: cloud
  holds: balloon
  action: add 1 balloon per jovian tag to any cloud card
}

card "Cloud Harbour" {
  type: active  cost: 0  tags: cloud
  holds: balloon
  action: add 2 balloons to another cloud card
}

card "Ground Hangar" {
  type: active  cost: 0
  holds: balloon
}

card "Twin Moons" {
  type: active  cost: 0  tags: jovian, jovian
}

card "Balloon Market" {
  type: active  cost: 0
  action: remove 1 balloon from your card -> gain 3 megacredits
}

card "Balloon Census" {
  type: automated  cost: 0
  requires: balloons on cards >= 3
  vp: 1 per 2 balloons on cards
}

card "Sky Census" {
  type: automated  cost: 0
  requires: all balloons on cards >= 4
}

card "City Watch" {
  type: active  cost: 0
  effect: when another player places city tile -> gain 2 megacredits
}

card "Quick City" {
  type: automated  cost: 0
  play: place city
}

card "Builders' Guild" {
  type: active  cost: 0
  effect: discount 2 on cards per building tag
}

card "Twin Works" {
  type: automated  cost: 10  tags: building, building
}

card "Single Works" {
  type: automated  cost: 10  tags: building
}

card "Lab Works" {
  type: automated  cost: 10  tags: science
}

card "Heat Exchange" {
  type: automated  cost: 0
  play: choose X up to heat { spend X heat; gain 3X megacredits }
}

card "Balloon Loft" {
  type: active  cost: 0  tags: cloud
  holds: balloon
  action: add 1 balloon to another cloud card per 2 balloons here
}

milestone "Balloonist" { requires: balloons on cards >= 7 }
"""


def _run(yaml_text: str):
    spec = yaml.safe_load(yaml_text)
    spec["cards"] = CARDS
    outcome = scenarios.run(spec)
    assert outcome.passed, "\n".join(([outcome.error] if outcome.error else []) + outcome.failures)


def _compile(source: str):
    return compile_text(DECLARATIONS + source, "<constructs>")


def _errors(source: str):
    return [(d.code, d.message, d.hint) for d in _compile(source).errors]


# ------------------------------------------------------------------ add to a card with a tag, per a quantity

def test_add_to_any_tagged_card_offers_only_your_cards_with_that_tag():
    _run("""
name: add to any cloud card
setup:
  players:
    alice:
      played: [Cloud Dock, Cloud Harbour, Ground Hangar, Twin Moons]
steps:
  - action: Cloud Dock
    offers: [card Cloud Dock, card Cloud Harbour]
    does not offer: [card Ground Hangar]
    choose: [card Cloud Harbour]
expect:
  players:
    alice: {card resources: {Cloud Harbour: 2, Cloud Dock: 0, Ground Hangar: 0}}
""")


def test_add_per_quantity_counts_the_tags_when_the_effect_is_carried_out():
    _run("""
name: add 1 balloon per jovian tag
setup:
  players:
    alice:
      played: [Cloud Dock, Twin Moons, Ground Hangar]
steps:
  - action: Cloud Dock
expect:
  players:
    alice: {card resources: {Cloud Dock: 2, Ground Hangar: 0}}
""")


def test_add_to_another_tagged_card_leaves_out_the_card_itself_and_untagged_cards():
    _run("""
name: add to another cloud card
setup:
  players:
    alice:
      played: [Cloud Harbour, Cloud Dock, Ground Hangar]
steps:
  - action: Cloud Harbour
expect:
  players:
    alice: {card resources: {Cloud Dock: 2, Cloud Harbour: 0, Ground Hangar: 0}}
""")


# ------------------------------------------------------------------ RES on cards

def test_resources_of_one_type_on_cards_count_for_requirements_and_points():
    _run("""
name: balloons on cards
setup:
  players:
    alice:
      played: [{card: Cloud Dock, resources: 2}, {card: Ground Hangar, resources: 1}]
      hand: [Balloon Census]
    bob:
      played: [{card: Cloud Harbour, resources: 5}]
steps:
  - play: Balloon Census
expect:
  players:
    alice: {played: [Balloon Census]}
  score:
    alice: {cards: 1}
""")


def test_resources_of_other_types_and_other_players_do_not_count():
    cards_with_animals = CARDS.replace('card "Ground Hangar" {\n  type: active  cost: 0\n  holds: balloon',
                                       'card "Ground Hangar" {\n  type: active  cost: 0\n  holds: animal')
    spec = yaml.safe_load("""
name: only your balloons
setup:
  players:
    alice:
      played: [{card: Cloud Dock, resources: 2}, {card: Ground Hangar, resources: 4}]
      hand: [Balloon Census]
    bob:
      played: [{card: Cloud Harbour, resources: 5}]
steps:
  - play: Balloon Census
    refused: balloons on cards >= 3
""")
    spec["cards"] = cards_with_animals
    outcome = scenarios.run(spec)
    assert outcome.passed, "\n".join(([outcome.error] if outcome.error else []) + outcome.failures)


def test_all_resources_on_cards_counts_every_players():
    _run("""
name: all balloons on cards
setup:
  players:
    alice:
      played: [{card: Cloud Dock, resources: 1}]
      hand: [Sky Census]
    bob:
      played: [{card: Cloud Harbour, resources: 3}]
steps:
  - play: Sky Census
expect:
  players:
    alice: {played: [Sky Census]}
""")


def test_a_misspelt_resource_on_cards_suggests_the_resource_not_a_tile_phrase():
    errors = _errors('milestone "Balloonist" { requires: baloons on cards >= 7 }\n')
    assert len(errors) == 1
    code, message, hint = errors[0]
    assert code == "E101" and "baloons" in message
    assert "balloon" in hint and "tiles" not in hint


def test_resources_on_cards_compiles_in_a_milestone():
    result = _compile('milestone "Balloonist" { requires: balloons on cards >= 7 }\n')
    assert result.diagnostics == []
    measure = result.library.definitions[0].requirement.comparisons[0].quantity.terms[0]
    assert (measure.kind, measure.name, measure.scope) == ("card_resources", "balloon", "you")


# ------------------------------------------------------------------ another player

def test_another_player_trigger_fires_for_an_opponents_event():
    _run("""
name: another player places a city
setup:
  players:
    alice: {played: [City Watch]}
    bob: {hand: [Quick City]}
steps:
  - play: Quick City
    player: bob
    choose: [space 03]
expect:
  players:
    alice: {resources: {megacredits: 2}}
""")


def test_another_player_trigger_stays_silent_for_the_owners_own_event():
    _run("""
name: you place a city
setup:
  players:
    alice: {played: [City Watch], hand: [Quick City]}
steps:
  - play: Quick City
    choose: [space 03]
expect:
  players:
    alice: {resources: {megacredits: 0}}
""")


def test_another_player_with_including_this_is_refused():
    errors = _errors('card "Odd" {\n  type: active  cost: 0  tags: cloud\n'
                     '  effect: when another player plays cloud tag including this -> gain 1 plant\n}\n')
    assert [code for code, *_ in errors] == ["E307"]


# ------------------------------------------------------------------ discounts per tag

def test_discount_per_tag_takes_the_amount_off_for_each_such_tag():
    _run("""
name: discount 2 on cards per building tag
setup:
  players:
    alice:
      played: [Builders' Guild]
      resources: {megacredits: 30}
      hand: [Twin Works, Single Works, Lab Works]
steps:
  - play: Twin Works
    expect:
      players:
        alice: {resources: {megacredits: 24}}
  - play: Single Works
    expect:
      players:
        alice: {resources: {megacredits: 16}}
  - play: Lab Works
expect:
  players:
    alice: {resources: {megacredits: 6}}
""")


# ------------------------------------------------------------------ remove from your card

def test_remove_from_your_card_offers_your_cards_holding_that_resource():
    _run("""
name: remove 1 balloon from your card
setup:
  players:
    alice:
      played: [Balloon Market, {card: Cloud Dock, resources: 1}, {card: Ground Hangar, resources: 2},
               Cloud Harbour]
    bob:
      played: [{card: Twin Moons}]
steps:
  - action: Balloon Market
    offers: [card Cloud Dock, card Ground Hangar]
    does not offer: [card Cloud Harbour]
    choose: [card Ground Hangar]
expect:
  players:
    alice: {resources: {megacredits: 3}, card resources: {Ground Hangar: 1, Cloud Dock: 1}}
""")


def test_remove_from_your_card_is_a_cost_that_must_be_payable():
    _run("""
name: nothing to remove
setup:
  players:
    alice:
      played: [Balloon Market, Cloud Dock]
    bob:
      played: [{card: Cloud Harbour, resources: 3}]
steps:
  - action: Balloon Market
    refused: cannot be carried out
expect:
  players:
    alice: {resources: {megacredits: 0}}
    bob: {card resources: {Cloud Harbour: 3}}
""")


# ------------------------------------------------------------------ multiples of X

def test_a_multiple_of_x_gains_that_many_times_x():
    _run("""
name: gain 3X megacredits
setup:
  players:
    alice: {resources: {heat: 5}, hand: [Heat Exchange]}
steps:
  - play: Heat Exchange
    choose: [X=2]
expect:
  players:
    alice: {resources: {heat: 3, megacredits: 6}}
""")


def test_a_multiple_of_x_outside_choose_x_is_refused():
    assert [code for code, *_ in _errors('card "Odd" {\n  type: automated  cost: 0\n  play: gain 3X plants\n}\n')] \
        == ["E306"]


# ------------------------------------------------------------------ typos, text and rules text

def test_a_misspelt_tag_in_an_add_target_gets_a_did_you_mean():
    errors = _errors('card "Odd" {\n  type: automated  cost: 0\n  play: add 1 balloon to any clowd card\n}\n')
    assert len(errors) == 1
    code, message, hint = errors[0]
    assert code == "E102" and "clowd" in message and "cloud" in hint


def test_per_reads_the_same_before_or_after_the_target_and_prints_where_it_reads_back():
    card = 'card "A" {{\n  type: active  cost: 0\n  action: {}\n}}\n'
    before = _compile(card.format("add 1 balloon per jovian tag to any cloud card"))
    after = _compile(card.format("add 1 balloon to any cloud card per jovian tag"))
    assert before.diagnostics == [] and after.diagnostics == []
    assert before.library.cards[0].actions == after.library.cards[0].actions
    assert text.card(after.library.cards[0]).endswith("action: add 1 balloon per jovian tag to any cloud card\n}")
    loft = _compile(CARDS[len(DECLARATIONS):]).library.get("Balloon Loft")  # `here` would end a quantity before
    assert "add 1 balloon to another cloud card per 2 balloons here" in text.card(loft)


def test_every_construct_prints_back_as_text_that_compiles_to_the_same_card():
    result = _compile(CARDS[len(DECLARATIONS):])
    assert result.diagnostics == []
    for card in result.library.cards:
        again = compile_text(DECLARATIONS + text.card(card) + "\n", "<again>")
        assert again.diagnostics == [], text.card(card)
        copy = again.library.definitions[0]
        for field in ("requirements", "play", "actions", "passives", "vp"):
            assert getattr(copy, field) == getattr(card, field), (card.name, field)


@pytest.mark.parametrize(("name", "english", "chinese"), [
    ("Cloud Dock", "Add 1 balloon per jovian tag to one of your cards with a cloud tag.", "有cloud标志的牌"),
    ("Cloud Harbour", "Add 2 balloons to another of your cards with a cloud tag.", "另一张有cloud标志的牌"),
    ("Balloon Market", "Remove 1 balloon from one of your cards.", "从你的一张牌上移除1个balloon"),
    ("Balloon Census", "1 VP per 2 balloons on cards.", "你的卡牌上每有2个balloon，得1分"),
    ("City Watch", "When another player places a city tile: Gain 2 MC.", "其他玩家放置城市板块"),
    ("Builders' Guild", "Cards cost you 2 MC less for each building tag they have.",
     "该牌每有1个建筑标志，少支付2 M€"),
    ("Heat Exchange", "gain 3X MC.", "获得3X M€"),
])
def test_rules_text_says_each_construct_in_both_languages(name, english, chinese):
    card = _compile(CARDS[len(DECLARATIONS):]).library.get(name)
    assert english in rules_text.card(card, "en")
    assert chinese in rules_text.card(card, "zh")


# ---------------------------------------------------------------------------- `that player { }`

@pytest.mark.parametrize("written, why", [
    ("play: that player { gain 2 MC }", "it works only in 'when any player"),
    ("effect: when you play microbe tag -> that player { gain 2 MC }", "that player is you"),
    ("effect: when any player produces -> that player { gain 2 MC }", "no single player sets the trigger off"),
    ("effect: when any player plays microbe tag -> each opponent { that player { gain 2 MC } }",
     "a block around it names its players"),
])
def test_that_player_is_refused_where_no_other_player_sets_the_trigger_off(written, why):
    """`that player { }` names the player who set a trigger off: E307 outside a trigger, in `when you ...` (that
    player is you), in a trigger of the production phase, and inside a block that names its own players."""
    result = compile_text(f'card "Gossip" {{\n  type: active  cost: 1\n  {written}\n}}\n', "<that player>")
    assert [d.code for d in result.errors] == ["E307"], [(d.code, d.message) for d in result.errors]
    assert why in result.errors[0].message


def test_that_player_reads_back_as_the_same_text_and_as_rules_text_in_both_languages():
    source = ('card "Gossip" {\n  type: active  cost: 1\n  effect: when another player places ocean tile -> '
              'that player { gain 2 MC }; gain 1 MC\n}\n')
    card = compile_text(source, "<that player>").library.cards[0]
    written = text.effects(card.passives[0].effects)
    assert written == "that player { gain 2 megacredits }; gain 1 megacredits"
    assert "The player who set this off: Gain 2 MC." in rules_text.card(card, "en")
    assert "触发此效果的玩家：获得2 M€" in rules_text.card(card, "zh")


def test_a_saved_effect_context_keeps_the_player_who_set_a_trigger_off_and_older_saves_stay_as_they_were():
    """`that player { }` puts the player who set the trigger off in the context its steps save; a context without
    it (every game that has no such block) is saved with the 9 fields it had before, `added` only when set (and
    `decider`, before `actor`, written when `actor` is)."""
    from tharsis.runtime.api.saves import decode, encode
    from tharsis.runtime.rules.checks import EffectContext
    for ctx, fields in ((EffectContext(1), 9), (EffectContext(1, added=2), 10), (EffectContext(1, actor=0), 12),
                        (EffectContext(1, added=3, actor=0), 12), (EffectContext(1, decider=0, actor=0), 12)):
        data = encode(None, ctx)
        assert len(data["ctx"]) == fields and decode(None, data) == ctx


# ---------------------------------------------------------------------------- `next to it` (a placement filter)

@pytest.mark.parametrize("written", [
    "play: place greenery next to it",
    "effect: when you place ocean tile -> place greenery next to it",
    "play: may { place ocean }; place greenery next to it",
])
def test_next_to_it_with_no_tile_placed_before_it_is_refused(written):
    """`next to it` is next to the tile the same effects placed just before: E307 where none is (a placement inside
    a block before it is not one of these effects)."""
    result = compile_text(f'card "Polder" {{\n  type: active  cost: 1\n  {written}\n}}\n', "<next to it>")
    assert [d.code for d in result.errors] == ["E307"], [(d.code, d.message) for d in result.errors]
    assert "'next to it'" in result.errors[0].message


def test_next_to_it_after_a_placement_compiles_in_the_same_list_and_in_a_block_after_it():
    for written in ("play: place ocean; place greenery next to it ignoring adjacency",
                    "play: place ocean; may { place greenery next to it }"):
        source = f'card "Polder" {{\n  type: automated  cost: 1\n  {written}\n}}\n'
        result = compile_text(source, "<next to it>")
        assert not result.errors, [(d.code, d.message) for d in result.errors]
        card = result.library.cards[0]
        assert text.effects(card.play) == written.removeprefix("play: ")   # reads back as written
        assert "next to the tile placed just before" in rules_text.card(card, "en")
        assert "与刚放置的板块相邻" in rules_text.card(card, "zh")


# ---------------------------------------------------------------------------- `buy cards for N MC less | more`

def _reads(source: str, written: str, english: str, chinese: str = "") -> None:
    """The one passive effect of `source`'s card is written back as `written` and its rules text holds the sentences
    given."""
    card = compile_text(source, "<passive>").library.cards[0]
    assert text.effect(card.passives[0]) == written
    assert english in rules_text.card(card, "en")
    assert chinese in rules_text.card(card, "zh")


def test_a_relative_card_price_reads_back_and_as_rules_text_and_zero_is_refused():
    source = 'card "Archive" {\n  type: active  cost: 1\n  effect: buy cards for 1 MC less\n}\n'
    _reads(source, "buy cards for 1 megacredits less", "Buying a card to your hand costs you 1 MC less.",
           "你购买每张卡牌加入手牌少支付1 M€。")
    result = compile_text(source.replace("1 MC less", "0 MC more"), "<card price>")
    assert [(d.code, d.hint) for d in result.errors] == [("E302", "write: buy cards for 1 MC more")]


# ---------------------------------------------------------------------------- a stock resource for tagged cards

@pytest.mark.parametrize("written, hint", [
    ("use plants as 3 megacredits", "write: use plants as 3 megacredits for building cards, or use plants as "
                                    "megacredits"),
    ("use steel as 2 megacredits for space cards", "write: use steel as megacredits for space cards, or steel "
                                                   "value +1"),
])
def test_a_stock_resource_at_a_value_of_its_own_needs_a_tag_and_not_steel(written, hint):
    result = compile_text(f'card "Yard" {{\n  type: active  cost: 1\n  effect: {written}\n}}\n', "<substitute>")
    assert [(d.code, d.hint) for d in result.errors] == [("E301", hint)]


def test_a_stock_resource_for_tagged_cards_reads_back_and_as_rules_text():
    source = 'card "Yard" {\n  type: active  cost: 1\n  effect: use plants as 3 megacredits for building cards\n}\n'
    _reads(source, "use plants as 3 megacredits for building cards",
           "You may pay with plants, 3 MC each towards a building card.",
           "你可以用植物支付，每个抵3 M€，用于有建筑标志的牌。")


# ---------------------------------------------------------------------------- card resources for standard projects

def test_card_resources_for_named_standard_projects_read_back_and_misuse_is_refused():
    source = ('card "Depot" {\n  type: active  cost: 1\n  holds: microbe\n'
              '  effect: use microbes here as 1 MC for standard project "Aquifer" or "Asteroid"\n}\n')
    _reads(source, 'use microbes here as 1 megacredits for standard project "Aquifer" or "Asteroid"',
           "1 MC each towards the Aquifer or Asteroid standard project.")
    # a stock resource pays too (Prefabrication of Human Habitats), 1 MC each; a value of its own is E301
    result = compile_text(source.replace("microbes here as", "plants as"), "<projects>")
    assert [d.code for d in result.errors] == []
    result = compile_text(source.replace("microbes here as 1", "plants as 2"), "<projects>")
    assert [d.code for d in result.errors] == ["E301"]
    result = compile_text(source.replace("microbes here as", "steel here as"), "<projects>")   # bug 2 of trial 9
    assert [(d.code, d.hint) for d in result.errors] == [
        ("E301", 'write: use steel as megacredits for standard project "Aquifer"')]
    result = compile_text(source.replace("MC for", "heat for"), "<projects>")
    assert [d.code for d in result.errors] == ["E301"]


def test_a_standard_project_name_no_project_has_is_e109(tmp_path, capsys):
    from tharsis.cli import main
    path = tmp_path / "depot.mars"
    path.write_text('card "Depot" {\n  type: active  cost: 1\n  holds: microbe\n'
                    '  effect: use microbes here as 1 MC for standard project "Aquifier"\n}\n', encoding="utf-8")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr()
    assert "E109" in out.out + out.err and "Aquifier" in out.out + out.err


# ------------------------------------------------------------------ card filters written several times

def _trigger_card(filters: str) -> str:
    return f'card "Filtered" {{\n  type: active  cost: 0\n  effect: when you play card {filters} -> gain 1 MC\n}}\n'


@pytest.mark.parametrize("filters", ["with space tag with no jovian tag with no earth tag",
                                     "with space tag with no jovian or earth tag"])
def test_several_lacked_tags_all_hold_and_read_back_as_one_filter(filters):
    card = _compile(_trigger_card(filters)).library.cards[0]
    cards = card.passives[0].event.cards
    assert cards.tags_needed == ("space",) and cards.tags_lacked == ("jovian", "earth")
    assert "with space tag with no jovian or earth tag" in text.card(card)
    assert "a card with a space tag with no jovian or earth tag" in rules_text.card(card, "en")
    assert "（无木星或地球标志）" in rules_text.card(card, "zh")


def test_a_filter_that_holds_one_value_given_two_is_e301():
    found = _errors(_trigger_card("holding microbe holding animal"))
    assert [code for code, _, _ in found] == ["E301"] and "given twice" in found[0][1]
    assert not _errors(_trigger_card("holding microbe holding microbe"))


def test_two_costs_keep_the_narrower_range():
    card = _compile(_trigger_card("with space tag with cost >= 10 with cost >= 20 with cost <= 30")).library.cards[0]
    event = card.passives[0].event
    assert (event.min_cost, event.max_cost) == (20, 30)


def test_a_card_type_filter_names_a_type_and_fits_the_type_written_before_the_card():
    card = _compile('card "Deep" {\n  type: event  cost: 0\n  play: reveal cards until 2 with space tag with event '
                    'type\n}\n').library.cards[0]
    assert card.play[0].cards.types == ("event",)
    assert "revealed 2 event cards with a space tag" in rules_text.card(card, "en")
    assert [c for c, _, _ in _errors(_trigger_card("with evnt type"))] == ["E105"]
    moved = 'card "Back" {\n  type: event  cost: 0\n  play: move event with active type from events to hand\n}\n'
    assert [c for c, _, _ in _errors(moved)] == ["E301"]
