"""Strategies from the command line: seated by --agents, shown side by side by `playtest
strategies` (en, ja, JSON), and every agent failure (an undeclared strategy, a package's agent
that raises) a clear error with a non-zero exit, never a traceback."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from dsl.agents.plugins import GROUP
from dsl.cli import main

from _util import GAMES, ROOT

BLUFF = str(GAMES / "bluff.rules")
TICTACTOE = str(GAMES / "tictactoe.rules")


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_match_seats_a_strategy_and_the_same_seed_gives_the_same_figures():
    args = ("match", BLUFF, "-p", "2", "--agents", "strategy:cautious,random", "-n", "30", "--seed", "2", "--json")
    first, again = run(*args), run(*args)
    assert first.exit_code == 0, first.output
    r = json.loads(first.output)
    assert r["a"] == "strategy:cautious" and r["games"] == 30
    assert first.output == again.output


def test_simulate_and_skill_take_strategies_and_rollout_strategies():
    res = run("simulate", BLUFF, "-p", "2", "--agents", "strategy:bold,strategy:cautious", "-n", "10", "--json")
    assert res.exit_code == 0, res.output
    assert sorted(set(json.loads(res.output)["agents"])) == ["strategy:bold", "strategy:cautious"]
    res = run("skill", BLUFF, "-p", "2", "--levels", "random,strategy:reckoner,ismcts:10/cautious", "-n", "6", "--json")
    assert res.exit_code == 0, res.output
    assert [c["agent"] for c in json.loads(res.output)["curve"]] == ["random", "strategy:reckoner", "ismcts:10/cautious"]


@pytest.mark.parametrize("command", [
    ("match", "--agents", "strategy:nope,random"),
    ("simulate", "--agents", "strategy:nope,random"),
    ("skill", "--levels", "random,ismcts:5/nope"),
])
def test_an_undeclared_strategy_is_a_clear_error_before_any_game(command):
    res = run(command[0], BLUFF, "-p", "2", *command[1:], "-n", "5")
    assert res.exit_code == 1
    assert res.output.strip() == ("error: the game 'bluff' declares no strategy 'nope'; "
                                  "its strategies: bold, cautious, reckoner")


class Broken:
    """A package's agent whose own code fails."""

    def act(self, observation, options, rng):
        return observation["state"]


@pytest.mark.parametrize("command", [
    ("match", "--agents", "plugin:broken,random"),
    ("simulate", "--agents", "plugin:broken,random"),
    ("skill", "--levels", "random,plugin:broken"),
    ("report", "--agents", "plugin:broken,random", "--skill", ""),
])
def test_a_package_agent_that_fails_stops_the_command_with_its_name(monkeypatch, tmp_path, command):
    from importlib.metadata import EntryPoint
    from dsl.agents import plugins
    monkeypatch.setattr(plugins, "installed", lambda: {"broken": EntryPoint("broken", f"{__name__}:Broken", GROUP)})
    extra = ("-o", tmp_path / "r.html") if command[0] == "report" else ()
    res = run(command[0], BLUFF, "-p", "2", *command[1:], "-n", "3", "--workers", "1", *extra)
    assert res.exit_code == 1, res.output
    assert "error: the agent 'broken' failed: KeyError: 'state'" in res.output
    assert "Traceback" not in res.output and res.exception is None or isinstance(res.exception, SystemExit)


def test_a_file_of_strategies_that_does_not_check_stops_the_match_saying_where(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "tictactoe.rules").write_text((GAMES / "tictactoe.rules").read_text())
    (tmp_path / "strategies").mkdir()
    (tmp_path / "strategies" / "tictactoe.rules").write_text(
        "strategies for tictactoe\n\nstrategy x\n  prefer take where nowhere\n")
    res = run("match", folder / "tictactoe.rules", "--agents", "strategy:x,random", "-n", "2")
    assert res.exit_code == 1
    assert "do not check" in res.output and "tictactoe.rules:4:21: error: unknown name 'nowhere'" in res.output
    assert "Traceback" not in res.output


def test_strategies_shows_each_strategy_in_words_and_side_by_side_in_both_languages():
    en = run("strategies", TICTACTOE, "-n", "12", "--seed", "3")
    assert en.exit_code == 0, en.output
    lines = en.output.splitlines()
    assert lines[0] == "Tic-tac-toe: strategies side by side, 2 players, 12 games a pairing, seed 3"
    assert "  Centre first: “Claim a square” when the column of that space is 2 and the row of that space is 2; " \
           "otherwise “Claim a square”; otherwise at random." in lines
    header = next(i for i, line in enumerate(lines) if line.startswith("  strategy "))
    assert lines[header].split() == ["strategy", "against", "random", "against", "careful", "against", "centre"]
    assert lines[header + 1].split()[0] == "careful" and lines[header + 1].split()[4] == "-"
    ja = run("strategies", str(ROOT / "strategies" / "tictactoe.rules"), "-n", "12", "--seed", "3", "--lang", "ja")
    assert ja.exit_code == 0, ja.output
    assert ja.output.splitlines()[0] == "三目並べ: 戦略の比較、2人、組み合わせごとに12ゲーム、シード3"
    assert "  中央好き:そのマスの列が2、かつそのマスの行が2なら「マスを取る」。そうでなければ「マスを取る」。それ以外は無作為に選ぶ。" \
        in ja.output.splitlines()
    as_json = json.loads(run("strategies", TICTACTOE, "-n", "12", "--seed", "3", "--json").output)
    assert as_json["strategies"] == ["careful", "centre"]
    assert sorted(as_json["rows"][0]["against"]) == ["centre", "random"]
    cell = as_json["rows"][0]["against"]["random"]
    assert cell["wins"] + cell["draws"] + cell["losses"] + cell["dead_end_games"] == 12
    assert cell["ci95"][0] <= cell["score"] <= cell["ci95"][1]


def test_strategies_of_a_game_that_declares_none_is_a_clear_error():
    res = run("strategies", GAMES / "bluff.rules", "-p", "2", "-n", "2", "--variant",
              ROOT / "variants" / "bluff-exact-challenger-loses.rules")
    # a variant keeps the game's own path: its strategies are still found beside it
    assert res.exit_code == 0, res.output
    res = run("strategies", ROOT / "tests" / "fixtures" / "kuhn.rules", "-n", "2")
    assert res.exit_code == 1 and "declares no strategy" in res.output


def test_solve_measures_a_strategys_exploitability_and_refuses_an_undeclared_one():
    res = run("solve", TICTACTOE, "--agents", "strategy:nope")
    assert res.exit_code == 1 and res.output.strip().endswith(
        "error: the game 'tictactoe' declares no strategy 'nope'; its strategies: careful, centre")


def test_a_table_seat_takes_a_strategy_and_refuses_an_undeclared_one(tmp_path):
    from dsl.table.game_table import Table
    from dsl.loader import load
    rules, _ = load(TICTACTOE)
    table = Table(rules, 2, ["strategy:careful", "strategy:centre"], 1, str(tmp_path / "t.json"))
    table.advance()
    assert table.ended()
    with pytest.raises(ValueError, match="declares no strategy 'nope'"):
        Table(rules, 2, ["human", "strategy:nope"], 1, str(tmp_path / "u.json"))


def test_the_report_shows_the_strategies_side_by_side_as_playtest_strategies_plays_them(tmp_path):
    out = tmp_path / "ttt"
    done = run("report", TICTACTOE, "-p", "2", "-n", "10", "--seed", "3", "--strategies", "12", "-o", out)
    assert done.exit_code == 0, done.output
    data = json.loads((tmp_path / "ttt.json").read_text())
    alone = json.loads(run("strategies", TICTACTOE, "-n", "12", "--seed", "3", "--json").output)
    [table] = data["strategies"]
    assert table["rows"] == alone["rows"] and table["strategies"] == ["careful", "centre"]
    html = (tmp_path / "ttt.html").read_text()
    assert "Strategies side by side" in html and "against centre" in html
    assert data["strategy_readings"]["centre"].startswith("Centre first: “Claim a square”")
    plain = run("report", TICTACTOE, "-p", "2", "-n", "10", "--seed", "3", "-o", tmp_path / "plain")
    assert plain.exit_code == 0 and json.loads((tmp_path / "plain.json").read_text())["strategies"] is None
