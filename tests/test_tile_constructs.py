"""Tiles in the language (issue 30): every filter of a placement trigger is read of the tile just placed, and a filter
that means nothing where it is written is refused there with a coded error; tests/scenarios/rules/
placement-triggers.yaml plays the filters."""

import pytest

from tharsis.compiler import compile_text, effects as fx


def _diagnostics(line: str):
    return compile_text(f'card "Probe" {{\n  type: active  cost: 1\n  {line}\n}}\n', "<probe>").diagnostics


@pytest.mark.parametrize("line, column, wanted", [
    ("effect: when you place tile ignoring adjacency -> gain 1 MC", 31, "'ignoring adjacency' lifts a rule"),
    ('effect: when you play card except "Aquifer" -> gain 1 MC', 30, "'except' names a standard project, not a card"),
    ("effect: when you use standard project with vp -> gain 1 MC", 41, "a standard project has no victory points"),
    ("effect: when you use standard project with no tags -> gain 1 MC", 41, "a standard project has no tags"),
])
def test_a_trigger_filter_with_no_meaning_is_refused_where_it_is_written(line, column, wanted):
    found = [d for d in _diagnostics(line) if d.severity == "error"]
    assert [(d.code, d.span.line, d.span.column) for d in found] == [("E301", 3, column)]
    assert wanted in found[0].message and found[0].hint


@pytest.mark.parametrize("line, kinds", [
    ("effect: when any player places city tile next to your tile -> gain 1 MC", ("next_to",)),
    ('effect: when you place tile on land on reserved "Noctis City" -> gain 1 MC', ("land", "reserved")),
    ("effect: when you place greenery tile on volcanic isolated -> gain 1 MC", ("volcanic", "isolated")),
    ("effect: when you place tile on ocean on mars -> gain 1 MC", ("ocean", "mars")),
])
def test_every_placement_filter_of_a_trigger_compiles_into_the_event(line, kinds):
    result = compile_text(f'card "Probe" {{\n  type: active  cost: 1\n  {line}\n}}\n', "<probe>")
    assert [d.message for d in result.diagnostics] == []
    trigger = result.library.get("Probe").passives[0]
    assert isinstance(trigger, fx.Trigger) and tuple(f.kind for f in trigger.event.filters) == kinds


# ---------------------------------------------------------------- replacing one of your tiles with another kind

REPLACING = """
card "Kaguya Tech" {
  set: promo  type: automated  cost: 10  tags: city, plant
  play: production(megacredits +2); draw 1; replace your greenery tile with city
}

card "Harbour Reclamation" {
  type: event  cost: 4
  play: replace your city tile next to 2 oceans with greenery; gain 2 plants
}

card "Survey Monument" {
  type: automated  cost: 7  tags: building
  play: replace your tile on bonus steel or titanium with special "Survey Monument"
  vp: 1 per adjacent city
}
"""


def test_a_replacement_compiles_writes_back_as_written_and_counts_as_the_card_s_tile():
    from tharsis.compiler import text

    result = compile_text(REPLACING, "<replacing>")
    assert [d.message for d in result.diagnostics] == []
    library = result.library
    assert library.get("Kaguya Tech").play[-1] == fx.ReplaceTile("greenery", "city")
    assert library.get("Harbour Reclamation").play[0] == fx.ReplaceTile(
        "city", "greenery", filters=(fx.SpaceFilter("next_to", count=2, tile="ocean"),))
    assert library.get("Survey Monument").play[0].name == "Survey Monument"
    again = compile_text(text.content(library.definitions, (), (), ()), "<again>")
    assert [d.play for d in again.library.definitions] == [d.play for d in library.definitions]


@pytest.mark.parametrize("language, expected", [
    ("en", ["Replace one of your greenery tiles with a city tile, regardless of placement rules",
            "Replace one of your city tiles next to at least 2 oceans with a greenery tile",
            "with a special tile (Survey Monument)"]),
    ("zh", ["将你的1个绿化板块替换为1个城市板块，无视放置规则",
            "将你的1个城市板块（与至少2个海洋板块相邻）替换为1个绿化板块"]),
])
def test_a_replacement_reads_as_rules_text(language, expected):
    from tharsis.compiler import rules_text

    library = compile_text(REPLACING, "<replacing>").library
    read = "\n".join(rules_text.card(d, language) for d in library.cards)
    for phrase in expected:
        assert phrase in read


@pytest.mark.parametrize("line, code, column, wanted", [
    ("play: replace your ocean tile with city", "E301", 22, "an ocean belongs to nobody"),
    ("play: replace your city tile with ocean", "E301", 37, "an ocean belongs to nobody"),
    ("play: replace your city tile with city", "E301", 37, "is the same kind of tile"),
    ("play: replace your city tile with special", "E201", 37, "a special tile needs a name"),
    ("play: replace your citty tile with greenery", "E103", 22, "unknown tile 'citty'"),
    ("play: replace your tile ignoring adjacency with city", "E301", 27, "'ignoring adjacency' lifts a rule"),
    ("play: replace your greenery tile isolated next to city with city", "W104", 9,
     "no tile of yours can be the one replaced"),
])
def test_a_replacement_that_cannot_be_meant_is_reported_where_it_is_written(line, code, column, wanted):
    found = _diagnostics(line)
    assert [(d.code, d.span.line, d.span.column) for d in found] == [(code, 3, column)]
    assert wanted in found[0].message


def test_completion_offers_your_tiles_and_the_kinds_that_may_replace_them(tmp_path):
    from tharsis.designer.lsp.analysis import analyse

    text = 'card "Probe" {\n  type: event  cost: 1\n  play: replace your \n}\n'
    replaced = {item.label for item in analyse(str(tmp_path / "p.mars"), text).completions(2, 21)}
    assert {"greenery", "city", "special", "tile"} <= replaced and "ocean" not in replaced
    text = 'card "Probe" {\n  type: event  cost: 1\n  play: replace your city tile with \n}\n'
    new = {item.label for item in analyse(str(tmp_path / "p.mars"), text).completions(2, 36)}
    assert {"greenery", "special"} <= new and "ocean" not in new and "tile" not in new


@pytest.mark.parametrize("line, outcome", [
    ('effect: when any player places city tile on reserved "Noctis Citty" -> gain 1 MC', "this trigger never fires"),
    ('play: replace your city tile on reserved "Nowhere" with greenery', "no tile of yours can be replaced there"),
])
def test_a_reserved_space_no_board_has_is_warned_of_in_a_trigger_and_a_replacement(tmp_path, line, outcome):
    from tharsis.compiler import bundled_cards_path, compile_paths

    path = tmp_path / "probe.mars"
    path.write_text(f'card "Probe" {{\n  type: active  cost: 1\n  {line}\n}}\n', encoding="utf-8")
    result = compile_paths([bundled_cards_path(), path])
    found = [d for d in result.diagnostics if d.code == "W102"]
    assert len(found) == 1 and outcome in found[0].message and found[0].span.line == 3
