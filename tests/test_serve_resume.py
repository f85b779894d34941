"""Nothing lost: a real `playtest serve` killed mid-game (SIGKILL, no chance to clean up), then
`playtest serve --resume FILE`, finishes the very game an uninterrupted table plays."""
from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from contextlib import ExitStack

from websockets.sync.client import connect

from dsl.analyses import replay as replay_mod
from dsl.table import Table

from _util import BLUFF, ROOT, game_of, rules_of

SEED = 21
SEATS = ["human", "human", "random"]


def pick(k: int, n: int) -> int:
    """The option the k-th human decision takes: the same in every run of the test."""
    return (k * 7) % n + 1


def start(*args):
    """A `playtest serve` process, its seats' socket addresses and tokens, and its replay file."""
    proc = subprocess.Popen([sys.executable, "-m", "dsl.cli", "serve", *args, "--port", "0"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seats, saved = {}, None
    for line in proc.stdout:
        m = re.match(r"\s+P(\d+) \(human\)\s+http://([^/]+)/table/(\S+)#(\S+)", line)
        if m:
            seats[int(m[1]) - 1] = (f"ws://{m[2]}/ws/{m[3]}", m[4])
        if line.startswith("saved after every move to "):
            saved = line.split(" to ", 1)[1].split(";")[0]
        if line.startswith("Ctrl-C"):
            break
    assert seats and saved, proc.stderr.read()
    return proc, seats, saved


def play(seats: dict, k: int, until) -> int:
    """Both human seats play from their own sockets, option pick(k, n) at the k-th decision,
    until `until(k)`; returns k."""
    socks = {}
    views = {}
    with ExitStack() as opened:
        for seat, (url, token) in seats.items():
            socks[seat] = opened.enter_context(connect(url))
            socks[seat].send(json.dumps({"type": "join", "token": token}))
            views[seat] = json.loads(socks[seat].recv())
        while not until(k) and not views[0]["view"]["ended"]:
            seat = next(s for s, v in views.items() if v["view"]["turn"]["waiting_for_you"])
            n = len(views[seat]["view"]["options"])
            socks[seat].send(json.dumps({"type": "act", "token": seats[seat][1], "index": pick(k, n),
                                         "version": views[seat]["version"]}))
            k += 1
            for s, ws in socks.items():
                views[s] = json.loads(ws.recv())
                assert views[s]["type"] == "view", views[s]
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
