"""Hostile saves, logs and flags never crash the CLI: each is a clear E7xx problem with its file and line.

The corpus in tests/broken_io/ holds one file per way a save or a log can be wrong; its `.expected` file gives
the exit code on its first line (`exit N`), then one `CODE LINE | part of the message` per problem, in the order
reported (`-` when the problem has no line). Every file is tried with both commands that read saves and logs,
`replay FILE` and `play --load FILE`, which must agree. Inputs that depend on a real game (a choice edited in the
middle of a log, a log cut short by a crash, cards changed since) are made at run time from a bot game, and so
are the large ones (a 9 MB file, JSON nested 100,000 deep).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tharsis.cli import main

CORPUS = Path(__file__).resolve().parent / "broken_io"
CASES = sorted(p for p in CORPUS.iterdir() if p.suffix in (".json", ".jsonl"))
PROBLEM = re.compile(r"^(?P<path>.+?)(?::(?P<line>\d+))?(?::\d+)?: (?:error|warning)\[(?P<code>[EW]7\d\d)\]: "
                     r"(?P<message>.*)$")
REPO = Path(__file__).resolve().parents[1]


def problems(stderr: str) -> list[tuple[str, str, str]]:
    """(code, line or '-', message) of every problem the CLI printed."""
    found = []
    for line in stderr.splitlines():
        match = PROBLEM.match(line)
        if match:
            found.append((match["code"], match["line"] or "-", match["message"]))
    return found


def run(capsys, *args: str, stdin="") -> tuple[int, str, str]:
    sys.stdin = io.StringIO(stdin) if isinstance(stdin, str) else stdin
    try:
        started = time.perf_counter()
        code = main(list(args))
        elapsed = time.perf_counter() - started
    finally:
        sys.stdin = sys.__stdin__
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "internal error" not in err, err
    assert elapsed < 20, f"{args} took {elapsed:.1f} s"
    return code, out, err


def test_every_e7xx_code_is_documented_and_every_documented_one_is_used():
    used = set()
    for path in (REPO / "tharsis").rglob("*.py"):  # the designer commands (tharsis/cli/commands/) too
        used |= set(re.findall(r'"([EW]7\d\d)"', path.read_text(encoding="utf-8")))
    documented = set(re.findall(r"^\| ([EW]7\d\d) \|", (REPO / "docs/errors.md").read_text(encoding="utf-8"), re.M))
    assert used == documented


def test_the_corpus_covers_every_file():
    assert len(CASES) >= 40
    for case in CASES:
        assert case.with_suffix(".expected").exists(), f"{case.name} has no .expected file"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@pytest.mark.parametrize("command", ["replay", "play --load"])
def test_a_broken_save_or_log_is_one_clear_problem(case, command, capsys):
    expected = case.with_suffix(".expected").read_text(encoding="utf-8").splitlines()
    exit_code = int(expected[0].split()[1])
    wanted = [(*head.split(), part.strip()) for head, _, part in (line.partition("|") for line in expected[1:])]
    args = ["replay", str(case)] if command == "replay" else ["play", "--load", str(case), "--no-log"]
    code, _, err = run(capsys, *args)
    assert code == exit_code, err
    got = problems(err)
    assert [(c, line) for c, line, _ in got] == [(c, line) for c, line, _ in wanted], err
    for (_, _, message), (_, _, part) in zip(got, wanted):
        assert part in message, err
    assert all(str(case) in line for line in err.splitlines() if PROBLEM.match(line))


# ---------------------------------------------------------------------------------------------- from a real game

@pytest.fixture(scope="module")
def game_log(tmp_path_factory) -> Path:
    """A whole game of two bots, logged."""
    path = tmp_path_factory.mktemp("game") / "game.jsonl"
    assert main(["play", "--seat", "ann=greedy", "--seat", "bob=random", "--seed", "3", "--log", str(path)]) == 0
    return path


def edited(source: Path, target: Path, edit) -> Path:
    lines = source.read_text(encoding="utf-8").splitlines()
    edit(lines)
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


def set_field(lines: list[str], index: int, **changes) -> None:
    entry = json.loads(lines[index])
    entry.update(changes)
    lines[index] = json.dumps(entry)


def test_a_whole_log_replays_and_its_result_is_verified(game_log, capsys):
    code, out, err = run(capsys, "replay", str(game_log))
    assert code == 0 and not err
    assert "winner: " in out and "verified: the replay gives the logged result" in out


def test_replay_generations_shows_the_state_at_the_start_of_every_generation(game_log, capsys):
    code, out, _ = run(capsys, "replay", str(game_log), "--generations")
    generations = json.loads(game_log.read_text().splitlines()[-1])["result"]["generations"]
    states = [line for line in out.splitlines() if line.startswith("Generation ")]   # "Generation 3 (research) ..."
    assert code == 0 and len(states) == generations + 1          # each generation, then the end
    assert [int(s.split()[1]) for s in states[:-1]] == list(range(1, generations + 1))


def test_an_illegal_choice_in_the_middle_of_a_log_names_its_line(game_log, tmp_path, capsys):
    log = edited(game_log, tmp_path / "illegal.jsonl", lambda lines: set_field(lines, 40, label="play Nothing"))
    code, _, err = run(capsys, "replay", str(log))
    assert code == 1
    [(kind, line, message)] = problems(err)
    assert (kind, line) == ("E714", "41") and "choice 40 ('play Nothing') is not a legal choice" in message
    assert "legal: " in err and '"label": "play Nothing"' in err   # the hint and the offending line


def test_a_choice_logged_for_the_wrong_player_is_refused(game_log, tmp_path, capsys):
    first = json.loads(game_log.read_text().splitlines()[1])
    other = "bob" if first["player"] == "ann" else "ann"
    log = edited(game_log, tmp_path / "player.jsonl", lambda lines: set_field(lines, 1, player=other))
    code, _, err = run(capsys, "replay", str(log))
    assert code == 1 and problems(err)[0][:2] == ("E714", "2")
    assert f"logged for {other}, but {first['player']} chooses here" in err


def test_a_missing_line_is_reported_once(game_log, tmp_path, capsys):
    log = edited(game_log, tmp_path / "gap.jsonl", lambda lines: lines.pop(20))
    code, _, err = run(capsys, "replay", str(log))
    assert code == 1 and problems(err) == [("E712", "21", "choice number 21 where 20 was due")]


def test_an_edited_result_fails_the_verification_at_the_end_line(game_log, tmp_path, capsys):
    def edit(lines):
        end = json.loads(lines[-1])
        end["result"]["players"][0]["total"] += 1
        lines[-1] = json.dumps(end)
    log = edited(game_log, tmp_path / "result.jsonl", edit)
    code, _, err = run(capsys, "replay", str(log))
    count = len(log.read_text().splitlines())
    assert code == 1 and problems(err)[0][:2] == ("E716", str(count))
    assert "the replayed result differs from the logged one" in err


def test_an_end_line_before_the_end_of_the_game_is_refused(game_log, tmp_path, capsys):
    log = edited(game_log, tmp_path / "early.jsonl", lambda lines: lines.__delitem__(slice(30, -1)))
    code, _, err = run(capsys, "replay", str(log))
    assert code == 1 and problems(err)[0][0] == "E716" and "choices stop before the end" in err


def test_a_log_cut_short_by_a_crash_replays_and_resumes_to_the_end(game_log, tmp_path, capsys):
    text = game_log.read_text()
    log = tmp_path / "crashed.jsonl"
    log.write_text(text[:len(text) // 2])     # a crash in the middle of writing a line
    code, out, err = run(capsys, "replay", str(log))
    assert code == 0
    [(kind, line, message)] = problems(err)
    assert kind == "W702" and "the last line is cut short" in message
    assert "the log stops before the end of the game" in out and f"tharsis play --load {log}" in out
    code, out, err = run(capsys, "play", "--load", str(log))   # the bots play on, in the same log
    assert code == 0 and "winner: " in out
    assert log.read_text().splitlines()[-1].startswith('{"event": "end"')
    rewritten = [json.loads(line) for line in log.read_text().splitlines()[1:-1]]
    original = [json.loads(line) for line in game_log.read_text().splitlines()[1:-1]]
    assert rewritten == original      # the choices before the crash keep their players; the rest are the same
    code, out, err = run(capsys, "replay", str(log))
    assert code == 0 and not err and "verified" in out
    assert out.splitlines()[-3:] == run(capsys, "replay", str(game_log))[1].splitlines()[-3:]  # the same game


def test_a_human_who_left_at_end_of_input_resumes_from_the_log(tmp_path, autopilot, capsys):
    log = tmp_path / "human.jsonl"
    code, out, _ = run(capsys, "play", "--seat", "ann=human", "--seat", "bot=greedy", "--seed", "4",
                       "--log", str(log), stdin="1\n1\n1\n")
    assert code == 0 and f"Resume with: tharsis play --load {log}" in out
    before = [json.loads(line)["label"] for line in log.read_text().splitlines()[1:]]
    assert len(before) >= 3
    code, out, _ = run(capsys, "play", "--load", str(log), stdin=autopilot)  # a human who answers everything
    assert code == 0 and "winner: " in out
    after = [json.loads(line) for line in log.read_text().splitlines()]
    assert [e["label"] for e in after[1:1 + len(before)]] == before      # nothing was lost
    assert run(capsys, "replay", str(log))[0] == 0
    code, _, err = run(capsys, "play", "--load", str(log))
    assert code == 2 and problems(err)[0][0] == "E717" and f"tharsis replay {log}" in err


def test_ctrl_c_during_a_game_leaves_a_log_that_resumes(tmp_path):
    log = tmp_path / "interrupted.jsonl"
    process = subprocess.Popen([sys.executable, "-m", "tharsis", "play", "--seat", "ann=human", "--seat",
                                "bot=greedy", "--seed", "4", "--log", str(log)], cwd=tmp_path,
                               stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    process.stdin.write("1\n1\n1\n")
    process.stdin.flush()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not log.exists() or len(log.read_text().splitlines()) < 4):
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130 and "Traceback" not in err
    labels = [json.loads(line)["label"] for line in log.read_text().splitlines()[1:]]
    assert len(labels) >= 3
    loaded = subprocess.run([sys.executable, "-m", "tharsis", "replay", str(log)], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120)
    assert loaded.returncode == 0 and "the log stops before the end of the game" in loaded.stdout


def test_a_save_whose_state_was_edited_is_refused(tmp_path, capsys):
    save = tmp_path / "saved.json"
    code, out, _ = run(capsys, "play", "--seed", "9", "--no-log", stdin=f"1\n1\n1\nsave {save}\nquit\n")
    assert code == 0 and f"saved to {save}" in out
    data = json.loads(save.read_text())
    assert data["content"]["hash"].startswith("sha256:") and data["seats"][0] == {"name": "you", "kind": "human"}
    code, out, _ = run(capsys, "replay", str(save))
    assert code == 0 and "the save stops before the end" in out
    assert "verified: the replay reaches the saved state" in out
    data["state"]["generation"] = 4
    save.write_text(json.dumps(data))
    code, _, err = run(capsys, "play", "--load", str(save), "--no-log")
    assert code == 1 and problems(err) == [("E716", "-", "the saved state is not the state its choices lead to "
                                                         "(it differs in: generation)")]


def test_load_refuses_the_flags_of_a_new_game(game_log, capsys):
    code, _, err = run(capsys, "play", "--load", str(game_log), "--seed", "5", "--board", "hellas")
    assert code == 2 and problems(err)[0][0] == "E706" and "--seed, --board would be ignored" in err


def test_a_huge_file_is_refused_before_it_is_read(tmp_path, capsys):
    huge = tmp_path / "huge.jsonl"
    with open(huge, "wb") as handle:
        handle.truncate(9 * 2**20)
    code, _, err = run(capsys, "replay", str(huge))
    assert code == 1 and problems(err) == [("E710", "-", "the file is larger than 8 MB; no save or game log is "
                                                         "that large")]


def test_json_nested_a_hundred_thousand_deep_is_refused(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text('{"format": 1, "log": [], "options": ' + "[" * 100_000 + "]" * 100_000 + "}")
    code, _, err = run(capsys, "play", "--load", str(deep))
    assert code == 1 and problems(err)[0][0] == "E712" and "nested more than" in err


def test_a_log_longer_than_any_game_is_refused_before_it_is_replayed(game_log, tmp_path, capsys):
    start = game_log.read_text().splitlines()[0]
    log = tmp_path / "endless.jsonl"
    log.write_text(start + "\n" + "".join(json.dumps({"event": "choice", "n": n, "label": "pass"}) + "\n"
                                         for n in range(1, 20_003)))
    code, _, err = run(capsys, "replay", str(log))
    assert code == 1 and problems(err) == [("E712", "-", "the log holds 20003 lines; no game has more than 20000 "
                                                         "choices")]


@pytest.mark.parametrize("change,expected", [
    ({"card_paths": ["/tmp"] * 100_000},
     [("E705", "1", "options.card_paths: 100000 card folders; a game takes at most 50")]),
    ({"players": ["ann"] * 20_000}, [("E701", "1", "a game has 1 to 5 players, not 20000"),
                                     ("E702", "1", "two seats are called ann")]),
])
def test_long_lists_in_the_options_are_refused_quickly(change, expected, game_log, tmp_path, capsys):
    start = json.loads(game_log.read_text().splitlines()[0])
    start["options"].update(change)
    log = tmp_path / "long.jsonl"
    log.write_text(json.dumps(start) + "\n")
    started = time.perf_counter()
    code, _, err = run(capsys, "replay", str(log))
    assert code == 1 and problems(err) == expected and time.perf_counter() - started < 5


def test_a_folder_or_a_missing_file_is_a_usage_error(tmp_path, capsys):
    assert run(capsys, "replay", str(tmp_path))[0] == 2
    code, _, err = run(capsys, "play", "--load", str(tmp_path / "nothing.json"))
    assert code == 2 and problems(err) == [("E710", "-", "no such file")]


# ---------------------------------------------------------------------------------------------- cards changed

def designer_game(tmp_path: Path, capsys) -> tuple[Path, Path]:
    cards = tmp_path / "mine"
    cards.mkdir()
    source = (REPO / "docs/examples/venus-labs/cards.mars").read_text(encoding="utf-8")
    (cards / "cards.mars").write_text(source, encoding="utf-8")
    log = tmp_path / "mine.jsonl"
    code, _, _ = run(capsys, "play", "--seat", "ann=greedy", "--seat", "bob=greedy", "--seed", "2", "--cards",
                     str(cards), "--corporation", "ann=Aphrodite Labs", "--log", str(log))
    assert code == 0
    return cards, log


def test_a_log_names_the_card_that_changed_since_it_was_played_and_ignores_one_added(tmp_path, capsys):
    """The log records each card the game used (tharsis/games/recorded_cards.py; more in
    tests/test_saves_portable.py)."""
    cards, log = designer_game(tmp_path, capsys)
    card_file = cards / "cards.mars"
    original = card_file.read_text(encoding="utf-8")
    card_file.write_text("// a new comment moves every line down\n" + original, encoding="utf-8")
    code, out, err = run(capsys, "replay", str(log))
    assert code == 0 and not err and "verified" in out      # layout is not content: no warning
    card_file.write_text(original.replace("start: 44 megacredits", "start: 60 megacredits"), encoding="utf-8")
    code, out, err = run(capsys, "replay", str(log))
    found = problems(err)
    assert code == 1 and found[0][:2] == ("E741", "1")
    assert found[0][2].startswith("the corporation Aphrodite Labs changed since this game was played")
    card_file.write_text(original + '\ncard "Cloud Seeding Drones" #VL9 {\n  set: "venus-labs"  '
                         'type: automated  cost: 9  tags: space\n  play: gain 2 heat\n}\n', encoding="utf-8")
    code, out, err = run(capsys, "replay", str(log))    # a card added since is not in this game's deck
    assert code == 0 and not err and "verified" in out


def test_broken_cards_under_card_paths_are_reported_not_crashed(tmp_path, capsys):
    cards, log = designer_game(tmp_path, capsys)
    (cards / "cards.mars").write_text('card "Broken" #B1 {\n  tpye: event\n}\n', encoding="utf-8")
    for args in (["replay", str(log)], ["play", "--load", str(log), "--no-log"]):
        code, _, err = run(capsys, *args)
        assert code == 1
        assert "error[E202]" in err or "error[E001]" in err                       # the compiler's own report
        assert problems(err)[-1][:2] == ("E715", "1") and str(cards) in err


# ---------------------------------------------------------------------------------------------- flags

FLAG_CASES = [
    # (arguments, exit code, code, part of the message)
    (["play", "--corporation", "ann=Livestock"], 2, "E704", "Livestock is a project card, not a corporation"),
    (["play", "--corporation", "ann=Ecolin"], 2, "E704", "no corporation is called 'Ecolin'"),
    (["play", "--corporation", "ann=Ecoline", "--corporation", "bob=Ecoline"], 2, "E704", "ann already plays Ecoline"),
    (["play", "--corporation", "ann=Ecoline", "--corporation", "ann=Helion"], 2, "E704", "ann already plays Ecoline"),
    (["play", "--corporation", "zed=Ecoline"], 2, "E704", "there is no seat 'zed'"),
    (["play", "--corporation", "Ecoline"], 2, "E704", "write SEAT=CORPORATION"),
    (["play", "--corporation", "ann=Aquifer"], 2, "E704", "Aquifer is a standard project, not a corporation"),
    (["play", "--seat", "carl=gredy", "--seat", "dee=random"], 2, "E702", "unknown seat kind 'gredy'"),
    (["play", "--seat", "=greedy", "--seat", "dee=random"], 2, "E702", "a seat needs a name"),
    (["play", "--seat", "ann=greedy", "--seat", "ann=random"], 2, "E702", "two seats are called ann"),
    (["play", "--seat", "a\tb=greedy", "--seat", "dee=random"], 2, "E702", "is not a usable seat name"),
    (["play", "--seat", "a=random", "--seat", "b=random", "--seat", "c=random", "--seat", "d=random",
      "--seat", "e=random", "--seat", "f=random"], 2, "E701", "a game has 1 to 5 seats, not 6"),
    (["play", "--players", "6"], 2, "E701", "--players must be between 1 and 5, not 6"),
    (["play", "--players", "0"], 2, "E701", "--players must be between 1 and 5, not 0"),
    (["play", "--players", "3", "--seat", "a=greedy"], 2, "E706", "--players 3 but 1 --seat given"),
    (["play", "--solo", "--seat", "a=greedy", "--seat", "b=greedy"], 2, "E706", "the solo game has exactly one seat"),
    (["play", "--seat", "a=greedy"], 2, "E706", "one seat is the solo game"),
    (["play", "--seed", "-5"], 2, "E701", "--seed must be between 0 and"),
    (["play", "--seed", str(2**64)], 2, "E701", "--seed must be between 0 and"),
    (["play", "--max-generations", "0"], 2, "E701", "--max-generations must be between 1 and 999, not 0"),
    (["play", "--board", "hellass"], 2, "E703", "unknown board"),
    (["play", "--cards", "/"], 2, "E705", "holds more than"),
    (["simulate", "--games", "0"], 2, "E701", "--games must be between 1 and"),
    (["simulate", "--jobs", "1000000"], 2, "E701", "--jobs must be between 1 and 64, not 1000000"),
    (["simulate", "--seed", str(2**63 - 2), "--games", "5"], 2, "E701", "the last game's seed would pass"),
    (["simulate", "--seat", "ann=human", "--seat", "bob=random"], 2, "E706", "simulate plays bots only"),
    (["simulate", "--corporation", "greedy=Livestock"], 2, "E704", "Livestock is a project card"),
    (["play", "--log", "/no/such/folder/game.jsonl"], 2, "E708", "cannot write the game log"),
    (["simulate", "--out", "/no/such/folder/results.jsonl"], 2, "E708", "cannot write results"),
    (["simulate", "--track", "Livestok"], 2, "E707", "--track Livestok: no card or corporation is called 'Livestok'"),
]


@pytest.mark.parametrize("args,exit_code,code,part", FLAG_CASES, ids=[" ".join(c[0]) for c in FLAG_CASES])
def test_bad_flags_are_usage_errors_with_a_code(args, exit_code, code, part, tmp_path, capsys):
    if args[0] == "play" and "--seat" not in args and "--players" not in args and "--solo" not in args:
        args = args + ["--seat", "ann=greedy", "--seat", "bob=greedy"]
    if args[0] == "play" and "--log" not in args:
        args = args + ["--no-log"]
    if args[0] == "simulate":
        args = args + ["--quiet"] + ([] if "--out" in args else ["--out", str(tmp_path / "r.jsonl")])
    got_code, out, err = run(capsys, *args)
    assert got_code == exit_code, err
    found = problems(err)
    assert found and found[0][0] == code and part in found[0][2], err
    assert not out


def test_every_flag_problem_is_reported_at_once(capsys):
    code, _, err = run(capsys, "simulate", "--games", "0", "--jobs", "0", "--seed", "-1", "--quiet")
    assert code == 2 and [c for c, _, _ in problems(err)] == ["E701", "E701", "E701"]


def test_did_you_mean_for_corporations_boards_and_bots(capsys):
    _, _, err = run(capsys, "play", "--seat", "ann=gredy", "--seat", "bob=greedy", "--no-log")
    assert "did you mean 'greedy'?" in err
    _, _, err = run(capsys, "play", "--seat", "ann=greedy", "--seat", "bob=greedy", "--board", "hellass", "--no-log")
    assert "did you mean 'Hellas'?" in err
    _, _, err = run(capsys, "play", "--seat", "ann=greedy", "--seat", "bob=greedy", "--corporation", "ann=Ecolin",
                    "--no-log")
    assert "did you mean 'Ecoline'?" in err


# ---------------------------------------------------------------------------------------------- simulate

@pytest.mark.parametrize("jobs", ["2", "1"])
def test_ctrl_c_stops_a_simulation_cleanly_and_keeps_its_results(jobs, tmp_path):
    out = tmp_path / "results.jsonl"
    process = subprocess.Popen([sys.executable, "-m", "tharsis", "simulate", "--games", "400", "--jobs", jobs,
                                "--out", str(out), "--quiet"], cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not out.exists() or len(out.read_text().splitlines()) < 2):
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)    # as a terminal does: to the parent and every worker
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]   # every line whole
    assert 2 <= len(records) < 400
    first = records[0]["seed"]   # a random first seed (none was given), then the next ones in order
    assert [r["seed"] for r in records] == list(range(first, first + len(records)))
    [summary] = stderr.strip().splitlines()
    assert summary == (f"tharsis: interrupted: {len(records)} of 400 games finished, their results are in {out}")
    assert stdout == ""


# ---------------------------------------------------------------------------------------------- fuzzing

JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats() | st.text(max_size=20),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                                       max_size=3), max_leaves=8)


def _paths(value, prefix=()):
    """Every place inside a JSON value, as a tuple of keys and indexes."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, prefix + (index,))


def _replace(value, path, new):
    if not path:
        return new
    value[path[0]] = _replace(value[path[0]], path[1:], new)
    return value


@st.composite
def mutated_log(draw, text: str) -> str:
    """A real log with one to three damages: a value replaced by any JSON value, a line dropped, repeated or
    swapped, or raw characters cut, inserted or garbled."""
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["value", "drop", "repeat", "swap", "cut", "insert"]))
        index = draw(st.integers(0, len(lines) - 1))
        if kind == "value":
            try:
                entry = json.loads(lines[index])
            except ValueError:  # damaged by an earlier step
                entry = None
            if isinstance(entry, (dict, list)):
                places = list(_paths(entry))
                place = places[draw(st.integers(0, len(places) - 1))]
                lines[index] = json.dumps(_replace(entry, place, draw(JSON_VALUES)))
        elif kind == "drop" and len(lines) > 1:
            del lines[index]
        elif kind == "repeat":
            lines.insert(index, lines[index])
        elif kind == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[index], lines[other] = lines[other], lines[index]
        elif kind == "cut":
            lines[index] = lines[index][:draw(st.integers(0, len(lines[index])))]
        else:
            at = draw(st.integers(0, len(lines[index])))
            lines[index] = lines[index][:at] + draw(st.text(max_size=5)) + lines[index][at:]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def short_log(tmp_path_factory) -> str:
    """A short game (two generations), so each fuzzed replay is quick."""
    path = tmp_path_factory.mktemp("fuzz") / "short.jsonl"
    assert main(["play", "--seat", "ann=greedy", "--seat", "bob=random", "--seed", "6", "--max-generations", "2",
                 "--log", str(path)]) == 0
    return path.read_text(encoding="utf-8")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_damaged_log_is_replayed_or_refused_never_crashed(short_log, tmp_path, data):
    text = data.draw(mutated_log(short_log))
    path = tmp_path / "fuzzed.jsonl"
    path.write_text(text, encoding="utf-8")
    for args in (["replay", str(path)], ["play", "--load", str(path), "--no-log"]):
        out, err = io.StringIO(), io.StringIO()
        sys.stdin = io.StringIO("")
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(args)
        finally:
            sys.stdin = sys.__stdin__
        assert code in (0, 1, 2) and "internal error" not in err.getvalue() and "Traceback" not in err.getvalue()
        if code:
            assert problems(err.getvalue()) or "error[" in err.getvalue(), err.getvalue()
