"""Byte streams into the language server (make fuzz-lsp): for a bounded time, attacks drawn at
random (random bytes, lying or huge Content-Length headers, headers that never end, broken
and deeply nested JSON, requests with impossible parameters, large documents and documents
past the size limit, hundreds of edits in one write, requests about documents that are not
open, and requests to a fresh server before `initialize`) each followed by a valid hover.
The server must stay up and answer every request that has an id, the attack's own and the
hover, with a result or an error but never an internal error (-32603); a request before
`initialize` gets ServerNotInitialized, one about a document not open a null result; and
nothing it writes on stderr is a traceback. Prints the tally; exits 1 on the first failure,
saving the bytes sent so far under out/fuzz-lsp/.

    python scripts/fuzz_lsp.py [--seconds 60] [--seed 1]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import select
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAME = os.path.join(ROOT, "games", "bluff.rules")
URI = "file://" + GAME
ANSWER_WITHIN = 60.0        # seconds: far past any answer, short of a hung server
INTERNAL_ERROR = -32603     # what pygls answers when a handler raised: a bug, whatever the input


def framed(obj) -> bytes:
    body = json.dumps(obj).encode() if not isinstance(obj, bytes) else obj
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Server:
    """`playtest lsp` in a process of its own, spoken to in raw bytes."""

    def __init__(self, stderr=subprocess.DEVNULL):
        self.proc = subprocess.Popen([sys.executable, "-m", "dsl.cli", "lsp"], cwd=ROOT, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=stderr)
        self.inbox = b""
        self.answers: dict = {}
        self.published: list[dict] = []     # the params of every publishDiagnostics, in order
        self.expect: dict = {}              # request id -> the fields its answer must have
        self.faults: list[str] = []         # what an attack found wrong beyond a missing answer
        self.sent = bytearray()
        self.next_id = 0

    def send(self, data: bytes) -> None:
        self.sent += data
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def request(self, method: str, params, raw_id=None) -> int:
        self.next_id += 1
        self.send(framed({"jsonrpc": "2.0", "id": self.next_id if raw_id is None else raw_id,
                          "method": method, "params": params}))
        return self.next_id

    def notify(self, method: str, params) -> None:
        self.send(framed({"jsonrpc": "2.0", "method": method, "params": params}))

    def _take(self) -> None:
        while True:
            m = re.search(rb"Content-Length: (\d+)\r\n(?:[^\r\n]+\r\n)*\r\n", self.inbox)
            if not m or len(self.inbox) < m.end() + int(m.group(1)):
                return
            end = m.end() + int(m.group(1))
            message = json.loads(self.inbox[m.end():end])
            self.inbox = self.inbox[end:]
            if "id" in message and "method" not in message:
                self.answers[message["id"]] = message
            elif message.get("method") == "textDocument/publishDiagnostics":
                self.published.append(message["params"])

    def _until(self, done, within: float) -> bool:
        """Read what the server sends until done() holds; False if it did not within the time."""
        end = time.monotonic() + within
        while not done():
            left = end - time.monotonic()
            if left <= 0 or self.proc.poll() is not None:
                return False
            ready, _, _ = select.select([self.proc.stdout], [], [], min(left, 0.5))
            if ready:
                data = os.read(self.proc.stdout.fileno(), 1 << 16)
                if not data:
                    return False
                self.inbox += data
                self._take()
        return True

    def answer(self, msg_id, within: float = ANSWER_WITHIN):
        """The response to a request (a dict with result or error), or None if none came."""
        return self.answers.pop(msg_id) if self._until(lambda: msg_id in self.answers, within) else None

    def diagnostics(self, version: int, uri: str = URI, within: float = ANSWER_WITHIN):
        """The diagnostics published for a version of a document, once they came (None if they did not)."""
        def find():
            return next((p for p in self.published if p["uri"] == uri and p.get("version") == version), None)
        return find() if self._until(lambda: find() is not None, within) else None

    def start(self, text: str) -> None:
        assert self.answer(self.request("initialize", {"capabilities": {}})) is not None, "no answer to initialize"
        self.notify("initialized", {})
        self.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "playtest-rules",
                                                              "version": 1, "text": text}})

    def hover(self, line: int, character: int, raw_id=None) -> int:
        return self.request("textDocument/hover", {"textDocument": {"uri": URI},
                                                   "position": {"line": line, "character": character}}, raw_id)

    def close(self) -> None:
        try:
            self.answer(self.request("shutdown", None), 10)
            self.notify("exit", None)
            self.proc.wait(10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def _short(v, n: int = 200) -> str:
    text = str(v)
    return text if len(text) <= n else text[:n - 3] + "..."


def _position(rng: random.Random) -> dict:
    pick = lambda: rng.choice([-5, -1, 0, 1, 3, 40, 2**31, 2**40, "1", None, 1.5])
    return {"line": pick(), "character": pick()}


# Each attack sends bytes and returns the ids of the requests in them that must be answered.
def _random_bytes(s, rng):
    s.send(rng.randbytes(rng.randrange(1, 5000)))
    return []


def _huge_length(s, rng):
    s.send(b"Content-Length: %d\r\n\r\n" % rng.choice([10**11, 2**63 - 1, 10**18]) + rng.randbytes(rng.randrange(100)))
    return []


def _lying_length(s, rng):
    i = s.next_id = s.next_id + 1
    body = json.dumps({"jsonrpc": "2.0", "id": i, "method": "textDocument/hover",
                       "params": {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}}).encode()
    s.send(b"Content-Length: %d\r\n\r\n" % max(0, len(body) + rng.choice([-30, -1, 1, 500])) + body)
    return [i]


def _endless_header(s, rng):
    s.send(b"Content-Length: 10\r\nX-" + b"a" * rng.randrange(10_000, 40_000) + b"\r\n")
    return []


def _broken_json(s, rng):
    i = s.next_id = s.next_id + 1
    body = rng.choice([b'{"jsonrpc": "2.0", "id": %d, "method": ' % i, b"[" * 100_000 + b"]" * 100_000,
                       b'{"jsonrpc": "2.0", "id": %d, "method": "textDocument/hover", "params": 5}' % i, b"null",
                       b'{"jsonrpc": "2.0", "id": [1], "method": "x"}', b"\xff\xfe"])
    s.send(framed(body))
    return [i] if b'"id": %d' % i in body else []


def _impossible_params(s, rng):
    method = rng.choice(["textDocument/hover", "textDocument/completion", "textDocument/definition",
                         "textDocument/references", "textDocument/documentSymbol", "textDocument/rename",
                         "textDocument/codeAction", "no/such/method"])
    params = {"textDocument": {"uri": rng.choice([URI, "file:///nowhere.rules", "", 5])}, "position": _position(rng),
              "context": {"includeDeclaration": True}, "newName": rng.choice(["x", "", "game", "a b"]),
              "range": {"start": _position(rng), "end": _position(rng)}}
    return [s.request(method, params)]


def _large_document(s, rng):
    text = open(GAME, encoding="utf-8").read()
    s.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": rng.randrange(2, 10**6)},
                                        "contentChanges": [{"text": text * rng.randrange(1, 40)}]})
    s.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": rng.randrange(2, 10**6)},
                                        "contentChanges": [{"text": text}]})
    return []


def _huge_document(s, rng):
    """A document past the size limit (refused with one diagnostic), left so or put back."""
    text = open(GAME, encoding="utf-8").read()
    huge = text * (rng.randrange(1_000_001, 4_000_000) // len(text) + 1)
    s.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": rng.randrange(2, 10**6)},
                                        "contentChanges": [{"text": huge}]})
    i = s.hover(13, 12)
    if rng.random() < 0.7:
        s.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": rng.randrange(2, 10**6)},
                                            "contentChanges": [{"text": text}]})
    return [i]


def _rapid_edits(s, rng):
    """Dozens to hundreds of edits in one write, some past the end of the document, then requests."""
    frames = []
    for _ in range(rng.randrange(20, 300)):
        at = {"line": rng.choice([0, 5, 13, 40, 90, 10**6]), "character": rng.choice([0, 2, 12, 80])}
        change = rng.choice([{"range": {"start": at, "end": at}, "text": rng.choice(["x", "\n", "  ", "(", "é"])},
                             {"range": {"start": at, "end": at}, "text": ""}])
        frames.append(framed({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": URI, "version": rng.randrange(2, 10**6)}, "contentChanges": [change]}}))
    s.send(b"".join(frames))
    owed = [s.hover(rng.randrange(100), rng.randrange(40)), s.request("textDocument/completion", {
        "textDocument": {"uri": URI}, "position": {"line": rng.randrange(100), "character": rng.randrange(40)}})]
    s.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": rng.randrange(2, 10**6)},
                                        "contentChanges": [{"text": open(GAME, encoding="utf-8").read()}]})
    return owed


def _unknown_document(s, rng):
    """Requests about documents that are not open: answered null (a file on disk is not read)."""
    doc = rng.choice(["file:///nowhere/x.rules", "file://" + os.path.join(ROOT, "games", "populus.rules"),
                      "untitled:Untitled-1", "file:///"])
    method = rng.choice(["textDocument/hover", "textDocument/completion", "textDocument/definition",
                         "textDocument/documentSymbol", "textDocument/prepareRename"])
    i = s.request(method, {"textDocument": {"uri": doc}, "position": {"line": 0, "character": 0}})
    s.expect[i] = {"result": None}
    return [i]


def _before_initialize(s, rng):
    """A server of its own, sent requests and notifications before `initialize`: each request
    answered ServerNotInitialized, then initialize answered as usual."""
    side = Server()
    try:
        ids = [side.request(rng.choice(["textDocument/hover", "textDocument/completion", "shutdown", "no/such"]),
                            {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}})
               for _ in range(rng.randrange(1, 4))]
        side.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "playtest-rules",
                                                              "version": 1, "text": "game g\n"}})
        for i in ids:
            got = side.answer(i)
            if not got or got.get("error", {}).get("code") != -32002:
                s.faults.append(f"before initialize, request {i} was answered {got}")
        if side.answer(side.request("initialize", {"capabilities": {}})) is None:
            s.faults.append("no answer to initialize after requests before it")
    finally:
        side.close()
    return []


ATTACKS = [_random_bytes, _huge_length, _lying_length, _endless_header, _broken_json, _impossible_params,
           _large_document, _huge_document, _rapid_edits, _unknown_document, _before_initialize]


def campaign(seconds: float, seed: int = 1, out: str | None = None) -> dict:
    """Attacks until `seconds` have passed; the tally, with 'failure' set on the first failure."""
    rng = random.Random(seed)
    tally = {"attacks": 0, "answered": 0, "failure": None, "by_attack": {}}
    err = tempfile.NamedTemporaryFile(prefix="fuzz-lsp-stderr", delete=False)
    server = Server(stderr=err)
    try:
        server.start(open(GAME, encoding="utf-8").read())
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            attack = rng.choice(ATTACKS)
            owed = attack(server, rng)
            owed.append(server.hover(13, 12))           # a valid request after every attack
            for msg_id in owed:
                got = server.answer(msg_id)
                if got is None:
                    tally["failure"] = (f"after {attack.__name__}: no answer to request {msg_id}"
                                        + ("" if server.proc.poll() is None else f" (the server exited {server.proc.returncode})"))
                    break
                wanted = server.expect.pop(msg_id, {})
                if got.get("error", {}).get("code") == INTERNAL_ERROR or any(got.get(k, k) != v for k, v in wanted.items()):
                    server.faults.append(f"request {msg_id} was answered {_short(got)}")
                tally["answered"] += 1
            if server.faults:
                tally["failure"] = f"after {attack.__name__}: " + "; ".join(server.faults)
            tally["attacks"] += 1
            tally["by_attack"][attack.__name__] = tally["by_attack"].get(attack.__name__, 0) + 1
            if tally["failure"]:
                break
    finally:
        server.close()
        err.close()
    with open(err.name, encoding="utf-8", errors="replace") as f:
        stderr = f.read()
    os.unlink(err.name)
    if "Traceback" in stderr and not tally["failure"]:
        tally["failure"] = "the server wrote a traceback on stderr: " + _short(stderr[stderr.index("Traceback"):], 400)
    if tally["failure"] and out:
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, f"seed{seed}.bin"), "wb") as f:
            f.write(server.sent)
    return tally


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="how long to attack (default 60)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    tally = campaign(a.seconds, a.seed, os.path.join(ROOT, "out", "fuzz-lsp"))
    print(f"{tally['attacks']} attacks, {tally['answered']} requests answered: "
          + ", ".join(f"{n} {k.strip('_')}" for k, n in sorted(tally["by_attack"].items())))
    if tally["failure"]:
        print(f"FAILED: {tally['failure']} (the bytes sent are in out/fuzz-lsp/seed{a.seed}.bin)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
