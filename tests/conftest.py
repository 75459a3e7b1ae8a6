"""Shared fixtures: where the repository, the reference facts and the bundled content are."""

import io
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


class Autopilot(io.TextIOBase):
    """A scripted human at the keyboard: the given lines first, then a legal answer to whatever is pending
    (a space by its id, the first card offered, otherwise option 1)."""

    def __init__(self, lines=()):
        self.lines = list(lines)
        self.session = None
        self.calls = 0

    def readline(self, size=-1):
        self.calls += 1
        assert self.calls < 20000, "the game does not end"
        if self.lines:
            return self.lines.pop(0) + "\n"
        decision = self.session.game.pending()
        if decision.kind == "space":
            return f"{decision.options[0].value}\n"
        return "buy 1\n" if decision.kind == "buy" else "1\n"


@pytest.fixture
def autopilot(monkeypatch, tmp_path):
    """Sessions started by `main` read from an Autopilot; files (logs, autosaves) go to a temporary folder."""
    from tharsis.terminal.play import Session

    monkeypatch.chdir(tmp_path)
    pilot = Autopilot()
    original = Session.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        if self.stdin is pilot:
            pilot.session = self

    monkeypatch.setattr(Session, "__init__", init)
    monkeypatch.setattr("sys.stdin", pilot)
    return pilot
