"""The research API (runtime/api/research.py) and the search bot built on it (runtime/bots/search.py)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from tharsis.runtime.api.hidden import hidden_names
from tharsis.runtime.api.research import TERMINAL, GameState
from tharsis.runtime.bots.search import SearchBot, evaluate

DOCS = Path(__file__).resolve().parents[1] / "docs" / "api.md"


def advance(state: GameState, steps: int, seed: int = 0) -> GameState:
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def strings(data) -> set[str]:
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(strings(v) for v in data.values()), set(map(str, data))) if data else set()
    if isinstance(data, (list, tuple)):
        return set().union(*(strings(v) for v in data)) if data else set()
    return set()


@pytest.fixture(scope="module")
def midgame() -> GameState:
    return advance(GameState.new_game(2, seed=11, corporate_era=True), 120, seed=1)


def test_legal_actions_are_the_pending_options_in_order(midgame):
    decision = midgame.decision()
    assert midgame.legal_actions() == list(range(len(decision.options)))
    for action in midgame.legal_actions():
        label = midgame.action_to_string(action)
        assert label == decision.options[action].label
        assert midgame.string_to_action(label) == action


def test_an_illegal_action_is_refused_and_changes_nothing(midgame):
    state = midgame.clone()
    before = state.game.snapshot()
    for bad in (-1, len(state.legal_actions()), "0", True, 1.0):
        with pytest.raises(ValueError):
            state.apply_action(bad)
    assert state.game.snapshot() == before


def test_observation_and_determinize_refuse_what_is_not_a_player(midgame):
    """None, '0', True or a seat too many were accepted: an observation for nobody (every hand hidden), a
    determinisation that redealt every hand, or (True) player 1's view under another name."""
    before = midgame.game.snapshot()
    for bad in (None, "0", True, False, 1.0, -1, 2, 99):
        with pytest.raises(ValueError, match=r"is not a player of this game \(players: 0\.\.1\)"):
            midgame.observation(bad)
        with pytest.raises(ValueError, match=r"is not a player of this game \(players: 0\.\.1\)"):
            midgame.determinize(bad, 0)
    for bad_seed in (None, "7", True, 1.5):
        with pytest.raises(ValueError, match="seed .* is not an integer"):
            midgame.determinize(0, bad_seed)
    assert midgame.game.snapshot() == before
    assert midgame.observation(1)["observer"] == 1 and midgame.determinize(1, 5).num_players() == 2


def test_the_same_seed_and_actions_give_the_same_game():
    a = advance(GameState.new_game(2, seed=5), 200, seed=9)
    b = advance(GameState.new_game(2, seed=5), 200, seed=9)
    assert a.game.snapshot() == b.game.snapshot()
    assert a.observation(0) == b.observation(0)


def test_a_clone_is_independent(midgame):
    clone = midgame.clone()
    before = midgame.game.snapshot()
    advance(clone, 30, seed=4)
    assert midgame.game.snapshot() == before
    assert clone.game.snapshot() != before


def test_observation_hides_other_hands_and_the_deck(midgame):
    state = midgame.game.state
    seen = strings(midgame.observation(0))
    assert set(state.players[0].hand) <= seen
    hidden = set(state.players[1].hand) | set(state.deck)
    assert not hidden & seen, "an unseen card leaks into player 0's observation"
    observation = midgame.observation(0)
    assert observation["players"][1]["hand_size"] == len(state.players[1].hand)
    assert observation["deck_size"] == len(state.deck)
    json.dumps(observation)  # plain data


def test_cards_declined_are_discarded_face_down_known_only_to_the_player_who_declined_them():
    """The rulebook: the cards not bought are discarded face down. Player 0 buys none of their starting cards:
    player 1 sees how many, never which, and a world redealt for player 1 may hold them anywhere player 1 cannot
    see; player 0 remembers them."""
    state = GameState.new_game(players=2, seed=3)
    game = state.game
    while game.pending().kind != "buy" or game.pending().player != 0:
        game.apply(game.pending().options[0].label)
    declined = []
    while (decision := game.pending()).kind == "buy" and decision.player == 0:
        declined.append(decision.labels()[1].removeprefix("discard "))
        game.apply(decision.labels()[1])
    assert len(declined) == 10 and set(declined) <= set(game.state.discard)
    assert set(declined) <= set(state.observation(0)["discard"])
    theirs = state.observation(1)
    assert not set(declined) & strings(theirs) and theirs["discard_face_down"] == 10
    assert set(declined) <= hidden_names(game, 1) and not set(declined) & hidden_names(game, 0)
    assert any(set(world.game.state.discard) != set(game.state.discard)
               for world in (state.determinize(1, seed) for seed in range(4)))


def test_observation_shows_the_decision_only_to_its_player(midgame):
    me = midgame.current_player()
    other = 1 - me
    assert midgame.observation(me)["decision"]["options"] == midgame.decision().labels()
    assert midgame.observation(other)["decision"] is None


def test_determinize_redeals_only_what_the_player_cannot_see(midgame):
    me = 0
    state = midgame.game.state
    theirs = [n for n in state.discard if state.face_down.get(n, me) != me]   # face down, player 1's
    unseen = sorted(state.deck + state.players[1].hand + theirs)
    worlds = [midgame.determinize(me, seed) for seed in range(4)]
    for world in worlds:
        ws = world.game.state
        assert ws.players[0].hand == state.players[0].hand
        assert len(ws.players[1].hand) == len(state.players[1].hand)
        assert len(ws.deck) == len(state.deck)
        redealt = [n for n in ws.discard if ws.face_down.get(n, me) != me]
        assert sorted(ws.deck + ws.players[1].hand + redealt) == unseen
        assert [n for n in ws.discard if n not in redealt] == [n for n in state.discard if n not in theirs]
        assert ws.tiles == state.tiles
        assert world.observation(me) == midgame.observation(me)
    assert len({tuple(w.game.state.players[1].hand) for w in worlds}) > 1
    assert midgame.determinize(me, 3).game.snapshot() == midgame.determinize(me, 3).game.snapshot()


def test_a_determinised_world_plays_on_to_a_legal_end(midgame):
    world = midgame.determinize(0, 1)
    advance(world, 5000, seed=2)
    assert world.is_terminal() and world.current_player() == TERMINAL
    assert world.legal_actions() == []


def test_returns_are_zero_sum_and_name_the_winner():
    state = advance(GameState.new_game(2, seed=2, corporate_era=True), 10_000, seed=3)
    assert state.is_terminal()
    returns = state.returns()
    assert sum(returns) == pytest.approx(0.0)
    winner = state.game.result["winner"]
    names = [p.name for p in state.game.state.players]
    if not state.game.result["tie_break"] or max(returns) == 1.0:
        assert returns[names.index(winner)] == max(returns)


def test_returns_are_zero_before_the_end(midgame):
    assert midgame.returns() == [0.0, 0.0]


def test_the_search_bot_is_deterministic_and_picks_a_legal_action(midgame):
    state = midgame.clone()
    while state.decision().kind != "action":
        state.apply_action(0)
    bot = SearchBot(seed=3, playouts=6, horizon=3)
    first = bot.choose(state.game, state.decision())
    again = SearchBot(seed=3, playouts=6, horizon=3).choose(state.game, state.decision())
    assert first == again
    assert first in state.decision().options


def test_evaluate_prefers_the_leader():
    state = advance(GameState.new_game(2, seed=4, corporate_era=True), 150, seed=5)
    game = state.game
    game.state.players[0].tr += 25   # well ahead of wherever 150 random moves left the two
    assert evaluate(game, 0) > 0 > evaluate(game, 1)


def test_the_docs_example_runs():
    blocks = re.findall(r"```python\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    assert blocks
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(DOCS), "exec"), namespace)
    assert namespace["state"].game.log[-1] == namespace["option"].label
