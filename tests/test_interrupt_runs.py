"""Ctrl-C in the long runs besides simulate (report, sweep, match, skill, diff -n): the run stops
at the next whole game, and its figures are those of the run's first games, the same as a whole
run of that many; its output says it is partial, in English and Japanese.

Here the SIGINT is sent by this process to itself from the progress callback, once a given
number of games is played, so the count where it stops is known; test_interrupt_commands.py
sends it from a terminal to a command in its own process."""
from __future__ import annotations

import os
import signal

import pytest

from dsl.agents import RandomAgent, parse_agent
from dsl.agents.match import match, skill
from dsl.analyses import report as report_mod, sweep as sweep_mod
from dsl.analyses.batches import Pool, Stopped, stoppable
from dsl.analyses.simulate import simulate
from dsl.cli.agents import format_match, format_skill
from dsl.engine import compiled
from dsl.variants.diff import format_html, stopped_line

from _util import DEMOCRACY, GAMES, rules_of

TICTACTOE = GAMES / "tictactoe.rules"


@pytest.fixture(autouse=True)
def sigint_at_its_default():
    """A pytest-xdist worker may run with SIGINT ignored; `stoppable` sets its own handler, and
    what was there before comes back after it."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def ctrl_c_after(games: int):
    """A progress callback that sends this process SIGINT, once, when `games` games are played."""
    played = [0]

    def progress(n: int = 1) -> None:
        before = played[0]
        played[0] += n
        if before < games <= played[0]:
            os.kill(os.getpid(), signal.SIGINT)
    return progress


def _whole(result: dict) -> dict:
    return {k: v for k, v in result.items() if k not in ("partial", "games_asked")}


def test_a_stopped_match_is_a_whole_match_of_the_games_it_played():
    game = compiled(rules_of(str(TICTACTOE)), 2)
    a, b = parse_agent("flat:3"), RandomAgent()
    with stoppable():
        stopped = match(game, a, b, 500, 7, ctrl_c_after(37))
    assert stopped["partial"] is True and stopped["games_asked"] == 500 and stopped["games"] == 37
    assert _whole(stopped) == match(game, a, b, 37, 7)
    assert "partial" not in match(game, a, b, 37, 7)


def test_a_match_stopped_before_its_first_game_has_nothing_to_report():
    game = compiled(rules_of(str(TICTACTOE)), 2)
    with stoppable(), pytest.raises(Stopped):
        os.kill(os.getpid(), signal.SIGINT)
        match(game, RandomAgent(), RandomAgent(), 50, 1)


def test_workers_stopped_at_once_give_the_run_s_first_games():
    """Two worker processes each stop in the middle of their batch: only the earlier batch (and
    those before it) is merged, so the figures are of games 0 to k - 1."""
    game = compiled(rules_of(str(DEMOCRACY)), 4)
    with Pool(2) as pool, stoppable():
        # far more games than are played before the first tick: the run is always stopped
        stopped = simulate(game, 1_000_000, 3, ctrl_c_after(300), pool=pool)
    assert stopped.partial and 0 < stopped.games < 1_000_000
    assert _whole(stopped.to_json()) == simulate(game, stopped.games, 3).to_json()


def test_a_stopped_skill_curve_keeps_the_levels_played_the_last_one_partial():
    game = compiled(rules_of(str(TICTACTOE)), 2)
    levels = [RandomAgent(), parse_agent("flat:3"), parse_agent("flat:6")]
    with stoppable():
        stopped = skill(game, levels, RandomAgent(), 40, 2, ctrl_c_after(40 + 13))
    whole = skill(game, levels[:2], RandomAgent(), 40, 2)
    assert stopped["partial"] is True and stopped["levels_asked"] == 3
    assert [c["agent"] for c in stopped["curve"]] == ["random", "flat:3"]
    assert stopped["curve"][0] == whole["curve"][0]
    assert stopped["curve"][1]["partial"] is True and stopped["curve"][1]["games"] == 13
    partial_level = match(game, levels[1], RandomAgent(), 13, 2)
    assert stopped["curve"][1]["score"] == partial_level["score"]
    assert stopped["curve"][1]["wins"] == partial_level["wins"]
    assert "in flat:3 after 13 of 40 games; the levels after it were not played" in format_skill("tictactoe", stopped)
    assert "flat:3の40ゲーム中13ゲームでCtrl-Cにより停止" in format_skill("tictactoe", stopped, "ja")


def test_a_stopped_match_says_so_in_both_languages():
    game = compiled(rules_of(str(TICTACTOE)), 2)
    with stoppable():
        stopped = match(game, parse_agent("flat:3"), RandomAgent(), 100, 1, ctrl_c_after(9))
    assert "partial: stopped by Ctrl-C after 9 of 100 games" in format_match("tictactoe", stopped)
    assert "途中まで: 100ゲーム中9ゲームでCtrl-Cにより停止" in format_match("tictactoe", stopped, "ja")
    assert "partial" not in format_match("tictactoe", match(game, parse_agent("flat:3"), RandomAgent(), 9, 1))


def test_a_stopped_report_is_the_report_of_the_games_played():
    rules = rules_of(str(DEMOCRACY))
    with stoppable():
        stopped = report_mod.build(rules, [3, 4], 30, 5, progress=ctrl_c_after(30 + 11))
    assert stopped["partial"] is True
    assert [(c["players"], c["summary"]["games"]) for c in stopped["configs"]] == [(3, 30), (4, 11)]
    whole_3 = report_mod.build(rules, [3], 30, 5)
    whole_4 = report_mod.build(rules, [4], 11, 5)
    assert stopped["configs"][0] == whole_3["configs"][0]
    cut = stopped["configs"][1]
    assert cut["summary"]["partial"] is True and cut["summary"]["games_asked"] == 30
    assert {**cut, "summary": _whole(cut["summary"])} == whole_4["configs"][0]
    english, japanese = report_mod.summary(stopped, "en"), report_mod.summary(stopped, "ja")
    assert english[0] == "Partial: stopped by Ctrl-C at 4 players after 11 of 30 games; nothing after that was played"
    assert japanese[0] == "途中まで: 4人の30ゲーム中11ゲームのところでCtrl-Cで停止。それより後は遊んでいない"
    assert not any("Partial" in s for s in report_mod.summary(whole_3, "en"))


def test_a_report_stopped_between_its_parts_leaves_out_the_parts_not_played():
    rules = rules_of(str(DEMOCRACY))
    with stoppable():
        stopped = report_mod.build(rules, [3, 4], 20, 5, progress=ctrl_c_after(20))
    # the 20th game ends the first part whole; the second is stopped before its first game
    assert [c["summary"]["games"] for c in stopped["configs"]] == [20]
    assert "partial" not in stopped["configs"][0]["summary"]
    assert report_mod.summary(stopped, "en")[0] == ("Partial: stopped by Ctrl-C; the sections after the last one "
                                                    "shown are left out (not played or cut short)")


def test_a_stopped_sweep_keeps_its_rows_and_says_where_it_stopped():
    rules = rules_of(str(DEMOCRACY))
    params = [("target", [3, 4, 5])]
    with stoppable():
        stopped = sweep_mod.run(rules, params, [4], 20, 1, progress=ctrl_c_after(20 + 6))
    whole = sweep_mod.run(rules, [("target", [3, 4])], [4], 20, 1)
    assert stopped["partial"] is True and stopped["rows_asked"] == 3
    assert stopped["rows"][0] == whole["rows"][0]
    assert stopped["rows"][1]["partial"] is True and stopped["rows"][1]["games"] == 6
    six = sweep_mod.run(rules, [("target", [4])], [4], 6, 1)
    assert {k: v for k, v in stopped["rows"][1].items() if k not in ("partial", "games")} == six["rows"][0]
    english = "Partial: stopped by Ctrl-C at target=4, 4 players after 6 of 20 games; the 1 rows after it were not played"
    japanese = "途中まで: target=4、4人の20ゲーム中6ゲームでCtrl-Cにより停止。その後の1行は遊んでいない"
    assert sweep_mod.partial_line(stopped, "en") == english
    assert sweep_mod.partial_line(stopped, "ja") == japanese
    assert english in sweep_mod.render_html(stopped, "en")
    assert japanese in sweep_mod.render_html(stopped, "ja")


def test_a_stopped_comparison_in_play_says_what_each_side_played():
    behaviour = {"games": 500, "players": 4, "seed": 1, "metrics": [], "partial": True,
                 "games_played": {"A": 120, "B": 0}}
    assert stopped_line(behaviour, "en") == ("Partial: stopped by Ctrl-C; of 500 games a side, A played 120 and B 0; "
                                             "B played no game, so nothing is compared")
    assert stopped_line(behaviour, "ja") == "途中まで: Ctrl-Cで停止。各側500ゲームのうちAは120、Bは0ゲーム。Bは1ゲームも遊んでいないので比較はない"
    rules = rules_of(str(DEMOCRACY))
    assert stopped_line(behaviour, "ja") in format_html(rules, rules, [], behaviour, "ja")
    assert stopped_line({**behaviour, "games_played": {"A": 500, "B": 31}}, "en").endswith(
        "A played 500 and B 31; the figures are of the games played")


def test_a_report_stopped_in_its_strategies_table_leaves_the_table_out():
    rules = rules_of(str(TICTACTOE))
    with stoppable():
        stopped = report_mod.build(rules, [2], 20, 5, progress=ctrl_c_after(20 + 7), strategy_games=30)
    assert stopped["partial"] is True and stopped["strategies"] is None
    assert stopped["configs"] == report_mod.build(rules, [2], 20, 5)["configs"]
    assert report_mod.build(rules, [2], 20, 5, strategy_games=3)["strategies"]     # there is a table to leave out
