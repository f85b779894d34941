"""Every Ctrl-C is honoured: one Python drops (raised in a garbage collector's callback, or
caught inside Hypothesis) still stops fuzz and explore, with the status of an interrupted
command, never a finished run's 0."""
from __future__ import annotations

import signal

import pytest
from click.testing import CliRunner

from dsl.analyses import fuzz_drawing
from dsl.cli import main

from _util import BLUFF, GAMES


class _DropsCtrlC:
    """Ctrl-C arriving while the garbage collector runs a finaliser: the KeyboardInterrupt is
    raised inside __del__, where Python prints 'Exception ignored' and drops it."""

    def __del__(self):
        signal.raise_signal(signal.SIGINT)


def _ctrl_c_at(monkeypatch, owner, name, after: int, dropped: bool):
    own = getattr(owner, name)
    calls = [0]

    def wrapped(*args, **kw):
        calls[0] += 1
        if calls[0] == after:
            if dropped:
                _DropsCtrlC()           # made and let go at once: its finaliser runs here
            else:
                signal.raise_signal(signal.SIGINT)
        return own(*args, **kw)
    monkeypatch.setattr(owner, name, wrapped)
    return calls


# the dropped interrupt is what Python reports as unraisable: that is the case under test
pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


@pytest.fixture
def interruptible():
    """Ctrl-C as a terminal gives it, whatever this test process was started with."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.mark.parametrize("dropped", [True, False])
def test_a_ctrl_c_during_fuzz_stops_it_with_status_130(monkeypatch, interruptible, dropped):
    calls = _ctrl_c_at(monkeypatch, fuzz_drawing.Runner, "play", 30, dropped)
    res = CliRunner().invoke(main, ["fuzz", str(BLUFF), "-p", "2", "-n", "400", "--seed", "1", "--workers", "1",
                                    "--json"])
    assert res.exit_code == 130, (res.exit_code, res.output)
    assert "stopped (Ctrl-C): fuzz was interrupted" in res.stderr
    assert res.stdout == "" and calls[0] < 400          # stopped, not played to its end
    assert "Traceback" not in res.output


def test_a_ctrl_c_dropped_during_explore_stops_it_with_status_130(monkeypatch, interruptible):
    from dsl.engine import Game
    calls = _ctrl_c_at(monkeypatch, Game, "apply", 50, True)
    res = CliRunner().invoke(main, ["explore", str(GAMES / "tictactoe.rules"), "-p", "2", "--json"])
    assert res.exit_code == 130, (res.exit_code, res.output)
    assert "stopped (Ctrl-C): explore was interrupted" in res.stderr and res.stdout == ""
    assert calls[0] < 20_000


@pytest.mark.parametrize("twice", [False, True])
def test_ctrl_c_to_serve_while_a_bot_thinks_stops_it_quietly(tmp_path, twice):
    """Ctrl-C while a bot thinks (for minutes here): the server stops, without a traceback or an
    error logged, rather than wait for the move, saying the move is dropped; the game saved
    before it is whole. A second Ctrl-C does the same at once."""
    import json
    import os
    import re
    import subprocess
    import sys
    import time
    from websockets.sync.client import connect
    from _util import ROOT

    server = subprocess.Popen([sys.executable, "-m", "dsl.cli", "serve", str(GAMES / "tictactoe.rules"),
                               "--seats", "human,ismcts:1000000", "--port", "0", "--seed", "1",
                               "--save", str(tmp_path)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        for line in server.stdout:
            if line.lstrip().startswith("P1"):
                break
        host, room, token = re.search(r"http://([^/]+)/table/([^#\s]+)#(\S+)", line).groups()
        with connect(f"ws://{host}/ws/{room}") as ws:
            ws.send(json.dumps({"type": "join", "token": token}))
            version = json.loads(ws.recv())["version"]
            ws.send(json.dumps({"type": "act", "index": 1, "version": version}))      # the bot then thinks
            time.sleep(1)
            server.send_signal(signal.SIGINT)
            if twice:
                time.sleep(0.5)
                server.send_signal(signal.SIGINT)
            _, err = server.communicate(timeout=60)     # a guard: the bot's move takes minutes
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert "Traceback" not in err and "ERROR" not in err, err
    assert "stopped: the move a bot was making is dropped" in err and server.returncode == 0
    (saved,) = tmp_path.glob("*.json")
    json.loads(saved.read_text(encoding="utf-8"))


def _tictactoe_on(tmp_path, width: int):
    """Tic-tac-toe on a width x 3 grid, with its strategies beside it."""
    from dsl.loader import load
    from dsl.engine import Game
    from _util import ROOT
    (tmp_path / "games").mkdir()
    (tmp_path / "strategies").mkdir()
    text = (GAMES / "tictactoe.rules").read_text(encoding="utf-8")
    text = text.replace("grid 3 by 3", f"grid {width} by 3").replace("count 5 per player", f"count {width * 2} per player")
    path = tmp_path / "games" / "tictactoe.rules"
    path.write_text(text, encoding="utf-8")
    (tmp_path / "strategies" / "tictactoe.rules").write_text(
        (ROOT / "strategies" / "tictactoe.rules").read_text(encoding="utf-8"), encoding="utf-8")
    return Game(load(str(path))[0], 2)


def test_a_strategy_reading_every_space_for_every_option_of_a_huge_board_is_refused_saying_why(tmp_path):
    """On a 400 x 3 grid, `careful` would read 1,200 spaces for each of 1,200 options at its first
    move (seconds, and minutes on larger boards): refused at that decision with what it costs;
    `centre`, which reads only the option's own square, plays."""
    import random
    from dsl.agents.strategy import StrategyAgent, StrategyError
    game = _tictactoe_on(tmp_path, 400)
    s = game.new_initial_state()
    player, moves = game.decision(s)
    with pytest.raises(StrategyError, match=r"the strategy 'careful' would read 1,200 spaces for each of 1,200 "
                                            r"options, 1,440,000 readings for one decision"):
        StrategyAgent("careful").act(s, player, random.Random(1), moves)
    assert StrategyAgent("centre").act(s, player, random.Random(1), moves) in moves


def test_a_refused_strategy_stops_simulate_with_one_clear_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _tictactoe_on(tmp_path, 400)
    res = CliRunner().invoke(main, ["simulate", "games/tictactoe.rules", "-n", "2", "--agents", "strategy:careful,random",
                                    "--workers", "1"])
    assert res.exit_code == 1 and "error: the strategy 'careful' would read 1,200 spaces" in res.output, res.output
    assert "Traceback" not in res.output
