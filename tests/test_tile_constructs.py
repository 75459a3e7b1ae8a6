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
