"""What one client may take of a real table server (uvicorn on loopback, in a thread, with the
protocols and limits `playtest serve` runs with): a page that stops reading is dropped and
holds up no other seat; a socket that never joins, a half-sent request head and a body past
4 KB are cut off without waiting for the rest; the lobby holds a bounded number of unfinished
games. The bounds in seconds are generous: they say 'not blocked forever', they time nothing."""
from __future__ import annotations

import json
import logging
import socket
import threading
import time
from contextlib import contextmanager

import pytest
import uvicorn
from starlette.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from dsl.table import Table
from dsl.table.limits import Limits, OncePerWhile, uvicorn_config
from dsl.table.server import Host

from _util import BLUFF, rules_of

BOUND = 10.0        # seconds: far past any move's time on a loaded machine, far short of forever


def table_of(seats, seed=5, path=None) -> Table:
    t = Table(rules_of(str(BLUFF)), len(seats), seats, seed, path)
    t.advance()
    return t


@contextmanager
def loopback(host: Host):
    """The host's app served by uvicorn on 127.0.0.1, as `playtest serve` serves it."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    server = uvicorn.Server(uvicorn_config(host.app(), host.limits, 2 ** 20))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + BOUND
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(BOUND)


def joined(port, room, seat, **kw):
    ws = connect(f"ws://127.0.0.1:{port}/ws/{room.id}", open_timeout=BOUND, **kw)
    ws.send(json.dumps({"type": "join", "token": room.token_of(seat)}))
    msg = json.loads(ws.recv(timeout=BOUND))
    assert msg["type"] == "view", msg
    return ws, msg


def test_a_page_that_stops_reading_is_dropped_and_holds_up_no_other_seat():
    table = table_of(["human", "human", "random"])
    host = Host(None, "en", limits=Limits(send_seconds=2.0))
    room = host.add(table)
    with loopback(host) as port:
        p1, v1 = joined(port, room, 0)
        p2, v2 = joined(port, room, 1)
        # the designer's page on a socket that never reads a byte, asking for view after view
        slow = NeverReads(port, f"/ws/{room.id}")
        slow.send({"type": "join", "token": room.token_of(None)})
        asked = threading.Event()

        def ask():
            try:
                for k in range(2000):       # ~12 MB of views: past every buffer between the two
                    slow.send({"type": "lang", "lang": "ja" if k % 2 else "en"})
            except OSError:
                pass
            asked.set()

        threading.Thread(target=ask, daemon=True).start()
        asked.wait(BOUND * 3)
        views = {0: v1, 1: v2}
        socks = {0: p1, 1: p2}
        moves = 0
        while moves < 6 and not views[0]["view"]["ended"]:
            seat = next(s for s, v in views.items() if v["view"]["turn"]["waiting_for_you"])
            socks[seat].send(json.dumps({"type": "act", "index": 1, "version": views[seat]["version"]}))
            for s, ws in socks.items():
                views[s] = json.loads(ws.recv(timeout=BOUND))       # TimeoutError: the table was held up
                assert views[s]["type"] == "view", views[s]
            moves += 1
        assert moves > 0 and views[0]["version"] == table.version
        # the page that did not read was cut off; the two that did play on
        assert sorted(c.seat for c in room.conns.values()) == [0, 1]
        assert asked.is_set()
        for ws in (p1, p2, slow):
            ws.close()


class NeverReads:
    """A websocket client that does its handshake and then only ever sends: it reads nothing."""

    def __init__(self, port, path):
        from websockets.client import ClientProtocol
        from websockets.uri import parse_uri
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.settimeout(BOUND)
        self.sock.connect(("127.0.0.1", port))
        self.proto = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}{path}"))
        self.proto.send_request(self.proto.connect())
        self.sock.sendall(b"".join(self.proto.data_to_send()))
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)       # the handshake's answer, byte by byte: nothing past it
        assert head.startswith(b"HTTP/1.1 101"), head
        self.proto.receive_data(head)
        self.sock.settimeout(None)

    def send(self, msg: dict) -> None:
        self.proto.send_text(json.dumps(msg).encode())
        self.sock.sendall(b"".join(self.proto.data_to_send()))

    def close(self) -> None:
        self.sock.close()


def test_a_socket_that_never_joins_is_closed_and_their_number_is_capped():
    host = Host(None, "en", limits=Limits(unjoined=3, join_seconds=1.0))
    room = host.add(table_of(["human", "random"]))
    with loopback(host) as port:
        # one that says nothing is told why and closed once its time is up
        quiet = connect(f"ws://127.0.0.1:{port}/ws/{room.id}", open_timeout=BOUND)
        assert "join within 1 s" in json.loads(quiet.recv(timeout=BOUND))["reason"]
        with pytest.raises(ConnectionClosed):
            quiet.recv(timeout=BOUND)
        # three waiting to join are as many as are let wait: a fourth is turned away at once, not held
        host.limits.join_seconds = 60.0
        waiting = [connect(f"ws://127.0.0.1:{port}/ws/{room.id}", open_timeout=BOUND) for _ in range(3)]
        time.sleep(0.2)         # let the server take all three up before the fourth
        extra = connect(f"ws://127.0.0.1:{port}/ws/{room.id}", open_timeout=BOUND)
        msg = json.loads(extra.recv(timeout=BOUND))
        assert msg["type"] == "refused" and "busy" in msg["reason"] and not msg.get("final")
        with pytest.raises(ConnectionClosed):
            extra.recv(timeout=BOUND)
        # once one of them goes, a seat joins again
        waiting.pop().close()
        deadline = time.monotonic() + BOUND
        while host.unjoined >= 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        ws, msg = joined(port, room, 0)
        assert msg["view"]["seat"] == 0
        for w in [*waiting, ws]:
            w.close()


def http_exchange(port, request: bytes, then: bytes = b"") -> bytes:
    """Sends `request` (and `then`), and reads what the server answers until it closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=BOUND) as s:
        s.sendall(request)
        if then:
            s.sendall(then)
        got = b""
        while True:
            chunk = s.recv(65536)       # socket.timeout: the server is still waiting for the rest
            if not chunk:
                return got
            got += chunk


def test_a_body_over_4_kb_is_refused_before_the_rest_is_read():
    host = Host(None, "en")
    host.add(table_of(["human", "random"]))
    with loopback(host) as port:
        head = (b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 400000000\r\n\r\n")
        # 8 KB of a 400 MB body sent, the rest never: answered 413 and closed, not waited on
        answer = http_exchange(port, head, b"x" * 8192)
        assert answer.startswith(b"HTTP/1.1 413") and b"over 4096 bytes" in answer
        # no length given: read chunk by chunk, refused once past the cap, the rest never read
        chunked = b"POST /games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        chunk = b"%x\r\n%s\r\n" % (3000, b"y" * 3000)
        answer = http_exchange(port, chunked, chunk * 2)
        assert answer.startswith(b"HTTP/1.1 413")
        # a small wrong request is still answered as before
        small = json.dumps({"key": "nope"}).encode()
        answer = http_exchange(port, b"POST /games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                                     b"Content-Length: %d\r\n\r\n%s" % (len(small), small))
        assert answer.startswith(b"HTTP/1.1 403")


def test_a_half_sent_request_head_is_closed_in_time():
    host = Host(None, "en", limits=Limits(head_seconds=1.0))
    host.add(table_of(["human", "random"]))
    with loopback(host) as port:
        assert http_exchange(port, b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ") == b""
        assert http_exchange(port, b"") == b""          # a connection that sends nothing at all
        # a whole request is answered as ever
        answer = http_exchange(port, b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 200")


def test_the_lobby_holds_a_bounded_number_of_unfinished_games(tmp_path):
    made = []

    def new_table(spec=None):
        made.append(len(made))
        return table_of(["human", "random"], made[-1], str(tmp_path / f"{made[-1]}.json"))

    host = Host(new_table, "en", limits=Limits(playing=2, idle_seconds=3600))
    first = host.add(new_table())
    with TestClient(host.app()) as client:
        start = json.dumps({"key": host.key, "start": True})
        assert client.post("/games", content=start).status_code == 200
        refused = client.post("/games", content=start)
        assert refused.status_code == 429
        assert "holds 2 unfinished games" in refused.json()["error"] and "try again later" in refused.json()["error"]
        assert len(host.rooms) == 2 and len(made) == 2        # refused before a table was made
        # once the longest idle game has been idle long enough (and no page is open on it), it makes way
        host.limits.idle_seconds = 0
        assert client.post("/games", content=start).status_code == 200
    assert first.id not in host.rooms and len(host.rooms) == 2
    assert (tmp_path / "0.json").exists()          # its replay stays: `serve --resume` continues it


def test_a_repeated_complaint_is_logged_once_a_while():
    now = [0.0]
    f = OncePerWhile(10.0, clock=lambda: now[0])
    records = [logging.LogRecord("asyncio", logging.ERROR, "", 0, "socket.accept() out of system resource", (), None)
               for _ in range(1000)]
    let_through = [r for r in records if f.filter(r)]
    assert len(let_through) == 1
    now[0] = 11.0
    later = logging.LogRecord("asyncio", logging.ERROR, "", 0, "socket.accept() out of system resource", (), None)
    assert f.filter(later) and "999 more like it" in later.getMessage()


def test_at_the_descriptor_limit_seats_still_join_and_the_log_stays_short(tmp_path):
    """A real `playtest serve` allowed 256 descriptors, and 400 connections that send nothing:
    the ones past its cap are closed as they come, a seat still joins, and the log holds a line
    or two, not a line for every failed accept."""
    import re
    import resource
    import subprocess
    import sys

    from _util import ROOT

    def few_files():
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

    err = open(tmp_path / "err.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "dsl.cli", "serve", str(BLUFF), "--seats", "human,random",
                             "--port", "0", "--save", str(tmp_path)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=err, text=True, preexec_fn=few_files)
    held = []
    try:
        link = next(m for line in proc.stdout for m in [re.match(r"\s+P1 \(human\)\s+http://(\S+)#(\S+)", line)] if m)
        address, token = link[1], link[2]
        port = int(address.split("/")[0].split(":")[1])
        for _ in range(400):
            try:
                held.append(socket.create_connection(("127.0.0.1", port), timeout=BOUND))
            except OSError:
                break
        time.sleep(1)           # the server takes the burst up (the check below does not time it)
        ws = None
        for _ in range(20):     # a page retries until it is let in
            try:
                ws = connect("ws://" + address.replace("/table/", "/ws/"), open_timeout=BOUND)
                break
            except Exception:       # refused, reset or not answered while the burst is taken up
                time.sleep(0.5)
        assert ws is not None
        ws.send(json.dumps({"type": "join", "token": token}))
        assert json.loads(ws.recv(timeout=BOUND))["type"] == "view"
        ws.close()
    finally:
        for s in held:
            s.close()
        proc.kill()
        proc.wait()
        err.close()
    assert (tmp_path / "err.log").stat().st_size < 10_000
