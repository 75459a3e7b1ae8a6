"""Two constructs of issue 30 (trial 4's Mons Insurance and Pharmacy Union): a trigger on one player harming another
(`when any player harms another player`, `when another player harms you`) with `give [up to] N RESOURCE to the victim
| that player`, and `turn this card face down`. They compile, write back the same, read in English and Chinese, are
coded errors where misused; a face-down card is cloned, saved and loaded with its player; a game with no harm
trigger fires no harm event. tests/scenarios/rules/harm-trigger.yaml and face-down.yaml play them."""

import json

import attrs

from tharsis.compiler import compile_text, effects as fx, rules_text, text
from tharsis.designer.scenarios import Outcome, Runner
from tharsis.runtime.api.game import Game, GameOptions, load_library
from tharsis.runtime.handlers.actions import take_action

CARDS = """
corporation "Insurer" {
  start: 48 megacredits
  effect: when any player harms another player -> give up to 3 megacredits to the victim
}

card "Grudge" {
  type: active  cost: 3
  effect: when another player harms you -> give up to 1 steel to that player
}

card "Folding Lab" {
  type: active  cost: 3  tags: science
  action: turn this card face down; tr +3
}
"""


def _compiled(source: str):
    result = compile_text(source, "<harm>")
    assert [d.message for d in result.diagnostics] == []
    return result.library


def test_the_constructs_compile_and_write_back_the_same():
    library = _compiled(CARDS)
    insurer = library.get("Insurer").passives[0]
    assert insurer.event == fx.TriggerEvent("harm") and insurer.subject == "any"
    assert insurer.effects == (fx.Give("megacredits", fx.Amount(3), True, "victim"),)
    grudge = library.get("Grudge").passives[0]
    assert grudge.event == fx.TriggerEvent("harm_you") and grudge.subject == "another"
    assert grudge.effects == (fx.Give("steel", fx.Amount(1), True, "that_player"),)
    assert library.get("Folding Lab").actions[0].effects[0] == fx.FaceDown()
    again = _compiled(text.content(library.definitions, (), (), ())).definitions
    assert [attrs.evolve(d, source=None) for d in again] == [attrs.evolve(d, source=None) for d in library.definitions]


def test_they_read_as_rules_text_in_both_languages():
    library = _compiled(CARDS)
    english = "\n".join(rules_text.card(d, "en") for d in library.definitions)
    assert "When a player removes another player's resources (theirs or on their cards) or lowers their production: " \
           "Give up to 3 MC to the player harmed" in english
    assert "When another player removes your resources" in english
    assert "Give up to 1 steel to the player who set this off" in english
    assert "Put this card face down in your events pile" in english
    chinese = "\n".join(rules_text.card(d, "zh") for d in library.definitions)
    assert "交给受损害的玩家" in chinese and "将此牌面朝下放入你的事件牌堆" in chinese


def test_misuses_are_coded_errors():
    bad = """
card "Bad" {
  type: active  cost: 1
  effect: when you place city tile -> give up to 2 megacredits to the victim
  effect: when you play card -> give up to 2 megacredits to that player
  effect: when another player harms you -> give 2 megacredits to that player
  effect: when you harm you -> gain 1 MC
}
card "Bad Event" {
  type: event  cost: 1
  play: turn this card face down
}
"""
    errors = [d for d in compile_text(bad, "<bad>").diagnostics if d.severity == "error"]
    assert [(d.code, d.span.line) for d in errors] == [("E307", 4), ("E307", 5), ("E307", 6), ("E307", 7),
                                                        ("E307", 11)]
    assert "the victim" in errors[0].message and "give up to 2 megacredits" in errors[2].hint
    assert errors[2].fixes   # `give 2` -> `give up to 2`, as `lose`


def _folded_game() -> Game:
    spec = {"cards": CARDS, "options": {"players": ["alice", "bob"]},
            "setup": {"players": {"alice": {"played": ["Folding Lab"]}}}}
    runner = Runner(spec, Outcome("probe", "<probe>"), None)
    runner.arrange(spec["setup"])
    game = runner.game
    game.start_flow(take_action, 0, ("card_action", "Folding Lab"))
    return game


def test_a_face_down_card_is_cloned_saved_and_loaded():
    game = _folded_game()
    alice = game.state.players[0]
    assert alice.events_face_down == ["Folding Lab"] and all(c.name != "Folding Lab" for c in alice.played)
    assert alice.tr == 23
    clone = game.clone()
    assert clone.state.players[0].events_face_down == ["Folding Lab"]
    clone.state.players[0].events_face_down.append("Comet")
    assert alice.events_face_down == ["Folding Lab"]   # not shared with the clone
    saved = game.to_json()
    assert json.loads(saved)["state"]["players"][0]["events_face_down"] == ["Folding Lab"]
    loaded = Game.from_json(saved, game.content)
    assert loaded.state.players[0].events_face_down == ["Folding Lab"]
    assert loaded.to_json() == saved
    fresh = json.loads(Game(GameOptions(players=("ann", "bob"), seed=4), load_library()).to_json())
    assert all("events_face_down" not in p for p in fresh["state"]["players"])   # other saves as before


def test_a_game_without_a_harm_trigger_fires_no_harm_event():
    assert "harm" not in Game(GameOptions(players=("ann", "bob"), seed=4), load_library())._trigger_events
    assert "harm" in _folded_game()._trigger_events   # Insurer and Grudge are among its cards
