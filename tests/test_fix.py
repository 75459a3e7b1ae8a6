"""`tharsis check --fix` and `--diff`: the safe fixes a diagnostic carries, made until none is left, in the files a
designer asked about; and the same fixes in the JSON and SARIF reports (issue 20: "every did-you-mean must be
typed by hand")."""

import json
import textwrap
from pathlib import Path

import jsonschema
import pytest

from tharsis.cli import main
from tharsis.compiler import compile_text
from tharsis.compiler.diagnostics import Diagnostic, Fix, Span
from tharsis.designer.fixes import apply, span_text

SCHEMA = Path(__file__).parent / "schemas" / "sarif-2.1.0-subset.schema.json"

# Every misspelling issue 20 names, in one file; some hide others (the parser stops at the first in a card).
MISSPELT = textwrap.dedent("""\
    card "Typo Type" #FX1 {
      type: activ  cost 14
      tgas: spce
      requires oxygen => 5%
      action: gian 1 heat
      effect: when you plays city tile -> gain 1 plantss
    }
""")
CLEAN = textwrap.dedent("""\
    card "Typo Type" #FX1 {
      type: active  cost: 14
      tags: space
      requires: oxygen >= 5%
      action: gain 1 heat
      effect: when you place city tile -> gain 1 plant
    }
""")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_fix_turns_each_misspelling_into_clean_text(tmp_path, capsys):
    path = tmp_path / "typos.mars"
    path.write_text(MISSPELT, encoding="utf-8")
    code, out, _ = run(capsys, "check", "--fix", str(path))
    assert code == 0, out
    assert path.read_text(encoding="utf-8") == CLEAN
    for change in (f"fixed {path}:2:9: E105 'activ' -> 'active'", "E001 'cost' -> 'cost:'",
                   "E001 'tgas' -> 'tags'", "E102 'spce' -> 'space'", "E001 'requires' -> 'requires:'",
                   "E002 '=>' -> '>='", "E001 'gian' -> 'gain'", "E001 'plays' -> 'place'",
                   "E101 'plantss' -> 'plant'"):
        assert change in out
    assert out.splitlines()[-1] == "9 fixes made in 1 file; no problems left"
    assert run(capsys, "check", str(path))[0] == 0


def test_a_misspelt_plural_is_fixed_as_the_plural_fmt_writes(tmp_path, capsys):
    """`gain 2 plnts` became `gain 2 plant`, which `tharsis fmt` then rewrote: a fix keeps the number written."""
    path = tmp_path / "plural.mars"
    path.write_text(textwrap.dedent("""\
        card "Plural Typos" #FX2 {
          type: active  cost: 3
          holds: microbe
          play: gain 2 plnts; gain 2 stels; add 2 microbs here
        }
    """), encoding="utf-8")
    code, out, _ = run(capsys, "check", "--fix", str(path))
    assert code == 0, out
    assert "play: gain 2 plants; gain 2 steel; add 2 microbes here" in path.read_text(encoding="utf-8")
    assert "E101 'plnts' -> 'plants'" in out and "E101 'microbs' -> 'microbes'" in out
    assert run(capsys, "fmt", "--check", str(path))[0] == 0


def test_a_misspelt_plural_in_a_count_keeps_its_number(tmp_path, capsys):
    """`vp: 1 per 2 floatrs here` was fixed to `floater` (a count's resource kept the singular of its lookup)."""
    path = tmp_path / "count.mars"
    path.write_text(textwrap.dedent("""\
        card "Count Typos" #FX3 {
          type: active  cost: 3
          holds: floater
          action: add 1 floater here
          vp: 1 per 2 floatrs here
        }
        card "Count Typos Two" #FX4 {
          type: automated  cost: 3
          play: gain 1 MC per microbs on cards
        }
    """), encoding="utf-8")
    code, out, _ = run(capsys, "check", "--fix", str(path))
    assert code == 0, out
    text = path.read_text(encoding="utf-8")
    assert "vp: 1 per 2 floaters here" in text and "per microbes on cards" in text, text


def test_diff_shows_the_fixes_and_what_is_left_and_writes_nothing(tmp_path, capsys):
    path = tmp_path / "typos.mars"
    path.write_text(MISSPELT.replace("  action: gian 1 heat\n", "  action: gian 1 heat\n  vp: 1 per 10 oceans\n"),
                    encoding="utf-8")
    code, out, _ = run(capsys, "check", "--diff", str(path))
    assert code == 1  # there is something to fix
    assert path.read_text(encoding="utf-8").startswith(MISSPELT[:40])  # untouched
    assert f"--- {path} (as written)\n+++ {path} (fixed)\n" in out
    assert "\n-  type: activ  cost 14\n" in out and "\n+  type: active  cost: 14\n" in out
    assert f"would fix {path}:2:9: E105 'activ' -> 'active'" in out
    assert "9 fixes to make in 1 file; 1 problem left" in out
    assert "warning[W107]: these points can never be scored" in out


def test_a_word_close_to_two_gets_a_hint_and_no_fix(tmp_path, capsys):
    """`activated` is close to both `active` and `automated`: the hint names the closer, --fix guesses nothing."""
    path = tmp_path / "guess.mars"
    text = 'card "Guess" #FX2 {\n  type: activated  cost: 4\n  play: draw 1\n}\n'
    path.write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, "check", "--fix", str(path))
    assert code == 1
    assert path.read_text(encoding="utf-8") == text
    assert "0 fixes made in 0 files; 1 problem left" in out
    assert "error[E105]: unknown card type 'activated'" in out and "did you mean 'active'?" in out


def test_only_the_fixes_of_reported_problems_are_made(tmp_path, capsys):
    """A warning silenced (by --ignore or a suppression comment) keeps its text; the bundled boards decide."""
    path = tmp_path / "towns.mars"
    text = ('card "Noctis Town" #FX3 {\n  type: automated  cost: 10  tags: city\n'
            '  play: place city on reserved "Noctis Cty"\n}\n')
    path.write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, "check", "--fix", "--ignore", "W102", str(path))
    assert (code, path.read_text(encoding="utf-8")) == (0, text)
    code, out, _ = run(capsys, "check", "--fix", str(path))
    assert code == 0
    assert 'place city on reserved "Noctis City"' in path.read_text(encoding="utf-8")
    assert "W102 '\"Noctis Cty\"' -> '\"Noctis City\"'" in out


def test_fix_keeps_the_byte_order_mark_and_windows_line_endings(tmp_path, capsys):
    path = tmp_path / "windows.mars"
    path.write_bytes(b"\xef\xbb\xbf" + 'card "Win" #FX4 {\r\n  type: automatd  cost: 3\r\n  play: draw 1\r\n}\r\n'
                     .encode("utf-8"))
    assert run(capsys, "check", "--fix", str(path))[0] == 0
    assert path.read_bytes() == b"\xef\xbb\xbf" + 'card "Win" #FX4 {\r\n  type: automated  cost: 3\r\n' \
                                                  '  play: draw 1\r\n}\r\n'.encode("utf-8")


def test_the_bundled_content_is_never_rewritten(tmp_path, capsys, bundled):
    """A designer's card and the bundled content are compiled together; only PATH is fixed."""
    path = tmp_path / "mine.mars"
    path.write_text('card "My Own Mine" #FX5 {\n  type: automated  cost: 3  tags: buildng\n}\n', encoding="utf-8")
    code, out, _ = run(capsys, "check", "--fix", "--with-bundled", str(path))
    assert code == 0
    assert "tags: building" in path.read_text(encoding="utf-8")
    assert all(str(tmp_path) in line for line in out.splitlines() if line.startswith("fixed "))


@pytest.mark.parametrize("argv, message", [
    (["--fix", "--diff"], "--fix writes the fixes and --diff only shows them: give one of them"),
    (["--fix", "-"], "--fix cannot rewrite standard input"),
    (["--watch", "--diff"], "--watch checks again on every change and --diff runs once: give one of them"),
])
def test_fix_refuses_flags_that_contradict_it(argv, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.mars").write_text(CLEAN, encoding="utf-8")
    code, _, err = run(capsys, "check", *argv, *([] if "-" in argv else ["a.mars"]))
    assert code == 2
    assert f"error[E706]: {message}" in err


def test_diff_of_standard_input(tmp_path, capsys, monkeypatch):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(MISSPELT.encode("utf-8"))))
    code, out, _ = run(capsys, "check", "--diff", "-", "--stdin-filename", "mine/typos.mars", "--no-with-bundled")
    assert code == 1
    assert "+++ mine/typos.mars (fixed)" in out and "+  type: active  cost: 14\n" in out


def test_a_file_that_cannot_be_written_is_e708(tmp_path, capsys, monkeypatch):
    path = tmp_path / "locked.mars"
    path.write_text(MISSPELT, encoding="utf-8")
    from tharsis.compiler import writing

    rewrite = writing.Rewrite.__init__

    def read_only(self, path, *args, **kwargs):
        if Path(path).name == "locked.mars":
            raise PermissionError(13, "Permission denied", str(path))
        return rewrite(self, path, *args, **kwargs)

    monkeypatch.setattr(writing.Rewrite, "__init__", read_only)
    code, out, err = run(capsys, "check", "--fix", str(path))
    assert code == 2
    assert "error[E708]: cannot write the fixed file: Permission denied" in err
    assert path.read_text(encoding="utf-8") == MISSPELT


def test_the_json_report_carries_each_fix(tmp_path, capsys):
    path = tmp_path / "typo.mars"
    path.write_text('card "Typo" #FX6 {\n  type: automatd  cost: 3\n  play: draw 1\n}\n', encoding="utf-8")
    code, out, _ = run(capsys, "check", "--format", "json", "--no-with-bundled", str(path))
    assert code == 1
    [record] = json.loads(out)["diagnostics"]
    assert record["fixes"] == [{"path": str(path), "line": 2, "column": 9, "end_line": 2, "end_column": 17,
                                "replacement": "automated"}]


def test_the_sarif_report_carries_each_fix_as_a_replacement(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "typo.mars").write_text('card "Typo" #FX7 {\n  type: automated  cost 3\n  play: draw 1\n}\n',
                                        encoding="utf-8")
    code, out, _ = run(capsys, "check", "--format", "sarif", "--no-with-bundled", "typo.mars")
    assert code == 1
    log = json.loads(out)
    jsonschema.validate(log, json.loads(SCHEMA.read_text(encoding="utf-8")))
    [result] = log["runs"][0]["results"]
    assert result["fixes"] == [{
        "description": {"text": "replace with 'cost:'"},
        "artifactChanges": [{"artifactLocation": {"uri": "typo.mars", "uriBaseId": "%SRCROOT%"},
                             "replacements": [{"deletedRegion": {"startLine": 2, "startColumn": 20, "endLine": 2,
                                                                 "endColumn": 24},
                                               "insertedContent": {"text": "cost:"}}]}]}]


def test_a_fix_names_exactly_the_misspelt_word():
    """Every fix of the corpus of misspellings replaces the word its diagnostic is about, and nothing else."""
    result = compile_text(MISSPELT.replace("cost 14", "cost: 14").replace("requires oxygen =>", "requires: oxygen >=")
                          .replace("tgas:", "tags:").replace("gian", "gain").replace("plays", "place"), "typos.mars")
    found = {(d.code, span_text(result.sources["typos.mars"], d.fixes[0].span), d.fixes[0].replacement)
             for d in result.diagnostics if d.fixes}
    assert found == {("E105", "activ", "active"), ("E102", "spce", "space"), ("E101", "plantss", "plant")}


def test_fixes_that_touch_the_same_text_are_made_one_at_a_time():
    span = Span("x.mars", 1, 1, 1, 5)
    first = Diagnostic("E101", "error", "a", span, fixes=(Fix(span, "heat"),))
    inside = Span("x.mars", 1, 3, 1, 5)
    second = Diagnostic("E101", "error", "b", inside, fixes=(Fix(inside, "at"),))
    text, made = apply("heet gain", [second, first])
    assert (text, [m.after for m in made]) == ("heat gain", ["heat"])


def test_fix_with_a_machine_report_keeps_standard_output_for_the_report(tmp_path, capsys):
    """CI runs `check --fix --format json`: what changed goes to standard error, the report of what is left to
    standard output, so the JSON still parses."""
    path = tmp_path / "typos.mars"
    path.write_text(MISSPELT.replace("  action: gian 1 heat\n", "  action: gian 1 heat\n  vp: 0\n"), encoding="utf-8")
    code, out, err = run(capsys, "check", "--fix", "--format", "json", "--no-with-bundled", str(path))
    assert code == 0
    report = json.loads(out)
    assert (report["errors"], [d["code"] for d in report["diagnostics"]]) == (0, ["W103"])
    assert f"fixed {path}:2:9: E105 'activ' -> 'active'" in err
