"""Cards revealed and picked (issue 30): `reveal X cards from hand` lets its player pick which cards are shown, and
(below) a shared reveal of cards from the deck that the players pick from in turn. Each question is asked of the
player who decides, the log names what was shown and taken, and a game saved at any of these questions loads and
carries on as the same game; tests/scenarios/rules/reveal-from-hand.yaml and shared-reveal.yaml play the rules."""

import json

from tharsis.designer.scenarios import Outcome, Runner
from tharsis.runtime.api.game import Game
from tharsis.runtime.api.narration import sentence
from tharsis.runtime.handlers.actions import take_action

BRICK_FAIR = """
card "Brick Fair" #LAB40 { set: lab  type: event  cost: 0
                           play: reveal X cards from hand with building tag { gain 2X megacredits } }
"""


def _arranged(cards: str, players: dict, deck: tuple = ()) -> Game:
    """A game set up as a scenario sets it up (tharsis/designer/scenarios.py), every question asked."""
    spec = {"cards": cards, "setup": {"players": players, **({"deck": list(deck)} if deck else {})}}
    runner = Runner(spec, Outcome("probe", "<probe>"), None)
    runner.arrange(spec["setup"])
    runner.game.answer_single_options = False
    return runner.game


def _play(game: Game, player: int, card: str) -> None:
    game.start_flow(take_action, player, ("play", card))


def _told(game: Game, kind: str) -> list[str]:
    return [sentence(game, event) for event in game.events.to_list() if event[1] == kind]


def test_the_player_picks_which_cards_of_hand_are_revealed_and_the_log_names_them():
    game = _arranged(BRICK_FAIR, {"alice": {"hand": ["Brick Fair", "Mine", "Comet", "Research Outpost",
                                                     "Deep Well Heating"]}})
    _play(game, 0, "Brick Fair")
    game.apply("2")
    first = game.pending()
    assert (first.player, first.kind) == (0, "card")
    assert first.labels() == ["reveal Mine", "reveal Research Outpost", "reveal Deep Well Heating"]
    game.apply("reveal Deep Well Heating")
    assert game.pending().labels() == ["reveal Mine", "reveal Research Outpost"]
    game.apply("reveal Research Outpost")
    assert game.pending() is None or game.pending().kind == "action"
    assert game.state.players[0].resources["megacredits"] == 4
    assert _told(game, "reveal_from_hand") == ["alice reveals from hand: Deep Well Heating, Research Outpost"]


def test_a_game_saved_while_the_cards_to_reveal_are_picked_loads_and_goes_on_alike():
    game = _arranged(BRICK_FAIR, {"alice": {"hand": ["Brick Fair", "Mine", "Comet", "Research Outpost",
                                                     "Deep Well Heating"]}})
    _play(game, 0, "Brick Fair")
    game.apply("2")
    game.apply("reveal Mine")
    saved = game.to_json()
    loaded = Game.from_json(saved, game.content)
    assert loaded.to_json() == saved and loaded.pending() == game.pending()
    for each in (game, loaded):
        each.apply("reveal Deep Well Heating")
    assert json.loads(loaded.to_json())["state"] == json.loads(game.to_json())["state"]
    assert _told(loaded, "reveal_from_hand") == ["alice reveals from hand: Mine, Deep Well Heating"]
