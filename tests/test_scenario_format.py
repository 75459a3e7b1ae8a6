"""Hostile and mistaken scenario files: every one is that scenario's clear error, never the end of the run.

tests/broken_scenarios/ holds one file per way a scenario file can be wrong (a typo in a key, a value of the wrong
type, six players, an unknown board, a YAML alias bomb, nesting thousands of levels deep, a 5,000-digit number,
...). Its `.expected` golden file lists, per scenario in file order, `CODE LINE:COL` of the error `tharsis test`
must report (E6xx, docs/errors.md) or `PASS`. Every file must be handled within a few seconds and without a
traceback; `tharsis test` on the whole folder reports each error and exits 1.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tharsis.cli import main
from tharsis.designer import scenario_format, scenarios

BROKEN = Path(__file__).resolve().parent / "broken_scenarios"
CASES = sorted(BROKEN.glob("*.yaml"))
POSITION = re.compile(r":(\d+):(\d+): error\[(E6\d\d)\]")


def _outcomes(path: Path) -> list[str]:
    """`CODE LINE:COL` of each scenario's first error, or PASS, as `tharsis test` runs the file."""
    try:
        specs = scenarios.load(path)
    except scenarios.ScenarioError as exc:
        return [_first_error(str(exc))]
    results = []
    for spec in specs:
        outcome = scenarios.run(spec, str(path))
        if outcome.passed:
            results.append("PASS")
        elif outcome.error:
            results.append(_first_error(outcome.error))
        else:
            results.append("FAIL " + "; ".join(outcome.failures))
    return results


def _first_error(text: str) -> str:
    match = POSITION.search(text)
    assert match, f"an error without file:line:col and an E6xx code: {text}"
    line, column, code = match.groups()
    return f"{code} {line}:{column}"


def test_the_corpus_covers_every_scenario_error_code():
    expected = {line.split()[0] for case in CASES for line in case.with_suffix(".expected").read_text().split("\n")
                if line.startswith("E")}
    documented = set(re.findall(r"^\| (E6\d\d) \|", (Path(__file__).parent.parent / "docs" / "errors.md")
                                .read_text(encoding="utf-8"), flags=re.M))
    assert expected - {"E612", "E699"} <= documented
    assert documented >= {"E601", "E602", "E603", "E604", "E605", "E606", "E607", "E608", "E609", "E610", "E611",
                          "E612", "E613", "E699"}


@pytest.mark.parametrize("path", CASES, ids=[c.stem for c in CASES])
def test_each_broken_scenario_file_gives_its_positioned_error_quickly(path):
    started = time.perf_counter()
    actual = _outcomes(path)
    elapsed = time.perf_counter() - started
    expected = path.with_suffix(".expected").read_text(encoding="utf-8").split()
    assert " ".join(actual).split() == expected
    assert elapsed < 10, f"{path.name} took {elapsed:.1f} s"


def test_an_alias_bomb_stops_at_the_value_limit_without_growing():
    text = (BROKEN / "alias_bomb.yaml").read_text()
    assert len(text) < 500  # a few hundred bytes that would expand to 9^9 values
    started = time.perf_counter()
    with pytest.raises(scenario_format.FormatError) as caught:
        scenario_format.read("bomb.yaml", text)
    assert caught.value.diagnostic.code == "E602"
    assert time.perf_counter() - started < 2


def test_unknown_keys_get_a_did_you_mean():
    outcome = scenarios.run_file(BROKEN / "player_key_typo.yaml")[0]
    assert "unknown key 'trr' in 'expect.players.alice'" in outcome.error
    assert "did you mean 'tr'?" in outcome.error
    assert "   9 |       alice: {trr: 99}" in outcome.error  # the source line, with a caret under the key
    outcome = scenarios.run_file(BROKEN / "expect_typo.yaml")[0]
    assert "did you mean 'expect'?" in outcome.error


def test_merge_keys_and_aliases_within_the_limits_still_work(tmp_path):
    path = tmp_path / "merge.yaml"
    path.write_text("- &base\n  name: Power Plant raises energy production\n  setup:\n    players:\n"
                    "      alice: {resources: {megacredits: 11}}\n  steps: [{project: Power Plant}]\n"
                    "  expect: {players: {alice: {production: {energy: 1}}}}\n"
                    "- <<: *base\n  name: The same, twice\n  steps: [{project: Power Plant}, {project: Power Plant,"
                    " refused: costs 11}]\n")
    outcomes = scenarios.run_file(path)
    assert [o.status for o in outcomes] == ["PASS", "PASS"], [o.error or o.failures for o in outcomes]


def test_tharsis_test_reports_every_broken_file_and_exits_1(capsys):
    code = main(["test", str(BROKEN)])
    out, err = capsys.readouterr()
    assert code == 1
    assert "internal error" not in out + err and "Traceback" not in out + err
    for case in CASES:
        for line in case.with_suffix(".expected").read_text().split("\n"):
            if line.startswith("E"):
                assert f"error[{line.split()[0]}]" in out
    assert "PASS tests/broken_scenarios/wrong_types.yaml: a good scenario after the broken ones" in \
        out.replace(str(BROKEN.parent.parent) + "/", "")
