"""Writing a file whole or not at all: the one way every command rewrites a file it owns.

A log resumed by `play --load`, a save over an earlier one, a card file rewritten by `fmt` or `check --fix`, a
results file, a report, a gallery page and a cache entry are each written to a temporary file beside the target,
flushed to the disk, then renamed over it. A full disk, a quota, a `kill -9` or a power cut in the middle of the
write leaves either the old file or the new one, never a mix: opening the original for writing would have cut it
first and lost it when the write failed. Appending a line to a log stays an append (a cut last line is what
`replay` and `report` already forgive), so only rewrites come here.

Pipeline place: none; a service for the tools (and the compile cache) kept at the bottom layer so everyone can use
it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path
from typing import IO, Iterator, Optional, Union

UNCHANGED = "the file is as it was before: nothing in it was lost"   # what a failed rewrite tells its reader


class Rewrite:
    """The new content of `path`, written into `handle` (a temporary file beside it) for as long as it takes (a
    results file grows game by game): `commit()` flushes, syncs and renames it over `path`, which keeps its
    permissions; `discard()` removes it and leaves `path` untouched. A symbolic link is followed (its target is
    replaced, the link stays) unless `follow` is off (the compile cache: a link planted there is replaced). A
    process killed before `commit` leaves `path` as it was and the temporary file (named after `path`, beginning
    with a dot, ending in .partial) with what was written so far. `durable` off skips the syncs (the compile
    cache: a torn entry is only a miss, and a sync per entry would cost more than the entry saves). A path that
    is not a regular file (/dev/null, /dev/full, a pipe) is written directly: it holds nothing to keep, and a
    rename would put a regular file in place of the device."""

    def __init__(self, path: Union[str, os.PathLike], binary: bool = False, encoding: str = "utf-8",
                 newline: Optional[str] = None, errors: Optional[str] = None, follow: bool = True,
                 durable: bool = True):
        self.durable = durable
        self.target = Path(os.path.realpath(path) if follow else os.path.abspath(path))
        if os.path.exists(self.target) and not os.access(self.target, os.W_OK):
            # a rename would replace a file its owner made read-only: refused, as opening it for writing was
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        text = {} if binary else {"encoding": encoding, "newline": newline, "errors": errors}
        self.temporary: Optional[str] = None
        if os.path.exists(self.target) and not os.path.isfile(self.target):
            # a named pipe nobody reads would block the open for ever: refused at once (ENXIO), as a full disk is
            descriptor = os.open(self.target, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0))
            if hasattr(os, "set_blocking"):
                os.set_blocking(descriptor, True)
            self.handle: IO = os.fdopen(descriptor, "wb" if binary else "w", **text)
            return
        # the name stays well under 255 bytes whatever the target's: 40 characters are at most 160 bytes
        descriptor, self.temporary = tempfile.mkstemp(dir=self.target.parent, prefix=f".{self.target.stem[:40]}.",
                                                      suffix=".partial")
        try:
            self.handle = os.fdopen(descriptor, "wb" if binary else "w", **text)
        except BaseException:
            os.close(descriptor)
            self.discard()
            raise

    def commit(self) -> None:
        if self.temporary is None:   # a device or a pipe, written directly
            self.handle.close()
            return
        try:
            self.handle.flush()
            if self.durable:
                os.fsync(self.handle.fileno())
            self.handle.close()
            os.chmod(self.temporary, _mode_for(self.target))
            os.replace(self.temporary, self.target)
        except BaseException:
            self.discard()
            raise
        if self.durable:
            _sync_folder(self.target.parent)

    def discard(self) -> None:
        with contextlib.suppress(OSError, AttributeError):
            self.handle.close()
        if self.temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.temporary)


@contextlib.contextmanager
def replacing(path: Union[str, os.PathLike], binary: bool = False, encoding: str = "utf-8",
              newline: Optional[str] = None, errors: Optional[str] = None) -> Iterator[IO]:
    """A handle to write the new content of `path` into (a `Rewrite`): committed when the block ends without an
    exception, discarded, with `path` untouched and the exception going on, when it does not."""
    rewrite = Rewrite(path, binary, encoding, newline, errors)
    try:
        yield rewrite.handle
    except BaseException:
        rewrite.discard()
        raise
    rewrite.commit()


def replace_file(path: Union[str, os.PathLike], content: Union[str, bytes], encoding: str = "utf-8",
                 newline: Optional[str] = None, errors: Optional[str] = None, follow: bool = True,
                 durable: bool = True) -> None:
    """`path` now holds `content` (text is encoded with `encoding`), or it holds what it held and OSError says
    why not."""
    rewrite = Rewrite(path, isinstance(content, bytes), encoding, newline, errors, follow, durable)
    try:
        rewrite.handle.write(content)
    except BaseException:
        rewrite.discard()
        raise
    rewrite.commit()


def _mode_for(target: Path) -> int:
    """The permissions the new file gets: the old file's, or for a new file what `open` would have given it."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _sync_folder(folder: Path) -> None:
    """The rename itself survives a power cut only once the folder is synced; where a folder cannot be opened
    (Windows) the rename is still atomic, only less durable."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
