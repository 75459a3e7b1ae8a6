"""The search bot (runtime/bots/search.py, `--seat NAME=mcts`): the same choice for the same seed and position, only
legal moves, a choice made from what its seat sees, its own rule for buying cards, an evaluation that counts
income once per production phase, and wins against greedy."""

from __future__ import annotations

import pytest

from tharsis.runtime.api.game import Game, GameOptions
from tharsis.runtime.api.research import GameState
from tharsis.runtime.bots.greedy import GreedyBot, card_value
from tharsis.runtime.bots.search import (
    BUY_MARGIN,
    HAND_LIMIT,
    MC_PER_VP,
    SearchBot,
    estimates,
    evaluate,
    productions_left,
    progress,
)
from tharsis.runtime.rules.prices import card_cost

QUICK = dict(playouts=4, horizon=3)  # a small budget: the same code, a fraction of the time


def greedy_until(game: Game, generation: int, player: int = 0) -> Game:
    """Greedy bots play until `player` is to act in the action phase of `generation`."""
    bots = {i: GreedyBot(i) for i in range(len(game.state.players))}
    while not game.over:
        decision = game.pending()
        if game.state.generation >= generation and decision.kind == "action" and decision.player == player:
            return game
        game.apply(bots[decision.player].choose(game, decision))
    raise AssertionError("the game ended first")


@pytest.fixture(scope="module")
def position() -> Game:
    return greedy_until(Game(GameOptions(players=("ann", "bob"), seed=24, corporate_era=True)), 4)  # bob holds cards


def test_the_same_seed_and_position_give_the_same_choice(position):
    """Replays, undo, loaded saves and `simulate --jobs` rely on it: the choice depends on the seed and the
    position, not on the bot's history nor on the game object."""
    first = SearchBot(5, **QUICK).choose(position, position.pending())
    clone = position.clone()
    loaded = Game.from_json(position.to_json())
    bot = SearchBot(5, **QUICK)
    bot.choose(clone, clone.pending())  # a bot that has already decided once decides alike
    assert bot.choose(clone, clone.pending()).label == first.label
    assert SearchBot(5, **QUICK).choose(loaded, loaded.pending()).label == first.label
    assert position.pending().find(first) is not None


def test_the_search_is_the_same_in_every_world_consistent_with_what_the_bot_sees(position, monkeypatch):
    """Fair play: another deck order and another hand for the opponent (games the bot cannot tell from the real
    one) leave its whole search unchanged, every playout's score included, since the worlds it samples depend on
    what it sees alone."""
    from tharsis.runtime.bots import search

    scores: list = []

    def recorded(game, index, since=None):
        scores.append(round(evaluate(game, index, since), 12))
        return scores[-1]

    monkeypatch.setattr(search, "evaluate", recorded)
    real = SearchBot(9, **QUICK).choose(position, position.pending()).label
    searched = scores.copy()
    assert len(set(searched)) > 1  # the playouts tell the candidates apart
    for seed in range(3):
        twin = GameState(position).determinize(0, seed).game
        assert twin.state.deck != position.state.deck and twin.state.players[1].hand != position.state.players[1].hand
        scores.clear()
        assert SearchBot(9, **QUICK).choose(twin, twin.pending()).label == real
        assert scores == searched


@pytest.mark.parametrize("players, options", [(("ann", "bob"), dict(corporate_era=True, max_generations=3)),
                                              (("ann", "bob", "cy"), dict(draft=True, max_generations=2)),
                                              (("ann",), dict(corporate_era=True, max_generations=2))],
                         ids=["two players", "three with a draft", "solo"])
def test_it_answers_every_kind_of_decision_legally(players, options):
    """A game with the bot in the first seat: `apply` refuses an illegal option, so reaching the end proves every
    answer legal; the bot faced set-up and research decisions as well as actions."""
    game = Game(GameOptions(players=players, seed=3, **options))
    bots = {0: SearchBot(30, **QUICK), **{i: GreedyBot(31 + i) for i in range(1, len(players))}}
    kinds = set()
    while not game.over:
        decision = game.pending()
        if decision.player == 0:
            kinds.add(decision.kind)
        game.apply(bots[decision.player].choose(game, decision))
    assert {"action", "buy", "corporation"} <= kinds
    assert game.result["generations"] >= 2


def test_it_buys_only_cards_worth_their_price_to_play_and_keeps_its_hand_short():
    """Greedy buys nearly every card it is offered; the bot buys a card only if greedy's valuation beats its price
    by `BUY_MARGIN` and fewer than `HAND_LIMIT` cards in hand are worth as much."""
    bought = declined = greedy_bought = 0
    for seed in range(4):
        game = Game(GameOptions(players=("ann", "bob"), seed=seed, corporate_era=True))
        bot, other = SearchBot(seed, **QUICK), GreedyBot(seed)
        while game.state.generation < 3:
            decision = game.pending()
            choice = (bot if decision.player == 0 else other).choose(game, decision)
            if decision.kind == "buy" and decision.player == 0:
                name = decision.options[0].label[len("buy "):]

                def net(card):  # called in this iteration only
                    return card_value(game, card, 0) - card_cost(game, 0, card)  # noqa: B023

                as_good = sum(net(card) >= net(name) for card in game.state.players[0].hand)
                worth_it = net(name) >= BUY_MARGIN and as_good < HAND_LIMIT
                assert (choice.value is True) == worth_it, name
                bought += worth_it
                declined += not worth_it
                greedy_bought += other.choose(game, decision).value is True
            game.apply(choice)
    assert 0 < bought < greedy_bought and declined


def test_income_counts_once_per_production_phase():
    """Reaching a production phase sooner is worth nothing in itself: seen from the generation a search started
    in, the income a production phase adds to the stock leaves the estimate as it was (here for players with
    money and income only: conversions of heat and plants count their TR steps by the productions left)."""
    game = greedy_until(Game(GameOptions(players=("ann", "bob"), seed=5, corporate_era=True)), 3).clone()
    for player in game.state.players:
        for resource in ("plant", "energy", "heat"):
            player.resources[resource] = player.production[resource] = 0
    before = estimates(game, since=game.state.generation)
    after = game.clone()
    for player in after.state.players:  # what a production phase does to the stock, with no parameter raised
        player.resources["megacredits"] += player.tr + player.production["megacredits"]
        for resource in ("steel", "titanium"):
            player.resources[resource] += player.production[resource]
    after.state.generation += 1
    assert estimates(after, since=game.state.generation) == pytest.approx(before)
    assert productions_left(after) == productions_left(game)  # read from the parameters alone
    assert estimates(after) != pytest.approx(before)  # seen from the new generation, it would look like a gain


def test_the_evaluation_values_money_at_its_margin_and_heat_only_while_it_can_raise_the_temperature():
    game = greedy_until(Game(GameOptions(players=("ann", "bob"), seed=6, corporate_era=True)), 3)
    base = estimates(game)
    richer = game.clone()
    richer.state.players[0].resources["megacredits"] += 40
    assert estimates(richer)[0] - base[0] == pytest.approx(40 / MC_PER_VP)
    hot = game.clone()
    hot.state.players[0].resources["heat"] += 8
    assert estimates(hot)[0] > base[0]
    warmest = game.elements.scales["temperature"][1]
    hot.state.temperature = warmest
    warm = game.clone()
    warm.state.temperature = warmest
    assert estimates(hot)[0] == pytest.approx(estimates(warm)[0])  # heat raises nothing any more
    assert 0 <= progress(game) < progress(warm) < 1


def test_the_leader_is_ahead_in_the_evaluation(position):
    game = position.clone()
    game.state.players[1].tr += 20
    assert evaluate(game, 1) > 0 > evaluate(game, 0)


@pytest.mark.slow
def test_it_beats_greedy_from_both_seats_of_a_few_deals():
    """The benchmark in small (docs/benchmarks.md has the 200-game run): three deals, each from both seats, at
    the default budget."""
    wins = 0
    for seed in (1, 2, 3):
        for seat in (0, 1):
            names = ("m", "g") if seat == 0 else ("g", "m")
            game = Game(GameOptions(players=names, seed=seed, corporate_era=True))
            bots = {seat: SearchBot(seed * 10 + seat), 1 - seat: GreedyBot(seed * 10 + 1 - seat)}
            while not game.over:
                decision = game.pending()
                game.apply(bots[decision.player].choose(game, decision))
            wins += game.result["winner"] == "m"
    assert wins >= 5


def test_bot_match_reports_wins_per_seat_the_interval_and_cpu_seconds(capsys):
    from tharsis.games.bot_match import main

    assert main(["--games", "1", "--seed", "4", "--playouts", "2"]) == 0
    out = capsys.readouterr().out
    assert "mcts against greedy: 2 games, each deal from both seats" in out
    for row in ("first ", "second ", "both "):
        assert row in out
    assert "95% Wilson" in out and "CPU seconds per game: median" in out


def test_bot_match_refuses_bad_arguments_with_a_message(capsys):
    from tharsis.games.bot_match import main

    with pytest.raises(SystemExit) as stopped:
        main(["--games", "0"])
    assert stopped.value.code == 2
    assert "--games, --jobs and --playouts must be at least 1" in capsys.readouterr().err
