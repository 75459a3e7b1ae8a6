"""`tharsis simulate --backend ray`: the local backend's games, played on a Ray cluster (or a local Ray instance).

Ray is an optional extra (`pip install 'tharsis[ray]'`), so this module is imported only when asked for, and the
default multiprocessing backend in simulate.py never depends on it.

The same games and the same records as the local backend: each game is `records.play_one` on the same task (the
seed fixes everything), and results come back in seed order, so the results file is the local backend's but for
each game's timing. The driver compiles the library once and ships it to the workers through Ray's object store:
the cluster's nodes need Tharsis installed, not the designer's card folders, which exist only on the driver.
"""

from __future__ import annotations

import collections
import logging
import socket
from typing import Iterable, Iterator, Optional

INSTALL_HINT = "pip install 'tharsis[ray]'"


class RayBackendError(Exception):
    """Ray is missing or the cluster cannot be reached: a usage problem, reported in one line (exit 2)."""


def available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def _ray():
    try:
        import ray
    except ImportError:
        raise RayBackendError(f"--backend ray needs Ray, which is not installed: {INSTALL_HINT}") from None
    return ray


def _play(task: tuple, library) -> dict:
    """One game on a Ray worker: the local backend's own function, with the library shipped by the driver."""
    from tharsis.games.records import play_one

    return play_one(task, library)


def play_all(tasks: Iterable[tuple], library, *, address: Optional[str] = None,
             cpus: Optional[int] = None) -> Iterator[dict]:
    """Yield the record of every task, in task order, played on Ray.

    Joins the cluster at `address` (`auto` for the one `ray start` runs on this machine), or starts a local Ray
    instance with `cpus` CPUs (all of them when None). A Ray already initialised in this process (a notebook, a
    test) is used as it is and left running; one started here is shut down at the end, even on Ctrl-C.
    """
    ray = _ray()
    started_here = not ray.is_initialized()
    if started_here:
        _connect(ray, address, cpus)
    try:
        remote_play = ray.remote(num_cpus=1)(_play)
        library_ref = ray.put(library)
        # At most a few games per CPU in flight: the cluster stays busy, and the driver does not hold a million
        # pending references (nor their results) for a long run. The oldest game is awaited first, so records
        # come back in seed order, as from the local backend's Pool.imap.
        window = max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
        pending: collections.deque = collections.deque()
        for task in tasks:
            if len(pending) >= window:
                yield ray.get(pending.popleft())
            pending.append(remote_play.remote(task, library_ref))
        while pending:
            yield ray.get(pending.popleft())
    finally:
        if started_here:
            ray.shutdown()


def _connect(ray, address: Optional[str], cpus: Optional[int]) -> None:
    settings = dict(include_dashboard=False, logging_level=logging.WARNING, configure_logging=True)
    try:
        if address:
            _probe(address)
            ray.init(address=address, **settings)
        else:
            ray.init(**({"num_cpus": cpus} if cpus else {}), **settings)
    except (OSError, ValueError, RuntimeError) as exc:  # ConnectionError and TimeoutError are OSErrors
        where = f"join the Ray cluster at {address}" if address else "start a local Ray instance"
        raise RayBackendError(f"cannot {where}: {str(exc).strip().splitlines()[0]}") from None


def _probe(address: str, timeout: float = 10.0) -> None:
    """Fail fast on an address nobody answers at: Ray itself retries such an address for minutes."""
    if address == "auto":  # Ray looks the address up on this machine and says at once when there is none
        return
    host, _, port = address.split("://")[-1].rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"'{address}' is not HOST:PORT (nor 'auto')")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        raise ConnectionError(f"nothing answers at {address} ({exc.strerror or exc})") from None
