"""What a learner sees of a decision: every legal move as a row of features read from the compiled cards, the cards
on offer in the observation vector, and the observation writer that keeps the vector up to date in place.

These run on the research API alone (no extra needed); the adapters' use of them is in tests/test_envs.py."""

import random
import re
from pathlib import Path

import numpy as np
import pytest

from tharsis.runtime.api.action_space import action_space
from tharsis.runtime.api.encoding import encoding_for
from tharsis.runtime.api.observation_writer import ObservationWriter
from tharsis.runtime.api.option_features import OPTION_SLOTS, option_features_for
from tharsis.runtime.api.research import GameState

GAMES = [
    (1, {"players": 2, "corporate_era": True, "draft": True}),
    (2, {"players": 3, "expansions": ("prelude", "venus"), "board": "Hellas", "max_generations": 3}),
    (3, {"players": 1, "expansions": ("venus",), "board": "Elysium"}),
    (5, {"players": 2, "expansions": ("colonies", "venus", "prelude", "turmoil"), "corporate_era": True,
         "max_generations": 4}),
]


def played(seed, options):
    """Every position of a random game, as its research state."""
    state = GameState.new_game(seed=seed, **options)
    rng = random.Random(seed)
    while not state.is_terminal():
        yield state
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("seed, options", GAMES)
def test_every_legal_move_has_a_row_of_one_width_in_the_order_of_its_id(seed, options):
    explained = 0
    for state in played(seed, options):
        decision = state.decision()
        features = option_features_for(state.game)
        ids, rows = state.option_features(decision.player)
        assert ids == action_space(state.game).ids(decision)
        assert len(ids) <= OPTION_SLOTS   # no decision of these games needs more slots than there are
        assert all(len(row) == features.width for row in rows)
        assert all(-5.0 <= value <= 5.0 for row in rows for value in row)   # scaled for learning
        for action, row in zip(ids, rows):   # the kind of move is the id's segment
            segment, _ = action_space(state.game).move(action)
            assert row[features.column("move", segment)] == 1.0
            assert row[features.column("decision", decision.kind)] == 1.0
        others = [p for p in range(state.num_players()) if p != decision.player]
        assert all(state.option_features(p) == ([], []) for p in others)
        does = [features.column(field, column) for field, columns in features.layout
                if field.startswith("does") for column in columns]
        if decision.kind == "option" and any(row[c] for row in rows for c in does):
            explained += 1   # a choice between effects says what each option does
    if seed == 1:
        assert explained > 0


def test_a_cards_row_is_read_from_its_compiled_definition():
    """Cost, tags, type and victory points of every card offered come from the card's compiled object."""
    checked = 0
    for state in played(1, {"players": 2, "corporate_era": True, "draft": True}):
        decision = state.decision()
        space = action_space(state.game)
        features = option_features_for(state.game)
        for action, row in zip(*state.option_features(decision.player)):
            segment, name = space.move(action)
            definition = state.game.library.get(name) if segment in ("play", "take", "discard") else None
            if definition is None or definition.kind != "card":
                continue
            assert row[features.column("cost", "printed")] == pytest.approx(definition.cost / 50)
            for tag in set(definition.tags):
                assert row[features.column("tags", tag)] == pytest.approx(definition.tags.count(tag) / 2)
            assert row[features.column("card type", definition.type)] == 1.0
            if definition.vp is not None and definition.vp.per is None and definition.vp.condition is None:
                assert row[features.column("vp", "fixed")] == pytest.approx(definition.vp.points / 5)
            checked += 1
    assert checked > 50


def test_two_deals_give_different_vectors_and_options_from_the_first_decision():
    """The cards on offer (the dealt corporations, starting cards and preludes, then the research offer, a draft
    pack) are in the observation vector, and the option rows describe them: two deals are told apart."""
    first = GameState.new_game(players=2, seed=1, corporate_era=True, expansions=("prelude",))
    second = GameState.new_game(players=2, seed=2, corporate_era=True, expansions=("prelude",))
    layout = first.observation_tensor_layout()
    start = sum(length for what, length in layout[:next(i for i, (what, _) in enumerate(layout)
                                                         if what.startswith("the observer's kept cards"))])
    held = slice(start, start + len(action_space(first.game).cards))
    for _ in range(3):   # the corporation, then the first cards bought
        player = first.current_player()
        assert player == second.current_player()
        one, two = first.observation_tensor(player), second.observation_tensor(player)
        assert one != two and one[held] != two[held] and any(one[held]) and any(two[held])
        assert first.option_features(player)[1] != second.option_features(player)[1]
        first.apply_action(0)
        second.apply_action(0)


@pytest.mark.parametrize("seed, options", GAMES)
def test_the_observation_writer_gives_observation_tensor_at_every_decision_for_every_player(seed, options):
    writers, buffers = None, None
    for state in played(seed, options):
        if writers is None:
            size = encoding_for(state.game).size
            writers = [ObservationWriter(state.game, p) for p in range(state.num_players())]
            buffers = [np.zeros(size, np.float32) for _ in writers]
        for player, (writer, buffer) in enumerate(zip(writers, buffers)):
            writer.write(state.game, buffer)
            assert np.array_equal(buffer, np.asarray(state.observation_tensor(player), np.float32))


def test_the_observation_writer_starts_again_on_another_game_and_another_buffer():
    state = GameState.new_game(players=2, seed=4, corporate_era=True)
    rng = random.Random(4)
    for _ in range(300):
        state.apply_action(rng.choice(state.legal_actions()))
    size = encoding_for(state.game).size
    writer, buffer = ObservationWriter(state.game, 0), np.zeros(size, np.float32)
    writer.write(state.game, buffer)
    world = state.determinize(0, 7)   # another state object: the deck and the other hand redealt
    for _ in range(20):
        world.apply_action(rng.choice(world.legal_actions()))
    writer.write(world.game, buffer)
    assert np.array_equal(buffer, np.asarray(world.observation_tensor(0), np.float32))
    fresh = np.zeros(size, np.float32)
    writer.write(world.game, fresh)
    assert np.array_equal(fresh, buffer)
    fewer = GameState.new_game(players=1, seed=5, expansions=("venus",))   # other seats: none of the last left
    writer.write(fewer.game, buffer)
    assert np.array_equal(buffer, np.asarray(fewer.observation_tensor(0), np.float32))


def test_docs_api_describes_every_field_of_the_option_features():
    text = (Path(__file__).resolve().parents[1] / "docs" / "api.md").read_text(encoding="utf-8")
    features = option_features_for(GameState.new_game().game)
    table = re.search(r"### The option features\n(.*?)\n\n(?!\|)", text, re.S)
    assert table, "docs/api.md has no section 'The option features'"
    for field, _ in features.layout:
        assert f"| `{field}` |" in table.group(1), f"docs/api.md does not describe the option field {field!r}"


@pytest.mark.parametrize("seed, options", GAMES)
def test_the_adapters_arrays_equal_fresh_ones_at_every_decision_seen_as_a_loop_sees_them(seed, options):
    """`Features` (tharsis/envs/features.py) keeps the observation vector in place and makes the option rows once per
    decision (static rows from a table, dynamic values set after); a PettingZoo loop observes only the player to
    decide, so each writer skips the decisions of the others. At every decision the decider's arrays, and every
    third decision another player's, equal the research API's `observation_tensor` and `option_features` computed
    afresh."""
    from tharsis.envs.features import Features

    features = None
    for step, state in enumerate(played(seed, options)):
        if features is None:
            features = Features(state.game)
        decision = state.decision()
        players = [decision.player] + ([(decision.player + 1) % state.num_players()] if step % 3 == 0 else [])
        for player in players:
            assert np.array_equal(features.observation(player),
                                  np.asarray(state.observation_tensor(player), np.float32))
            ids, rows = state.option_features(player)
            matrix, actions, mask = features.options(player)
            expected = np.zeros_like(matrix)
            if rows:
                expected[:len(rows)] = np.asarray(rows, np.float32)
            assert np.array_equal(matrix, expected)
            assert list(actions) == ids + [-1] * (OPTION_SLOTS - len(ids))
            assert list(mask) == [1] * len(ids) + [0] * (OPTION_SLOTS - len(ids))
        assert list(np.flatnonzero(features.ids_mask())) == action_space(state.game).ids(decision)


@pytest.mark.parametrize("seed, options", GAMES)
def test_the_flow_reader_gives_what_the_flow_holds_at_every_decision(seed, options):
    """`FlowReader` keeps what the frames below the first changed one hold and remembers each frame by its values
    (runtime/api/hidden.py): at every decision, for every player, it gives `held_by_flow` and `being_played`."""
    from tharsis.runtime.api.hidden import FlowReader, being_played, held_by_flow

    readers = None
    for state in played(seed, options):
        if readers is None:
            readers = [FlowReader(p) for p in range(state.num_players())]
        for player, reader in enumerate(readers):
            assert reader.read(state.game) == (held_by_flow(state.game, player), being_played(state.game))
