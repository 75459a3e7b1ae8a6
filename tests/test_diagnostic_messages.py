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


# ------------------------------------------------------------------ a syntax error hides nothing (issue 34)

SEVERAL = """resource floater

card "Cloud Harvester" #VL1 {
  set: "venus-labs"  type: active  cost: 12  tags: sceince, space
  requires: science tags >= 1
  holds: floatr
  play: draw 1 card
  action: add 1 floatr here
  vp: 1 per 2 floatrs here
}

card "Typo Type" #FX1 {
  type: activ  cost 14
  tgas: spce
  requires oxygen => 5%
  action: gian 1 heat
  effect: when you plays city tile -> gain 1 plantss
}
"""


def test_a_syntax_error_does_not_hide_the_rest_of_its_cards_problems():
    found = sorted((d.span.line, d.span.column, d.code) for d in compile_text(SEVERAL, "mine.mars").diagnostics)
    assert [(line, code) for line, _, code in found] == [
        (4, "E102"), (6, "E101"), (7, "E001"), (8, "E101"), (9, "E101"), (13, "E105"), (13, "E001"), (14, "E001"),
        (14, "E102"), (15, "E001"), (15, "E002"), (16, "E001"), (17, "E001"), (17, "E101")]
    # nothing is said of a field that was left out to read on (no missing type or cost, no free card)
    assert not any(d.code.startswith("E2") for d in compile_text(SEVERAL, "mine.mars").diagnostics)


def test_check_fix_repairs_every_problem_of_a_broken_card_in_one_run(tmp_path, capsys):
    from tharsis.cli import main

    path = tmp_path / "mine.mars"
    path.write_text(SEVERAL, encoding="utf-8")
    assert main(["check", "--fix", "--no-with-bundled", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "14 fixes made in 1 file; no problems left"
    assert "  play: draw 1\n" in path.read_text(encoding="utf-8")


def test_a_card_that_cannot_be_read_further_says_more_may_follow():
    text = 'card "Open" #OP1 {\n  type: automated  cost: 5\n  play: choose { gain 1 heat | gain 2 plants\n  vp: 2\n}\n'
    [error] = compile_text(text, "open.mars").diagnostics
    assert error.hint.endswith("; more problems of this definition may follow: the rest of it is checked once this "
                               "is fixed")
    text = 'card "Bad" #OP2 oops {\n  type: automated  cost: 5\n}\n'
    [error] = compile_text(text, "bad.mars").diagnostics
    assert "more problems of this definition may follow" in error.hint


def test_a_broken_cards_fields_are_checked_but_it_stays_out_of_the_library():
    result = compile_text('card "Half" #H1 {\n  type: automated  cost: 5\n  play: gain 2 plants;\n}\n', "half.mars")
    assert [d.code for d in result.diagnostics] == ["E001"] and result.library.definitions == []


def test_draw_n_cards_is_fixed_and_the_expected_words_fit_the_position():
    [(code, message, hint, fixes)] = diagnose("  play: draw 1 card")
    assert (code, message, fixes) == ("E001", "unexpected 'card': 'draw 1' takes nothing more here", [""])
    assert hint == "did you mean 'draw 1'? (draw N [per QUANTITY])"
    [(_, _, hint, _)] = diagnose("  play: gain 2 plants 3")
    assert hint == "expected ;, a name, per, }, a field on a line of its own"
    for field in ("at:", "deal:", "ends game:", "offboard:", "scale:"):   # fields no card has
        assert field not in hint
    [(_, message, hint, _)] = diagnose("  flavour: red")
    assert message == "unknown field 'flavour:'" and "fields: action:, cost:, effect:" in hint and "deal:" not in hint


# ------------------------------------------------------------------ lose N: one meaning (issue 34)

RULE = 'rule "Tithe" {{\n  at: end of generation\n  play: {play}\n}}\n'


@pytest.mark.parametrize("text, where", [
    (RULE.format(play="lose 3 megacredits"), "a rule's effects"),
    ('card "Drain" #LZ1 {\n  type: active  cost: 3\n  effect: when you play building tag -> lose 1 steel\n}\n',
     "a trigger's effects"),
    ('parameter "radiation" {\n  scale: 0 to 4 step 1\n  track: 2 -> lose 2 heat\n}\n', "a track bonus"),
])
def test_a_loss_nothing_can_refuse_must_say_up_to(text, where):
    [error] = [d for d in compile_text(text, "lose.mars").diagnostics if d.code == "E307"]
    assert error.message.endswith(f"takes resources the player must have, but {where} are carried out unchecked: "
                                  "nothing can refuse them")
    assert error.hint.startswith("write 'lose up to ")
    [fix] = error.fixes
    assert fix.replacement.startswith("up to ")


def test_a_loss_where_the_effects_are_checked_first_stays_as_written():
    checked = RULE.format(play="each player { lose 2 plants }; choose { lose 1 heat | gain 1 steel }; "
                               "may { lose 1 steel; gain 2 megacredits }; lose up to 3 megacredits")
    assert compile_text(checked, "lose.mars").diagnostics == []
    card = ('card "Press" #LZ2 {\n  type: active  cost: 3\n  play: lose 2 plants\n'
            '  action: spend 1 energy -> lose 1 heat\n}\n')
    assert compile_text(card, "lose.mars").diagnostics == []
    [error] = compile_text(RULE.format(play="spend 2 energy"), "lose.mars").diagnostics
    assert error.code == "E307" and error.fixes == ()


# ------------------------------------------------------------------ excerpts of files that are not clean text

def test_an_excerpt_escapes_what_is_not_printable_and_puts_the_caret_under_it(tmp_path, capsys):
    from tharsis.cli import main

    (tmp_path / "ctrl.mars").write_bytes(b'card "A" #EX1 {\n  type: automated  cost: 3\n  play: gain 1 heat \x01\n}\n')
    (tmp_path / "latin.mars").write_bytes('card "Caf\xe9" #EX2 {\n}\n'.encode("latin-1"))
    (tmp_path / "junk.mars").write_bytes(b"\x7fELF\x02\x01\x00" + bytes(range(1, 256)) * 4)
    main(["check", "--no-with-bundled", str(tmp_path)])
    out = capsys.readouterr().out
    assert "   3 |   play: gain 1 heat \\x01\n     |                     ^^^^\n" in out
    assert '   1 | card "Caf\\xe9" #EX2 {\n     |          ^^^^\n' in out
    junk = out[out.index("junk.mars:1:7:"):].splitlines()
    assert junk[1].startswith("   1 | \\x7fELF\\x02\\x01\\x00") and len(junk[1]) <= 210
    assert junk[2] == "     | " + " " * 15 + "^^^^"   # under \\x00, after \\x7f, ELF, \\x02 and \\x01
    assert "\ufffd" not in out and "\x1b" not in out and "\x00" not in out


def test_a_coded_problems_excerpt_escapes_too():
    from tharsis.problems import Problem, render

    said = render([Problem("E716", "a log line that is not JSON", path="game.jsonl", line=3, column=8,
                           source='{"a": \x1b]52;c;\x07 1}')])
    # the caret under column 8 (the ']' after the escape character), moved by the escape's width
    assert said.splitlines()[1:] == ['   3 | {"a": \\x1b]52;c;\\x07 1}', "     | " + " " * 10 + "^"]


def test_a_standard_resource_at_a_value_of_its_own_without_a_tag_is_not_told_to_write_here():
    """`use plants as 3 megacredits for building cards` was hinted `use plants here as 3 megacredits`, a form for
    resources on the card (plants are none). A stock resource now pays at a value of its own for cards with a tag
    (Martian Lumber Corp); without a tag the hint says so, and never `heat here`."""
    [(code, message, hint, _)] = diagnose("  effect: use heat as 2 megacredits", kind="active")
    assert code == "E301" and "only for cards with a tag" in message
    assert "heat here" not in hint
    assert "use heat as 2 megacredits for building cards" in hint and "use heat as megacredits" in hint
    assert diagnose("  effect: use plants as 3 megacredits for building cards", kind="active") == []


def test_a_card_resource_at_a_value_of_its_own_is_told_to_write_here():
    text = ('resource spore\ncard "Message" #MS1 {\n  type: active  cost: 9  tags: space\n  holds: spore\n'
            '  effect: use spores as 3 megacredits for space cards\n}\n')
    hints = [d.hint for d in compile_text(text, "message.mars").diagnostics if d.code == "E301"]
    assert "write: use spores here as 3 megacredits for space cards" in hints


def test_steel_at_a_value_of_its_own_is_told_of_its_value_modifier():
    [(_, _, hint, _)] = diagnose("  effect: use steel as 3 megacredits", kind="active")
    assert "steel value +1" in hint


@pytest.mark.parametrize("field, written", [("needs", "promo-spaces"), ("set", "my-set")])
def test_a_name_with_a_hyphen_is_told_to_be_quoted(field, written):
    """`needs: promo-spaces` was E001 "unexpected '-'" with "expected ,, }, ...": nothing said that such a name is
    written in quotes."""
    [(code, message, hint, fixes)] = diagnose(f"  {field}: {written}\n  play: draw 1")
    assert (code, message) == ("E001", "unexpected '-'")
    assert f'a name with \'-\' in it is written in quotes: {field}: "{written}"' in hint
    assert fixes == [f'"{written}"']
    quoted = compile_text(f'expansion "{written}" {{\n}}\ncard "Message" #MS1 {{\n  type: automated  cost: 9\n'
                          f'  {field}: "{written}"\n  play: draw 1\n}}\n', "message.mars")
    assert [d.code for d in quoted.errors] == []


def test_the_tiles_next_to_it_are_counted_only_in_a_placement_trigger():
    """`your tiles next to it` counts around the tile that set a `when ... places tile` trigger off: anywhere else
    there is no such tile (issue 30, trial 4: Philares)."""
    [(code, message, _, _)] = diagnose("  play: gain 1 MC per your tiles next to it")
    assert code == "E307" and message.startswith("'your tiles next to it' counts the tiles around the tile")
    assert diagnose("  effect: when you play card -> gain 1 MC per opponent tiles next to it", kind="active")[0][0] \
        == "E307"
    assert diagnose("  effect: when any player places city tile -> gain 1 MC per your tiles next to it",
                    kind="active") == []


def test_next_to_opponent_is_a_tile_filter_not_a_claim_one():
    [(code, message, _, _)] = diagnose("  play: claim space next to opponent claim")
    assert (code, message) == ("E301", "'next to opponent' counts other players' tiles, not claims")
    assert diagnose("  play: place city next to opponent tile") == []
    assert diagnose("  play: place city on opponent claim")[0][:2] == ("E301", "'on ... claim' is a space with your "
                                                                              "own marker")
