"""Every bundled scenario passes (rules conformance and card behaviour); see docs/scenarios.md.

Each file is read (and checked against the format) once, at collection, however many scenarios it holds."""

from functools import lru_cache
from pathlib import Path

import pytest

from tharsis.designer import scenarios

ROOT = Path(__file__).parent / "scenarios"
FILES = scenarios.find([ROOT])


@lru_cache(maxsize=None)
def _load(path: Path):
    """The file's scenarios, or the ScenarioError that reading it raised (reported by its one test)."""
    try:
        return scenarios.load(path)
    except scenarios.ScenarioError as exc:
        return exc


def _cases():
    for path in FILES:
        specs = _load(path)
        if isinstance(specs, scenarios.ScenarioError):
            yield pytest.param(path, 0, id=f"{path.relative_to(ROOT)}")
            continue
        for index, spec in enumerate(specs):
            yield pytest.param(path, index, id=f"{path.relative_to(ROOT)}::{spec.get('name', index)}")


@pytest.mark.parametrize(("path", "index"), list(_cases()))
def test_scenario(path, index):
    specs = _load(path)
    assert not isinstance(specs, scenarios.ScenarioError), str(specs)
    outcome = scenarios.run(specs[index], str(path))
    assert outcome.passed, "\n".join(([outcome.error] if outcome.error else []) + outcome.failures)


def test_each_scenario_file_is_read_once(monkeypatch):
    """The suite must not re-read and re-parse a file for every scenario it holds."""
    reads = []
    original = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: reads.append(self) or original(self))
    for path in FILES:
        specs = _load(path)
        for index in range(len(specs)):
            _load(path)[index]
    assert reads == []  # every file was loaded during collection and is served from the cache
