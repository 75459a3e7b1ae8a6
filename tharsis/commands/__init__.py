"""The designer and CI commands of the `tharsis` CLI, one module each (`check`, `cards`, `test`, `fmt`).

Each module has `add_parser(subparsers)`, which declares its flags, and `run(args)`, which returns the exit code
(0 ok, 1 content or test errors, 2 usage errors). tharsis/cli.py wires them in next to the game commands.
"""

from __future__ import annotations

import sys
from pathlib import Path


def paths_exist(paths: list[str]) -> bool:
    """Report every missing path (a usage error); True when all exist."""
    missing = [p for p in paths if p != "-" and not Path(p).exists()]
    for path in missing:
        print(f"tharsis: no such file or folder: {path}", file=sys.stderr)
    return not missing
