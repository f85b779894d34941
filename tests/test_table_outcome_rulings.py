"""Rulings for outcomes: a ranking that ends in a tie no rule breaks (a dead end the rule file
marks as an open question, and no variant settles) is put to the table as the outcomes the
ranking allows; the designer's choice ends the game with it, and the replay, a resumed table
and table-stats all carry it."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from dsl.analyses import replay as replay_mod
from dsl.cli import main
from dsl.engine import Game
from dsl.loader import load
from dsl.table.game_table import Refused, Table

from _util import ROOT

RULES = "tests/fixtures/tied_ending.rules"


@pytest.fixture
def tied(tmp_path, monkeypatch):
    """P1 and P3 score 2, P2 scores 1: the top two tie."""
    monkeypatch.chdir(ROOT)
    rules, _ = load(RULES)
    t = Table(rules, 3, ["human"] * 3, 5, str(tmp_path / "tie.json"))
    t.advance()
    for seat, pick in [(0, 2), (1, 1), (2, 2)]:
        t.act(seat, pick)
    assert t.state.dead_end.kind == "tie not covered" and t.state.dead_end.contenders == (0, 2)
    return t


def test_the_tie_asks_the_declared_question_and_offers_the_outcomes_the_ranking_allows(tied):
    r = tied.ruling("en")
    assert r["question"]["name"] == "tied_top"
    assert r["question"]["title"] == "Not yet decided: “What if the top scores tie?”"
    assert r["question"]["text"] == "The most points win, and nothing is said of a tie."
    assert [(c["index"], c["title"]) for c in r["choices"]] == [
        (1, "P1 wins"), (2, "P3 wins"), (3, "P1 and P3 share the win"), (4, "Nobody wins"), (5, "End the game here")]
    assert [c.get("outcome") for c in r["choices"]] == [[0], [2], [0, 2], [], None]
    assert [c["title"] for c in tied.ruling("ja")["choices"]] == [
        "P1の勝ち", "P3の勝ち", "P1・P3が勝ちを分け合う", "誰も勝たない", "ここでゲームを終える"]


def test_the_designer_names_a_winner_and_the_replay_and_a_resumed_table_end_the_same(tied, tmp_path):
    tied.propose(1, 2)
    tied.rule(2)
    assert tied.ended() and tied.state.dead_end is None and tied.state.outcome == (2,)
    assert tied.result() == "P3 wins" and tied.ruling() is None
    with pytest.raises(Refused, match="nothing to rule"):
        tied.rule(1)
    path = str(tmp_path / "tie.json")
    data = json.loads(open(path, encoding="utf-8").read())
    assert data["rulings"] == [{"step": 3, "rule": "final_count", "where": f"{RULES}:16:5", "question": "tied_top",
                                "chosen": "win_p3", "title": "P3 wins", "outcome": [2]}]
    rep = replay_mod.load(path)
    game = Game(replay_mod.embedded(rep)[0], 3)
    assert replay_mod.run(game, rep.actions, log=False, rulings=rep.rulings).digest() == tied.state.digest() \
        == data["final_state"]
    # without the ruling the same moves end in the dead end: the ruling is what makes the outcome
    assert replay_mod.run(game, rep.actions, log=False).dead_end is not None
    again = Table.resume(path)
    assert again.state.digest() == tied.state.digest() and again.result() == "P3 wins"
    out = CliRunner().invoke(main, ["replay", path])
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[-2:] == ["Game over. Winner: P3", f"state {data['final_state']}"]


def test_a_shared_win_or_nobody_winning_ends_the_game_so(tied, tmp_path):
    tied.rule(4)
    assert tied.state.outcome == () and tied.result() == "a draw: nobody wins"
    out = CliRunner().invoke(main, ["table-stats", str(tmp_path), "-n", "3"])
    assert out.exit_code == 0, out.output
    assert "ruling made at the table: tied_top: Nobody wins" in out.output
    rules, _ = load(RULES)
    t = Table(rules, 3, ["human"] * 3, 5)
    t.advance()
    for seat, pick in [(0, 2), (1, 1), (2, 2)]:
        t.act(seat, pick)
    t.rule(3)
    assert t.state.outcome == (0, 2) and t.result() == "P1 and P3 win"


def test_a_replay_whose_ruling_names_no_seat_of_the_game_is_refused(tied, tmp_path):
    tied.rule(1)
    path = str(tmp_path / "tie.json")
    data = json.loads(open(path, encoding="utf-8").read())
    data["rulings"][0]["outcome"] = [7]
    open(path, "w", encoding="utf-8").write(json.dumps(data))
    out = CliRunner().invoke(main, ["replay", path])
    assert out.exit_code != 0 and "names winners [7], not seats of this game" in out.output


def test_democracys_tied_tribe_totals_are_ruled_and_the_replay_ends_with_the_winner_named(tmp_path, monkeypatch):
    """Seed 13, three random seats: P2 and P3 end level on tribe points and no variant settles it."""
    monkeypatch.chdir(ROOT)
    rules, _ = load("games/democracy.rules")
    t = Table(rules, 3, ["random"] * 3, 13, str(tmp_path / "democracy.json"))
    t.advance()
    assert (t.state.dead_end.rule, t.state.dead_end.contenders) == ("final_count", (1, 2))
    r = t.ruling("en")
    assert r["question"]["title"] == "Not yet decided: “What if the top tribe totals tie?”"
    assert [c["title"] for c in r["choices"]] == [
        "P2 wins", "P3 wins", "P2 and P3 share the win", "Nobody wins", "End the game here"]
    assert t.ruling("ja")["question"]["title"] == "未決の問題「部族点が同点のとき」"
    t.rule(3)
    assert t.state.outcome == (1, 2)
    rep = replay_mod.load(str(tmp_path / "democracy.json"))
    final = replay_mod.run(Game(replay_mod.embedded(rep)[0], 3), rep.actions, log=False, rulings=rep.rulings)
    assert final.outcome == (1, 2) and final.digest() == t.state.digest() == rep.final_state
