"""What the server sends one page goes through that page's own outbox: a short queue and a task
that writes it out. Putting a message in never waits, so a page that stops reading holds up
nobody: once its queue is full, or one message has waited `send_seconds` to be taken, the page
is dropped (its connection cut; a live page reconnects with its token and sees the table as it
is then). Views are whole snapshots, so a dropped page misses nothing it cannot see again.

May import: the standard library, starlette's WebSocket.
"""
from __future__ import annotations

import asyncio
import json
from typing import Callable, Optional

from .limits import ABORT

_CLOSE = object()


class Outbox:
    def __init__(self, ws, size: int, send_seconds: float, on_drop: Optional[Callable] = None):
        self.ws = ws
        self.queue: asyncio.Queue = asyncio.Queue(size)
        self.send_seconds = send_seconds
        self.on_drop = on_drop
        self.dropped = False
        self.gone = asyncio.Event()         # set once nothing more will be written
        self.task = asyncio.get_running_loop().create_task(self._write())

    def put(self, msg: dict) -> None:
        if self.dropped:
            return
        try:
            self.queue.put_nowait(json.dumps(msg, separators=(",", ":"), ensure_ascii=False))
        except asyncio.QueueFull:
            self.drop()

    def close(self, code: int) -> None:
        """Close the socket once what is queued has been written."""
        if not self.dropped:
            try:
                self.queue.put_nowait((_CLOSE, code))
            except asyncio.QueueFull:
                self.drop()

    async def _write(self) -> None:
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, tuple):
                    await asyncio.wait_for(self.ws.close(code=item[1]), self.send_seconds)
                    return
                await asyncio.wait_for(self.ws.send_text(item), self.send_seconds)
        except asyncio.CancelledError:
            raise
        except Exception:           # too slow (a timeout), or the socket is gone already
            self.drop()
        finally:
            self.gone.set()

    def drop(self) -> None:
        """Cut the page off now, without writing to it: a page not reading cannot take a close frame."""
        if self.dropped:
            return
        self.dropped = True
        if self.on_drop is not None:
            self.on_drop()
        if asyncio.current_task() is not self.task:
            self.task.cancel()
        self.gone.set()
        abort = self.ws.scope.get("extensions", {}).get(ABORT)
        if abort is not None:
            abort["abort"]()        # the handler's receive then sees the disconnect

    async def finish(self) -> None:
        """Wait (a bounded time) for what is queued to be written; drop the page if it is not."""
        try:
            await asyncio.wait_for(self.gone.wait(), self.send_seconds * 2)
        except asyncio.TimeoutError:
            self.drop()
        if not self.task.done():
            self.task.cancel()
