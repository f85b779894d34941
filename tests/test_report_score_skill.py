"""The report's score (from the rule file's `score` line) and its optional skill section."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from dsl.cli import main

ROOT = Path(__file__).resolve().parent.parent
TTT = ROOT / "games" / "tictactoe.rules"
DEMOCRACY = ROOT / "games" / "democracy.rules"


def run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in r.output
    assert r.exit_code == 0, r.output
    return r


def test_the_declared_score_is_the_default_and_the_option_overrides_it():
    r = json.loads(run("simulate", DEMOCRACY, "-p", 3, "-n", 4, "--json").output)
    assert r["score_by"] == "tribe" and "score" in r["metrics"]
    declared = r["metrics"]["score"]
    r = json.loads(run("simulate", DEMOCRACY, "-p", 3, "-n", 4, "--json", "--score", "tribe").output)
    assert r["score_by"] == "tribe" and r["metrics"]["score"] == declared    # the same counter, the same figures
    r = json.loads(run("simulate", DEMOCRACY, "-p", 3, "-n", 4, "--json", "--score", "tribe+tribe").output)
    assert r["metrics"]["score"]["final_margin"]["value"] == 2 * declared["final_margin"]["value"]


def test_a_game_without_a_score_says_so(tmp_path):
    run("report", TTT, "-n", 20, "-o", tmp_path / "t")
    html = (tmp_path / "t.html").read_text(encoding="utf-8")
    assert "The rule file declares no score" in html
    assert "Not measured in this report" in html          # no --skill
    assert json.loads((tmp_path / "t.json").read_text())["skill"] is None


def test_the_skill_section_is_what_match_finds(tmp_path):
    run("report", TTT, "-n", 20, "--skill", "flat:20", "--skill-games", 12, "-o", tmp_path / "t")
    data = json.loads((tmp_path / "t.json").read_text())
    [k] = data["skill"]
    m = json.loads(run("match", TTT, "flat:20", "random", "-p", 2, "-n", 12, "--json").output)
    assert k == m                                          # the same seeds, the same games
    assert k["players"] == 2 and k["games"] == 12 and k["fair_share"] == 0.5
    # no draws here, so each game is +1 (a win) or -1 (a loss) for the agent against the random seat
    assert k["wins"] + k["losses"] == 12 and k["draws"] == 0
    assert k["score"] == round(k["wins"] / 12, 4)
    assert k["advantage"] == round((k["wins"] - k["losses"]) / 12, 4)
    assert k["verdict"] == "flat:20 is stronger" and k["advantage_ci95"][0] > 0
    html = (tmp_path / "t.html").read_text(encoding="utf-8")
    assert "Skill: does trying to win pay?" in html
    assert f"<td>{k['wins']} of 12</td>" in html
    again = tmp_path / "again"
    run("report", TTT, "-n", 20, "--skill", "flat:20", "--skill-games", 12, "-o", again)
    assert (tmp_path / "t.html").read_bytes() == Path(str(again) + ".html").read_bytes()


def test_a_bad_skill_agent_stops_before_any_game():
    r = CliRunner().invoke(main, ["report", str(TTT), "--skill", "wizard:3"])
    assert r.exit_code == 2 and "--skill" in r.output


def test_a_declared_score_is_charted_and_named_by_its_title(tmp_path):
    run("report", DEMOCRACY, "-p", 3, "-n", 20, "-o", tmp_path / "d")
    data = json.loads((tmp_path / "d.json").read_text())
    assert data["score"] == "tribe" and data["score_title"] == "tribe points"
    html = (tmp_path / "d.html").read_text(encoding="utf-8")
    assert "Score: tribe points, the rule file's <code>score tribe</code>." in html
    assert "lead changes per game" in html and "declares no score" not in html
