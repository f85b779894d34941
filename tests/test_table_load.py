"""The table server under load and attack, short: scripts/load_table.py runs a real `playtest serve`
with six games at once, scripted people and hostile clients, SIGKILLs it at a seeded moment, and
reports what held. The checks it relies on are shown to fail on what they are meant to catch."""
from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys

from dsl.table import Table

from _util import BLUFF, ROOT, rules_of

spec = importlib.util.spec_from_file_location("load_table", ROOT / "scripts" / "load_table.py")
load_table = importlib.util.module_from_spec(spec)
spec.loader.exec_module(load_table)

HOSTILE = ["huge", "binary", "malformed JSON", "nested", "not an object", "unknown type", "another seat's token",
           "replayed move", "stale version", "option out of range", "index not a number", "undo from a seat",
           "join again", "guessed token", "another game's token", "frame over the cap (closed)",
           "lobby: wrong key", "lobby: huge body"]


def test_six_games_under_attack_and_a_kill_leave_every_replay_whole(tmp_path):
    out = tmp_path / "report.json"
    p = subprocess.run([sys.executable, "scripts/load_table.py", "--games", "6", "--seconds", "15", "--kill",
                        "--seed", "7", "--save", str(tmp_path / "tables"), "--json", str(out)],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    report = json.loads(out.read_text())
    assert report["broken"] == [] and p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    counts = report["counts"]
    assert report["killed at"] is not None
    # every game's file, finished or cut by the kill, is whole and replays
    assert counts["replay files"] == counts["games started"] == len(list((tmp_path / "tables").glob("*.json")))
    # and each has its links beside it, for a resume at the same links
    assert counts["links files beside them"] == counts["games started"]
    assert counts["replay files that replay"] == counts["replay files"]
    assert counts["resumed game: moves played after the kill"] > 0
    assert counts["moves by people"] > 0 and counts["views checked"] > counts["moves by people"]
    # every hostile kind was sent in every attack, and each time refused (one not refused is in "broken");
    # an attack the kill cut short counts the kinds it got to, not the attack
    assert counts["attacks"] > 0
    assert all(report["hostile messages refused"].get(k, 0) >= counts["attacks"] for k in HOSTILE), report
    # six small games hold far less than this; a leak per message or per view would not
    assert report["memory MiB"]["peak (VmHWM)"] < 512


def options(tmp_path, **kw):
    return argparse.Namespace(**{"game": str(BLUFF), "seats": "human,human,random", "games": 1, "seconds": 1,
                                 "think": 0, "attack_every": 1, "kill": False, "seed": 1,
                                 "save": str(tmp_path), "json": None, **kw})


def test_a_piece_shown_from_another_seats_hand_is_caught(tmp_path):
    """The check the run applies to every view: a piece in P2's cup shown to P1 is kept as a
    suspect, and the engine's account of what P1 may see at that version convicts it."""
    table = Table(rules_of(str(BLUFF)), 3, ["human", "human", "random"], 4, str(tmp_path / "g.json"))
    table.advance()
    run = load_table.Run(options(tmp_path))
    game = load_table.Game("g", [{"seat": 0, "kind": "human", "url": "http://x/table/g#t"}], str(tmp_path / "g.json"))
    run.games.append(game)
    honest = {"type": "view", "version": table.version, "view": json.loads(json.dumps(table.view(0)))}
    run.check_view(game, 0, honest)
    leaky = json.loads(json.dumps(honest))
    z = next(i for i, z in enumerate(leaky["view"]["zones"]) if z["seen"] == "owner" and z["owner"] == 1)
    assert leaky["view"]["zones"][z]["pieces"] and all(p is None for p in leaky["view"]["zones"][z]["pieces"])
    leaky["view"]["zones"][z]["pieces"] = json.loads(json.dumps(table.view(None)))["zones"][z]["pieces"]
    run.check_view(game, 0, leaky)
    leaky["view"]["log"].append({"seed": 4})
    run.check_view(game, 0, leaky)
    run.check_replays()
    assert any("received keys ['seed']" in b for b in run.broken)
    assert sum("was shown pieces" in b for b in run.broken) == 2, run.broken


def test_a_cut_replay_file_is_caught(tmp_path):
    (tmp_path / "cut.json").write_text('{"format": "playtest-replay", "actions": [[0, ')
    run = load_table.Run(options(tmp_path))
    run.check_replays()
    assert run.broken and "not whole JSON" in run.broken[0]


def test_the_server_keeps_only_the_latest_finished_games_in_memory(tmp_path):
    """Game after game for days must not hold every table ever played: past `keep_finished`, the
    oldest finished games are forgotten (their replay files stay), the games in play never."""
    from starlette.testclient import TestClient

    from dsl.table.server import Host

    made = []

    def new_table(spec=None):
        made.append(len(made))
        t = Table(rules_of(str(BLUFF)), 2, ["human", "random"], made[-1], str(tmp_path / f"{made[-1]}.json"))
        t.advance()
        return t

    host = Host(new_table, "en")
    host.keep_finished = 2
    playing = host.add(new_table())
    with TestClient(host.app()) as client:
        for n in range(5):
            client.post("/games", content=json.dumps({"key": host.key, "start": True}))
            room = list(host.rooms.values())[-1]
            with client.websocket_connect(f"/ws/{room.id}") as ws:
                ws.send_json({"type": "join", "token": room.token_of(0)})
                msg = ws.receive_json()
                while not msg["view"]["ended"]:
                    ws.send_json({"type": "act", "index": 1, "version": msg["version"]})
                    msg = ws.receive_json()
            assert room.table.ended()
        listed = client.post("/games", content=json.dumps({"key": host.key})).json()["games"]
    # the two finished games kept, each with its replay to step through; the forgotten ones' replays gone too
    from dsl.table.server import Room
    tables = [r for r in host.rooms.values() if isinstance(r, Room)]
    assert len(tables) == 3 and len(host.rooms) == 5 and len(host.finished) == 2 and playing.id in host.rooms \
        and not playing.table.ended()
    assert {r.replay.id for r in tables if r.replay} == set(host.rooms) - {r.id for r in tables}
    assert [g["id"] for g in listed if g["id"] in {r.id for r in tables}] == [playing.id, *host.finished]
    assert len(list(tmp_path.glob("*.json"))) == 6
