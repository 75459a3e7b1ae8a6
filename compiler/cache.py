"""On-disk cache of compiled files, so re-checking unchanged content skips parsing.

Entries are pickles named by a SHA-256 of (declared vocabulary, path, file text) under a folder that also names
the compiler version; a new version or an edited grammar starts a fresh folder. Any failure to read or write the
cache is ignored: the cache may only ever make things faster, never wrong.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from functools import lru_cache
from pathlib import Path

from tharsis import __version__


@lru_cache(maxsize=1)
def folder() -> Path:
    base = os.environ.get("THARSIS_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "tharsis")
    return Path(base) / f"compiled-{__version__}-{_code_fingerprint()}"


def _code_fingerprint() -> str:
    """Hash of the compiler's own sources and grammar: editing them invalidates every entry."""
    digest = hashlib.sha256()
    from .source import grammar_path

    for path in sorted(Path(__file__).parent.glob("*.py")) + [grammar_path()]:
        try:
            digest.update(path.read_bytes())
        except OSError:
            pass
    return digest.hexdigest()[:16]


def enabled() -> bool:
    return os.environ.get("THARSIS_NO_CACHE", "") == ""


def load(key: str):
    if not enabled():
        return None
    try:
        with open(folder() / key, "rb") as handle:
            return pickle.load(handle)
    except Exception:  # a missing, truncated or stale entry is just a miss
        return None


def store(key: str, value) -> None:
    if not enabled():
        return
    try:
        target = folder()
        target.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=target)
        with os.fdopen(fd, "wb") as handle:
            pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, target / key)
    except Exception:
        pass
