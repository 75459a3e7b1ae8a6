"""The fixed action space, and the PettingZoo and OpenSpiel adapters run through their libraries' own tests.

The adapters' tests skip cleanly without the `rl` extra (`pip install -e '.[rl]'`); CI installs it."""

import random

import pytest

from tharsis.runtime.api.action_space import MAX_X, action_space
from tharsis.runtime.api.research import GameState
from tharsis.runtime.core.decisions import DECISION_KINDS, Decision, NumberOptions, Option

RL_EXTRA = "the research adapters are an optional extra: pip install 'tharsis[rl]'"
SHORT = {"corporate_era": True, "max_generations": 1}


def random_game_decisions(seed, **options):
    """Every decision of a random game, with its state's action space, played by ids."""
    state = GameState.new_game(seed=seed, **options)
    space = action_space(state.game)
    rng = random.Random(seed)
    while not state.is_terminal():
        decision = state.decision()
        yield space, decision
        state.game.apply(space.option(decision, rng.choice(space.ids(decision))))


@pytest.mark.parametrize("seed, options", [
    (1, {"players": 2, "corporate_era": True, "draft": True}),
    (2, {"players": 3, "expansions": ("prelude", "venus"), "board": "Hellas"}),
    (3, {"players": 1, "expansions": ("venus",), "board": "Elysium"}),
    (4, {"players": 3, "expansions": ("colonies",)}),
    (5, {"players": 2, "expansions": ("colonies", "venus", "prelude"), "corporate_era": True}),
])
def test_every_legal_move_has_one_id_within_the_bound(seed, options):
    for space, decision in random_game_decisions(seed, **options):
        assert decision.kind in DECISION_KINDS   # what the observation tensor one-hots
        ids = space.ids(decision)
        assert all(0 <= i < space.size for i in ids)
        if not isinstance(decision.options, NumberOptions):
            assert len(ids) == len({o.label for o in decision.options})   # no move lost, none merged
        assert sum(space.mask(decision)) == len(ids)


def test_a_moves_id_does_not_depend_on_the_order_of_the_options():
    checked = 0
    for space, decision in random_game_decisions(4, players=2, corporate_era=True, expansions=("venus",)):
        if isinstance(decision.options, NumberOptions) or len(decision.options) < 2:
            continue
        reordered = Decision(decision.player, decision.kind, decision.prompt, tuple(reversed(decision.options)))
        assert {space.id_of(decision, o) for o in decision.options} == \
            {space.id_of(reordered, o) for o in reordered.options}
        assert space.describe(space.id_of(decision, decision.options[0]))
        checked += 1
    assert checked > 100


def test_the_same_move_has_the_same_id_in_every_game_of_a_content():
    first = action_space(GameState.new_game(seed=1).game)
    second = action_space(GameState.new_game(seed=2, corporate_era=True, expansions=("prelude",)).game)
    assert first is second
    assert first.describe(first.segments["play"][0] + first.cards.index("Livestock")) == "play Livestock"


def test_a_standard_project_picked_for_a_card_has_the_menu_projects_id():
    """`use standard project` asks which project (an "option" decision): its move is the menu's project move, so
    an agent learns one meaning for "standard project Asteroid"."""
    space = action_space(GameState.new_game(seed=1).game)
    picked = Decision(0, "option", "Which standard project do you use?", (Option("Asteroid", ("project", "Asteroid")),))
    menu = Decision(0, "action", "Your action", (Option("standard project Asteroid", ("project", "Asteroid")),))
    assert space.ids(picked) == space.ids(menu) != []
    assert space.describe(space.ids(picked)[0]) == "standard project Asteroid"


def test_a_large_x_keeps_the_largest_value_reachable_without_listing_the_range():
    space = action_space(GameState.new_game(seed=1).game)
    decision = Decision(0, "x", "Choose X", NumberOptions(0, 10 ** 6))
    ids = space.ids(decision)
    assert len(ids) == MAX_X + 1
    assert space.option(decision, ids[-1]).value == 10 ** 6


def test_one_observation_encoding_has_one_length_for_every_game_of_a_content():
    games = [GameState.new_game(players=2, seed=1),
             GameState.new_game(players=5, seed=2, board="Hellas", expansions=("prelude", "venus"), corporate_era=True),
             GameState.new_game(players=1, seed=3, board="Elysium", expansions=("venus",)),
             GameState.new_game(players=3, seed=4, expansions=("colonies",))]
    lengths = {len(state.observation_tensor(0)) for state in games}
    assert lengths == {sum(length for _, length in games[0].observation_tensor_layout())}
    recall = {len(state.information_state_tensor(0)) - len(state.observation_tensor(0)) for state in games}
    assert recall == {len(action_space(games[0].game).cards)}
    rng = random.Random(5)
    for _ in range(600):   # into the game, or to its end (a random 5-player game may end by generation 8)
        if games[1].is_terminal():
            break
        games[1].apply_action(rng.choice(games[1].legal_actions()))
    assert all(-1.0 <= x <= 3.0 for x in games[1].observation_tensor(3))   # about 0 to 1: scaled for learning
    for _ in range(400):   # the sites and supplies of a game with Colonies are in it
        games[3].apply_action(rng.choice(games[3].legal_actions()))
    layout = [what for what, _ in games[3].observation_tensor_layout()]
    start = sum(length for _, length in games[3].observation_tensor_layout()[:layout.index(
        next(what for what in layout if what.startswith("per declared site")))])
    assert any(games[3].observation_tensor(0)[start:start + 40])
    assert all(-1.0 <= x <= 3.0 for x in games[3].observation_tensor(1))


# ------------------------------------------------------------------ PettingZoo

def test_pettingzoo_api_and_seed_tests_pass():
    pytest.importorskip("pettingzoo", reason=RL_EXTRA)
    from pettingzoo.test import api_test, seed_test

    from tharsis.envs import pettingzoo as tharsis_env

    api_test(tharsis_env.env(players=2, **SHORT), num_cycles=300)
    seed_test(lambda: tharsis_env.env(players=2, **SHORT), num_cycles=100)


def test_pettingzoo_plays_a_game_to_the_end_with_masks_and_numpy_actions():
    np = pytest.importorskip("numpy", reason=RL_EXTRA)
    pytest.importorskip("pettingzoo", reason=RL_EXTRA)
    from tharsis.envs import pettingzoo as tharsis_env

    env = tharsis_env.env(players=2, **SHORT)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        assert observation["observation"].shape == env.observation_space(agent)["observation"].shape
        if terminated or truncated:
            action = None
        else:
            action = rng.choice(np.flatnonzero(observation["action_mask"]))   # a numpy integer
        env.step(action)
    assert sorted(env.unwrapped.state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_pettingzoo_lists_each_decisions_moves_once_and_fills_its_observation_in_place(monkeypatch):
    """The loop's cost beside the bare API (docs/benchmarks.md): one listing of the legal moves per decision (not
    one for the mask, one for the move and one for the infos), and no list of 4,800 floats turned into numpy."""
    np = pytest.importorskip("numpy", reason=RL_EXTRA)
    pytest.importorskip("pettingzoo", reason=RL_EXTRA)
    from tharsis.envs import pettingzoo as tharsis_env
    from tharsis.runtime.api.action_space import ActionSpace

    env = tharsis_env.env(players=2, **SHORT)
    env.reset(seed=3)
    listings = []
    listed = ActionSpace._by_id
    monkeypatch.setattr(ActionSpace, "_by_id", lambda space, decision: listings.append(1) or listed(space, decision))

    def no_list(state, player):
        raise AssertionError("the observation went through a Python list")

    monkeypatch.setattr(GameState, "observation_tensor", no_list)
    rng = random.Random(3)
    for step in range(1, 41):
        observation = env.last()[0]
        assert observation["observation"].dtype == np.float32 and observation["observation"].any()
        legal = list(np.flatnonzero(observation["action_mask"]))
        assert env.infos[env.agent_selection]["legal_moves"] == legal
        env.step(int(rng.choice(legal)))
        assert len(listings) == step


def test_both_adapters_hand_on_the_research_views_tensors_and_option_features():
    """The PettingZoo observation's parts and OpenSpiel's tensor (the observation vector, then the option rows) are
    the research API's `observation_tensor` and `option_features`, for the player to decide and the others."""
    np = pytest.importorskip("numpy", reason=RL_EXTRA)
    pytest.importorskip("pettingzoo", reason=RL_EXTRA)
    pyspiel = pytest.importorskip("pyspiel", reason=RL_EXTRA)
    import tharsis.envs.openspiel  # noqa: F401
    from tharsis.envs import pettingzoo as tharsis_env
    from tharsis.runtime.api.option_features import OPTION_SLOTS

    def expected_options(research, player):
        ids, rows = research.option_features(player)
        matrix = np.zeros((OPTION_SLOTS, len(research.option_features_columns())), np.float32)
        if rows:
            matrix[:len(rows)] = np.asarray(rows, np.float32)
        return ids, matrix

    env = tharsis_env.env(players=2, **SHORT)
    env.reset(seed=8)
    for _ in range(12):   # the first legal move each time: a corporation, cards, an action or two
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    research = env.unwrapped.state
    for player, agent in enumerate(env.possible_agents):
        observation = env.observe(agent)
        assert np.array_equal(observation["observation"], np.asarray(research.observation_tensor(player), np.float32))
        ids, matrix = expected_options(research, player)
        assert np.array_equal(observation["options"], matrix)
        assert list(observation["option_actions"][:len(ids)]) == ids and all(observation["option_actions"][len(ids):]
                                                                               == -1)
        assert observation["option_mask"].sum() == len(ids) == observation["action_mask"].sum()
    game = pyspiel.load_game("tharsis", {"max_generations": 1, "seed": 8})
    state = game.new_initial_state()
    for _ in range(12):
        state.apply_action(state.legal_actions()[0])
    research = state.research_state
    vector = len(research.observation_tensor(0))
    assert game.observation_tensor_size() == vector + OPTION_SLOTS * len(research.option_features_columns())
    for player in (0, 1):
        tensor = np.asarray(state.observation_tensor(player), np.float32)
        assert np.array_equal(tensor[:vector], np.asarray(research.observation_tensor(player), np.float32))
        ids, matrix = expected_options(research, player)
        assert np.array_equal(tensor[vector:], matrix.reshape(-1))
        assert ids == (state.legal_actions() if player == state.current_player() else [])


# ------------------------------------------------------------------ OpenSpiel

def test_openspiel_random_simulation_test_passes():
    pyspiel = pytest.importorskip("pyspiel", reason=RL_EXTRA)
    import tharsis.envs.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("tharsis", {"max_generations": 1, "seed": 3})
    assert game.num_distinct_actions() == action_space(GameState.new_game().game).size
    # serialize=False: pyspiel serialises the game's RNG through a C++ hook Python games cannot provide;
    # states serialise on their own (the next test)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_openspiel_states_clone_and_serialise_at_any_length():
    pyspiel = pytest.importorskip("pyspiel", reason=RL_EXTRA)
    import tharsis.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("tharsis", {"seed": 4})
    state = game.new_initial_state()
    rng = random.Random(4)
    while not state.is_terminal() and state.move_number() < 600:   # past where deepcopy used to recurse too deep
        state.apply_action(rng.choice(state.legal_actions()))
    copy = state.clone()
    restored = game.deserialize_state(state.serialize())
    for other in (copy, restored):
        assert str(other) == str(state)
        assert other.legal_actions() == state.legal_actions()
        assert other.information_state_string(0) == state.information_state_string(0)
        assert list(other.observation_tensor(1)) == list(state.observation_tensor(1))
    if not state.is_terminal():
        action = state.legal_actions()[0]
        copy.apply_action(action)
        restored.apply_action(action)
        assert str(copy) == str(restored)


def test_openspiel_tensors_neither_deal_a_game_nor_draw_from_the_games_seeds():
    """pyspiel's C++ path for a Python game's tensors dealt a new initial state on every call to learn the size (400
    us, and a seed drawn from the game's generator, so asking for tensors changed the games dealt next)."""
    pyspiel = pytest.importorskip("pyspiel", reason=RL_EXTRA)
    import tharsis.envs.openspiel  # noqa: F401

    asked, quiet = (pyspiel.load_game("tharsis", {"seed": 11}) for _ in range(2))
    state = asked.new_initial_state()
    quiet.new_initial_state()
    for player in (0, 1):
        assert len(state.observation_tensor(player)) == asked.observation_tensor_size()
    assert list(state.observation_tensor()) == list(state.observation_tensor(state.current_player()))
    assert asked.new_initial_state().serialize() == quiet.new_initial_state().serialize()


def test_openspiel_game_type_offers_no_information_state_tensor_it_cannot_make_perfect_recall():
    """The research view's information-state tensor forgets the order of the choices and those naming no card, so
    the game type says it has none; OpenSpiel's tools then use the observation tensor, and perfect recall is the
    information-state string."""
    pyspiel = pytest.importorskip("pyspiel", reason=RL_EXTRA)
    from open_spiel.python import rl_environment
    from open_spiel.python.observation import make_observation

    import tharsis.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("tharsis", {"seed": 12, "max_generations": 1})
    assert not game.get_type().provides_information_state_tensor
    assert game.get_type().provides_information_state_string
    environment = rl_environment.Environment(game)
    time_step = environment.reset()
    for _ in range(6):
        player = time_step.observations["current_player"]
        time_step = environment.step([time_step.observations["legal_actions"][player][0]])
    state = environment.get_state
    assert list(time_step.observations["info_state"][1]) == list(state.observation_tensor(1))
    for ask in (lambda: state.information_state_tensor(0), game.information_state_tensor_size):
        with pytest.raises(pyspiel.SpielError, match="information_state_string"):
            ask()
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert recall.tensor is None
    assert recall.string_from(state, 0) == state.information_state_string(0)


def test_openspiel_deserialise_restores_the_history_and_game_and_state_pickle():
    pyspiel = pytest.importorskip("pyspiel", reason=RL_EXTRA)
    import pickle
    from multiprocessing.reduction import ForkingPickler

    import tharsis.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("tharsis", {"seed": 9, "corporate_era": True})
    state = game.new_initial_state()
    rng = random.Random(9)
    for _ in range(50):
        state.apply_action(rng.choice(state.legal_actions()))
    restored = game.deserialize_state(state.serialize())
    assert restored.history() == state.history() and len(restored.history()) == 50
    assert [(m.player, m.action) for m in restored.full_history()] == \
        [(m.player, m.action) for m in state.full_history()]
    assert restored.move_number() == state.move_number()
    assert restored.current_player() == state.current_player()
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        copy = pickle.loads(pickle.dumps(state, protocol))
        assert copy.history() == state.history()
        assert str(copy) == str(state) and copy.legal_actions() == state.legal_actions()
        assert copy.information_state_string(1) == state.information_state_string(1)
    # what multiprocessing does to send a game to a worker: the copy deals the same games as the original would next
    sent = pickle.loads(bytes(ForkingPickler.dumps(game)))
    assert sent.get_parameters() == game.get_parameters()
    assert str(sent.new_initial_state()) == str(game.new_initial_state())
    assert sent.new_initial_state().serialize() == game.new_initial_state().serialize()


def test_openspiel_information_state_hides_the_others_private_choices():
    pyspiel = pytest.importorskip("pyspiel", reason=RL_EXTRA)
    import tharsis.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("tharsis", {"seed": 5})
    state = game.new_initial_state()
    hidden = game.new_initial_state()
    for _ in range(4):   # set-up: corporations and starting cards, chosen differently in the two worlds
        state.apply_action(state.legal_actions()[0])
        hidden.apply_action(hidden.legal_actions()[-1])
    mover = state.current_player()
    assert state.information_state_string(mover) != hidden.information_state_string(mover)


def test_openspiel_is_mcts_plays_moves():
    np = pytest.importorskip("numpy", reason=RL_EXTRA)
    pyspiel = pytest.importorskip("pyspiel", reason=RL_EXTRA)
    from open_spiel.python.algorithms import ismcts, mcts

    import tharsis.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("tharsis", {"max_generations": 1, "seed": 6})
    state = game.new_initial_state()
    bot = ismcts.ISMCTSBot(game=game, evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                           uct_c=2.0, max_simulations=16, random_state=np.random.RandomState(1))
    for _ in range(6):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_the_adapters_examples_in_docs_api_run_as_written():
    pytest.importorskip("pettingzoo", reason=RL_EXTRA)
    pytest.importorskip("pyspiel", reason=RL_EXTRA)
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "api.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```py\n(.*?)```", text, re.S)
    assert len(blocks) == 3   # PettingZoo, OpenSpiel, the Gymnasium seat
    for block in blocks:
        exec(compile(block, "docs/api.md", "exec"), {})


def test_the_benchmarks_untimed_mode_plays_the_seeds_after_the_warm_up(capsys):
    """`--play N` (for a count of instructions under callgrind, docs/benchmarks.md) plays seeds 1..N of a loop once
    and prints its decisions: the same seeded games as the timed runs."""
    from tharsis.envs.benchmark import main, research_loop

    main(["--loop", "research", "--play", "1"])
    assert capsys.readouterr().out.split() == ["research", str(research_loop(range(1, 2))), "decisions"]


def test_payments_with_a_stock_resource_for_tagged_cards_or_card_resources_have_distinct_ids():
    """`use plants as 3 megacredits for building cards` and `use RES here as N MC for standard project "NAME"`
    (issue 30, trial 4) offer payments of plants or of a card's resources: each counts as other units, so the
    payments of one such decision keep distinct ids and read back as themselves."""
    space = action_space(GameState.new_game(seed=1).game)
    for options in ((Option("2 plants", {"plant": 2}), Option("1 plant + 1 MC", {"plant": 1, "megacredits": 1})),
                    (Option("2 from Kuiper Cooperative + 16 MC", {"@Kuiper Cooperative": 2, "megacredits": 16}),
                     Option("1 from Kuiper Cooperative + 17 MC", {"@Kuiper Cooperative": 1, "megacredits": 17}))):
        decision = Decision(0, "pay", "Pay", options)
        ids = space.ids(decision)
        assert len(set(ids)) == len(options)
        assert sorted(space.option(decision, i).label for i in ids) == sorted(o.label for o in options)


@pytest.mark.parametrize("index", range(7))
def test_the_environments_hand_out_what_was_recorded(index):
    """Every step of seeded games through PettingZoo, OpenSpiel's rl_environment and the Gymnasium seat hands out
    the observations, masks, option rows, rewards and infos recorded before the adapters were made faster
    (tests/env_outputs.py: re-record only for a change meant to change them, and say why)."""
    pytest.importorskip("pettingzoo", reason=RL_EXTRA)
    pytest.importorskip("pyspiel", reason=RL_EXTRA)
    import json

    import env_outputs

    assert len(env_outputs.GAMES) == 7
    recorded = json.loads(env_outputs.RECORD.read_text())
    assert env_outputs.first_difference(index, recorded[env_outputs.key(index)]) == ""
