"""What players did to each other this generation (issue 30, trial 3's Crash Site Cleanup): `RESOURCE removed from
opponents this generation` compiles, writes back, reads in English and Chinese and is a coded error when misspelt;
the record lives in the player's state, so a clone, a save (with or without its flow, replayed from the log) and an
older save without it all agree. Its other side, who harmed each player this generation (`steal 3 megacredits from any
player who harmed you this generation`, Law Suit), likewise. tests/scenarios/rules/removed-this-generation.yaml and
harmed-this-generation.yaml play them."""

import json

import attrs
import pytest

from tharsis.compiler import compile_text, effects as fx, rules_text, text
from tharsis.runtime.api.game import Game, GameOptions, load_library
from tharsis.runtime.bots import RandomBot

CARDS = """
card "Crash Site Cleanup" {
  set: promo  type: event  cost: 4
  requires: all plants removed from opponents this generation >= 1
  play: choose { gain 1 titanium | gain 2 steel }
  vp: 1
}

card "Trophy Hunt" {
  type: event  cost: 1
  play: gain 1 MC per animals removed from opponents this generation;
        if opponent resources removed from opponents this generation >= 3 { gain 1 steel }
}
"""


def _compiled(source: str):
    result = compile_text(source, "<removed>")
    assert [d.message for d in result.diagnostics] == []
    return result.library


def test_the_count_compiles_to_a_measure_of_what_was_removed_and_writes_back_the_same():
    library = _compiled(CARDS)
    requirement = library.get("Crash Site Cleanup").requirements
    assert requirement.groups[0][0].quantity.terms == (fx.Measure("removed", scope="all", name="plant"),)
    hunt = library.get("Trophy Hunt").play
    assert hunt[0].amount.per.terms == (fx.Measure("removed", name="animal"),)
    assert hunt[1].condition.groups[0][0].quantity.terms == (fx.Measure("removed", scope="opponents"),)
    again = _compiled(text.content(library.definitions, (), (), ())).definitions
    assert [attrs.evolve(d, source=None) for d in again] == [attrs.evolve(d, source=None) for d in library.definitions]


@pytest.mark.parametrize("language, expected", [
    ("en", ["Requires plants any player removed from other players this generation at least 1",
            "per animal you removed from other players this generation",
            "If resources your opponents removed from other players this generation at least 3"]),
    ("zh", ["需求：所有玩家本时代从其他玩家处移除的植物至少1点", "你本时代从其他玩家处移除的动物",
            "若对手本时代从其他玩家处移除的资源至少3"]),
])
def test_the_count_reads_as_rules_text(language, expected):
    read = "\n".join(rules_text.card(d, language) for d in _compiled(CARDS).cards)
    for phrase in expected:
        assert phrase in read, read


def test_an_unknown_resource_removed_is_a_coded_error_with_a_did_you_mean():
    result = compile_text('card "Bad" {\n  type: event  cost: 1\n  requires: plnts removed from opponents this '
                          'generation >= 1\n}\n', "<bad>")
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == ["E104"] and "unknown resource 'plnts'" in errors[0].message
    assert "plant" in (errors[0].hint or "")


def _removing_game() -> Game:
    """A game between random bots, stopped at the first moment a player has removed something from another."""
    game = Game(GameOptions(players=("ann", "bob"), seed=4, corporate_era=True), load_library())
    bots = {0: RandomBot(1), 1: RandomBot(2)}
    while not game.over and not any(p.removed_this_generation for p in game.state.players):
        decision = game.pending()
        game.apply(bots[decision.player].choose(game, decision))
    assert not game.over, "no removal in the whole game: pick another seed"
    return game


def test_the_record_is_cloned_saved_loaded_and_replayed():
    game = _removing_game()
    removed = [dict(p.removed_this_generation) for p in game.state.players]
    clone = game.clone()
    assert [p.removed_this_generation for p in clone.state.players] == removed
    clone.state.players[0].removed_this_generation["heat"] = 99
    assert [p.removed_this_generation for p in game.state.players] == removed   # not shared with the clone
    saved = game.to_json()
    assert "removed_this_generation" in saved
    assert Game.from_json(saved, load_library(), verify=True).to_json() == saved
    data = json.loads(saved)
    del data["flow"]   # rebuilt by replaying the log: the removals happen again and are recorded again
    assert Game.from_json(json.dumps(data), load_library()).to_json() == saved


def test_a_save_from_before_the_record_loads_with_nothing_removed():
    game = Game(GameOptions(players=("ann", "bob"), seed=4), load_library())
    data = json.loads(game.to_json())
    assert all("removed_this_generation" not in p for p in data["state"]["players"])   # a fresh game saves as before
    loaded = Game.from_json(json.dumps(data), load_library())
    assert all(p.removed_this_generation == {} for p in loaded.state.players)


SUE = """
card "Law Suit" {
  set: promo  type: event  cost: 2  tags: earth
  play: steal 3 megacredits from any player who harmed you this generation
}
"""


def test_the_steal_from_who_harmed_you_compiles_writes_back_and_reads_in_both_languages():
    library = _compiled(SUE)
    assert library.get("Law Suit").play == (fx.Steal("megacredits", fx.Amount(3), False, harmed=True),)
    again = _compiled(text.content(library.definitions, (), (), ())).definitions
    assert [attrs.evolve(d, source=None) for d in again] == [attrs.evolve(d, source=None) for d in library.definitions]
    card = library.get("Law Suit")
    assert ("from a player who removed your resources or decreased your production this generation"
            in rules_text.card(card, "en"))
    assert "本时代移除过你的资源或降低过你的产量的一名玩家处夺取" in rules_text.card(card, "zh")


def test_who_harmed_whom_is_cloned_saved_loaded_and_replayed():
    game = _removing_game()
    harmed = [list(p.harmed_by_this_generation) for p in game.state.players]
    assert any(harmed)   # the player removed from remembers who did it
    clone = game.clone()
    assert [p.harmed_by_this_generation for p in clone.state.players] == harmed
    clone.state.players[0].harmed_by_this_generation.append(7)
    assert [p.harmed_by_this_generation for p in game.state.players] == harmed   # not shared with the clone
    saved = game.to_json()
    assert "harmed_by_this_generation" in saved
    assert Game.from_json(saved, load_library(), verify=True).to_json() == saved
    data = json.loads(saved)
    del data["flow"]
    assert Game.from_json(json.dumps(data), load_library()).to_json() == saved
    fresh = json.loads(Game(GameOptions(players=("ann", "bob"), seed=4), load_library()).to_json())
    assert all("harmed_by_this_generation" not in p for p in fresh["state"]["players"])   # saves as before
    loaded = Game.from_json(json.dumps(fresh), load_library())
    assert all(p.harmed_by_this_generation == [] for p in loaded.state.players)
