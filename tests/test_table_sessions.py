"""Sessions across versions of the rules in `table-stats`: replays grouped by the rules'
fingerprint and variants, the questionnaire's ratings with a 95% interval, the notes by rule and
by decision with the command that opens the replay at the note's step, and the rulings."""
from __future__ import annotations

import json
import shutil

from click.testing import CliRunner

from dsl.cli import main
from dsl.table import notes
from dsl.table.game_table import Table
from dsl.table.sessions import interval

from dsl.loader import load

from _util import GAMES

TICTACTOE = GAMES / "tictactoe.rules"


def _game(rules_path, out, seed, overall, note=None):
    t = Table(load(str(rules_path))[0], 2, ["human", "human"], seed, str(out))
    t.advance()
    t.act(0, 1)
    if note:
        notes.add_note(t, 1, note, "take")
    while not t.ended():
        t.act(t.humans_to_act()[0], 1)
    notes.add_answers(t, 0, {"overall": overall, "again": 4, "unclear": "who starts"})
    notes.add_answers(t, 1, None)
    return t


def test_the_interval_is_students_t_and_absent_for_one_answer():
    assert interval([4]) == {"n": 1, "mean": 4.0, "low": None, "high": None}
    r = interval([3, 4, 5])
    assert r["mean"] == 4.0 and r["low"] == round(4 - 4.303 / 3 ** 0.5, 3) and r["high"] == round(4 + 4.303 / 3 ** 0.5, 3)


def test_table_stats_groups_sessions_by_version_and_lists_notes_with_their_step(tmp_path):
    edited = tmp_path / "rules" / "tictactoe.rules"
    edited.parent.mkdir()
    shutil.copy(TICTACTOE, edited)
    games = tmp_path / "games"
    games.mkdir()
    _game(edited, games / "a.json", 1, 3, "no good choice here")
    _game(edited, games / "b.json", 2, 5)
    edited.write_text(edited.read_text(encoding="utf-8").replace('en "Claim a square"', 'en "Mark a square"'),
                      encoding="utf-8")
    _game(edited, games / "c.json", 3, 2)
    r = CliRunner().invoke(main, ["table-stats", str(games), "-n", "5", "--json"])
    assert r.exit_code == 0, r.output
    played = json.loads(r.output)["sessions"]
    assert len(played) == 2 and len({s["fingerprint"] for s in played}) == 2
    two = next(s for s in played if s["games"] == 2)
    assert two["ratings"]["overall"] == {"n": 2, "mean": 4.0, "low": round(4 - 12.706 * 2 ** 0.5 / 2 ** 0.5, 3),
                                         "high": round(4 + 12.706, 3)}
    assert two["answered"] == 2 and two["skipped"] == 2
    [note] = two["notes_by_rule"]["take"]
    assert (note["step"], note["seat"], note["text"]) == (1, 1, "no good choice here")
    assert note["open"] == f"playtest replay {games / 'a.json'} --serve --step 1"
    text = CliRunner().invoke(main, ["table-stats", str(games), "-n", "5"]).output
    assert "notes by rule:" in text and "    Claim a square:" in text
    assert "at action 1, P2: no good choice here" in text
    assert "overall: mean 4.00 of 2 (95% interval -8.71 to 16.71)" in text


def test_replay_refuses_a_step_past_its_end(tmp_path):
    t = _game(TICTACTOE, tmp_path / "g.json", 1, 3)
    r = CliRunner().invoke(main, ["replay", t.replay_path, "--serve", "--step", "99"])
    assert r.exit_code != 0 and f"--step 99 is past its last step, {len(t.actions)}" in r.output
