"""Hostile input, round 3 (issue 32): writes that cannot destroy a file, names that cannot drive a terminal, reports
and the research API that refuse bad data.

Each test is the reproducer of one attack of the issue (its number in the section title), failing before the fix.
The writes are attacked as the issue did: a child process under a file-size limit (RLIMIT_FSIZE, with SIGXFSZ
ignored so that the write fails with EFBIG as on a full disk instead of killing the child), then a bounded fuzz of
the shared writer (compiler/writing.py) interrupted at every byte.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from tharsis.cli import main

MESSY_CARDS = "".join(f'card "Stress {n}" #S{n} {{\n  type: automated     cost:    10\n    play: gain 1 plants\n}}\n\n'
                      for n in range(1, 61))


def _limited(limit: int):
    """A child's set-up: files of at most `limit` bytes, and a write past it an error (EFBIG), not a kill."""
    def set_up():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return set_up


def _tharsis(args: list[str], cwd: Path, limit: int, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "THARSIS_NO_CACHE": "1", "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "tharsis", *args], cwd=cwd, input=stdin, capture_output=True,
                          text=True, timeout=120, env=env, preexec_fn=_limited(limit))


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


# ------------------------------------------------------------------ 1. a failed write destroys the file it rewrites

@pytest.mark.parametrize("command", [["fmt", "messy.mars"], ["check", "--fix", "--no-cache", "messy.mars"]])
def test_a_card_file_rewritten_on_a_full_disk_is_kept_whole_and_said_so(command, tmp_path):
    cards = MESSY_CARDS if command[0] == "fmt" else MESSY_CARDS.replace("plants", "plantz")  # a did-you-mean to fix
    (tmp_path / "messy.mars").write_text(cards, encoding="utf-8")
    done = _tharsis(command, tmp_path, limit=1024)
    assert (tmp_path / "messy.mars").read_text(encoding="utf-8") == cards
    assert done.returncode != 3 and "internal error" not in done.stderr + done.stdout
    said = done.stdout + done.stderr
    assert "E708" in said and "the file is as it was" in said, said
    assert "no problems left" not in said
    assert _leftovers(tmp_path) == []


def _unfinished_log(folder: Path) -> Path:
    done = subprocess.run([sys.executable, "-m", "tharsis", "play", "--seat", "ann=human", "--seat", "bob=greedy",
                           "--seed", "5", "--log", "game.jsonl"], cwd=folder, input="1\nbuy 1\nquit\n",
                          capture_output=True, text=True, timeout=120, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 0, done.stderr
    return folder / "game.jsonl"


def test_a_resumed_log_is_kept_whole_when_the_disk_is_full(tmp_path):
    log = _unfinished_log(tmp_path)
    before = log.read_bytes()
    assert len(before) > 2048
    done = _tharsis(["play", "--load", "game.jsonl"], tmp_path, limit=len(before) // 2, stdin="quit\n")
    assert log.read_bytes() == before
    assert done.returncode == 1 and "internal error" not in done.stderr, done.stderr
    assert "E708" in done.stderr and "nothing in it was lost" in done.stderr
    assert _leftovers(tmp_path) == []
    assert main(["replay", str(log)]) == 0   # still the game it was


def test_a_save_over_an_earlier_save_is_kept_whole_when_the_disk_is_full(tmp_path):
    # a save grows as the game goes on: the second is refused by a limit the first fits under
    answers = "save s.json\n1\nbuy 1 2 3 4\nsave s.json\nquit\n"
    play = ["play", "--seat", "ann=human", "--seat", "bob=greedy", "--seed", "5", "--no-log"]
    measured = _tharsis(play, tmp_path, limit=resource.RLIM_INFINITY, stdin=answers.replace("\nsave s.json\nquit",
                                                                                          "\nsave t.json\nquit"))
    assert measured.returncode == 0, measured.stderr
    first, second = (tmp_path / "s.json").read_bytes(), (tmp_path / "t.json").read_bytes()
    assert len(second) > len(first) + 100
    (tmp_path / "s.json").unlink()
    done = _tharsis(play, tmp_path, limit=len(first) + 50, stdin=answers)
    assert (tmp_path / "s.json").read_bytes() == first
    assert "could not save to s.json" in done.stdout and "the earlier save there is as it was" in done.stdout
    assert _leftovers(tmp_path) == []


def test_results_replaced_with_force_are_kept_whole_when_the_disk_is_full(tmp_path):
    earlier = "".join(json.dumps({"seed": n, "padding": "x" * 200}) + "\n" for n in range(8))
    (tmp_path / "results.jsonl").write_text(earlier, encoding="utf-8")
    done = _tharsis(["simulate", "--games", "3", "--jobs", "1", "--out", "results.jsonl", "--force"], tmp_path,
                    limit=len(earlier) - 1)
    assert (tmp_path / "results.jsonl").read_text(encoding="utf-8") == earlier
    assert done.returncode != 3 and "internal error" not in done.stderr, done.stderr
    assert "E708" in done.stderr and "as it was" in done.stderr
    assert _leftovers(tmp_path) == []


def test_a_device_is_written_directly_never_replaced():
    """/dev/full refuses the write (E708 of the caller) and stays a device: a rename over it would have put a
    regular file in its place."""
    from tharsis.compiler.writing import replace_file

    with pytest.raises(OSError):
        replace_file("/dev/full", "x" * 100_000)
    assert not os.path.isfile("/dev/full")
    replace_file(os.devnull, "nothing")
    assert not os.path.isfile(os.devnull)


def test_a_named_pipe_nobody_reads_is_refused_at_once_not_waited_on(tmp_path):
    from tharsis.compiler.writing import replace_file

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(OSError):
        replace_file(pipe, "x")
    assert not pipe.is_file() and sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


@settings(max_examples=60, deadline=None)
@given(old=st.binary(max_size=300), new=st.binary(max_size=300), data=st.data())
def test_fuzz_a_rewrite_interrupted_at_any_byte_leaves_the_old_file_or_the_new(old, new, data, tmp_path_factory):
    """Killed after any number of bytes (the rewrite never committed) or failing at any byte (an OSError, as a
    full disk gives): the file holds the old bytes; committed: the new ones; never a mix."""
    from tharsis.compiler.writing import Rewrite, replace_file

    folder = tmp_path_factory.mktemp("rewrite")
    target = folder / "file"
    target.write_bytes(old)
    cut = data.draw(st.integers(0, len(new)))
    killed = Rewrite(target, binary=True)
    killed.handle.write(new[:cut])
    killed.handle.flush()
    assert target.read_bytes() == old          # a kill now: the old file is whole (the .partial is left)
    killed.discard()

    class FullDisk(bytes):
        """Content whose writing fails after `cut` bytes."""

    real_write = Rewrite.__init__

    def failing(self, *args, **kwargs):
        real_write(self, *args, **kwargs)
        handle = self.handle

        class Failing:
            def __getattr__(self, name):
                return getattr(handle, name)

            def write(self, content):
                handle.write(content[:cut])
                handle.flush()
                if cut < len(content):
                    raise OSError(28, "No space left on device")
                return len(content)

        self.handle = Failing()

    Rewrite.__init__ = failing
    try:
        try:
            replace_file(target, FullDisk(new))
            assert cut == len(new)
        except OSError:
            assert cut < len(new)
    finally:
        Rewrite.__init__ = real_write
    assert target.read_bytes() == (new if cut == len(new) else old)
    assert [p.name for p in folder.iterdir()] == ["file"]


# ------------------------------------------------------------------ 2. semantic tokens quadratic in line length

def test_semantic_tokens_of_a_long_line_are_fast_and_other_requests_are_answered_meanwhile(tmp_path):
    """A valid one-line card file of 28 KB took 128 s (pygls's codec counted each token's column afresh); the
    same cards one effect per line took a second. A hover sent right after is answered, not held up."""
    from test_lsp import Editor, _open

    one_line = " ".join(f'card "Stress {n}" #S{n} {{ type: automated cost: 10 play: gain 1 plants; gain 2 steel }}'
                        for n in range(1, 340)) + "\n"
    assert len(one_line) > 28_000
    client = Editor(tmp_path)
    client.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
    client.notify("initialized", {})
    uri, diagnostics = _open(client, tmp_path / "long.mars", one_line)
    assert diagnostics == []
    started = time.perf_counter()
    client.next_id += 1
    tokens_id = client.next_id
    client.send({"id": tokens_id, "method": "textDocument/semanticTokens/full",
                 "params": {"textDocument": {"uri": uri}}})
    hover = client.answer("textDocument/hover", {"textDocument": {"uri": uri},
                                                 "position": {"line": 0, "character": 60}})
    assert "error" not in hover and time.perf_counter() - started < 10
    if not any(m.get("id") == tokens_id for m in client.seen):
        client._wait(lambda m: m.get("id") == tokens_id)
    [tokens] = [m["result"]["data"] for m in client.seen if m.get("id") == tokens_id]
    elapsed = time.perf_counter() - started
    assert len(tokens) // 5 > 339 * 10 and elapsed < 15, elapsed
    assert client.close() == 0


def test_columns_count_utf16_units_as_the_protocol_says():
    from tharsis.designer.lsp.columns import Columns

    columns = Columns("a😀b\nplain\r\nx", "utf-16")
    assert [columns.to_client(0, c) for c in range(4)] == [0, 1, 3, 4]
    assert [columns.to_server(0, u) for u in range(5)] == [0, 1, 1, 2, 3]
    assert columns.to_client(1, 5) == 5 and columns.to_client(2, 1) == 1
    assert Columns("é😀", "utf-8").to_client(0, 2) == 6 and Columns("é😀", "utf-32").to_client(0, 2) == 2


# ------------------------------------------------------------------ 3. report: every number it reads range-checked

@pytest.fixture(scope="module")
def results(tmp_path_factory) -> list[dict]:
    """Two games of simulate's, as records."""
    out = tmp_path_factory.mktemp("results") / "results.jsonl"
    assert main(["simulate", "--games", "2", "--jobs", "1", "--seed", "4", "--out", str(out), "--quiet"]) == 0
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def _report(capsys, folder: Path, text: str) -> tuple[int, str]:
    path = folder / "results.jsonl"
    path.write_text(text, encoding="utf-8")
    code = main(["report", str(path), "--out", str(folder / "page"), "--force"])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _changed(record: dict, change) -> dict:
    copy = json.loads(json.dumps(record))
    change(copy)
    return copy


OUT_OF_RANGE = {
    "generations 2**64": (lambda r: r.update(generations=2**64), "'generations' is 18446744073709551616, not a"),
    "generations 0": (lambda r: r.update(generations=0), "'generations' is 0, not a number from 1 to 999"),
    "a negative seed": (lambda r: r.update(seed=-1), "'seed' is -1, not a number from 0"),
    "a seed of 2**64": (lambda r: r.update(seed=2**64), "'seed' is 18446744073709551616"),
    "a total of 10**30": (lambda r: r["players"][0].update(total=10**30), "player 1's 'total' is a number of 31"),
    "a card's VP": (lambda r: r["players"][0]["card_vp"].update({"Moss": -2**70}), "player 1's 'card_vp' holds"),
    "a card's generation": (lambda r: r["players"][1]["played_generation"].update({"Moss": 2**64}),
                            "player 2's 'played_generation' holds 18446744073709551616"),
    "max_generations 2**64": (lambda r: r["options"].update(max_generations=2**64),
                              "options.max_generations is 18446744073709551616"),
}


@pytest.mark.parametrize("case", OUT_OF_RANGE.values(), ids=OUT_OF_RANGE.keys())
def test_a_number_out_of_its_range_in_a_results_file_is_e763_not_an_internal_error(case, results, tmp_path, capsys):
    change, message = case
    code, said = _report(capsys, tmp_path, json.dumps(results[0]) + "\n" + json.dumps(_changed(results[1], change)))
    assert code == 1 and "internal error" not in said, said
    assert "error[E763]: line 2: " + message in said, said


# ------------------------------------------------------------------ 12. a long number is not "nested too deep"

def test_a_five_thousand_digit_number_in_a_results_file_is_said_as_such(results, tmp_path, capsys):
    text = json.dumps(results[0]).replace('"seed": ', '"seed": ' + "9" * 5000 + ", \"was\": ", 1)
    code, said = _report(capsys, tmp_path, text)
    assert code == 1 and "error[E763]: line 1 is not a JSON record (a number too long to read)" in said, said


# ------------------------------------------------------------------ 4. control characters in names

OSC_52 = "\x1b]52;c;cHduZWQ=\x07"     # writes "pwned" to the clipboard of a terminal that allows it
HOSTILE_NAMES = {"an OSC 52 sequence": "Moo" + OSC_52, "a bell": "Moo\x07", "a C1 CSI": "Moo\x9b2J",
                 "a bidi override": "Moo\u202eoM", "a zero-width space": "M\u200boo", "a tab": "Moo\tCow"}


@pytest.mark.parametrize("name", HOSTILE_NAMES.values(), ids=HOSTILE_NAMES.keys())
@pytest.mark.parametrize("kind", ["card", "corporation"])
def test_a_name_with_a_control_character_is_e008_and_never_printed_raw(kind, name, tmp_path, capsys):
    body = "type: automated  cost: 3\n  play: gain 1 plants" if kind == "card" else "start: 45 megacredits"
    (tmp_path / "mine.mars").write_text(f'{kind} "{name}" #Q1 {{\n  {body}\n}}\n', encoding="utf-8")
    for command in (["check", "--no-cache"], ["cards", "--format", "rules"], ["cards", "--format", "text"]):
        assert main([*command, str(tmp_path / "mine.mars")]) == 1
        out, err = capsys.readouterr()
        assert "E008" in out + err and "which is not printable" in out + err
        assert not any(ch in out + err for ch in "\x1b\x07\x9b\u202e\u200b"), (out + err)[:300]


def test_a_comment_may_not_hold_an_escape_sequence_but_may_hold_any_space(tmp_path, capsys):
    path = tmp_path / "mine.mars"
    path.write_text('card "Moo" #Q1 {  // no\x1b[2J here\n  type: automated  cost: 3  // a\u00a0space\n}\n',
                    encoding="utf-8")
    assert main(["check", "--no-cache", str(path)]) == 1
    out = capsys.readouterr().out
    assert ":1:24: error[E008]: a comment holds the character U+001B (a control character)" in out
    assert out.count("E008") == 1 and "\x1b" not in out


def test_a_name_of_200_000_characters_is_refused(tmp_path, capsys):
    path = tmp_path / "mine.mars"
    path.write_text(f'card "{"M" * 200_000}" #Q1 {{\n  type: automated  cost: 3\n}}\n', encoding="utf-8")
    assert main(["check", "--no-cache", str(path)]) == 1
    assert "error[E008]: a quoted name of 200,000 characters (at most 200)" in capsys.readouterr().out


def test_a_names_file_giving_an_escape_sequence_is_e165(tmp_path, capsys):
    (tmp_path / "mine.mars").write_text('card "Moo" #Q1 {\n  type: automated  cost: 3\n}\n', encoding="utf-8")
    (tmp_path / "zh.names").write_text(f'card "Moo" = "牛{OSC_52}"\n', encoding="utf-8")
    assert main(["check", "--no-cache", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "error[E165]: the name given to the card 'Moo' holds the character U+001B" in out and "\x1b" not in out


def test_a_log_whose_card_text_holds_an_escape_sequence_is_refused_and_nothing_is_printed_raw(tmp_path,
                                                                                               monkeypatch, capsys):
    """Logs carry the designer's card text: replaying someone else's log must not let their names drive the
    viewer's terminal."""
    from test_saves_portable import CARD, CORPORATION, bot_game

    monkeypatch.chdir(tmp_path)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "corporation.mars").write_text(CORPORATION, encoding="utf-8")
    (mine / "cards.mars").write_text("".join(CARD.format(n=n) for n in range(1, 13)), encoding="utf-8")
    log = bot_game(mine, "game.jsonl")
    capsys.readouterr()
    text = log.read_text(encoding="utf-8")
    hostile = text.replace("Moo Corp", "Moo" + OSC_52.replace("\x1b", "\\u001b").replace("\x07", "\\u0007"))
    assert hostile != text
    log.write_text(hostile, encoding="utf-8")
    shutil.rmtree(mine)
    code = main(["replay", str(log)])
    out, err = capsys.readouterr()
    assert code != 0 and "E008" in out + err, (out + err)[-2000:]
    assert "\x1b]" not in out + err and "\x07" not in out + err


def test_what_the_terminal_is_given_keeps_the_colours_and_escapes_the_rest():
    from tharsis.terminal.style import shown

    assert shown("\x1b[31mMoo\x1b[0m 你好\n") == "\x1b[31mMoo\x1b[0m 你好\n"
    assert shown(f"Moo{OSC_52} \u202e") == "Moo\\x1b]52;c;cHduZWQ=\\x07 \\u202e"


# ------------------------------------------------------------------ 5. a negative step in a scale

@pytest.mark.parametrize("step", ["-1", "-2%", "0"])
def test_a_scale_whose_step_is_not_positive_is_e302_not_a_parameter_that_vanishes(step):
    from tharsis.compiler import compile_text

    unit = "%" if step.endswith("%") else ""
    result = compile_text(f'parameter "radiation" {{\n  scale: 0{unit} to 10{unit} step {step}\n}}\n', "mine.mars")
    assert [(d.code, d.span.line) for d in result.diagnostics] == [("E302", 2)], result.diagnostics
    assert f"in steps of {step.rstrip('%')} does not" in result.diagnostics[0].message


# ------------------------------------------------------------------ 6. the research API refuses with ValueError

def _saved() -> dict:
    from tharsis.runtime.api.research import GameState

    return json.loads(GameState.new_game(seed=3).game.to_json())


MALFORMED_SAVES = {
    "a list": lambda good: "[]",
    "no options": lambda good: json.dumps({k: v for k, v in good.items() if k != "options"}),
    "nested 100,000 deep": lambda good: "[" * 100_000,
    "options that are null": lambda good: json.dumps({**good, "options": None}),
    "an unknown option": lambda good: json.dumps({**good, "options": {**good["options"], "speed": 1}}),
    "a seed in words": lambda good: json.dumps({**good, "options": {**good["options"], "seed": "a"}}),
    "format 1.0": lambda good: json.dumps({**good, "format": 1.0}),
    "format true": lambda good: json.dumps({**good, "format": True}),
    "a log that is a string": lambda good: json.dumps({**good, "log": "x"}),
    "a state that is a list": lambda good: json.dumps({**good, "state": []}),
    "a flow that is a number": lambda good: json.dumps({**good, "flow": 3}),
    "an empty flow": lambda good: json.dumps({**good, "flow": {}}),
    "an old save with an illegal choice": lambda good: json.dumps({"format": 1, "options": good["options"],
                                                                  "log": ["fly to the moon"]}),
    "not text": lambda good: None,
}


@pytest.mark.parametrize("make", MALFORMED_SAVES.values(), ids=MALFORMED_SAVES.keys())
def test_a_malformed_save_is_a_value_error_with_a_message(make):
    from tharsis.runtime.api.game import Game

    with pytest.raises(ValueError, match=r"\w+ \w+"):
        Game.from_json(make(_saved()))


WRONG_OPTIONS = {"a seed in words": {"seed": "a"}, "a seed of 1.0": {"seed": 1.0}, "a seed of None": {"seed": None},
                 "players=True": {"players": True}, "a board of 3": {"board": 3}, "draft='yes'": {"draft": "yes"},
                 "max_generations=0": {"max_generations": 0}, "expansions as a string": {"expansions": "venus"}}


@pytest.mark.parametrize("options", WRONG_OPTIONS.values(), ids=WRONG_OPTIONS.keys())
def test_new_game_refuses_options_of_the_wrong_type_with_a_value_error(options):
    from tharsis.runtime.api.research import GameState

    with pytest.raises(ValueError, match=next(iter(options))):
        GameState.new_game(**options)


def test_a_numpy_seed_is_a_seed():
    import numpy as np

    from tharsis.runtime.api.research import GameState

    assert GameState.new_game(seed=np.int64(7)).game.options.seed == 7


OPENSPIEL_STATES = {"an empty object": "{}", "a game that is a number": '{"game": 1}', "not JSON": "{",
                    "nested deep": "[" * 100_000,
                    "moves that are a string": lambda good: json.dumps({**good, "moves": "x"}),
                    "a move of another player": lambda good: json.dumps({**good, "moves": [[7, "action", 0]]}),
                    "a broken game": lambda good: json.dumps({**good, "game": "[]"})}


@pytest.mark.parametrize("text", OPENSPIEL_STATES.values(), ids=OPENSPIEL_STATES.keys())
def test_openspiel_deserialize_state_refuses_a_malformed_state_with_a_value_error(text):
    pytest.importorskip("pyspiel", reason="OpenSpiel is an optional extra: pip install -e '.[rl]'")
    import pyspiel

    import tharsis.envs.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("tharsis")
    good = json.loads(game.new_initial_state(seed=3).serialize())
    with pytest.raises(ValueError):
        game.deserialize_state(text(good) if callable(text) else text)
    with pytest.raises(ValueError):
        game.new_initial_state(seed="a")


def test_pettingzoo_reset_refuses_a_seed_of_the_wrong_type():
    pytest.importorskip("pettingzoo", reason="PettingZoo is an optional extra: pip install -e '.[rl]'")
    from tharsis.envs.pettingzoo import raw_env

    env = raw_env()
    for seed in ("a", 1.5, True, -1):
        with pytest.raises(ValueError, match="seed"):
            env.reset(seed=seed)


@pytest.mark.parametrize("written", ["2.0", "true", '"2"'])
def test_a_log_whose_format_is_not_a_whole_number_is_e713(written, tmp_path, capsys):
    log = _unfinished_log(tmp_path)
    lines = log.read_text(encoding="utf-8").splitlines()
    assert '"format": 2,' in lines[0]
    lines[0] = lines[0].replace('"format": 2,', f'"format": {written},')
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(log)]) != 0
    assert f"error[E713]: unsupported log format {written}" in capsys.readouterr().err


# ------------------------------------------------------------------ 7. a results file whose last record is cut

def test_a_results_file_whose_last_record_is_cut_is_read_up_to_it_with_w702(results, tmp_path, capsys):
    whole = json.dumps(results[0]) + "\n"
    cut = json.dumps(results[1])[:500]                   # what a killed simulate or a full disk leaves
    code, said = _report(capsys, tmp_path, whole + cut)
    assert code == 0, said
    assert "warning[W702]: the last line (2) is cut short" in said
    assert "1 game" in (tmp_path / "page" / "index.html").read_text(encoding="utf-8")


def test_a_cut_line_that_is_not_the_last_is_still_e763(results, tmp_path, capsys):
    text = json.dumps(results[0])[:500] + "\n" + json.dumps(results[1]) + "\n"
    code, said = _report(capsys, tmp_path, text)
    assert code == 1 and "error[E763]: line 1 is not a JSON record" in said


# ------------------------------------------------------------------ 8. CSV formula cells

FORMULA_CARDS = '''\
corporation "=1+1 Corp" #F0 {
  set: mine  start: 46 megacredits
}
''' + "".join(f'''
card "{name}" #F{n} {{
  set: mine  type: automated  cost: 1
  play: gain 1 steel
}}
''' for n, name in enumerate(["@SUM(A1)", "-2+3 Mine", "+Cheap", "=HYPERLINK(x)"], start=1))


def test_names_that_begin_like_a_formula_are_written_to_csv_as_text(tmp_path, capsys):
    import csv

    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "cards.mars").write_text(FORMULA_CARDS, encoding="utf-8")
    out = tmp_path / "results.csv"
    assert main(["simulate", "--games", "3", "--seed", "5", "--jobs", "1", "--quiet", "--format", "csv",
                 "--cards", str(tmp_path / "mine"), "--seat", "@me=greedy", "--seat", "+rival=greedy",
                 "--corporation", "@me==1+1 Corp", "--out", str(out)]) == 0
    capsys.readouterr()
    for table in (out, tmp_path / "results.cards.csv"):
        rows = list(csv.DictReader(table.open(encoding="utf-8", newline="")))
        assert rows
        for row in rows:
            for column, cell in row.items():
                if cell[:1] in "=+-@" and not cell[1:].isdigit():   # a negative number is a number
                    pytest.fail(f"{table.name}: {column} {cell!r} would be run as a formula")
    players = list(csv.DictReader(out.open(encoding="utf-8", newline="")))
    assert {row["seat"] for row in players} == {"'@me", "'+rival"}
    assert {row["corporation"] for row in players if row["seat"] == "'@me"} == {"'=1+1 Corp"}
    cards = {row["card"] for row in csv.DictReader((tmp_path / "results.cards.csv").open(encoding="utf-8"))}
    assert cards & {"'@SUM(A1)", "'-2+3 Mine", "'+Cheap", "'=HYPERLINK(x)"}, cards


# ------------------------------------------------------------------ 9. an empty special tile name

@pytest.mark.parametrize("name", ['""', '"   "'])
def test_a_special_tile_with_an_empty_name_is_e201_and_fmt_never_meets_it(name, tmp_path, capsys):
    from tharsis.compiler import compile_text

    source = f'card "Hole" #Q1 {{\n  type: automated  cost: 3\n  play: place special {name}\n}}\n'
    assert [(d.code, d.span.line, d.span.column) for d in compile_text(source, "mine.mars").diagnostics] == \
        [("E201", 3, 23)]
    (tmp_path / "mine.mars").write_text(source, encoding="utf-8")
    assert main(["fmt", str(tmp_path / "mine.mars")]) == 1
    assert "E806" not in capsys.readouterr().err


# ------------------------------------------------------------------ 11. the compile cache's folder and key

@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    from tharsis.compiler import cache

    monkeypatch.setenv("THARSIS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("THARSIS_NO_CACHE", raising=False)
    for cached in (cache.folder, cache._secret, getattr(cache, "_off", None)):
        if cached is not None:
            cached.cache_clear()
    (tmp_path / "mine.mars").write_text('card "Moo" #Q1 {\n  type: automated  cost: 3\n}\n', encoding="utf-8")
    yield tmp_path
    for cached in (cache.folder, cache._secret, getattr(cache, "_off", None)):
        if cached is not None:
            cached.cache_clear()


def test_a_cache_folder_planted_as_a_symbolic_link_is_refused(own_cache, capsys):
    from tharsis.compiler import cache, compile_paths

    elsewhere = own_cache / "elsewhere"
    elsewhere.mkdir()
    cache.folder().parent.mkdir(parents=True)
    cache.folder().symlink_to(elsewhere)
    assert compile_paths([own_cache / "mine.mars"]).diagnostics == []
    compile_paths([own_cache / "mine.mars"])
    assert list(elsewhere.iterdir()) == []
    err = capsys.readouterr().err
    assert err.count("tharsis: the compile cache is off: its folder") == 1 and "symbolic link" in err


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_an_untrusted_key_turns_the_cache_off_and_says_so_once(own_cache, capsys):
    from tharsis.compiler import cache, compile_paths

    compile_paths([own_cache / "mine.mars"])
    cache.key_path().chmod(0o644)
    cache._secret.cache_clear()
    compile_paths([own_cache / "mine.mars"])
    compile_paths([own_cache / "mine.mars"])
    err = capsys.readouterr().err
    assert err.count("the compile cache is off: its key") == 1 and "may be read or written by others" in err


def test_an_empty_key_is_replaced(own_cache, capsys):
    from tharsis.compiler import cache, compile_paths

    cache.key_path().parent.mkdir(parents=True)
    cache.key_path().touch(mode=0o600)
    compile_paths([own_cache / "mine.mars"])
    assert len(cache.key_path().read_bytes()) == 32 and any(cache.folder().iterdir())
    assert "cache is off" not in capsys.readouterr().err


# ------------------------------------------------------------------ 10. a log's card text is not read whole again

def _chain_card(comparisons: int):
    from tharsis.compiler import compile_text

    chain = " and ".join(["oxygen >= 1%"] * comparisons)
    result = compile_text(f'card "Chain" #C1 {{\n  type: automated  cost: 3\n  requires: {chain}\n'
                          '  play: gain 1 plants\n}\n', "mine.mars")
    return next(d for d in result.library.definitions if d.name == "Chain")


def test_hashing_a_long_requirement_chain_reads_each_comparison_once(monkeypatch):
    """Loading a log hashes every definition it may compare (tharsis/games/recorded_cards.py), uncached: a few
    files of long requirement chains made that the bulk of a replay (eight 254 KB files: 4 s became 85 s). Equal
    parts are read once: a chain of 5,000 equal comparisons is about one step each, not thirty."""
    from tharsis.games import recorded_cards

    card = _chain_card(5_000)
    expected = recorded_cards.definition_hash(card)
    real, steps = recorded_cards.canonical, []

    def counted(*args):
        steps.append(1)
        return real(*args)

    monkeypatch.setattr(recorded_cards, "canonical", counted)
    assert recorded_cards.definition_hash(card) == expected
    assert len(steps) < 3 * 5_000, len(steps)


def test_only_the_definitions_a_record_compares_are_hashed(monkeypatch):
    from tharsis.games import recorded_cards
    from tharsis.runtime.api.game import load_library

    library = load_library(())
    hashed = []
    real = recorded_cards.definition_hash
    monkeypatch.setattr(recorded_cards, "definition_hash", lambda d: hashed.append(d.name) or real(d))
    recorded_cards._HASHES.clear()
    hashes = recorded_cards._hashes(library)
    one = library.definitions[0]
    assert hashes[id(one)] == real(one) and hashed == [one.name]
