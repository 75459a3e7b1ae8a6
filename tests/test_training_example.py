"""The worked training example (docs/examples/learning/train_maskable_ppo.py) runs as written, for a few steps (its
validation curve, then the kept and the last policy on the test deals): it needs the `learn` extra (stable-baselines3,
sb3-contrib and PyTorch), which CI's line leaves out, and skips cleanly without it."""

import importlib.util
import json
from pathlib import Path

import pytest

LEARN_EXTRA = "the training example needs the learn extra: pip install 'tharsis[rl,learn]' (a CPU build of torch first)"
SCRIPT = Path(__file__).resolve().parents[1] / "docs" / "examples" / "learning" / "train_maskable_ppo.py"


def test_the_training_example_trains_a_few_steps_and_writes_its_curve(tmp_path):
    for module in ("torch", "sb3_contrib", "stable_baselines3", "gymnasium"):
        pytest.importorskip(module, reason=LEARN_EXTRA)
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", SCRIPT)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    out = tmp_path / "curve.jsonl"
    example.main(["--steps", "64", "--envs", "2", "--n-steps", "32", "--eval-games", "1", "--test-games", "1",
                  "--max-generations", "1", "--out", str(out)])
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    curve, test = rows[:-1], rows[-1]
    assert [row["steps"] for row in curve] == [0, 64]   # before training, and at its end
    assert all(0.0 <= row["validation_win_rate_random"] <= 1.0 for row in curve)
    assert curve[-1]["learning_rate"] < curve[0]["learning_rate"]   # lowered late in training
    assert test["test"] and test["kept_at_steps"] in (0, 64) and test["steps"] == 64
    assert all(0.0 <= test[f"{policy}_win_rate_{bot}"] <= 1.0
               for policy in ("kept", "last") for bot in ("random", "greedy"))
