"""Undo at the table: dice rolled after an undo are rolled afresh (not the ones already seen),
the undo is told on every seat's log, taking back a reveal needs the designer, and the game
with its undos resumes exactly."""
from __future__ import annotations

from dsl.loader import load
from dsl.table.game_table import Refused, Table

from _util import ROOT

import pytest


def _bluff(tmp_path, monkeypatch, seed: int) -> Table:
    """Base Bluff, one person and two random bots, saved in tmp_path, advanced to P1's first decision."""
    monkeypatch.chdir(ROOT)
    rules, _ = load("games/bluff.rules")
    t = Table(rules, 3, ["human", "random", "random"], seed, str(tmp_path / "g.json"))
    t.advance()
    return t


def _rolls(t: Table, since: int) -> list:
    return [tuple(e["faces"]) for e in t.state.log[since:] if e["event"] == "roll"]


def _to_a_new_round(t: Table) -> int:
    """P1 bids, then calls bluff when it may, until dice are rolled after one of its decisions;
    returns where that decision's events begin in the log."""
    for _ in range(50):
        start = len(t.state.log)
        opts = t.options(0)
        call = [o for o in opts if o["option"] == "call_bluff"]
        t.act(0, call[0]["index"] if call else 1)
        if _rolls(t, start):
            return start
    raise AssertionError("no new round")


@pytest.mark.parametrize("seed", [0, bytes(range(16))], ids=["whole-number seed", "seed material"])
def test_dice_rolled_after_an_undo_are_not_the_ones_already_seen(tmp_path, monkeypatch, seed):
    t = _bluff(tmp_path, monkeypatch, seed)
    start = _to_a_new_round(t)
    seen = _rolls(t, start)
    move = t.actions[next(i for i in range(len(t.actions) - 1, -1, -1) if t.actions[i][0] == 0)]
    t.undo()
    assert len(t.state.log) == start
    t.act(0, next(i + 1 for i, m in enumerate(t.state.legal_moves(0)) if list(m) == list(move[1])))
    assert _rolls(t, start) and _rolls(t, start) != seen
    again = Table.resume(str(tmp_path / "g.json"))
    assert again.state.digest() == t.state.digest() and again.undone == t.undone


def test_an_undo_is_told_on_every_seats_log_and_a_reveal_needs_the_designer(tmp_path, monkeypatch):
    t = _bluff(tmp_path, monkeypatch, 0)
    _to_a_new_round(t)
    assert t.undo_reveals()
    with pytest.raises(Refused, match="designer"):
        t.undo(designer=False)
    t.undo()
    for seat in (0, 1, 2, None):
        log = t.view(seat)["log"]
        assert log[-1].startswith("↶ undone:") and "to P1's decision" in log[-1], log[-3:]
    assert t.view(1, "ja")["log"][-1].startswith("↶ 取り消し")


def test_at_the_terminal_u_after_a_reveal_asks_once_more_and_then_tells_the_undo(tmp_path, monkeypatch):
    import io
    from rich.console import Console
    from dsl.table.terminal import Terminal
    t = _bluff(tmp_path, monkeypatch, 0)
    script = iter(["u", "n", "u", "y", "q"])
    state = {"start": None}

    def read():
        if state["start"] is None or not _rolls(t, state["start"]):
            state["start"] = len(t.state.log)
            call = [o for o in t.options(0) if o["option"] == "call_bluff"]
            return str(call[0]["index"] if call else 1)
        return next(script)

    out = io.StringIO()
    Terminal(t, "en", Console(file=out, width=120, highlight=False), read).run()
    text = out.getvalue()
    assert text.count("type y to undo anyway") == 2
    assert len(t.undone) == 1 and "↶ undone: " in text


def test_the_undo_is_told_where_play_went_back_to_not_at_the_end(tmp_path, monkeypatch):
    t = _bluff(tmp_path, monkeypatch, 0)
    _to_a_new_round(t)
    kept = {seat: t.view(seat)["log"] for seat in (0, 1, 2, None)}
    at = next(i for i in range(len(t.actions) - 1, -1, -1) if t.actions[i][0] == 0)
    t.undo()
    before = {seat: t.view(seat)["log"][:-1] for seat in (0, 1, 2, None)}     # the log as it was at P1's decision
    for seat in before:
        assert kept[seat][:len(before[seat])] == before[seat]
    # play goes on past the undo: two more decisions of P1's and what follows them
    for _ in range(2):
        t.act(0, 1)
    assert len(t.actions) > at + 2
    for seat in (0, 1, 2, None):
        log = t.view(seat)["log"]
        marks = [i for i, line in enumerate(log) if line.startswith("↶ undone:")]
        assert marks == [len(before[seat])], (seat, marks, len(before[seat]), len(log))
        assert log[:marks[0]] == before[seat] and len(log) > marks[0] + 1
