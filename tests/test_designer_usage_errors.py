"""The designer and CI commands (`check`, `fmt`, `test`, `gallery`, `cards`) refuse a bad flag as the game
commands do: every problem of the run with a stable E7xx/E8xx code (docs/errors.md), a did-you-mean where the words
are a closed list, exit code 2, nothing else done, and for `check --format json|github|sarif` the problems in that
report. (Missing paths, E705, are tested in tests/test_broken_corpus.py.) At the end: card text as `check` meets it,
where a designer's own vocabulary and a field left incomplete must be understood and reported where they stand."""

import json
import re
from pathlib import Path

import pytest

from tharsis.cli import main
from tharsis.compiler import compile_paths
from tharsis.designer.code_filter import WARNINGS

TESTS = Path(__file__).resolve().parent
CARD_FILE = str(TESTS / "broken" / "typo_in_tag.mars")        # exists; usage errors stop before it is read
SCENARIO_FILE = str(TESTS / "scenarios" / "rules" / "triggers.yaml")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_every_bad_select_and_ignore_code_is_e804_with_a_did_you_mean(capsys):
    code, out, err = run(capsys, "check", CARD_FILE, "--select", "w102,W1O2", "--ignore", "W9",
                         "--ignore", "W190", "--select", "E1")
    assert code == 2 and out == ""
    assert err.splitlines() == [
        "tharsis: error[E804]: --select w102: 'w102' is not a diagnostic code or prefix",
        "     = hint: did you mean 'W102'?",
        "tharsis: error[E804]: --select W1O2: 'W1O2' is not a diagnostic code or prefix",
        "     = hint: did you mean 'W102'?",
        "tharsis: error[E804]: --select E1: 'E1' names errors, which cannot be selected or ignored",
        "     = hint: a definition with an error does not compile; fix the error instead",
        "tharsis: error[E804]: --ignore W9: no warning code starts with W9",
        "     = hint: warnings: W001, W102, W103, W104, W105, W106, W107, W108, W113, W114, W115, W801, W802",
        "tharsis: error[E804]: --ignore W190: no warning has the code W190",
        "     = hint: did you mean 'W108'?"]


def test_a_code_that_is_neither_close_nor_well_formed_gets_the_forms_of_a_code(capsys):
    code, _, err = run(capsys, "check", CARD_FILE, "--ignore", "unused")
    assert code == 2
    assert err.splitlines() == [
        "tharsis: error[E804]: --ignore unused: 'unused' is not a diagnostic code or prefix",
        "     = hint: codes look like W102 (one warning), W1 (W100-W199) or W (every warning)"]


def test_an_unknown_code_in_the_configuration_is_e804_at_its_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.tharsis]\ncards = ["."]\nignore = ["W201", "W8"]\n',
                                             encoding="utf-8")
    code, _, err = run(capsys, "check")
    assert code == 2
    assert "pyproject.toml:3:1: error[E804]: 'ignore': no warning has the code W201" in err
    assert "did you mean 'W801'?" in err and err.endswith("tharsis: fix the configuration above\n")


@pytest.mark.parametrize("interval", ["0", "-1", "0.001", "nan", "inf", "1e308", "86400"])
def test_an_interval_out_of_range_is_e701_before_anything_is_checked(interval, capsys):
    code, out, err = run(capsys, "check", "--watch", "--interval", interval, CARD_FILE)
    assert code == 2 and out == ""
    assert err == f"tharsis: error[E701]: --interval must be between 0.01 and 3600 seconds, not {float(interval):g}\n"


def test_an_interval_without_watch_is_e706_as_flags_that_do_not_go_together(capsys):
    code, out, err = run(capsys, "check", "--interval", "2", CARD_FILE)
    assert code == 2 and out == ""
    assert err.splitlines() == [
        "tharsis: error[E706]: --interval is how often --watch looks for changes, and there is no --watch",
        "     = hint: add --watch, or drop --interval"]


@pytest.mark.parametrize("command, what, key", [(["check"], "check", "cards"), (["fmt", "--check"], "format", "cards"),
                                                (["test"], "test", "scenarios")])
def test_nothing_to_work_on_is_e731(command, what, key, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.tharsis]\nstrict = true\n", encoding="utf-8")
    code, out, err = run(capsys, *command)
    assert code == 2 and out == ""
    assert err.startswith(f"tharsis: error[E731]: {what} what? no PATH given, and no '{key}' in pyproject.toml\n"
                          f"     = hint: give a PATH, or list your ")


def test_fmt_reports_standard_input_misuse_and_missing_paths_together(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "fmt", "-", "gone.mars")
    assert code == 2 and out == ""
    assert err.splitlines() == [
        "tharsis: error[E706]: - (standard input) must be the only PATH",
        "     = hint: check the files, or pipe one file to standard input, in separate runs",
        "tharsis: error[E705]: PATH: no such file or folder: 'gone.mars'"]
    code, _, err = run(capsys, "fmt", "--stdin-filename", "a.mars", CARD_FILE)
    assert code == 2 and err.startswith("tharsis: error[E706]: --stdin-filename names standard input")


def test_check_puts_usage_errors_into_the_report_format_asked_for(capsys):
    code, out, err = run(capsys, "check", "--format", "json", "--watch", "--interval", "0", "--select", "W1x",
                         CARD_FILE)
    assert code == 2 and err == ""
    assert [(d["code"], d["message"]) for d in json.loads(out)["diagnostics"]] == [
        ("E804", "--select W1x: 'W1x' is not a diagnostic code or prefix"),
        ("E701", "--interval must be between 0.01 and 3600 seconds, not 0")]
    code, out, _ = run(capsys, "check", "--format", "github", "-", CARD_FILE)
    assert code == 2 and out.startswith("::error title=E706::- (standard input) must be the only PATH")
    code, out, _ = run(capsys, "check", "--format", "sarif", "--ignore", "E1", CARD_FILE)
    notes = json.loads(out)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert code == 2 and [n["descriptor"]["id"] for n in notes] == ["E804"]


def test_check_puts_configuration_errors_into_the_report_too(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.tharsis]\ncards = ["."]\nigonre = ["W1"]\n', encoding="utf-8")
    code, out, err = run(capsys, "check", "--format", "json")
    assert code == 2 and err == ""
    assert json.loads(out)["diagnostics"] == [{
        "code": "E802", "severity": "error", "message": "unknown key 'igonre' in [tool.tharsis]",
        "hint": "did you mean 'ignore'?", "path": "pyproject.toml", "line": 3, "column": 1, "end_line": 3,
        "end_column": 7}]
    code, out, _ = run(capsys, "check", "--format", "github")
    assert code == 2 and out.startswith("::error file=pyproject.toml,line=3,col=1,")


def test_test_reports_a_bad_k_and_an_unwritable_report_together_before_running(tmp_path, capsys):
    code, out, err = run(capsys, "test", SCENARIO_FILE, "-k", "ocean or", "--junit-xml", str(tmp_path))
    assert code == 2 and out == ""
    assert err.splitlines() == [
        "tharsis: error[E732]: -k: 'ocean or' ends where a word was expected",
        "     = hint: words joined by and, or, not and parentheses: -k 'ocean and not bonus'",
        f"tharsis: error[E708]: --junit-xml: cannot write the JUnit report to '{tmp_path}': it is a folder",
        "     = hint: --junit-xml FILE in a folder you can write, e.g. --junit-xml junit.xml"]


@pytest.mark.parametrize("expression, message", [
    ("   ", "give at least one word"),
    ("(ocean", "'(ocean' has a '(' that is never closed"),
    ("ocean )", "'ocean )': unexpected ')'"),
    ("and ocean", "'and ocean': expected a word before 'and'"),
])
def test_each_k_expression_that_does_not_parse_is_e732(expression, message, capsys):
    code, out, err = run(capsys, "test", SCENARIO_FILE, "-k", expression)
    assert code == 2 and out == ""
    assert err.splitlines()[0] == f"tharsis: error[E732]: -k: {message}"


def test_an_empty_junit_xml_name_is_e708(capsys):
    code, out, err = run(capsys, "test", SCENARIO_FILE, "--junit-xml", "")
    assert code == 2 and out == ""
    assert err.startswith("tharsis: error[E708]: --junit-xml: cannot write the JUnit report to '': give a file name")


def test_an_empty_gallery_dir_is_e730_and_nothing_is_written(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "gallery", "", CARD_FILE)
    assert code == 2 and out == ""
    assert err.splitlines() == ["tharsis: error[E730]: DIR is empty: the gallery needs a folder to go into",
                                "     = hint: name a new or existing folder: tharsis gallery site/"]
    assert list(tmp_path.iterdir()) == []


def test_the_warning_vocabulary_is_the_documented_designer_warnings():
    """--select/--ignore check codes against WARNINGS: a new warning must join it (and docs/errors.md)."""
    documented = re.findall(r"^\| (W[0-68]\d\d) \|", (TESTS.parent / "docs" / "errors.md").read_text("utf-8"), re.M)
    assert sorted(WARNINGS) == sorted(documented)


def test_a_choice_argparse_refuses_is_e709_with_a_did_you_mean(capsys):
    code, out, err = run(capsys, "cards", "--kind", "Corporations")
    assert code == 2 and out == ""
    assert err.splitlines() == [
        "tharsis: error[E709]: argument --kind: invalid choice: 'Corporations' (choose from 'card', 'corporation', "
        "'standard_project', 'standard_action', 'milestone', 'award', 'board', 'parameter', 'card_kind', 'rule', "
        "'expansion', 'piece', 'site', 'faction', 'government')",
        "     = hint: did you mean 'corporation'?"]
    code, _, err = run(capsys, "chek", CARD_FILE)
    assert code == 2 and err.splitlines()[1] == "     = hint: did you mean 'check'?"


def test_an_unknown_flag_is_e709_with_the_commands_own_flags_as_did_you_mean(capsys):
    code, out, err = run(capsys, "check", "--selct", "W1", CARD_FILE)
    assert code == 2 and out == ""
    assert err.splitlines() == ["tharsis: error[E709]: unrecognized arguments: --selct",
                                "     = hint: did you mean '--select'?"]
    code, _, err = run(capsys, "test", "--junitxml=j.xml", SCENARIO_FILE)  # pytest's spelling, for test
    assert code == 2 and err.splitlines()[1] == "     = hint: did you mean '--junit-xml'?"


@pytest.mark.parametrize("argv, message", [
    (["check", "--interval", "abc", CARD_FILE], "argument --interval: invalid float value: 'abc'"),
    (["check", "--format", "xml", CARD_FILE], "argument --format: invalid choice: 'xml' (choose from 'text', "
                                              "'json', 'github', 'sarif')"),
    (["test", SCENARIO_FILE, "-k"], "argument -k: expected one argument"),
    (["fmt", "--stdin-filename"], "argument --stdin-filename: expected one argument"),
])
def test_a_flag_of_the_wrong_form_is_e709_not_argparses_usage_text(argv, message, capsys):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"tharsis: error[E709]: {message}\n     = hint: ")
    assert "usage:" not in err


def test_a_k_expression_nested_too_deep_is_e732_and_long_chains_just_work(capsys):
    deep = "(" * 51 + "trigger" + ")" * 51
    code, out, err = run(capsys, "test", SCENARIO_FILE, "-k", deep)
    assert code == 2 and out == ""
    assert err.splitlines()[0] == f"tharsis: error[E732]: -k: '{deep[:57]}...' nests parentheses more than 50 deep"
    # 5000 words and 5001 nots were a RecursionError (exit 3); the odd number of nots makes it match everything
    chain = " or ".join(["nothing"] * 5000) + " or " + "not " * 5001 + "nothing"
    code, out, _ = run(capsys, "test", "-q", SCENARIO_FILE, "-k", chain)
    assert code == 0 and "not matching" not in out and out.endswith(" passed, 0 failed\n")


@pytest.mark.parametrize("argv, name", [(["cards", "-"], "PATH"), (["test", "-"], "PATH"),
                                        (["gallery", "site", "-"], "PATH"),
                                        (["test", "--cards", "-", SCENARIO_FILE], "--cards"),
                                        (["check", "--config", "-", CARD_FILE], "--config")])
def test_standard_input_where_a_command_does_not_read_it_is_e705(argv, name, tmp_path, monkeypatch, capsys):
    """`-` was skipped as standard input by every command, so these read a file called '-' and failed later."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.splitlines() == [f"tharsis: error[E705]: {name}: no such file or folder: '-'",
                                "     = hint: only tharsis check and tharsis fmt read standard input (PATH -)"]
    assert list(tmp_path.iterdir()) == []


def test_gallery_reports_a_dir_that_is_a_file_and_missing_paths_together(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "site").write_text("not a folder", encoding="utf-8")
    code, out, err = run(capsys, "gallery", "site", "gone/")
    assert code == 2 and out == ""
    assert err.splitlines() == [
        "site: error[E730]: the gallery goes into a folder, and this is a file",
        "     = hint: name a new or existing folder: tharsis gallery site/",
        "tharsis: error[E705]: PATH: no such file or folder: 'gone/'"]


@pytest.mark.parametrize("command", [["check"], ["fmt"], ["test"], ["gallery", "site"]])
def test_a_missing_path_of_the_configuration_is_named_as_such(command, tmp_path, monkeypatch, capsys):
    """No PATH was given, so 'PATH: no such file' would send the user looking for one on the command line."""
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "pyproject.toml").write_text('[tool.tharsis]\ncards = ["mnie"]\nscenarios = ["scenarios"]\n',
                                             encoding="utf-8")
    (tmp_path / "notes").mkdir()
    monkeypatch.chdir(tmp_path / "notes")
    code, out, err = run(capsys, *command)
    assert code == 2 and out == ""
    assert err == "tharsis: error[E705]: 'cards' of ../pyproject.toml: no such file or folder: '../mnie'\n"


def test_check_puts_a_refused_flag_into_the_report_format_asked_for(capsys):
    code, out, err = run(capsys, "check", "--format", "sarif", "--selct", "W1", CARD_FILE)
    notes = json.loads(out)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert code == 2 and err == ""
    assert notes == [{"level": "error", "message": {"text": "unrecognized arguments: --selct (did you mean "
                                                                          "'--select'?)"},
                      "descriptor": {"id": "E709"}}]
    code, out, err = run(capsys, "check", "--format=json", "--interval", "soon", CARD_FILE)
    assert code == 2 and err == ""
    assert json.loads(out)["diagnostics"] == [{"code": "E709", "severity": "error", "message":
                                               "argument --interval: invalid float value: 'soon'",
                                               "hint": "tharsis check --help says what it takes"}]
    code, out, err = run(capsys, "check", "--format", "xml", CARD_FILE)  # the format itself: text it is
    assert code == 2 and out == "" and err.startswith("tharsis: error[E709]: argument --format: invalid choice")


def test_no_command_prints_the_help_and_e709(capsys):
    code, out, err = run(capsys)
    assert code == 2 and "check" in out and "gallery" in out
    assert err.splitlines() == ["tharsis: error[E709]: no COMMAND given",
                                "     = hint: one of the commands above: tharsis check mine/, tharsis play"]


def test_a_junit_report_that_fails_while_written_is_e708_after_the_results(capsys):
    """/dev/full accepts the check before the run and refuses the write after it (it crashed with exit 3)."""
    code, out, err = run(capsys, "test", "-q", SCENARIO_FILE, "--junit-xml", "/dev/full")
    assert code == 2 and out.endswith(" passed, 0 failed\n")
    assert err.splitlines() == [
        "tharsis: error[E708]: --junit-xml: cannot write the JUnit report to '/dev/full': No space left on device",
        "     = hint: --junit-xml FILE in a folder you can write, e.g. --junit-xml junit.xml"]


@pytest.mark.parametrize("argv", [["test", "/dev/zero"], ["check", "--config", "/dev/zero", CARD_FILE]])
def test_an_endless_file_is_refused_not_read_whole(argv, capsys):
    """/dev/zero as a scenario file or a configuration hung, then ran out of memory."""
    code, out, err = run(capsys, *argv)  # a device is refused before it is opened (see below)
    name = "PATH" if argv[0] == "test" else "--config"
    assert code == 2 and err.startswith(f"tharsis: error[E705]: {name}: not a file or folder: '/dev/zero'\n")


@pytest.mark.parametrize("command", ["test", "check"])
def test_a_huge_file_is_refused_not_read_whole(command, tmp_path, capsys):
    """A regular file past the size limit (a wrong file) is refused after reading only the limit."""
    big = tmp_path / ("big.yaml" if command == "test" else "pyproject.toml")
    big.write_bytes(b"#" * 1_000_001)
    if command == "test":
        code, out, err = run(capsys, "test", str(big))
        assert code == 1 and f"{big}:1:1: error[E604]: the file is larger than" in out
    else:
        code, out, err = run(capsys, "check", "--config", str(big), CARD_FILE)
        assert code == 2 and f"error[E801]: {big} is larger than 1 MB: not a pyproject.toml" in err


@pytest.mark.parametrize("argv", [["check", "/dev/null"], ["test", "/dev/null"], ["fmt", "--check", "/dev/null"],
                                  ["play", "--cards", "/dev/null", "--seat", "a=random", "--seat", "b=random"]])
def test_a_device_given_as_a_path_is_e705_not_a_missing_file(argv, capsys):
    """`check /dev/null` said "no such file or folder" (E009) of a path that exists."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and "error[E705]" in err and "not a file or folder: '/dev/null'" in err, err
    assert "no such file" not in err + out


def test_cards_lang_without_the_rules_format_is_e706(capsys):
    """--lang only changes the rules text; with another format it was silently ignored."""
    code, out, err = run(capsys, "cards", "--lang", "zh", "--kind", "board")
    assert code == 2 and out == ""
    assert err.splitlines() == ["tharsis: error[E706]: --lang is the language of --format rules, and the format "
                                "is table", "     = hint: add --format rules, or drop --lang"]


@pytest.mark.parametrize("command", ["check", "fmt"])
def test_an_empty_stdin_filename_is_e734_not_a_silent_stdin(command, monkeypatch, capsys):
    """`--stdin-filename ''` fell back to `<stdin>` without a word."""
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO('card "X" #X1 {\n  type: automated  cost: 3\n}\n'))
    code, out, err = run(capsys, command, "--stdin-filename", "", "-")
    assert code == 2 and err.startswith("tharsis: error[E734]: --stdin-filename is empty"), err


# ---------------------------------------------------------------- card text: declared names, incomplete fields

DECLARED = """\
tag mars, venus
resource floater, asteroid

card "Red Survey" #DU1 {
  type: active  cost: 9  tags: mars, venus
  requires: mars tags >= 1 and venus tags >= 1
  holds: asteroid
  action: add 1 asteroid here
  effect: when you play mars tag -> add 2 asteroids here
  vp: 1 per 2 asteroids here
}

card "Cloud Skimmer" #DU2 {
  type: active  cost: 7  tags: venus
  holds: floater
  action: add 1 floater here
  vp: 1 per 2 floaters here
}
"""


def test_a_declared_name_is_kept_as_written_and_its_plural_means_it(tmp_path, capsys):
    path = tmp_path / "declared.mars"
    path.write_text(DECLARED, encoding="utf-8")
    code, out, _ = run(capsys, "check", "--no-cache", "--no-with-bundled", str(path))
    assert code == 0 and out.endswith("no problems\n")
    result = compile_paths([path], use_cache=False)
    assert result.declared_tags == ("mars", "venus")   # `tag mars` is the tag mars, not the singular 'mar'
    assert result.declared_resources == ("asteroid", "floater")
    survey = next(d for d in result.library.definitions if d.name == "Red Survey")
    assert survey.tags == ("mars", "venus") and survey.holds == "asteroid"


def test_a_word_that_is_not_a_form_of_a_declared_name_is_still_unknown(tmp_path, capsys):
    path = tmp_path / "declared.mars"
    path.write_text(DECLARED.replace("requires: mars tags", "requires: mar tags"), encoding="utf-8")
    code, out, _ = run(capsys, "check", "--no-cache", "--no-with-bundled", str(path))
    assert code == 1
    assert f"{path}:6:13: error[E102]: unknown tag 'mar'" in out and "did you mean 'mars'?" in out


@pytest.mark.parametrize("line, message, hint", [
    ("  effect: discount 1 on trade", "something is missing after 'trade'", "expected cards after it"),
    ("  requires: chairman", "something is missing after 'chairman'",
     "expected a comparison (>=, <=, ==, >, <) after it"),
    ("  requires: oxygen >=  // the value is still to come", "something is missing after '>='",
     "expected a number like 9% or -12C after it"),
    # a word that is no verb (trial 5 wrote `play: pass` before `pass` was one): the hint says a lone word is no
    # effect rather than only asking for a number
    ("  play: hurry", "something is missing after 'hurry'",
     "'hurry' alone is no effect: a word there starts a parameter change, which needs a signed number (`oxygen +1`); "
     "other effects start with their verb (gain, draw, place, raise ...: docs/language.md)"),
])
def test_a_field_left_incomplete_is_reported_on_its_own_line_not_at_the_next_field(line, message, hint, tmp_path,
                                                                                   capsys):
    """Line breaks are blanks to the parser, which notices the gap only at the next line's `vp:`; the report must
    point at the last word of the incomplete line, with the caret under it."""
    path = tmp_path / "card.mars"
    path.write_text(f'card "X" #X1 {{\n  type: active  cost: 3\n{line}\n  vp: 1\n}}\n', encoding="utf-8")
    code, out, _ = run(capsys, "check", "--no-cache", "--no-with-bundled", str(path))
    assert code == 1
    word = message.split("'")[1]
    column = line.index(word) + 1
    assert out.splitlines()[:4] == [
        f"{path}:3:{column}: error[E001]: {message}",
        f"   3 | {line}",
        f"     | {' ' * (column - 1)}{'^' * len(word)}",
        f"     = hint: {hint}"]


def test_an_effect_left_incomplete_before_a_closing_brace_is_reported_on_its_own_line(tmp_path, capsys):
    path = tmp_path / "card.mars"
    path.write_text('card "X" #X1 {\n  type: automated  cost: 3\n  play: choose { gain 1 plant | draw\n  }\n'
                    '}\n', encoding="utf-8")
    code, out, _ = run(capsys, "check", "--no-cache", "--no-with-bundled", str(path))
    assert code == 1
    assert out.startswith(f"{path}:3:33: error[E001]: something is missing after 'draw'\n")
    assert "a number after it" in out
