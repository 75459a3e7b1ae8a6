"""Reading source files: bytes -> text (refusing binary, non-UTF-8 and oversized files), and where the grammar is.

Also the one safe way every command reads a text file or standard input (`read_bounded`: never more than its limit,
never a device or a pipe) and looks at a path a user gave (`on_disk`), with every OSError worded in one place
(`why_unusable`), so that a name of 300 bytes, a loop of symbolic links or a FIFO is a coded problem wherever it is
given, never a crash, a hang or a MemoryError.

Pipeline place: before parsing. Kept apart from parser.py so that a run served from the cache never imports Lark.
"""

from __future__ import annotations

import errno
import os
import stat
from importlib import resources
from pathlib import Path
from typing import BinaryIO, Optional, Union

import attrs

from .diagnostics import Diagnostics, Span

# what a designer's folder holds that changes the compiled content: card text, and names in other languages
# (compiler/names.py); `check --watch` and the engine's library cache look at both
CONTENT_FILES = ("*.mars", "*.names")


def content_files(folder: Path) -> list[Path]:
    """The card files and names files under `folder`, sorted: what loading a folder of content reads."""
    return sorted(f for pattern in CONTENT_FILES for f in folder.rglob(pattern) if f.is_file())

# Lark parses about 100-300 KB of card text a second, so a file is limited to what checks in a couple of seconds:
# 256 KB holds some 1,500 cards (the largest bundled file is 11 KB). Bigger content goes in several files.
MAX_FILE_BYTES = 256 * 1024


def grammar_path() -> Path:
    return Path(str(resources.files("tharsis.grammar").joinpath("tharsis.lark")))


class NotRegularFile(OSError):
    """A path that names a device, a pipe or a socket: refused before it is opened, since opening a pipe waits for a
    writer and reading a device may never end."""

    def __init__(self, path: str):
        super().__init__(errno.EINVAL, "not a regular file (a device, a pipe or a socket, whose reading might never "
                                       "end)", path)


def read_bounded(source: Union[str, os.PathLike, BinaryIO], limit: int) -> bytes:
    """The bytes of a regular file or of a stream (standard input), but never more than `limit` + 1 of them: more
    than `limit` says the source is too large, without a 4 GB file or an endless pipe ever being read whole. A path
    is looked at before it is opened: a folder raises IsADirectoryError, a device, a pipe or a socket raises
    NotRegularFile (an OSError too); what the system refuses raises its OSError, a path holding a NUL character its
    ValueError (`why_unusable` words them all)."""
    if not isinstance(source, (str, os.PathLike)):
        return source.read(limit + 1)
    _require_regular(os.stat(source).st_mode, source)
    # O_NONBLOCK: had the file been swapped for a pipe since the look, opening it still returns at once
    descriptor = os.open(source, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(descriptor, "rb") as handle:
        _require_regular(os.fstat(descriptor).st_mode, source)
        return handle.read(limit + 1)


def _require_regular(mode: int, path) -> None:
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if not stat.S_ISREG(mode):
        raise NotRegularFile(str(path))


_HINTS = {
    errno.ENAMETOOLONG: "a file or folder name holds at most 255 bytes, a whole path about 4,096",
    errno.ELOOP: "a symbolic link on the way leads back to itself, or too many links follow one another",
    errno.EACCES: "you may not read it, or one of the folders above it: check the permissions",
    errno.EPERM: "you may not read it, or one of the folders above it: check the permissions",
    errno.ENOTDIR: "a part of the path that should be a folder is a file",
}


def why_unusable(error: Exception) -> tuple[str, Optional[str]]:
    """Why a path cannot be used, in words, and what to do about it (or None): every OSError, and the ValueError of a
    path the system cannot take (a NUL character, an unencodable character), is worded here, so that each command
    says it alike under its own code."""
    if isinstance(error, NotRegularFile):
        return error.strerror, "only files and folders are read"
    if isinstance(error, UnicodeError):
        return "the path holds characters the file system cannot store", "rename it with plain characters"
    if isinstance(error, ValueError):
        return "the path holds a NUL character (\\0), which no path can hold", None
    if isinstance(error, OSError):
        return error.strerror or str(error) or type(error).__name__, _HINTS.get(error.errno)
    return str(error) or type(error).__name__, None


@attrs.frozen
class OnDisk:
    """What a path names: `kind` is "file" (a regular file), "folder", "other" (a device, a pipe, a socket),
    "missing", or "unusable" (the system refuses to look: `reason` and `hint` say why)."""

    kind: str
    reason: str = ""
    hint: Optional[str] = None
    size: int = 0            # of a file, in bytes


def on_disk(path: Union[str, os.PathLike]) -> OnDisk:
    """Look at `path` (following symbolic links) without ever raising: the one check of the paths users give."""
    try:
        status = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return OnDisk("missing")
    except (OSError, ValueError) as exc:
        reason, hint = why_unusable(exc)
        return OnDisk("unusable", reason, hint)
    if stat.S_ISREG(status.st_mode):
        return OnDisk("file", size=status.st_size)
    return OnDisk("folder" if stat.S_ISDIR(status.st_mode) else "other")


def decode(path: str, data: bytes, diagnostics: Diagnostics) -> str | None:
    """Bytes -> text, refusing what is not a card file: too large, binary, or not UTF-8. `data` may be cut at
    MAX_FILE_BYTES + 1 (`read_bounded`): its size then only says that it is too large."""
    if len(data) > MAX_FILE_BYTES:
        size = f"{_size(len(data))}" if len(data) > MAX_FILE_BYTES + 1 else f"more than {_size(MAX_FILE_BYTES)}"
        diagnostics.error("E004", f"file is too large ({size}); a card file may hold at most "
                                  f"{_size(MAX_FILE_BYTES)}", Span(path, 1, 1, 1, 2),
                          "split the content into several files (a folder of them checks and plays as one)")
        return None
    if b"\x00" in data:
        offset = data.index(b"\x00")
        line, column = _byte_position(data, offset)
        diagnostics.error("E005", "file looks binary (it contains a NUL byte); card files are UTF-8 text",
                          Span.point(path, line, column))
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line, column = _byte_position(data, exc.start)
        diagnostics.error("E005", f"file is not valid UTF-8 (byte 0x{data[exc.start]:02x})",
                          Span.point(path, line, column), "save the file as UTF-8")
        return None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _size(count: int) -> str:
    return f"{count / 1024:.0f} KB" if count < 1024 * 1024 else f"{count / (1024 * 1024):.1f} MB"


def _byte_position(data: bytes, offset: int) -> tuple[int, int]:
    """(line, column) of a byte offset; the column counts characters, like every other diagnostic's."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    prefix = data[line_start:offset]
    if line_start == 0 and prefix.startswith(b"\xef\xbb\xbf"):
        prefix = prefix[3:]  # the byte order mark is not a character of the line
    return data.count(b"\n", 0, offset) + 1, len(prefix.decode("utf-8", errors="replace")) + 1
