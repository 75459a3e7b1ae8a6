"""A fresh copy of the repository, as a clone of it holds, for the tests that install Tharsis or run the README's
lines in a folder of their own: the files git tracks (with the edits not yet committed) and the new files it does
not ignore. Never the checkout's virtual environments, build/ folder or node packages: an install from the
checkout itself would reuse its build/ (and leave one there), and its .venv would not be fresh."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


def fresh_copy(repo: Path, destination: Path) -> Path:
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=repo,
                            capture_output=True)
    if listed.returncode != 0:
        pytest.skip(f"the repository's files are listed by git, and {repo} is not a git checkout here")
    for name in sorted(set(listed.stdout.decode("utf-8", "surrogateescape").split("\0")) - {""}):
        source = repo / name
        if not source.is_file():   # a tracked file deleted in the working tree, or a submodule
            continue
        target = destination / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    return destination
