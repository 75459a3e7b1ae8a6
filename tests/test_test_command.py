"""`tharsis test` as CI meets it: -k selection, JUnit XML, one read per scenario file, [tool.tharsis] defaults."""

import textwrap
import xml.etree.ElementTree as ET

import pytest

from tharsis.cli import main
from tharsis.cli.commands.test import keyword_matcher
from tharsis.designer import scenarios

OCEANS = textwrap.dedent("""\
    - name: Aquifer raises the oceans
      options: {players: [alice, bob]}
      setup:
        players:
          alice: {resources: {megacredits: 20}}
      steps:
        - project: Aquifer
          choose: [space 04]
      expect:
        globals: {oceans: 1}

    - name: Aquifer costs 18 (a wrong expectation)
      options: {players: [alice, bob]}
      setup:
        players:
          alice: {resources: {megacredits: 20}}
      steps:
        - project: Aquifer
          choose: [space 04]
      expect:
        players:
          alice: {resources: {megacredits: 5}}

    - name: Asteroid raises the temperature
      options: {players: [alice, bob]}
      setup:
        players:
          alice: {resources: {megacredits: 14}}
      steps:
        - project: Asteroid
      expect:
        globals: {temperature: -28}

    - name: A known bug still fails
      xfail: the engine does not do this yet
      options: {players: [alice, bob]}
      setup:
        players:
          alice: {resources: {megacredits: 14}}
      steps:
        - project: Asteroid
      expect:
        globals: {temperature: 0}
""")


@pytest.fixture
def suite(tmp_path):
    (tmp_path / "oceans.yaml").write_text(OCEANS, encoding="utf-8")
    (tmp_path / "broken.yaml").write_text("- name: [unclosed\n", encoding="utf-8")
    return tmp_path


def test_k_selects_scenarios_by_words_of_their_name(suite, capsys):
    assert main(["test", str(suite / "oceans.yaml"), "-k", "aquifer and not wrong"]) == 0
    out = capsys.readouterr().out
    assert "PASS" in out and "Aquifer raises the oceans" in out
    assert "Asteroid" not in out and "wrong expectation" not in out
    assert "3 scenarios not matching -k aquifer and not wrong\n1 passed, 0 failed" in out


def test_k_matches_the_file_name_too(suite, capsys):
    assert main(["test", str(suite), "-k", "broken"]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "broken.yaml" in out and "0 passed, 1 failed" in out


def test_k_that_matches_nothing_fails_and_says_so(suite, capsys):
    assert main(["test", str(suite / "oceans.yaml"), "-k", "greenery"]) == 1
    assert "no scenario matches -k greenery" in capsys.readouterr().err


def test_a_k_expression_that_does_not_parse_is_a_usage_error(suite, capsys):
    assert main(["test", str(suite), "-k", "aquifer and (oceans"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "tharsis: error[E732]: -k: 'aquifer and (oceans' has a '(' that is never closed",
        "     = hint: words joined by and, or, not and parentheses: -k 'ocean and not bonus'"]


@pytest.mark.parametrize("expression, text, wanted", [
    ("aquifer", "oceans.yaml Aquifer raises", True),
    ("AQUIFER or asteroid", "Asteroid", True),
    ("not (aquifer or asteroid)", "Asteroid", False),
    ("oceans and not wrong", "oceans.yaml Aquifer costs 18 (a wrong expectation)", False),
])
def test_keyword_expressions_work_like_pytest(expression, text, wanted):
    assert keyword_matcher(expression)(text) is wanted


def test_junit_xml_reports_each_scenario_with_its_outcome(suite, tmp_path, capsys):
    report = tmp_path / "out" / "junit.xml"
    report.parent.mkdir()
    assert main(["test", str(suite), "--junit-xml", str(report), "-q"]) == 1
    root = ET.parse(report).getroot()
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == ("5", "1", "1", "1")
    suites = {s.get("name").rsplit("/", 1)[-1]: s for s in root.findall("testsuite")}
    assert set(suites) == {"oceans.yaml", "broken.yaml"}
    cases = {c.get("name"): c for c in suites["oceans.yaml"].findall("testcase")}
    assert list(cases) == ["Aquifer raises the oceans", "Aquifer costs 18 (a wrong expectation)",
                           "Asteroid raises the temperature", "A known bug still fails"]
    assert len(cases["Aquifer raises the oceans"]) == 0  # passed: no child element
    failure = cases["Aquifer costs 18 (a wrong expectation)"].find("failure")
    assert "megacredits" in failure.get("message") and "5" in failure.text
    assert cases["A known bug still fails"].find("skipped").get("message") == \
        "known bug: the engine does not do this yet"
    assert float(cases["Asteroid raises the temperature"].get("time")) >= 0
    error = suites["broken.yaml"].find("testcase").find("error")
    assert "not valid YAML" in error.get("message")
    assert [case.get("line") for case in cases.values()] == ["1", "12", "24", "34"]  # where each scenario begins


def test_a_failed_expectation_says_the_file_and_line_that_expected_it(suite, capsys):
    assert main(["test", str(suite / "oceans.yaml"), "-k", "wrong"]) == 1
    assert f"     {suite / 'oceans.yaml'}:22:7: end: alice's megacredits is 2, expected 5\n" in capsys.readouterr().out


ANSWERED_ALONE = textwrap.dedent("""\
    - name: An answer written for a choice the game did not have to ask
      cards: |
        card "Fork" #X1 {
          type: event  cost: 0
          play: choose { lose 1 plants | gain 1 steel }
        }
      setup:
        players:
          alice: {resources: {megacredits: 14}, hand: [Fork]}
      steps:
        - play: Fork
          choose: [gain 1 steel]
      expect:
        players:
          alice: {resources: {steel: 1}}
""")


def test_answers_not_used_say_which_decision_had_one_option_and_answered_itself(tmp_path, capsys):
    (tmp_path / "fork.yaml").write_text(ANSWERED_ALONE, encoding="utf-8")
    assert main(["test", str(tmp_path / "fork.yaml")]) == 1
    assert ("step 1: answers not used: ['gain 1 steel'] ('Choose one' had one option (gain 1 steel) and was "
            "answered by itself)") in capsys.readouterr().out


STATE_TYPO = textwrap.dedent("""\
    - name: An unknown key of the saved state
      options: {expansions: [prelude]}
      setup:
        discard: [Comet]
        players:
          alice: {played: [Pets]}
      expect:
        state:
          nothing: 1
          players.0.nothing: 1
""")


def test_an_unknown_state_key_lists_every_key_that_can_be_read(tmp_path, capsys):
    """The list was cut at 12 keys, so `discard`, `piles` and a player's `played` were never named."""
    (tmp_path / "state.yaml").write_text(STATE_TYPO, encoding="utf-8")
    assert main(["test", str(tmp_path / "state.yaml")]) == 1
    out = capsys.readouterr().out
    top = out[out.index("state nothing is"):].split("\n")[0]
    player = out[out.index("state players.0.nothing is"):].split("\n")[0]
    for key in ("players", "tiles", "deck", "discard", "piles", "kept"):
        assert f" {key}," in top or f" {key}>" in top, top
    for key in ("hand", "played", "events", "resources", "production"):
        assert f" {key}," in player or f" {key}>" in player, player


def test_offers_of_a_decision_that_was_not_asked_says_how_many_were(tmp_path, capsys):
    (tmp_path / "twice.yaml").write_text(textwrap.dedent("""\
        - name: Two placements, the third checked
          cards: |
            card "Twin Oceans" #TW1 { type: event  cost: 0  play: place ocean; place ocean }
          setup:
            players:
              alice: {hand: [Twin Oceans]}
          steps:
            - play: Twin Oceans
              choose: [space 06, space 07]
              offers: {3: [space 08]}
        - name: A decision numbered 0
          setup:
            players:
              alice: {hand: [Comet]}
          steps:
            - play: Comet
              offers: {0: [space 08]}
    """), encoding="utf-8")
    assert main(["test", str(tmp_path / "twice.yaml")]) == 1
    out = capsys.readouterr().out
    assert "step 1: 2 decision(s) about 'space' were asked, not 3" in out
    assert "error[E607]" in out and "'0' is no decision's number" in out


def test_junit_xml_to_an_unwritable_place_is_a_usage_error(suite, tmp_path, capsys):
    report = tmp_path / "no" / "such" / "dir" / "j.xml"
    assert main(["test", str(suite), "--junit-xml", str(report)]) == 2
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        f"tharsis: error[E708]: --junit-xml: cannot write the JUnit report to '{report}': No such file or directory",
        "     = hint: --junit-xml FILE in a folder you can write, e.g. --junit-xml junit.xml"]
    assert captured.out == ""  # refused before any scenario runs


def test_each_scenario_file_is_read_once(suite, monkeypatch, capsys):
    reads = []
    real_load = scenarios.load
    monkeypatch.setattr(scenarios, "load", lambda path: reads.append(path.name) or real_load(path))
    main(["test", str(suite / "oceans.yaml")])
    assert reads == ["oceans.yaml"]


def test_scenario_and_card_paths_come_from_the_configuration(suite, monkeypatch, capsys):
    (suite / "pyproject.toml").write_text('[tool.tharsis]\nscenarios = ["oceans.yaml"]\n', encoding="utf-8")
    monkeypatch.chdir(suite)
    assert main(["test", "-k", "raises"]) == 0
    assert "2 passed, 0 failed" in capsys.readouterr().out
