"""Long runs a person can follow: progress on stderr with --progress, and Ctrl-C (SIGINT) stops
`simulate` at the next whole game with the figures so far, marked partial, status 130."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from dsl.cli.progress import Progress

from _util import DEMOCRACY, ROOT

GAMES = 1_000_000       # far more than the test waits for: the run is always stopped


def _stopped_run(*extra) -> tuple:
    """`simulate --json --progress` of GAMES games, sent SIGINT once its progress says games were
    played: (exit status, stdout, stderr)."""
    proc = subprocess.Popen([sys.executable, "-m", "dsl.cli", "simulate", str(DEMOCRACY), "-p", "4", "-n", str(GAMES),
                             "--json", "--progress", *extra], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    first = proc.stderr.readline()          # written as the run starts: its handler is in place
    assert first.startswith("simulating democracy: 0 of 1,000,000 games"), first
    second = proc.stderr.readline()         # the next, 10 s on, counts the games played by then
    assert not second.startswith("simulating democracy: 0 of"), second
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    return proc.returncode, out, first + second + err


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_prints_the_figures_so_far_marked_partial(workers):
    status, out, err = _stopped_run("--workers", workers)
    assert status == 130, err
    assert "Traceback" not in err
    data = json.loads(out)                  # one whole JSON object, not a half one
    assert data["partial"] is True and data["games_asked"] == GAMES
    assert 0 < data["games"] < GAMES
    # the figures are of exactly the games played: every game is counted once in each of them
    assert sum(data["wins_by_seat"].values()) + data["draws"] + data["no_winner"] + data["dead_end_games"] == data["games"]
    assert data["metrics"]["outcomes"]["won"]["n"] == data["games"]
    assert f"stopped (Ctrl-C) after {data['games']} of {GAMES} games" in err


def test_a_run_left_alone_is_not_partial():
    res = subprocess.run([sys.executable, "-m", "dsl.cli", "simulate", str(DEMOCRACY), "-p", "4", "-n", "20", "--json"],
                         cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert res.returncode == 0 and "partial" not in json.loads(res.stdout) and res.stderr == ""


class _Log:
    """A stderr that is not a terminal, keeping what was written."""

    def __init__(self):
        self.text = ""

    def isatty(self):
        return False

    def write(self, s):
        self.text += s

    def flush(self):
        pass


def test_progress_says_games_done_games_a_second_and_time_left():
    log, now = _Log(), [100.0]
    with Progress(1000, "simulating x", log, clock=lambda: now[0]) as progress:
        now[0] += 5.0
        progress(100)                       # 5 s after the last line: not yet another
        now[0] += 5.0
        progress(150)
        now[0] += 1.0
        progress(100)
    assert log.text.splitlines() == ["simulating x: 0 of 1,000 games, 0 games/s",
                                     # 250 games in 10 s: 25 a second, and 750 left take 30 s
                                     "simulating x: 250 of 1,000 games, 25 games/s, 0:30 left",
                                     "simulating x: 350 of 1,000 games, 32 games/s, 0:20 left"]
