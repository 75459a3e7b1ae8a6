"""`tharsis report RESULTS`: the balance report of games already played, from simulate's JSONL results; the same
page as `simulate --report`, and a clear error (never a traceback) for a file that is not such results."""

import json
import shutil

import pytest
from report_runs import DESIGNER_NAMES, designer_folder, simulate_args

from tharsis.cli import main

pytest.importorskip("matplotlib", reason="the report's charts need the report extra: pip install -e '.[report]'")


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A designer's folder and 4 games played with it: their results and simulate's own report of them."""
    root = tmp_path_factory.mktemp("played")
    folder = designer_folder(root)
    out = root / "results.jsonl"
    assert main(simulate_args(folder, 4) + ["--out", str(out), "--report", str(root / "simulated")]) == 0
    return root, folder, out


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_report_of_a_results_file_is_the_page_simulate_wrote(played, tmp_path, capsys):
    root, folder, results = played
    code, out, err = run(capsys, "report", str(results), "--out", str(tmp_path / "again"))
    assert code == 0 and not err, err
    assert out == f"report of 4 games written to {tmp_path / 'again' / 'index.html'}\n"
    again = (tmp_path / "again" / "index.html").read_text(encoding="utf-8")
    assert again == (root / "simulated" / "index.html").read_text(encoding="utf-8")   # the designer's cards too
    assert all(name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") in again
               for name in DESIGNER_NAMES - {"Dust <&> Co's Mine", "Quiet Claim"})


def test_a_report_is_not_replaced_without_force(played, tmp_path, capsys):
    _, _, results = played
    assert run(capsys, "report", str(results), "--out", str(tmp_path / "r"))[0] == 0
    code, _, err = run(capsys, "report", str(results), "--out", str(tmp_path / "r"))
    assert code == 2 and "error[E760]: --out" in err and "--force" in err
    assert run(capsys, "report", str(results), "--out", str(tmp_path / "r"), "--force")[0] == 0


def test_the_designers_folder_moved_is_said_and_given_with_cards(played, tmp_path, capsys):
    root, folder, results = played
    moved = tmp_path / "elsewhere"
    shutil.copytree(folder, moved)
    lines = results.read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    for record in records:     # as if the run had been on another machine, where the folder was /gone/mine
        record["options"]["card_paths"] = ["/gone/mine"]
    copied = tmp_path / "copied.jsonl"
    copied.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    code, out, err = run(capsys, "report", str(copied), "--out", str(tmp_path / "plain"))
    assert code == 0 and "warning[W763]: the card folder /gone/mine the games were played with is not here" in err
    assert "add --cards DIR to highlight yours" in out
    code, out, err = run(capsys, "report", str(copied), "--out", str(tmp_path / "yours"), "--cards", str(moved))
    assert code == 0 and not err, err
    page = (tmp_path / "yours" / "index.html").read_text(encoding="utf-8")
    assert page.count('class="yours"') == (root / "simulated" / "index.html").read_text().count('class="yours"') > 0


def _one_line(played) -> dict:
    return json.loads(played[2].read_text(encoding="utf-8").splitlines()[0])


def _broken(played) -> dict[str, str]:
    record = _one_line(played)
    other_seats = json.loads(json.dumps(record))
    other_seats["players"][0]["seat"] = "someone"
    other_seats["winner"] = None
    no_players = dict(record, players=[])
    bad_total = json.loads(json.dumps(record))
    bad_total["players"][1]["total"] = "many"
    return {
        "not JSON": ("{not json", "line 1 is not a JSON record"),
        "a list": ("[1, 2]", "line 1: a record is a JSON object"),
        "nested deep": ("[" * 100_000 + "]" * 100_000, "line 1 is not a JSON record (nested too deep)"),
        "no seed": (json.dumps({k: v for k, v in record.items() if k != "seed"}), "line 1: the record has no 'seed'"),
        "no players": (json.dumps(no_players), "line 1: a game has 1 to 5 players, not 0"),
        "a total in words": (json.dumps(bad_total), "line 1: player 2's 'total' is a string, not an integer"),
        "other seats": (json.dumps(record) + "\n" + json.dumps(other_seats),
                        "line 2: its seats (someone, rival) are not those of the first game (me, rival)"),
        "empty": ("", "the file holds no game"),
        "csv": ("seed,board,options\n1,Tharsis,{}", "line 1 is not a JSON record"),
    }


@pytest.mark.parametrize("case", ["not JSON", "a list", "nested deep", "no seed", "no players", "a total in words",
                                  "other seats", "empty", "csv"])
def test_a_file_that_is_not_simulates_results_is_e763_naming_the_line(case, played, tmp_path, capsys):
    text, message = _broken(played)[case]
    path = tmp_path / "results.jsonl"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "report", str(path), "--out", str(tmp_path / "r"))
    assert code == 1 and "Traceback" not in err and not (tmp_path / "r").exists()
    assert "error[E763]: " + message in err, err
    assert "tharsis report reads the JSONL results of tharsis simulate" in err


def test_every_wrong_line_is_said_up_to_ten(played, tmp_path, capsys):
    path = tmp_path / "results.jsonl"
    path.write_text("oops\n" * 30, encoding="utf-8")
    code, _, err = run(capsys, "report", str(path))
    assert code == 1 and err.count("error[E763]") == 10 and "line 10 is not a JSON record" in err


def test_a_results_file_that_is_not_there_is_a_usage_error(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "report", "nowhere.jsonl")
    assert code == 2 and "E705" in err and "nowhere.jsonl" in err and not (tmp_path / "report").exists()


def test_cards_that_do_not_compile_or_are_not_there_are_said_before_any_page(played, tmp_path, capsys):
    _, _, results = played
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "cards.mars").write_text('card "Half" #H1 {\n  set: mine  type: automated  cost: 2\n', encoding="utf-8")
    code, _, err = run(capsys, "report", str(results), "--out", str(tmp_path / "r"), "--cards", str(broken))
    assert code == 1 and "error[E715]: the designer's cards do not compile" in err and "cards.mars:" in err
    code, _, err = run(capsys, "report", str(results), "--out", str(tmp_path / "r"), "--cards", str(tmp_path / "no"))
    assert code == 2 and "E705" in err
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    code, _, err = run(capsys, "report", str(results), "--out", str(tmp_path / "a-file"))
    assert code == 2 and "error[E761]: --out" in err and "this is a file" in err
    assert not (tmp_path / "r").exists()


def test_games_of_an_expansion_the_cards_do_not_declare_are_e715(played, tmp_path, capsys):
    root, folder, results = played
    record = _one_line(played)
    record["options"]["expansions"] = ["moon"]
    path = tmp_path / "moon.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "report", str(path), "--out", str(tmp_path / "r"), "--cards", str(folder))
    assert code == 1 and "error[E715]: the games' options cannot be played with these cards: unknown expansion" in err


# ------------------------------------------------------------------ any file: a report or a clear error, never a crash

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-5, 10**12) | st.floats(allow_nan=False)
                           | st.text(max_size=8), lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)


def _report_of(text: str, folder, capsys) -> tuple[int, str]:
    path = folder / "results.jsonl"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    code = main(["report", str(path), "--out", str(folder / "r"), "--force"])
    return code, capsys.readouterr().err


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.text(max_size=40), max_size=4))
def test_any_text_is_a_report_or_e763(lines, tmp_path, capsys):
    code, err = _report_of("\n".join(lines), tmp_path, capsys)
    assert code == 1 and "E763" in err and "Traceback" not in err


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_record_with_any_field_changed_is_a_report_or_e763(played, tmp_path, capsys, data):
    """One field of a real record (of the game, its options or a player) replaced by any JSON value: the report
    is written, or the line is refused as E763; never an internal error. (20 examples: a written report takes about
    a second; runs with other seeds, 240 examples in all, found options.card_paths null and options.beginner [].)"""
    record = _one_line(played)
    where = data.draw(st.sampled_from(["game", "options", "player"]))
    if where == "game":
        target = record
    elif where == "options":
        target = record["options"]
    else:
        target = record["players"][data.draw(st.integers(0, len(record["players"]) - 1))]
    key = data.draw(st.sampled_from(sorted(target) + ["extra"]))
    target[key] = data.draw(JSON_VALUES)
    code, err = _report_of(json.dumps(record), tmp_path, capsys)
    assert code in (0, 1) and "Traceback" not in err and "internal error" not in err, err
    assert code == 0 or "error[E763]" in err, err
