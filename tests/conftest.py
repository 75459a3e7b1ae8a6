"""Shared fixtures: where the repository, the reference facts and the bundled content are."""

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    path = SHARED / "reference"
    if not (path / "cards.tsv").exists():
        pytest.skip(f"reference facts not found at {path}")
    return path


@pytest.fixture(scope="session")
def bundled():
    """The compiled bundled content (compiled once per test session)."""
    from tharsis.compiler import bundled_cards_path, compile_paths

    return compile_paths([bundled_cards_path()], use_cache=False)
