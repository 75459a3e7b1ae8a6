"""The Gymnasium environment of one seat against the shipped bots (tharsis/envs/seat.py), checked by Gymnasium's and
Stable-Baselines3's own environment checkers. It needs the `rl` extra; the sb3 checks need the `learn` extra and
skip cleanly without it."""

import warnings

import pytest

RL_EXTRA = "the research adapters are an optional extra: pip install 'tharsis[rl]'"
LEARN_EXTRA = "the training example's libraries are an optional extra: pip install 'tharsis[rl,learn]'"
SHORT = {"corporate_era": True, "max_generations": 1}

np = pytest.importorskip("numpy", reason=RL_EXTRA)
pytest.importorskip("gymnasium", reason=RL_EXTRA)


def seat_env(**arguments):
    from tharsis.envs.seat import SeatEnv

    return SeatEnv(**{**SHORT, **arguments})


def test_gymnasiums_environment_checker_passes():
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # the observation's boxes are unbounded: said, not a failure
        check_env(seat_env(opponents=("random",)))
        check_env(seat_env(opponents=("greedy",), actions="ids"))


def test_stable_baselines3s_checker_passes_and_sb3_contrib_reads_the_masks():
    pytest.importorskip("stable_baselines3", reason=LEARN_EXTRA)
    pytest.importorskip("sb3_contrib", reason=LEARN_EXTRA)
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.env_checker import check_env

    env = seat_env()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env)   # samples actions outside the mask: refused, never raised
    env.reset(seed=3)
    masks = get_action_masks(env)
    assert masks.dtype == bool and masks.shape == (env.action_space.n,) and masks.any()


def test_an_action_outside_the_mask_is_refused_with_the_penalty_and_changes_nothing():
    env = seat_env(max_illegal=3)
    observation, info = env.reset(seed=5)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    before = env.state.game.to_json()
    for refused in range(1, 4):
        after, reward, terminated, truncated, info = env.step(illegal)
        assert (reward, terminated, truncated, info["illegal_action"]) == (-0.01, False, refused == 3, True)
        assert np.array_equal(after["observation"], observation["observation"])
        assert env.state.game.to_json() == before
    for wrong in (1.5, "pass", None, True):   # not an action at all: refused the same way
        assert env.step(wrong)[4]["illegal_action"]
    legal = int(np.flatnonzero(observation["action_mask"])[0])
    assert not env.step(legal)[4]["illegal_action"]


def test_a_seat_plays_a_whole_game_against_the_bots_and_gets_the_zero_sum_return():
    for opponents, seat in ((("random",), 0), (("greedy", "random"), None)):
        env = seat_env(opponents=opponents, seat=seat)
        observation, info = env.reset(seed=11)
        rng, total, steps = np.random.default_rng(0), 0.0, 0
        while True:
            assert env.state.current_player() == env.seat   # the bots play between the learner's decisions
            slots = np.flatnonzero(observation["action_mask"])
            assert np.array_equal(slots, np.flatnonzero(info["action_mask"]))
            assert list(info["option_actions"][slots]) == env.state.option_features(env.seat)[0][:len(slots)]
            observation, reward, terminated, truncated, info = env.step(int(rng.choice(slots)))
            total, steps = total + reward, steps + 1
            if terminated or truncated:
                break
        assert terminated and total == env.state.returns()[env.seat] and steps > 10
        assert not observation["action_mask"].any()


def test_resets_with_a_seed_repeat_the_game_and_the_bots():
    def trace(env):
        observation, _ = env.reset(seed=21)
        moves = []
        for _ in range(30):
            action = int(np.flatnonzero(observation["action_mask"])[-1])
            observation, _, terminated, _, _ = env.step(action)
            moves.append(env.state.game.log[-1] if env.state.game.log else "")
            if terminated:
                break
        return moves, env.seat

    assert trace(seat_env(opponents=("greedy",), seat=None)) == trace(seat_env(opponents=("greedy",), seat=None))


@pytest.mark.parametrize("arguments, message", [
    ({"opponents": ("nobody",)}, "name one or more bots"),
    ({"opponents": ()}, "name one or more bots"),
    ({"seat": 2}, "not a seat"),
    ({"seat": True}, "not a seat"),
    ({"actions": "slots"}, "'options'"),
])
def test_wrong_arguments_are_a_value_error_that_says_what(arguments, message):
    with pytest.raises(ValueError, match=message):
        seat_env(**arguments)
