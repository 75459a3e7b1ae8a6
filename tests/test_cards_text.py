"""`tharsis cards --format text` prints content that checks clean and compiles back to the same definitions.

It is what the engine understood, in the language designers write; a designer may save it, diff it, or start a set
from it, so it must be a complete file: the `tag` and `resource` declarations first, then every kind of definition.
"""

from __future__ import annotations

import attrs
import pytest

from tharsis.cli import main
from tharsis.compiler import compile_paths

DESIGNER_SET = """\
// A designer's set with its own vocabulary.
tag venus
resource floater, bacterium

corporation "Aphrodite Labs" #VL0 {
  set: "venus-labs"  tags: venus, science
  start: 44 megacredits
  holds: floater
  play: add 2 floaters here
  action: remove 2 floaters here -> tr +1 | add 1 floater here
  effect: when you play venus tag -> add 1 floater here
}

card "Cloud Harvester" #VL1 {
  set: "venus-labs"  type: active  cost: 12  tags: venus, space
  requires: venus tags >= 1 and oxygen >= 3%
  holds: floater
  action: add 1 floater here
  vp: 1 per 2 floaters here
}

card "Acid Lakes" #VL2 {
  set: "venus-labs"  type: active  cost: 7  tags: microbe
  holds: bacterium
  action: add 1 bacterium here
}

milestone "Venusian" {
  requires: venus tags >= 4
}

award "Cloud Keeper" {
  measure: resources on cards
}
"""


def _compared(definition) -> tuple:
    """A definition's compiled content, without where it was written."""
    fields = [f.name for f in attrs.fields(type(definition)) if f.name not in ("source", "reference_spans") and f.eq]
    return type(definition).__name__, tuple(getattr(definition, name) for name in fields)


def _text_of(capsys, *paths: str) -> str:
    assert main(["cards", "--format", "text", *paths]) == 0
    return capsys.readouterr().out


def _assert_round_trip(tmp_path, capsys, original, printed: str) -> None:
    dump = tmp_path / "dump.mars"
    dump.write_text(printed, encoding="utf-8")
    again = compile_paths([dump], use_cache=False)
    assert [(d.code, d.message) for d in again.diagnostics] == []
    assert [_compared(d) for d in again.library.definitions] == [_compared(d) for d in original.library.definitions]
    assert main(["check", "--no-with-bundled", "--no-cache", str(dump)]) == 0
    assert "no problems" in capsys.readouterr().out


def test_bundled_content_printed_as_text_checks_clean_and_compiles_to_the_same_definitions(tmp_path, capsys,
                                                                                             bundled):
    printed = _text_of(capsys)
    for kind in ("card", "corporation", "standard project", "standard action", "milestone", "award", "board"):
        assert f'\n{kind} "' in printed, f"no {kind} in the text output"
    _assert_round_trip(tmp_path, capsys, bundled, printed)


def test_a_designers_declarations_are_printed_so_the_text_checks(tmp_path, capsys):
    folder = tmp_path / "venus"
    folder.mkdir()
    (folder / "set.mars").write_text(DESIGNER_SET, encoding="utf-8")
    original = compile_paths([folder], use_cache=False)
    assert original.ok and len(original.library.definitions) == 5
    printed = _text_of(capsys, str(folder))
    assert printed.startswith("tag venus\nresource bacterium, floater\n\n")
    _assert_round_trip(tmp_path, capsys, original, printed)
    # the designer's text is also clean beside the bundled content, as `play --cards` would load it
    again = tmp_path / "again"
    again.mkdir()
    (again / "set.mars").write_text(printed, encoding="utf-8")
    assert main(["check", str(again)]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("kind", ["card", "corporation", "standard_project", "milestone", "board"])
def test_one_kind_printed_as_text_still_checks_clean(tmp_path, capsys, kind):
    printed = _text_of(capsys, "--kind", kind)
    dump = tmp_path / "one_kind.mars"
    dump.write_text(printed, encoding="utf-8")
    result = compile_paths([dump], use_cache=False)
    assert result.diagnostics == []
    # a board comes with the milestones and awards it names, every kind with the declared parameters, kinds of
    # card, pieces, factions and government (declarations, like `tag` lines); and nothing else
    expected = {kind, "parameter", "card_kind", "piece", "faction", "government"} | \
        ({"milestone", "award"} if kind == "board" else set())
    assert {d.kind for d in result.library.definitions} == expected


@pytest.mark.parametrize(("delta", "english", "chinese"), [
    ("+1", "Your titanium is worth 1 MC more.", "你的钛每点多值1 M€。"),
    ("-1", "Your titanium is worth 1 MC less.", "你的钛每点少值1 M€。"),
])
def test_a_value_modifier_reads_more_or_less_by_its_sign(delta, english, chinese):
    """Boom Town's `titanium value -1` (trial 3) read "worth -1 MC more"."""
    from tharsis.compiler import compile_text, rules_text

    source = f'card "Boom Test" {{\n  type: active  cost: 5\n  effect: titanium value {delta}\n}}\n'
    result = compile_text(source, "<t>")
    assert result.diagnostics == [], [(d.code, d.message) for d in result.diagnostics]
    card = result.library.cards[0]
    assert english in rules_text.card(card, "en")
    assert chinese in rules_text.card(card, "zh")
