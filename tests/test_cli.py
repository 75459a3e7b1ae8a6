"""The command line as a user and a CI pipeline meet it: exit codes, formats, the cache."""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from tharsis.cli import main

GOOD = textwrap.dedent("""\
    card "Space Cows" #X1 {
      type: active  cost: 13  tags: animal
      requires: oxygen >= 9%
      holds: animal
      play: production(plants -1, megacredits +2)
      action: add 1 animal here
      vp: 1 per animal here
    }
""")
TYPO = GOOD.replace("tags: animal", "tags: aminal").replace("oxygen >= 9%", "oxygen >= 9C")


def test_clean_file_exits_zero(tmp_path, capsys):
    (tmp_path / "good.mars").write_text(GOOD, encoding="utf-8")
    assert main(["check", str(tmp_path)]) == 0
    assert "no problems" in capsys.readouterr().out


def test_every_error_is_reported_with_caret_and_did_you_mean(tmp_path, capsys):
    path = tmp_path / "bad.mars"
    path.write_text(TYPO, encoding="utf-8")
    assert main(["check", "--no-cache", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:2:33: error[E102]: unknown tag 'aminal'" in out
    assert "did you mean 'animal'?" in out
    assert f"{path}:3:23: error[E303]: oxygen is measured in %, not C" in out
    caret_line = out.splitlines()[out.splitlines().index(next(line for line in out.splitlines() if "E102" in line)) + 2]
    assert caret_line.endswith("^^^^^^")
    assert "2 errors, 0 warnings" in out


def test_json_format_is_machine_readable(tmp_path, capsys):
    path = tmp_path / "bad.mars"
    path.write_text(TYPO, encoding="utf-8")
    assert main(["check", "--format", "json", "--no-cache", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["errors"] == 2 and report["files"] == 1
    first = report["diagnostics"][0]
    assert (first["code"], first["line"], first["column"], first["severity"]) == ("E102", 2, 33, "error")
    assert first["hint"] == "did you mean 'animal'?"


def test_github_format_annotates(tmp_path, capsys):
    path = tmp_path / "bad.mars"
    path.write_text(TYPO, encoding="utf-8")
    assert main(["check", "--format", "github", "--no-cache", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"::error file={path},line=2,col=33,")
    assert "title=E102::unknown tag 'aminal'" in lines[0]


def test_usage_errors_exit_two(tmp_path, capsys):
    assert main(["check", str(tmp_path / "missing")]) == 2
    assert main(["check", "--format", "xml", str(tmp_path)]) == 2


def test_strict_turns_warnings_into_failure(tmp_path):
    (tmp_path / "empty.mars").write_text("// nothing yet\n", encoding="utf-8")
    assert main(["check", str(tmp_path)]) == 0
    assert main(["check", "--strict", str(tmp_path)]) == 1


def test_a_designers_folder_is_checked_against_the_bundled_names_by_default(tmp_path, capsys):
    """`play --cards` loads the bundled content with the designer's, so `check` must refuse what play refuses."""
    path = tmp_path / "mine.mars"
    path.write_text(GOOD, encoding="utf-8")
    for flags in ([], ["--with-bundled"]):  # --with-bundled is the default, kept for old scripts
        assert main(["check", *flags, str(path)]) == 0
        assert "checked 1 file: 1 definitions, no problems" in capsys.readouterr().out
    clash = tmp_path / "clash.mars"
    clash.write_text(GOOD.replace('"Space Cows" #X1', '"Livestock" #184'), encoding="utf-8")  # a bundled card's
    for flags in ([], ["--with-bundled"]):
        assert main(["check", *flags, "--format", "json", str(clash)]) == 1
        report = json.loads(capsys.readouterr().out)
        assert [(d["code"], d["line"], d["column"]) for d in report["diagnostics"]] == [("E401", 1, 6),
                                                                                         ("E402", 1, 6)]
        assert "'Livestock' is defined twice" in report["diagnostics"][0]["message"]
        assert "bundled content" in report["diagnostics"][0]["hint"]
        assert report["files"] == 1


def test_a_copy_of_the_bundled_content_checks_clean(tmp_path, capsys):
    """A checkout's cards/ beside an installed Tharsis (`pip install .` then `tharsis check cards`, as in the
    README): files identical to the bundled ones are loaded once, not reported as clashing with themselves."""
    import shutil

    from tharsis.compiler import bundled_cards_path, compile_paths

    copy = tmp_path / "cards"
    shutil.copytree(bundled_cards_path(), copy, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    bundled = compile_paths([bundled_cards_path()])
    assert main(["check", str(copy)]) == 0
    out = capsys.readouterr().out
    assert f"checked {len(bundled.files)} files: {len(bundled.library.definitions)} definitions, no problems" in out
    edited = copy / "base" / "active.mars"
    edited.write_text(edited.read_text(encoding="utf-8") + "\n// edited\n", encoding="utf-8")
    assert main(["check", str(copy)]) == 1  # an edited copy clashes with the bundled original, as in a game
    assert "E401" in capsys.readouterr().out


def test_a_folder_without_card_files_is_an_error(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("card ideas\n", encoding="utf-8")
    assert main(["check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"error[E010]: no card files (.mars) in the folder {tmp_path}" in out
    assert main(["check", "--format", "json", str(tmp_path)]) == 1
    assert [d["code"] for d in json.loads(capsys.readouterr().out)["diagnostics"]] == ["E010"]


def test_second_check_reads_the_cache(tmp_path, monkeypatch):
    from tharsis.compiler import compile_paths, parser

    monkeypatch.setenv("THARSIS_CACHE_DIR", str(tmp_path / "cache"))
    from tharsis.compiler import cache
    cache.folder.cache_clear()
    (tmp_path / "good.mars").write_text(GOOD, encoding="utf-8")
    first = compile_paths([tmp_path / "good.mars"])

    def must_not_parse(*args, **kwargs):
        raise AssertionError("parsed although the cache holds this file")

    monkeypatch.setattr(parser, "parse", must_not_parse)
    second = compile_paths([tmp_path / "good.mars"])
    assert second.library.definitions == first.library.definitions
    cache.folder.cache_clear()


def test_module_entry_point_runs_and_names_the_engine_build(repo):
    completed = subprocess.run([sys.executable, "-m", "tharsis", "--version"], capture_output=True, text=True)
    assert completed.returncode == 0 and completed.stdout.startswith("tharsis ")
    import tharsis.runtime

    editable = Path(tharsis.runtime.__file__).parent == repo / "runtime"
    build = "plain Python" if editable else tharsis.runtime.engine_build()  # an editable install is never compiled
    assert completed.stdout.rstrip().endswith(f"(engine: {build})"), completed.stdout


def test_names_of_standard_projects_are_checked_against_the_loaded_content(tmp_path, capsys):
    path = tmp_path / "corp.mars"
    path.write_text('corporation "Cheap Power" #X9 {\n  start: 40 megacredits\n'
                    '  effect: discount 3 on standard project "Power Plnt"\n'
                    '  effect: when you use standard project except "Sell Patent" -> gain 1 megacredits\n}\n',
                    encoding="utf-8")
    assert main(["check", "--format", "json", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [(d["code"], d["line"], d["column"], d["hint"]) for d in report["diagnostics"]] == [
        ("E109", 3, 42, "did you mean 'Power Plant'?"), ("E109", 4, 48, "did you mean 'Sell Patents'?")]


def test_a_standard_project_a_card_uses_is_checked_against_the_loaded_content(tmp_path, capsys):
    """`use standard project "NAME"` (an else block's too) names a loaded standard project, or E109 says which."""
    path = tmp_path / "grant.mars"
    path.write_text('card "Grant" #X9 {\n  type: event  cost: 0\n'
                    '  play: use standard project "Aquifer" else { use standard project "Astroid" }\n}\n',
                    encoding="utf-8")
    assert main(["check", "--format", "json", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [(d["code"], d["message"], d["hint"]) for d in report["diagnostics"]] == [
        ("E109", "'Grant' names standard project 'Astroid', which is not defined", "did you mean 'Asteroid'?")]
