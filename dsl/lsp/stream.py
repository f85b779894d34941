"""The server's input, guarded: whole LSP messages out of whatever bytes arrive.

pygls reads a header line, then exactly Content-Length bytes, and trusts both: one header
announcing 100 GB is a MemoryError, a body shorter than its header swallows the next
message so that the stream never frames again, a line without an end is read whole, and a
request whose parameters do not fit the protocol's types (a position at line -5) is
dropped without an answer. `GuardedInput` stands in front and hands pygls only whole
messages of at most MAX_MESSAGE_BYTES whose JSON parses. It finds the next header after
garbage (the bytes `Content-Length: N` and a line end never occur inside valid JSON, so a
header seen inside a body means that body was cut short), and turns a request it cannot
pass on into a `playtest/refused` request, which the server answers with an error under
the request's own id: every request gets an answer, from the thread that answers the rest.
A notification whose parameters do not fit is dropped, and so is a refusal without an id to
answer under; only these leave a line on stderr (the editor's log of the server).

Imports only the standard library; server.py gives it the protocol's `structure_message`.
"""
from __future__ import annotations

import json
import os
import re
import sys
from typing import Callable, Optional

MAX_MESSAGE_BYTES = 32 * 2**20  # one message carries one document: a rule file is at most 4 MB of UTF-8,
                                # 24 MB as JSON escapes of characters outside the BMP
MAX_HEADERS_BYTES = 8192        # the header lines of one message
REFUSED = "playtest/refused"    # the method a request the server cannot read becomes
INVALID_REQUEST, INVALID_PARAMS, PARSE_ERROR = -32600, -32602, -32700

_HEADER = re.compile(rb"Content-Length:[ \t]*(\d{1,19})[ \t]*\r?\n", re.IGNORECASE)
_END_OF_HEADERS = re.compile(rb"\r?\n\r?\n")
_ID = re.compile(rb'"id"\s*:\s*(-?\d{1,18}|"(?:[^"\\\r\n]|\\.){0,200}")')
_OVERLAP = 64                   # bytes kept when garbage is dropped: a header may begin in them


def sniffed_id(head: bytes):
    """The id of a request that could not be read whole, if its first bytes show one."""
    m = _ID.search(head[:4096])
    if not m:
        return None
    try:
        return json.loads(m.group(1))
    except ValueError:
        return None


class Frames:
    """Message bodies from a file descriptor; garbage, oversized and cut bodies are reported to
    `refuse(id or None, code, message)` and skipped."""

    def __init__(self, fd: int, refuse: Callable, limit: int = MAX_MESSAGE_BYTES):
        self.fd, self.refuse, self.limit = fd, refuse, limit
        self.buf = bytearray()
        self.eof = False

    def _fill(self) -> bool:
        if self.eof:
            return False
        data = os.read(self.fd, 1 << 16)
        if not data:
            self.eof = True
            return False
        self.buf += data
        return True

    def _header(self) -> Optional[int]:
        """Drop everything before the next complete header block; its Content-Length, or None at
        the end of the input."""
        scanned = 0
        while True:
            m = _HEADER.search(self.buf, scanned)
            if m is None:
                scanned = max(0, len(self.buf) - _OVERLAP)
                if scanned > _OVERLAP:          # garbage: only a tail that may begin a header is kept
                    del self.buf[:scanned]
                    scanned = 0
                if not self._fill():
                    return None
                continue
            end = _END_OF_HEADERS.search(self.buf, m.end() - 2)
            if end is not None and _HEADER.search(self.buf, m.end(), end.end()) is not None:
                scanned = m.end()               # a header without its blank line, then another
                continue
            if end is None:
                if len(self.buf) - m.start() > MAX_HEADERS_BYTES:
                    scanned = m.end()           # headers that never end: look past this one
                    continue
                if not self._fill():
                    return None
                continue
            length = int(m.group(1))      # read before the buffer the match looks into changes
            del self.buf[:end.end()]
            return length

    def _skip(self, length: int) -> bytes:
        """Read past a body too large to hold, in chunks; its first bytes (to find its id)."""
        head = bytes(self.buf[:4096])
        while len(self.buf) < length:
            cut = _HEADER.search(self.buf)
            if cut is not None:                 # the announced length was a lie: the next message is here
                del self.buf[:cut.start()]
                return head
            drop = max(0, len(self.buf) - _OVERLAP)
            del self.buf[:drop]
            length -= drop
            if not self._fill():
                return head
        cut = _HEADER.search(self.buf, 0, length)
        del self.buf[:cut.start() if cut is not None else length]
        return head

    def give_back(self, body: bytes) -> None:
        """Bytes taken as a body that was not one: a header may begin inside them."""
        self.buf[:0] = body

    def next(self) -> Optional[bytes]:
        """The next body that arrived whole; None at the end of the input."""
        while True:
            length = self._header()
            if length is None:
                return None
            if length > self.limit:
                head = self._skip(length)
                self.refuse(sniffed_id(head), INVALID_REQUEST,
                            f"the message is {length:,} bytes, more than the {self.limit:,} the server reads")
                continue
            scanned = 0
            while len(self.buf) < length:
                cut = _HEADER.search(self.buf, scanned, length)
                if cut is not None:             # a header inside the body: the body was cut short
                    self.refuse(sniffed_id(bytes(self.buf[:cut.start()])), INVALID_REQUEST,
                                "the message ended before its Content-Length")
                    del self.buf[:cut.start()]
                    break
                scanned = max(0, len(self.buf) - _OVERLAP)
                if not self._fill():
                    return None
            else:
                body = bytes(self.buf[:length])
                del self.buf[:length]
                if _HEADER.search(body) is None:
                    return body
                # a header inside what was announced: give the bytes back, the next header is there
                self.refuse(sniffed_id(body), INVALID_REQUEST, "the message ended before its Content-Length")
                self.buf[:0] = body[_HEADER.search(body).start():]


class GuardedInput:
    """What pygls reads (readline, read) made of whole, parsed messages only."""

    def __init__(self, fd: int, structure: Callable[[dict], object]):
        self.structure = structure
        self.refused: list = []             # (id, code, message) to answer before the next message
        self.frames = Frames(fd, lambda *r: self.refused.append(r))
        self.pending = b""

    def _accepted(self, body: bytes) -> Optional[bytes]:
        """The body, if pygls can read it; else None, with the refusal queued."""
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):
            self.refused.append((sniffed_id(body), PARSE_ERROR, "the message is not JSON"))
            self.frames.give_back(body)     # its header lied about its length: the next one may be inside
            return None
        if not isinstance(data, dict):
            return None                     # not a message: nothing to answer
        if "method" in data and "jsonrpc" in data:
            try:
                self.structure(data)
            except Exception as e:          # whatever the types refuse, a request is answered, a notification dropped
                self.refused.append((data.get("id"), INVALID_PARAMS, f"invalid parameters for {_short(data['method'])}: "
                                     + _short("; ".join(_leaves(e.__cause__ or e)), 300)))
                return None
        return body

    def _message(self) -> Optional[bytes]:
        while True:
            while self.refused:
                msg_id, code, message = self.refused.pop(0)
                if isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool):
                    return json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": REFUSED,
                                       "params": {"code": code, "message": message}}).encode()
                # no id to answer under: the editor's log of the server is the only place to say it
                print(f"playtest lsp: {message}", file=sys.stderr)
            body = self.frames.next()
            if body is None:
                return None
            body = self._accepted(body)
            if body is not None:
                return body

    def readline(self) -> bytes:
        if not self.pending:
            body = self._message()
            if body is None:
                return b""
            self.pending = b"Content-Length: %d\r\n\r\n" % len(body) + body
        at = self.pending.index(b"\n") + 1
        line, self.pending = self.pending[:at], self.pending[at:]
        return line

    def read(self, n: int) -> bytes:
        out, self.pending = self.pending[:n], self.pending[n:]
        return out


def _leaves(e: BaseException) -> list[str]:
    """What a validation error says at its leaves (cattrs nests them in exception groups)."""
    inner = getattr(e, "exceptions", None)
    if not inner:
        return [str(e)]
    return [text for sub in inner for text in _leaves(sub)]


def _short(v, n: int = 60) -> str:
    text = str(v)
    return text if len(text) <= n else text[: n - 3] + "..."
