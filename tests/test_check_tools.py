"""`tharsis check` as a designer's project and a CI pipeline meet it: [tool.tharsis] in pyproject.toml,
suppression comments, --select/--ignore, SARIF for code scanning, standard input and --watch."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import jsonschema
import pytest

from tharsis.cli import main
from tharsis.designer import watching

# Two cards placing tiles on reserved spaces no bundled board has: W102 twice (with --with-bundled).
CARDS = textwrap.dedent("""\
    // my set
    card "Crater Town" #900 {
      type: automated  cost: 10  tags: city
      play: place city on reserved "Crater"  // tharsis: ignore[W102]
    }

    card "Ridge Town" #901 {
      type: automated  cost: 10  tags: city
      play: place city on reserved "Ridge"
    }
""")
SCHEMA = Path(__file__).parent / "schemas" / "sarif-2.1.0-subset.schema.json"


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A designer's project: pyproject.toml at the root, cards in mine/, the shell in a sub-folder."""
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "towns.mars").write_text(CARDS, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(textwrap.dedent("""\
        [project]
        name = "my-set"

        [tool.tharsis]
        cards = ["mine"]
        with-bundled = true
    """), encoding="utf-8")
    (tmp_path / "notes").mkdir()
    monkeypatch.chdir(tmp_path / "notes")
    return tmp_path


def configure(project, body: str) -> None:
    (project / "pyproject.toml").write_text("[tool.tharsis]\n" + textwrap.dedent(body), encoding="utf-8")


def test_configuration_is_found_walking_up_and_gives_the_paths(project, capsys):
    assert main(["check"]) == 0  # warnings only
    out = capsys.readouterr().out
    assert "mine/towns.mars:9:32: warning[W102]: no loaded board reserves a space named 'Ridge'" in out
    assert "'Crater'" not in out  # suppressed on its line
    assert "0 errors, 1 warning" in out


def test_strict_in_the_configuration_fails_on_warnings_and_the_flag_overrides_it(project, capsys):
    configure(project, 'cards = ["mine"]\nwith-bundled = true\nstrict = true\n')
    assert main(["check"]) == 1
    assert main(["check", "--no-strict"]) == 0


def test_unknown_configuration_key_is_a_usage_error_with_a_caret_and_did_you_mean(project, capsys):
    configure(project, 'cards = ["mine"]\nigonre = ["W1"]\n')
    assert main(["check"]) == 2
    err = capsys.readouterr().err
    assert "pyproject.toml:3:1: error[E802]: unknown key 'igonre' in [tool.tharsis]" in err
    assert "   3 | igonre = [\"W1\"]\n     | ^^^^^^" in err
    assert "did you mean 'ignore'?" in err


def test_wrong_value_types_and_bad_toml_are_reported_with_their_codes(project, capsys):
    configure(project, 'cards = "mine"\nstrict = "yes"\nignore = ["E102"]\n')
    assert main(["check"]) == 2
    err = capsys.readouterr().err
    assert "2:1: error[E803]: 'cards' must be a list of paths" in err
    assert "3:1: error[E803]: 'strict' must be true or false" in err
    assert "4:1: error[E804]: 'ignore': 'E102' names errors, which cannot be selected or ignored" in err
    (project / "pyproject.toml").write_text("[tool.tharsis]\ncards = [\"mine\"\n", encoding="utf-8")
    assert main(["check"]) == 2
    assert "error[E801]: not valid TOML" in capsys.readouterr().err


def test_a_pyproject_without_a_tharsis_table_is_skipped(project, capsys):
    (project / "notes" / "pyproject.toml").write_text("[project]\nname = 'notes'\n", encoding="utf-8")
    assert main(["check"]) == 0
    assert "W102" in capsys.readouterr().out


def test_without_paths_or_configuration_check_says_what_to_do(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["check"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "tharsis: error[E731]: check what? no PATH given, and no 'cards' in pyproject.toml",
        '     = hint: give a PATH, or list your card folders under [tool.tharsis] in pyproject.toml: '
        'cards = ["mine/"]']


def test_ignore_and_select_take_prefixes_and_the_more_specific_wins(project, capsys):
    assert main(["check", "--ignore", "W1"]) == 0
    assert "W102" not in capsys.readouterr().out
    assert main(["check", "--ignore", "W", "--select", "W102"]) == 0
    assert "W102" in capsys.readouterr().out
    assert main(["check", "--select", "W8"]) == 0
    assert "no problems" in capsys.readouterr().out


def test_errors_cannot_be_ignored(project, capsys):
    assert main(["check", "--ignore", "E1"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "tharsis: error[E804]: --ignore E1: 'E1' names errors, which cannot be selected or ignored",
        "     = hint: a definition with an error does not compile; fix the error instead"]


def test_an_unused_suppression_is_a_warning_at_its_code(project, capsys):
    text = CARDS.replace('play: place city on reserved "Ridge"', 'play: place city  // tharsis: ignore[W102]')
    (project / "mine" / "towns.mars").write_text(text, encoding="utf-8")
    assert main(["check", "--strict"]) == 1
    out = capsys.readouterr().out
    assert "mine/towns.mars:9:40: warning[W801]: unused suppression: no W102 warning on this line" in out
    assert out.splitlines()[2].endswith("^^^^")


def test_a_suppression_must_name_warnings_not_errors(project, capsys):
    text = CARDS.replace('tags: city\n  play: place city on reserved "Ridge"',
                         'tags: city  // tharsis: ignore\n'
                         '  play: place city on reserved "Ridge" // tharsis: ignore[E102]')
    (project / "mine" / "towns.mars").write_text(text, encoding="utf-8")
    main(["check"])
    out = capsys.readouterr().out
    assert "8:42: warning[W802]: a suppression must name the warnings it silences" in out
    assert "9:59: warning[W802]: cannot suppress: 'E102' names errors" in out
    assert "9:32: warning[W102]" in out  # still reported: nothing valid suppressed it


def test_a_suppression_of_a_code_no_warning_has_gets_a_did_you_mean(project, capsys):
    text = CARDS.replace('place city on reserved "Ridge"', 'place city on reserved "Ridge"  // tharsis: ignore[W192]')
    (project / "mine" / "towns.mars").write_text(text, encoding="utf-8")
    main(["check"])
    out = capsys.readouterr().out
    assert "towns.mars:9:60: warning[W802]: cannot suppress: no warning has the code W192\n" in out
    assert "did you mean 'W102'?" in out and "9:32: warning[W102]" in out


def test_a_suppression_inside_a_quoted_name_is_not_a_comment(project, capsys):
    text = CARDS.replace('"Ridge Town"', '"Ridge // tharsis: ignore[W102]"')
    (project / "mine" / "towns.mars").write_text(text, encoding="utf-8")
    main(["check"])
    out = capsys.readouterr().out
    assert "W801" not in out and "9:32: warning[W102]" in out


def test_sarif_output_is_a_valid_sarif_log_for_code_scanning(project, capsys):
    broken = CARDS.replace("city", "cty", 1).replace("#90", "#80").replace("Town", "Village")
    (project / "mine" / "broken.mars").write_text(broken, encoding="utf-8")
    assert main(["check", "--format", "sarif"]) == 1
    log = json.loads(capsys.readouterr().out)
    jsonschema.validate(log, json.loads(SCHEMA.read_text(encoding="utf-8")))
    run = log["runs"][0]
    results = {(r["ruleId"], r["level"]) for r in run["results"]}
    assert results == {("E102", "error"), ("W102", "warning")}
    error = next(r for r in run["results"] if r["ruleId"] == "E102")
    location = error["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "mine/broken.mars", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 3, "startColumn": 36, "endLine": 3, "endColumn": 39}
    assert "did you mean 'city'?" in error["message"]["text"]
    assert [rule["id"] for rule in run["tool"]["driver"]["rules"]][error["ruleIndex"]] == "E102"


def test_the_sarif_schema_subset_rejects_what_github_would(project):
    """The test above can fail: a result without a location or with a bad level is refused."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    bad = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "tharsis"}},
                                         "results": [{"ruleId": "E1", "level": "fatal", "message": {"text": "x"}}]}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def test_standard_input_is_checked_under_the_given_name(project):
    source = CARDS.replace("tags: city", "tags: cty", 1)
    done = subprocess.run([sys.executable, "-m", "tharsis", "check", "-", "--stdin-filename", "mine/towns.mars"],
                          input=source, capture_output=True, text=True, cwd=project / "notes")
    assert done.returncode == 1
    assert "mine/towns.mars:3:36: error[E102]: unknown tag 'cty'" in done.stdout
    assert "   3 |   type: automated  cost: 10  tags: cty" in done.stdout
    clean = subprocess.run([sys.executable, "-m", "tharsis", "check", "-"], input=CARDS, capture_output=True,
                           text=True, cwd=project / "notes")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "<stdin>:9:32: warning[W102]" in clean.stdout


def test_standard_input_flags_that_do_not_fit_are_usage_errors(project, capsys):
    assert main(["check", "-", "../mine"]) == 2
    assert main(["check", "--watch", "-"]) == 2
    assert main(["check", "--stdin-filename", "x.mars", "../mine"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "tharsis: error[E706]: - (standard input) must be the only PATH",
        "     = hint: check the files, or pipe one file to standard input, in separate runs",
        "tharsis: error[E706]: --watch cannot watch standard input",
        "     = hint: give the files as PATHs to watch",
        "tharsis: error[E706]: --stdin-filename names standard input, but no PATH is -",
        "     = hint: give - as the PATH, or drop --stdin-filename"]


def test_watch_checks_again_when_a_card_file_changes(project, capsys, monkeypatch):
    card_file = project / "mine" / "towns.mars"
    polls = []

    def fake_sleep(seconds):  # the user edits the file during the first pause, then presses Ctrl-C
        polls.append(seconds)
        if len(polls) == 1:
            card_file.write_text(CARDS.replace("tags: city", "tags: cty", 1) + "\n", encoding="utf-8")
        elif len(polls) == 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(watching, "_sleep", fake_sleep)
    assert main(["check", "--watch", "--interval", "0.2"]) == 1  # the last check found an error
    out = capsys.readouterr().out
    assert polls == [0.2, 0.2, 0.2]
    first, second = out.split("changed: checking again")
    assert "E102" not in first and "0 errors, 1 warning" in first
    assert first.splitlines()[-1].endswith("] ../mine/towns.mars ")
    assert "mine/towns.mars:3:36: error[E102]" in second
    assert second.count("watching 2 files for changes") == 1  # the card file and pyproject.toml
    assert out.rstrip().endswith("stopped watching")


def test_watch_checks_again_when_a_names_file_changes(project, capsys, monkeypatch):
    names_file = project / "mine" / "zh.names"
    names_file.write_text('card "Crater Town" = "陨石坑镇"\n', encoding="utf-8")
    polls = []

    def fake_sleep(seconds):  # the designer misspells a card's name in the names file, then presses Ctrl-C
        polls.append(seconds)
        if len(polls) == 1:
            names_file.write_text('card "Crater Twn" = "陨石坑镇"\n', encoding="utf-8")
        elif len(polls) == 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(watching, "_sleep", fake_sleep)
    assert main(["check", "--watch", "--interval", "0.2"]) == 1
    first, second = capsys.readouterr().out.split("changed: checking again")
    assert "0 errors" in first and "watching 3 files for changes" in first  # the card file, the names file, pyproject
    assert "mine/zh.names:1:6: error[E162]" in second and "Crater Town" in second


def test_a_game_sees_an_edited_names_file(tmp_path):
    from tharsis.runtime.api.game import load_library

    (tmp_path / "towns.mars").write_text(CARDS, encoding="utf-8")
    names_file = tmp_path / "zh.names"
    names_file.write_text('card "Crater Town" = "陨石坑镇"\n', encoding="utf-8")
    first = load_library((str(tmp_path),))
    names_file.write_text('card "Crater Town" = "火山口镇"\n', encoding="utf-8")
    os.utime(names_file, ns=(names_file.stat().st_mtime_ns + 10**9,) * 2)  # a later edit, whatever the clock
    second = load_library((str(tmp_path),))
    assert first.names.display_name("Crater Town", "zh") == "陨石坑镇"
    assert second.names.display_name("Crater Town", "zh") == "火山口镇"


def test_watch_is_bounded_by_its_poll_limit(tmp_path, capsys, monkeypatch):
    (tmp_path / "a.mars").write_text(CARDS, encoding="utf-8")
    runs = []
    monkeypatch.setattr(watching, "_sleep", lambda seconds: None)
    code = watching.watch(lambda: runs.append(1) or 0, [tmp_path], 0.1, max_polls=5)
    assert code == 0 and runs == [1]  # nothing changed in five looks: checked once


def test_the_pre_commit_hooks_run_the_commands_they_name(project, repo):
    """Each hook of .pre-commit-hooks.yaml has pre-commit's required keys and its entry works in a project."""
    import shlex

    import yaml

    hooks = yaml.safe_load((repo / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert [hook["id"] for hook in hooks] == ["tharsis-check", "tharsis-fmt"]
    for hook in hooks:
        assert {"id", "name", "entry", "language"} <= set(hook) and hook["language"] == "python"
        assert hook["files"] == r"\.mars$" and hook["pass_filenames"] is False
    (project / "mine" / "towns.mars").write_text(CARDS.replace("place city", "place ocean", 1), encoding="utf-8")
    for hook in hooks:
        command = shlex.split(hook["entry"])
        assert command[0] == "tharsis"
        done = subprocess.run([sys.executable, "-m", "tharsis", *command[1:]], cwd=project, capture_output=True,
                              text=True)
        assert done.returncode == 0, (hook["id"], done.stdout, done.stderr)
    (project / "mine" / "towns.mars").write_text(CARDS.replace("tags: city", "tags: cty"), encoding="utf-8")
    for hook in hooks:
        done = subprocess.run([sys.executable, "-m", "tharsis", *shlex.split(hook["entry"])[1:]], cwd=project,
                              capture_output=True, text=True)
        assert done.returncode == 1, hook["id"]


def test_a_problem_without_a_place_is_a_sarif_tool_notification(tmp_path):
    """A path that cannot be read has no line to point at: code scanning needs a location for every result, so
    it is reported as a notification of the run, which then is not successful."""
    from tharsis.compiler.diagnostics import Diagnostic, Span
    from tharsis.designer.sarif import render_sarif

    unreadable = Diagnostic("E009", "error", "cannot read mine/x.mars: Permission denied", None)
    located = Diagnostic("W102", "warning", "no loaded board reserves 'Ridge'",
                         Span(str(tmp_path / "a.mars"), 2, 3, 2, 9))
    log = json.loads(render_sarif([unreadable, located], tmp_path))
    jsonschema.validate(log, json.loads(SCHEMA.read_text(encoding="utf-8")))
    run = log["runs"][0]
    assert [r["ruleId"] for r in run["results"]] == ["W102"]
    assert run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "a.mars"
    assert run["invocations"] == [{"executionSuccessful": False, "toolExecutionNotifications": [
        {"level": "error", "message": {"text": "cannot read mine/x.mars: Permission denied"},
         "descriptor": {"id": "E009"}}]}]


def test_watch_reads_the_configuration_again_when_it_changes(project, capsys, monkeypatch):
    polls = []

    def fake_sleep(seconds):  # the user turns strict on, then presses Ctrl-C
        polls.append(seconds)
        if len(polls) == 1:
            configure(project, 'cards = ["mine"]\nwith-bundled = true\nignore = ["W102"]\n')
        elif len(polls) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(watching, "_sleep", fake_sleep)
    assert main(["check", "--watch"]) == 0
    first, second = capsys.readouterr().out.split("changed: checking again")
    assert "W102" in first and "W102" not in second and "no problems" in second


def test_watch_reports_a_configuration_broken_while_watching_and_goes_on(project, capsys, monkeypatch):
    polls = []

    def fake_sleep(seconds):  # the user misspells a key, then fixes it, then presses Ctrl-C
        polls.append(seconds)
        if len(polls) == 1:
            configure(project, 'cards = ["mine"]\nignroe = ["W102"]\n')
        elif len(polls) == 2:
            configure(project, 'cards = ["mine"]\nignore = ["W102"]\n')
        elif len(polls) == 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(watching, "_sleep", fake_sleep)
    assert main(["check", "--watch"]) == 0
    captured = capsys.readouterr()
    assert "pyproject.toml:3:1: error[E802]: unknown key 'ignroe' in [tool.tharsis]" in captured.err
    assert captured.out.count("changed: checking again") == 2 and "no problems" in captured.out.split("again")[-1]


def test_a_comment_that_only_mentions_the_syntax_is_not_a_suppression(tmp_path, capsys):
    path = tmp_path / "towns.mars"
    path.write_text(CARDS.replace("// my set", "// my set: see docs on tharsis: ignore comments"), encoding="utf-8")
    assert main(["check", "--with-bundled", "--strict", str(path)]) == 1
    out = capsys.readouterr().out
    assert "W802" not in out and "0 errors, 1 warning" in out  # just the unsuppressed W102


def test_standard_input_named_after_a_bundled_file_replaces_it(repo, monkeypatch, capsys):
    """An editor linting one of the repository's own card files: its text replaces the bundled copy instead of
    clashing with every name in it."""
    import io

    bundled = repo / "cards" / "base" / "active.mars"
    edited = bundled.read_text(encoding="utf-8").replace("tags: science", "tags: sciense", 1)
    monkeypatch.chdir(repo)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(edited.encode("utf-8"))))
    assert main(["check", "-", "--stdin-filename", "cards/base/active.mars"]) == 1
    out = capsys.readouterr().out
    assert "error[E102]: unknown tag 'sciense'" in out and "E401" not in out and "1 error, 0 warnings" in out
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(bundled.read_bytes())))
    assert main(["check", "-"]) == 0
    assert "checked 1 file: " in capsys.readouterr().out
