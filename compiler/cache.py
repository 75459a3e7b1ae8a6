"""On-disk cache of compiled files, so re-checking unchanged content skips parsing.

Entries are named by a SHA-256 of (declared vocabulary, path, file text) under a folder that also names the
compiler version; a new version or an edited grammar starts a fresh folder. The cache may only ever make things
faster, never wrong, so it trusts nothing it reads from that folder:

- Whoever can write the folder must not run code in a later `tharsis` process (a shared CI cache, a folder named
  by THARSIS_CACHE_DIR that others may write). Each entry carries an HMAC-SHA256 made with a random per-user key
  that lives outside the cache folder (`cache-key` in the user's configuration folder, created 0600; `key_path`),
  and its bytes are unpickled only after that HMAC checks out. A key that others could have written or read (not
  a regular file, not the user's own, any permission for group or others) turns the cache off rather than being
  trusted, and says so once on standard error; an empty key (cut as it was made) is replaced.
- The folder of entries must be a real folder of the user's own: a symbolic link planted under its name (or a
  folder another user made there) turns the cache off, said once, so no entry is written or read through it.
- An entry must be for the text being compiled: the signed bytes hold the entry's own key (the hash of the
  vocabulary, path and text) and the folder's name, so an entry renamed to another key or copied from another
  compiler version is a miss.
- As a second wall, should the key ever leak, the unpickler builds nothing but the compiler's own data classes
  (attrs classes and enums of this package): no function is ever called by name.

A missing, corrupted, truncated, foreign or unverifiable entry is a miss: the file is compiled again and the
entry written anew. Any failure to read or write the cache is ignored.
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import io
import os
import pickle
import re
import secrets
import stat
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

import attrs

from tharsis import __version__

from .writing import replace_file

_MAGIC = b"tharsis compiled file, signed, v1\n"
_TAG_SIZE = hashlib.sha256().digest_size
_KEY_SIZE = 32
_ENTRY_KEY = re.compile(r"[0-9a-f]{64}")
_MAX_ENTRY = 64 * 1024 * 1024  # a 256 KB card file compiles to well under this; a planted giant is a miss
_PACKAGE = __name__.rpartition(".")[0]
# Reading never follows a final symbolic link nor waits on a named pipe planted under an entry's name.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


@lru_cache(maxsize=1)
def folder() -> Path:
    base = os.environ.get("THARSIS_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "tharsis")
    return Path(base) / f"compiled-{__version__}-{_code_fingerprint()}"


def key_path() -> Path:
    """Where the signing key lives: the user's configuration folder, never the cache folder (whoever may write
    the cache must not be able to write or read the key)."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "tharsis" / "cache-key"


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
    """The compiled file stored under `key`, or None (a miss) unless the entry is one this user signed for
    exactly this key."""
    if not enabled() or not _ENTRY_KEY.fullmatch(key):
        return None
    try:
        secret = _secret(str(key_path()))
        if secret is None:
            return None
        target = folder()
        if not _own_folder(target):
            return None
        data = _read_regular_file(target / key, _MAX_ENTRY)
        header = len(_MAGIC) + _TAG_SIZE + len(key)
        if data is None or len(data) <= header or not data.startswith(_MAGIC):
            return None
        tag, body = data[len(_MAGIC):len(_MAGIC) + _TAG_SIZE], data[len(_MAGIC) + _TAG_SIZE:]
        if not hmac.compare_digest(tag, _sign(secret, target.name, body)):
            return None
        if body[:len(key)] != key.encode("ascii"):  # signed for another text
            return None
        value = _DataUnpickler(io.BytesIO(body[len(key):])).load()
    except Exception:  # whatever went wrong, the entry is a miss
        return None
    return value if _well_formed(value) else None


def store(key: str, value) -> None:
    if not enabled() or not _ENTRY_KEY.fullmatch(key):
        return
    try:
        secret = _secret(str(key_path()))
        if secret is None:
            return
        body = key.encode("ascii") + pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        target = folder()
        if len(_MAGIC) + _TAG_SIZE + len(body) > _MAX_ENTRY:
            return
        target.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _own_folder(target):
            return
        replace_file(target / key, _MAGIC + _sign(secret, target.name, body) + body, follow=False, durable=False)
    except Exception:  # a cache that cannot be written only costs time
        pass


def _sign(secret: bytes, folder_name: str, body: bytes) -> bytes:
    return hmac.new(secret, _MAGIC + folder_name.encode("utf-8") + b"\0" + body, hashlib.sha256).digest()


def _well_formed(value) -> bool:
    """What pipeline.py stores: (definitions, diagnostics, definitions with syntax errors)."""
    return isinstance(value, tuple) and len(value) == 3 and all(isinstance(part, list) for part in value)


class _DataUnpickler(pickle.Unpickler):
    """Builds only the compiler's attrs classes and enums; any other global (a function, `os.system`, a class of
    another package) is refused, so even a forged entry could not call anything but those constructors."""

    def find_class(self, module: str, name: str):
        if (module == _PACKAGE or module.startswith(_PACKAGE + ".")) and name.isidentifier():
            found = getattr(sys.modules.get(module), name, None)  # never imports: only what is loaded already
            if isinstance(found, type) and (attrs.has(found) or issubclass(found, enum.Enum)):
                return found
        raise pickle.UnpicklingError(f"not compiled data: {module}.{name}")


def _own_folder(target: Path) -> bool:
    """Whether the cache folder is a real folder of this user's: a symbolic link planted under its name (or a
    folder someone else made there) would have the entries written, and read, wherever its maker chose. Checked
    without following a link; anything else turns the cache off for this process, said once."""
    try:
        info = os.lstat(target)
    except OSError:
        return False
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        _off(f"its folder {target} is a symbolic link or not a folder")
        return False
    if os.name == "posix" and info.st_uid != os.geteuid():
        _off(f"its folder {target} belongs to another user")
        return False
    return True


@lru_cache(maxsize=None)
def _off(reason: str) -> None:
    """Say once per process why the cache is off: it only costs time, but a user should know it is off."""
    print(f"tharsis: the compile cache is off: {reason}", file=sys.stderr)


@lru_cache(maxsize=4)
def _secret(path: str) -> bytes | None:
    """The user's signing key at `path`, created on first use (and again if the file is empty: a key cut when
    it was made); None when it cannot be made or trusted, which turns the cache off for this process, said once."""
    try:
        secret, distrust = _read_key(path)
        if secret is None and distrust == "empty":
            os.unlink(path)
        if secret is None and not os.path.lexists(path):
            _create_key(Path(path))
            secret, distrust = _read_key(path)
        if secret is None and distrust:
            _off(f"its key {path} {distrust} (remove the file: a new one is made)")
        return secret
    except OSError:
        return None


def _create_key(path: Path) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".cache-key-")  # 0600
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(secrets.token_bytes(_KEY_SIZE))
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(temporary, path)  # appears complete and never replaces a key another process just made
        except FileExistsError:
            pass
        except OSError:  # a file system without hard links
            if not os.path.lexists(path):
                os.replace(temporary, path)
    finally:
        if os.path.lexists(temporary):
            os.unlink(temporary)


def _read_key(path: str) -> tuple[bytes | None, str]:
    """(the key, "") or (None, why it is not trusted: "" when there is none)."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        return None, ""
    except OSError:
        return None, "cannot be opened (a symbolic link, or no permission)"
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            return None, "is not a regular file"
        if os.name == "posix" and info.st_uid != os.geteuid():
            return None, "belongs to another user"   # who could sign entries this user's processes would run
        if os.name == "posix" and info.st_mode & 0o077:
            return None, "may be read or written by others"
        secret = handle.read(_KEY_SIZE + 1)
    if not secret:
        return None, "empty"
    return (secret, "") if len(secret) == _KEY_SIZE else (None, f"is not a key of {_KEY_SIZE} bytes")


def _read_regular_file(path: Path, limit: int) -> bytes | None:
    """The bytes of `path` if it is a regular file (not a symbolic link, a named pipe that would block, a device)
    of at most `limit` bytes."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        data = handle.read(limit + 1)
    return data if len(data) <= limit else None
