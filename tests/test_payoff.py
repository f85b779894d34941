"""`end game with payoff EXPR for p in COLL`: a game whose result is chips, not only a win."""
from __future__ import annotations

import itertools
import json
from pathlib import Path

from click.testing import CliRunner

from dsl.analyses.replay import run
from dsl.analyses.simulate import game_rng, play_random, simulate
from dsl.cli import main
from dsl.engine import CHANCE, Game
from dsl.language import syntax as S
from dsl.language.checker import check
from dsl.language.parser import parse_text
from dsl.loader import load
from dsl.printing.narrate import Narrator
from dsl.printing.prose import Voice, plain

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "mini-poker.rules"


def _game() -> Game:
    rules, _ = load(str(FIXTURE))
    return Game(rules, 2)


def _ranks(game, s) -> tuple:
    """The rank in each player's hand, read from the zones."""
    return tuple(game.piece_attrs[s.zones[game.zone_names.index(f"hand({i})")][0]]["rank"] for i in (1, 2))


def _expected(ranks, choices) -> list:
    """The pay-offs the rules promise, worked out here from the ranks and the choices alone."""
    if choices == ["bet", "fold"]:
        return [1, -1]
    stake = 2 if choices == ["bet", "call"] else 1
    high = 0 if ranks[0] > ranks[1] else 1
    return [stake if i == high else -stake for i in range(2)]


def test_every_deal_and_line_of_play_returns_the_pay_offs_and_the_winner():
    game = _game()
    seen = set()
    for deal, line in itertools.product(range(6), (["check"], ["bet", "call"], ["bet", "fold"])):
        s = run(game, [[CHANCE, deal]] + [[k, [m]] for k, m in zip((0, 1), line)], log=False)
        ranks = _ranks(game, s)
        want = _expected(ranks, line)
        assert s.payoffs == tuple(want)
        assert s.returns() == [float(v) for v in want]
        assert [int(p) for p in s.outcome] == [want.index(max(want))]
        assert s.to_json()["payoffs"] == want
        seen.add((ranks, tuple(want)))
    assert len(seen) == 15      # six deals, three lines; a fold pays what a won check pays (three deals)
    assert ((3, 1), (2, -2)) in seen and ((1, 3), (-2, 2)) in seen and ((1, 2), (1, -1)) in seen


def test_a_game_that_ends_with_winners_has_no_pay_offs_and_returns_the_share_of_the_win():
    rules, _ = parse_text("game g\n  players 2 to 2\nplay\n  end game winners players\n", "g.rules")
    s = Game(rules, 2).new_initial_state()
    assert s.payoffs is None and s.returns() == [0.5, 0.5] and "payoffs" not in s.to_json()


def test_simulate_reports_each_seats_mean_pay_off():
    game = _game()
    totals, games = [0, 0], 150
    for i in range(games):
        played = play_random(game, game_rng(7, i))
        choices = [a[1][0] for a in played.actions if a[0] != CHANCE]
        for seat, v in enumerate(_expected(_ranks(game, played.state), choices)):
            totals[seat] += v
    summary = simulate(game, games, 7).to_json()
    assert summary["payoff_games"] == games
    assert summary["mean_payoff_by_seat"] == {"1": round(totals[0] / games, 4), "2": round(totals[1] / games, 4)}
    assert totals[0] == -totals[1] != 0
    cli = CliRunner().invoke(main, ["simulate", str(FIXTURE), "-p", "2", "-n", str(games), "--seed", "7", "--json"])
    assert json.loads(cli.output)["mean_payoff_by_seat"] == summary["mean_payoff_by_seat"]
    table = CliRunner().invoke(main, ["simulate", str(FIXTURE), "-p", "2", "-n", str(games), "--seed", "7"]).output
    assert "mean pay-off" in table and f"{totals[0] / games:+.3f}" in table


def test_a_game_without_pay_offs_reports_none():
    rules, _ = parse_text("game g\n  players 2 to 2\nplay\n  end game winners players\n", "g.rules")
    assert "mean_payoff_by_seat" not in simulate(Game(rules, 2), 5, 1).to_json()


def test_checks_name_the_mistake_where_it_stands():
    text = FIXTURE.read_text(encoding="utf-8")
    for old, new, message in (
            ("payoff won(p) for p in players", "payoff hand(p) for p in players", "expected a number"),
            ("payoff won(p) for p in players", "payoff won(p) for p in teams", "pay-offs are for players, not teams"),
            ("payoff won(p) for p in players", "payoff won(q) for p in players", "unknown name 'q'")):
        rules, _ = parse_text(text.replace(old, new), "bad.rules")
        errors = [d for d in check(rules) if d.severity == "error"]
        assert errors and any(message in d.message for d in errors), [d.message for d in errors]
        assert all(d.span.line == text.splitlines().index("  end game with payoff won(p) for p in players") + 1
                   for d in errors if message in d.message)


def test_a_pay_off_that_is_not_a_number_is_a_dead_end():
    text = ("game g\n  players 2 to 2\nvariable v = nobody\nplay\n  end game with payoff v for p in players\n")
    rules, _ = parse_text(text, "g.rules")
    s = Game(rules, 2).new_initial_state()
    assert s.dead_end is not None and s.dead_end.kind == "evaluation failed"
    assert "not a number" in s.dead_end.message and s.dead_end.line == 5


def test_reads_and_narrates_in_both_languages():
    game = _game()
    play = [f for f in game.rules.of(S.Flow) if f.name == "play"][0]
    assert plain(Voice(game.rules, "en").stmt(play.body[-1]).runs) == (
        "The game ends: each player is paid the chips won (pays when it is negative), and the highest pay-off wins.")
    assert plain(Voice(game.rules, "ja").stmt(play.body[-1]).runs) == (
        "ゲーム終了。各プレイヤーの収支は勝ち取ったチップ(負なら支払い)。収支が最も多いプレイヤーの勝ち。")
    s = run(game, [[CHANCE, 0], [0, ["bet"]], [1, ["fold"]]])
    assert Narrator(game, "en").tell(s.log)[-1] == "Game over. Pay-offs: P1 +1, P2 -1. Winner: P1"
    assert Narrator(game, "ja").tell(s.log)[-1] == "ゲーム終了。収支: P1 +1, P2 -1。勝者: P1"


def test_agents_play_for_the_pay_offs():
    """Holding the lowest card against a bet, calling loses 2 and folding 1, though both lose:
    an agent that played for the win alone would not care (and calls); one that plays for
    the pay-offs folds."""
    import random

    from dsl.agents import FlatAgent, ISMCTSAgent
    game = _game()
    s = game.new_initial_state()
    s.apply(1)
    s.apply(("bet",), s.current_actors()[0])
    assert _ranks(game, s) == (3, 1) and [int(p) for p in s.current_actors()] == [1]
    for agent in (FlatAgent(50), ISMCTSAgent(100)):
        assert [agent.act(s, s.current_actors()[0], random.Random(i)) for i in range(4)] == [("fold",)] * 4


def test_a_match_still_measures_winning():
    from dsl.agents import FlatAgent, RandomAgent
    from dsl.agents.match import match
    result = match(_game(), FlatAgent(20), RandomAgent(), 40, 1)
    assert 0 <= result["score"] <= 1 and result["wins"] + result["losses"] + result["shared_wins"] == 40


def test_the_report_shows_the_mean_pay_off_beside_the_wins():
    from dsl.analyses.report import build, render_csv, render_html
    rules, _ = load(str(FIXTURE))
    data = build(rules, [2], 60, 3)
    paid = data["configs"][0]["summary"]["mean_payoff_by_seat"]
    assert paid == simulate(Game(rules, 2), 60, 3).to_json()["mean_payoff_by_seat"]
    html = render_html(data)
    assert "<th>mean pay-off</th>" in html
    assert f"<td>{paid['1']}</td>" in html and f"<td>{paid['2']}</td>" in html
    assert "pay" not in render_csv(data)        # the CSV's columns stay as they were
