"""The progress of a long run on stderr: games done of all, games a second, the time left.

On a terminal one line redrawn in place about four times a second; with --progress and stderr
not a terminal (a log file, CI), a line every PLAIN_SECONDS. The output on stdout never changes.
"""
from __future__ import annotations

import sys
import time

REDRAW_SECONDS = 0.25
PLAIN_SECONDS = 10.0


def _clock(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    h, rest = divmod(seconds, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60}:{rest % 60:02d}"


class Progress:
    """progress(n): n more games done. Use as a context manager: the last line is finished on exit."""

    def __init__(self, total: int, label: str, stream=None, clock=time.monotonic):
        self.total, self.label = total, label
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty()
        self.clock = clock
        self.done = 0
        self.started = self.shown = clock()

    def line(self, now: float) -> str:
        seconds = now - self.started
        rate = self.done / seconds if seconds > 0 else 0.0
        left = f", {_clock((self.total - self.done) / rate)} left" if rate and self.done < self.total else ""
        return f"{self.label}: {self.done:,} of {self.total:,} games, {rate:,.0f} games/s{left}"

    def __call__(self, n: int = 1) -> None:
        self.done += n
        now = self.clock()
        if now - self.shown >= (REDRAW_SECONDS if self.live else PLAIN_SECONDS):
            self.shown = now
            self._write(now)

    def _write(self, now: float) -> None:
        text = self.line(now)
        self.stream.write(f"\r{text}\033[K" if self.live else text + "\n")
        self.stream.flush()

    def __enter__(self):
        if not self.live:       # a log says at once that the run has started
            self._write(self.started)
        return self

    def __exit__(self, *exc):
        self._write(self.clock())
        if self.live:
            self.stream.write("\n")
        self.stream.flush()
        return False
