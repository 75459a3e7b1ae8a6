"""What a designer new to the language met writing published cards from the docs alone (issue 30), each the
reported case: the event tag in reveals and counts, `tharsis cards PATH` beside the bundled declarations, where a
declared kind's unplayable card goes, and refusals that name what is missing."""

from __future__ import annotations

from tharsis.cli import main
from tharsis.compiler import compile_text
from tharsis.designer.scenarios import Outcome, Runner, run

LAB = 'expansion "lab" { }\n'


def _passes(spec: dict) -> None:
    outcome = run(spec)
    assert outcome.error is None, outcome.error
    assert outcome.failures == [], outcome.failures


def test_reveal_until_with_event_tag_takes_event_cards():
    _passes({"name": "reveal until 2 with event tag", "cards": 'card "Event Finder" #R1 { type: automated  cost: 1  '
             'play: reveal cards until 2 with event tag }',
             "setup": {"whole deck": ["Comet", "Birds", "Asteroid", "Lichen"],
                       "players": {"alice": {"resources": {"megacredits": 5}, "hand": ["Event Finder"]}}},
             "steps": [{"play": "Event Finder"}],
             "expect": {"players": {"alice": {"hand": ["Comet", "Asteroid"]}}}})


def test_event_tags_count_the_events_played_instead_of_being_an_unknown_tag():
    card = 'card "Event Fan" #R2 { type: automated  cost: 1  vp: 1 per 2 event tags }'
    assert compile_text(card).diagnostics == []
    _passes({"name": "event tags", "cards": card,
             "setup": {"players": {"alice": {"played": ["Event Fan"],
                                             "events": ["Comet", "Asteroid", "Big Asteroid"]}}},
             "expect": {"score": {"alice": {"cards": 1}}}})


def test_cards_path_compiles_beside_the_bundled_declarations(tmp_path, capsys):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "cards.mars").write_text(
        'card "Cloud Skimmer" #V1 {\n  set: venus  type: active  cost: 9  tags: venus\n  holds: floater\n'
        '  action: add 1 floater here\n}\n'
        'card "Small Prelude" #V2 {\n  set: prelude  type: prelude\n  play: gain 3 plants\n}\n', encoding="utf-8")
    assert main(["cards", str(mine)]) == 0
    out = capsys.readouterr().out
    assert "Cloud Skimmer" in out and "Small Prelude" in out and out.rstrip().endswith("2 definitions")
    assert main(["cards", str(mine), "--format", "text"]) == 0
    text = capsys.readouterr().out
    (tmp_path / "again.mars").write_text(text, encoding="utf-8")
    assert main(["check", "--no-with-bundled", str(tmp_path / "again.mars")]) == 0   # the output checks alone


def _kind(where: str) -> str:
    return LAB + ('card kind "mission" { set: lab  deal: 1 keep 1  unplayable: gain 10 megacredits' + where + ' }\n'
                  'card "Impossible" #M1 { set: lab  type: mission  requires: oxygen >= 14%  play: draw 2 }\n')


def _pile_grows(where: str) -> int:
    """Alice keeps a mission she cannot play: by how many cards the mission pile grows as she gets its 10 MC."""
    spec = {"name": "where an unplayable card goes", "cards": _kind(where), "options": {"expansions": ["lab"]},
            "setup": {"players": {"alice": {"kept": ["Impossible"]}}}, "steps": [{"kept cards": None}],
            "expect": {"players": {"alice": {"resources": {"megacredits": 10}}}}}
    runner = Runner(spec, Outcome(spec["name"], "<test>"), None)
    before = len([c for c in runner.game.state.piles["mission"] if c != "Impossible"])   # a kept card leaves it
    runner.run()
    assert runner.outcome.failures == []
    return len(runner.game.state.piles["mission"]) - before


def test_a_kind_that_says_discard_sets_its_unplayable_card_aside():
    assert _pile_grows("  unplayable to: discard") == 0


def test_a_kind_puts_its_unplayable_card_under_its_pile_by_default():
    assert _pile_grows("") == 1
    assert _pile_grows("  unplayable to: pile") == 1


def test_an_unknown_place_for_an_unplayable_card_is_e110_with_the_choices():
    [error] = compile_text(_kind("  unplayable to: bin")).diagnostics
    assert error.code == "E110" and "pile, discard" in error.hint


def test_a_refused_card_names_what_is_missing():
    _passes({"name": "a card that needs 2 plants says so",
             "cards": 'card "Plant Press" #P1 { type: automated  cost: 3  play: lose 2 plants; gain 5 megacredits }',
             "setup": {"players": {"alice": {"resources": {"megacredits": 10, "plants": 1},
                                             "hand": ["Plant Press"]}}},
             "steps": [{"play": "Plant Press",
                        "refused": "its effects cannot all be carried out: 'lose 2 plants' needs 2 plants "
                                   "(you have 1)"}]})


def test_a_refused_production_names_the_effect_and_why():
    _passes({"name": "no energy production to lose",
             "cards": 'card "Smelter" #P2 { type: automated  cost: 3  play: production(energy -1, steel +1) }',
             "setup": {"players": {"alice": {"resources": {"megacredits": 10}, "hand": ["Smelter"]}}},
             "steps": [{"play": "Smelter", "refused": "its effects cannot all be carried out: 'production(energy -1, "
                                                      "steel +1)' cannot be carried out (when a decrease would take a "
                                                      "production below its least"}]})
