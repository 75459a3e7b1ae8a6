"""`decided by DECIDER { EFFECTS }` (issue 30, trial 3: Icy Impactors, "first player chooses where you must place
it"): the block's questions are asked of another player while its effects stay the card owner's. Here: the text
(compiles, prints back, reads in English and Chinese), who is asked for each decider, that the tile and its bonuses
are the owner's, and that saves, replays, the bots and the research API follow the decider; what a card does with it
in a scenario is tests/scenarios/rules/decided-by.yaml's and docs/trials/scenarios/later-sets-3.yaml's."""

import json
import re

import pytest

from tharsis.compiler import compile_text, effects as fx, rules_text, text
from tharsis.designer.scenarios import Outcome, Runner
from tharsis.runtime.api.game import Game, GameOptions
from tharsis.runtime.bots import GreedyBot, RandomBot
from tharsis.runtime.handlers.actions import take_action

CARD = 'card "Icy Probe" {{\n  type: active  cost: 0  tags: space\n  holds: animal\n  action: {}\n}}\n'
ICY = CARD.format("remove 1 animal here -> decided by first player { place ocean }")
# a corporation whose first action is decided by the player to its left: a whole game meets the question
COMETS = """
corporation "Comet Consortium" #LAB91 {
  start: 40 megacredits
  first action: decided by player to your left { place ocean }
}
"""


@pytest.mark.parametrize(("decider", "english", "chinese"), [
    ("first player", "Decided by the first player (their choices, your effects): Place an ocean tile.",
     "由首位玩家决定"),
    ("player to your left", "Decided by the player to your left (their choices, your effects): ", "由你左边的玩家决定"),
    ("player to your right", "Decided by the player to your right", "由你右边的玩家决定"),
    ("opponent of your choice", "Decided by an opponent of your choice", "由你选择的一名对手决定"),
])
def test_each_decider_compiles_prints_back_and_reads_in_both_languages(decider, english, chinese):
    written = f"remove 1 animal here -> decided by {decider} {{ place ocean }}"
    result = compile_text(CARD.format(written), "<probe>")
    assert result.diagnostics == [], [(d.code, d.message) for d in result.diagnostics]
    card = result.library.cards[0]
    block = card.actions[0].effects[0]
    assert type(block) is fx.DecidedBy and block.decider == decider
    assert f"action: {written}" in text.card(card)
    assert english in rules_text.card(card, "en")
    assert chinese in rules_text.card(card, "zh")


def test_the_words_of_the_decider_are_read_whatever_the_spaces_between_them():
    card = compile_text(CARD.format("remove 1 animal here -> decided by  player  to your\n left { place ocean }"),
                        "<probe>").library.cards[0]
    assert card.actions[0].effects[0].decider == "player to your left"


def test_a_decider_the_language_does_not_have_is_a_parse_error_naming_the_place():
    result = compile_text(CARD.format("remove 1 animal here -> decided by second player { place ocean }"), "<p>")
    assert [d.code for d in result.diagnostics] == ["E001"]
    assert result.diagnostics[0].span.line == 4


def _arranged(players: dict, names=("alice", "bob"), first: str = "alice", cards: str = ICY) -> Game:
    """A game set up as a scenario sets it up (tharsis/designer/scenarios.py), every question asked."""
    spec = {"cards": cards, "options": {"players": list(names)},
            "setup": {"globals": {"first_player": first}, "players": players}}
    runner = Runner(spec, Outcome("probe", "<probe>"), None)
    runner.arrange(spec["setup"])
    runner.game.answer_single_options = False
    return runner.game


def _use(game: Game, player: int, card: str = "Icy Probe") -> None:
    game.start_flow(take_action, player, ("card_action", card))


def _with_bonus(game: Game, decision) -> str:
    """An ocean space of the options whose printed bonus is plants or cards (what the owner must get)."""
    for option in decision.options:
        if game.board.spaces[option.value].bonuses:
            return option.label
    raise AssertionError("no ocean space with a bonus")


def test_the_first_player_is_asked_where_and_the_owner_gets_the_tile_its_tr_and_its_bonus():
    game = _arranged({"alice": {"played": [{"card": "Icy Probe", "resources": 1}]}}, first="bob")
    _use(game, 0)
    asked = game.pending()
    assert (asked.player, asked.for_player, asked.kind, asked.acting) == (1, 0, "space", 0)
    assert game.current_player == 1
    before = [dict(p.resources) for p in game.state.players], [len(p.hand) for p in game.state.players]
    label = _with_bonus(game, asked)
    game.apply(label)
    sid = label.split()[1]
    assert game.state.tiles[sid].kind == "ocean" and game.state.players[0].tr == 21
    assert game.state.players[1].tr == 20
    bob_after = dict(game.state.players[1].resources), len(game.state.players[1].hand)
    assert bob_after == (before[0][1], before[1][1])  # the decider gains nothing: the bonus is the owner's
    alice_gain = sum(game.state.players[0].resources.values()) + len(game.state.players[0].hand) - \
        sum(before[0][0].values()) - before[1][0]
    assert alice_gain > 0


def test_when_the_owner_is_the_first_player_or_alone_they_decide_as_without_the_block():
    game = _arranged({"alice": {"played": [{"card": "Icy Probe", "resources": 1}]}})
    _use(game, 0)
    assert (game.pending().player, game.pending().for_player) == (0, None)
    solo = _arranged({"alice": {"played": [{"card": "Icy Probe", "resources": 1}]}}, names=("alice",))
    _use(solo, 0)
    assert (solo.pending().player, solo.pending().for_player) == (0, None)


@pytest.mark.parametrize(("decider", "asked"), [("player to your left", 2), ("player to your right", 0)])
def test_left_is_the_next_seat_and_right_the_one_before(decider, asked):
    cards = CARD.format(f"remove 1 animal here -> decided by {decider} {{ place ocean }}")
    game = _arranged({"bob": {"played": [{"card": "Icy Probe", "resources": 1}]}}, names=("alice", "bob", "cleo"),
                     cards=cards)
    _use(game, 1)
    assert (game.pending().player, game.pending().for_player) == (asked, 1)


def test_an_opponent_of_your_choice_is_named_by_the_owner_then_asked():
    cards = CARD.format("remove 1 animal here -> decided by opponent of your choice { place ocean }")
    game = _arranged({"alice": {"played": [{"card": "Icy Probe", "resources": 1}]}}, names=("alice", "bob", "cleo"),
                     cards=cards)
    _use(game, 0)
    named = game.pending()
    assert (named.player, named.kind, named.labels()) == (0, "player", ["player bob", "player cleo"])
    game.apply("player cleo")
    assert (game.pending().player, game.pending().for_player, game.pending().kind) == (2, 0, "space")


def test_every_question_of_the_block_goes_to_the_decider_a_choose_and_its_x():
    cards = CARD.format("decided by first player { choose { gain 2 plants "
                        "| choose X up to megacredits { gain X heat } } }")
    game = _arranged({"alice": {"played": ["Icy Probe"], "resources": {"megacredits": 3}}}, first="bob", cards=cards)
    _use(game, 0)
    assert (game.pending().player, game.pending().for_player, game.pending().kind) == (1, 0, "option")
    game.apply(1)
    assert (game.pending().player, game.pending().for_player, game.pending().kind) == (1, 0, "x")
    game.apply("X=2")
    assert game.state.players[0].resources["heat"] == 2 and game.state.players[1].resources["heat"] == 0


def test_a_game_saved_at_the_deciders_question_loads_with_the_same_question_and_plays_on_alike():
    game = _arranged({"alice": {"played": [{"card": "Icy Probe", "resources": 1}]}}, first="bob")
    _use(game, 0)
    saved = game.to_json()
    assert json.loads(saved)["flow"]["asking"]["q"]["decision"][4] == 0   # for whom, after the options
    loaded = Game.from_json(saved, game.content)
    assert loaded.pending() == game.pending() and loaded.pending().for_player == 0
    label = game.pending().labels()[3]
    game.apply(label)
    loaded.apply(label)
    assert loaded.state == game.state


def _whole_game(tmp_path, seed: int = 4) -> GameOptions:
    (tmp_path / "comets.mars").write_text(COMETS)
    return GameOptions(players=("alice", "bob"), seed=seed, card_paths=(str(tmp_path / "comets.mars"),),
                       corporations=("Comet Consortium", ""))


def _to_the_deciders_question(game: Game, bots: dict):
    while True:
        decision = game.pending()
        if decision.for_player is not None:
            return decision
        game.apply(bots[decision.player].choose(game, decision))


def test_in_a_whole_game_the_bots_answer_for_the_owner_and_the_log_replays(tmp_path):
    options = _whole_game(tmp_path)
    game = Game(options)
    bots = {0: GreedyBot(seed=1), 1: RandomBot(seed=2)}
    decision = _to_the_deciders_question(game, bots)
    assert (decision.player, decision.for_player, decision.kind) == (1, 0, "space")
    oceans = game.state.oceans
    game.apply(bots[decision.player].choose(game, decision))
    assert game.state.oceans == oceans + 1 and game.state.players[0].tr == 21
    greedy = GreedyBot(seed=3)   # the greedy bot too answers a question asked for another player
    other = Game(options)
    asked = _to_the_deciders_question(other, {0: GreedyBot(seed=1), 1: greedy})
    assert greedy.choose(other, asked) in asked.options
    replayed = Game.replay(options, list(game.log))
    assert replayed.state == game.state and replayed.pending() == game.pending()
    assert [player for player, _, _ in replayed.choices()][-1] == 1   # the space was bob's choice


def test_the_research_api_gives_the_move_to_the_decider(tmp_path):
    from tharsis.runtime.api.research import GameState

    options = _whole_game(tmp_path)
    game = Game(options)
    _to_the_deciders_question(game, {0: GreedyBot(seed=1), 1: RandomBot(seed=2)})
    state = GameState(game)
    assert state.current_player() == 1


def test_a_human_decides_for_a_bot_in_play_and_the_story_and_the_replay_say_who_decided(tmp_path, autopilot, capsys):
    """`tharsis play`: the question is put to the human seat deciding, named as made for the bot's seat, with the
    spaces' bonuses shown for the bot (the tile is its); the move is told as the bot's, decided by the human, and the
    log replays to the same result."""
    from tharsis.cli import main

    (tmp_path / "comets.mars").write_text(COMETS)
    log = tmp_path / "game.jsonl"
    assert main(["play", "--seat", "alice=greedy", "--seat", "bob=human", "--corporation", "alice=Comet Consortium",
                 "--cards", str(tmp_path / "comets.mars"), "--seed", "4", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "bob, deciding for alice: Where do you place the ocean?" in out
    assert re.search(r"» alice chooses space \d\d, decided by bob\n» alice places ocean on \d\d", out)
    assert main(["replay", str(log)]) == 0
    replayed = capsys.readouterr().out
    assert "decided by bob" in replayed and "verified: the replay gives the logged result" in replayed


def test_the_greedy_bot_deciding_for_an_opponent_places_their_tile_where_it_gives_them_least(tmp_path):
    game = Game(_whole_game(tmp_path))
    decision = _to_the_deciders_question(game, {0: GreedyBot(seed=1), 1: RandomBot(seed=2)})
    chosen = GreedyBot(seed=3).choose(game, decision)
    bonuses = {o.value: sum(n for _, n in game.board.spaces[o.value].bonuses) for o in decision.options}
    assert bonuses[chosen.value] == min(bonuses.values()) == 0


DROP = {"cards": 'card "Comet Drop" { set: promo  type: event  cost: 0\n'
                 '  play: decided by first player { place ocean } }',
        "setup": {"globals": {"first_player": "bob"}, "players": {"alice": {"hand": ["Comet Drop"]}}},
        "expect": {"globals": {"oceans": 1}}}


def test_a_scenario_answer_given_as_a_player_who_is_not_asked_stops_the_scenario_naming_who_is():
    from tharsis.designer.scenarios import run

    spec = dict(DROP, name="wrong seat", steps=[{"play": "Comet Drop", "player": "alice",
                                                "choose": [{"alice": "space 13"}]}])
    outcome = run(spec)
    assert not outcome.passed
    assert "'Where do you place the ocean?' (for alice) is asked of bob, not alice, who was to answer 'space 13'" \
        in outcome.error
    right = run(dict(spec, steps=[{"play": "Comet Drop", "player": "alice", "choose": [{"bob": "space 13"}]}]))
    assert right.passed, right.error


@pytest.mark.parametrize(("answer", "problem"), [
    ({"alice": "space 13", "bob": "space 13"}, "an answer given as a player's names one player, not 2"),
    ({"bob": ["space 13"]}, "should be an option's label"),
])
def test_an_answer_given_as_a_player_has_one_player_and_one_label(answer, problem):
    from tharsis.designer.scenarios import run

    outcome = run(dict(DROP, name="shape", steps=[{"play": "Comet Drop", "choose": [answer]}]))
    assert not outcome.passed and problem in outcome.error and "E606" in outcome.error


def test_an_answer_for_an_unknown_player_names_the_players():
    from tharsis.designer.scenarios import run

    outcome = run(dict(DROP, name="nobody", steps=[{"play": "Comet Drop", "player": "alice",
                                                    "choose": [{"dave": "space 13"}]}]))
    assert not outcome.passed and "unknown player 'dave'; players: alice, bob" in outcome.error


def test_in_the_pettingzoo_environment_the_agent_to_move_is_the_decider(tmp_path):
    """A learner's environment (tharsis/envs/pettingzoo.py) selects the seat asked, here bob placing alice's ocean,
    and its legal moves are the spaces."""
    pytest.importorskip("pettingzoo", reason="the research environments are an optional extra: tharsis[rl]")
    import numpy as np

    from tharsis.envs import pettingzoo as tharsis_env

    (tmp_path / "comets.mars").write_text(COMETS)
    environment = tharsis_env.raw_env(card_paths=(str(tmp_path / "comets.mars"),),
                                      corporations=("Comet Consortium", ""))
    environment.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(200):
        decision = environment.state.decision()
        if decision.for_player is not None:
            break
        environment.step(int(rng.choice(environment.infos[environment.agent_selection]["legal_moves"])))
    else:
        raise AssertionError("the first action's question never came")
    assert (decision.player, decision.for_player, decision.kind) == (1, 0, "space")
    assert environment.agent_selection == environment.possible_agents[1]
    assert len(environment.infos[environment.agent_selection]["legal_moves"]) == len(decision.options)


def test_the_question_naming_the_opponent_who_decides_reads_in_english_and_chinese():
    from tharsis.terminal import prompts

    cards = CARD.format("remove 1 animal here -> decided by opponent of your choice { place ocean }")
    game = _arranged({"alice": {"played": [{"card": "Icy Probe", "resources": 1}]}}, names=("alice", "bob", "cleo"),
                     cards=cards)
    _use(game, 0)
    asked = game.pending()
    assert prompts.question(game, asked, "en") == "Which opponent decides? Place an ocean tile."
    assert prompts.question(game, asked, "zh") == "由哪名对手决定？放置1个海洋板块。"


def test_a_context_with_a_decider_saves_it_and_one_without_saves_as_before():
    from tharsis.runtime.api.saves import decode, encode
    from tharsis.runtime.rules.checks import EffectContext

    game = Game(GameOptions(players=("alice", "bob"), seed=1), start=False)
    deciding = EffectContext(0, card="Icy Probe").decided_by(1)
    saved = encode(game, deciding)
    assert len(saved["ctx"]) == 11 and saved["ctx"][-2:] == [0, 1]   # `added` at its default, then the decider
    assert decode(game, saved) == deciding and decode(game, saved).asked == 1
    assert len(encode(game, EffectContext(0, card="Icy Probe"))["ctx"]) == 9
    assert EffectContext(0).decided_by(0).decider is None   # the player deciding for themselves: nobody else


BROKERS = """
corporation "Broker Office" #LAB93 {
  start: 40 megacredits
  first action: decided by player to your left { look 3 buy }
}
"""


def test_a_human_picking_the_cards_another_player_buys_sees_that_offer_alone_priced_from_the_buyers_money(
        tmp_path, autopilot, capsys):
    """The cards bob picks for alice are offered apart from bob's own (one multi-select each), with alice's money;
    alice's hand stays hidden from the table: the story counts the cards."""
    from tharsis.cli import main

    (tmp_path / "brokers.mars").write_text(BROKERS)
    assert main(["play", "--seat", "alice=greedy", "--seat", "bob=human", "--corporation", "alice=Broker Office",
                 "--cards", str(tmp_path / "brokers.mars"), "--seed", "4", "--no-log"]) == 0
    out = capsys.readouterr().out
    offers = re.findall(r"(\d+) cards offered, 3 MC each; you have (\d+) MC", out)
    assert offers[0][0] == "10" and offers[1][0] == "3"
    assert "bob, deciding for alice: which cards do you buy?" in out
    assert re.search(r"» alice buys \d cards?, discards \d cards?|» alice discards 3 cards", out)


def test_the_block_counts_as_the_players_own_effects_for_the_bots_the_option_features_and_the_order():
    """What a card is worth to a bot, what its facts say (tharsis/envs' option features) and what its effects read and
    write (whether their order is asked) see through `decided by`: its effects are the player's."""
    from tharsis.runtime.api.card_facts import effects_facts
    from tharsis.runtime.bots.greedy import effects_value
    from tharsis.runtime.rules.ordering import _step as footprint

    game = _arranged({"alice": {"played": [{"card": "Icy Probe", "resources": 1}]}}, first="bob")
    place = compile_text(CARD.format("place ocean"), "<p>").library.cards[0].actions[0].effects
    decided = compile_text(ICY, "<p>").library.cards[0].actions[0].effects
    assert effects_value(game, decided, 0) == effects_value(game, place, 0) > 0
    assert effects_facts(decided) == effects_facts(place)
    gains = compile_text(CARD.format("gain 2 plants"), "<p>").library.cards[0].actions[0].effects
    decided_gains = compile_text(CARD.format("decided by first player { gain 2 plants }"),
                                 "<p>").library.cards[0].actions[0].effects
    assert footprint(game, decided_gains) == footprint(game, gains) == (set(), {("stock", "plant")})
