"""Ctrl-C typed at a terminal stops report, sweep, match, skill and diff -n: each writes its
output whole from the games played so far, marked partial, and exits 130; the progress line
on the terminal counts the games as they are played."""
from __future__ import annotations

import json
import os
import signal
import sys

import pexpect
import pytest

from _util import DEMOCRACY, GAMES, ROOT

TICTACTOE = GAMES / "tictactoe.rules"
VARIANT = ROOT / "variants" / "democracy-bad-catch.rules"
MANY = "1000000"        # far more than the test waits for: the run is always stopped


def ctrl_c_at_a_terminal(out, *command) -> tuple:
    """The command on a terminal (stdout to `out`), Ctrl-C typed once its progress line counts a
    game: (exit status, what the terminal showed)."""
    child = pexpect.spawn("/bin/sh", ["-c", 'exec "$@" > "$0"', str(out), sys.executable, "-m", "dsl.cli",
                                      *map(str, command)],
                          cwd=str(ROOT), env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120,
                          # as from a terminal: a test process may run with SIGINT ignored, which a child inherits
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    child.expect(rb"[1-9][\d,]* of [\d,]+ games")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus, (child.before or b"").decode()


def test_match(tmp_path):
    out = tmp_path / "match.json"
    status, shown = ctrl_c_at_a_terminal(out, "match", TICTACTOE, "-p", "2", "--agents", "flat:3,random", "-n", MANY,
                                         "--json")
    assert status == 130, shown
    data = json.loads(out.read_text())
    assert data["partial"] is True and data["games_asked"] == int(MANY) and 0 < data["games"] < int(MANY)
    assert data["wins"] + data["shared_wins"] + data["draws"] + data["losses"] + data["dead_end_games"] == data["games"]
    assert f"stopped (Ctrl-C) after {data['games']} of {MANY} games" in shown and "Traceback" not in shown


def test_skill_in_japanese(tmp_path):
    out = tmp_path / "skill.txt"
    status, shown = ctrl_c_at_a_terminal(out, "skill", TICTACTOE, "-p", "2", "--levels", "random,flat:3", "-n", MANY,
                                         "--lang", "ja")
    assert status == 130, shown
    text = out.read_text()
    assert "  途中まで: randomの1000000ゲーム中" in text and "ゲームでCtrl-Cにより停止。それより後の段階は遊んでいない" in text
    assert "stopped (Ctrl-C) after 1 of 2 levels" in shown


def test_report_writes_its_three_files_whole(tmp_path):
    status, shown = ctrl_c_at_a_terminal(tmp_path / "stdout", "report", DEMOCRACY, "-p", "4", "-n", MANY,
                                         "-o", tmp_path / "r", "--lang", "ja")
    assert status == 130, shown
    data = json.loads((tmp_path / "r.json").read_text())
    games = data["configs"][0]["summary"]["games"]
    assert data["partial"] is True and 0 < games < int(MANY)
    assert data["summary"][0] == f"途中まで: 4人の{MANY}ゲーム中{games}ゲームのところでCtrl-Cで停止。それより後は遊んでいない"
    assert data["summary"][0] in (tmp_path / "r.html").read_text()
    rows = (tmp_path / "r.csv").read_text().splitlines()
    assert rows[1].startswith(f"4,random,{games},")
    assert "the report's figures are of the games played until then (partial)" in shown


def test_sweep(tmp_path):
    out = tmp_path / "sweep.json"
    status, shown = ctrl_c_at_a_terminal(out, "sweep", DEMOCRACY, "--param", "target=3..5", "-p", "4", "-n", MANY,
                                         "--json")
    assert status == 130, shown
    data = json.loads(out.read_text())
    assert data["partial"] is True and data["rows_asked"] == 3
    assert len(data["rows"]) == 1 and data["rows"][0]["partial"] is True and 0 < data["rows"][0]["games"] < int(MANY)


@pytest.mark.parametrize("fmt", ["json", "html"])
def test_diff_in_play(tmp_path, fmt):
    out = tmp_path / f"diff.{fmt}"
    status, shown = ctrl_c_at_a_terminal(tmp_path / "stdout", "diff", DEMOCRACY, VARIANT, "-n", MANY, "-p", "4",
                                         "--format", fmt, "-o", out, "--lang", "ja")
    assert status == 130, shown
    if fmt == "json":
        play = json.loads(out.read_text())["behaviour"]
        assert play["partial"] is True and play["metrics"] == [] and play["games_played"]["B"] == 0
        assert 0 < play["games_played"]["A"] < int(MANY)
    else:
        assert "途中まで: Ctrl-Cで停止。各側1000000ゲームのうちAは" in out.read_text()
    assert "the figures compare the games each side played (partial)" in shown
