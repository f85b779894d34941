"""simulate's honest table, diff of identical games, report, sweep and restrict on the command line."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from dsl.analyses import sweep as sweep_mod
from dsl.cli import main
from dsl.engine import Game
from dsl.language import syntax as S
from dsl.loader import load

ROOT = Path(__file__).resolve().parent.parent
TTT = ROOT / "games" / "tictactoe.rules"
BLUFF = ROOT / "games" / "bluff.rules"
DUELS = ROOT / "games" / "dream-duels.rules"


def run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


def test_simulate_prints_draws_and_intervals():
    r = run("simulate", TTT, "-p", 2, "-n", 2000, "--seed", 1)
    assert r.exit_code == 0
    assert re.search(r"draws: the game ended and nobody won\s+282\s+14\.1%\s+12\.6% - 15\.7%", r.output)
    assert re.search(r"^\s+1\s+1134\s+56\.7%\s+54\.5% - 58\.9%.*above the fair share", r.output, re.M)
    assert "rounds per game:    mean 4.174" in r.output


def test_team_games_show_teams_not_empty_seat_rows():
    r = run("simulate", DUELS, "-p", 4, "-n", 30)
    assert r.exit_code == 0
    assert re.search(r"^\s+team\s+wins", r.output, re.M)
    assert re.search(r"^\s+1,2\s+\d+", r.output, re.M) and re.search(r"^\s+3,4\s+\d+", r.output, re.M)
    assert not re.search(r"^\s+seat\s", r.output, re.M)


def test_simulate_json_keeps_its_keys_and_adds_the_new_ones():
    j = json.loads(run("simulate", TTT, "-p", 2, "-n", 50, "--json").stdout)
    for key in ("games", "wins_by_seat", "win_rate_by_seat", "draws", "no_winner", "dead_end_games", "dead_ends",
                "mean_turns", "median_turns", "max_turns", "mean_rounds", "step_limit_games", "metrics", "agents"):
        assert key in j
    assert j["agents"] == ["random", "random"]
    assert j["no_winner"] == j["metrics"]["outcomes"]["nobody"]["count"]


def test_bad_score_and_ban_seat_are_clean_errors():
    r = run("simulate", BLUFF, "-p", 3, "-n", 5, "--score", "dice")
    assert r.exit_code == 2 and "not a counter kept per player" in r.output
    r = run("simulate", BLUFF, "-p", 3, "-n", 5, "--ban", "raise", "--ban-seat", 4)
    assert r.exit_code == 2 and "seats are 1 to 3" in r.output


def test_diff_of_two_identical_games_finds_no_significant_difference(tmp_path):
    copy = tmp_path / "copy.rules"
    copy.write_text(TTT.read_text())
    r = run("diff", TTT, copy, "--simulate", 300, "--players", 2, "--format", "json")
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)["behaviour"]["metrics"]
    assert {m["metric"] for m in rows} >= {"draws", "draws: nobody won", "rounds per game"}
    assert not any(m["significant"] for m in rows)
    assert all(m["p_value"] == 1.0 for m in rows)


# ---------------------------------------------------------------- report

def test_report_writes_html_json_csv_byte_identical_across_processes(tmp_path):
    outs = []
    for k, hashseed in enumerate(("0", "4242")):
        env = dict(os.environ, PYTHONHASHSEED=hashseed, PYTHONPATH=str(ROOT))
        base = tmp_path / f"r{k}"
        p = subprocess.run([sys.executable, "-m", "dsl.cli", "report", str(TTT), "-n", "40", "-o", str(base)],
                           cwd=ROOT, env=env, capture_output=True, timeout=120)
        assert p.returncode == 0, p.stderr.decode()
        outs.append([(base.with_suffix(s)).read_bytes() for s in (".html", ".json", ".csv")])
    assert outs[0] == outs[1]
    html = outs[0][0].decode()
    assert html.count("<svg") >= 3 and not re.search(r'(src|href)="(https?:)?//', html)     # nothing fetched
    assert "draws: nobody won" in html
    data = json.loads(outs[0][1])
    assert data["configs"][0]["agents"] == "random" and data["configs"][0]["summary"]["games"] == 40
    assert outs[0][2].decode().splitlines()[0].startswith("players,agents,games,side,wins")


def test_report_narrates_dead_ends_and_charts_the_score(tmp_path):
    r = run("report", BLUFF, "-p", 3, "-n", 60, "-o", tmp_path / "b")
    assert r.exit_code == 0, r.output
    data = json.loads((tmp_path / "b.json").read_text())
    dead = data["configs"][0]["dead_end_games"]
    assert dead and dead[0]["rule"] == "resolve_challenge" and dead[0]["narration"]
    html = (tmp_path / "b.html").read_text()
    assert "resolve_challenge" in html and "<details>" in html
    r = run("report", ROOT / "games" / "democracy.rules", "-p", 3, "-n", 20, "--score", "tribe", "-o", tmp_path / "d")
    assert r.exit_code == 0, r.output
    assert "Score over time" in (tmp_path / "d.html").read_text()


def test_report_refuses_a_player_count_out_of_range(tmp_path):
    r = run("report", TTT, "-p", "2,3", "-o", tmp_path / "x")
    assert r.exit_code == 2 and "2 to 2 players" in r.output
    assert not list(tmp_path.iterdir())


# ---------------------------------------------------------------- sweep

def test_parse_values():
    assert sweep_mod.parse_values("2,3,4") == [2, 3, 4]
    assert sweep_mod.parse_values("1..3,6") == [1, 2, 3, 6]
    assert sweep_mod.parse_values("2..10..4") == [2, 6, 10]
    for bad in ("x", "3..1", "1..2..0", "-1"):
        with pytest.raises(sweep_mod.SweepError):
            sweep_mod.parse_values(bad)


def test_with_values_replaces_the_parameter_for_every_player_count():
    rules, _ = load(str(ROOT / "games" / "democracy.rules"))
    changed = sweep_mod.with_values(rules, {"deal_size": 2})
    p = next(d for d in changed.of(S.Parameter) if d.name == "deal_size")
    assert p.value.value == 2 and p.by_players == ()
    assert next(d for d in rules.of(S.Parameter) if d.name == "deal_size").by_players      # the original is untouched
    game = Game(changed, 4)
    s = game.new_initial_state()
    while game.is_chance(s):
        game.apply(s, 0)
    assert len(game.decision(s)[1]) == 2          # the first vote: a card from a hand of deal_size


def test_unknown_parameter_gets_a_hint():
    r = run("sweep", DUELS, "--param", "a=1,2", "-p", 4)
    assert r.exit_code == 2 and "not a parameter of dream_duels" in r.output and "did you mean 'A'?" in r.output


def test_sweep_ranks_combinations_with_common_seeds(tmp_path):
    r = run("sweep", BLUFF, "--param", "start_dice=1..3", "-p", 2, "-n", 30, "--target-length", "1-3",
            "--length-in", "rounds", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    rows = data["rows"]
    assert [row["values"]["start_dice"] for row in rows] == [1, 2, 3]
    rounds = [row["figures"]["mean_rounds"] for row in rows]
    assert rounds == sorted(rounds) and rounds[0] < rounds[-1]        # more dice, more rounds to lose them
    dist = [rows[i]["distance"] for i in data["ranking"]]
    assert dist == sorted(dist)
    assert rows[data["ranking"][0]]["values"]["start_dice"] == 1
    r = run("sweep", BLUFF, "--param", "start_dice=1..2", "-p", 2, "-n", 10, "-o", tmp_path / "s")
    assert r.exit_code == 0 and "<svg" in (tmp_path / "s.html").read_text()


# ---------------------------------------------------------------- restrict

def test_restrict_moves_win_rates_and_names_unknown_options():
    r = run("restrict", ROOT / "games" / "byzantine.rules", "-p", 3, "-n", 80, "--ban", "voting: vote", "--json")
    assert r.exit_code == 0, r.output
    metrics = {m["metric"]: m for m in json.loads(r.stdout)["trials"][0]["metrics"]}
    assert metrics["dead-end games"]["b"]["value"] > metrics["dead-end games"]["a"]["value"]
    assert metrics["dead-end games"]["significant"]
    r = run("restrict", ROOT / "games" / "byzantine.rules", "-p", 3, "-n", 20, "--ban", "stak")
    assert r.exit_code == 2 and "did you mean 'stake'?" in r.output
