"""The layers the folders show hold: `lint-imports` checks pyproject.toml's contracts on the package as installed.

An editable install maps `tharsis.runtime` and `tharsis.compiler` to the repository's runtime/ and compiler/ folders
through an import hook, which import-linter does not follow (it walks the package's folder); so these tests lay the
package out as `pip install .` does, from pyproject.toml's `package-dir`, and lint that copy. .ci/run also lints the
installed package itself.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

pytest.importorskip("importlinter", reason="import-linter is in the test extra: pip install -e '.[test]'")

REPO = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def _installed_layout(into: Path) -> Path:
    """The .py files of every package at the path `pip install .` gives them (tharsis/runtime/..., tharsis/...)."""
    for package, folder in CONFIG["tool"]["setuptools"]["package-dir"].items():
        for source in (REPO / folder).rglob("*.py"):
            relative = source.relative_to(REPO / folder)
            if "__pycache__" in relative.parts:
                continue
            target = into / package.replace(".", "/") / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
    return into


def _lint(root: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONSAFEPATH": "1"}
    return subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
                           "sys.exit(lint_imports_command())", str(REPO / "pyproject.toml"), "--no-cache"],
                          cwd=root, env=env, capture_output=True, text=True)


@pytest.fixture(scope="module")
def laid_out(tmp_path_factory) -> Path:
    return _installed_layout(tmp_path_factory.mktemp("installed"))


def test_every_contract_is_kept(laid_out):
    result = _lint(laid_out)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout and "Analyzed" in result.stdout
    assert f"Contracts: {len(CONFIG['tool']['importlinter']['contracts'])} kept" in result.stdout


@pytest.mark.parametrize("module, line, contract", [
    # a check that ran a handler to find out
    ("runtime/rules/prices.py", "from ..handlers import effects", "The engine's layers"),
    # a bot that reaches past the public API into the rules
    ("runtime/bots/greedy.py", "from ..rules.legality import playable", "The bots are clients"),
    # the data knowing the table's services
    ("runtime/core/state.py", "from . import table", "The core"),
    # a new recursion among the handlers, beyond the three named on purpose
    ("runtime/handlers/payment.py", "from . import actions", "The handlers"),
    # game files reaching up into the terminal game that uses them
    ("tharsis/games/saves.py", "from ..terminal import view", "By user"),
    # two tools for different users tied together
    ("tharsis/terminal/view.py", "from ..designer import gallery", "By user"),
    # the engine knowing its tools
    ("runtime/api/game.py", "from tharsis.games import options", "By user"),
    # the terminal changing a game behind the API's back
    ("tharsis/terminal/play.py", "from tharsis.runtime.handlers.actions import take_action", "The terminal game"),
    # a circle inside a tool's subpackage
    ("tharsis/designer/scenario_format.py", "from . import scenarios", "No circle"),
])
def test_an_import_against_the_layers_is_refused(tmp_path, module, line, contract):
    root = _installed_layout(tmp_path)
    path = root / "tharsis" / module.removeprefix("tharsis/")
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")
    result = _lint(root)
    assert result.returncode == 1, result.stdout
    broken = result.stdout.split("Broken contracts", 1)[1]
    assert contract in broken, broken


def test_every_layer_says_what_it_may_import():
    """Each subpackage of runtime/ and of tharsis/ opens with a docstring that names what it may import and why."""
    layers = [p for folder in ("runtime", "tharsis") for p in (REPO / folder).iterdir()
              if (p / "__init__.py").is_file()]
    assert {p.name for p in layers} == {"core", "rules", "handlers", "sequence", "api", "bots",
                                        "cli", "designer", "terminal", "games", "envs"}
    for layer in layers:
        docstring = ast.get_docstring(ast.parse((layer / "__init__.py").read_text(encoding="utf-8"))) or ""
        assert "May import" in docstring, layer.name
