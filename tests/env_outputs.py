"""What the learning environments hand out, decision by decision, on seeded games: the record behind
tests/test_envs.py's `test_the_environments_hand_out_what_was_recorded`, so that a change made for speed (the
observation written in place, arrays reused, listings cached) cannot change an observation, a mask, an option row,
a reward or an info without the test naming the game and the first decision that differs.

Each game is played by a seeded random player through one adapter, and at every step every agent's outputs are
hashed together (their bytes, dtypes and shapes; the Python values as their repr), one digest a step:

    pettingzoo   `env.last()` for the agent to act and `env.observe(agent)` for every agent (the vector, the action
                 mask, the option rows, their action ids and mask), the rewards, cumulative rewards, terminations,
                 truncations and infos of every agent, the agent selected
    openspiel    `rl_environment.Environment`'s time step: every player's tensor and legal actions, the player to
                 act, the rewards, the discounts, the step type
    seat         the Gymnasium seat environment (`actions="options"` and `"ids"`): the observation, the reward, the
                 flags and the info of every step

Kept apart from the test (no pytest here), as tests/fingerprint_games.py is:

    python tests/env_outputs.py           record tests/env_outputs.json anew (say why in the commit message)
    python tests/env_outputs.py --check   play every game; exit 1 and name the first step that differs
"""

import hashlib
import json
import pathlib
import sys

import numpy as np

RECORD = pathlib.Path(__file__).with_name("env_outputs.json")
STEPS = 400   # steps of each game recorded (a game of two random players is about 700 decisions long)

# (adapter, options, seed); a game is played to its end or for STEPS steps
GAMES = [
    ("pettingzoo", {"players": 2, "corporate_era": True}, 3),
    ("pettingzoo", {"players": 3, "expansions": ("prelude", "venus", "colonies"), "draft": True,
                    "board": "Hellas"}, 5),
    ("pettingzoo", {"players": 2, "corporate_era": True, "max_generations": 2}, 11),   # to the end: the rewards
    ("openspiel", {"players": 2, "corporate_era": True}, 4),
    ("openspiel", {"players": 2, "corporate_era": True, "max_generations": 2}, 12),    # to the end
    ("seat", {"actions": "options", "corporate_era": True, "max_generations": 2}, 6),
    ("seat", {"actions": "ids", "corporate_era": True, "expansions": ("venus",)}, 7),
]


def _feed(digest, value) -> None:
    """Hashes a value: arrays by their dtype, shape and bytes, containers item by item, the rest by repr."""
    if isinstance(value, np.ndarray):
        digest.update(f"{value.dtype}{value.shape}".encode())
        digest.update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, dict):
        digest.update(b"{")
        for key in sorted(value, key=repr):
            digest.update(repr(key).encode())
            _feed(digest, value[key])
        digest.update(b"}")
    elif isinstance(value, (list, tuple)):
        digest.update(b"[")
        for item in value:
            _feed(digest, item)
        digest.update(b"]")
    else:
        digest.update(f"{type(value).__name__}:{value!r};".encode())


def _digest(*values) -> str:
    digest = hashlib.sha256()
    for value in values:
        _feed(digest, value)
    return digest.hexdigest()[:12]


def _pettingzoo(options: dict, seed: int) -> list[str]:
    from tharsis.envs.pettingzoo import env as make_env

    env = make_env(**options)
    env.reset(seed=seed)
    raw, rng, steps = env.unwrapped, np.random.default_rng(seed), []
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        seen = [env.observe(other) for other in env.possible_agents]
        steps.append(_digest(agent, observation, reward, terminated, truncated, info, seen, raw.rewards,
                             raw._cumulative_rewards, raw.terminations, raw.truncations, raw.infos))
        if terminated or truncated:
            env.step(None)
            continue
        if len(steps) >= STEPS:
            break
        legal = list(np.flatnonzero(observation["action_mask"]))
        env.step(int(legal[int(rng.integers(len(legal)))]))
    return steps


def _openspiel(options: dict, seed: int) -> list[str]:
    import pyspiel
    from open_spiel.python import rl_environment

    import tharsis.envs.openspiel  # noqa: F401  (registers the game)

    environment = rl_environment.Environment(pyspiel.load_game("tharsis", {"seed": seed, **options}))
    rng, steps = np.random.default_rng(seed), []
    time_step = environment.reset()
    while True:
        observations = time_step.observations
        steps.append(_digest([np.asarray(t, np.float32) for t in observations["info_state"]],
                             [list(a) for a in observations["legal_actions"]], observations["current_player"],
                             time_step.rewards, time_step.discounts, time_step.step_type.value))
        if time_step.last() or len(steps) >= STEPS:
            break
        legal = observations["legal_actions"][observations["current_player"]]
        time_step = environment.step([legal[int(rng.integers(len(legal)))]])
    return steps


def _seat(options: dict, seed: int) -> list[str]:
    from tharsis.envs.seat import SeatEnv

    env = SeatEnv(**options)
    observation, info = env.reset(seed=seed)
    rng, steps = np.random.default_rng(seed), [_digest(observation, info)]
    while len(steps) < STEPS:
        legal = np.flatnonzero(observation["action_mask"])
        observation, reward, terminated, truncated, info = env.step(int(legal[int(rng.integers(len(legal)))]))
        steps.append(_digest(observation, reward, terminated, truncated, info, env.action_masks()))
        if terminated or truncated:
            break
    return steps


ADAPTERS = {"pettingzoo": _pettingzoo, "openspiel": _openspiel, "seat": _seat}


def play(index: int) -> list[str]:
    """The digests of game `index` of GAMES, one a step."""
    adapter, options, seed = GAMES[index]
    return ADAPTERS[adapter](dict(options), seed)


def key(index: int) -> str:
    adapter, options, seed = GAMES[index]
    return f"{adapter} {json.dumps(options, sort_keys=True)} seed {seed}"


def first_difference(index: int, recorded: list[str]) -> str:
    """'' when game `index` hands out what was recorded, else which step differs first."""
    steps = play(index)
    for step, (got, expected) in enumerate(zip(steps, recorded)):
        if got != expected:
            return f"{key(index)}: step {step} differs"
    if len(steps) != len(recorded):
        return f"{key(index)}: {len(steps)} steps, {len(recorded)} recorded"
    return ""


def main(argv: list[str]) -> int:
    if "--check" in argv:
        recorded = json.loads(RECORD.read_text())
        problems = [first_difference(i, recorded[key(i)]) for i in range(len(GAMES))]
        problems = [p for p in problems if p]
        for problem in problems:
            print(problem)
        print(f"{len(GAMES) - len(problems)} of {len(GAMES)} games hand out what was recorded")
        return 1 if problems else 0
    record = {key(i): play(i) for i in range(len(GAMES))}
    RECORD.write_text(json.dumps(record, indent=0) + "\n")
    print(f"recorded {sum(len(s) for s in record.values())} steps of {len(GAMES)} games in {RECORD}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
