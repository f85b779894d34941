"""Nothing lost: a real `playtest serve` killed mid-game (SIGKILL, no chance to clean up), then
`playtest serve --resume FILE`, finishes the very game an uninterrupted table plays, at the same
links, so the pages already open rejoin by themselves."""
from __future__ import annotations

import json
import os
import re
import signal
import stat
import subprocess
import sys
from contextlib import ExitStack

from websockets.sync.client import connect

from dsl.analyses import replay as replay_mod
from dsl.table import Table
from dsl.table import links_file

from _util import BLUFF, ROOT, game_of, rules_of

SEED = 21
SEATS = ["human", "human", "random"]


def pick(k: int, n: int) -> int:
    """The option the k-th human decision takes: the same in every run of the test."""
    return (k * 7) % n + 1


def start(*args, port="0"):
    """A `playtest serve` process, its seats' socket addresses and tokens, and its replay file."""
    port = [] if port is None else ["--port", port]
    proc = subprocess.Popen([sys.executable, "-m", "dsl.cli", "serve", *args, *port], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seats, saved = {}, None
    proc.links = []
    for line in proc.stdout:
        if "http://" in line:
            proc.links.append(line.strip())
        m = re.match(r"\s+P(\d+) \(human\)\s+http://([^/]+)/table/(\S+)#(\S+)", line)
        if m:
            seats[int(m[1]) - 1] = (f"ws://{m[2]}/ws/{m[3]}", m[4])
        if line.startswith("saved after every move to "):
            saved = line.split(" to ", 1)[1].split(";")[0]
        if line.startswith("Ctrl-C"):
            break
    assert seats and saved, proc.stderr.read()
    return proc, seats, saved


def play(seats: dict, k: int, until, frames=None) -> int:
    """Both human seats play from their own sockets, option pick(k, n) at the k-th decision,
    until `until(k)`; returns k. Every frame a seat receives goes in `frames`."""
    socks = {}
    views = {}
    with ExitStack() as opened:
        for seat, (url, token) in seats.items():
            socks[seat] = opened.enter_context(connect(url))
            socks[seat].send(json.dumps({"type": "join", "token": token}))
            views[seat] = json.loads(socks[seat].recv())
        while not until(k) and not views[0]["view"]["ended"]:
            looking = [s for s, v in views.items() if (v["view"]["moment"] or {}).get("yours")]
            if looking:         # the table holds a moment until each person continues
                socks[looking[0]].send(json.dumps({"type": "continue"}))
            else:
                seat = next(s for s, v in views.items() if v["view"]["turn"]["waiting_for_you"])
                n = len(views[seat]["view"]["options"])
                socks[seat].send(json.dumps({"type": "act", "token": seats[seat][1], "index": pick(k, n),
                                             "version": views[seat]["version"]}))
                k += 1
            for s, ws in socks.items():
                raw = ws.recv()
                views[s] = json.loads(raw)
                assert views[s]["type"] == "view", views[s]
                if frames is not None:
                    frames.append(raw)
    return k


def test_a_killed_server_resumes_and_finishes_the_same_game(tmp_path):
    proc, seats, saved = start(str(BLUFF), "--seats", ",".join(SEATS), "--seed", str(SEED), "--save", str(tmp_path))
    try:
        k = play(seats, 0, lambda k: k == 4)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    before = replay_mod.load(saved).actions
    assert proc.returncode == -signal.SIGKILL and len(before) > 4

    proc, seats, again = start("--resume", saved)
    try:
        assert again == saved
        k = play(seats, k, lambda k: False)
    finally:
        proc.terminate()
        proc.wait()
    after = replay_mod.load(saved)
    assert after.actions[:len(before)] == before
    assert replay_mod.run(game_of(str(BLUFF), 3), after.actions, log=False).is_terminal()
    assert json.loads(open(saved, encoding="utf-8").read())["seats"] == SEATS

    # the same game a table never killed plays with the same seed and the same choices
    table = Table(rules_of(str(BLUFF)), 3, SEATS, SEED)
    table.advance()
    n = 0
    while not table.ended():
        seat = table.humans_to_act()[0]
        table.act(seat, pick(n, len(table.options(seat))))
        n += 1
    assert n == k and table.actions == after.actions


def test_a_killed_server_resumes_at_the_same_links_with_its_dice_unknown_to_every_seat(tmp_path):
    """No --seed: the dice come from seed material on the server. After a kill -9, --resume serves
    the game at the same room id, tokens and lobby key; a page's socket joins again with the
    token it had; and the game goes on with the same material, as if never interrupted."""
    proc, seats, saved = start(str(BLUFF), "--seats", ",".join(SEATS), "--save", str(tmp_path))
    frames = []
    try:
        k = play(seats, 0, lambda k: k == 3, frames)
        page = connect(seats[0][0])         # a page left open across the crash
        page.send(json.dumps({"type": "join", "token": seats[0][1]}))
        seen = json.loads(page.recv(timeout=30))
        while True:     # a bot may still be moving: the page's last view is the one the crash keeps
            try:
                seen = json.loads(page.recv(timeout=2))
            except TimeoutError:
                break
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    links = proc.links
    data = json.loads(open(saved, encoding="utf-8").read())
    material = data["chance"]
    assert len(bytes.fromhex(material)) * 8 >= 128 and data["seed"] == 0 and material not in saved
    # the links are kept beside the replay, for its owner only; the replay holds no token
    kept = links_file.path_of(saved)
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o600
    assert not any(tok in open(saved, encoding="utf-8").read() for _, tok in seats.values())

    proc, again, _ = start("--resume", saved, port=None)      # served again where its links point
    try:
        assert proc.links == links and again == seats
        page = connect(seats[0][0])
        page.send(json.dumps({"type": "join", "token": seats[0][1]}))
        back = json.loads(page.recv(timeout=30))
        assert back["type"] == "view" and back["version"] == seen["version"] and back["view"] == seen["view"]
        page.close()
        k = play(seats, k, lambda k: False, frames)
    finally:
        proc.terminate()
        proc.wait()
    # not a frame any seat was sent carries the material, in any spelling
    spellings = [material, material.upper(), str(int(material, 16))]
    assert frames and not any(m in f for f in frames for m in spellings)
    after = replay_mod.load(saved)
    table = Table(rules_of(str(BLUFF)), 3, SEATS, bytes.fromhex(material))
    table.advance()
    n = 0
    while not table.ended():
        seat = table.humans_to_act()[0]
        table.act(seat, pick(n, len(table.options(seat))))
        n += 1
    assert n == k and table.actions == after.actions
