"""Checking again whenever a card file changes (`tharsis check --watch`): the files are polled, which needs no
dependency and works on every OS."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Optional


def _sleep(seconds: float) -> None:
    """The pause between two looks at the files (a seam for tests, which replace it)."""
    time.sleep(seconds)


def watch(check: Callable[[], int], paths: list[Path], interval: float,
          max_polls: Optional[int] = None) -> int:
    """Run `check`, then again each time a card file under `paths` (or the configuration) is added, removed or
    changes (size or modification time, looked at every `interval` seconds), until Ctrl-C or `max_polls`
    looks. Returns the exit code of the last check. Polling keeps it dependency-free and works on every OS."""
    seen = _snapshot(paths)  # before the first check, so a file saved while it runs is checked again
    code = check()
    _waiting(seen)
    polls = 0
    try:
        while max_polls is None or polls < max_polls:
            _sleep(interval)
            polls += 1
            now = _snapshot(paths)
            if now == seen:
                continue
            changed = sorted(set(now) ^ set(seen) | {p for p in now if p in seen and now[p] != seen[p]})
            seen = now
            shown = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
            print(f"\n[{time.strftime('%H:%M:%S')}] {shown} changed: checking again", flush=True)
            code = check()
            _waiting(seen)
    except KeyboardInterrupt:
        print("stopped watching", flush=True)
    return code


def _waiting(seen: dict) -> None:
    print(f"watching {len(seen)} file{'s' if len(seen) != 1 else ''} for changes (Ctrl-C to stop)", flush=True)


def _snapshot(paths: list[Path]) -> dict[str, tuple[int, int]]:
    from tharsis.compiler.source import content_files

    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(content_files(path))
        elif path.exists():
            files.append(path)
    state = {}
    for path in files:
        try:
            stat = path.stat()
        except OSError:  # removed between the listing and the look
            continue
        state[str(path)] = (stat.st_mtime_ns, stat.st_size)
    return state
