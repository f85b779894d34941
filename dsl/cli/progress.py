"""Long runs a person can follow: progress on stderr (games done of all, games a second, the
time left), and Ctrl-C stopping the run at the next whole game with the figures so far.

On a terminal one line redrawn in place about four times a second; with --progress and stderr
not a terminal (a log file, CI), a line every PLAIN_SECONDS. The output on stdout never changes.
A stopped command writes its output as usual (whole, marked partial) and exits with STOPPED.
"""
from __future__ import annotations

import contextlib
import sys
import time

import click

STOPPED = 130       # the shell's status for a command ended by Ctrl-C: these figures are partial
REDRAW_SECONDS = 0.25
PLAIN_SECONDS = 10.0


def progress_option(f):
    return click.option("--progress", "show_progress", is_flag=True,
                        help="Show games done, games a second and the time left on stderr even when it is not a "
                             "terminal (a line every 10 s); on a terminal it is shown anyway.")(f)


@contextlib.contextmanager
def stoppable_run():
    """Within: the first Ctrl-C stops the run at the next whole game or batch (batches.stoppable),
    and the analysis returns the figures of the games played so far, marked partial. Stopped
    before the first game, there is nothing to show: the command says so and exits STOPPED."""
    from ..analyses.batches import Stopped, stoppable
    try:
        with stoppable():
            yield
    except Stopped:
        click.echo("error: stopped (Ctrl-C) before any game was played", err=True)
        sys.exit(STOPPED)


@contextlib.contextmanager
def followed(total: int, label: str, show: bool = False):
    """A run of `total` games within: stoppable (`stoppable_run`), and its Progress on stderr when
    `show` (--progress) or stderr is a terminal (else None)."""
    with stoppable_run():
        if show or sys.stderr.isatty():
            with Progress(total, label) as progress:
                yield progress
        else:
            yield None


def exit_stopped(what: str) -> None:
    """After a stopped run's output is written: say on stderr what it holds, and exit STOPPED."""
    click.echo(f"stopped (Ctrl-C) {what} (partial)", err=True)
    sys.exit(STOPPED)

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
