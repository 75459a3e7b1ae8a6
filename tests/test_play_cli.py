"""The CLI as players and researchers use it: a scripted human game, bot simulations, logs, replays, solo."""

import io
import json
import re

import pytest

from tharsis.cli import main
from tharsis.games import saves
from tharsis.games.options import Seat
from tharsis.games.simulate import Simulation, summary, wilson
from tharsis.runtime.api.game import Game, GameOptions
from tharsis.runtime.bots import BOTS, play_out
from tharsis.runtime.rules.spaces import terraformed
from tharsis.terminal.play import GameLog, Session


def test_a_scripted_human_plays_a_whole_game_against_a_bot(tmp_path, autopilot, capsys):
    autopilot.lines = ["help", "view", "hand", "card Livestock", "nonsense", "opponents", "projects"]
    log = tmp_path / "game.jsonl"
    assert main(["play", "--seat", "ann=human", "--seat", "bot=greedy", "--seed", "5", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "Commands:" in out                                   # help
    assert "Livestock (#184) — active card, 13 MC" in out and "Action: Add 1 animal to this card." in out
    assert "'nonsense' is not one of the options" in out        # a bad answer is refused, the game goes on
    assert "hand: (empty)" in out and "temperature" in out
    assert "--- bot (no corporation yet), TR 20, 0 cards in hand" in out     # opponents
    assert "standard projects (your price; * you can do it now):" in out
    assert "» bot plays " in out and "» ann buys " in out        # moves are told as they happen
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


THIRD_PERSON = re.compile(r"\byou (plays|passes|buys|places|uses|pays|chooses|takes|claims|funds|starts|sets|"
                          r"reveals|converts|drafts|keeps|discards)\b")


def test_a_seat_named_you_is_told_what_you_do_not_what_you_does(autopilot, capsys):
    """The default human seat is `you`: its moves read "you buy", "you play", "you pass", the others' "bot plays"."""
    autopilot.lines = ["history"]
    assert main(["play", "--seed", "5", "--draft", "--no-log"]) == 0
    out = capsys.readouterr().out
    assert "» you choose " in out and "» you draft " in out and "» you buy " in out    # the play view's narration
    assert "» you play " in out and "you pass" in out and "you place " in out           # the engine's events
    assert "you start with " in out and "bot starts with " in out and "» bot plays " in out
    assert not THIRD_PERSON.findall(out)


def test_save_then_load_resumes_the_same_game(tmp_path, autopilot, capsys):
    save = tmp_path / "saved.json"
    autopilot.lines = ["1", "buy 1", "1", "save " + str(save), "quit"]
    assert main(["play", "--seed", "9", "--no-log"]) == 0
    out = capsys.readouterr().out
    assert f"saved to {save}" in out and f"Game saved to {save}. Resume with: tharsis play --load {save}" in out
    saved = json.loads(save.read_text())
    assert len(saved["log"]) >= 3 and saved["seats"][0] == {"name": "you", "kind": "human"}
    assert main(["play", "--load", str(save), "--no-log"]) == 0
    out = capsys.readouterr().out
    assert f"Resuming the game of seed 9 after {len(saved['log'])} choices" in out and "winner: " in out


def test_undo_takes_back_a_whole_card_selection_but_not_another_humans_choice(tmp_path):
    game = Game(GameOptions(players=("ann",), seed=4))
    out = io.StringIO()
    session = Session(game, [Seat("ann", "human")], GameLog(None), stdin=io.StringIO("1\nbuy 1 3\nundo\nbuy 2\nquit\n"),
                      stdout=out, autosave=tmp_path / "solo.json")
    session.run()
    text = out.getvalue()
    # the ten buy-or-discard answers, all at once, named as the move they were
    assert "undone: back before your choice of the cards to buy in generation 1\n" in text
    assert text.count("10 cards offered, 3 MC each") == 2
    labels = session.game.log
    assert labels[0].startswith("corporation ") and len(labels) == 11
    assert [label.startswith("buy ") for label in labels[1:]] == [False, True] + [False] * 8

    game = Game(GameOptions(players=("ann", "bob"), seed=4))
    out = io.StringIO()
    session = Session(game, [Seat("ann", "human"), Seat("bob", "human")], GameLog(None),
                      stdin=io.StringIO("1\n1\nbuy 1\nundo\nquit\n"), stdout=out, autosave=tmp_path / "two.json")
    session.run()
    assert "cannot undo: ann has chosen since your last choice (undo takes back your own answers, and the bots' " \
           "choices after them)" in out.getvalue()


def test_players_flag_fills_the_seats(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
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
    common = ["simulate", "--games", "40", "--quiet", "--seat", "g=greedy", "--seat", "r=random", "--seed", "100"]
    assert main(common + ["--jobs", "2", "--out", str(tmp_path / "two.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "40 games" in out and "95% CI" in out and "mean generations" in out
    assert main(common + ["--jobs", "1", "--out", str(tmp_path / "one.jsonl")]) == 0
    strip = lambda path: [{k: v for k, v in json.loads(line).items() if k != "seconds"}  # noqa: E731
                          for line in path.read_text().splitlines()]
    two, one = strip(tmp_path / "two.jsonl"), strip(tmp_path / "one.jsonl")
    assert len(one) == 40 and one == two
    assert [r["seed"] for r in one] == list(range(100, 140))
    assert set(one[0]["players"][0]) >= {"seat", "bot", "total", "tr", "milestones", "awards", "greeneries",
                                        "cities", "cards"}


@pytest.mark.slow
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
    if player.corporations == ["Tharsis Republic"]:  # it still gains 1 MC production per neutral city
        assert player.production["megacredits"] == 2
    elif not game.library[player.corporations[0]].play:
        assert all(value == 0 for value in player.production.values())
    play_out(game, {0: BOTS["greedy"](seed)})
    assert game.state.generation == 14
    assert game.result["solo_won"] == terraformed(game)
    assert game.result["winner"] == ("solo" if terraformed(game) else None)
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


def test_a_new_game_has_a_random_seed_that_is_printed_and_deals_the_same_game_again(tmp_path, monkeypatch,
                                                                                    capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--no-log"]) == 0
    first = capsys.readouterr().out
    seed = re.search(r"Seed (\d+) \(tharsis play --seed \1 deals this game again\)", first).group(1)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--no-log", "--seed", seed]) == 0
    again = capsys.readouterr().out
    deal = slice(first.index("Your 10 starting cards"), first.index("you: Choose your corporation"))
    assert again[deal] == first[deal]
    assert f"Game saved to tharsis-save-{seed}.json" in first and f"tharsis-save-{seed}-2.json" in again


def test_logs_and_saves_are_never_overwritten(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.jsonl").write_text("my notes\n")
    assert main(["play", "--seed", "3", "--log", "mine.jsonl"]) == 2
    err = capsys.readouterr().err
    assert "E718" in err and "--log mine.jsonl: the file already exists and a new game does not overwrite it" in err
    assert (tmp_path / "mine.jsonl").read_text() == "my notes\n"
    for expected in ("tharsis-game-3.jsonl", "tharsis-game-3-2.jsonl"):
        monkeypatch.setattr("sys.stdin", io.StringIO("save mine.jsonl\nquit\n"))
        assert main(["play", "--seed", "3"]) == 0
        out = capsys.readouterr().out
        assert f"Game saved in its log {expected}" in out and f"log written to {expected}" in out
        assert "mine.jsonl already exists: save under another name" in out
    assert (tmp_path / "mine.jsonl").read_text() == "my notes\n"


def test_answers_name_a_space_by_its_id_and_ambiguous_starts_list_the_candidates():
    from tharsis.runtime.core.decisions import Decision, Option
    from tharsis.terminal.play import resolve

    spaces = Decision(0, "space", "Where?", tuple(Option(f"space {s}", s) for s in ("03", "19", "31")))
    assert resolve(spaces, "3")[0].value == "03" and resolve(spaces, "space 31")[0].value == "31"
    assert resolve(spaces, "2")[1] == "2 is not a legal space here; legal: 03 19 31"
    actions = Decision(0, "action", "action 1 of 2", (Option("play Satellites"), Option("play Solar Wind Power"),
                                                       Option("standard project Aquifer"), Option("pass")))
    assert resolve(actions, "play s")[1] == ("'play s' is ambiguous: play Satellites, play Solar Wind Power; "
                                             "type more of it")
    assert resolve(actions, "sat")[0].label == "play Satellites"          # the start of a word in the label
    assert resolve(actions, "aquifer")[0].label == "standard project Aquifer"
    assert resolve(actions, "2")[0].label == "play Solar Wind Power"
    assert resolve(actions, "9")[1] == "there is no option 9: the options are numbered 1-4"


def test_lookups_show_what_each_player_has_and_who_meets_milestones_and_leads_awards():
    from tharsis.runtime.rules.measures import Where, quantity
    from tharsis.terminal import view

    game = Game(GameOptions(players=("ann", "bob"), seed=3))
    bots = {0: BOTS["greedy"](1), 1: BOTS["random"](2)}
    while game.state.generation < 6:
        game.apply(bots[game.pending().player].choose(game, game.pending()))
    bob = game.state.players[1]
    sheet = view.player_sheet(game, 1)
    assert sheet.startswith(f"--- bob ({bob.corporations[0]}), TR {bob.tr}, {len(bob.hand)} cards in hand")
    tags = [tag for card in bob.played for tag in game.library[card.name].tags]
    assert f"in play: {bob.played[0].name}" in sheet
    assert tags and all(f"{tag} {tags.count(tag)}" in sheet for tag in set(tags))  # every tag, counted
    game.state.players[0].tr = 35
    milestones = view.milestones(game, 0)
    assert f"Terraformer    tr at least 35                 ann 35 (meets it), bob {bob.tr}" in milestones
    awards = view.awards(game)
    for name, funder in game.state.awards:
        assert f"funded by {game.state.players[funder].name}" in awards.split(name, 1)[1].splitlines()[0]
    heat = {p.name: quantity(game, game.awards["Thermalist"].measure, Where(p.index)) for p in game.state.players}
    assert f"ann {heat['ann']}, bob {heat['bob']}" in awards
    projects = view.standard_projects(game, 0)
    assert " * Power Plant              11 MC  Increase your energy production 1 step." in projects


def test_a_bots_move_is_told_with_what_it_paid_and_gained_but_not_which_cards_it_bought():
    from tharsis.terminal.moves import Move, Narrator, Snapshot, report

    seed = next(s for s in range(200)  # a deal that offers ann Mining Guild
                if "corporation Mining Guild" in Game(GameOptions(players=("ann", "bob"), seed=s)).pending().labels())
    game = Game(GameOptions(players=("ann", "bob"), seed=seed))
    narrator, told, label = Narrator([False, True]), [], "corporation Mining Guild"   # bob is a bot
    while not (game.pending().player == 0 and game.pending().kind == "buy"):
        decision = game.pending()
        told += narrator.before(game, decision)
        label = label or BOTS["greedy"](1).choose(game, decision).label
        narrator.choose(game, decision, label)
        game.apply(label)
        label = None
    told = "\n".join(told + narrator.before(game, game.pending()))
    assert "» bob chooses a corporation\n" in told
    assert "» ann starts with Mining Guild\n  ann: +30 MC, +5 steel, +1 steel production\n" in told
    now = Snapshot.of(game)
    bought = [("buy", "buy Birds"), ("buy", "discard Comet")]
    assert report(game, Move(1, now, bought), False, {}) == ["» bob buys Birds, discards 1 card"]
    assert report(game, Move(1, now, bought), True, {}) == ["» bob buys 1 card, discards 1 card"]


@pytest.mark.parametrize("flags", [
    ["--seed", "11", "--corporate-era", "--draft", "--corporation", "you=Helion"],
    ["--seed", "12", "--solo", "--seat", "you=human"],
    ["--seed", "13", "--board", "hellas", "--seat", "you=human", "--seat", "r=random", "--seat", "g=greedy"],
])
def test_a_human_can_finish_games_of_every_kind_through_the_prompt(flags, autopilot, capsys):
    assert main(["play", "--no-log", *flags]) == 0
    out = capsys.readouterr().out
    assert "generations: " in out and "Traceback" not in out
    assert "cards offered" in out and "Legal spaces by what they give" in out


def test_an_options_whole_label_answers_even_when_it_starts_like_a_command():
    from tharsis.runtime.core.decisions import Decision, Option

    game = Game(GameOptions(players=("ann", "bob"), seed=7))
    session = Session(game, [Seat("ann", "human"), Seat("bob", "human")], GameLog(None),
                      stdin=io.StringIO("player bob\nplayer bo\n"), stdout=io.StringIO())
    decision = Decision(0, "player", "Remove up to 2 plants from any player",
                        (Option("player bob", 1), Option("remove nothing", None)))
    assert session.read("?", decision) == "player bob"
    assert session.read("?", decision) is None                    # `player NAME`, the lookup
    assert "--- bob (no corporation yet), TR 20" in session.stdout.getvalue()


def test_the_sessions_in_docs_playing_md_are_what_tharsis_play_prints(repo, tmp_path, monkeypatch, capsys):
    """Every line of the docs' `tharsis play` transcripts comes from these runs (`...` marks a cut)."""
    monkeypatch.chdir(tmp_path)
    printed = []

    def play(answers: str, *args: str) -> None:
        monkeypatch.setattr("sys.stdin", io.StringIO(answers))
        main(["play", *args])
        printed.append("".join(capsys.readouterr()))

    play("mining\nbuy 11\nbuy 3 7\nstandard\naquifer\n3\n32\nend turn\nplayer bob\nprojects\nmilestones\nawards\n"
         "quit\n", "--seat", "ann=human", "--seat", "bob=greedy", "--seed", "1")
    play("quit\n", "--load", "tharsis-game-1.jsonl")
    play("quit\n", "--load", "tharsis-game-1.jsonl", "--no-log")
    play("", "--seed", "1", "--log", "tharsis-game-1.jsonl")
    play("", "--seat", "ann=greedy", "--seat", "bob=random", "--seed", "4", "--log", "full.jsonl")
    text = (repo / "docs" / "playing.md").read_text(encoding="utf-8")
    section = text[text.index("## tharsis play"):text.index("### Options")]
    real = "\n".join(printed)
    inside, missing = False, []
    for line in section.splitlines():
        if line.startswith("```"):
            inside = not inside
        elif inside and line.strip() != "..." and not line.startswith(("$ ", "tharsis play")) and line not in real:
            missing.append(line)
    assert not missing, "\n".join(missing)


def test_each_legal_space_shows_what_it_gives_now():
    from tharsis.terminal import view

    game = Game(GameOptions(players=("ann", "bob"), seed=3, board="Hellas"))
    listed = view.space_choices(game, ["04", "61", "01"], 0)
    assert listed.splitlines() == ["  2 plants                      04", "  1 ocean to place, costs 6 MC  61",
                                   "  Ganymede Colony               01"]
    game.state.oceans = 9                      # the south pole costs 6 MC only while an ocean can be placed
    assert "1 ocean to place  " in view.space_choices(game, ["61"], 0) + "  "
    assert "costs" not in view.space_choices(game, ["61"], 0)


def test_a_space_is_priced_with_the_tile_being_placed_down():
    """While the 9th ocean is placed, Hellas' south pole (61) is free, as `put_tile` charges it; the view said
    "costs 6 MC"."""
    from tharsis.runtime.handlers.tiles import place, placing
    from tharsis.terminal import view

    def placing_an_ocean(oceans_down: int) -> Game:  # on land, as Artificial Lake does
        game = Game(GameOptions(players=("ann", "bob"), seed=3, board="Hellas"))
        assert placing(game) is None                   # choosing a corporation
        game.flow.asking, game.state.oceans = None, oceans_down
        game.state.players[0].resources["megacredits"] = 6
        lake = next(e for e in game.library["Artificial Lake"].play if type(e).__name__ == "PlaceTile")
        game.start_flow(place, 0, "ocean", lake.filters)
        assert placing(game) == "ocean" and "space 61" in game.pending().labels()
        return game

    assert "costs" not in view.space_choices(placing_an_ocean(8), ["61"], 0)
    assert "costs 6 MC" in view.space_choices(placing_an_ocean(7), ["61"], 0)    # the 8th: 61 still costs 6 MC


def test_a_space_chosen_without_a_tile_is_told_but_a_placed_tile_is_told_once():
    from tharsis.terminal.moves import Move, Snapshot, report

    game = Game(GameOptions(players=("ann", "bob"), seed=7))
    before = Snapshot.of(game)
    claimed = report(game, Move(0, before, [("action", "play Land Claim"), ("space", "space 31")]), False, {})
    assert claimed == ["» ann chooses space 31"]
    game.log_event("place", 0, "31", "city", None)
    placed = "\n".join(report(game, Move(0, before, [("action", "standard project City"), ("space", "space 31")]),
                              False, {}))
    assert "» ann places city on 31" in placed and "chooses" not in placed


def test_the_example_expansion_checks_its_scenarios_pass_and_games_are_played_with_it(repo, capsys):
    """docs/designing-cards.md "Designing an expansion": a parameter, a kind of card and a rule, all in text."""
    mine = repo / "docs" / "examples" / "solar-storms"
    assert main(["check", "--with-bundled", str(mine)]) == 0
    assert main(["test", str(mine / "scenarios"), "--cards", str(mine)]) == 0
    assert "5 passed, 0 failed" in capsys.readouterr().out
    assert main(["play", "--cards", str(mine), "--expansion", "solar-storms", "--seat", "a=greedy",
                 "--seat", "b=random", "--no-log", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "radiation 0→1" in out and "mission card" in out and "winner" in out
    assert main(["play", "--cards", str(mine), "--expansion", "solar-stroms", "--no-log"]) == 2
    assert "did you mean 'solar-storms'" in capsys.readouterr().err


def test_undo_goes_back_across_the_bots_moves_and_the_bots_choose_the_same_again(tmp_path):
    """Bots choose by the position alone (runtime/bots/), so taking back a round against them and answering
    as before gives the very same game; undo again and again goes back further."""
    def session(answers: str) -> tuple[Session, str]:
        game = Game(GameOptions(players=("ann", "bob"), seed=4))
        out = io.StringIO()
        played = Session(game, [Seat("ann", "human"), Seat("bob", "greedy")], GameLog(None),
                         stdin=io.StringIO(answers), stdout=out, autosave=tmp_path / "two.json")
        played.run()
        return played, out.getvalue()

    straight, _ = session("1\nbuy 1\n1\nquit\n")
    undone, text = session("1\nbuy 1\nundo\nbuy 1\n1\nquit\n")
    assert ("undone: back before your choice of the cards to buy in generation 1; 10 choices of bob after it are "
            "taken back too") in text
    assert text.count("10 cards offered, 3 MC each") == 2
    assert undone.game.log.to_list() == straight.game.log.to_list() and len(straight.game.log) > 22
    _, text = session("1\nbuy 1\nundo\nundo\n2\nquit\n")
    assert ("undone: back before your choice 'corporation CrediCor' in generation 1; 1 choice of bob after it is taken "
            "back too") in text
    assert text.count("ann: Choose your corporation") == 2
    _, text = session("undo\nquit\n")
    assert "nothing of yours to undo" in text


def test_undo_in_a_resumed_game_goes_back_before_the_point_it_was_loaded(tmp_path, autopilot, capsys):
    autopilot.lines = ["1", "buy 1", "quit"]
    assert main(["play", "--seat", "ann=human", "--seat", "bob=greedy", "--seed", "4", "--log", "game.jsonl"]) == 0
    lines = (tmp_path / "game.jsonl").read_text().splitlines()
    autopilot.lines = ["undo", "quit"]
    assert main(["play", "--load", "game.jsonl"]) == 0
    out = capsys.readouterr().out
    assert f"Resuming the game of seed 4 after {len(lines) - 1} choices." in out
    assert ("undone: back before your choice of the cards to buy in generation 1; 10 choices of bob after it are "
            "taken back too") in out
    assert (tmp_path / "game.jsonl").read_text().splitlines() == lines[:3]   # the log goes back with the game


def test_replay_tells_a_game_move_by_move_exactly_as_play_told_it(tmp_path, monkeypatch, capsys):
    """The narration: each cause (a card, a placement, its bonus, a trigger, a track bonus) with its effect on each
    player, the production phase as a step of its own, every card's VP at the end; `replay` tells it the same."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--seat", "ann=greedy", "--seat", "bob=random", "--seed", "4", "--log", "full.jsonl"]) == 0
    played = capsys.readouterr().out
    assert main(["replay", "full.jsonl"]) == 0
    replayed = capsys.readouterr().out
    told = played.split("Type help for the commands.\n", 1)[1].split("log written to ")[0]
    assert replayed == "Replaying full.jsonl: seed 4, ann (greedy), bob (random).\n" + told + \
        "verified: the replay gives the logged result\n"
    # a trigger of the player's own, set off by the card they play, is named with what it gave
    assert re.search(r"\n» ann plays [^\n]+\n(  [^\n]+\n)*  › ann's CrediCor\n    ann: \+4 MC\n", told)
    # a placement with its bonus, within the standard project that placed it
    assert re.search(r"\n» bob uses standard project Aquifer\n  \(bob pays [^)]+\)\n  bob: -16 MC, -2 heat\n"
                     r"  › bob places ocean on 32\n    bob: TR 21→22\n    oceans 1→2/9\n"
                     r"    › placement bonus of 32\n      bob: \+2 plant\n", told)
    assert "\n  › temperature bonus at -24°C\n    bob: +1 heat production\n" in told
    # production is its own step, after the passes, before the next generation; the last one too
    for generation in range(1, 13):
        block = told.split(f"» production phase of generation {generation}\n", 1)[1]
        assert block.index(f"=== Generation {generation + 1} ===") < block.index("» ")
    last = told.split("» production phase of generation 13\n", 1)[1]
    assert last.startswith("  ann: +") and "\n  bob: +" in last
    result = json.loads((tmp_path / "full.jsonl").read_text().splitlines()[-1])["result"]
    vp = told.split("VP from cards:\n", 1)[1].splitlines()
    for row, line in zip(result["players"], vp):
        assert line.startswith(f"  {row['name']}: ") and line.endswith(f"({row['cards']} VP)")
        assert sum(int(part.rsplit(" ", 1)[1]) for part in line.split(": ", 1)[1].rsplit(" (", 1)[0].split(", ")) \
            == row["cards"]


def test_replay_until_a_generation_stops_there_and_step_waits_only_on_a_terminal(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--seat", "ann=greedy", "--seat", "bob=random", "--seed", "4", "--log", "full.jsonl"]) == 0
    capsys.readouterr()
    assert main(["replay", "full.jsonl", "--until", "2"]) == 0
    out = capsys.readouterr().out
    assert "=== Generation 2 ===" in out and "» production phase of generation 2\n" in out
    assert "=== Generation 3 ===" not in out and "winner:" not in out     # the rest of the game is not told
    assert "\n--- after generation 2:\nGeneration 3 (research)" in out
    assert out.endswith("verified: the replay gives the logged result\n")  # the whole log is still checked
    assert main(["replay", "full.jsonl", "--step"]) == 0   # standard input is no terminal: all at once
    stepped = capsys.readouterr().out
    assert main(["replay", "full.jsonl"]) == 0
    assert stepped == capsys.readouterr().out and "Enter" not in stepped
    assert main(["replay", "full.jsonl", "--until", "0"]) == 2
    assert "E750" in capsys.readouterr().err


@pytest.mark.parametrize("options, bot", [
    (GameOptions(players=("ann", "bob"), seed=1), "random"),
    (GameOptions(players=("ann", "bob", "cy"), seed=2, corporate_era=True, draft=True, initial_draft=True,
                 board="Hellas"), "greedy"),
    (GameOptions(players=("you",), seed=3, expansions=("prelude", "venus")), "greedy"),
    (GameOptions(players=("ann", "bob"), seed=4, board="Elysium", expansions=("venus",)), "random"),
])
def test_every_cause_the_engine_logs_is_closed_and_told_and_survives_a_save(options, bot):
    """Events are data: each is a cause (closed by an `end`, causes nest) or a note of a known kind, each reads
    as a sentence, and a game saved mid-cause and restored goes on logging the very same events."""
    from tharsis.runtime.api.narration import CAUSES, END, NOTES, sentence

    game = Game(options)
    bots = {i: BOTS[bot](i) for i in range(len(options.players))}
    restored = None
    while not game.over:
        if restored is None and game.state.generation >= 2 and \
                any(frame.function.__name__ == "cause_ends" for frame in game.flow.stack):   # a cause is open
            restored = (Game.from_json(game.to_json()), len(game.events))
        game.apply(bots[game.pending().player].choose(game, game.pending()))
    depth = 0
    for event in game.events:
        assert event[0] >= 1 and (event[1] in CAUSES or event[1] in NOTES or event[1] == END), event
        depth += 1 if event[1] in CAUSES else -1 if event[1] == END else 0
        assert depth >= 0 and (event[1] == END or sentence(game, event))
    assert depth == 0 and sum(1 for e in game.events if e[1] == "production") == game.state.generation
    copy, count = restored   # saved while a cause was open: its end is a step of the saved flow
    assert [list(e) for e in copy.events] == [list(e) for e in game.events][:count]
    for label in game.log.to_list()[len(copy.log):]:
        copy.apply(label)
    assert [list(e) for e in copy.events] == [list(e) for e in game.events]


def test_the_replay_transcript_in_docs_playing_md_is_what_tharsis_replay_prints(repo, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--seat", "ann=greedy", "--seat", "bob=random", "--seed", "4", "--log", "full.jsonl"]) == 0
    capsys.readouterr()
    assert main(["replay", "full.jsonl", "--until", "1"]) == 0
    real = capsys.readouterr().out.splitlines()
    text = (repo / "docs" / "playing.md").read_text(encoding="utf-8")
    section = text[text.index("## tharsis replay"):text.index("## tharsis simulate")]
    shown = section.split("```\n$ tharsis replay full.jsonl --until 1\n", 1)[1].split("```", 1)[0].splitlines()
    assert len(shown) > 30
    assert [line for line in shown if line != "..." and line not in real] == []
    assert shown[:3] == real[:3] and shown[-2:] == real[-2:]


def test_the_setup_before_the_first_question_is_told_too_and_replayed_alike(tmp_path, monkeypatch, capsys):
    """With the Beginner Corporation nobody chooses anything until the first action: the corporations and the free
    starting cards are still told, before it, and `replay` tells them the same."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--seat", "a=greedy", "--seat", "b=random", "--beginner", "--seed", "2", "--max-generations",
                 "2", "--log", "game.jsonl"]) == 0
    played = capsys.readouterr().out
    told = played.split("Type help for the commands.\n", 1)[1].split("log written to ")[0]
    assert told.startswith("\n=== Generation 1 ===\n» a starts with Beginner Corporation\n  a: +42 MC\n"
                           "» b starts with Beginner Corporation\n  b: +42 MC\n"
                           "» a's starting cards\n  a: +10 cards in hand\n"
                           "» b's starting cards\n  b: +10 cards in hand\n")
    assert main(["replay", "game.jsonl"]) == 0
    assert capsys.readouterr().out.split("\n", 1)[1] == told + "verified: the replay gives the logged result\n"


def test_the_corporations_a_bot_set_aside_are_not_named(capsys):
    """The corporations a player did not choose go back face down: a bot's (whose hand the table cannot see) are
    never named, in play or in replay."""
    assert main(["play", "--seat", "ann=greedy", "--seat", "bob=random", "--seed", "7", "--max-generations", "1",
                 "--no-log"]) == 0
    out = capsys.readouterr().out
    assert "» ann chooses a corporation" in out and "sets aside" not in out


def test_the_preludes_are_in_view_while_the_corporation_is_chosen_and_the_starting_cards_bought(tmp_path,
                                                                                                monkeypatch, capsys):
    """The printed rules deal the preludes with the corporations: the four dealt are listed before the corporation
    is chosen and again with the starting cards to buy, before the question of which two to keep."""
    from tharsis.runtime.api.game import Game, GameOptions, load_library

    game = Game(GameOptions(players=("you", "bot"), seed=5, expansions=("prelude",)), load_library())
    dealt = [game.library[name] for name in game.state.kept[0]]
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\nbuy none\nquit\n"))
    assert main(["play", "--no-log", "--seed", "5", "--expansion", "prelude", "--seat", "you=human",
                 "--seat", "bot=greedy"]) == 0
    out = capsys.readouterr().out
    corporation, buy = out.index("you: Choose your corporation"), out.index("you: which cards do you buy?")
    for at in (corporation, buy):
        told = out.rindex("The 4 cards dealt to you with the corporations", 0, at)
        assert all(card.name in out[told:at] for card in dealt)
    assert len(dealt) == 4 and all(card.type == "prelude" for card in dealt)
