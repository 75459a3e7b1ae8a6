"""Hostile input ends in a clear error with its code, quickly, and never in "internal error" (exit 3) or a hang.

Round 1 (issue 10), card text: the corpus (tests/broken/, test_broken_corpus.py) pins the codes and positions; this
file pins the words a designer reads (the hints), and the time: each of these inputs at tens of thousands of
characters used to take 6-14 s in the parser's error recovery (a regex search anchored at the end retried every
start position).

Round 2 (issue 18), what surrounds the card text: answers typed at the play prompt (H1, H2), paths the system
refuses to look at (H3), control characters in scenario files (H4), files and standard input too large to read
whole (M4) and named pipes among the scenarios (M7); then bounded fuzzing of the prompt and of path arguments.
Subprocesses run with a timeout (and a memory cap where a regression would read gigabytes), so that a regression
fails instead of hanging CI.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

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


# ====================================================================================== round 2 (issue 18)

LONG = "n" * 300                  # a file or folder name over the 255 bytes the system allows
ERROR_CODE = re.compile(r"\b[EW]\d{3}\b")
SCHEMA = Path(__file__).resolve().parent / "schemas" / "sarif-2.1.0-subset.schema.json"
CARD = 'card "Hostile Garden" #HG1 {\n  type: automated  cost: 3\n  play: gain 1 plants\n}\n'
PASSING = ("- name: A minimum temperature requirement refuses the card below it\n"
           "  setup:\n    globals: {temperature: -26}\n    players:\n"
           "      alice: {resources: {megacredits: 7}, hand: [Lichen]}\n      bob: {}\n"
           "  steps:\n    - play: Lichen\n      refused: requires temperature >= -24\n")


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _tharsis(*args: str, memory: int | None = None, timeout: float = 120, stdin: bytes = b"",
             cwd: Path | None = None, strict: bool = False) -> subprocess.CompletedProcess:
    """`tharsis ARGS` in a subprocess, killed after `timeout` seconds; `memory` caps its address space, so that a
    regression reading gigabytes fails with MemoryError rather than swapping the machine; `strict`: standard input
    and output as a UTF-8 locale makes them (no surrogateescape). Its output is decoded as the bytes it is."""
    def cap() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    env = dict(os.environ, PYTHONIOENCODING="utf-8:strict") if strict else None
    return subprocess.run([sys.executable, "-m", "tharsis", *args], input=stdin, capture_output=True,
                          timeout=timeout, cwd=cwd, env=env, preexec_fn=cap if memory else None)


def _shown(result: subprocess.CompletedProcess) -> str:
    return (result.stdout + result.stderr).decode("utf-8", "surrogateescape")


def _stdin(data: bytes):
    return io.TextIOWrapper(io.BufferedReader(io.BytesIO(data)), encoding="utf-8")


# ------------------------------------------------------------------ H1, H2: the play prompt

def _prompt(monkeypatch, tmp_path, capsys, *lines: str) -> str:
    """`tharsis play` (ann, a human, against a greedy bot, no log) answered with `lines` then `quit`: it must exit 0
    (the game goes on after every refused answer, and leaving saves it); returns the screen."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines + ("quit",)) + "\n"))
    code, out, err = _run(capsys, "play", "--seat", "ann=human", "--seat", "bob=greedy", "--seed", "3", "--no-log")
    assert code == 0, err
    assert "Game saved to tharsis-save-3.json" in out
    return out


@pytest.mark.parametrize("digit", ["²", "³", "¹", "①", "٣", "²3"])
def test_a_digit_other_than_0_to_9_is_a_refused_answer_and_the_game_goes_on(digit, monkeypatch, tmp_path, capsys):
    """H1: `²` is a digit to str.isdigit() but no number int() reads; the answer reader went from one to the other
    (exit 3, and with --no-log the game was lost). Only 0-9 write numbers, for options, spaces and cards to buy."""
    out = _prompt(monkeypatch, tmp_path, capsys, digit, "1", f"buy {digit}", f"buy 1-{digit}", "buy 1")
    refusal = f"'{digit}' is not a number you can answer with: type numbers with the digits 0-9"
    assert out.count(refusal) == 3
    assert "buying 1 card" in out  # the answers after the refusals were taken


def test_a_number_of_thousands_of_digits_is_no_option_not_a_crash(monkeypatch, tmp_path, capsys):
    """H1: int() refuses more than 4,300 digits; such a number is simply beyond every option."""
    many = "9" * 5000
    out = _prompt(monkeypatch, tmp_path, capsys, many, "1", f"buy {many}", f"buy 1-{many}")
    assert "there is no option 99999999...999999999: the options are numbered 1-" in out
    assert "there is no card 99999999...999999999: the cards are numbered 1-10" in out
    assert "there is no card 11: the cards are numbered 1-10" in out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_log_that_is_a_named_pipe_is_refused_before_the_game_starts(tmp_path, monkeypatch, capsys):
    """A pipe with no reader blocks the first write of the log: the game would hang. Refused as E708, exit 2."""
    fifo = tmp_path / "game.jsonl"
    os.mkfifo(fifo)
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(capsys, "play", "--seat", "ann=greedy", "--seat", "bob=greedy", "--seed", "3",
                          "--log", str(fifo))
    assert code == 2 and "E708" in err and "is not a regular file (a pipe, a device or a socket)" in err
    assert "--no-log" in err and "Generation 1" not in out


def test_a_range_that_counts_down_is_refused_with_the_range_that_counts_up(monkeypatch, tmp_path, capsys):
    """`buy 3-1` selected no card and the player bought nothing without a word; it is refused, saying how to write
    it, and the next answer is taken."""
    out = _prompt(monkeypatch, tmp_path, capsys, "1", "buy 3-1", "buy 1-2")
    assert "'3-1' counts down and so names no card: a range goes from the lower number up (1-3)" in out
    assert "buying 2 cards" in out


def test_a_line_that_is_not_utf8_is_a_refused_answer(tmp_path):
    """H1's neighbour: a terminal in another encoding types bytes that are not UTF-8; a UTF-8 locale's strict
    standard input raised UnicodeDecodeError (exit 3). They are an answer that names no option."""
    result = _tharsis("play", "--seat", "ann=human", "--seat", "bob=greedy", "--seed", "3", "--no-log",
                      stdin=b"\xff\xb2\n1\nquit\n", cwd=tmp_path, strict=True)
    shown = _shown(result)
    assert result.returncode == 0, shown[-2000:]
    assert "is not one of the options" in shown and "Game saved to tharsis-save-3.json" in shown


@pytest.mark.parametrize("name, reason", [("n" * 300, "File name too long; a file or folder name holds at most 255"),
                                          ("mine\0.json", "the path holds a NUL character"),
                                          ("nowhere/mine.json", "No such file or directory")])
def test_save_refuses_a_name_the_system_refuses_and_the_game_goes_on(name, reason, monkeypatch, tmp_path, capsys):
    """H2: `save NAME` with a name over 255 bytes or a NUL character was exit 3, the game lost."""
    out = _prompt(monkeypatch, tmp_path, capsys, f"save {name}", "1")
    assert re.search(r"could not save to \S+: " + re.escape(reason), out), out[-2000:]
    assert out.count("ann: Choose your corporation") == 2  # asked again, then answered


# ------------------------------------------------------------------ H3: paths the system refuses to look at

PATH_CASES = {  # argv ({long}: a path whose last name is over 255 bytes), exit code, code
    "check PATH": (["check", "{long}.mars"], "E705"),
    "fmt PATH": (["fmt", "{long}.mars"], "E705"),
    "cards PATH": (["cards", "{long}.mars"], "E705"),
    "test PATH": (["test", "{long}.yaml"], "E705"),
    "test --cards": (["test", "--cards", "{long}", "{scenario}"], "E705"),
    "gallery DIR": (["gallery", "{long}", "{card}"], "E730"),
    "gallery PATH": (["gallery", "{tmp}/site", "{long}.mars"], "E705"),
    "check --config": (["check", "--config", "{long}.toml", "{card}"], "E705"),
    "replay": (["replay", "{long}.jsonl"], "E710"),
    "play --load": (["play", "--load", "{long}.json"], "E710"),
    "play --cards": (["play", "--cards", "{long}", "--no-log"], "E705"),
    "play --log": (["play", "--log", "{long}.jsonl"], "E708"),
    "test --junit-xml": (["test", "--junit-xml", "{long}.xml", "{scenario}"], "E708"),
    "a folder over 255 bytes": (["check", "{long}/cards.mars"], "E705"),
}


def _project(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "card.mars").write_text(CARD, encoding="utf-8")
    (tmp_path / "lichen.yaml").write_text(PASSING, encoding="utf-8")
    return {"long": str(tmp_path / LONG), "tmp": str(tmp_path), "card": str(tmp_path / "card.mars"),
            "scenario": str(tmp_path / "lichen.yaml")}


@pytest.mark.parametrize("argv, code", PATH_CASES.values(), ids=PATH_CASES.keys())
def test_a_name_over_255_bytes_is_a_coded_usage_error(argv, code, tmp_path, monkeypatch, capsys):
    """H3: every OSError of a path a user gives (here ENAMETOOLONG) is that path's E7xx, exit 2: it was exit 3 in
    fourteen places."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    places = _project(tmp_path)
    exit_code, out, err = _run(capsys, *[part.format(**places) for part in argv])
    assert exit_code == 2, err
    assert f"error[{code}]" in err and "255 bytes" in err and "internal error" not in err


def test_check_sarif_reports_a_refused_path_in_a_valid_log(tmp_path, capsys):
    """H3: `check --format sarif` printed nothing, so a CI upload received an empty file."""
    import jsonschema

    exit_code, out, err = _run(capsys, "check", "--format", "sarif", str(tmp_path / (LONG + ".mars")))
    log = json.loads(out)
    jsonschema.validate(log, json.loads(SCHEMA.read_text(encoding="utf-8")))
    notes = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert exit_code == 2 and err == ""
    assert [n["descriptor"]["id"] for n in notes] == ["E705"] and "255 bytes" in notes[0]["message"]["text"]


def test_configured_paths_the_system_refuses_are_e705(tmp_path, monkeypatch, capsys):
    """H3: `cards = [...]` (and `scenarios`) of [tool.tharsis], where TOML may even write a NUL character."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text(f'[tool.tharsis]\ncards = ["{LONG}", "a\\u0000b"]\n'
                                             'scenarios = ["s\\u0000"]\n', encoding="utf-8")
    for argv in (["check"], ["fmt"], ["test"], ["gallery", "site"]):
        exit_code, out, err = _run(capsys, *argv)
        assert exit_code == 2, (argv, err)
        assert "error[E705]: 'cards' of pyproject.toml: cannot use 'nnnnn" in err
        assert "error[E705]: 'cards' of pyproject.toml: cannot use 'a\\x00b': the path holds a NUL character" in err
        if argv == ["test"]:
            assert "error[E705]: 'scenarios' of pyproject.toml: cannot use 's\\x00'" in err


def test_stdin_filename_is_only_a_name_even_one_the_system_refuses(tmp_path, monkeypatch, capsys):
    """H3: the name given to standard input need not exist; one over 255 bytes names the text all the same."""
    name = str(tmp_path / (LONG + ".mars"))
    monkeypatch.setattr("sys.stdin", _stdin(CARD.encode("utf-8")))
    exit_code, out, err = _run(capsys, "check", "--stdin-filename", name, "-")
    assert exit_code == 0 and "checked 1 file: 1 definitions, no problems" in out, err


@pytest.mark.skipif(sys.platform == "win32", reason="file names are bytes on POSIX systems only")
@pytest.mark.parametrize("output", ["text", "json", "github", "sarif"])
def test_a_file_name_that_is_not_utf8_is_reported_by_its_bytes(output, tmp_path):
    """Found by the path fuzzing below: a name with the byte 0x82 reaches Python as a surrogate, which the compile
    cache's key, the SARIF URI and a strict (UTF-8 locale) standard output could not encode: exit 3."""
    (tmp_path / os.fsdecode(b"\x82.mars")).write_text(CARD.replace("automated", "automatd"), encoding="utf-8")
    result = _tharsis("check", "--format", output, os.fsdecode(b"\x82.mars"), cwd=tmp_path, strict=True)
    shown = _shown(result)
    assert result.returncode == 1 and "internal error" not in shown, shown[-2000:]
    assert "E105" in shown
    if output == "sarif":
        assert '"uri": "%82.mars"' in shown


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
@pytest.mark.parametrize("argv, code", [(["check", "{loop}"], "E705"), (["replay", "{loop}"], "E710"),
                                        (["play", "--log", "{loop}"], "E708"), (["gallery", "{loop}"], "E730"),
                                        (["test", "--junit-xml", "{loop}/r.xml", "{scenario}"], "E708")])
def test_a_loop_of_symbolic_links_is_a_coded_usage_error(argv, code, tmp_path, monkeypatch, capsys):
    """H3, ELOOP: the same check words every OSError, each under its own code."""
    monkeypatch.chdir(tmp_path)
    places = _project(tmp_path)
    os.symlink("loop", tmp_path / "loop")
    exit_code, out, err = _run(capsys, *[part.format(loop=str(tmp_path / "loop"), **places) for part in argv])
    assert exit_code == 2 and f"error[{code}]" in err and "symbolic link" in err, err


# ------------------------------------------------------------------ H4: control characters in scenario files

@pytest.mark.parametrize("character", ["\x00", "\x01", "\x1b", "\x7f", "\x9f", "\ufffe", "\uffff"])
def test_a_control_character_in_a_scenario_file_is_that_files_e601(character, tmp_path, capsys):
    """H4: PyYAML's reader refuses these characters before parsing, with an error that was not caught: exit 3, and
    the files after it never ran. It is the file's E601 at the character, and the run goes on to its summary."""
    folder = tmp_path / "scenarios"
    folder.mkdir()
    broken = PASSING.replace("globals:", "globals:" + character, 1)  # line 3, column 13
    (folder / "a.yaml").write_text(broken, encoding="utf-8")
    (folder / "b.yaml").write_text(PASSING, encoding="utf-8")
    exit_code, out, err = _run(capsys, "test", str(folder))
    assert exit_code == 1, err
    assert (f"{folder / 'a.yaml'}:3:13: error[E601]: not valid YAML: the character U+{ord(character):04X} "
            "(a control character or a non-character) is not allowed in a YAML file") in out
    escape = f"\\x{ord(character):02x}" if ord(character) < 0x100 else f"\\u{ord(character):04x}"
    assert f'write it as an escape in double quotes: "{escape}"' in out
    assert f"PASS {folder / 'b.yaml'}" in out and out.rstrip().endswith("1 passed, 1 failed")


# ------------------------------------------------------------------ M4: files and standard input read in bounds

FOUR_GB = 4 * 2**30
MEMORY_CAP = 2**30  # a regression reading the file whole fails with MemoryError well before 4 GB


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs sparse files and RLIMIT_AS")
@pytest.mark.parametrize("how", ["check FILE", "check FOLDER", "play --cards FOLDER", "a save's card folder"])
def test_a_four_gigabyte_card_file_is_refused_after_reading_256_kb(how, tmp_path):
    """M4: `truncate -s 4G big.mars` was read whole before the 256 KB limit applied: MemoryError, exit 3."""
    folder = tmp_path / "mine"
    folder.mkdir()
    big = folder / "big.mars"
    big.write_text(CARD, encoding="utf-8")
    args = {"check FILE": ["check", str(big)], "check FOLDER": ["check", str(folder)],
            "play --cards FOLDER": ["play", "--seat", "a=random", "--seat", "b=random", "--cards", str(folder),
                                    "--no-log"]}.get(how)
    if args is None:  # a save of a game played with the folder, whose card file has grown since
        from tharsis.games.options import Seat
        from tharsis.games.saves import save_data
        from tharsis.runtime.api.game import Game, GameOptions

        game = Game(GameOptions(players=("a", "b"), seed=1, card_paths=(str(folder),)))
        save = tmp_path / "save.json"
        save.write_text(json.dumps(save_data(game, [Seat("a", "human"), Seat("b", "human")])), encoding="utf-8")
        args = ["replay", str(save)]
    os.truncate(big, FOUR_GB)
    result = _tharsis(*args, memory=MEMORY_CAP)
    shown = _shown(result)
    assert result.returncode == 1, shown[-2000:]
    assert "error[E004]: file is too large (more than 256 KB); a card file may hold at most 256 KB" in shown
    assert "internal error" not in shown


class _Yes(io.RawIOBase):
    """`yes`: an endless standard input. Reading more than 16 MB of it fails the test (the limit is 256 KB)."""

    def __init__(self):
        self.served = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        self.served += len(buffer)
        assert self.served <= 16 * 2**20, "standard input is being read whole"
        buffer[:] = (b"y\n" * (len(buffer) // 2 + 1))[:len(buffer)]
        return len(buffer)


@pytest.mark.parametrize("command", ["check", "fmt"])
def test_endless_standard_input_is_refused_after_256_kb(command, monkeypatch, capsys):
    """M4: `yes | tharsis check -` read standard input whole: MemoryError after minutes."""
    endless = _Yes()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(endless)))
    exit_code, out, err = _run(capsys, command, "-")
    assert exit_code == 1, err
    assert "<stdin>:1:1: error[E004]: file is too large (more than 256 KB)" in out + err
    assert endless.served < 2**20


# ------------------------------------------------------------------ M7: a named pipe among the scenarios

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_among_the_scenarios_is_refused_not_waited_on(tmp_path):
    """M7: a FIFO called *.yaml in a scenario folder was opened, which waits for a writer forever."""
    folder = tmp_path / "scenarios"
    folder.mkdir()
    os.mkfifo(folder / "a.yaml")
    (folder / "b.yaml").write_text(PASSING, encoding="utf-8")
    result = _tharsis("test", str(folder), timeout=90)
    shown = _shown(result)
    assert result.returncode == 1, shown[-2000:]
    assert (f"{folder / 'a.yaml'}:1:1: error[E604]: cannot read the file: not a regular file (a device, a pipe or a "
            "socket, whose reading might never end)") in shown
    assert f"PASS {folder / 'b.yaml'}" in shown and "1 passed, 1 failed" in shown


# ------------------------------------------------------------------ fuzzing: the play prompt and path arguments

FUZZ = settings(max_examples=int(os.environ.get("THARSIS_FUZZ_EXAMPLES", "25")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
_FUZZ_DIR = tempfile.TemporaryDirectory(prefix="tharsis-hostile-")


def _name(data: bytes) -> str:
    """Bytes as the name of a file inside a folder: no separator and no `..` (nothing may land outside it)."""
    data = data.replace(b"/", b"_") or b"_"
    return os.fsdecode(b"_" if data in (b".", b"..") else data)


NAME_BYTES = st.one_of(st.binary(min_size=1, max_size=24), st.binary(min_size=250, max_size=320),
                       st.integers(250, 320).map(lambda n: b"x" * n))
ANSWERS = st.lists(st.one_of(
    st.text(max_size=30),
    st.text(alphabet=st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=5),  # digits of any script
    st.text(alphabet="0123456789", min_size=1, max_size=6000),
    st.sampled_from(["1", "2", "3", "buy 1", "buy all", "buy none", "undo", "options", "history", "card ", "player"]),
    st.builds("buy {}".format, st.text(max_size=12)),
    st.builds("space {}".format, st.text(max_size=8)),
    st.builds(lambda data: f"save {_FUZZ_DIR.name}/{_name(data)}", NAME_BYTES | st.just(b"a\0b")),
), max_size=12)


@FUZZ
@given(ANSWERS)
def test_fuzz_no_answer_at_the_play_prompt_stops_the_game(answers):
    """Whatever is typed, the session goes on to `quit` and leaves with the game saved (never an exception)."""
    from tharsis.games.options import Seat
    from tharsis.runtime.api.game import Game, GameOptions
    from tharsis.terminal.play import GameLog, Session

    screen = io.StringIO()
    session = Session(Game(GameOptions(players=("ann", "bob"), seed=3)), [Seat("ann", "human"), Seat("bob", "greedy")],
                      GameLog(None), stdin=io.StringIO("\n".join(answers + ["quit"]) + "\n"), stdout=screen,
                      autosave=Path(_FUZZ_DIR.name) / "autosave.json")
    assert session.run() == 0
    assert "Game saved to" in screen.getvalue() or "(input ended)" in screen.getvalue() or session.game.over


PATH_COMMANDS = [["check", "{p}"], ["check", "--format", "sarif", "{p}"], ["fmt", "--check", "{p}"], ["cards", "{p}"],
                 ["test", "{p}"], ["gallery", "{p}", "{dir}/missing.mars"], ["gallery", "{dir}/site", "{p}"],
                 ["check", "--config", "{p}", "{dir}/missing.mars"], ["replay", "{p}"], ["play", "--load", "{p}"],
                 ["play", "--cards", "{p}", "--no-log"], ["play", "--log", "{p}"],
                 ["test", "--junit-xml", "{p}", "{dir}/missing.yaml"], ["check", "--stdin-filename", "{p}", "-"]]


@FUZZ
@given(st.sampled_from(PATH_COMMANDS), st.lists(NAME_BYTES, min_size=1, max_size=3))
def test_fuzz_a_path_argument_ends_in_a_coded_answer(argv, names):
    """Random bytes in the names of a path (as the command line hands them to Python): never exit 3, and a run that
    fails says why with a code."""
    with tempfile.TemporaryDirectory(dir=_FUZZ_DIR.name) as folder:
        path = folder + "/" + "/".join(_name(data) for data in names)
        out, err = io.StringIO(), io.StringIO()
        stdin, sys.stdin = sys.stdin, _stdin(b"")
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main([part.format(p=path, dir=folder) for part in argv])
        finally:
            sys.stdin = stdin
    shown = out.getvalue() + err.getvalue()
    assert code in (0, 1, 2), shown[-2000:]
    assert code == 0 or ERROR_CODE.search(shown), shown[-2000:]
