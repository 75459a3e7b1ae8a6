"""Every bundled scenario passes (rules conformance and card behaviour); see docs/scenarios.md."""

from pathlib import Path

import pytest

from tharsis import scenarios

ROOT = Path(__file__).parent / "scenarios"
FILES = scenarios.find([ROOT])


def _cases():
    for path in FILES:
        try:
            specs = scenarios.load(path)
        except scenarios.ScenarioError:
            yield pytest.param(path, 0, id=f"{path.relative_to(ROOT)}")
            continue
        for index, spec in enumerate(specs):
            yield pytest.param(path, index, id=f"{path.relative_to(ROOT)}::{spec.get('name', index)}")


@pytest.mark.parametrize(("path", "index"), list(_cases()))
def test_scenario(path, index):
    spec = scenarios.load(path)[index]
    outcome = scenarios.run(spec, str(path))
    assert outcome.passed, "\n".join(([outcome.error] if outcome.error else []) + outcome.failures)
