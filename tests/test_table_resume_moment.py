"""A server killed while the table holds a moment (a reveal on the felt) resumes holding that
same moment for the people who had not yet continued, at the version their pages last saw."""
from __future__ import annotations

from dsl.table.game_table import Table

from _util import BLUFF, rules_of


def _to_a_moment(path) -> Table:
    t = Table(rules_of(str(BLUFF)), 2, ["human", "human"], 5, str(path))
    t.holds_moments = True
    t.advance()
    while t.moment is None:
        seat = t.humans_to_act()[0]
        t.act(seat, len(t.options(seat)))       # the last option: call bluff as soon as it is offered
    return t


def _resumed(path) -> Table:
    r = Table.resume(str(path))
    r.holds_moments = True
    r.advance()
    return r


def test_a_resumed_table_holds_the_moment_the_crash_cut_short(tmp_path):
    path = tmp_path / "bluff.json"
    t = _to_a_moment(path)
    r = _resumed(path)
    assert r.moment is not None and r.version == t.version and r.actions == t.actions
    for seat in (0, 1):
        assert r.view(seat)["moment"] == t.view(seat)["moment"] and r.view(seat)["log"] == t.view(seat)["log"]
    # one person continues, the server dies again: only the other is still asked
    t.carry_on(0)
    r = _resumed(path)
    assert r.view(0)["moment"] == t.view(0)["moment"] and sorted(r.moment["waiting"]) == [1]
    t.carry_on(1)
    r = _resumed(path)
    assert t.moment is None and r.moment is None


def test_a_saved_moment_that_does_not_read_as_one_is_ignored(tmp_path):
    import json
    path = tmp_path / "bluff.json"
    t = _to_a_moment(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    for bad in ({"start": -1, "waiting": [0]}, {"start": 0, "waiting": [7]}, "x", [1]):
        data["held"] = bad
        path.write_text(json.dumps(data), encoding="utf-8")
        r = Table.resume(str(path))
        assert r.moment is None and r.actions == t.actions
