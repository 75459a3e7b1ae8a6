"""The broken-input corpus: every file in tests/broken/ is wrong in one named way, and its `.expected` golden file
holds the diagnostics `tharsis check` must give, one `CODE LINE:COL` per line in the order the tool reports them.

For every file: the codes and positions match the golden file; the exit code is 1 when there is an error (0 when
there are only warnings); nothing prints a traceback or "internal error"; and the text rendering shows the source
line with a caret under the reported column for every diagnostic that has a position.

Golden files were generated from `tharsis check --format json --no-cache FILE` and then checked by hand. Where the
tool is wrong in a phase this corpus may not fix (checker.py, quantities.py, pipeline.py), the golden file holds the
correct answer and the case is a strict xfail naming the bug, so fixing the bug turns it into a pass.

Large inputs are generated at run time: a 10 MB file and one just over the size limit (refused with E004), and a
legal file just under the limit (checks clean in bounded time).
"""

from __future__ import annotations

import json
import re
import time
import unicodedata
from pathlib import Path

import pytest

from tharsis.cli import main
from tharsis.compiler.printable import shown_characters

BROKEN = Path(__file__).resolve().parent / "broken"
CASES = sorted(BROKEN.glob("*.mars"))

# Cases whose golden file describes the correct behaviour the tool does not have yet (bugs outside the parser).
XFAIL: dict[str, str] = {}

CARD = """card "Generated Card {i}" #G{i} {{
  type: automated  cost: 10  tags: building, science
  requires: oxygen >= 5% and plant tags >= 1
  play: production(energy -1, megacredits +2); gain 2 plants per city on mars; choose {{ gain 1 heat | draw 1 }}
  vp: 1
}}

"""
FLAVOUR = "// Flavour text kept with the card, as designers do: " + "the red planet waits for rain. " * 8 + "\n"


def _golden(path: Path) -> list[str]:
    return [line.strip() for line in path.with_suffix(".expected").read_text(encoding="utf-8").splitlines()
            if line.strip()]


def _check(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["check", "--no-cache", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _cells(ch: str) -> int:
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _assert_carets(out: str, diagnostics: list[dict]) -> None:
    """Each positioned diagnostic's header is followed by its source line and a caret under its column."""
    lines = out.splitlines()
    for d in diagnostics:
        if d.get("line") is None:
            continue
        header = f"{d['path']}:{d['line']}:{d['column']}: {d['severity']}[{d['code']}]: "
        at = next((i for i, line in enumerate(lines) if line.startswith(header)), None)
        assert at is not None, f"no header {header!r} in:\n{out}"
        source, caret = lines[at + 1], lines[at + 2]
        gutter = re.match(r"^ *(\d+) \| ", source)
        assert gutter and int(gutter.group(1)) == d["line"], f"no source line under {header!r}:\n{out}"
        assert re.match(r"^ +\| [ \t]*\^+$", caret), f"no caret line under {header!r}:\n{out}"
        # a line longer than 200 characters is shown as a window of 160 from 80 before the column; a character that
        # is not printable (a byte that is no UTF-8) as its escape, \x00, the caret under the escape
        text = Path(d["path"]).read_bytes().decode("utf-8-sig", errors="surrogateescape").replace("\r\n", "\n")
        full_line = text.replace("\r", "\n").split("\n")[d["line"] - 1]
        start = max(0, d["column"] - 80) if len(full_line) > 200 else 0
        pieces = shown_characters(full_line[start:start + 160 if len(full_line) > 200 else None])
        assert source[gutter.end():].startswith("".join(pieces[:d["column"] - 1 - start]))
        pad = "".join("\t" if p == "\t" else " " * sum(map(_cells, p)) for p in pieces[:d["column"] - 1 - start])
        assert caret[caret.index("| ") + 2:].startswith(pad + "^"), \
            f"caret not under column {d['column']}:\n{source}\n{caret}"


def _case(path: Path):
    marks = [pytest.mark.xfail(strict=True, reason=XFAIL[path.stem])] if path.stem in XFAIL else []
    return pytest.param(path, id=path.stem, marks=marks)


def test_corpus_is_complete():
    assert len(CASES) >= 45
    missing = [p.name for p in CASES if not p.with_suffix(".expected").exists()]
    assert not missing, f"no golden file for {missing}"
    orphans = [p.name for p in BROKEN.glob("*.expected") if not p.with_suffix(".mars").exists()]
    assert not orphans, f"golden files without a .mars file: {orphans}"
    for path in CASES:
        assert re.fullmatch(r"[a-z0-9_]+", path.stem), f"{path.name}: name the file for what is wrong, in snake_case"
        for line in _golden(path):
            assert re.fullmatch(r"[EW]\d{3} \d+:\d+", line), f"{path.name}.expected: bad line {line!r}"


@pytest.mark.parametrize("path", [_case(p) for p in CASES])
def test_broken_file(path: Path, capsys):
    expected = _golden(path)

    code, out, err = _check(capsys, "--format", "json", str(path))
    report = json.loads(out)
    diagnostics = report["diagnostics"]
    got = [f"{d['code']} {d['line']}:{d['column']}" for d in diagnostics]
    assert got == expected
    errors = [line for line in expected if line.startswith("E")]
    assert code == (1 if errors else 0)
    assert report["errors"] == len(errors) and report["warnings"] == len(expected) - len(errors)
    for text in (out, err):
        assert "Traceback" not in text and "internal error" not in text

    text_code, text_out, text_err = _check(capsys, str(path))
    assert text_code == code
    for text in (text_out, text_err):
        assert "Traceback" not in text and "internal error" not in text
    _assert_carets(text_out, diagnostics)


def test_ten_megabyte_file_is_refused_quickly(tmp_path, capsys):
    path = tmp_path / "ten_megabytes.mars"
    block = CARD.format(i=1)
    path.write_text(block * (10_000_000 // len(block) + 1), encoding="utf-8")
    assert path.stat().st_size >= 10_000_000
    started = time.perf_counter()
    code, out, err = _check(capsys, "--format", "json", str(path))
    elapsed = time.perf_counter() - started
    report = json.loads(out)
    assert [(d["code"], d["line"], d["column"]) for d in report["diagnostics"]] == [("E004", 1, 1)]
    assert code == 1
    assert elapsed < 5, f"refusing a 10 MB file took {elapsed:.1f} s"
    code, out, err = _check(capsys, str(path))
    assert code == 1 and "Traceback" not in out + err
    _assert_carets(out, report["diagnostics"])


def _legal_content(limit: int) -> tuple[str, int]:
    """Repetitive but legal content (flavour comments and cards) of just under `limit` bytes."""
    parts, size, count = [], 0, 0
    while True:
        block = FLAVOUR * 2 + CARD.format(i=count)
        if size + len(block.encode("utf-8")) > limit:
            return "".join(parts), count
        parts.append(block)
        size += len(block.encode("utf-8"))
        count += 1


def test_largest_legal_file_checks_clean_in_bounded_time(tmp_path, capsys):
    """Content just under the size limit: no diagnostics, every card compiled, in seconds (the limit exists so
    that no accepted file takes longer: a 1.3 MB file used to take 9-14 s)."""
    from tharsis.compiler.source import MAX_FILE_BYTES

    path = tmp_path / "large_but_legal.mars"
    content, count = _legal_content(MAX_FILE_BYTES)
    path.write_text(content, encoding="utf-8")
    assert MAX_FILE_BYTES - 2000 <= path.stat().st_size <= MAX_FILE_BYTES
    started = time.perf_counter()
    code, out, err = _check(capsys, str(path))
    elapsed = time.perf_counter() - started
    assert code == 0, out + err
    assert f"checked 1 file: {count} definitions, no problems" in out
    assert elapsed < 10, f"checking a {MAX_FILE_BYTES // 1024} KB file took {elapsed:.1f} s"


def test_file_over_the_size_limit_is_refused_with_the_limit_named(tmp_path, capsys):
    from tharsis.compiler.source import MAX_FILE_BYTES

    path = tmp_path / "one_card_too_many.mars"
    content, _ = _legal_content(MAX_FILE_BYTES + 2000)
    path.write_text(content, encoding="utf-8")
    assert path.stat().st_size > MAX_FILE_BYTES
    code, out, _ = _check(capsys, str(path))
    assert code == 1
    assert f"{path}:1:1: error[E004]: file is too large (" in out
    assert f"a card file may hold at most {MAX_FILE_BYTES // 1024} KB" in out
    assert "split the content into several files" in out


def test_json_format(capsys):
    path = BROKEN / "several_errors_in_different_cards.mars"
    code, out, _ = _check(capsys, "--format", "json", str(path))
    assert code == 1
    report = json.loads(out)
    assert report["files"] == 1 and report["errors"] == 4 and report["warnings"] == 0
    assert len(report["diagnostics"]) == 4
    for d in report["diagnostics"]:
        assert {"code", "severity", "message", "path", "line", "column", "hint", "end_line",
                "end_column"} <= set(d)
        assert re.fullmatch(r"E\d{3}", d["code"]) and d["severity"] == "error" and d["message"]
        assert d["path"] == str(path)
        assert isinstance(d["line"], int) and isinstance(d["column"], int)
        assert (d["end_line"], d["end_column"]) > (d["line"], d["column"])
    assert [d["code"] for d in report["diagnostics"]] == ["E102", "E101", "E302", "E204"]


def test_json_format_warning_only(capsys):
    code, out, _ = _check(capsys, "--format", "json", str(BROKEN / "empty_file.mars"))
    assert code == 0
    report = json.loads(out)
    assert report["errors"] == 0 and report["warnings"] == 1
    assert report["diagnostics"][0]["severity"] == "warning" and report["diagnostics"][0]["code"] == "W001"


def test_strict_turns_warnings_into_failure(capsys):
    code, _, _ = _check(capsys, "--strict", str(BROKEN / "empty_file.mars"))
    assert code == 1


def test_github_format(capsys):
    path = BROKEN / "several_errors_in_one_card.mars"
    code, out, _ = _check(capsys, "--format", "github", str(path))
    assert code == 1
    lines = out.splitlines()
    assert len(lines) == 4
    found = []
    for line in lines:
        match = re.fullmatch(r"::error file=(?P<file>[^,]+),line=(?P<line>\d+),col=(?P<col>\d+),"
                             r"endLine=\d+,endColumn=\d+,title=(?P<code>E\d{3})::(?P<message>.+)", line)
        assert match, line
        assert match["file"] == str(path)
        found.append(f"{match['code']} {match['line']}:{match['col']}")
    assert found == _golden(path)


def test_github_format_escapes_and_warns(capsys):
    code, out, _ = _check(capsys, "--format", "github", str(BROKEN / "only_comments.mars"))
    assert code == 0
    assert re.fullmatch(r"::warning file=[^,]+,line=1,col=1,endLine=1,endColumn=2,title=W001::.+\n?", out)


def test_missing_path_is_usage_error_e705_as_for_the_game_commands(tmp_path, capsys):
    missing = tmp_path / "no_such_file.mars"
    assert main(["play", "--cards", str(missing), "--no-log"]) == 2
    game = capsys.readouterr().err
    code = main(["check", str(missing)])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.err == f"tharsis: error[E705]: PATH: no such file or folder: '{missing}'\n"
    assert game.startswith(f"tharsis: error[E705]: --cards: no such file or folder: '{missing}'\n")
    assert captured.out == ""


@pytest.mark.parametrize("command", [["check"], ["fmt"], ["fmt", "--check"], ["cards"], ["test"],
                                     ["gallery", "site"]])
def test_every_designer_command_reports_each_missing_path_as_e705(command, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code = main([*command, str(BROKEN / "typo_in_tag.mars"), "gone.mars", "gone/"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.splitlines() == ["tharsis: error[E705]: PATH: no such file or folder: 'gone.mars'",
                                "tharsis: error[E705]: PATH: no such file or folder: 'gone/'"]
    assert not (tmp_path / "site").exists()


def test_missing_card_folder_and_configuration_are_e705_too(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["test", "--cards", "mine", str(tmp_path)]) == 2
    assert capsys.readouterr().err == "tharsis: error[E705]: --cards: no such file or folder: 'mine'\n"
    assert main(["check", "--config", "pyproject.toml"]) == 2
    assert capsys.readouterr().err == "tharsis: error[E705]: --config: no such file or folder: 'pyproject.toml'\n"


def test_missing_path_is_reported_in_the_format_asked_for(capsys):
    """A CI job reading the JSON, GitHub or SARIF report finds the usage error there, not only on stderr."""
    good, missing = str(BROKEN / "typo_in_tag.mars"), str(BROKEN / "no_such_file.mars")
    message = f"PATH: no such file or folder: '{missing}'"
    code, out, err = _check(capsys, "--format", "json", good, missing)
    assert code == 2 and err == ""
    assert json.loads(out) == {"files": 0, "errors": 1, "warnings": 0, "diagnostics": [
        {"code": "E705", "severity": "error", "message": message, "hint": None}]}
    code, out, _ = _check(capsys, "--format", "github", missing)
    assert code == 2 and out == f"::error title=E705::{message}\n"
    code, out, _ = _check(capsys, "--format", "sarif", missing)
    run = json.loads(out)["runs"][0]
    assert code == 2 and run["results"] == []
    assert run["invocations"] == [{"executionSuccessful": False, "toolExecutionNotifications": [
        {"level": "error", "message": {"text": message}, "descriptor": {"id": "E705"}}]}]


def test_whole_corpus_in_one_run(capsys):
    """Checking the folder reports every file's diagnostics, with the cross-file checks on top."""
    code, out, _ = _check(capsys, "--format", "json", str(BROKEN))
    assert code == 1
    report = json.loads(out)
    assert report["files"] == len(CASES) - 2  # binary_junk and invalid_utf8 are refused before parsing
    reported = {(Path(d["path"]).name, d["code"], d["line"], d["column"]) for d in report["diagnostics"]}
    for path in CASES:
        if path.stem in XFAIL:
            continue
        for line in _golden(path):
            code_, position = line.split()
            row, column = map(int, position.split(":"))
            if code_ in ("E401", "E402"):  # names and numbers are compared across the whole folder
                continue
            assert (path.name, code_, row, column) in reported, f"{path.name}: {line} missing from the folder run"


def test_duplicate_name_across_two_files(tmp_path, capsys):
    first, second = tmp_path / "a.mars", tmp_path / "b.mars"
    first.write_text('card "Glacier Melting" #T90 {\n  type: event  cost: 5\n  play: place ocean\n}\n', "utf-8")
    second.write_text('// the same name again\ncard "glacier melting" #T91 {\n  type: event  cost: 5\n'
                      '  play: place ocean\n}\n', "utf-8")
    code, out, _ = _check(capsys, "--format", "json", str(tmp_path))
    report = json.loads(out)
    assert code == 1
    assert [(Path(d["path"]).name, d["code"], d["line"], d["column"]) for d in report["diagnostics"]] == \
        [("b.mars", "E401", 2, 6)]
    assert report["diagnostics"][0]["hint"] == f"first defined at {first}:1"


def test_declarations_only_file_is_not_empty(tmp_path, capsys):
    path = tmp_path / "vocabulary.mars"
    path.write_text("// Venus Next vocabulary\ntag venus\nresource floater\n", encoding="utf-8")
    code, out, _ = _check(capsys, "--format", "json", str(path))
    assert json.loads(out)["diagnostics"] == []
    assert code == 0
