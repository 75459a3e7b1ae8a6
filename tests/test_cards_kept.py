"""Cards kept on a card in play (issue 30, trial 4's Self-Replicating Robots): `move card ... from hand to here with N
resources`, `double resources on a card here` and `cards here may be played as if from hand for N MC less per
resource on them` compile, write back, read in English and Chinese and are coded errors where they mean nothing; the
cards kept live on the card in play (CardInPlay.kept), so a clone, a save and its load agree, they are public to
every player, and the turn's menu offers them as it offers the hand. tests/scenarios/rules/cards-kept-on-a-card.yaml
plays the rules."""

import json

import attrs

from tharsis.compiler import compile_text, effects as fx, rules_text, text
from tharsis.designer.scenarios import Outcome, Runner
from tharsis.runtime.api.game import Game
from tharsis.runtime.api.hidden import hidden_names
from tharsis.runtime.handlers.actions import take_action
from tharsis.runtime.rules.legality import action_candidates, is_legal, why_not

ROBOTS = """
card "Robots" #LAB1 {
  set: lab  type: active  cost: 7
  action: move card with space or building tag from hand to here with 2 resources | double resources on a card here
  effect: cards here may be played as if from hand for 1 MC less per resource on them
}
"""


def _compiled(source: str):
    result = compile_text(source, "<kept>")
    return result.library, [(d.code, d.message) for d in result.diagnostics]


def test_the_three_forms_compile_write_back_and_read_in_both_languages():
    library, diagnostics = _compiled(ROBOTS)
    assert diagnostics == []
    robots = library.get("Robots")
    move, = robots.actions[0].effects
    assert move == fx.MoveCard(fx.CardFilter(any_tag=("space", "building")), "hand", "here", 2)
    assert robots.actions[1].effects == (fx.DoubleKept(),) and robots.passives == (fx.KeptPlayable(1),)
    again, _ = _compiled(text.content(library.definitions, (), (), ()))
    assert [attrs.evolve(d, source=None) for d in again.definitions] == \
        [attrs.evolve(d, source=None) for d in library.definitions]
    english = rules_text.card(robots, "en")
    assert "Reveal a card with a space or building tag from your hand and place it on this card, with 2 resources " \
           "on it" in english
    assert "Double the resources on a card here." in english
    assert "Cards here may be played as if from your hand, their cost 1 MC less per resource on them." in english
    chinese = rules_text.card(robots, "zh")
    assert "并将其放在本卡上，并在其上放置2个资源" in chinese and "本卡上的牌可以如同从手牌中一样打出" in chinese


def test_misuses_are_coded_errors():
    cases = {
        'card "A" { type: active  cost: 1  action: move card from play to here }': "E301",
        'card "A" { type: event  cost: 1  play: move card from hand to here }': "E301",
        'card "A" { type: event  cost: 1  play: double resources on a card here }': "E301",
        'card "A" { type: active  cost: 1  action: move card from hand to discard with 2 resources }': "E301",
        'card "A" { type: active  cost: 1  action: move card from hand to here with 2 animals }': "E301",
        'card "A" { type: active  cost: 1  effect: cards here may be played as if from hand for 0 MC less per '
        'resource on them }': "E302",
        'card "A" { type: active  cost: 1  effect: cards here may be played as if from hand for 1 steel less per '
        'resource on them }': "E301",
    }
    for source, code in cases.items():
        _, diagnostics = _compiled(source)
        assert [c for c, _ in diagnostics] == [code], (source, diagnostics)


def _kept_game(played: list) -> Game:
    spec = {"cards": ROBOTS, "setup": {"players": {"alice": {"played": played, "resources": {"megacredits": 1}},
                                                   "bob": {}}}}
    runner = Runner(spec, Outcome("probe", "<probe>"), None)
    runner.arrange(spec["setup"])
    return runner.game


def test_the_cards_kept_are_cloned_saved_and_loaded():
    game = _kept_game([{"card": "Robots", "kept": {"Mine": 3}}])
    robots = game.state.players[0].card("Robots")
    assert robots.kept == [["Mine", 3]]
    clone = game.clone()
    clone.state.players[0].card("Robots").kept[0][1] = 9
    assert robots.kept == [["Mine", 3]]   # not shared with the clone
    saved = game.to_json()
    assert json.loads(saved)["state"]["players"][0]["played"][0]["kept"] == [["Mine", 3]]
    assert Game.from_json(saved, game.content).to_json() == saved


def test_a_card_that_keeps_none_saves_as_before():
    game = _kept_game(["Robots"])
    assert "kept" not in json.loads(game.to_json())["state"]["players"][0]["played"][0]


def test_the_menu_offers_a_card_kept_as_a_play_and_every_player_sees_it():
    game = _kept_game([{"card": "Robots", "kept": {"Mine": 3}}])
    offered = [o.value for o in action_candidates(game, 0) if is_legal(game, 0, o.value)]
    assert ("play", "Mine") in offered and why_not(game, 0, ("play", "Mine")) is None
    assert "Mine" not in hidden_names(game, 1)   # face up on alice's card: bob sees it
    game.start_flow(take_action, 0, ("play", "Mine"))
    assert game.state.players[0].card("Robots").kept is None and game.state.players[0].card("Mine") is not None


def test_a_question_about_the_cards_kept_hides_none_of_them_from_the_other_players():
    """The cards kept are face up: while alice picks which one's resources double, bob's view of the game (what a
    search bot redeals) hides neither."""
    game = _kept_game([{"card": "Robots", "kept": {"Mine": 2, "Asteroid": 3}}])
    game.start_flow(take_action, 0, ("card_action", "Robots"))
    assert game.pending().labels() == ["card Mine", "card Asteroid"]
    assert {"Mine", "Asteroid"}.isdisjoint(hidden_names(game, 1))


def test_a_game_without_such_a_card_looks_for_none():
    spec = {"setup": {"players": {"alice": {}, "bob": {}}}}
    runner = Runner(spec, Outcome("probe", "<probe>"), None)
    runner.arrange(spec["setup"])
    assert runner.game.elements.kept_cards is False
