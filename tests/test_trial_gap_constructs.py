"""Constructs the Pathfinders cards of trials 6 and 8 needed (issue 30, branch gapsq): a card discount scaled by the
owner's own tags (Mars Direct), tiles off Mars as a count (Interplanetary Transport), and the others as they come.
Each compiles, writes back as the same definitions (fmt keeps its meaning), reads in English and Chinese, and its
misuse is a coded error; tests/scenarios/rules/ plays them."""

import attrs

from tharsis.compiler import compile_text, effects as fx, rules_text, text

CARDS = """
tag mars

corporation "Mars Direct" {
  set: pathfinders  tags: mars
  start: 52 megacredits
  effect: discount 1 on mars cards per your mars tags
  effect: discount 1 on cards per 2 mars tags
}

card "Interplanetary Transport" {
  set: pathfinders  type: automated  cost: 15  tags: earth, jovian, space
  requires: your cities off mars >= 0
  play: production(megacredits +1 per city off mars)
  vp: 1
}
"""


def _compiled(source: str):
    result = compile_text(source, "<gaps>")
    assert [d.message for d in result.diagnostics] == []
    return result.library


def _codes(source: str) -> list:
    return [d.code for d in compile_text(source, "<gaps>").diagnostics]


def _rules(library, name: str, language: str = "en") -> str:
    return rules_text.card(library.get(name), language)


def test_every_construct_compiles_and_writes_back_as_the_same_definitions():
    first = _compiled(CARDS).definitions
    again = _compiled(text.content(first, ("mars",), (), ())).definitions
    assert [attrs.evolve(d, source=None) for d in again] == [attrs.evolve(d, source=None) for d in first]


def test_a_discount_per_your_tags_is_the_owners_count_and_never_written_as_the_played_cards():
    library = _compiled(CARDS)
    own, every = library.get("Mars Direct").passives
    assert own.per_tag is None and own.per.terms == (fx.Measure("tags", name="mars"),)
    canonical = text.content(library.definitions, ("mars",), (), ())
    assert "per your mars tags" in canonical and "per mars tag\n" not in canonical
    assert "per 2 mars tags" in canonical
    assert "1 MC less for each mars tag you have in play" in _rules(library, "Mars Direct")
    assert "你场上每有1个mars标志" in _rules(library, "Mars Direct", "zh")
    # `per mars tag`, one word and `tag`, stays the played card's own tags
    played = _compiled("tag mars\ncard \"A\" { type: active  cost: 1  effect: discount 1 on mars cards per mars tag }")
    assert played.get("A").passives[0].per_tag == "mars"


def test_tiles_off_mars_count_only_spaces_off_mars():
    library = _compiled(CARDS)
    per = library.get("Interplanetary Transport").play[0].changes[0].amount.per
    assert per.terms == (fx.Measure("tiles", scope="all", name="city", off_mars=True),)
    assert "1 step per city off Mars" in _rules(library, "Interplanetary Transport")
    assert "火星以外每有1个城市板块" in _rules(library, "Interplanetary Transport", "zh")


def test_off_mars_with_a_filter_no_off_board_space_passes_is_E301():
    for words in ("cities off mars on mars", "cities off mars next to oceans", "cities off mars in rows 1 to 3"):
        source = f'card "A" {{ type: automated  cost: 1  play: production(megacredits +1 per {words}) }}'
        assert "E301" in _codes(source), words


HABITAT = """
tag mars

corporation "Habitat Marte" {
  set: pathfinders  tags: mars
  start: 40 megacredits
  effect: mars tags count as science tags
}
"""


def test_a_tag_counted_as_another_compiles_reads_and_writes_back():
    library = _compiled(HABITAT)
    assert library.get("Habitat Marte").passives == (fx.TagCountsAs("mars", "science"),)
    assert "mars tags count as science tags" in text.content(library.definitions, ("mars",), (), ())
    assert "Your mars tags also count as science tags." in _rules(library, "Habitat Marte")
    assert "你的mars标志也视为科技标志。" in _rules(library, "Habitat Marte", "zh")


def test_a_tag_counted_as_itself_a_wild_tag_or_the_event_tag_is_a_coded_error():
    card = 'card "A" {{ type: active  cost: 1  effect: {} }}'
    assert "E301" in _codes(card.format("science tags count as science tags"))
    assert "E102" in _codes(card.format("event tags count as science tags"))
    assert "E102" in _codes(card.format("sciense tags count as earth tags"))
    assert "E301" in _codes("tag wild as any tag\n" + card.format("wild tags count as science tags"))


ELON = """
resource science

corporation "Elon Labs" {
  set: pathfinders
  start: 40 megacredits
  effect: when you play card with requirements -> add 1 resource except science to any active card
}
"""


def test_a_resource_left_out_and_a_card_type_in_the_target_compile_read_and_write_back():
    library = _compiled(ELON)
    add = library.get("Elon Labs").passives[0].effects[0]
    assert (add.resource, add.target, add.card_type, add.excluded, add.tag) == \
        ("resource", "any_card", "active", ("science",), None)
    assert "add 1 resource except science to any active card" in text.content(library.definitions, (), ("science",))
    assert "Add 1 resource other than science to one of your active cards." in _rules(library, "Elon Labs")
    assert "在你的一张行动牌上增加1个资源（科学资源除外）" in _rules(library, "Elon Labs", "zh")
    # a tag there stays a tag
    tagged = _compiled('card "A" { type: event  cost: 1  play: add 1 resource to any science card }')
    assert tagged.get("A").play[0].tag == "science" and tagged.get("A").play[0].card_type is None


def test_misused_exclusions_and_types_are_coded_errors():
    card = 'card "A" {{ type: event  cost: 1  play: {} }}'
    assert "E301" in _codes(card.format("add 1 animal except science to any card"))
    assert "E301" in _codes(card.format("add 1 resource except resource to any card"))
    assert "E101" in _codes(card.format("add 1 resource except sciense to any card"))
    assert "E301" in _codes(card.format("add 1 resource to any event card"))


GEOLOGY = """
card "Geological Expedition" {
  set: pathfinders  type: active  cost: 18  tags: science
  effect: when you place tile on mars -> gain 1 more space bonus
  effect: when you place tile on mars on no bonus -> gain 1 steel
  vp: 2
}
"""


def test_one_more_space_bonus_and_a_space_with_no_bonus_compile_read_and_write_back():
    library = _compiled(GEOLOGY)
    more, bare = library.get("Geological Expedition").passives
    assert more.effects == (fx.GainSpaceBonus(1),)
    assert bare.event.filters == (fx.SpaceFilter("mars"), fx.SpaceFilter("no_bonus"))
    canonical = text.content(library.definitions)
    assert "gain 1 more space bonus" in canonical and "on mars on no bonus" in canonical
    read = _rules(library, "Geological Expedition")
    assert "Gain 1 more of a resource the space's placement bonus gives" in read
    assert "on an area with no placement bonus" in read
    assert "放在没有放置奖励的区域" in _rules(library, "Geological Expedition", "zh")


def test_more_space_bonus_outside_a_placement_trigger_is_E307_and_contradicting_bonus_filters_warn():
    assert "E307" in _codes('card "A" { type: automated  cost: 1  play: gain 1 more space bonus }')
    assert "E307" in _codes('card "A" { type: active  cost: 1  effect: when you raise tr -> gain 1 more space bonus }')
    assert "W104" in _codes('card "A" { type: automated  cost: 1  play: place city on no bonus on bonus steel }')
