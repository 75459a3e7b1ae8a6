"""The CLI as players and researchers use it: a scripted human game, bot simulations, logs, replays, solo."""

import io
import json

import pytest

from tharsis.cli import main
from tharsis import saves
from tharsis.play import GameLog, Seat, Session
from tharsis.runtime.bots import BOTS, play_out
from tharsis.runtime.game import Game, GameOptions
from tharsis.simulate import Simulation, summary, wilson


def test_a_scripted_human_plays_a_whole_game_against_a_bot(tmp_path, monkeypatch, capsys):
    answers = "\n".join(["help", "view", "hand", "card Livestock", "nonsense"] + ["1"] * 4000) + "\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    log = tmp_path / "game.jsonl"
    assert main(["play", "--seat", "ann=human", "--seat", "bot=greedy", "--seed", "5", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "Commands:" in out                                   # help
    assert "Livestock (#184) — active card, 13 MC" in out and "Action: Add 1 animal to this card." in out
    assert "'nonsense' is not one of the options" in out        # a bad answer is refused, the game goes on
    assert "hand (* playable now):" in out and "temperature" in out
    table = out[out.rindex("player "):]
    assert "TOTAL" in table and "winner: " in table and "generations: " in table
    rows = [line.split() for line in table.splitlines()[2:4]]
    assert {rows[0][0], rows[1][0]} == {"ann", "bot"}
    for row in rows:  # TR + milestones + awards + greeneries + cities + cards = total
        assert sum(map(int, row[1:7])) == int(row[7])
    record = saves.read(log)
    assert record.seats == [Seat("ann", "human"), Seat("bot", "greedy")] and record.options.seed == 5
    end = json.loads(log.read_text().splitlines()[-1])
    assert end["event"] == "end" and end["result"]["winner"] in ("ann", "bot")
    assert main(["replay", str(log)]) == 0
    assert f"winner: {end['result']['winner']}" in capsys.readouterr().out


def test_save_then_load_resumes_the_same_game(tmp_path, monkeypatch, capsys):
    save = tmp_path / "saved.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\n1\nsave " + str(save) + "\nquit\n"))
    assert main(["play", "--seed", "9", "--no-log"]) == 0
    assert f"saved to {save}" in capsys.readouterr().out
    saved = json.loads(save.read_text())
    assert len(saved["log"]) >= 3 and saved["seats"][0] == {"name": "you", "kind": "human"}
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 4000))
    assert main(["play", "--load", str(save), "--no-log"]) == 0
    assert "winner: " in capsys.readouterr().out


def test_undo_takes_back_only_the_humans_own_last_choice():
    game = Game(GameOptions(players=("ann", "bot"), seed=4))
    out = io.StringIO()
    session = Session(game, [Seat("ann", "human"), Seat("bot", "greedy")], GameLog(None),
                      stdin=io.StringIO("1\n1\nundo\nquit\n"), stdout=out)
    session.run()
    text = out.getvalue()
    assert "undone: back before your choice" in text
    assert len(session.game.log) == 2  # ann's corporation and the bot's; ann's first buy was taken back


def test_players_flag_fills_the_seats(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--players", "3", "--no-log"]) == 0
    assert main(["play", "--players", "6", "--no-log"]) == 2
    assert main(["play", "--players", "2", "--seat", "a=human", "--no-log"]) == 2
    assert main(["simulate", "--players", "3", "--games", "2", "--quiet", "--out", "/dev/null"]) == 0
    out = capsys.readouterr().out
    assert "random2" in out and "2 games" in out


def test_bad_seats_and_flags_are_usage_errors(capsys):
    assert main(["play", "--seat", "ann=wizard"]) == 2
    assert "unknown seat kind 'wizard'" in capsys.readouterr().err
    assert main(["play", "--solo", "--seat", "a=human", "--seat", "b=human"]) == 2
    assert main(["simulate", "--seat", "ann=human", "--seat", "bot=random", "--games", "1"]) == 2
    assert main(["play", "--board", "olympus", "--no-log"]) == 2
    assert "unknown board" in capsys.readouterr().err


def test_simulate_is_deterministic_whatever_the_number_of_jobs(tmp_path, capsys):
    common = ["simulate", "--games", "200", "--quiet", "--seat", "g=greedy", "--seat", "r=random", "--seed", "100"]
    assert main(common + ["--jobs", "2", "--out", str(tmp_path / "two.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "200 games" in out and "95% CI" in out and "mean generations" in out
    assert main(common + ["--jobs", "1", "--out", str(tmp_path / "one.jsonl")]) == 0
    strip = lambda path: [{k: v for k, v in json.loads(l).items() if k != "seconds"}  # noqa: E731
                          for l in path.read_text().splitlines()]
    two, one = strip(tmp_path / "two.jsonl"), strip(tmp_path / "one.jsonl")
    assert len(one) == 200 and one == two
    assert [r["seed"] for r in one] == list(range(100, 300))
    assert set(one[0]["players"][0]) >= {"seat", "bot", "total", "tr", "milestones", "awards", "greeneries",
                                        "cities", "cards"}


def test_greedy_beats_random_in_at_least_80_percent_of_200_two_player_games():
    results = Simulation(GameOptions(players=("greedy", "random"), seed=1000), [("greedy", "greedy"),
                                                                                ("random", "random")],
                         200, jobs=2).run(progress=None)
    wins = sum(1 for r in results if r["winner"] == "greedy")
    assert wins >= 160, summary(results, [("greedy", "greedy"), ("random", "random")])


def test_wilson_interval():
    low, high = wilson(80, 100)
    assert 0.70 < low < 0.72 and 0.86 < high < 0.88
    assert wilson(0, 0) == (0.0, 0.0)


@pytest.mark.parametrize("seed", range(6))
def test_solo_games_follow_the_solo_rules(seed):
    game = Game(GameOptions(players=("solo",), seed=seed, corporate_era=True))
    game.apply(0)  # corporation; the neutral cities are placed next
    revealed = game.state.discard[:4]
    costs = [game.library[name].cost for name in revealed]
    mars = [s.id for s in game.board.mars]
    first_city = mars[(max(costs[0], 1) - 1) % len(mars)]
    assert game.state.tiles[first_city].kind == "city" and game.state.tiles[first_city].owner == -1
    around = [s for s in game.board.clockwise[first_city] if s is not None]
    assert game.state.tiles[around[(max(costs[1], 1) - 1) % len(around)]].kind == "greenery"
    second_free = [s for s in reversed(mars) if s not in (first_city, around[(max(costs[1], 1) - 1) % len(around)])]
    second_city = second_free[(max(costs[2], 1) - 1) % len(second_free)]
    assert game.state.tiles[second_city].kind == "city"
    assert game.state.oxygen == 0 and game.state.players[0].tr == 14
    player = game.state.players[0]
    if player.corporation == "Tharsis Republic":  # it still gains 1 MC production per neutral city
        assert player.production["megacredits"] == 2
    elif not game.library[player.corporation].play:
        assert all(value == 0 for value in player.production.values())
    play_out(game, {0: BOTS["greedy"](seed)})
    assert game.state.generation == 14
    assert game.result["solo_won"] == game.terraformed()
    assert game.result["winner"] == ("solo" if game.terraformed() else None)
    assert not game.state.milestones and not game.state.awards


def test_solo_tr63_goal_is_judged_on_tr():
    game = Game(GameOptions(players=("solo",), seed=3, solo_tr63=True))
    assert "Buffer Gas" in game.standard_projects
    play_out(game, {0: BOTS["greedy"](3)})
    assert game.result["solo_won"] == (game.state.players[0].tr >= 63)
    assert "Buffer Gas" not in Game(GameOptions(players=("a", "b"), seed=3)).standard_projects


def test_solo_from_the_command_line_prints_the_verdict(monkeypatch, capsys):
    assert main(["simulate", "--solo", "--seat", "me=greedy", "--games", "2", "--quiet", "--out", "/dev/null"]) == 0
    assert "solo wins:" in capsys.readouterr().out


def test_a_designers_card_folder_joins_the_deck_and_is_played(tmp_path, monkeypatch, capsys):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "cows.mars").write_text(
        'card "Space Cows" #M1 {\n  set: moo  type: active  cost: 5  tags: animal\n  holds: animal\n'
        '  action: add 1 animal here\n  vp: 1 per animal here\n}\n', encoding="utf-8")
    sandbox = Game(GameOptions(players=("a", "b"), seed=1, card_paths=(str(mine),)), start=False)
    assert "Space Cows" in sandbox.state.deck and "moo" in sandbox.sets_in_play()
    results = Simulation(GameOptions(players=("g", "r"), seed=7, card_paths=(str(mine),)),
                         [("g", "greedy"), ("r", "random")], 3).run(progress=None)
    assert len(results) == 3
    (mine / "broken.mars").write_text('card "Bad" #M2 { type: automated cost: 3 tags: aminal }\n', encoding="utf-8")
    assert main(["play", "--cards", str(mine), "--no-log"]) == 1
    err = capsys.readouterr().err
    assert "unknown tag 'aminal'" in err and "do not compile" in err


def test_a_designer_measures_how_often_their_corporation_wins(repo, tmp_path, capsys):
    mine = repo / "docs" / "examples" / "venus-labs"
    out = tmp_path / "r.jsonl"
    assert main(["simulate", "--cards", str(mine), "--games", "6", "--quiet", "--seat", "me=greedy",
                 "--seat", "rival=greedy", "--corporation", "me=Aphrodite Labs", "--track", "Cloud Harvester",
                 "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "players who played" in text and "Aphrodite Labs" in text
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert all(r["players"][0]["corporation"] == "Aphrodite Labs" for r in rows)
    assert all(r["players"][1]["corporation"] != "Aphrodite Labs" for r in rows)
    assert main(["simulate", "--games", "1", "--corporation", "nobody=CrediCor", "--out", str(out)]) == 2
    assert main(["simulate", "--games", "1", "--corporation", "greedy=CrediCorp", "--out", str(out)]) == 2


def test_the_example_designer_set_checks_and_its_scenarios_pass(repo, capsys):
    mine = repo / "docs" / "examples" / "venus-labs"
    assert main(["check", "--with-bundled", str(mine)]) == 0
    assert main(["test", str(mine / "scenarios"), "--cards", str(mine)]) == 0
    assert "3 passed, 0 failed" in capsys.readouterr().out
