"""The table in the browser: one Starlette app serving any number of games at once.

No peeking is the server's job, not the page's: a connection is bound to one seat by the
token it joins with, and only ever receives `table.view(seat, lang)` (the designer's token:
`table.view(None, lang)`). The Table's state, seed and random generator never leave the
process. Everything a client sends is refused unless it is a short JSON text message of a
known shape; a refusal says why in one line and changes nothing.

Links carry their token after `#`, so it stays in the browser (never in a request line or a
server log): the page sends it in its first message over the socket.

Nothing one client does holds up another: every message to a page goes through its own
outbox (outbox.py), no lock is held while anything is sent, and what a client may hold
(sockets, unjoined sockets, a request body, unfinished games) is bounded by `Limits`.

May import: the table core (dsl/table), the language, printing (the font); starlette.
"""
from __future__ import annotations

import asyncio
import json
import os
import secrets
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..language import syntax as S
from . import choices, links_file, notes
from .game_table import Refused
from .limits import Limits
from .outbox import Outbox

STATIC = os.path.join(os.path.dirname(__file__), "static")
MAX_MESSAGE = 4096          # the longest message a page ever sends is well under 200 bytes
# finished games kept in memory to be looked at again; older ones live on in their replay files,
# so a server that plays game after game for days holds a bounded number of tables
KEEP_FINISHED = 64
LANGS = ("en", "ja")


def token() -> str:
    return secrets.token_urlsafe(18)


class Refusal(Exception):
    """What a message asked for cannot be done: the one line the sender is told."""


@dataclass
class Conn:
    """One open page: the seat its token sits at (None: the designer), its language, and in a
    replay the step it shows and whose view it looks through."""
    seat: Optional[int]
    token: str
    lang: str
    out: Outbox
    step: Optional[int] = None
    looking: Optional[int] = None


class _Tokens:
    tokens: dict

    def token_of(self, seat: Optional[int]) -> str:
        return next(t for t, s in self.tokens.items() if s == seat)


@dataclass
class Room(_Tokens):
    """One game being played: its table, who may join as which seat, who is connected."""
    id: str
    table: object
    lang: str
    tokens: dict = field(default_factory=dict)      # token -> seat, None for the designer
    conns: dict = field(default_factory=dict)       # WebSocket -> Conn
    # held while the table changes (in a thread) and while views are read from it; never while sending
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    last_active: float = field(default_factory=time.monotonic)
    replay: Optional[object] = None     # once ended: the ReplayRoom that steps through this game

    def snapshot(self, seat: Optional[int], lang: str) -> dict:
        t = self.table
        out = {"type": "view", "mode": "table", "role": "designer" if seat is None else "seat", "lang": lang,
               "seats": list(t.seats), "version": t.version, "dead_end": t.state.dead_end is not None,
               "view": t.view(seat, lang), "ruling": t.ruling(lang), "choices": choices.payload(t, seat, lang),
               "notes": notes.payload(t, seat, lang)}
        if self.replay is not None and seat in self.replay.tokens.values():
            out["replay"] = f"/replay/{self.replay.id}#{self.replay.token_of(seat)}"
        return out

    async def act(self, seat: Optional[int], msg: dict) -> None:
        t = self.table
        if msg["type"] == "undo":
            if seat is not None:
                raise Refusal("only the designer's link may undo")
            await anyio.to_thread.run_sync(t.undo, True)
            return
        if msg["type"] == "rule":
            # a seat proposes; the designer's link rules, and the game plays on under the ruling
            index = msg.get("index")
            if seat is None:
                await anyio.to_thread.run_sync(t.rule, index, self.lang)
            else:
                t.propose(seat, index, self.lang)
            return
        if msg["type"] == "continue":
            if seat is None:
                raise Refusal("the designer watches; the seats continue")
            await anyio.to_thread.run_sync(t.carry_on, seat)     # bots may play on: in a thread
            return
        index = msg.get("index")
        if seat is None:
            raise Refusal("the designer watches and may undo; the seats choose")
        if isinstance(index, bool) or not isinstance(index, int):
            raise Refusal("'index' must be the number of one of your options")
        seen = msg.get("version")
        if seen is not None and seen != t.version:
            raise Refusal("the table has moved on since you chose: look again")
        # bots may think for a while: in a thread, so the other rooms keep being served
        await anyio.to_thread.run_sync(t.act, seat, index)


@dataclass
class ReplayRoom(_Tokens):
    """A saved game shown step by step: any seat's view or the designer's at any step."""
    id: str
    book: object                # a ReplayBook
    lang: str
    tokens: dict = field(default_factory=dict)
    conns: dict = field(default_factory=dict)
    last_active: float = field(default_factory=time.monotonic)

    def snapshot(self, seat: Optional[int], lang: str, step: Optional[int] = None) -> dict:
        b = self.book
        step = b.start if step is None else step
        return {"type": "view", "mode": "replay", "role": "designer", "lang": lang, "seats": b.seats,
                "step": step, "steps": b.steps, "looking_as": seat, "note": b.note,
                "dead_end": b.dead_end and step == b.steps,
                "view": b.view(step, seat, lang), "fresh": b.fresh(step, seat, lang),
                "notes": getattr(b, "notes", [])}


class Host:
    """Every game this server holds, and how to start another (`new_table`, from the command line)."""

    def __init__(self, new_table: Optional[Callable] = None, lang: str = "en", key: Optional[str] = None,
                 limits: Optional[Limits] = None):
        self.rooms: dict[str, object] = {}
        self.key = key or token()       # the lobby's: lists every game's links, starts more
        self.new_table = new_table
        self.lang = lang
        self.finished: list[str] = []       # ended games' ids, oldest first
        self.keep_finished = KEEP_FINISHED
        self.limits = limits or Limits()
        self.sockets = 0                # open websockets
        self.address: Optional[tuple] = None    # (host, port) served on, kept with each game's links
        self.unjoined = 0               # of them, not joined to a seat yet

    def add(self, table, lang: Optional[str] = None, kept: Optional[dict] = None) -> Room:
        """A game at fresh links, or at the ones it had (`kept`: links_file.read's) when resumed.
        A game with a replay file has its links written beside it, for a resume after a crash.
        People play it: it stops at each moment until every person has continued."""
        table.holds_moments = True
        if kept is not None:
            room = Room(kept["room"], table, lang or self.lang, dict(kept["tokens"]))
        else:
            room = Room(secrets.token_urlsafe(6), table, lang or self.lang)
            room.tokens = {token(): seat for seat, kind in enumerate(table.seats) if kind == "human"}
            room.tokens[token()] = None
        if getattr(table, "replay_path", None):
            try:
                links_file.write(table.replay_path, room.id, room.tokens, self.key, self.address)
            except OSError:
                pass        # the game plays on; only a resume after a crash would give it new links
        self.rooms[room.id] = room
        return room

    def add_replay(self, book, lang: Optional[str] = None) -> ReplayRoom:
        room = ReplayRoom(secrets.token_urlsafe(6), book, lang or self.lang)
        room.tokens[token()] = None
        self.rooms[room.id] = room
        return room

    def _replay_of(self, room: Room) -> ReplayRoom:
        """The ended game to step through: each person's link shows it only as their seat saw
        it, the designer's as the designer did."""
        from .serve_replay import ReplayBook
        t = room.table
        rr = self.add_replay(ReplayBook(t.rules, t.replay(), t.seats), room.lang)
        for seat in set(room.tokens.values()) - {None}:
            rr.tokens[token()] = seat
        return rr

    def links(self, room, base: str) -> list[dict]:
        """One link a human seat and the designer's, each with its token; bots get none."""
        path = "replay" if isinstance(room, ReplayRoom) else "table"
        by_seat = {s: t for t, s in room.tokens.items()}
        out = []
        if isinstance(room, Room):
            for seat, kind in enumerate(room.table.seats):
                out.append({"seat": seat, "kind": kind,
                            "url": f"{base}/{path}/{room.id}#{by_seat[seat]}" if seat in by_seat else None})
        out.append({"seat": None, "kind": "designer", "url": f"{base}/{path}/{room.id}#{by_seat[None]}"})
        return out

    def app(self) -> Starlette:
        return Starlette(routes=[
            Route("/", self._home),
            Route("/table/{room}", self._page),
            Route("/replay/{room}", self._page),
            Route("/lobby", self._page),
            Route("/games", self._games, methods=["POST"]),
            WebSocketRoute("/ws/{room}", self._socket),
            Route("/font/jp.ttf", _font),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ])

    # ------------------------------------------------------------ HTTP
    async def _home(self, request: Request):
        return PlainTextResponse("playtest table: open one of the links `playtest serve` printed.\n")

    async def _page(self, request: Request):
        room = request.path_params.get("room")
        if room is not None and room not in self.rooms:
            return PlainTextResponse("no such game on this table (it may have been started by another server)\n",
                                     status_code=404)
        return FileResponse(os.path.join(STATIC, "table.html"),
                            headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})

    async def _games(self, request: Request):
        """The lobby: with the lobby's key, list every game's links, or start another game."""
        body = await _body(request, MAX_MESSAGE, self.limits.body_seconds)
        if isinstance(body, JSONResponse):
            return body
        try:
            data = json.loads(body)
        except (ValueError, UnicodeDecodeError, RecursionError):
            return JSONResponse({"error": "the request is not JSON"}, status_code=400)
        if not isinstance(data, dict) or not isinstance(data.get("key"), str) \
                or not secrets.compare_digest(data["key"], self.key):
            return JSONResponse({"error": "that is not this server's lobby key"}, status_code=403)
        base = str(request.base_url).rstrip("/")
        if data.get("start"):
            if self.new_table is None:
                return JSONResponse({"error": "this server shows a replay; it starts no games"}, status_code=400)
            full = self._make_way()
            if full:
                return JSONResponse({"error": full}, status_code=429)
            try:
                table = await anyio.to_thread.run_sync(self.new_table, data.get("seats"))
            except ValueError as e:
                return JSONResponse({"error": str(e)}, status_code=400)
            self.add(table)
        games = [{"id": r.id, "game": _title(r), "links": self.links(r, base)} for r in self.rooms.values()]
        return JSONResponse({"games": games})

    def _make_way(self) -> str:
        """Room for one more unfinished game: at the cap, the one idle longest goes if it has been
        idle `idle_seconds` with no page open (its replay file stays: `serve --resume` continues it);
        otherwise why no game can start now."""
        playing = [r for r in self.rooms.values() if isinstance(r, Room) and not r.table.ended()]
        if len(playing) < self.limits.playing:
            return ""
        oldest = min(playing, key=lambda r: r.last_active)
        idle = time.monotonic() - oldest.last_active
        if idle >= self.limits.idle_seconds and not oldest.conns:
            del self.rooms[oldest.id]
            return ""
        return (f"this table holds {len(playing)} unfinished games, as many as it keeps; the longest idle "
                f"was last played {idle / 60:.0f} min ago and one idle {self.limits.idle_seconds / 60:.0f} min "
                f"with no page open makes way: finish a game, or try again later")

    # ------------------------------------------------------------ the socket
    async def _socket(self, ws: WebSocket):
        lim = self.limits
        await ws.accept()
        if self.sockets >= lim.sockets or self.unjoined >= lim.unjoined:
            # a burst of pages or of clients that never join: this one tries again in a while
            await _say_and_close(ws, {"type": "refused", "reason": "the table is busy: the page tries again shortly"},
                                 1013, lim.send_seconds)
            return
        self.sockets += 1
        self.unjoined += 1
        joined = False
        room = self.rooms.get(ws.path_params["room"])
        out = Outbox(ws, lim.queued, lim.send_seconds, lambda: room is not None and room.conns.pop(ws, None))
        closing = False
        try:
            if room is None:
                out.put(_final("no such game on this table (it may have ended, or another server holds it)"))
                return
            loop = asyncio.get_running_loop()
            deadline = loop.time() + lim.join_seconds
            while ws not in room.conns:
                try:
                    self._join(room, ws, await asyncio.wait_for(_message(ws), deadline - loop.time()), out)
                except asyncio.TimeoutError:
                    out.put({"type": "refused", "reason": f"join within {lim.join_seconds:g} s of connecting"})
                    return
                except (_Unknown, _Busy) as e:
                    out.put(_final(str(e)) if isinstance(e, _Unknown) else {"type": "refused", "reason": str(e)})
                    return
                except Refusal as e:
                    out.put({"type": "refused", "reason": str(e)})
            joined = True
            self.unjoined -= 1
            await self._send(room, room.conns.get(ws))
            while not out.dropped:
                try:
                    msg = await _message(ws)
                    if out.dropped:     # what it sent before it was cut off is not acted on
                        break
                    await self._handle(room, ws, msg)
                except Refusal as e:
                    out.put({"type": "refused", "reason": str(e)})
        except WebSocketDisconnect:
            closing = True
        finally:
            self.sockets -= 1
            if not joined:
                self.unjoined -= 1
            if room is not None:
                room.conns.pop(ws, None)
            if closing or out.dropped:
                out.task.cancel()
            else:                       # what it was told (why it is refused) reaches it before the close
                out.close(1008)
                await out.finish()

    def _join(self, room, ws: WebSocket, msg: dict, out: Outbox):
        if msg["type"] != "join":
            raise Refusal("join first: {\"type\": \"join\", \"token\": ...}")
        tok = msg.get("token")
        if not isinstance(tok, str) or tok not in room.tokens:
            raise _Unknown("that token sits at no seat of this game")
        if sum(c.token == tok for c in room.conns.values()) >= self.limits.per_token:
            raise _Busy(f"this link is open on {self.limits.per_token} pages already: close one")
        lang = msg.get("lang", room.lang)
        seat = room.tokens[tok]
        room.conns[ws] = Conn(seat, tok, lang if lang in LANGS else room.lang, out, looking=seat)
        room.last_active = time.monotonic()

    async def _send(self, room, conn: Optional[Conn]) -> None:
        """One page's view, read while no move is being made at its table."""
        if conn is None:            # cut off meanwhile
            return
        if isinstance(room, ReplayRoom):
            conn.out.put(_again(room, conn))
            return
        async with room.lock:
            conn.out.put(_again(room, conn))

    async def _handle(self, room, ws: WebSocket, msg: dict) -> None:
        conn = room.conns.get(ws)
        if conn is None:            # cut off meanwhile: nothing it asks for is done
            return
        if msg["type"] == "lang":
            if msg.get("lang") not in LANGS:
                raise Refusal(f"'lang' must be one of {', '.join(LANGS)}")
            conn.lang = msg["lang"]
            await self._send(room, conn)
            return
        if isinstance(room, ReplayRoom):
            conn.out.put(_replay_step(room, conn, msg))
            return
        if msg["type"] not in ("act", "undo", "rule", "continue", "note", "answers"):
            raise Refusal(f"unknown message type {_short(msg['type'])}: act, continue, undo, rule, note, answers or lang")
        if msg.get("token", conn.token) != conn.token:
            raise Refusal("that token is not the one this connection joined with: one seat, one token")
        if msg["type"] in ("note", "answers"):
            await self._note(room, conn, msg)
            return
        async with room.lock:
            try:
                await room.act(conn.seat, msg)
            except Refused as e:
                raise Refusal(str(e))
            room.last_active = time.monotonic()
            if isinstance(room, Room) and room.table.ended() and room.replay is None:
                room.replay = self._replay_of(room)
            _broadcast(room)
        if isinstance(room, Room) and room.table.ended() and room.id not in self.finished:
            self.finished.append(room.id)
            while len(self.finished) > self.keep_finished:
                gone = self.rooms.pop(self.finished.pop(0), None)
                if getattr(gone, "replay", None) is not None:
                    self.rooms.pop(gone.replay.id, None)

    async def _note(self, room: Room, conn: Conn, msg: dict) -> None:
        """A note or the questionnaire's answers: kept, and only the writer's pages and the
        designer's told (another seat's view is unchanged, so it is sent nothing)."""
        async with room.lock:
            try:
                if msg["type"] == "note":
                    notes.add_note(room.table, conn.seat, msg.get("text"), msg.get("rule"))
                else:
                    notes.add_answers(room.table, conn.seat, msg.get("answers"))
            except notes.NoteRefused as e:
                raise Refusal(str(e))
            room.last_active = time.monotonic()
            for c in list(room.conns.values()):
                if c.seat is None or c.seat == conn.seat:
                    c.out.put(room.snapshot(c.seat, c.lang))


async def _font(request: Request):
    from ..printing.book import font_dir
    return FileResponse(os.path.join(font_dir(), "NotoSansJP[wght].ttf"), media_type="font/ttf",
                        headers={"Cache-Control": "max-age=86400"})


class _Unknown(Refusal):
    """A token this game does not know: refused, and the connection closed."""


class _Busy(Refusal):
    """Not now: refused and the connection closed; the page tries again in a while."""


def _title(room) -> str:
    g = (room.book.rules if isinstance(room, ReplayRoom) else room.table.game.rules).game
    return S.text_of(g.texts, "title", room.lang) or S.text_of(g.texts, "title", "en") or g.name


def _again(room, conn: Conn) -> dict:
    if isinstance(room, ReplayRoom):
        return room.snapshot(conn.looking, conn.lang, conn.step)
    return room.snapshot(conn.seat, conn.lang)


def _replay_step(room: ReplayRoom, conn: Conn, msg: dict) -> dict:
    if msg["type"] != "step":
        raise Refusal(f"unknown message type {_short(msg['type'])}: step or lang")
    step, seat = msg.get("step"), msg.get("seat")
    if conn.seat is not None:       # a person's link to their game's replay: through their own eyes only
        seat = conn.seat
    b = room.book
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= b.steps:
        raise Refusal(f"'step' must be a whole number from 0 to {b.steps}")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(b.seats)):
        raise Refusal(f"'seat' must be null (the designer's view) or a seat from 0 to {len(b.seats) - 1}")
    conn.step, conn.looking = step, seat
    return room.snapshot(seat, conn.lang, step)


async def _message(ws: WebSocket) -> dict:
    """The next message as a dict with a string 'type', or a Refusal saying what is wrong with it."""
    raw = await ws.receive()
    if raw["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(raw.get("code", 1000))
    text = raw.get("text")
    if text is None:
        raise Refusal("binary messages are not read: send JSON text")
    if len(text.encode("utf-8", "replace")) > MAX_MESSAGE:
        raise Refusal(f"the message is over {MAX_MESSAGE} bytes: nothing a table needs is that long")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        raise Refusal("the message is not JSON")
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise Refusal("a message is a JSON object with a \"type\"")
    return msg


def _broadcast(room: Room) -> None:
    """Every connection of the room gets its own seat's view, nobody else's; queued, never waited on."""
    for conn in list(room.conns.values()):
        conn.out.put(room.snapshot(conn.seat, conn.lang))


def _final(reason: str) -> dict:
    """A refusal the page does not retry after: the link itself is wrong."""
    return {"type": "refused", "reason": reason, "final": True}


async def _say_and_close(ws: WebSocket, msg: dict, code: int, seconds: float) -> None:
    try:
        await asyncio.wait_for(ws.send_json(msg), seconds)
        await asyncio.wait_for(ws.close(code=code), seconds)
    except Exception:
        pass


async def _body(request: Request, cap: int, seconds: float):
    """The request's body, read as it comes and no further than `cap` bytes: a longer one is
    refused (413) at once, its rest never read, and the connection closed; one that does not
    arrive whole in `seconds` is refused too (408)."""
    close = {"Connection": "close"}
    too_long = JSONResponse({"error": f"the request is over {cap} bytes"}, status_code=413, headers=close)
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > cap):
        return too_long
    body = bytearray()
    try:
        async with asyncio.timeout(seconds):
            async for chunk in request.stream():
                body += chunk
                if len(body) > cap:
                    return too_long
    except TimeoutError:
        return JSONResponse({"error": f"the request did not arrive whole within {seconds:g} s"},
                            status_code=408, headers=close)
    return bytes(body)


def _short(v) -> str:
    text = json.dumps(v, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."
