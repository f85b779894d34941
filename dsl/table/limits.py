"""What one client may hold of the table server, and for how long: open descriptors, unjoined
sockets, half-sent request heads and bodies, idle keep-alive connections. A client that takes
more is cut off; the seats that play on are not kept waiting by it.

The HTTP and websocket protocols are uvicorn's own with two additions: a request head must
arrive whole within `head_seconds` (uvicorn waits for it forever), and a socket's handler may
abort its transport (a page that stopped reading cannot even be sent a close frame).

May import: uvicorn, the standard library.
"""
from __future__ import annotations

import logging
import resource
import time
from dataclasses import dataclass

from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

# descriptors kept for what is not a connection: replay files being written, static files and
# the font being read, the log, the listening socket
RESERVED_FILES = 64
ABORT = "playtest.abort"        # the scope extension a socket's handler aborts its transport with


@dataclass
class Limits:
    """The table server's bounds. `for_descriptors` fits the connection caps under the
    process's descriptor limit, so the server refuses a connection before the system does."""
    connections: int = 960          # open HTTP and websocket connections (uvicorn's limit_concurrency)
    sockets: int = 900              # open websockets, joined or not
    unjoined: int = 64              # websockets that have not joined a seat yet
    per_token: int = 8              # pages open on one link at once
    join_seconds: float = 10.0      # a socket that has not joined by then is closed
    head_seconds: float = 10.0      # a request head not whole by then: the connection is closed
    body_seconds: float = 10.0      # a request body not whole by then is refused
    keep_alive_seconds: int = 5     # an idle keep-alive HTTP connection is closed after this
    send_seconds: float = 10.0      # a page that takes longer to take one message is dropped
    queued: int = 16                # messages waiting for one page before it is dropped
    playing: int = 100              # unfinished games the lobby holds
    idle_seconds: float = 3600.0    # an unfinished game idle this long may make way for a new one

    @classmethod
    def for_descriptors(cls, **kw) -> "Limits":
        files = raise_descriptor_limit()
        connections = max(32, min(cls.connections, files - RESERVED_FILES))
        sockets = max(16, connections - 32)     # plain page loads get through even when every socket is taken
        return cls(connections=connections, sockets=sockets, unjoined=max(8, min(cls.unjoined, sockets // 8)), **kw)


def raise_descriptor_limit() -> int:
    """The soft descriptor limit raised to the hard one (a default of 1,024 is a few hundred pages)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass
    return soft if soft != resource.RLIM_INFINITY else 65536


class HeadTimed(H11Protocol):
    """uvicorn's HTTP/1.1 with a deadline on each request head: a client that opens a connection
    and sends half a request holds a descriptor, and nothing else would ever close it."""
    head_seconds = 10.0

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._head_timer = None
        if self.limit_concurrency is not None and len(self.connections) > self.limit_concurrency:
            # past the cap the connection goes at once: descriptors stay short of the process's
            # limit, where every accept fails (and asyncio retries it in a tight loop)
            transport.abort()
            return
        self._arm()

    def _arm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        waiting_on = self.cycle
        self._head_timer = self.loop.call_later(self.head_seconds, self._too_slow, waiting_on)

    def _too_slow(self, waiting_on) -> None:
        self._head_timer = None
        if self.cycle is waiting_on and not self.transport.is_closing():
            self.transport.abort()

    def on_response_complete(self) -> None:
        # armed first: a pipelined request taken up below has its head whole already
        self._arm()                 # the next request's head has the same time to arrive
        super().on_response_complete()

    def handle_websocket_upgrade(self, event) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        super().connection_lost(exc)


class Abortable(WebSocketsSansIOProtocol):
    """uvicorn's websocket, its transport's abort handed to the app in the scope."""

    def handle_connect(self, event) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][ABORT] = {"abort": self.transport.abort}


def uvicorn_config(app, limits: Limits, max_ws_bytes: int):
    import uvicorn
    http = type("HeadTimedHTTP", (HeadTimed,), {"head_seconds": limits.head_seconds})
    return uvicorn.Config(app, log_level="warning", ws_max_size=max_ws_bytes, lifespan="off", http=http,
                          ws=Abortable, limit_concurrency=limits.connections, backlog=64,
                          timeout_keep_alive=limits.keep_alive_seconds)


class OncePerWhile(logging.Filter):
    """The same complaint (an accept that found no descriptor free, one client's error repeated)
    logged once per `seconds`, with how many were held back: a flood of one line says nothing
    more than the line, and fills the disk."""

    def __init__(self, seconds: float = 10.0, clock=time.monotonic):
        super().__init__()
        self.seconds, self.clock = seconds, clock
        self.last: dict = {}        # (logger, message template) -> (when last let through, held back since)

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg)[:200])
        now = self.clock()
        when, held = self.last.get(key, (None, 0))
        if when is not None and now - when < self.seconds:
            self.last[key] = (when, held + 1)
            return False
        if len(self.last) > 1000:       # complaints of many kinds: start counting afresh
            self.last.clear()
        self.last[key] = (now, 0)
        if held:
            record.msg = f"{record.msg} ({held} more like it in the last {now - when:.0f} s not logged)"
        return True


def quiet_repeats(seconds: float = 10.0) -> OncePerWhile:
    f = OncePerWhile(seconds)
    for name in ("asyncio", "uvicorn.error"):
        logging.getLogger(name).addFilter(f)
    return f
