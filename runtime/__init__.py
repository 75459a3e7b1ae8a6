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


def engine_build(folder: Path | None = None) -> str:
    """How this engine runs, read off its files without importing it (benchmarks and `tharsis --version` report
    it): "plain Python" when no module is compiled (the default install, editable installs); "compiled" when
    `THARSIS_COMPILE=1 pip install .` compiled every module with Cython (setup.py), else how many are; and, from
    the record setup.py leaves (build.json), what this install's build did: a module reused from an earlier
    build is not claimed as compiled by this one. `folder`: another engine folder than this one (the tests')."""
    here = folder or Path(__file__).parent
    modules = [p.with_suffix("") for p in here.rglob("*.py") if p.stem != "__init__"]
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    compiled = sum(1 for m in modules if any(m.with_name(m.name + s).exists() for s in suffixes))
    record = _build_record(here / "build.json")
    if compiled == 0:
        problem = record.get("problem") if record and record.get("compile_asked") else None
        return f"plain Python (THARSIS_COMPILE=1, but {problem})" if problem else "plain Python"
    build = "compiled" if compiled == len(modules) else f"{compiled} of {len(modules)} modules compiled"
    if record is None or record["compiled"] + record["reused"] != compiled:
        return build + ", with no record of its build matching these files"
    seconds, jobs, reused = record["seconds"], record["jobs"], record["reused"]
    if reused == 0:
        return f"{build}, in {seconds} s on {jobs} cores"
    if record["compiled"] == 0:
        return f"{build} by an earlier build: this install reused its {reused} modules"
    now = record["compiled"]
    return (f"{build}: {now} module{'s' if now > 1 else ''} in this install, in {seconds} s on {jobs} cores, "
            f"{reused} reused from an earlier build")


def _build_record(path: Path) -> dict | None:
    """setup.py's record of the build, or None when there is none (an editable install) or it is unreadable."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        for field in ("compiled", "reused", "seconds", "jobs"):
            record[field] = int(record[field])
        return record
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
