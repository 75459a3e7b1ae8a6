"""Cards revealed and picked (issue 30): `reveal X cards from hand` lets its player pick which cards are shown, and
(below) a shared reveal of cards from the deck that the players pick from in turn. Each question is asked of the
player who decides, the log names what was shown and taken, and a game saved at any of these questions loads and
carries on as the same game; tests/scenarios/rules/reveal-from-hand.yaml and shared-reveal.yaml play the rules."""

import json
import random

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


def test_a_game_saved_at_the_question_of_x_resumes_into_the_pick_of_the_cards():
    """The question of X resumes the step saves held before the pick came (effects.revealed_from_hand, with X)."""
    game = _arranged(BRICK_FAIR, {"alice": {"hand": ["Brick Fair", "Mine", "Comet", "Research Outpost"]}})
    _play(game, 0, "Brick Fair")
    assert game.flow.asking.resume.step_name == "effects.revealed_from_hand"
    loaded = Game.from_json(game.to_json(), game.content)
    loaded.apply("1")
    assert loaded.pending().labels() == ["reveal Mine", "reveal Research Outpost"]
    loaded.apply("reveal Research Outpost")
    assert _told(loaded, "reveal_from_hand") == ["alice reveals from hand: Research Outpost"]


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


# ---------------------------------------------------------------- a shared reveal the players pick from in turn

DONOR = """
corporation "Donor Guild" {
  start: 40 megacredits
  play: reveal players + 1 cards, each player takes 1
}
"""


def _donor_game(players=("ann", "bob", "cy")) -> Game:
    """A whole game whose first seat starts as Donor Guild: its shared reveal is asked at set-up, of every seat."""
    from tharsis.compiler import compile_text
    from tharsis.compiler.definitions import Library
    from tharsis.runtime.api.game import GameOptions, load_library

    library = Library(compile_text(DONOR, "<donor>").library.definitions + load_library().definitions)
    game = Game(GameOptions(players=players, seed=5, corporations=("Donor Guild",) + ("",) * (len(players) - 1)),
                library)
    while not _taking(game):
        game.apply(0)
    return game


def _taking(game: Game) -> bool:
    decision = game.pending()
    return decision is not None and decision.options[0].label.startswith("take ")


def test_each_pick_is_asked_of_the_player_who_picks_in_turn_from_the_owner():
    game = _donor_game()
    revealed = [o.value for o in game.pending().options]
    assert len(revealed) == 4 and game.pending().player == 0 and game.pending().kind == "card"
    game.apply(f"take {revealed[2]}")
    assert game.pending().player == 1
    assert [o.value for o in game.pending().options] == revealed[:2] + revealed[3:]
    game.apply(f"take {revealed[0]}")
    assert game.pending().player == 2
    game.apply(f"take {revealed[3]}")
    assert [revealed[2] in p.hand for p in game.state.players] == [True, False, False]
    assert revealed[0] in game.state.players[1].hand and revealed[3] in game.state.players[2].hand
    assert revealed[1] in game.state.discard
    assert _told(game, "take_revealed") == [f"ann takes {revealed[2]}", f"bob takes {revealed[0]}",
                                            f"cy takes {revealed[3]}"]


def test_the_cards_revealed_are_public_and_the_question_is_shown_only_to_the_player_who_picks():
    from tharsis.runtime.api.hidden import determinize, hidden_names
    from tharsis.runtime.api.research import GameState

    game = _donor_game()
    game.apply(1)
    revealed = {o.value for o in game.pending().options}
    for observer in range(3):
        assert not revealed & hidden_names(game, observer)
        world = game.clone()
        determinize(world, observer, random.Random(observer))   # a world of the search bot keeps them where they are
        assert world.pending() == game.pending()
    research = GameState(game)
    assert research.observation(1)["decision"]["options"] == game.pending().labels()
    assert research.observation(0)["decision"] is None and research.observation(2)["decision"] is None
    # a pick is public: every player's record of the choices names the card
    assert all("take" in research.information_state_string(p).splitlines()[-2] for p in range(3))


def test_a_game_saved_in_the_middle_of_the_picks_loads_replays_and_goes_on_alike():
    game = _donor_game()
    game.apply(0)
    saved = game.to_json()
    loaded = Game.from_json(saved, game.content, verify=True)   # replays the log from the seed, and compares
    assert loaded.to_json() == saved and loaded.pending() == game.pending() and loaded.pending().player == 1
    for each in (game, loaded):
        each.apply(1)
        each.apply(0)
    assert loaded.to_json() == game.to_json()


# ---------------------------------------------------------------- the greedy bot

def test_the_greedy_bot_takes_the_revealed_card_it_values_most_at_its_own_seat():
    from tharsis.runtime.bots.greedy import GreedyBot, card_value

    game = _donor_game()
    bot, firsts = GreedyBot(), []
    for seat in range(3):
        decision = game.pending()
        assert decision.player == seat
        best = max((o.value for o in decision.options), key=lambda name: card_value(game, name, seat))
        chosen = bot.choose(game, decision)
        assert card_value(game, chosen.value, seat) == card_value(game, best, seat)
        firsts.append(chosen == decision.options[0])
        game.apply(chosen)
    assert not all(firsts)   # not merely the first card offered


def test_the_greedy_bot_values_a_shared_reveal_by_the_cards_it_takes_and_a_reveal_from_hand_by_its_block():
    from tharsis.compiler import compile_text
    from tharsis.runtime.bots.greedy import CARD, effects_value

    cards = compile_text(BRICK_FAIR + """
card "Open Auction" { type: event  cost: 0  play: reveal players + 1 cards, each player takes 1 }
card "Round Table" { type: event  cost: 0  play: reveal 7 cards, each player takes 1 until none left }
""", "<values>").library
    game = _arranged(BRICK_FAIR, {"alice": {"hand": ["Brick Fair", "Mine", "Comet", "Research Outpost"]}})
    assert effects_value(game, cards.get("Open Auction").play, 0) == CARD
    assert effects_value(game, cards.get("Round Table").play, 0) == 4 * CARD   # 7 cards for 2 players: 4 to the first
    # two building cards in hand besides the card itself: 2 MC each
    assert effects_value(game, cards.get("Brick Fair").play, 0, "Brick Fair") == 4
