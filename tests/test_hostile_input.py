"""Hostile card text ends in a clear, positioned error, quickly: the inputs of issue 10, with what the designer reads.

The corpus (tests/broken/, test_broken_corpus.py) pins their codes and positions; this file pins the words a
designer reads (the hints), and the time: each of these inputs at tens of thousands of characters used to take
6-14 s in the parser's error recovery (a regex search anchored at the end retried every start position).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tharsis.cli import main
from tharsis.compiler import compile_text

BROKEN = Path(__file__).resolve().parent / "broken"
HEAD = 'card "Stress" #S1 {\n  type: automated  cost: 10\n'


def _only(source: str):
    result = compile_text(source, "hostile.mars")
    assert len(result.diagnostics) == 1, [(d.code, d.message) for d in result.diagnostics]
    return result.diagnostics[0]


# Each input is ~20-40k characters; a linear recovery takes well under a second even on a loaded machine, the
# quadratic one took 6-14 s.
PATHOLOGICAL = {
    "long word before an unexpected field": HEAD + "  play: gain 1 " + "a" * 20_000 + " x: 3\n}\n",
    "long word where a field starts": HEAD + "  " + "b" * 20_000 + " tgas: 3\n}\n",
    "separator, spaces, then more": HEAD + "  play: gain 1 plants;" + " " * 40_000 + "gain 2 }\n",
    "separator, blank lines, then more": HEAD + "  play: gain 1 plants;" + " \n" * 20_000 + "gain 2 }\n",
    "long misspelt effect": HEAD + "  play: gain 1 plants; " + "g" * 20_000 + " 2 plants\n}\n",
    "many comment slashes after a separator": HEAD + "  play: gain 1 plants; " + "// " * 15_000 + "\n}\n",
    "40,000 closing braces": "}" * 40_000,
    "many long numbers": HEAD + "  play: " + "; ".join(["gain 1234567 plants"] * 3_000) + "\n}\n",
}


@pytest.mark.parametrize("source", PATHOLOGICAL.values(), ids=PATHOLOGICAL.keys())
def test_pathological_input_gets_positioned_errors_in_bounded_time(source):
    started = time.perf_counter()
    result = compile_text(source, "hostile.mars")
    elapsed = time.perf_counter() - started
    assert result.errors, "hostile input must not pass"
    assert all(d.span is not None and d.span.line >= 1 and d.span.column >= 1 for d in result.diagnostics)
    assert elapsed < 3, f"{elapsed:.1f} s"


def test_a_number_python_cannot_read_is_a_positioned_error_not_a_crash(capsys):
    path = BROKEN / "number_longer_than_python_reads.mars"
    assert main(["check", "--no-cache", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:4:14: error[E007]: the number 99999999...9999 is too long (5000 digits; at most 6)" in out
    assert "internal error" not in out


def test_digits_in_names_strings_comments_and_card_numbers_are_not_numbers():
    source = ('card "Year 20000000" #A12345678 {\n  type: automated  cost: 10\n'
              '  play: gain 2 plants  // 123456789\n}\n')
    assert compile_text(source).diagnostics == []


def test_a_keyword_is_a_whole_word():
    anyone = _only(HEAD + "  play: remove 2 plants from anyone\n}\n")
    assert (anyone.code, anyone.span.line, anyone.span.column, anyone.message) == \
        ("E001", 3, 30, "unexpected 'anyone'")
    assert anyone.span.end_column - anyone.span.column == len("anyone")
    glued = _only(HEAD + "  play: steal 2 plants from anyplayer\n}\n")
    assert glued.message == "unexpected 'anyplayer'"  # it used to pass as 'any player'
    trigger = _only('card "T" #S2 {\n  type: active  cost: 3\n  effect: when anyone plays card -> draw 1\n}\n')
    assert (trigger.span.column, trigger.message) == (16, "unexpected 'anyone'")
    assert "did you mean 'any'?" in trigger.hint


@pytest.mark.parametrize("written, meant", [("=>", ">="), ("=<", "<="), ("≥", ">="), ("=", "==")])
def test_a_misspelt_comparison_gets_a_did_you_mean(written, meant):
    diagnostic = _only(HEAD + f"  requires: oxygen {written} 5%\n}}\n")
    assert (diagnostic.code, diagnostic.span.line, diagnostic.span.column) == ("E002", 3, 20)
    assert diagnostic.hint.startswith(f"did you mean '{meant}'?")


@pytest.mark.parametrize("requirement, fix", [("oxygen >= 5", "5%"), ("temperature <= -12", "-12C"),
                                              ("oxygen <= 3 and temperature >= 0", "3%")])
def test_a_global_requirement_needs_its_unit(requirement, fix):
    result = compile_text(HEAD + f"  requires: {requirement}\n}}\n")
    first = result.errors[0]
    assert first.code == "E303" and first.message.endswith(f"needs its unit: {fix}")
    assert first.hint == f"write {fix}"


def test_oceans_have_no_unit():
    assert compile_text(HEAD + "  requires: oceans >= 3\n}\n").diagnostics == []


def test_a_duplicate_number_is_reported_while_the_first_card_has_a_syntax_error():
    result = compile_text('card "A" #D1 {\n  type: automated  cost 9\n}\n\ncard "B" #D1 {\n'
                          '  type: automated  cost: 9\n}\n\ncard "A" #D2 {\n  type: automated  cost: 9\n}\n')
    assert [(d.code, d.span.line, d.span.column) for d in result.diagnostics] == [
        ("E001", 2, 20), ("E402", 5, 6), ("E401", 9, 6)]
    assert result.diagnostics[1].message == "card number #D1 is already used by 'A'"


def test_a_scenario_naming_a_card_that_is_not_loaded_says_so(tmp_path, capsys):
    """Forgetting `--cards mine/` must not read like a typo for some bundled card."""
    scenario = tmp_path / "mine.yaml"
    scenario.write_text("name: my card gives plants\nsetup:\n  players:\n    alice:\n      hand: [Mining Rigs]\n"
                        "steps:\n  - alice plays Mining Rigs\n", encoding="utf-8")
    assert main(["test", str(scenario)]) == 1
    out = capsys.readouterr().out
    assert "card 'Mining Rigs' is not in the loaded content" in out
    assert "--cards DIR" in out
