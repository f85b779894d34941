"""The table in the browser: one Starlette app serving any number of games at once.

No peeking is the server's job, not the page's: a connection is bound to one seat by the
token it joins with, and only ever receives `table.view(seat, lang)` (the designer's token:
`table.view(None, lang)`). The Table's state, seed and random generator never leave the
process. Everything a client sends is refused unless it is a short JSON text message of a
known shape; a refusal says why in one line and changes nothing.

Links carry their token after `#`, so it stays in the browser (never in a request line or a
server log): the page sends it in its first message over the socket.

May import: the table core (dsl/table), the language, printing (the font); starlette.
"""
from __future__ import annotations

import asyncio
import json
import os
import secrets
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
from .game_table import Refused

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
    # held while the table changes (in a thread) and while views are read from it
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def snapshot(self, seat: Optional[int], lang: str) -> dict:
        t = self.table
        return {"type": "view", "mode": "table", "role": "designer" if seat is None else "seat", "lang": lang,
                "seats": list(t.seats), "version": t.version, "dead_end": t.state.dead_end is not None,
                "view": t.view(seat, lang)}

    async def act(self, seat: Optional[int], msg: dict) -> None:
        t = self.table
        if msg["type"] == "undo":
            if seat is not None:
                raise Refusal("only the designer's link may undo")
            await anyio.to_thread.run_sync(t.undo)
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

    def snapshot(self, seat: Optional[int], lang: str, step: Optional[int] = None) -> dict:
        b = self.book
        step = b.start if step is None else step
        return {"type": "view", "mode": "replay", "role": "designer", "lang": lang, "seats": b.seats,
                "step": step, "steps": b.steps, "looking_as": seat, "note": b.note,
                "dead_end": b.dead_end and step == b.steps,
                "view": b.view(step, seat, lang), "fresh": b.fresh(step, seat, lang)}


class Host:
    """Every game this server holds, and how to start another (`new_table`, from the command line)."""

    def __init__(self, new_table: Optional[Callable] = None, lang: str = "en"):
        self.rooms: dict[str, object] = {}
        self.key = token()              # the lobby's: lists every game's links, starts more
        self.new_table = new_table
        self.lang = lang
        self.finished: list[str] = []       # ended games' ids, oldest first
        self.keep_finished = KEEP_FINISHED

    def add(self, table, lang: Optional[str] = None) -> Room:
        room = Room(secrets.token_urlsafe(6), table, lang or self.lang)
        room.tokens = {token(): seat for seat, kind in enumerate(table.seats) if kind == "human"}
        room.tokens[token()] = None
        self.rooms[room.id] = room
        return room

    def add_replay(self, book, lang: Optional[str] = None) -> ReplayRoom:
        room = ReplayRoom(secrets.token_urlsafe(6), book, lang or self.lang)
        room.tokens[token()] = None
        self.rooms[room.id] = room
        return room

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
        body = await request.body()
        if len(body) > MAX_MESSAGE:
            return JSONResponse({"error": f"the request is over {MAX_MESSAGE} bytes"}, status_code=413)
        try:
            data = json.loads(body)
        except (ValueError, UnicodeDecodeError):
            return JSONResponse({"error": "the request is not JSON"}, status_code=400)
        if not isinstance(data, dict) or not isinstance(data.get("key"), str) \
                or not secrets.compare_digest(data["key"], self.key):
            return JSONResponse({"error": "that is not this server's lobby key"}, status_code=403)
        base = str(request.base_url).rstrip("/")
        if data.get("start"):
            if self.new_table is None:
                return JSONResponse({"error": "this server shows a replay; it starts no games"}, status_code=400)
            try:
                table = await anyio.to_thread.run_sync(self.new_table, data.get("seats"))
            except ValueError as e:
                return JSONResponse({"error": str(e)}, status_code=400)
            self.add(table)
        games = [{"id": r.id, "game": _title(r), "links": self.links(r, base)} for r in self.rooms.values()]
        return JSONResponse({"games": games})

    # ------------------------------------------------------------ the socket
    async def _socket(self, ws: WebSocket):
        await ws.accept()
        room = self.rooms.get(ws.path_params["room"])
        if room is None:
            await _refuse(ws, "no such game on this table")
            await ws.close(code=1008)
            return
        try:
            while True:
                try:
                    msg = await _message(ws)
                    if ws not in room.conns:
                        self._join(room, ws, msg)
                        await _send(room, ws, lambda: _again(room, room.conns[ws]))
                        continue
                    await self._handle(room, ws, msg)
                except Refusal as e:
                    await _refuse(ws, str(e))
                    if isinstance(e, _Unknown):
                        await ws.close(code=1008)
                        return
        except WebSocketDisconnect:
            pass
        finally:
            room.conns.pop(ws, None)

    def _join(self, room, ws: WebSocket, msg: dict):
        if msg["type"] != "join":
            raise Refusal("join first: {\"type\": \"join\", \"token\": ...}")
        tok = msg.get("token")
        if not isinstance(tok, str) or tok not in room.tokens:
            raise _Unknown("that token sits at no seat of this game")
        lang = msg.get("lang", room.lang)
        room.conns[ws] = Conn(room.tokens[tok], tok, lang if lang in LANGS else room.lang)

    async def _handle(self, room, ws: WebSocket, msg: dict) -> None:
        conn = room.conns[ws]
        if msg["type"] == "lang":
            if msg.get("lang") not in LANGS:
                raise Refusal(f"'lang' must be one of {', '.join(LANGS)}")
            conn.lang = msg["lang"]
            await _send(room, ws, lambda: _again(room, conn))
            return
        if isinstance(room, ReplayRoom):
            await ws.send_json(_replay_step(room, conn, msg))
            return
        if msg["type"] not in ("act", "undo"):
            raise Refusal(f"unknown message type {_short(msg['type'])}: act, undo or lang")
        if msg.get("token", conn.token) != conn.token:
            raise Refusal("that token is not the one this connection joined with: one seat, one token")
        async with room.lock:
            try:
                await room.act(conn.seat, msg)
            except Refused as e:
                raise Refusal(str(e))
            await _broadcast(room)
        if isinstance(room, Room) and room.table.ended() and room.id not in self.finished:
            self.finished.append(room.id)
            while len(self.finished) > self.keep_finished:
                self.rooms.pop(self.finished.pop(0), None)


async def _font(request: Request):
    from ..printing.book import font_dir
    return FileResponse(os.path.join(font_dir(), "NotoSansJP[wght].ttf"), media_type="font/ttf",
                        headers={"Cache-Control": "max-age=86400"})


class _Unknown(Refusal):
    """A token this game does not know: refused, and the connection closed."""


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


async def _send(room, ws: WebSocket, snapshot: Callable) -> None:
    """One page's view, read while no move is being made at its table."""
    if isinstance(room, ReplayRoom):
        await ws.send_json(snapshot())
        return
    async with room.lock:
        await ws.send_json(snapshot())


async def _refuse(ws: WebSocket, reason: str) -> None:
    await ws.send_json({"type": "refused", "reason": reason})


async def _broadcast(room: Room) -> None:
    """Every connection of the room gets its own seat's view, nobody else's."""
    for ws, conn in list(room.conns.items()):
        try:
            await ws.send_json(room.snapshot(conn.seat, conn.lang))
        except Exception:               # a page that went away meanwhile: it rejoins with its token
            room.conns.pop(ws, None)


def _short(v) -> str:
    text = json.dumps(v, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."
