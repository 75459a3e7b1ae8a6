"""The game engine: executes compiled definitions (tharsis.compiler.effects); never imports the parser.

In layers, each a subpackage that imports only those below it (checked by the import-linter contracts in
pyproject.toml): core (the state as plain data, the flow, the services), rules (checks that change nothing),
handlers (the effects that change the state), sequence (the phases of a game), api (the public `Game` and research
API) and bots (clients of the api). The README's architecture section draws them.
"""

from __future__ import annotations

import importlib.machinery
import json
from pathlib import Path


def engine_build() -> str:
    """How this engine runs: "compiled" when `pip install .` compiled every module with Cython (setup.py),
    "plain Python" when none is (editable installs, THARSIS_PURE_PYTHON=1, no C compiler), else how many are.
    Read off the files, without importing the engine: benchmarks and `tharsis --version` report it."""
    here = Path(__file__).parent
    modules = [p.with_suffix("") for p in here.rglob("*.py") if p.stem != "__init__"]
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    compiled = sum(1 for m in modules if any(m.with_name(m.name + s).exists() for s in suffixes))
    if compiled == 0:
        return "plain Python"
    build = "compiled" if compiled == len(modules) else f"{compiled} of {len(modules)} modules compiled"
    return build + _compile_time(here / "build.json")


def _compile_time(record: Path) -> str:
    """", in 74 s on 2 cores" from the record setup.py leaves, or nothing if there is none or it is unreadable."""
    try:
        data = json.loads(record.read_text(encoding="utf-8"))
        return f", in {int(data['compile_seconds'])} s on {int(data['jobs'])} cores"
    except (OSError, ValueError, KeyError, TypeError):
        return ""
