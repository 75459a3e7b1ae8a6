"""Termination is guaranteed and explained (issue 30): what a designer declares can no longer hang a game.

Before any game, `check` warns of a parameter the game waits for that nothing in play can raise to its top (W114)
and of a trigger cycle it can see (W113, with the cycle's path). In a game, the engine bounds the steps one decision
may take and the generations a game may last, and stops a game that would not end with E770, naming the
definitions involved: in a scenario, `play`, `replay` and `simulate` (which records the game as failed and goes on).
Each case is the issue's reproducer; each subprocess-free run is bounded by the bounds themselves (a regression
would hang, so the slow ones run under a timeout in a child process).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tharsis.cli import main
from tharsis.compiler import compile_text
from tharsis.runtime.core.flow import MAX_STEPS_PER_DECISION
from tharsis.runtime.sequence.phases import MAX_GENERATIONS

DOCS = Path(__file__).resolve().parent.parent / "docs"
LAB = 'expansion "lab" { }\n'

# a parameter that ends the game, raised by nothing
NEVER_RAISED = LAB + 'parameter "dust" {\n  set: lab\n  scale: 0 to 10 step 1\n}\n'
# a track bonus that lowers the parameter and a trigger that raises it on every raise
CYCLE = LAB + '''parameter "dust" {
  set: lab
  scale: 0 to 10 step 1
  ends game: no
  track: 3 -> dust -1
}

card "Dust Devil" #LAB1 {
  set: lab  type: active  cost: 1
  effect: when you raise dust -> dust +1
}

card "Dust Storm" #LAB2 {
  set: lab  type: event  cost: 1
  play: dust +1
}
'''
# a kind whose `unplayable:` plays more cards of its own kind, none of which can be played
SET_UP_LOOP = LAB + '''card kind "mission" {
  set: lab
  deal: 2 keep 1
  unplayable: look 1 mission cards play 1
}
''' + "".join(f'card "Impossible {n}" #LAB{n} {{\n  set: lab  type: mission\n  requires: oxygen >= 14%\n'
              f'  play: draw 2\n}}\n' for n in range(3, 6))


def _warnings(text: str) -> list[tuple[str, str]]:
    result = compile_text(text, "mine.mars")
    assert not result.errors, [(d.code, d.message) for d in result.errors]
    return [(d.code, d.message) for d in result.diagnostics]


def _folder(tmp_path: Path, text: str, name: str = "mine") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "cards.mars").write_text(text, encoding="utf-8")
    return folder


# ------------------------------------------------------------------ check: W114 and W113

def test_a_parameter_that_ends_the_game_and_that_nothing_raises_is_w110_at_its_name():
    result = compile_text(NEVER_RAISED, "mine.mars")
    [warning] = result.diagnostics
    assert warning.code == "W114" and (warning.span.line, warning.span.column) == (2, 11)
    assert "nothing in play with it raises it: no game with it would ever end" in warning.message
    assert "ends game: no" in warning.hint


def test_a_scale_too_long_for_raises_that_happen_once_is_w110_with_the_count():
    text = NEVER_RAISED + 'card "Dust Cloud" #D1 { set: lab  type: event  cost: 3  play: dust +2 }\n' \
                          'card "Dust Wall" #D2 { set: lab  type: automated  cost: 9  play: dust +3 }\n'
    [(code, message)] = _warnings(text)
    assert code == "W114"
    assert "its scale has 10 steps and what raises it (Dust Cloud, Dust Wall) raises it 5 in all, once a game" \
        in message


@pytest.mark.parametrize("raiser", [
    'standard project "Sweep" { set: lab  cost: 10  play: dust +1 }',          # can happen again
    'card "Dust Pump" #D3 { set: lab  type: active  cost: 9  action: dust +1 }',
    'rule "Drift" { set: lab  at: end of generation  play: neutral { dust +1 } }',
    'card "Big Dust" #D4 { set: lab  type: event  cost: 9  play: dust +10 }',   # once, but enough
])
def test_a_parameter_that_can_reach_its_top_is_no_warning(raiser):
    assert _warnings(NEVER_RAISED + raiser + "\n") == []


def test_a_parameter_raised_only_in_another_expansion_is_still_w110():
    text = NEVER_RAISED + 'expansion "other" { }\nstandard project "Sweep" { set: other  cost: 10  play: dust +1 }\n'
    # and W115: the standard project changes a parameter of a set it is dealt without
    assert [code for code, _ in _warnings(text)] == ["W114", "W115"]


def test_a_parameter_that_does_not_end_the_game_needs_no_raiser():
    assert _warnings(NEVER_RAISED.replace("step 1\n", "step 1\n  ends game: no\n")) == []


def test_the_issues_trigger_cycle_is_w109_with_its_path_at_the_trigger():
    result = compile_text(CYCLE, "mine.mars")
    [warning] = result.diagnostics
    assert warning.code == "W113" and warning.span.line == 9
    assert warning.message == (
        "a trigger cycle that may never end: Dust Devil (when you raise dust -> dust +1) sets itself off again; "
        "the track bonus of dust at 3 (dust -1) lowers dust again, so it never reaches its top")


def test_a_cycle_of_two_cards_names_both_in_order():
    text = LAB + 'resource spore\n' \
                 'card "A" #A1 { set: lab  type: active  cost: 1  holds: spore  effect: when you raise tr -> ' \
                 'add 1 spore here }\n' \
                 'card "B" #B1 { set: lab  type: active  cost: 1  effect: when you add spore -> tr +1 }\n'
    [(code, message)] = _warnings(text)
    assert code == "W113"
    assert message.startswith("a trigger cycle that may never end: A (when you raise tr -> add 1 spore here) -> "
                              "B (when you add spore -> tr +1) -> A (")
    assert message.endswith("(TR has no top to stop it)") or message.endswith("(card resources has no top to stop it)")


def test_a_trigger_limited_to_once_per_action_breaks_the_cycle():
    text = LAB + 'resource spore\n' \
                 'card "A" #A1 { set: lab  type: active  cost: 1  holds: spore  effect: once per action when you ' \
                 'raise tr -> add 1 spore here }\n' \
                 'card "B" #B1 { set: lab  type: active  cost: 1  effect: when you add spore -> tr +1 }\n'
    assert _warnings(text) == []
    assert [code for code, _ in _warnings(text.replace("once per action when", "when"))] == ["W113"]


def test_raises_that_stop_at_the_top_are_no_cycle():
    # every raise of dust sets it off again, but nothing lowers dust: it stops at 10
    assert _warnings(CYCLE.replace("  track: 3 -> dust -1\n", "")) == []


def test_the_bundled_content_has_no_termination_warning():
    from tharsis.compiler import bundled_cards_path, compile_paths

    result = compile_paths([bundled_cards_path()])
    assert [d for d in result.diagnostics if d.code in ("W113", "W114")] == []


def test_a_scale_that_counts_down_is_e302_not_a_parameter_that_vanishes():
    result = compile_text('parameter "dust" {\n  scale: 0 to 10 step -1\n}\n', "mine.mars")
    [error] = result.diagnostics
    assert (error.code, error.span.line, error.span.column) == ("E302", 2, 23)
    assert error.message.endswith("0 to 10 in steps of -1 does not")


# ------------------------------------------------------------------ in a game: E770

def test_a_scenario_stops_a_trigger_cycle_with_e770_naming_the_card_and_the_track(tmp_path, capsys):
    folder = _folder(tmp_path, CYCLE)
    (tmp_path / "cycle.yaml").write_text(
        "- name: the cycle stops\n  options: {expansions: [lab]}\n  setup:\n    players:\n      alice:\n"
        "        resources: {megacredits: 20}\n        hand: [Dust Storm]\n        played: [Dust Devil]\n"
        "  steps:\n    - play: Dust Storm\n  expect:\n    players:\n      alice: {resources: {megacredits: 19}}\n",
        encoding="utf-8")
    assert main(["test", str(tmp_path / "cycle.yaml"), "--cards", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "cycle.yaml:10:7: error[E770]: the game would never end: one decision took more than 100,000 steps" in out
    assert "repeating the trigger of Dust Devil (25,000 times); the track bonus of dust at 3 (24,999 times)" in out
    assert "internal error" not in out


def test_simulate_records_each_endless_game_as_failed_and_goes_on(tmp_path, capsys):
    """The generation bound: a game that waits for a parameter nothing raises stops after MAX_GENERATIONS."""
    folder = _folder(tmp_path, NEVER_RAISED)
    out = tmp_path / "results.jsonl"
    assert main(["simulate", "--games", "2", "--jobs", "1", "--seed", "4", "--quiet", "--cards", str(folder),
                 "--expansion", "lab", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["seed"] for r in records] == [4, 5]
    for record in records:
        assert record["failed"]["code"] == "E770" and record["failed"]["definitions"] == ["dust"]
        assert record["failed"]["message"] == (
            f"the game would never end: {MAX_GENERATIONS} generations passed (a game lasts 8 to 20) and the "
            "parameters it waits for are not at their top: dust at 0 (its top: 10)")
    assert "tharsis: error[E770]: seed 4: the game would never end" in err
    assert "2 of 2 games failed" in err


def test_a_failed_game_has_no_rows_in_csv_and_report_reads_around_it(tmp_path):
    from tharsis.games import results_files

    good = {"seed": 1, "board": "Tharsis", "options": {}, "winner": "a", "tie_break": False, "generations": 9,
            "players": [{"seat": "a", "bot": "random", "corporation": "X", "total": 50, "played": []},
                        {"seat": "b", "bot": "random", "corporation": "Y", "total": 40, "played": []}]}
    failed = {"seed": 2, "board": "Tharsis", "options": {}, "failed": {"code": "E770", "message": "m",
                                                                       "definitions": []}}
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(failed) + "\n" + json.dumps(good) + "\n", encoding="utf-8")
    assert [r["seed"] for r in results_files.read(str(path))] == [1]
    writer = results_files.open_results(tmp_path / "r.csv", "csv")
    writer.write(failed)
    writer.close()
    assert (tmp_path / "r.csv").read_text(encoding="utf-8").count("\n") == 1   # the header only


def test_a_set_up_loop_stops_play_and_its_replay_with_the_same_e770(tmp_path):
    """A kind whose `unplayable` plays more of its kind loops at set-up: play stops with E770 and logs the choice
    that set it off, so `replay` and `play --load` stop there too. In a child process, under a timeout."""
    folder = _folder(tmp_path, SET_UP_LOOP)
    log = tmp_path / "game.jsonl"

    def tharsis(*argv: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "tharsis", *argv], cwd=tmp_path, capture_output=True,
                              text=True, timeout=240)

    played = tharsis("play", "--seat", "a=greedy", "--seat", "b=random", "--seed", "3", "--cards", str(folder),
                     "--expansion", "lab", "--log", str(log))
    assert played.returncode == 1, played.stderr
    assert "error[E770]: the game would never end: one decision took more than 100,000 steps" in played.stderr
    assert "Impossible" in played.stderr and " unplayable (" in played.stderr
    for argv in (("replay", str(log)), ("play", "--load", str(log))):
        again = tharsis(*argv)
        assert again.returncode == 1 and "error[E770]" in again.stderr, again.stderr
        assert "internal error" not in again.stderr


def test_the_bounds_are_documented_with_their_values():
    language = (DOCS / "language.md").read_text(encoding="utf-8")
    assert f"{MAX_STEPS_PER_DECISION:,} steps" in language and f"{MAX_GENERATIONS} generations" in language
    errors = (DOCS / "errors.md").read_text(encoding="utf-8")
    for code in ("W113", "W114", "E770"):
        assert f"| {code} |" in errors
