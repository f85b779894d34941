"""The browser table's server, in process (Starlette's TestClient over real websockets): bad input
is refused and changes nothing, a seat receives only its own view over whole games, a dropped
page rejoins its seat, the designer sees all and may undo, the lobby starts games, and a saved
game steps forward and back."""
from __future__ import annotations

import glob
import json
import os
import random
import time
from contextlib import ExitStack

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from starlette.testclient import TestClient

from dsl.analyses import replay as replay_mod
from dsl.table import Table, view as V
from dsl.table.serve_replay import ReplayBook
from dsl.table.server import MAX_MESSAGE, Host

from _util import BLUFF, DEMOCRACY, rules_of

FORBIDDEN_KEYS = {"seed", "chance", "state", "rng", "digest", "actions", "undone", "final_state"}


def table_of(path, seats, seed, tmp_path=None) -> Table:
    t = Table(rules_of(str(path)), len(seats), seats, seed,
              str(tmp_path / "game.json") if tmp_path is not None else None)
    t.advance()
    return t


@pytest.fixture
def stack():
    with ExitStack() as s:
        yield s


def client_of(host, stack) -> TestClient:
    # entered: every socket of the test shares one event loop, as they do under uvicorn
    client = stack.enter_context(TestClient(host.app()))
    client.sockets = stack.enter_context(ExitStack())      # closed before the client
    return client


def served(table, stack):
    host = Host(None, "en")
    room = host.add(table)
    return host, room, client_of(host, stack)


def joined(client, room, seat, lang=None):
    ws = client.sockets.enter_context(client.websocket_connect(f"/ws/{room.id}"))
    ws.send_json({"type": "join", "token": room.token_of(seat), **({"lang": lang} if lang else {})})
    msg = ws.receive_json()
    assert msg["type"] == "view", msg
    return ws, msg


def keys_in(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from keys_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from keys_in(v)


def piece_ids(view) -> set:
    return {p["id"] for z in view["zones"] for p in z["pieces"] if p is not None}


def test_bad_input_is_refused_and_changes_nothing(tmp_path, stack):
    table = table_of(BLUFF, ["human", "human", "random"], 11, tmp_path)
    host, room, client = served(table, stack)
    assert table.humans_to_act() == [0]
    p1, _ = joined(client, room, 0)
    p2, _ = joined(client, room, 1)
    before = (table.state.digest(), table.version, len(table.actions), (tmp_path / "game.json").read_bytes())
    bad = [
        (p1, "{not json", "not JSON"),
        (p1, json.dumps({"type": "act", "token": room.token_of(0), "index": 1, "pad": "x" * MAX_MESSAGE}), "over 4096 bytes"),
        (p1, b"\x00\x01binary", "binary"),
        (p1, json.dumps([1, 2]), "JSON object"),
        (p1, json.dumps({"type": "fly"}), "unknown message type"),
        (p1, json.dumps({"type": "act", "token": room.token_of(0), "index": 0}), "choose an option from 1 to"),
        (p1, json.dumps({"type": "act", "token": room.token_of(0), "index": 10 ** 9}), "choose an option from 1 to"),
        (p1, json.dumps({"type": "act", "token": room.token_of(0), "index": "1"}), "'index' must be"),
        (p1, json.dumps({"type": "act", "token": room.token_of(0), "index": True}), "'index' must be"),
        (p1, json.dumps({"type": "act", "token": room.token_of(0), "index": 1, "version": table.version - 1}), "moved on"),
        # P1's page holding P2's token, and P2 acting when it is P1's decision
        (p1, json.dumps({"type": "act", "token": room.token_of(1), "index": 1}), "not the one this connection joined with"),
        (p2, json.dumps({"type": "act", "token": room.token_of(1), "index": 1}), "it is not P2's decision"),
        (p2, json.dumps({"type": "undo", "token": room.token_of(1)}), "only the designer"),
    ]
    for ws, raw, says in bad:
        if isinstance(raw, bytes):
            ws.send_bytes(raw)
        else:
            ws.send_text(raw)
        msg = ws.receive_json()
        assert msg["type"] == "refused" and says in msg["reason"], (raw[:60], msg)
        assert (table.state.digest(), table.version, len(table.actions),
                (tmp_path / "game.json").read_bytes()) == before, raw[:60]
    # after all that, the connection still plays
    p1.send_json({"type": "act", "token": room.token_of(0), "index": 1, "version": table.version})
    assert p1.receive_json()["type"] == "view"
    assert len(table.actions) > before[2]
    p1.close()
    p2.close()


def test_an_unknown_token_is_refused_and_the_socket_closed(stack):
    table = table_of(BLUFF, ["human", "random"], 1)
    host, room, client = served(table, stack)
    with client.websocket_connect(f"/ws/{room.id}") as ws:
        ws.send_json({"type": "join", "token": "guessed"})
        # final: the page stops trying that link and says why, instead of reconnecting forever
        assert ws.receive_json() == {"type": "refused", "reason": "that token sits at no seat of this game",
                                     "final": True}
        assert ws.receive()["type"] == "websocket.close"
    with client.websocket_connect(f"/ws/{room.id}") as ws:
        ws.send_json({"type": "act", "index": 1})
        assert "join first" in ws.receive_json()["reason"]
    with client.websocket_connect("/ws/nosuchgame") as ws:
        msg = ws.receive_json()
        assert msg["reason"].startswith("no such game on this table") and msg["final"] is True
    # a bot's seat has no token, so no page can sit there
    assert set(room.tokens.values()) == {0, None}


def test_one_link_opens_a_bounded_number_of_pages(stack):
    table = table_of(BLUFF, ["human", "random"], 1)
    host, room, client = served(table, stack)
    host.limits.per_token = 3
    pages = [joined(client, room, 0)[0] for _ in range(3)]
    with client.websocket_connect(f"/ws/{room.id}") as ws:
        ws.send_json({"type": "join", "token": room.token_of(0)})
        msg = ws.receive_json()
        assert msg["type"] == "refused" and "open on 3 pages already" in msg["reason"] and not msg.get("final")
        assert ws.receive()["type"] == "websocket.close"
    pages[0].close()
    for _ in range(500):            # the server takes the close up in its own time
        if len(room.conns) < 3:
            break
        time.sleep(0.01)
    joined(client, room, 0)         # one closed: the link opens a page again
    assert len(room.conns) == 3


def play_whole_game(table, room, client, pick: random.Random, lang="en"):
    """Both human seats play from their own sockets; every message each receives is checked
    against what the engine lets that seat see at that moment."""
    humans = [s for s, k in enumerate(table.seats) if k == "human"]
    socks = {s: joined(client, room, s, lang)[0] for s in humans}
    designer, _ = joined(client, room, None, lang)
    received = 0
    while not table.ended():
        if table.moment is not None:        # the table holds a moment: each person continues
            socks[min(table.moment["waiting"])].send_json({"type": "continue"})
        else:
            seat = table.humans_to_act()[0]
            options = table.options(seat, lang)
            socks[seat].send_json({"type": "act", "token": room.token_of(seat),
                                   "index": pick.randrange(len(options)) + 1, "version": table.version})
        for s, ws in [*socks.items(), (None, designer)]:
            msg = ws.receive_json()
            assert msg["type"] == "view", msg
            assert not FORBIDDEN_KEYS & set(keys_in(msg))
            # exactly the table's own view for that seat, and nothing the engine hides from it
            assert msg["view"] == json.loads(json.dumps(table.view(s, lang))), s
            if s is not None:
                assert piece_ids(msg["view"]) <= V.visible_pieces(table.game, table.state, s)
            received += 1
    for ws in [*socks.values(), designer]:
        ws.close()
    return received


@pytest.mark.parametrize("path, seed, lang", [(BLUFF, 3, "en"), (DEMOCRACY, 4, "ja")], ids=["bluff", "democracy"])
def test_a_seat_never_receives_another_seats_hidden_pieces_over_a_whole_game(path, seed, lang, stack):
    table = table_of(path, ["human", "human", "random"], seed)
    host, room, client = served(table, stack)
    received = play_whole_game(table, room, client, random.Random(seed), lang)
    assert table.ended() and received >= 9
    # hidden pieces really were hidden: at the end a seat still does not see the others' hands
    hidden = sum(p is None for z in table.view(0, lang)["zones"] for p in z["pieces"])
    assert hidden > 0 or path == BLUFF


def test_a_dropped_page_rejoins_its_seat_with_its_token(stack):
    table = table_of(BLUFF, ["human", "human", "random"], 5)
    host, room, client = served(table, stack)
    ws, first = joined(client, room, 0)
    ws.close()
    again, msg = joined(client, room, 0)
    assert msg["view"]["seat"] == 0 and msg["view"] == first["view"]
    again.send_json({"type": "act", "token": room.token_of(0), "index": 2, "version": msg["version"]})
    after = again.receive_json()
    assert after["type"] == "view" and after["version"] > msg["version"]
    again.close()


def test_the_designer_sees_every_piece_and_undoes_but_does_not_choose(tmp_path, stack):
    table = table_of(DEMOCRACY, ["human", "human", "random"], 2, tmp_path)
    host, room, client = served(table, stack)
    designer, msg = joined(client, room, None)
    assert msg["role"] == "designer"
    assert all(p is not None for z in msg["view"]["zones"] for p in z["pieces"])
    assert piece_ids(msg["view"]) == set(range(len(table.game.kind_of)))
    designer.send_json({"type": "act", "index": 1})
    assert "the designer watches" in designer.receive_json()["reason"]
    p1, view = joined(client, room, 0)
    start = (table.state.digest(), len(table.actions))
    p1.send_json({"type": "act", "token": room.token_of(0), "index": 1})
    p1.receive_json()
    designer.receive_json()
    assert len(table.actions) > start[1]
    designer.send_json({"type": "undo"})
    back = designer.receive_json()
    assert back["type"] == "view" and table.state.digest() == start[0] and len(table.actions) == start[1]
    assert p1.receive_json()["view"]["turn"]["waiting_for_you"] is True
    saved = json.loads((tmp_path / "game.json").read_text())
    assert len(saved["undone"]) == 1 and len(saved["actions"]) == start[1]
    p1.close()
    designer.close()


def test_the_page_language_switches_per_connection(stack):
    table = table_of(BLUFF, ["human", "human"], 1)
    host, room, client = served(table, stack)
    ws, en = joined(client, room, 0)
    ws.send_json({"type": "lang", "lang": "ja"})
    ja = ws.receive_json()
    assert en["view"]["game"] == "Bluff" and ja["view"]["game"] == "ブラフ" and ja["lang"] == "ja"
    ws.send_json({"type": "lang", "lang": "fr"})
    assert "'lang' must be one of en, ja" == ws.receive_json()["reason"]
    ws.close()


def test_the_lobby_lists_games_and_starts_another_only_with_its_key(stack):
    made = []

    def new_table(spec):
        seats = (spec or "human,random").split(",")
        if len(seats) != 2:
            raise ValueError("Bluff here is for 2 seats")
        made.append(table_of(BLUFF, seats, len(made)))
        return made[-1]

    host = Host(new_table, "en")
    host.add(table_of(BLUFF, ["human", "human"], 9))
    client = client_of(host, stack)
    assert client.post("/games", content=json.dumps({"key": "nope"})).status_code == 403
    assert client.post("/games", content="{").status_code == 400
    listed = client.post("/games", content=json.dumps({"key": host.key})).json()["games"]
    assert [len(g["links"]) for g in listed] == [3]
    bad = client.post("/games", content=json.dumps({"key": host.key, "start": True, "seats": "human"}))
    assert bad.status_code == 400 and "2 seats" in bad.json()["error"]
    started = client.post("/games", content=json.dumps({"key": host.key, "start": True, "seats": "human,random"}))
    games = started.json()["games"]
    assert len(games) == 2 and [l["url"] is None for l in games[1]["links"]] == [False, True, False]
    # a link's token comes after '#', so it never reaches a request line or a log
    assert all("#" in l["url"] for g in games for l in g["links"] if l["url"])
    assert client.get(games[1]["links"][0]["url"].split("#")[0].replace("http://testserver", "")).status_code == 200
    assert client.get("/table/nosuchgame").status_code == 404


def test_a_saved_game_steps_forward_and_back_from_any_seat(tmp_path, stack):
    table = table_of(BLUFF, ["human", "human", "random"], 3, tmp_path)
    play_whole_game(table, *served(table, stack)[1:], random.Random(1))
    rep = replay_mod.load(str(tmp_path / "game.json"))
    book = ReplayBook(rules_of(str(BLUFF)), rep, ["human", "human", "random"])
    host = Host(None, "en")
    room = host.add_replay(book)
    client = client_of(host, stack)
    ws = client.sockets.enter_context(client.websocket_connect(f"/ws/{room.id}"))
    ws.send_json({"type": "join", "token": room.token_of(None)})
    first = ws.receive_json()
    assert first["mode"] == "replay" and first["steps"] == len(rep.actions)
    assert first["step"] == (first["steps"] if book.dead_end else 0)
    for step, seat in [(5, 0), (6, 1), (5, None), (0, 2), (len(rep.actions), 1)]:
        ws.send_json({"type": "step", "step": step, "seat": seat})
        msg = ws.receive_json()
        assert msg["step"] == step and msg["looking_as"] == seat
        t = Table(rules_of(str(BLUFF)), 3, ["human"] * 3, rep.seed, None, (), rep.actions[:step])
        assert msg["view"]["zones"] == json.loads(json.dumps(t.view(seat, "en")["zones"]))
        if seat is not None:
            assert piece_ids(msg["view"]) <= V.visible_pieces(t.game, t.state, seat)
    for bad, says in [({"type": "step", "step": -1}, "'step' must be"), ({"type": "step", "step": 1, "seat": 3}, "'seat' must be"),
                      ({"type": "act", "index": 1}, "unknown message type")]:
        ws.send_json(bad)
        assert says in ws.receive_json()["reason"]
    ws.close()


GAMES = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "..", "games", "*.rules")))


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.slow) if p.endswith("populus.rules") else p
                                  for p in GAMES], ids=lambda p: os.path.basename(p)[:-6])     # Populus: ~20 s
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2 ** 31 - 1), choices=st.randoms(use_true_random=False))
def test_every_game_sends_each_seat_only_what_it_may_see(path, seed, choices):
    """Over random games of every seed game, every human seat at its own socket: each message is
    that seat's own view, and names no piece the engine's observation hides from the seat."""
    game = rules_of(path).game
    n = game.min_players
    table = table_of(path, ["human"] * n, seed)
    with ExitStack() as stack:
        host, room, client = served(table, stack)
        socks = {s: joined(client, room, s)[0] for s in range(n)}
        for _ in range(40):             # a long game is checked over its first decisions
            if table.ended():
                break
            if table.moment is not None:
                socks[min(table.moment["waiting"])].send_json({"type": "continue"})
            else:
                seat = table.humans_to_act()[0]
                socks[seat].send_json({"type": "act", "token": room.token_of(seat), "version": table.version,
                                       "index": choices.randrange(len(table.options(seat))) + 1})
            for s, ws in socks.items():
                msg = ws.receive_json()
                assert not FORBIDDEN_KEYS & set(keys_in(msg))
                assert msg["view"] == json.loads(json.dumps(table.view(s, "en")))
                observed = {o["piece"] for z in table.game.observation(table.state, s)["zones"].values()
                            for o in z if o is not None}
                assert piece_ids(msg["view"]) <= observed | V.visible_pieces(table.game, table.state, s)


@pytest.mark.parametrize("args, says", [
    ([str(BLUFF), "--seats", "human,robot"], "--seats: unknown agent 'robot'"),
    ([str(BLUFF), "--seats", "human,human", "-p", "3"], "--seats names 2 seats for 3 players"),
    ([str(BLUFF)], "bluff is for 2 to 6 players: say how many"),
    ([], "which game?"),
    (["--resume", "nosuch.json"], "nosuch.json: no such replay file"),
    ([str(BLUFF), "--resume", "x.json"], "either a GAME to start or --resume FILE"),
    (["--resume", "x.json", "--seed", "3"], "leave out --seats, -p, --seed and -v"),
], ids=["agent", "count", "players", "game", "resume", "both", "resume-seed"])
def test_serve_refuses_what_it_cannot_start_with_one_clear_line(args, says, tmp_path):
    from click.testing import CliRunner
    from dsl.cli import main
    result = CliRunner().invoke(main, ["serve", *args, "--save", str(tmp_path)])
    assert result.exit_code in (1, 2) and says in result.output and "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_an_ended_game_links_each_person_to_its_replay_seen_through_their_own_seat(stack):
    table = table_of(BLUFF, ["human", "human", "random"], 3)
    host, room, client = served(table, stack)
    play_whole_game(table, room, client, random.Random(3))
    assert room.replay is not None
    ws, msg = joined(client, room, 1)
    assert msg["view"]["final"]["ranking"] and msg["replay"].startswith(f"/replay/{room.replay.id}#")
    token = msg["replay"].split("#")[1]
    assert room.replay.tokens[token] == 1
    page = client.sockets.enter_context(client.websocket_connect(f"/ws/{room.replay.id}"))
    page.send_json({"type": "join", "token": token})
    first = page.receive_json()
    assert first["mode"] == "replay" and first["looking_as"] == 1
    # asking for the designer's view or another seat's still shows this seat's own
    for seat in (None, 0):
        page.send_json({"type": "step", "step": 2, "seat": seat})
        got = page.receive_json()
        assert got["looking_as"] == 1 and got["view"]["seat"] == 1
