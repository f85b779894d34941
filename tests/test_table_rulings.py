"""Rulings at the table: an exact count in base Bluff (a dead end the rule file marks as an open
question) is put to the table in the rulebook's words; a variant that settles it is taken up
mid-game, the game plays on to a winner, and the replay and table-stats record the ruling."""
from __future__ import annotations

import json

from click.testing import CliRunner

from dsl.analyses import replay as replay_mod
from dsl.cli import main
from dsl.loader import load
from dsl.table.game_table import Refused, Table

from _util import BLUFF, ROOT

import pytest

SEED = 12       # P1 calling bluff whenever it may meets an exact count after two choices


def _play(t: Table, limit: int = 300) -> None:
    """P1 calls bluff whenever it may, else takes the first option, until the game ends."""
    for _ in range(limit):
        if t.ended():
            return
        opts = t.options(0)
        call = [o for o in opts if o["option"] == "call_bluff"]
        t.act(0, call[0]["index"] if call else 1)


@pytest.fixture
def at_exact_count(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    rules, _ = load("games/bluff.rules")
    t = Table(rules, 3, ["human", "random", "random"], SEED, str(tmp_path / "bluff.json"))
    t.advance()
    _play(t)
    assert t.state.dead_end is not None and t.state.dead_end.rule == "resolve_challenge"
    return t


def test_an_exact_count_asks_the_table_the_declared_question_in_the_books_words(at_exact_count):
    r = at_exact_count.ruling("en")
    assert r["question"]["name"] == "exact_count"
    assert r["question"]["title"] == "Not yet decided: “What if the count is exact?”"
    assert "equals the bid" in r["question"]["text"]
    names = [c["name"] for c in r["choices"]]
    # the "just" call changes the bidding already played: it is no ruling for a game under way
    assert names == ["bluff_exact_challenger_loses", "bluff_exact_nobody_loses", "bluff_exact_published", "end"]
    assert at_exact_count.ruling("ja")["question"]["title"] == "未決の問題「ぴったりだった時」"


def test_a_seat_proposes_the_designer_rules_and_the_game_plays_on_to_a_winner(at_exact_count, tmp_path):
    t = at_exact_count
    step = len(t.actions)
    t.propose(0, 2)
    assert t.ruling()["proposed"] == {"seat": 0, "index": 2, "name": "bluff_exact_nobody_loses"}
    t.rule(2)
    assert t.ruling() is None and t.state.dead_end is None
    _play(t)
    assert t.ended() and t.state.dead_end is None and t.state.outcome
    data = json.loads(open(tmp_path / "bluff.json", encoding="utf-8").read())
    assert data["variants"] == ["variants/bluff-exact-nobody-loses.rules"]
    [made] = data["rulings"]
    assert made["step"] == step and made["question"] == "exact_count" and made["chosen"] == "bluff_exact_nobody_loses"
    # the replay plays the whole game from the start, the ruling's variant applied, to the same end
    rep = replay_mod.load(str(tmp_path / "bluff.json"))
    rules, _ = replay_mod.embedded(rep)
    from dsl.engine import Game
    assert replay_mod.run(Game(rules, 3), rep.actions, log=False).digest() == t.state.digest()
    again = Table.resume(str(tmp_path / "bluff.json"))
    assert again.rulings == t.rulings and again.state.digest() == t.state.digest()


def test_letting_the_dead_end_stand_ends_the_game_and_is_recorded(at_exact_count, tmp_path):
    t = at_exact_count
    t.rule(len(t.ruling()["choices"]))
    assert t.ended() and t.ruling() is None
    assert json.loads(open(tmp_path / "bluff.json", encoding="utf-8").read())["rulings"][0]["chosen"] == "end"
    with pytest.raises(Refused):
        t.rule(1)


def test_a_ruling_out_of_range_or_with_nothing_open_is_refused(at_exact_count):
    t = at_exact_count
    with pytest.raises(Refused, match="from 1 to 4"):
        t.rule(9)
    with pytest.raises(Refused, match="from 1 to 4"):
        t.propose(0, 0)
    t.rule(1)
    with pytest.raises(Refused, match="nothing to rule"):
        t.propose(0, 1)


def test_table_stats_lists_the_rulings_made_at_the_table(at_exact_count, tmp_path):
    t = at_exact_count
    t.rule(2)
    _play(t)
    out = CliRunner().invoke(main, ["table-stats", str(tmp_path), "-n", "5"])
    assert out.exit_code == 0, out.output
    assert "ruling made at the table: exact_count: Exact count: nobody loses" in out.output
    js = json.loads(CliRunner().invoke(main, ["table-stats", str(tmp_path), "-n", "5", "--json"]).output)
    assert js["groups"][0]["table"]["rulings"] == {"exact_count: Exact count: nobody loses": 1}
