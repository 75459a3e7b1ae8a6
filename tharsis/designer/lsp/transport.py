"""The Language Server Protocol on stdio: frames read within bounds, whole messages handed to pygls, the lifecycle.

pygls's own stdio loop trusts its input: a frame without `Content-Length` (or with `abc`, `-5`, or a body shorter
or longer than announced) leaves it reading bodies as headers, silent forever while the editor waits; a
`Content-Length` of 5,000 digits is an exception that ends the process; `exit` without `shutdown` exits with 0;
requests after `shutdown` are dropped unanswered. pygls has no setting for any of this, so this module replaces
that loop and gives pygls's protocol only parsed JSON-RPC messages (`structure_message`, then `handle_message`,
as its own loop does):

- Framing. A header line holds at most 1 KB, a header at most 32 fields; `Content-Length` is a decimal number
  of bytes up to 32 MiB; each byte is checked as it arrives, so what cannot begin a header field is refused at
  once rather than when a line end comes. A frame that breaks these rules cannot be skipped, since where the next
  message begins is unknown, and resynchronising on a guess could run half of a message: the server says why on
  stderr (E722) and exits with 1, and the editor starts a new one (VS Code, Neovim and Helix restart a server
  that exits). The same when the input ends inside a message, or stops inside one for `STALL` seconds (a body
  shorter than announced, with nothing after it).
- A well-framed body that is not JSON, or not a JSON-RPC message, is answered with the JSON-RPC error (-32700
  parse error, -32600 invalid request; id null when it cannot be read) and the session goes on: the frames are
  intact.
- The lifecycle as the specification says: after `shutdown` a request is answered InvalidRequest and a
  notification is dropped; `exit` ends the session with 0 after `shutdown` and 1 without; so does the end of the
  input (the editor went away).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import threading
import time
from typing import BinaryIO, Optional

from pygls.exceptions import JsonRpcException
from pygls.io_ import StdoutWriter

MAX_HEADER_LINE = 1024      # bytes in one header line
MAX_HEADER_FIELDS = 32
MAX_BODY = 32 * 2**20       # bytes in one message: a card file is at most 256 KB, about 1.5 MB once JSON-escaped
STALL = 10.0                # seconds without a byte inside a begun message before the framing counts as broken
READ_AHEAD = 2              # messages read before the session has handled the earlier ones
PARSE_ERROR, INVALID_REQUEST, INTERNAL_ERROR = -32700, -32600, -32603

_TOKEN = rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]"   # a header field's name (RFC 7230)
_FIELD = re.compile(_TOKEN + rb"+:[\t\x20-\x7e]*")
_BEGINNING = re.compile(rb"(?:" + _TOKEN + rb"+(?::[\t\x20-\x7e]*)?)?\r?")  # what a header line may begin with

logger = logging.getLogger(__name__)


class FramingError(Exception):
    """The input is not a stream of LSP frames; the message says where it broke."""


class FrameReader:
    """The bodies of the frames of a byte stream, one at a time, each checked against the limits above."""

    def __init__(self, stream: BinaryIO):
        self._read = _reader(stream)
        self._buffer = bytearray()
        self.waiting_since: Optional[float] = None            # when a wait for the rest of a begun message began

    def read(self) -> Optional[bytes]:
        """The next message's body; None when the input ends between messages."""
        length = self._header()
        if length is None:
            return None
        while len(self._buffer) < length:
            if not self._fill(inside=True):
                raise FramingError(f"the input ended inside a message: {length} bytes announced, "
                                   f"{len(self._buffer)} sent")
        body = bytes(self._buffer[:length])
        del self._buffer[:length]
        return body

    def _header(self) -> Optional[int]:
        length, fields = None, 0
        while True:
            line = self._line(begun=fields > 0)
            if line is None:
                return None
            if not line:
                if length is None:
                    raise FramingError("a message without a Content-Length header")
                return length
            fields += 1
            if fields > MAX_HEADER_FIELDS:
                raise FramingError(f"a header of more than {MAX_HEADER_FIELDS} fields")
            if not _FIELD.fullmatch(line):
                raise FramingError(f"not a header field (Name: value): {_excerpt(line)}")
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                if length is not None:
                    raise FramingError("a message with two Content-Length headers")
                length = _length(value.strip(b" \t"))

    def _line(self, begun: bool) -> Optional[bytes]:
        """The next header line without its line end (CR LF, or LF alone); None at the end of the input before a
        message begins."""
        searched = 0
        while True:
            end = self._buffer.find(b"\n", searched)
            if end >= 0:
                if end > MAX_HEADER_LINE:
                    raise FramingError(f"a header line longer than {MAX_HEADER_LINE} bytes")
                line = bytes(self._buffer[:end])
                del self._buffer[:end + 1]
                return line[:-1] if line.endswith(b"\r") else line
            searched = len(self._buffer)
            if searched > MAX_HEADER_LINE:
                raise FramingError(f"a header line longer than {MAX_HEADER_LINE} bytes")
            if not _BEGINNING.fullmatch(self._buffer):
                raise FramingError(f"not a header field (Name: value): {_excerpt(bytes(self._buffer))}")
            if not self._fill(inside=begun or searched > 0):
                if begun or searched:
                    raise FramingError("the input ended inside a message's header")
                return None

    def _fill(self, inside: bool) -> bool:
        """Wait for more bytes; False at the end of the input."""
        self.waiting_since = time.monotonic() if inside else None
        try:
            chunk = self._read(65536)
        finally:
            self.waiting_since = None
        self._buffer += chunk
        return bool(chunk)


def _reader(stream: BinaryIO):
    """What reads whatever bytes have arrived (so they are checked early) from `stream`: os.read on its file
    descriptor, which takes no lock (a thread blocked in a buffered stream's read holds its lock, and the
    interpreter's exit then aborts on it); read1 for a stream without one."""
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return getattr(stream, "read1", stream.read)
    return lambda size: os.read(descriptor, size)


def _length(value: bytes) -> int:
    if not value.isdigit():
        raise FramingError(f"Content-Length is not a number of bytes: {_excerpt(value)}")
    if len(value.lstrip(b"0")) > 18:  # never int() thousands of digits: Python refuses them
        raise FramingError(f"a Content-Length of {len(value):,} digits, over the limit of {MAX_BODY:,} bytes")
    if int(value) > MAX_BODY:
        raise FramingError(f"a message of {int(value):,} bytes, over the limit of {MAX_BODY:,} bytes")
    return int(value)


def _excerpt(data: bytes) -> str:
    shown = data[:80].decode("ascii", "backslashreplace")
    return repr(shown) + ("..." if len(data) > 80 else "")


def frame(message: dict) -> bytes:
    """A message as the protocol sends it: its header, then its JSON (ASCII, so characters are bytes)."""
    body = json.dumps(message).encode("ascii")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


# ------------------------------------------------------------------ the session

class Session:
    """One editor's session with pygls's protocol: what pygls would drop or answer wrongly is answered here."""

    def __init__(self, protocol, writer):
        self.protocol = protocol
        self.writer = writer
        self.shut_down = False

    def receive(self, body: bytes) -> Optional[int]:
        """Handle one message's body; the exit code when it ends the session (`exit`), else None."""
        try:
            data = json.loads(body.decode("utf-8"), parse_constant=_not_json)
        except (ValueError, RecursionError) as exc:  # not UTF-8, not JSON, nested too deep, 5,000-digit numbers
            return self._refuse(None, PARSE_ERROR, f"a message that is not JSON: {exc}")
        if not isinstance(data, dict) or data.get("jsonrpc") != "2.0":
            return self._refuse(None, INVALID_REQUEST, 'not a JSON-RPC 2.0 message (an object with "jsonrpc": "2.0")')
        message_id, method = data.get("id"), data.get("method")
        if not _is_id(message_id):
            return self._refuse(None, INVALID_REQUEST, "a message id that is not a string or an integer")
        if method is not None and not isinstance(method, str):
            return self._refuse(message_id, INVALID_REQUEST, "a method that is not a string")
        request = "id" in data and method is not None
        if method == "exit":
            return 0 if self.shut_down else 1
        if self.shut_down:
            if request:
                self._refuse(message_id, INVALID_REQUEST, f"{method}: the server is shut down, only exit is accepted")
            return None
        try:
            message = self.protocol.structure_message(data)
        except JsonRpcException as exc:  # params of the wrong shape for the method
            error = exc.to_response_error()
            if request:
                return self._refuse(message_id, error.code, f"{method}: {error.message}")
            logger.warning("%s: %s (ignored)", method, error.message)
            return None
        try:
            self.protocol.handle_message(message)
        except Exception as exc:  # pygls answers its handlers' failures itself; this is its own
            logger.exception("%s: could not be handled", method)
            if request:
                return self._refuse(message_id, INTERNAL_ERROR, f"{method}: {type(exc).__name__}: {exc}")
        if request and method == "shutdown":
            self.shut_down = True
        return None

    def _refuse(self, message_id, code: int, message: str) -> None:
        logger.warning("%s (answered with error %d)", message, code)
        self.writer.write(frame({"jsonrpc": "2.0", "id": message_id, "error": {"code": code, "message": message}}))
        return None


def _not_json(constant: str):
    raise ValueError(f"{constant} is not a JSON value")


def _is_id(value) -> bool:
    return value is None or isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


# ------------------------------------------------------------------ the loop

def serve(server, stdin: BinaryIO, stdout: BinaryIO, stall: float = STALL) -> int:
    """Speak LSP with pygls's `server` on the two streams until `exit` or the end of the input; the exit code.
    FramingError when the input breaks the framing."""
    writer = StdoutWriter(stdout)
    server.protocol.set_writer(writer)
    try:
        return asyncio.run(_run(FrameReader(stdin), Session(server.protocol, writer), stall))
    finally:
        server.shutdown()


async def _run(reader: FrameReader, session: Session, stall: float) -> int:
    """Messages are read on a thread of their own (a daemon: a read blocked on the input never holds up the
    process's exit) and handled here in order, on the event loop that also runs the server's timers; a watchdog
    ends the session when a begun message stalls."""
    loop = asyncio.get_running_loop()
    inbox: asyncio.Queue = asyncio.Queue()
    wanted = threading.Semaphore(READ_AHEAD)
    over = threading.Event()

    def deliver(item) -> None:
        try:
            loop.call_soon_threadsafe(inbox.put_nowait, item)
        except RuntimeError:  # the loop has closed: the session is over
            pass

    def read_messages() -> None:
        try:
            while True:
                wanted.acquire()
                if over.is_set():
                    return
                body = reader.read()
                deliver(body)
                if body is None:
                    return
        except Exception as exc:  # FramingError, or the input failing (OSError): ends the session with it
            deliver(exc)

    async def watch() -> None:
        while True:
            await asyncio.sleep(min(1.0, stall / 4))
            since = reader.waiting_since
            if since is not None and time.monotonic() - since > stall:
                inbox.put_nowait(FramingError(f"the input stopped inside a message: nothing more for {stall:g} s "
                                              "(a Content-Length larger than the message?)"))
                return

    threading.Thread(target=read_messages, name="tharsis-lsp-input", daemon=True).start()
    watchdog = asyncio.create_task(watch())
    try:
        while True:
            item = await inbox.get()
            wanted.release()
            if item is None:
                return 0 if session.shut_down else 1
            if isinstance(item, Exception):
                raise item
            code = session.receive(item)
            if code is not None:
                return code
    finally:  # a reader waiting for its turn stops; one blocked on the input stops when the input ends
        watchdog.cancel()
        over.set()
        wanted.release()
