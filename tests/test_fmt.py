"""`tharsis fmt`: canonical card files that compile to the same definitions, keep every comment, and are stable."""

import itertools
import json
import shutil
import textwrap
from pathlib import Path

import pytest

from tharsis.cli import main
from tharsis.compiler import bundled_cards_path, compile_paths
from tharsis.compiler.pipeline import EXTENSION
from tharsis.designer import fmt

MESSY = textwrap.dedent("""\
    // My set: two towns.


    card "Crater Town" #900 {   // the first town
       cost: 10   type: automated
      tags: city
      // it must go on the crater
      play: place city on reserved "Crater"  // tharsis: ignore[W102]
      vp: 1}   // after the town


    // between the towns
    card "Ridge Town" #901 { type: automated cost: 12 tags: city, building play: place city; production(plant +1) }
    // the end
""")
FORMATTED = textwrap.dedent("""\
    // My set: two towns.

    card "Crater Town" #900 {  // the first town
      type: automated  cost: 10  tags: city
      // it must go on the crater
      play: place city on reserved "Crater"  // tharsis: ignore[W102]
      vp: 1
    } // after the town

    // between the towns
    card "Ridge Town" #901 {
      type: automated  cost: 12  tags: city, building
      play: place city; production(plants +1)
    }

    // the end
""")


def _essence(result):
    return sorted((repr(fmt._essence(result.library.definitions, path)) for path in result.files))


def test_a_messy_file_gets_the_canonical_layout_with_every_comment_kept():
    assert fmt.format_text(MESSY, "towns.mars") == FORMATTED


def test_formatting_is_idempotent():
    assert fmt.format_text(FORMATTED, "towns.mars") == FORMATTED


def test_every_bundled_file_formats_stably_to_the_same_definitions_and_comments(tmp_path):
    copy = tmp_path / "cards"
    shutil.copytree(bundled_cards_path(), copy, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    before = compile_paths([copy], use_cache=False)
    first = fmt.format_paths([copy])
    assert [f.path for f in first.files if f.text is None] == []
    for formatted in first.files:
        Path(formatted.path).write_text(formatted.text, encoding="utf-8")
    after = compile_paths([copy], use_cache=False)
    assert after.errors == []
    assert _essence(after) == _essence(before)
    second = fmt.format_paths([copy])
    assert [f.path for f in second.files if f.changed] == []  # fmt(fmt(x)) == fmt(x)
    for formatted in first.files:
        assert sorted(fmt._comments(formatted.original)) == sorted(fmt._comments(formatted.text))


def test_the_bundled_cards_are_canonical(repo, capsys):
    """One canonical text: `tharsis fmt --check cards` passes, so the formatter's output is what the bundled cards
    are written in (issue 20: it reported 8 to 13 files to reformat)."""
    assert main(["fmt", "--check", str(repo / "cards")]) == 0
    out = capsys.readouterr().out
    assert "would reformat" not in out and out.startswith("0 files to reformat, ")


def _doc_examples(repo) -> list[tuple[str, str]]:
    import re

    found = []
    for name in ("language.md", "designing-cards.md"):
        text = (repo / "docs" / name).read_text(encoding="utf-8")
        found += [(f"docs/{name}#{index + 1}", block)
                  for index, block in enumerate(re.findall(r"```mars\n(.*?)```", text, re.S))]
    return found


def test_the_docs_examples_are_canonical_and_format_to_the_same_definitions(repo):
    """Whoever copies an example of the docs gets no diff from `tharsis fmt` (a pre-commit hook would show one on
    their first commit), and formatting any example changes no compiled definition."""
    from tharsis.compiler import compile_text

    examples = _doc_examples(repo)
    assert len(examples) >= 20
    for name, block in examples:
        formatted = fmt.format_text(block, name)
        assert formatted == block, name
        messy = block.replace("  ", "   ").replace("; ", " ;  ")
        before = compile_text(block, name)
        after = compile_text(fmt.format_text(messy, name), name)
        assert fmt._essence(after.library.definitions, name) == fmt._essence(before.library.definitions, name)


@pytest.mark.parametrize("written, canonical", [
    ("play: production(plant +1)", "play: production(plants +1)"),
    ("effect: when any player place city tile -> gain 2 megacredits",
     "effect: when any player places city tile -> gain 2 megacredits"),
    ("effect: when another player play jovian tag -> gain 1 MC",
     "effect: when another player plays jovian tag -> gain 1 MC"),
    ("effect: when you places city tile -> gain 1 megacredit", "effect: when you place city tile -> gain 1 MC"),
    ("play: gain 1 megacredits per city", "play: gain 1 MC per city"),
    ("action: pay 1 mc -> draw 1", "action: pay 1 MC -> draw 1"),
    ("play: gain 3 megacredit", "play: gain 3 megacredits"),
    ("effect: when you place tile tile on bonus steel -> gain 1 steel",
     "effect: when you place tile on bonus steel -> gain 1 steel"),
    ("play: reveal   players+1 cards ,each player takes 1", "play: reveal players + 1 cards, each player takes 1"),
    ("play: reveal 6 cards,each player takes 2  until   none left",
     "play: reveal 6 cards, each player takes 2 until none left"),
])
def test_card_text_agrees_in_english_as_the_docs_write_it(written, canonical):
    """Issue 20: fmt wrote `place` after `any player`, `plant` in productions and `gain 1 megacredits`."""
    card = f'card "Agreement" #AG1 {{\n  type: active  cost: 5\n  {written}\n}}\n'
    assert f"\n  {canonical}\n" in fmt.format_text(card, "agreement.mars")


def test_card_resources_counted_by_x_are_plural():
    card = ('card "Vats" #AG2 {\n  type: active  cost: 5  holds: microbe\n'
            '  action: choose X up to microbes here { remove X microbe here; gain X megacredits }\n'
            '  effect: protect microbe here\n}\n')
    formatted = fmt.format_text(card, "vats.mars")
    assert "{ remove X microbes here; gain X megacredits }" in formatted
    assert "  effect: protect microbes here\n" in formatted


LONG = ('card "Long Lines" #LL1 {\n  type: active  cost: 9  tags: science\n'
        '  play: production(energy -1, megacredits +2); choose { add 2 microbes to another card | '
        'add 2 animals to another card | gain 3 plants | gain 5 heat }\n'
        '  action: pay 6 megacredits using titanium -> gain 2 plants | spend 1 energy -> gain 1 steel; draw 1; '
        'gain 1 heat\n'
        '  effect: when you play plant or microbe or animal tag including this -> '
        'choose { gain 1 plant | gain 1 heat }\n'
        '}\n')


def test_long_fields_break_where_the_bundled_cards_break_them():
    assert fmt.format_text(LONG, "long.mars") == (
        'card "Long Lines" #LL1 {\n'
        '  type: active  cost: 9  tags: science\n'
        '  play: production(energy -1, megacredits +2);\n'
        '        choose { add 2 microbes to another card | add 2 animals to another card | gain 3 plants\n'
        '               | gain 5 heat }\n'
        '  action: pay 6 megacredits using titanium -> gain 2 plants\n'
        '        | spend 1 energy -> gain 1 steel; draw 1; gain 1 heat\n'
        '  effect: when you play plant or microbe or animal tag including this ->\n'
        '          choose { gain 1 plant | gain 1 heat }\n'
        '}\n')
    for line in fmt.format_text(LONG, "long.mars").splitlines():
        assert len(line) <= 100


def test_comments_on_a_broken_field_keep_their_line_and_a_suppression_keeps_the_field_whole():
    text = LONG.replace("gain 5 heat }\n", "gain 5 heat }  // the farm's choice\n")
    formatted = fmt.format_text(text, "long.mars")
    assert "               | gain 5 heat }  // the farm's choice\n" in formatted
    two_lines = LONG.replace("  play: production(energy -1, megacredits +2); ",
                             "  play: production(energy -1, megacredits +2);  // first\n        ")
    two_lines = two_lines.replace("gain 5 heat }\n", "gain 5 heat }  // last\n")
    formatted = fmt.format_text(two_lines, "long.mars")
    assert "  play: production(energy -1, megacredits +2);  // first\n" in formatted
    assert "| gain 5 heat }  // last\n" in formatted
    assert fmt.format_text(formatted, "long.mars") == formatted
    reserved = ('card "Crater Town" #CT9 {\n  type: automated  cost: 10  tags: city\n'
                '  play: production(energy -1, megacredits +2); gain 3 plants; place city on reserved "Crater"; '
                'draw 1; gain 2 heat  // tharsis: ignore[W102]\n}\n')
    formatted = fmt.format_text(reserved, "town.mars", with_bundled=True)
    assert ('  play: production(energy -1, megacredits +2); gain 3 plants; place city on reserved "Crater"; '
            'draw 1; gain 2 heat  // tharsis: ignore[W102]\n') in formatted


def test_one_line_definitions_written_together_stay_together():
    text = ('tag dome\nresource balloon\n\nmilestone "Domer" { requires: dome tags >= 5 }\n'
            'award "Balloonist" { measure: balloons on cards }\n\n\nmilestone "Lone" { requires: tr >= 30 }\n')
    assert fmt.format_text(text, "one-liners.mars") == (
        'tag dome\nresource balloon\n\nmilestone "Domer" { requires: dome tags >= 5 }\n'
        'award "Balloonist" { measure: balloons on cards }\n\nmilestone "Lone" { requires: tr >= 30 }\n')


def test_a_comment_that_would_be_lost_refuses_the_file(tmp_path, capsys):
    path = tmp_path / "towns.mars"
    text = MESSY.replace("cost: 10   type: automated", "cost: 10 // ten\n  type: automated // auto")
    path.write_text(text, encoding="utf-8")
    assert main(["fmt", str(path)]) == 1
    assert path.read_text(encoding="utf-8") == text  # untouched
    err = capsys.readouterr().err
    assert f"{path}:6:19: error[E805]: not formatted: the comment inside card \"Crater Town\" would be lost" in err
    assert "another end-of-line comment already goes on that field's line" in err
    assert f"tharsis: {path} not formatted: see above" in err


def test_a_file_with_errors_is_left_alone(tmp_path, capsys):
    path = tmp_path / "towns.mars"
    path.write_text(MESSY.replace("tags: city\n", "tags: cty\n"), encoding="utf-8")
    assert main(["fmt", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    # named with its first error, not the whole report: `tharsis check` prints that (the pre-commit hooks run both)
    assert "error[E102]" not in captured.err and "^" not in captured.err
    assert (f"tharsis: {path} not formatted: it has 1 error, the first at {path}:6:9: E102 unknown tag 'cty' "
            "(tharsis check shows it)") in captured.err
    assert "0 files formatted, 0 already formatted, 1 not formatted" in captured.out


def test_check_lists_unformatted_files_with_a_diff_and_writes_nothing(tmp_path, capsys):
    path = tmp_path / "towns.mars"
    path.write_text(MESSY, encoding="utf-8")
    (tmp_path / "done.mars").write_text(FORMATTED.replace("Town", "Village").replace("#90", "#80"),
                                        encoding="utf-8")
    assert main(["fmt", "--check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"would reformat {path}" in out
    assert f"--- {path} (as written)" in out and f"+++ {path} (formatted)" in out
    assert "-   cost: 10   type: automated\n-  tags: city\n+card \"Crater Town\" #900 {  // the first town\n" \
           "+  type: automated  cost: 10  tags: city\n" in out
    assert "1 file to reformat, 1 already formatted" in out
    assert path.read_text(encoding="utf-8") == MESSY


def test_diff_prints_the_changes_without_check_messages(tmp_path, capsys):
    path = tmp_path / "towns.mars"
    path.write_text(MESSY, encoding="utf-8")
    assert main(["fmt", "--diff", str(path)]) == 1
    out = capsys.readouterr().out
    assert "would reformat" not in out and "+    play: place city; production(plants +1)" not in out
    assert "+  play: place city; production(plants +1)" in out
    assert path.read_text(encoding="utf-8") == MESSY


def test_fmt_rewrites_in_place_then_check_passes(tmp_path, capsys, monkeypatch):
    (tmp_path / "mine").mkdir()
    path = tmp_path / "mine" / "towns.mars"
    path.write_text(MESSY, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.tharsis]\ncards = ["mine"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["fmt"]) == 0
    assert "formatted mine/towns.mars" in capsys.readouterr().out
    assert path.read_text(encoding="utf-8") == FORMATTED
    assert main(["fmt", "--check"]) == 0
    assert "0 files to reformat, 1 already formatted" in capsys.readouterr().out


def test_a_suppression_keeps_working_after_formatting(tmp_path, capsys):
    path = tmp_path / "towns.mars"
    path.write_text(fmt.format_text(MESSY, "towns.mars"), encoding="utf-8")
    assert main(["check", "--with-bundled", "--strict", str(path)]) == 0
    assert "no problems" in capsys.readouterr().out


SUPPRESSED_FIELDS = ("type: automated", "cost: 10", "tags: city", "requires: oxygen >= 5%",
                     'play: place city on reserved "Crater"', "vp: 1")


def _suppressed_layouts():
    """The card's fields split into lines every possible way (32), the suppression at the end of play's line."""
    for cuts in itertools.product((False, True), repeat=len(SUPPRESSED_FIELDS) - 1):
        lines = [[SUPPRESSED_FIELDS[0]]]
        for field, cut in zip(SUPPRESSED_FIELDS[1:], cuts):
            lines.append([field]) if cut else lines[-1].append(field)
        yield "\n".join("  " + "  ".join(line) + ("  // tharsis: ignore[W102]" if any(
            field.startswith("play:") for field in line) else "") for line in lines)


def _strict_check(capsys, folder) -> list[tuple[str, str]]:
    capsys.readouterr()
    main(["check", "--format", "json", "--strict", str(folder)])
    return [(d["code"], d["message"]) for d in json.loads(capsys.readouterr().out)["diagnostics"]]


def test_a_suppression_stays_with_the_field_it_silences_whatever_the_layout(tmp_path, capsys):
    """With `play:` on the line of a field after it (`play: ... vp: 1 // tharsis: ignore[W102]`), fmt moved the
    suppression to vp's canonical line (16 of these 32 layouts): check then reported W102 and W801."""
    for number, body in enumerate(_suppressed_layouts()):
        (tmp_path / f"town{number}.mars").write_text(f'card "Crater Town {number}" #CT{number} {{\n{body}\n}}\n',
                                                     encoding="utf-8")
    assert _strict_check(capsys, tmp_path) == []
    assert main(["fmt", str(tmp_path)]) == 0
    assert "31 files formatted, 1 already formatted" in capsys.readouterr().out
    assert _strict_check(capsys, tmp_path) == []
    for number in range(32):
        text = (tmp_path / f"town{number}.mars").read_text(encoding="utf-8")
        assert '  play: place city on reserved "Crater"  // tharsis: ignore[W102]\n' in text


def test_fmt_refuses_a_file_whose_warnings_would_change(tmp_path, capsys, monkeypatch):
    """The safety net: were a suppression ever put on the wrong line, the file is refused, not written."""
    path = tmp_path / "town.mars"
    text = 'card "Crater Town" #CT1 {\n  type: automated  cost: 10  tags: city\n' \
           '  play: place city on reserved "Crater"  vp: 1  // tharsis: ignore[W102]\n}\n'
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(fmt, "_silenced_lines", lambda *args: set())  # the placement before the fix
    assert main(["fmt", str(path)]) == 1
    assert path.read_text(encoding="utf-8") == text
    err = capsys.readouterr().err
    assert f"{path}:1:1: error[E806]: not formatted: the canonical text would change the warnings tharsis check " \
           "reports" in err
    monkeypatch.undo()
    two = 'corporation "Crater Trust" #CT2 {\n  start: 40 megacredits\n  play: place city on reserved "Crater"  ' \
          'first action: place greenery on reserved "Vent"  // tharsis: ignore[W102]\n}\n'
    with pytest.raises(ValueError, match="the warnings it silences belong to fields that go on different lines"):
        fmt.format_text(two, "trust.mars", with_bundled=True)  # one suppression, two fields' warnings: no one place


def test_fmt_writes_what_cards_format_text_prints(tmp_path, capsys):
    path = tmp_path / "towns.mars"
    path.write_text(MESSY, encoding="utf-8")
    assert main(["cards", "--format", "text", str(path)]) == 0
    printed = capsys.readouterr().out
    assert 'card "Ridge Town" #901 {\n  type: automated  cost: 12  tags: city, building\n' in printed
    assert printed.split("\n\n")[1].strip() in FORMATTED


@pytest.mark.parametrize("text", ["", "// only a comment\n\n\n// and another   \n"])
def test_files_without_definitions_keep_their_comments(text):
    expected = "// only a comment\n\n// and another\n" if text else ""
    assert fmt.format_text(text, f"empty{EXTENSION}") == expected


def test_standard_input_is_formatted_to_standard_output(tmp_path):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "tharsis", "fmt", "-", "--stdin-filename", "towns.mars"],
                          input=MESSY, capture_output=True, text=True, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, FORMATTED)
    broken = subprocess.run([sys.executable, "-m", "tharsis", "fmt", "-", "--stdin-filename", "towns.mars"],
                            input=MESSY.replace("type: automated", "type: automatic", 1), capture_output=True,
                            text=True, cwd=tmp_path)
    assert broken.returncode == 1 and broken.stdout == ""  # the editor keeps its buffer
    assert "towns.mars:5:21: error[E105]: unknown card type 'automatic'" in broken.stderr


@pytest.fixture(scope="module")
def bundled_card_texts(bundled):
    from tharsis.compiler import text

    # the printed sets: a card of an expansion needs its expansion's declarations (a kind of card, a parameter)
    # beside it, and this property formats one card alone
    return [text.card(d) for d in bundled.library.cards + bundled.library.corporations
            if d.set in ("base", "corpera")]


def test_any_layout_of_any_card_formats_to_the_same_card_keeping_its_comments(bundled_card_texts):
    """Property: spaces and comments anywhere a designer may put them never change what a card compiles to, never
    lose a comment, and format to a fixed point; the only refusal is two end-of-line comments for one line."""
    from hypothesis import HealthCheck, given, settings, strategies as st

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.data())
    def check(data):
        canonical = data.draw(st.sampled_from(bundled_card_texts))
        source = canonical.split("\n")
        if data.draw(st.booleans()):  # "type: active  cost: 3  tags: science" as one field per line
            source[1:2] = source[1].strip().split("  ")
        lines = []
        for number, line in enumerate(source):
            words = _words_outside_strings(line)
            spaces = data.draw(st.lists(st.sampled_from([" ", "  ", "   ", "\t"]), min_size=len(words),
                                        max_size=len(words)))
            line = "".join(space + word for space, word in zip(spaces, words))
            if data.draw(st.booleans()):
                line += f"  // note {number}"
            if number and data.draw(st.integers(0, 5)) == 0:
                lines.append(f"// above {number}")
            lines.append(line)
        messy = "\n".join(lines) + "\n"
        run = fmt.format_sources({"card.mars": messy})
        formatted = run.files[0]
        assert run.compile_errors == []
        if formatted.text is None:
            assert [d.code for d in formatted.problems] == ["E805"], formatted.problems
            assert "another end-of-line comment" in formatted.problems[0].message
            return
        assert formatted.text.split("\n", 1)[0].startswith(canonical.split("\n", 1)[0])
        assert sorted(fmt._comments(formatted.text)) == sorted(fmt._comments(messy))
        assert fmt.format_text(formatted.text, "card.mars") == formatted.text
        again = compile_paths_text(formatted.text)
        assert again == compile_paths_text(canonical + "\n")

    check()


def _words_outside_strings(line: str) -> list[str]:
    """The line split at spaces, keeping "quoted names" whole."""
    words, current, quoted = [], "", False
    for ch in line.strip():
        if ch == '"':
            quoted = not quoted
        if ch == " " and not quoted:
            if current:
                words.append(current)
            current = ""
            continue
        current += ch
    return words + ([current] if current else [])


def compile_paths_text(text: str):
    from tharsis.compiler import compile_text

    result = compile_text(text, "card.mars")
    assert result.errors == []
    return fmt._essence(result.library.definitions, "card.mars")


def test_a_file_that_cannot_be_written_is_e708_and_the_others_are_still_formatted(tmp_path, capsys, monkeypatch):
    """A read-only card file (root ignores permissions, so the test makes the write fail) crashed with exit 3."""
    for name in ("locked.mars", "open.mars"):
        (tmp_path / name).write_text(MESSY.replace("#90", "#X9" if name == "open.mars" else "#90")
                                     .replace("Town", "Town " + name[0].upper()), encoding="utf-8")
    from tharsis.compiler import writing

    rewrite = writing.Rewrite.__init__

    def read_only(self, path, *args, **kwargs):
        if Path(path).name == "locked.mars":
            raise PermissionError(13, "Permission denied", str(path))
        return rewrite(self, path, *args, **kwargs)

    monkeypatch.setattr(writing.Rewrite, "__init__", read_only)
    monkeypatch.chdir(tmp_path)
    assert main(["fmt", "locked.mars", "open.mars"]) == 2
    captured = capsys.readouterr()
    assert captured.out.splitlines() == ["formatted open.mars",
                                         "1 file formatted, 0 already formatted, 1 not formatted"]
    assert captured.err.splitlines() == [
        "locked.mars: error[E708]: cannot write the formatted file: Permission denied; the file is as it was "
        "before: nothing in it was lost",
        "     = hint: make room or make the file writable, or run tharsis fmt --diff to see the changes"]
    assert (tmp_path / "open.mars").read_text(encoding="utf-8") != MESSY


def test_a_file_given_alone_is_formatted_with_the_declarations_of_its_folder(tmp_path, capsys):
    """Trial 6: `tharsis fmt FILE` refused a card using a resource declared in a sibling file (E101), while `check
    FOLDER` was clean; the sibling is compiled with it, and neither formatted nor listed."""
    (tmp_path / "declarations.mars").write_text("resource data\n", encoding="utf-8")
    card = tmp_path / "cards.mars"
    card.write_text('card "Data Hoard" {\n  type: active  cost: 1  holds: data\n'
                    '  action: add 1 data here\n}\n', encoding="utf-8")
    assert main(["fmt", str(card)]) == 0
    assert "1 file formatted, 0 already formatted" in capsys.readouterr().out
    assert card.read_text(encoding="utf-8").splitlines()[1:3] == ["  type: active  cost: 1", "  holds: data"]
    assert main(["cards", str(card), "--format", "rules"]) == 0
    shown = capsys.readouterr().out
    assert "Data Hoard" in shown and "Add 1 data to this card" in shown
