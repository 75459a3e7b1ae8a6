"""The messages issue 20 found wrong: each mistake gets one diagnostic in the designer's words, with the repair."""

from pathlib import Path

import pytest

from tharsis.compiler import compile_text

BROKEN = Path(__file__).resolve().parent / "broken"


def diagnose(body: str, kind: str = "automated") -> list[tuple[str, str, str | None, list[str]]]:
    text = f'card "Message" #MS1 {{\n  type: {kind}  cost: 9\n{body}\n}}\n'
    result = compile_text(text, "message.mars")
    return [(d.code, d.message, d.hint, [f.replacement for f in d.fixes]) for d in result.diagnostics]


def test_a_misspelt_type_is_one_error_not_three():
    """`type: activ` was followed by two errors about "an automated card" having an action and an effect."""
    assert diagnose("  action: draw 1\n  effect: when you play space tag -> draw 1", kind="activ") == [
        ("E105", "unknown card type 'activ'", "did you mean 'active'?", ["active"])]


@pytest.mark.parametrize("subject, verb", [("you", "place"), ("any player", "places"),
                                           ("another player", "places")])
def test_a_tile_played_is_told_it_is_placed(subject, verb):
    [(code, message, hint, fixes)] = diagnose(f"  effect: when {subject} plays city tile -> draw 1", kind="active")
    assert (code, message, fixes) == ("E001", "a city tile is placed, not played", [verb])
    assert hint.startswith(f"did you mean '{verb}'?")


def test_a_field_without_its_colon_before_a_condition_is_named():
    """`cost 14` said "needs a ':'" and `requires oxygen >= 5%` did not (its word was taken as the cost's unit)."""
    assert diagnose("  requires oxygen >= 5%\n  play: draw 1") == [
        ("E001", "'requires' needs a ':' after it", "write 'requires:'", ["requires:"])]
    text = 'card "Message" #MS1 {\n  type: automated  cost 14\n  play: draw 1\n}\n'
    [d] = compile_text(text, "message.mars").diagnostics
    assert (d.message, [f.replacement for f in d.fixes]) == ("'cost' needs a ':' after it", ["cost:"])


def test_a_negative_cost_says_so():
    """`cost: -3` said "expected a number"."""
    text = 'card "Message" #MS1 {\n  type: automated  cost: -3\n  play: draw 1\n}\n'
    [d] = compile_text(text, "message.mars").diagnostics
    assert (d.code, d.message, d.span.column) == ("E302", "a cost can't be negative: -3", 26)
    assert "discount" in d.hint and d.fixes == ()


def test_no_grammar_name_reaches_a_designer():
    """`expected __anon_1`: keywords the grammar writes in quotes are shown as their words."""
    [(code, message, hint, _)] = diagnose("  play: 3 heat")
    assert "__anon" not in hint.lower() and "expected a name, add, advance, any, " in hint
    for path in sorted(BROKEN.glob("*.mars")):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for d in compile_text(text, path.name).diagnostics:
            assert "__anon" not in f"{d.message} {d.hint}".lower(), (path.name, d.message, d.hint)


def test_zero_is_no_longer_silent():
    assert diagnose("  play: gain 0 heat") == [
        ("W103", "'gain 0 heat' does nothing", "give the amount it should have, or remove the effect", [])]
