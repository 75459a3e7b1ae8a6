"""Design lints (compiler/lints.py): card text that compiles but cannot mean what its designer wanted is a warning
with a code of its own (W103-W108), and nothing the bundled content or the docs write is one."""

import pytest

from tharsis.compiler import compile_text

LINTS = ("W103", "W104", "W105", "W106", "W107", "W108")


def warnings(body: str, *, kind: str = "active", extra: str = "") -> list[tuple[str, str]]:
    text = f'{extra}card "Lint" #LT1 {{\n  type: {kind}  cost: 5  tags: science\n{body}\n}}\n'
    result = compile_text(text, "lint.mars")
    assert result.errors == [], [d.message for d in result.errors]
    return [(d.code, d.message) for d in result.warnings]


def codes(body: str, **kwargs) -> list[str]:
    return [code for code, _ in warnings(body, **kwargs)]


@pytest.mark.parametrize("body, message", [
    ("  play: gain 0 heat", "'gain 0 heat' does nothing"),
    ("  play: production(heat +0)", "'heat +0' changes no production"),
    ("  play: tr +0", "'tr +0' does nothing"),
    ("  play: draw 0", "'draw 0' does nothing"),
    ("  effect: discount 0 on cards", "'discount 0' makes nothing cheaper"),
    ("  effect: steel value +0", "'steel value +0' changes nothing"),
    ("  play: draw 1\n  vp: 0", "'vp: 0' scores nothing"),
])
def test_an_amount_of_zero_does_nothing(body, message):
    assert warnings(body) == [("W103", message)]


@pytest.mark.parametrize("body, message", [
    ("  play: gain 1 MC per tr + 1 max 5",
     "'max 5' caps only the number 1 before it, which is never above 5, so it changes nothing"),
    ("  play: gain 1 MC per tr + 9 max 5", "'max 5' caps only the number 9 before it, which is always 5 then"),
])
def test_a_cap_on_a_number_in_a_sum_is_warned_of(body, message):
    """`floaters here + 1 max 5` reads as a cap on the sum; a cap bounds the term it follows (Saturn Surfing)."""
    found = warnings(body)
    assert [code for code, _ in found] == ["W103"] and message in found[0][1]
    assert codes("  play: gain 1 MC per tr max 4 + 1") == []


@pytest.mark.parametrize("body, message", [
    ("  play: place greenery on ocean on land", "no space can take this tile: a space is never both 'on ocean' "
                                               "and 'on land'"),
    ("  play: place city isolated next to ocean", "'isolated' means no tile next to it"),
    ("  play: place city next to 4 cities next to 3 oceans", "a space has 6 neighbours, and this asks for 7"),
    ("  play: if temperature > 8C { gain 2 heat }", "the condition can never be met ('temperature > 8C', and it "
                                                   "runs from -30C to 8C)"),
    ("  play: if oxygen >= 0% { gain 2 heat } else { draw 1 }", "the condition is always met, so the 'else' never"),
    ("  action: require oceans > 9; draw 1", "this requirement can never be met ('oceans > 9'"),
    ("  play: choose X from 10 up to oceans { gain X heat }", "X runs from 10 up to at most 9"),
])
def test_an_effect_that_can_never_happen(body, message):
    [(code, said)] = warnings(body)
    assert code == "W104" and message in said


def test_a_requirement_that_can_never_be_met_on_a_card_a_milestone_and_a_declared_parameter():
    assert warnings("  requires: oxygen > 14%\n  play: draw 1") == [
        ("W105", "this requirement can never be met: 'oxygen > 14%', and it runs from 0% to 14%")]
    assert warnings("  requires: plant tags >= 3 and plant tags < 2\n  play: draw 1") == [
        ("W105", "this requirement can never be met: 'plant tags < 2' contradicts the comparison before it")]
    result = compile_text('milestone "Shrinker" { requires: cities < 0 }\n', "m.mars")
    assert [(d.code, d.span.column) for d in result.warnings] == [("W105", 34)]
    declared = 'parameter "radiation" { scale: 0% to 20% step 2%  ends game: no }\n'  # W114 aside
    assert codes("  requires: radiation > 20%\n  play: draw 1", extra=declared) == ["W105"]
    assert codes("  requires: radiation >= 20%\n  play: draw 1", extra=declared) == []


@pytest.mark.parametrize("effect", ["when you play card with cost >= 20 with cost <= 10 -> draw 1",
                                    "when you play card with cost < 0 -> draw 1",
                                    "when any player places city tile on ocean on volcanic -> draw 1"])
def test_a_trigger_that_can_never_fire(effect):
    [(code, message)] = warnings(f"  effect: {effect}")
    assert code == "W106" and message.startswith("this trigger can never fire: ")


def test_victory_points_that_can_never_be_scored():
    assert warnings("  play: draw 1\n  vp: 2 if oceans > 9") == [
        ("W107", "these points can never be scored: 'oceans > 9', and it runs from 0 to 9")]
    assert warnings("  play: draw 1\n  vp: 1 per 10 oceans") == [
        ("W107", "these points can never be scored: oceans never reaches 10 (at most 9)")]


def test_an_effect_given_twice():
    assert codes("  play: production(plants +1, plants +1)") == ["W108"]
    assert codes("  play: choose { gain 2 plants | gain 2 plants }") == ["W108"]
    assert codes("  action: draw 1 | draw 1") == ["W108"]
    assert codes("  play: if oceans >= 3 { draw 1 } else { draw 1 }") == ["W108"]
    assert warnings("  effect: when you play plant tag -> gain 1 plant\n"
                    "  effect: when you play plant tag -> gain 1 plant") == [
        ("W108", "the same effect is given twice, so it happens twice")]


@pytest.mark.parametrize("body", [
    "  play: place greenery on ocean",               # a filter replaces the default rule (Mangrove)
    "  play: place ocean on land",
    "  play: place city next to 2 cities next to 1 city",  # one city may count for both
    "  play: place ocean; place ocean",              # the same as `place 2 oceans`
    "  play: if oxygen >= 5% { gain 2 heat } else { draw 1 }",
    "  play: choose X up to heat production { production(heat -X, megacredits +X) }",
    "  requires: oxygen <= 14% and oxygen >= 14%\n  play: draw 1",
    "  effect: when any player places ocean tile on land -> draw 1",
    "  play: production(megacredits -5)",
    "  play: draw 1\n  vp: 1 per 9 oceans",
    "  requires: megacredits production >= -5\n  play: draw 1",
])
def test_what_a_designer_may_well_mean_is_no_warning(body):
    assert codes(body) == []


def test_no_bundled_definition_and_no_docs_example_is_warned_about(bundled):
    assert [(d.code, d.span.path, d.span.line) for d in bundled.warnings if d.code in LINTS] == []


def test_a_lint_can_be_silenced_on_its_line(tmp_path, capsys):
    from tharsis.cli import main

    path = tmp_path / "quiet.mars"
    path.write_text('card "Quiet" #LT2 {\n  type: automated  cost: 5\n'
                    '  play: gain 0 heat  // tharsis: ignore[W103]\n}\n', encoding="utf-8")
    assert main(["check", "--strict", "--no-with-bundled", str(path)]) == 0
    assert "no problems" in capsys.readouterr().out
    assert main(["check", "--strict", "--no-with-bundled", "--ignore", "W1", str(path)]) == 0


def test_a_tag_count_no_card_can_have_is_a_trigger_that_never_fires():
    """Issue 30, trial 7: `with tags >= N` beside a filter it contradicts (no tags, fewer tags than the tags named,
    a lower bound above the upper) is W106, where a card of that many tags is not."""
    from tharsis.compiler import compile_text
    text = '''card "Never Ear" #LAB71 {
  set: lab  type: active  cost: 0
  effect: when you play card with no tags with tags >= 1 -> gain 1 heat
  effect: when you play card with earth tag with tags == 0 -> gain 1 heat
  effect: when you play card with tags >= 3 with tags <= 1 -> gain 1 heat
  effect: when you play card with tags >= 2 -> gain 1 heat
}
'''
    result = compile_text(text, "never.mars")
    lines = sorted(d.span.line for d in result.diagnostics if d.code == "W106")
    assert lines == [3, 4, 5]
