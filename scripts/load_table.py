"""The browser table under load and attack: one real `playtest serve` on 127.0.0.1, many games at
once through its lobby, bots and scripted people at every table, hostile clients beside them.

Each scripted person is a websocket client that plays a random option of the view it was sent,
as a person clicking. Every view a person receives is checked: no key that names the game's
secrets, and a piece shown in a zone that seat may not see (another's hand, a zone seen by
nobody) is kept and checked afterwards against the engine's own account of what that seat may
see at that version (a revealed piece is seen by everyone). Hostile clients pause one game (its
people stop clicking, so its table is still), send what no page sends (huge, binary, malformed,
another seat's or another game's token, an old move sent again, a move out of turn) and then
check through the seat's next view and the replay file that nothing changed.

`--kill`: at a seeded random moment the server gets SIGKILL; then every game's replay file must
be whole JSON that `playtest replay FILE` plays, and `serve --resume FILE` must continue one.

  python scripts/load_table.py --games 50 --seconds 600
  python scripts/load_table.py --games 6 --seconds 15 --kill --json out/load.json

Exit 0 when every invariant held, 1 when one broke (the report says which).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SECRET_KEYS = {"seed", "chance", "state", "actions", "rng"}
WS_CAP = 2 ** 20                # `serve`'s own frame cap (dsl/cli/serve.py MAX_WS_BYTES)
WAIT = 20.0                     # the longest any single answer may take before the run calls it lost


def memory_of(pid: int) -> dict:
    """The server's resident memory now and at its peak, in MiB (Linux /proc)."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS:", "VmHWM:")):
                out[line.split(":")[0]] = int(line.split()[1]) / 1024
    return out


def start_server(args: list, cwd: str = ROOT):
    """A `playtest serve` process on loopback, and what it printed: the lobby's address and key,
    each human seat's socket address and token, the first game's replay file."""
    proc = subprocess.Popen([sys.executable, "-m", "dsl.cli", "serve", *args, "--host", "127.0.0.1", "--port", "0"],
                            cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    printed = {"seats": {}}
    for line in proc.stdout:
        m = re.match(r"\s+P(\d+) \(human\)\s+http://([^/]+)/table/(\S+)#(\S+)", line)
        if m:
            printed["seats"][int(m[1]) - 1] = (f"ws://{m[2]}/ws/{m[3]}", m[4])
        m = re.match(r"\s+lobby\s+(http://[^/]+)/lobby#(\S+)", line)
        if m:
            printed["base"], printed["key"] = m[1], m[2]
        if line.startswith("saved after every move to "):
            printed["saved"] = line.split(" to ", 1)[1].split(";")[0]
        if line.startswith("Ctrl-C"):
            break
    if "base" not in printed or not printed["base"].startswith("http://127.0.0.1:"):
        proc.kill()
        raise SystemExit(f"serve did not start on loopback: {proc.stderr.read()}")
    return proc, printed


def hidden_zones(view: dict, seat: int) -> list:
    """The zones whose pieces this seat may not see, unless the game has revealed them."""
    return [z for z in view["zones"]
            if z["seen"] == "nobody" or (z["seen"] == "owner" and z["owner"] != seat)]


def keys_in(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from keys_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from keys_in(v)


class Game:
    """One game of the run as its people and attackers know it."""

    def __init__(self, gid: str, links: list, replay: str):
        self.id, self.replay = gid, replay
        self.humans = [(l["seat"], l["url"].split("#")[0].replace("http://", "ws://").replace("/table/", "/ws/"),
                        l["url"].split("#")[1]) for l in links if l["kind"] == "human"]
        self.gate = asyncio.Event()         # set: the people may click; cleared while an attack runs
        self.gate.set()
        self.busy = 0                       # moves sent whose answer has not come yet
        self.ended = False
        self.sent: dict = {}                # seat -> the last move it sent (to be sent again by an attacker)
        self.suspects: list = []            # (seat, version, piece ids shown in zones it may not see)


class Run:
    def __init__(self, opts):
        self.opts = opts
        self.rng = random.Random(opts.seed)
        self.games: list[Game] = []
        self.stats = Counter()
        self.refused = Counter()            # hostile message kind -> refused
        self.broken: list[str] = []         # every invariant that did not hold, one line each
        self.memory: list = []
        self.killed_at = None
        self.save = opts.save or tempfile.mkdtemp(prefix="load-table-")

    def fail(self, what: str) -> None:
        if len(self.broken) < 200:
            self.broken.append(what)

    def replay_files(self) -> set:
        """The games' files; not the temporary one a save is being written to beside its file
        (write_atomic), which a SIGKILL mid-save leaves behind while the game's own file stays whole."""
        return {f for f in os.listdir(self.save) if f.endswith(".json") and not f.startswith(".")}

    # ------------------------------------------------------------ the lobby
    async def start_game(self, http: httpx.AsyncClient) -> None:
        before = self.replay_files()
        r = await http.post(f"{self.base}/games", json={"key": self.key, "start": True, "seats": self.opts.seats},
                            timeout=WAIT)
        r.raise_for_status()
        new = sorted(self.replay_files() - before)
        if len(new) != 1:
            self.fail(f"starting a game wrote {len(new)} replay files")
            return
        g = r.json()["games"][-1]
        self.games.append(Game(g["id"], g["links"], os.path.join(self.save, new[0])))
        self.stats["games started"] += 1

    # ------------------------------------------------------------ a person clicking
    async def person(self, game: Game, seat: int, url: str, token: str) -> None:
        rng = random.Random(self.rng.random())
        pending = None
        async with connect(url, max_size=2 ** 22, open_timeout=WAIT) as ws:
            await ws.send(json.dumps({"type": "join", "token": token}))
            while time.monotonic() < self.stop_at:
                try:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, self.stop_at - time.monotonic())))
                except asyncio.TimeoutError:
                    return
                if msg["type"] == "refused":
                    # two seats deciding at once: the later one is told the table moved on; anything else is wrong
                    if "moved on" not in msg["reason"]:
                        self.fail(f"{game.id} P{seat + 1}: an honest move refused: {msg['reason']}")
                    self.stats["honest moves refused (table moved on)"] += 1
                    if pending is not None:
                        game.busy -= 1
                        pending = None
                    continue
                self.check_view(game, seat, msg)
                if pending is not None and msg["version"] > pending:
                    game.busy -= 1
                    pending = None
                    self.stats["moves by people"] += 1
                view = msg["view"]
                if view["ended"]:
                    game.ended = True
                    return
                if view["turn"]["waiting_for_you"] and pending is None:
                    await asyncio.sleep(rng.uniform(0, self.opts.think))
                    await game.gate.wait()
                    # nothing awaits between the gate and `busy`: an attacker that saw busy == 0 sees a still table
                    game.busy += 1
                    pending = msg["version"]
                    act = {"type": "act", "token": token, "index": rng.randrange(len(view["options"])) + 1,
                           "version": msg["version"]}
                    game.sent[seat] = act
                    await ws.send(json.dumps(act))

    def check_view(self, game: Game, seat: int, msg: dict) -> None:
        self.stats["views checked"] += 1
        if msg["type"] != "view" or msg["view"]["seat"] != seat:
            self.fail(f"{game.id} P{seat + 1} received {msg['type']} for seat {msg.get('view', {}).get('seat')}")
        leaked = SECRET_KEYS & set(keys_in(msg))
        if leaked:
            self.fail(f"{game.id} P{seat + 1} received keys {sorted(leaked)}")
        shown = {p["id"] for z in hidden_zones(msg["view"], seat) for p in z["pieces"] if p is not None}
        if shown:
            game.suspects.append((seat, msg["version"], frozenset(shown)))

    # ------------------------------------------------------------ the attackers
    async def attack(self, game: Game, http: httpx.AsyncClient) -> None:
        """Pause the game, send every kind of hostile message, and check nothing changed."""
        game.gate.clear()
        try:
            for _ in range(int(WAIT / 0.01)):
                if game.busy == 0:
                    break
                await asyncio.sleep(0.01)
            else:
                self.fail(f"{game.id}: a move's answer never came")
                return
            with open(game.replay, "rb") as f:
                saved = f.read()
            socks, first = {}, {}
            async with asyncio.timeout(WAIT):
                for seat, url, token in game.humans:
                    socks[seat] = await connect(url, max_size=2 ** 22)
                    await socks[seat].send(json.dumps({"type": "join", "token": token}))
                    first[seat] = json.loads(await socks[seat].recv())
                try:
                    await self.hostile(game, socks, first, http)
                    for seat, ws in socks.items():
                        await ws.send(json.dumps({"type": "lang", "lang": "en"}))
                        again = json.loads(await ws.recv())
                        if (again["version"], again["view"]) != (first[seat]["version"], first[seat]["view"]):
                            self.fail(f"{game.id}: P{seat + 1}'s view changed under hostile messages")
                finally:
                    for ws in socks.values():
                        await ws.close()
            with open(game.replay, "rb") as f:
                if f.read() != saved:
                    self.fail(f"{game.id}: the replay file changed under hostile messages")
            self.stats["attacks"] += 1
        finally:
            game.gate.set()

    async def hostile(self, game: Game, socks: dict, first: dict, http: httpx.AsyncClient) -> None:
        tokens = {seat: token for seat, _, token in game.humans}
        seat = next((s for s in socks if not first[s]["view"]["turn"]["waiting_for_you"]), next(iter(socks)))
        ws, version = socks[seat], first[seat]["version"]
        others = [t for s, t in tokens.items() if s != seat] or ["not-a-token"]
        act = {"type": "act", "token": tokens[seat], "index": 1, "version": version}
        messages = [
            ("huge", json.dumps({**act, "pad": "x" * 5000})),
            ("binary", bytes(range(256)) * 4),
            ("malformed JSON", '{"type": "act", "index": '),
            ("nested", "[" * 1500 + "]" * 1500),
            ("not an object", json.dumps([act])),
            ("unknown type", json.dumps({"type": "deal"})),
            ("another seat's token", json.dumps({**act, "token": self.rng.choice(others)})),
            ("replayed move", json.dumps(game.sent.get(seat) or {**act, "version": version - 1})),
            ("stale version", json.dumps({**act, "version": version - 1})),
            ("option out of range", json.dumps({**act, "index": 10 ** 6})),
            ("index not a number", json.dumps({**act, "index": "1"})),
            ("undo from a seat", json.dumps({"type": "undo", "token": tokens[seat]})),
            ("join again", json.dumps({"type": "join", "token": tokens[seat]})),
        ]
        if not first[seat]["view"]["turn"]["waiting_for_you"] and not first[seat]["view"]["ended"]:
            messages.append(("out of turn", json.dumps(act)))
        for kind, raw in messages:
            await ws.send(raw)
            msg = json.loads(await ws.recv())
            if msg["type"] == "refused":
                self.refused[kind] += 1
            else:
                self.fail(f"{game.id}: {kind} was not refused: {msg['type']}")
        # separate connections: a guessed token, a token of another game, a frame over the cap
        other = next((g for g in self.games if g is not game and g.humans), None)
        strangers = [("guessed token", game.humans[0][1], "A" * 24)]
        if other:
            strangers.append(("another game's token", game.humans[0][1], other.humans[0][2]))
        for kind, url, token in strangers:
            async with connect(url) as ws:
                await ws.send(json.dumps({"type": "join", "token": token}))
                msg = json.loads(await ws.recv())
                try:
                    await ws.recv()
                    closed = False
                except ConnectionClosed:
                    closed = True
                if msg["type"] == "refused" and closed:
                    self.refused[kind] += 1
                else:
                    self.fail(f"{game.id}: {kind} was let in")
        async with connect(game.humans[0][1], max_size=None) as ws:
            await ws.send("x" * (WS_CAP + 1))
            try:
                await ws.recv()
                self.fail(f"{game.id}: a frame over {WS_CAP} bytes was answered")
            except ConnectionClosed:
                self.refused["frame over the cap (closed)"] += 1
        for kind, body, status in [("lobby: wrong key", json.dumps({"key": "nope", "start": True}), 403),
                                   ("lobby: huge body", json.dumps({"key": self.key, "pad": "x" * 5000}), 413)]:
            r = await http.post(f"{self.base}/games", content=body, timeout=WAIT)
            if r.status_code == status:
                self.refused[kind] += 1
            else:
                self.fail(f"{kind}: {r.status_code}, not {status}")

    # ------------------------------------------------------------ the run
    async def drive(self) -> None:
        # a fresh connection a request: a pooled one the server closes after 5 idle seconds can fail mid-request
        async with httpx.AsyncClient(headers={"Connection": "close"}) as http:
            live: dict = {}
            attacks = None

            def begin(game):
                live[game] = asyncio.gather(*(self.person(game, s, u, t) for s, u, t in game.humans),
                                            return_exceptions=True)

            for _ in range(self.opts.games - 1):
                await self.start_game(http)
            for game in self.games:
                begin(game)
            self.memory.append(("all games open", time.monotonic() - self.t0, memory_of(self.proc.pid)))
            next_sample, next_attack = time.monotonic(), time.monotonic() + 0.5
            kill_at = self.t0 + self.opts.seconds * self.rng.uniform(0.3, 0.9) if self.opts.kill else None
            while time.monotonic() < self.stop_at:
                now = time.monotonic()
                if kill_at and now >= kill_at:
                    self.memory.append(("before the kill", now - self.t0, memory_of(self.proc.pid)))
                    self.proc.send_signal(signal.SIGKILL)
                    self.proc.wait()
                    self.killed_at = now - self.t0
                    self.stop_at = now
                    break
                if now >= next_sample:
                    self.memory.append(("", now - self.t0, memory_of(self.proc.pid)))
                    next_sample = now + self.opts.seconds / 40
                for game, task in list(live.items()):
                    if task.done():
                        del live[game]
                        for e in task.result():
                            if isinstance(e, BaseException):
                                self.fail(f"{game.id}: a person's client failed: {e!r}")
                        if game.ended:
                            self.stats["games finished"] += 1
                            if now < self.stop_at - 1:
                                await self.start_game(http)
                                begin(self.games[-1])
                if (attacks is None or attacks.done()) and now >= next_attack:
                    if attacks is not None and attacks.exception():
                        self.fail(f"an attack failed: {attacks.exception()!r}")
                    playing = [g for g in live if not g.ended and g.humans]
                    if playing:
                        attacks = asyncio.ensure_future(self.attack(self.rng.choice(playing), http))
                    next_attack = now + self.opts.attack_every
                await asyncio.sleep(0.05)
            if not self.opts.kill:
                self.memory.append(("end", time.monotonic() - self.t0, memory_of(self.proc.pid)))
            for task in [*live.values(), *([attacks] if attacks else [])]:
                try:
                    await asyncio.wait_for(task, WAIT)
                except BaseException as e:
                    if not self.opts.kill:
                        self.fail(f"a client did not stop: {e!r}")
            if attacks and attacks.done() and not attacks.cancelled() and attacks.exception() and not self.opts.kill:
                self.fail(f"an attack failed: {attacks.exception()!r}")

    def main(self) -> dict:
        opts = self.opts
        self.proc, printed = start_server([opts.game, "--seats", opts.seats, "--save", self.save])
        self.base, self.key = printed["base"], printed["key"]
        self.t0 = time.monotonic()
        self.stop_at = self.t0 + opts.seconds
        self.memory.append(("start", 0.0, memory_of(self.proc.pid)))
        try:
            with httpx.Client() as http:
                g = http.post(f"{self.base}/games", json={"key": self.key}).json()["games"][0]
            self.games.append(Game(g["id"], g["links"], printed["saved"]))
            self.stats["games started"] += 1
            asyncio.run(self.drive())
            took = time.monotonic() - self.t0
        finally:
            if self.proc.poll() is None:
                self.proc.terminate()
                self.proc.wait()
        self.stats["seconds"] = round(took, 1)
        self.check_replays()
        if opts.kill:
            self.check_resume()
        return self.report()

    # ------------------------------------------------------------ afterwards
    def check_replays(self) -> None:
        """Every game's file whole, replaying under `playtest replay`, and every piece a person was
        shown in a zone it may not see revealed to it by the engine at that version."""
        from click.testing import CliRunner
        from dsl.analyses import replay as replay_mod
        from dsl.cli import main
        from dsl.engine import Game as Engine
        from dsl.loader import load
        from dsl.table import view as V
        files = sorted(os.path.join(self.save, f) for f in self.replay_files())
        self.stats["replay files"] = len(files)
        # each game's links file (its tokens, for a resume at the same links) is not a temporary one
        links = [f for f in os.listdir(self.save) if f.endswith(".links")]
        self.stats["links files beside them"] = len(links)
        self.stats["temporary files left beside them"] = len(os.listdir(self.save)) - len(files) - len(links)
        rules = None
        for path in files:
            try:
                with open(path, encoding="utf-8") as f:
                    data = json.load(f)
            except ValueError as e:
                self.fail(f"{path}: not whole JSON: {e}")
                continue
            result = CliRunner().invoke(main, ["replay", path])
            if result.exit_code != 0:
                self.fail(f"{path}: `playtest replay` exit {result.exit_code}: {result.output[-300:]}")
            else:
                self.stats["replay files that replay"] += 1
            self.stats["actions in replay files"] += len(data["actions"])
        for game in self.games:
            if not game.suspects:
                continue
            rep = replay_mod.load(game.replay)
            rules = rules or load(rep.rules, rep.variants)[0]
            engine = Engine(rules, rep.players)
            states = []
            replay_mod.run(engine, rep.actions, log=False,
                           on_state=lambda s: states.append([V.visible_pieces(engine, s, p) for p in range(rep.players)]))
            for seat, version, shown in game.suspects:
                self.stats["views showing a piece in another's zone, checked"] += 1
                if not shown <= states[min(version, len(states) - 1)][seat]:
                    self.fail(f"{game.id} P{seat + 1} at version {version} was shown pieces "
                              f"{sorted(shown - states[min(version, len(states) - 1)][seat])} it may not see")
        # one file also through a real `playtest replay` process
        if files:
            p = subprocess.run([sys.executable, "-m", "dsl.cli", "replay", files[-1]], cwd=ROOT,
                               capture_output=True, text=True, timeout=120)
            if p.returncode != 0:
                self.fail(f"{files[-1]}: `playtest replay` process exit {p.returncode}: {p.stderr[-300:]}")

    def check_resume(self) -> None:
        """`serve --resume` continues a game the kill interrupted, from exactly where its file stops."""
        from dsl.analyses import replay as replay_mod
        unfinished = [g for g in self.games if not g.ended and g.humans]
        if not unfinished:
            self.fail("no game was left unfinished by the kill to resume")
            return
        game = self.rng.choice(unfinished)
        before = replay_mod.load(game.replay).actions
        proc, printed = start_server(["--resume", game.replay])
        try:
            if printed.get("saved") != game.replay:
                self.fail(f"resume saved to {printed.get('saved')}, not {game.replay}")

            async def play():
                rng = random.Random(self.opts.seed)
                socks = {s: await connect(u) for s, (u, t) in printed["seats"].items()}
                for s, ws in socks.items():
                    await ws.send(json.dumps({"type": "join", "token": printed["seats"][s][1]}))
                views = {s: json.loads(await ws.recv()) for s, ws in socks.items()}
                moves = 0
                for _ in range(30):
                    looking = [s for s, v in views.items() if (v["view"]["moment"] or {}).get("yours")]
                    if looking:     # a moment the kill cut short is held again: each person continues
                        await socks[looking[0]].send(json.dumps({"type": "continue"}))
                        for t, ws in socks.items():
                            views[t] = json.loads(await ws.recv())
                        continue
                    waiting = [s for s, v in views.items() if v["view"]["turn"]["waiting_for_you"]]
                    if not waiting or views[waiting[0]]["view"]["ended"]:
                        break
                    s = waiting[0]
                    await socks[s].send(json.dumps({"type": "act", "token": printed["seats"][s][1],
                                                    "index": rng.randrange(len(views[s]["view"]["options"])) + 1,
                                                    "version": views[s]["version"]}))
                    moves += 1
                    for t, ws in socks.items():
                        views[t] = json.loads(await ws.recv())
                for ws in socks.values():
                    await ws.close()
                return moves
            moves = asyncio.run(asyncio.wait_for(play(), 120))
        finally:
            proc.terminate()
            proc.wait()
        after = replay_mod.load(game.replay).actions
        if after[:len(before)] != before or (moves and len(after) <= len(before)):
            self.fail(f"resuming {game.replay} did not continue it ({len(before)} -> {len(after)} actions)")
        else:
            self.stats["resumed game: moves played after the kill"] = moves

    def report(self) -> dict:
        mem = [m for _, _, m in self.memory]
        peak = max(m["VmHWM"] for m in mem)
        secs = self.stats["seconds"]
        return {
            "game": self.opts.game, "seats": self.opts.seats, "games at once": self.opts.games,
            "seconds": secs, "seed": self.opts.seed, "killed at": self.killed_at and round(self.killed_at, 1),
            "moves by people per second": round(self.stats["moves by people"] / secs, 1),
            "actions per second (all seats and chance)": round(self.stats["actions in replay files"] / secs, 1),
            "memory MiB": {"start": round(mem[0]["VmRSS"], 1), "all games open": round(mem[1]["VmRSS"], 1),
                           "end": round(mem[-1]["VmRSS"], 1), "peak (VmHWM)": round(peak, 1)},
            "memory samples (s, RSS MiB)": [(round(t, 1), round(m["VmRSS"], 1)) for _, t, m in self.memory],
            "counts": dict(self.stats), "hostile messages refused": dict(self.refused),
            "broken": self.broken,
        }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default=os.path.join(ROOT, "games", "bluff.rules"))
    ap.add_argument("--seats", default="human,human,random", help="every game's seats (at least one human)")
    ap.add_argument("--games", type=int, default=50, help="games at once")
    ap.add_argument("--seconds", type=float, default=600)
    ap.add_argument("--think", type=float, default=0.1, help="a person's longest pause before clicking, in seconds")
    ap.add_argument("--attack-every", type=float, default=0.5, help="seconds between hostile rounds")
    ap.add_argument("--kill", action="store_true", help="SIGKILL the server at a seeded random moment")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--save", default=None, help="the server's --save folder (default: a fresh temporary one)")
    ap.add_argument("--json", default=None, help="write the report here as JSON too")
    opts = ap.parse_args(argv)
    if not 1 <= opts.games <= 500 or not 1 <= opts.seconds <= 7200:
        ap.error("--games from 1 to 500, --seconds from 1 to 7200")
    report = Run(opts).main()
    text = json.dumps(report, indent=1, ensure_ascii=False)
    print(text)
    if opts.json:
        with open(opts.json, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return 1 if report["broken"] else 0


if __name__ == "__main__":
    sys.path.insert(0, ROOT)
    sys.exit(main())
