"""`tharsis simulate`'s outputs: the per-card facts of each game's record, the CSV tables against the JSONL, the
balance numbers behind the report, never overwriting earlier results, and `--jobs` defaulting to the CPUs.

The report's page in a real browser is tests/test_report_browser.py.
"""

import csv
import json
import re
import sys

import pytest
from report_runs import DESIGNER_NAMES, designer_folder, simulate_args

from tharsis.cli import main
from tharsis.games import report
from tharsis.games.balance import Yours, balance, designer_content
from tharsis.games.records import play_noting_generations, play_one
from tharsis.games.results_files import CARD_COLUMNS, player_columns
from tharsis.games.simulate import Simulation
from tharsis.runtime.api.game import Game, GameOptions
from tharsis.runtime.bots import BOTS

GAMES = 6


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The same games written as JSONL and as CSV, and their report."""
    root = tmp_path_factory.mktemp("runs")
    folder = designer_folder(root)
    common = simulate_args(folder, GAMES)
    assert main(common + ["--out", str(root / "results.jsonl"), "--report", str(root / "report")]) == 0
    assert main(common + ["--out", str(root / "results.csv"), "--format", "csv"]) == 0
    records = [json.loads(line) for line in (root / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    return {"root": root, "folder": folder, "records": records}


def _table(path):
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def _text(value) -> str:
    """A JSON value as the csv module writes it."""
    return "" if value is None else str(value)


# ------------------------------------------------------------------------------------- what a game records

def test_every_card_played_has_the_generation_it_was_played_in_and_the_vp_it_scored():
    record = play_one((GameOptions(players=("g", "r"), seed=21, corporate_era=True).to_json(),
                       [("g", "greedy"), ("r", "random")]))
    for player in record["players"]:
        assert list(player["played_generation"]) == player["played"]           # every card, in the same order
        assert all(1 <= g <= record["generations"] for g in player["played_generation"].values())
        assert sum(player["card_vp"].values()) == player["cards"]               # the breakdown's card VP, card by card
    generations = list(record["players"][0]["played_generation"].values())
    assert max(generations) > min(generations)    # cards are played across the game, not all at its start


def test_the_tableau_is_in_the_order_cards_were_played_so_their_generations_never_go_back():
    """A tableau grows in play order (and so does the pile of events): the generations noted along it, which
    come from watching the game, must never decrease."""
    for seed in (4, 5):
        options = GameOptions(players=("g", "r", "m"), seed=seed)
        game = Game(options)
        seen = play_noting_generations(game, {i: BOTS["greedy"](seed * 10 + i) for i in range(3)})
        for index, player in enumerate(game.state.players):
            for names in ([c.name for c in player.played], player.events):
                noted = [seen[index][name] for name in names]
                assert noted == sorted(noted)
            assert seen[index][player.played[0].name] == 1       # the corporation, chosen at the set-up


# ------------------------------------------------------------------------------------- CSV against JSONL

def test_the_player_table_holds_every_player_of_every_game_as_the_jsonl_does(runs):
    rows = _table(runs["root"] / "results.csv")
    assert list(rows[0]) == list(player_columns(solo=False))
    expected = []
    for record in runs["records"]:
        for player in record["players"]:
            expected.append({**{key: _text(record[key]) for key in ("seed", "board", "winner", "tie_break",
                                                                    "generations", "terraformed")},
                             "options": record["options"],
                             **{key: _text(player[key]) for key in ("seat", "bot", "corporation", "total", "tr",
                                                                    "milestones", "awards", "greeneries", "cities",
                                                                    "cards", "megacredits")},
                             "won": _text(record["winner"] == player["seat"])})
    got = [{**{k: v for k, v in row.items() if k != "seconds"}, "options": json.loads(row["options"])}
           for row in rows]
    assert got == expected
    assert len(rows) == 2 * GAMES


def test_the_card_table_has_a_row_per_card_played_with_its_generation_and_vp(runs):
    rows = _table(runs["root"] / "results.cards.csv")
    assert tuple(rows[0]) == CARD_COLUMNS
    expected = [{"seed": _text(record["seed"]), "seat": player["seat"], "bot": player["bot"],
                 "corporation": player["corporation"], "card": card,
                 "generation": _text(player["played_generation"][card]), "vp": _text(player["card_vp"].get(card, 0)),
                 "won": _text(record["winner"] == player["seat"])}
                for record in runs["records"] for player in record["players"] for card in player["played"]]
    assert rows == expected
    assert {row["card"] for row in rows} & DESIGNER_NAMES    # the designer's cards are among them


def test_pandas_reads_the_tables_as_numbers_and_booleans(runs):
    pandas = pytest.importorskip("pandas")
    players = pandas.read_csv(runs["root"] / "results.csv")
    cards = pandas.read_csv(runs["root"] / "results.cards.csv")
    assert players["won"].dtype == bool and players["total"].dtype.kind == "i"
    assert players.groupby("seed")["won"].sum().max() == 1
    assert cards.groupby("card")["won"].mean().between(0, 1).all()


# ------------------------------------------------------------------------------------- the balance numbers

def test_the_balance_counts_what_the_records_hold(runs):
    records = runs["records"]
    numbers = balance(records, Yours(cards=frozenset(DESIGNER_NAMES - {"Dust & Sons"}),
                                     corporations=frozenset({"Dust & Sons"})))
    assert numbers.games == GAMES and [s.name for s in numbers.seats] == ["me", "rival"]
    assert sum(s.wins for s in numbers.seats) == sum(1 for r in records if r["winner"] or r.get("tied"))
    plays = {}
    for record in records:
        for player in record["players"]:
            for card in player["played"]:
                plays.setdefault(card, []).append((record["winner"] == player["seat"],
                                                   player["card_vp"].get(card, 0), player["played_generation"][card]))
    assert {c.name for c in numbers.cards} == set(plays)
    for card in numbers.cards:
        seen = plays[card.name]
        assert card.plays == len(seen) and card.wins == sum(w for w, _, _ in seen)
        assert card.play_rate == len(seen) / GAMES
        assert card.vp == pytest.approx(sum(v for _, v, _ in seen) / len(seen))
        assert card.generation == pytest.approx(sum(g for _, _, g in seen) / len(seen))
        assert card.yours == (card.name in DESIGNER_NAMES)
        low, high = card.interval
        assert low <= card.rate <= high
    rates = [c.rate for c in numbers.cards]
    assert rates == sorted(rates, reverse=True)
    dust = next(c for c in numbers.corporations if c.name == "Dust & Sons")
    assert dust.games == GAMES and dust.yours


def test_the_designers_content_is_what_their_folders_define(runs):
    game = Game(GameOptions(players=("a", "b"), seed=1, card_paths=(str(runs["folder"]),)), start=False)
    yours = designer_content(game)
    assert yours.corporations == {"Dust & Sons"}
    assert yours.cards == DESIGNER_NAMES - {"Dust & Sons"}
    assert "Birds" not in yours and not yours.outside


def test_a_card_never_played_is_listed_under_your_cards():
    options = GameOptions(players=("g", "r"), seed=3)
    records = Simulation(options, [("g", "greedy"), ("r", "random")], 2).run(progress=None)
    numbers = balance(records, Yours(cards=frozenset({"Nowhere Card"})))
    assert numbers.never_played == ("Nowhere Card",)
    html = report.render(records, Yours(cards=frozenset({"Nowhere Card"})))
    assert 'id="never-played"' in html and "<strong>Nowhere Card</strong>" in html


# ------------------------------------------------------------------------------------- the page, without a browser

@pytest.mark.slow
def test_the_same_records_give_the_same_page(runs):
    pytest.importorskip("matplotlib")
    yours = Yours(cards=frozenset(DESIGNER_NAMES - {"Dust & Sons"}), corporations=frozenset({"Dust & Sons"}))
    first = report.render(runs["records"], yours)
    assert first == report.render(runs["records"], yours)
    assert first == (runs["root"] / "report" / "index.html").read_text(encoding="utf-8")


def test_the_page_is_self_contained_and_card_names_are_text(runs):
    html = (runs["root"] / "report" / "index.html").read_text(encoding="utf-8")
    for fetch in ("<script", "<link", "<img", "src=", 'href="http', "url(http", "@import"):   # nothing to load
        assert fetch not in html
    assert "Dust &lt;&amp;&gt; Co&#39;s Mine" in html or "Dust &lt;&amp;&gt; Co's Mine" in html
    assert "Dust <&>" not in html
    assert "Cheap $Steel$ (" in html       # a chart's label, the dollar signs kept: no mathematics
    ids = re.findall(r'\bid="([^"]+)"', html)
    assert len(ids) == len(set(ids))      # the charts' own ids never collide in the one document


# ------------------------------------------------------------------------------------- refusing to overwrite

def test_out_never_overwrites_earlier_results_without_force(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    run = ["simulate", "--games", "1", "--seed", "5", "--jobs", "1", "--quiet"]
    assert main(run) == 0 and main(run) == 0                     # the default name is numbered when taken
    assert "results written to results-2.jsonl" in capsys.readouterr().out
    before = (tmp_path / "results.jsonl").read_text()
    assert main(run + ["--out", "results.jsonl"]) == 2
    err = capsys.readouterr().err
    assert "error[E760]: --out results.jsonl: the file already holds results" in err and "--force" in err
    assert (tmp_path / "results.jsonl").read_text() == before
    assert main(run + ["--out", "results.jsonl", "--seed", "6", "--force"]) == 0
    assert json.loads((tmp_path / "results.jsonl").read_text())["seed"] == 6
    (tmp_path / "empty.jsonl").touch()                            # an empty file holds no one's results
    assert main(run + ["--out", "empty.jsonl"]) == 0


def test_csv_refuses_a_card_table_that_exists_and_checks_before_any_game(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.cards.csv").write_text("seed,seat\n1,a\n")
    monkeypatch.setattr(Simulation, "run", lambda *a, **k: pytest.fail("no game may start"))
    assert main(["simulate", "--games", "1", "--quiet", "--format", "csv", "--out", "mine.csv"]) == 2
    assert "error[E760]: --out mine.cards.csv" in capsys.readouterr().err
    assert not (tmp_path / "mine.csv").exists()


def test_out_that_is_a_folder_or_empty_is_e708(tmp_path, capsys):
    assert main(["simulate", "--games", "1", "--quiet", "--out", str(tmp_path)]) == 2
    assert f"error[E708]: cannot write results to {tmp_path}: it is a folder" in capsys.readouterr().err
    assert main(["simulate", "--games", "1", "--quiet", "--out", ""]) == 2
    assert "error[E708]: cannot write results: --out is empty" in capsys.readouterr().err


def test_a_report_folder_holding_a_report_is_refused_without_force(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("an earlier report")
    run = ["simulate", "--games", "1", "--seed", "2", "--jobs", "1", "--quiet", "--report", str(tmp_path / "site")]
    assert main(run + ["--out", str(tmp_path / "a.jsonl")]) == 2
    assert "error[E760]" in capsys.readouterr().err
    assert not (tmp_path / "a.jsonl").exists()                       # refused before anything was written
    assert main(run + ["--out", str(tmp_path / "a.jsonl"), "--force"]) == 0
    assert "report written to" in capsys.readouterr().out
    assert "Balance report" in (tmp_path / "site" / "index.html").read_text()


@pytest.mark.parametrize("name,problem", [("", "--report is empty"),
                                          ("file.txt", "the report goes into a folder, and this is a file"),
                                          ("file.txt/below", "cannot write there")])
def test_a_report_folder_that_cannot_be_used_is_e761_before_any_game(name, problem, tmp_path, monkeypatch, capsys):
    pytest.importorskip("matplotlib")
    (tmp_path / "file.txt").write_text("x")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(Simulation, "run", lambda *a, **k: pytest.fail("no game may start"))
    assert main(["simulate", "--games", "1", "--quiet", "--report", name]) == 2
    assert f"error[E761]: {problem}" in capsys.readouterr().err.replace(f"--report {name}: ", "")


def test_without_matplotlib_the_report_is_a_usage_error_that_says_how_to_install_it(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)    # `import matplotlib` fails as where it is not installed
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "--games", "1", "--quiet", "--report", "site"]) == 2
    err = capsys.readouterr().err
    assert "error[E762]: the balance report needs matplotlib" in err and "pip install 'tharsis[report]'" in err
    assert "Traceback" not in err and not list(tmp_path.iterdir())     # nothing written, no game played


def test_an_interrupted_run_writes_no_report_and_says_so(monkeypatch, tmp_path, capsys):
    pytest.importorskip("matplotlib")

    def interrupted(self, progress=None):
        self.interrupted = True
        return [play_one(next(self.tasks()))]

    monkeypatch.setattr(Simulation, "run", interrupted)
    out = tmp_path / "r.jsonl"
    assert main(["simulate", "--games", "5", "--quiet", "--out", str(out), "--report", str(tmp_path / "site")]) == 130
    assert capsys.readouterr().err == (f"tharsis: interrupted: 1 of 5 games finished, their results are in {out}; "
                                       "no report was written\n")
    assert not (tmp_path / "site" / "index.html").exists()


# ------------------------------------------------------------------------------------- --jobs

def test_jobs_defaults_to_the_cpus_this_process_may_use(monkeypatch, tmp_path, capsys):
    used = []
    monkeypatch.setattr("tharsis.games.simulate.cpu_count", lambda: 3)
    monkeypatch.setattr(Simulation, "run", lambda self, progress=None: used.append(self.jobs) or [])
    common = ["simulate", "--games", "4", "--quiet", "--out", str(tmp_path / "r.jsonl"), "--force"]
    assert main(common) == 0
    assert main(common + ["--jobs", "1"]) == 0
    assert used == [3, 1]


def test_a_card_of_ones_own_tracked_without_its_folder_says_to_add_cards(capsys, tmp_path):
    assert main(["simulate", "--games", "1", "--quiet", "--track", "Zzyzx Foundry", "--out",
                 str(tmp_path / "r.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "error[E707]: --track Zzyzx Foundry" in err and "add --cards DIR" in err


def test_simulate_and_play_find_the_cards_of_tool_tharsis_as_check_and_test_do(tmp_path, monkeypatch, capsys):
    designer_folder(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.tharsis]\ncards = ["mine"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "--games", "1", "--seed", "3", "--jobs", "1", "--quiet", "--track", "Crate Stack",
                 "--corporation", "greedy=Dust & Sons", "--out", "r.jsonl"]) == 0
    assert "Crate Stack" in capsys.readouterr().out
    assert main(["play", "--seat", "ann=greedy", "--seat", "bob=greedy", "--corporation", "ann=Dust & Sons",
                 "--seed", "3", "--no-log", "--max-generations", "1"]) == 0
    assert "Dust & Sons" in capsys.readouterr().out


def test_a_cards_folder_of_tool_tharsis_that_is_missing_stops_simulate_with_e705(tmp_path, monkeypatch, capsys):
    (tmp_path / "pyproject.toml").write_text('[tool.tharsis]\ncards = ["gone"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "--games", "1", "--quiet", "--out", "r.jsonl"]) == 2
    err = capsys.readouterr().err
    assert "E705" in err and "'cards' of pyproject.toml" in err


def test_results_and_the_report_name_the_card_folders_relative_to_the_current_folder(tmp_path, monkeypatch):
    """As logs and saves do: no results line nor page holds a home folder's name, even for --cards given absolute
    and for a results file written before (its absolute folders are printed relative on the page)."""
    folder = designer_folder(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(simulate_args(folder.resolve(), 1) + ["--out", "r.jsonl", "--report", "site"]) == 0
    record = json.loads((tmp_path / "r.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert record["options"]["card_paths"] == ["mine"]
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "Your cards: <code>mine</code>" in page and str(tmp_path) not in page
    record["options"]["card_paths"] = [str(folder.resolve())]
    assert "Your cards: <code>mine</code>" in report.render([record])
