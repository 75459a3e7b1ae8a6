"""Saves and logs that survive card edits and travel: a game keeps the content it was dealt from
(tharsis/games/recorded_cards.py). A designer adds a card to their folder, edits one, copies a log to another folder:
the game loads and replays as it was played, or is refused naming the card that changed."""

import json
import re
import shutil
from pathlib import Path

import pytest

from tharsis.cli import main
from tharsis.compiler import compile_text
from tharsis.compiler.definitions import Library
from tharsis.games import saves
from tharsis.runtime.api.game import Game, GameOptions, load_library
from tharsis.runtime.api.saves import decode, encode

PROBLEM = re.compile(r"^(?P<path>.+?)(?::(?P<line>\d+))?(?::\d+)?: (?:error|warning)\[(?P<code>[EW]7\d\d)\]: "
                     r"(?P<message>.*)$", re.M)
CORPORATION = 'corporation "Moo Corp" #M0 {\n  set: moo  tags: animal\n  start: 45 megacredits\n}\n'
CARD = 'card "Moo Card {n}" #M{n} {{\n  set: moo  type: automated  cost: 3  tags: animal\n  play: gain {n} plant\n}}\n'
NEW_CARD = 'card "Moo Newcomer" #M99 {\n  set: moo  type: event  cost: 1  tags: animal\n  play: gain 9 heat\n}\n'


def problems(err: str) -> list[tuple[str, str]]:
    """(code, message) of every problem printed."""
    return [(m["code"], m["message"]) for m in PROBLEM.finditer(err)]


@pytest.fixture
def studio(tmp_path, monkeypatch) -> Path:
    """A designer's folder `mine/` (a corporation and twelve cards of the set moo), the current folder its parent."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "corporation.mars").write_text(CORPORATION, encoding="utf-8")
    (mine / "cards.mars").write_text("".join(CARD.format(n=n) for n in range(1, 13)), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return mine


def bot_game(mine: Path, log: str, generations: int = 1) -> Path:
    assert main(["play", "--seat", "ann=greedy", "--seat", "bob=greedy", "--seed", "3", "--cards", str(mine),
                 "--corporation", "ann=Moo Corp", "--max-generations", str(generations), "--log", log]) == 0
    return Path(log)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_log_names_its_card_folder_relatively_and_holds_the_card_files(studio, tmp_path, capsys):
    log = bot_game(studio.resolve(), "game.jsonl")          # the folder given by its absolute path
    text = log.read_text(encoding="utf-8")
    assert str(tmp_path) not in text                        # no absolute path, not even in the options
    start = json.loads(text.splitlines()[0])
    assert start["format"] == 2 and start["options"]["card_paths"] == ["mine"]
    content = start["content"]
    assert content["files"] == {"mine/cards.mars": (studio / "cards.mars").read_text(),
                                "mine/corporation.mars": CORPORATION}
    assert "Moo Corp" in content["used"]["corporation"] and "Moo Card 7" in content["used"]["card"]
    assert "Tharsis" in content["used"]["board"] and "Hellas" not in content["used"].get("board", {})
    assert not any(name in content["used"]["card"] for name in ("Io Mining Industries",))  # not a base card


def test_a_save_made_before_adding_an_unrelated_card_loads_after_it(studio, autopilot, capsys):
    autopilot.lines = ["1", "buy 1", "save before.json", "quit"]
    assert main(["play", "--seat", "ann=human", "--seat", "bob=greedy", "--seed", "3", "--cards", "mine",
                 "--corporation", "ann=Moo Corp", "--max-generations", "2", "--no-log"]) == 0
    capsys.readouterr()
    (studio / "newcomer.mars").write_text(NEW_CARD, encoding="utf-8")    # it would join the deck of a new game
    (studio / "rival.mars").write_text(CORPORATION.replace("Moo Corp", "Moo Rival").replace("#M0", "#M98"),
                                       encoding="utf-8")
    assert main(["replay", "before.json"]) == 0
    out, err = capsys.readouterr()
    assert "verified: the replay reaches the saved state" in out and not err   # the same deal, the same state
    assert main(["play", "--load", "before.json", "--no-log"]) == 0
    out, err = capsys.readouterr()
    assert "Resuming the game of seed 3" in out and "winner: " in out and not err


def test_a_save_whose_played_card_changed_is_refused_naming_that_card(studio, autopilot, capsys):
    autopilot.lines = ["1", "buy 1", "save before.json", "quit"]
    assert main(["play", "--seat", "ann=human", "--seat", "bob=greedy", "--seed", "3", "--cards", "mine",
                 "--corporation", "ann=Moo Corp", "--no-log"]) == 0
    capsys.readouterr()
    edit(studio / "corporation.mars", "start: 45 megacredits", "start: 50 megacredits")
    for args in (["play", "--load", "before.json", "--no-log"], ["replay", "before.json"]):
        assert main(args) == 1
        out, err = capsys.readouterr()
        assert problems(err) == [("E741", "the corporation Moo Corp changed since this game was played "
                                          "(now at mine/corporation.mars:1)")]
        assert "put its text back" in err and "Resuming" not in out
    edit(studio / "corporation.mars", "start: 50 megacredits", "start: 45 megacredits   // layout is not content")
    assert main(["replay", "before.json"]) == 0
    (studio / "corporation.mars").unlink()
    assert main(["replay", "before.json"]) == 1
    assert problems(capsys.readouterr().err) == [("E742", "the corporation Moo Corp of this game is not in the "
                                                          "cards now")]


def test_an_edit_to_a_card_that_never_left_the_deck_changes_nothing_but_one_drawn_is_refused(studio, capsys):
    log = bot_game(studio, "game.jsonl")
    game = saves.load(log).game
    designed = [f"Moo Card {n}" for n in range(1, 13)]
    waiting = [name for name in designed if name in game.state.deck]
    drawn = [name for name in designed if name not in game.state.deck]
    assert waiting and drawn, "seed 3 deals some of the designer's cards in the first generation, not all"
    capsys.readouterr()
    number = int(waiting[0].split()[-1])
    edit(studio / "cards.mars", f"play: gain {number} plant\n", f"play: gain {number} steel\n")
    assert main(["replay", str(log)]) == 0
    out, err = capsys.readouterr()
    assert "verified" in out and not err
    number = int(drawn[0].split()[-1])
    edit(studio / "cards.mars", f"play: gain {number} plant\n", f"play: gain {number} titanium\n")
    assert main(["replay", str(log)]) == 1
    [(code, message)] = problems(capsys.readouterr().err)
    assert code == "E741" and message.startswith(f"the card {drawn[0]} changed since this game was played (now at "
                                                 "mine/cards.mars:")
    assert "and the game took it from the deck" in message


def test_a_log_copied_to_another_folder_replays_and_resumes(studio, tmp_path, autopilot, monkeypatch, capsys):
    autopilot.lines = ["1", "buy 2", "quit"]
    assert main(["play", "--seat", "ann=human", "--seat", "bob=greedy", "--seed", "5", "--cards", "mine",
                 "--max-generations", "2", "--log", "game.jsonl"]) == 0
    elsewhere = tmp_path / "elsewhere"     # another folder, or another machine: no mine/ beside it
    elsewhere.mkdir()
    shutil.copy(tmp_path / "game.jsonl", elsewhere / "game.jsonl")
    monkeypatch.chdir(elsewhere)
    capsys.readouterr()
    assert main(["replay", "game.jsonl"]) == 0
    out, err = capsys.readouterr()
    assert "the log stops before the end of the game" in out
    assert problems(err) == [("W740", "the card folder mine of this game is not here: the game is rebuilt from the "
                                      "2 card files the log holds")]
    assert main(["play", "--load", "game.jsonl"]) == 0     # the autopilot answers every question to the end
    out, err = capsys.readouterr()
    assert "winner: " in out and "W740" in err
    assert main(["replay", "game.jsonl"]) == 0          # the resumed log still holds the card files
    assert "verified: the replay gives the logged result" in capsys.readouterr().out
    start = json.loads((elsewhere / "game.jsonl").read_text().splitlines()[0])
    assert start["options"]["card_paths"] == ["mine"] and set(start["content"]["files"]) == {
        "mine/cards.mars", "mine/corporation.mars"}


def test_a_log_holds_the_designers_names_and_replays_in_chinese_elsewhere(studio, tmp_path, monkeypatch, capsys):
    """The names files travel with the card files: replayed in another folder with --lang zh, the designer's
    corporation and the bundled standard projects are told by their Chinese names (before, a replayed or loaded
    log lost every names file, bundled ones included)."""
    (studio / "zh.names").write_text('corporation "Moo Corp" = "哞哞公司"\n', encoding="utf-8")
    bot_game(studio, "game.jsonl", generations=2)
    start = json.loads(Path("game.jsonl").read_text().splitlines()[0])
    assert start["content"]["files"]["mine/zh.names"] == 'corporation "Moo Corp" = "哞哞公司"\n'
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(tmp_path / "game.jsonl", elsewhere / "game.jsonl")
    monkeypatch.chdir(elsewhere)
    capsys.readouterr()
    assert main(["replay", "game.jsonl", "--lang", "zh"]) == 0
    out, err = capsys.readouterr()
    assert "以「哞哞公司」开局" in out and "「贩卖专利」" in out and "Moo Corp" not in out and "Sell Patents" not in out
    assert [code for code, _ in problems(err)] == ["W740"]


def test_a_record_without_its_card_files_loaded_elsewhere_says_where_to_load_it(studio, tmp_path, monkeypatch,
                                                                                capsys):
    log = bot_game(studio, "game.jsonl")
    lines = log.read_text().splitlines()
    start = json.loads(lines[0])
    start["content"]["files"] = None        # a designer's folder of more than 2 MB of cards
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "game.jsonl").write_text("\n".join([json.dumps(start)] + lines[1:]) + "\n")
    monkeypatch.chdir(elsewhere)
    capsys.readouterr()
    assert main(["replay", "game.jsonl"]) == 1
    [(code, message)] = problems(capsys.readouterr().err)
    assert code == "E743" and "the card folder mine of this game is not here, and the log does not hold" in message


def test_logs_of_format_1_still_replay_with_the_cards_at_their_paths(studio, capsys):
    log = bot_game(studio, "game.jsonl")
    lines = log.read_text().splitlines()
    start = json.loads(lines[0])
    start.update(format=1, content=saves.content_hash(load_library((str(studio),))))
    start["options"]["card_paths"] = [str(studio)]
    old = Path("old.jsonl")
    old.write_text("\n".join([json.dumps(start)] + lines[1:]) + "\n")
    capsys.readouterr()
    assert main(["replay", str(old)]) == 0 and not capsys.readouterr().err
    edit(studio / "corporation.mars", "start: 45", "start: 50")
    assert main(["replay", str(old)]) == 1     # as before: the changed cards explain the failure
    found = problems(capsys.readouterr().err)
    assert found[0] == ("W701", found[0][1]) and "the cards changed since this game was played" in found[0][1]
    assert found[-1][0] in ("E714", "E716")


BROKEN_CONTENT = [
    (lambda c: 42, "content must be an object (the cards the game was dealt from), not an integer (42)"),
    (lambda c: {**c, "used": []}, "content.used must be an object of kinds, each an object of names, not a list"),
    (lambda c: {**c, "used": {**c["used"], "crad": {}}}, "content.used: unknown kind 'crad'"),
    (lambda c: {**c, "used": {"card": {"Moo Card 1": 7}}}, 'content.used.card["Moo Card 1"] must be a hash'),
    (lambda c: {**c, "files": {"../../etc/cards.mars": ""}}, 'content.files: "../../etc/cards.mars" is not the name '
                                                             "of a card file inside its folder"),
    (lambda c: {**c, "files": {"/home/ann/cards.mars": ""}}, "is not the name of a card file inside its folder"),
    (lambda c: {**c, "files": {"mine/cards.mars": None}}, 'content.files["mine/cards.mars"] must be the file\'s '
                                                          "text, not null"),
    (lambda c: {**c, "files": "mine"}, "content.files must be an object (file name -> card text) or null"),
    (lambda c: {**c, "colour": "red"}, "content: unknown field 'colour'"),
]


@pytest.mark.parametrize("damage,message", BROKEN_CONTENT, ids=[m[:40] for _, m in BROKEN_CONTENT])
def test_a_damaged_record_of_the_cards_is_e712(damage, message, studio, tmp_path, monkeypatch, capsys):
    log = bot_game(studio, "game.jsonl")
    lines = log.read_text().splitlines()
    start = json.loads(lines[0])
    start["content"] = damage(start["content"])
    broken = Path("broken.jsonl")
    broken.write_text("\n".join([json.dumps(start)] + lines[1:]) + "\n")
    capsys.readouterr()
    for args in (["replay", str(broken)], ["play", "--load", str(broken), "--no-log"]):
        assert main(args) == 1
        out, err = capsys.readouterr()
        assert "Traceback" not in err and "internal error" not in err
        [(code, found)] = problems(err)
        assert code == "E712" and message in found, err


def test_recorded_card_files_that_do_not_compile_or_name_a_card_that_is_gone_are_refused(studio, tmp_path,
                                                                                         monkeypatch, capsys):
    log = bot_game(studio, "game.jsonl")
    lines = log.read_text().splitlines()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    start = json.loads(lines[0])
    start["content"]["files"]["mine/cards.mars"] = 'card "Broken" #B1 {\n  tpye: event\n}\n'
    Path("broken.jsonl").write_text("\n".join([json.dumps(start)] + lines[1:]) + "\n")
    capsys.readouterr()
    assert main(["replay", "broken.jsonl"]) == 1
    err = capsys.readouterr().err
    assert "mine/cards.mars:2" in err and problems(err)[-1][0] == "E715"    # the compiler's report, then E715
    start = json.loads(lines[0])
    start["content"]["used"]["card"]["Moo Card 13"] = "0123456789abcdef"
    Path("gone.jsonl").write_text("\n".join([json.dumps(start)] + lines[1:]) + "\n")
    assert main(["replay", "gone.jsonl"]) == 1
    assert ("E742", "the card Moo Card 13 of this game is not in the cards now") in problems(capsys.readouterr().err)


def test_a_saved_reference_to_compiled_effects_does_not_depend_on_the_other_cards():
    """The flow and the state name a compiled effect by its definition and its place in it, so a card added to
    the content (here before every other definition) renumbers nothing."""
    library = load_library()
    game = Game(GameOptions(players=("a", "b"), seed=1), library)
    card = next(d for d in library.definitions if d.kind == "card" and d.play)
    encoded = encode(game, card.play[0])
    assert encoded["x"][:2] == ["card", card.name]
    added = compile_text(NEW_CARD).library.definitions
    other = Game(GameOptions(players=("a", "b"), seed=1), Library(added + library.definitions))
    assert decode(other, json.loads(json.dumps(encoded))) is card.play[0]


def test_a_reference_written_by_an_older_save_still_reads_and_compares(autopilot, tmp_path, capsys):
    """Saves from before per-definition references numbered compiled objects in one walk of the whole library:
    they still decode, and their state compares with a state written now."""
    from tharsis.runtime.api.saves import _whole_library_walk, upgraded_reference

    library = load_library()
    game = Game(GameOptions(players=("a", "b"), seed=1), library)
    card = next(d for d in library.definitions if d.kind == "card" and d.play)
    number = next(i for i, o in enumerate(_whole_library_walk(library)) if o is card.play[0])
    assert decode(game, {"x": number}) is card.play[0]
    assert upgraded_reference(library, number) == encode(game, card.play[0])["x"]

    autopilot.lines = ["1", "buy 1", "save old.json", "quit"]
    assert main(["play", "--seat", "ann=human", "--seat", "bob=greedy", "--seed", "3", "--no-log"]) == 0
    data = json.loads((tmp_path / "old.json").read_text())
    data["content"] = saves.content_hash(library)        # a save as older versions wrote it
    (tmp_path / "old.json").write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["replay", "old.json"]) == 0
    out, err = capsys.readouterr()
    assert "verified: the replay reaches the saved state" in out and not err
