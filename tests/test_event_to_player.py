"""An event moved into another player's event pile (issue 30, trial 4's Law Suit): `move this card to that player's
events` compiles after an effect that targets a player, writes back, reads in English and Chinese, and is a coded
error elsewhere; "that player" and the event on its way to their pile live in the flow, so a game saved, loaded or
cloned between the steal and the end of the play carries on alike. tests/scenarios/rules/event-to-another-player.yaml
plays the rule."""

import json

import attrs

from tharsis.compiler import compile_text, effects as fx, rules_text, text
from tharsis.designer.scenarios import Outcome, Runner
from tharsis.runtime.api.game import Game
from tharsis.runtime.handlers.actions import take_action

SUE = """
card "Sue" #LAB1 {
  set: lab  type: event  cost: 0  tags: earth
  play: steal 1 megacredits from any player; move this card to that player's events;
        choose { gain 1 steel | gain 1 titanium }
  vp: -1
}
"""


def _compiled(source: str):
    result = compile_text(source, "<sue>")
    return result.library, [(d.code, d.message) for d in result.diagnostics]


def test_the_move_compiles_writes_back_and_reads_in_both_languages():
    library, diagnostics = _compiled(SUE)
    assert diagnostics == []
    assert library.get("Sue").play[1] == fx.MoveThisCard()
    again, _ = _compiled(text.content(library.definitions, (), (), ()))
    assert [attrs.evolve(d, source=None) for d in again.definitions] == \
        [attrs.evolve(d, source=None) for d in library.definitions]
    assert "Place this card in that player's event pile (its VP theirs)." in rules_text.card(library.get("Sue"), "en")
    assert "将本卡放入该玩家的事件牌堆" in rules_text.card(library.get("Sue"), "zh")


def test_the_move_needs_an_event_and_an_earlier_target():
    _, no_target = _compiled('card "A" { type: event  cost: 1  play: gain 1 MC; move this card to that player\'s '
                             'events }')
    assert [code for code, _ in no_target] == ["E307"] and "no effect before this one" in no_target[0][1]
    _, after = _compiled('card "A" { type: event  cost: 1  play: move this card to that player\'s events; steal 1 MC '
                         'from any player }')
    assert [code for code, _ in after] == ["E307"]
    _, not_event = _compiled('card "A" { type: active  cost: 1  play: steal 1 MC from any player; move this card to '
                             'that player\'s events }')
    assert [code for code, _ in not_event] == ["E301"] and "only an event" in not_event[0][1]


def _sued() -> Game:
    """alice plays Sue against bob and is asked which bonus she takes: the steal and the move are behind her."""
    spec = {"cards": SUE, "setup": {"players": {"alice": {"hand": ["Sue"]}, "bob": {"resources": {"megacredits": 5}},
                                                "carol": {"resources": {"megacredits": 5}}}}}
    runner = Runner(spec, Outcome("probe", "<probe>"), None)
    runner.arrange(spec["setup"])
    game = runner.game
    game.start_flow(take_action, 0, ("play", "Sue"))
    # the move goes with the steal that chose "that player", whichever order alice picks
    assert game.pending().labels() == ["steal 1 megacredits from any player; move this card to that player's events",
                                       "choose { gain 1 steel | gain 1 titanium }"]
    game.apply(0)
    game.apply("player bob")
    assert game.flow.target == 1 and game.flow.event_pile == ("Sue", 1)
    return game


def test_that_player_and_the_event_on_its_way_are_saved_loaded_and_cloned():
    game = _sued()
    saved = game.to_json()
    assert json.loads(saved)["flow"]["target"] == 1
    loaded, clone = Game.from_json(saved, game.content), game.clone()
    assert loaded.to_json() == saved
    for each in (game, loaded, clone):
        each.apply("gain 1 steel")
        assert [p.events for p in each.state.players] == [[], ["Sue"], []]
        assert each.flow.event_pile is None
    assert json.loads(loaded.to_json())["state"] == json.loads(game.to_json())["state"]


def test_the_move_stays_with_its_steal_when_the_other_effect_goes_first():
    spec = {"cards": SUE, "setup": {"players": {"alice": {"hand": ["Sue"]}, "bob": {"resources": {"megacredits": 5}}}}}
    runner = Runner(spec, Outcome("probe", "<probe>"), None)
    runner.arrange(spec["setup"])
    game = runner.game
    game.start_flow(take_action, 0, ("play", "Sue"))
    game.apply("choose { gain 1 steel | gain 1 titanium }")
    game.apply("gain 1 titanium")
    if game.pending() is not None and game.pending().kind == "player":   # one opponent: answered by itself
        game.apply("player bob")
    assert [p.events for p in game.state.players] == [[], ["Sue"]]
    assert game.state.players[0].resources["titanium"] == 1 and game.state.players[1].resources["megacredits"] == 4


def test_a_save_without_a_target_writes_no_key():
    spec = {"setup": {"players": {"alice": {}, "bob": {}}}}
    runner = Runner(spec, Outcome("probe", "<probe>"), None)
    runner.arrange(spec["setup"])
    flow = json.loads(runner.game.to_json())["flow"]
    assert "target" not in flow and "event_pile" not in flow
