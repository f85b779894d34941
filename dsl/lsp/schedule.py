"""When documents are analysed: only a document's latest text, one analysis at a time, in a
thread of its own, so that no request waits behind a queue of them.

An editor sends a change per keystroke. Analysing each in turn (0.1 s on the largest seed
game) put a hover typed after 200 of them 20 s behind. Here a change after a pause
is analysed at once, and one that follows another within DELAY makes the document due: its
analysis starts DELAY after the last change (a burst of typing is one analysis), of the text
as it is then. A change while an analysis runs makes the document due once more, not once
per change. So a document has at most one analysis running and one due. A request for
a document that is due starts its analysis at once and waits for it at most WAIT seconds;
past that it is answered from the last analysis finished. Requests are answered on the event
loop while analyses run, so a long one (a file near the size limit) holds up no other
document.

Everything here runs on the event loop except the jobs given to `Worker.submit`. Imports
only the standard library.
"""
from __future__ import annotations

import asyncio
import queue
import threading
from typing import Callable, Hashable, Optional

DELAY = 0.02    # seconds after a change before its analysis starts (a change within them puts it off,
PUT_OFF = 1.0   # but never past this after the change that made it due): a burst of typing is one analysis
WAIT = 1.0      # seconds a request waits for its document's due analysis before using the last one


class Worker:
    """One daemon thread running jobs in order (a process that is told to exit does not wait
    for an analysis to end, as it would for a ThreadPoolExecutor's threads)."""

    def __init__(self):
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: Optional[threading.Thread] = None

    def submit(self, fn: Callable, *args) -> asyncio.Future:
        """fn(*args), run in the worker; its result or exception on a future of the running loop."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="playtest-analysis", daemon=True)
            self._thread.start()
        self._jobs.put((loop, future, fn, args))
        return future

    def _run(self) -> None:
        while True:
            loop, future, fn, args = self._jobs.get()
            try:
                outcome = (fn(*args), None)
            except Exception as e:          # handed to whoever awaits the job
                outcome = (None, e)
            try:
                loop.call_soon_threadsafe(_settle, future, *outcome)
            except RuntimeError:            # the loop has closed: the server is exiting
                return


def _settle(future: asyncio.Future, result, error) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class Scheduler:
    """Analyses of documents, by key: `job(key)` (on the loop) gives the function to run for the
    document's text as it is now, or None when it is no longer open; `finish(key, future)`
    (on the loop) takes what it returned."""

    def __init__(self, job: Callable[[Hashable], Optional[Callable]], finish: Callable[[Hashable, asyncio.Future], None],
                 worker: Optional[Worker] = None):
        self.job, self.finish = job, finish
        self.worker = worker or Worker()
        self._timers: dict[Hashable, asyncio.TimerHandle] = {}
        self._running: set = set()
        self._due: set = set()                  # changed again while its analysis ran
        self._waiters: dict[Hashable, asyncio.Future] = {}
        self._first: dict[Hashable, float] = {}    # when the change that made a waiting start due came
        self._last: dict[Hashable, float] = {}     # when the document last changed

    def changed(self, key: Hashable, delay: float = DELAY) -> None:
        """The document changed: analyse it now if it had not changed for `delay` seconds, else
        `delay` seconds from now, putting off an earlier start (up to PUT_OFF after the first, so
        that a stream of changes is still analysed)."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        last, self._last[key] = self._last.get(key), now
        if (last is None or now - last > delay) and not self.busy(key):
            self._start(key)                    # a change after a pause (a keystroke): analysed at once
            return
        old = self._timers.pop(key, None)
        if old is not None:
            old.cancel()
        first = self._first.setdefault(key, now)
        self._timers[key] = loop.call_at(min(now + delay, first + PUT_OFF), self._start, key)

    def forget(self, key: Hashable) -> None:
        """The document closed: nothing more is started for it."""
        old = self._timers.pop(key, None)
        if old is not None:
            old.cancel()
        self._first.pop(key, None)
        self._last.pop(key, None)
        self._due.discard(key)
        self._wake(key)

    def busy(self, key: Hashable) -> bool:
        return key in self._timers or key in self._running or key in self._due

    async def settled(self, key: Hashable, wait: float = WAIT) -> None:
        """Return once the document's latest text is analysed, or after `wait` seconds."""
        if not self.busy(key):
            return
        if key in self._timers:                 # a request is waiting: no reason to wait for more typing
            self._timers.pop(key).cancel()
            self._start(key)
            if not self.busy(key):
                return
        waiter = self._waiters.get(key)
        if waiter is None:
            waiter = self._waiters[key] = asyncio.get_running_loop().create_future()
        try:
            await asyncio.wait_for(asyncio.shield(waiter), wait)
        except asyncio.TimeoutError:
            pass

    def _start(self, key: Hashable) -> None:
        self._timers.pop(key, None)
        self._first.pop(key, None)
        if key in self._running:
            self._due.add(key)
            return
        work = self.job(key)
        if work is None:
            self._wake(key)
            return
        self._running.add(key)
        self.worker.submit(work).add_done_callback(lambda f: self._ran(key, f))

    def _ran(self, key: Hashable, future: asyncio.Future) -> None:
        self._running.discard(key)
        try:
            self.finish(key, future)
        finally:
            if key in self._due:
                self._due.discard(key)
                self._start(key)
            elif not self.busy(key):
                self._wake(key)

    def _wake(self, key: Hashable) -> None:
        waiter = self._waiters.pop(key, None)
        if waiter is not None and not waiter.done():
            waiter.set_result(None)
