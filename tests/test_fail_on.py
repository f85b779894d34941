"""--fail-on: simulate and fuzz exit 3 when a finding a designer's CI gates on is found, and say
what was found; without it the exit status is what it always was."""
from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from _util import BLUFF, GAMES, ROOT

from dsl.analyses.metrics import outcomes
from dsl.cli import main
from dsl.cli.options import FAILED
from dsl.cli.simulate import _correct_flags

TICTACTOE = GAMES / "tictactoe.rules"


def run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


def test_simulate_fails_on_dead_ends_and_names_how_many():
    plain = run("simulate", BLUFF, "-p", 3, "-n", 300, "--json")
    gated = run("simulate", BLUFF, "-p", 3, "-n", 300, "--json", "--fail-on", "dead-ends")
    assert plain.exit_code == 0
    assert gated.exit_code == FAILED == 3
    assert plain.stdout == gated.stdout          # the report is printed in full first
    dead = sum(d["count"] for d in json.loads(plain.stdout)["dead_ends"] if d["kind"] != "step limit")
    assert dead > 0
    assert gated.stderr.strip() == f"--fail-on dead-ends: {dead} of 300 games end in a dead end"


def test_a_finding_not_named_does_not_fail():
    r = run("simulate", BLUFF, "-p", 3, "-n", 300, "--fail-on", "timeouts,unbalanced")
    assert r.exit_code == 0, r.output
    assert r.stderr == ""


def test_simulate_fails_on_timeouts(tmp_path):
    short = tmp_path / "short.rules"
    short.write_text(TICTACTOE.read_text(encoding="utf-8").replace("  players 2 to 2\n", "  players 2 to 2\n  max steps 3\n"),
                     encoding="utf-8")
    r = run("simulate", short, "-n", 50, "--json", "--fail-on", "timeouts")
    assert r.exit_code == FAILED, r.output
    late = json.loads(r.stdout)["metrics"]["outcomes"]["step_limit"]["count"]
    assert late == 50          # three marks in a row take five decisions
    assert r.stderr.strip() == "--fail-on timeouts: 50 of 50 games pass the step limit"


def test_simulate_fails_on_a_seat_that_wins_more_than_its_share():
    r = run("simulate", TICTACTOE, "-n", 300, "--fail-on", "unbalanced")
    assert r.exit_code == FAILED, r.output
    said = r.stderr.strip()
    assert said.startswith("--fail-on unbalanced: seat 1 wins ")
    share = float(re.search(r"seat 1 wins ([\d.]+)% of the games won, above the fair share 50.0%", said).group(1))
    assert share > 60          # the first mover's advantage at random noughts and crosses


def test_fair_seats_pass_the_unbalanced_gate():
    r = run("simulate", BLUFF, "-p", 3, "-n", 1000, "--json", "--fail-on", "unbalanced")
    assert r.exit_code == 0, r.stderr
    assert [w["flag"] for w in json.loads(r.stdout)["metrics"]["outcomes"]["wins"]] == ["", "", ""]


class _Log:
    def __init__(self, winner):
        self.end, self.winners = "won", [winner]


def test_seat_flags_are_corrected_for_the_number_of_seats():
    # seat 1's 95% interval alone misses the fair share (its low end is 25.5%), but one seat in
    # four doing that by chance is common: after Holm-Bonferroni no seat is flagged
    wins = [63, 46, 46, 45]
    out = outcomes([_Log(seat) for seat, k in enumerate(wins) for _ in range(k)], 4)
    assert out["wins"][0]["share_of_decided"]["ci95"][0] > 0.25
    assert [w["flag"] for w in out["wins"]] == ["above", "", "", ""]
    _correct_flags(out)
    assert [w["flag"] for w in out["wins"]] == ["", "", "", ""]


def test_a_clear_flag_survives_the_correction():
    wins = [90, 40, 40, 30]
    out = outcomes([_Log(seat) for seat, k in enumerate(wins) for _ in range(k)], 4)
    _correct_flags(out)
    assert [w["flag"] for w in out["wins"]] == ["above", "", "", "below"]


def test_fuzz_fails_on_its_dead_ends():
    plain = run("fuzz", BLUFF, "-p", 2, "-n", 60, "--json")
    gated = run("fuzz", BLUFF, "-p", 2, "-n", 60, "--json", "--fail-on", "dead-ends,timeouts")
    assert plain.exit_code == 0 and gated.exit_code == FAILED
    findings = json.loads(plain.stdout)["findings"]
    assert findings
    named = ", ".join(f"{f['kind']} in {f['rule']}" for f in findings)
    n = len(findings)
    assert gated.stderr.strip() == f"--fail-on dead-ends: {n} finding{'s' if n != 1 else ''}: {named}"


def test_fuzz_passes_a_game_without_dead_ends():
    r = run("fuzz", TICTACTOE, "-n", 60, "--fail-on", "dead-ends,timeouts")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("command,value", [("simulate", "dead-end"), ("simulate", ","), ("fuzz", "unbalanced")])
def test_a_finding_it_cannot_gate_on_is_a_usage_error(command, value):
    r = run(command, TICTACTOE, "-n", 5, "--fail-on", value)
    assert r.exit_code == 2
    assert "--fail-on" in r.output and "comma-separated" in r.output


def _block(heading: str, language: str) -> str:
    """The first fenced block of `language` after `heading` in docs/ci-for-designers.md."""
    text = (ROOT / "docs" / "ci-for-designers.md").read_text(encoding="utf-8")
    after = text[text.index(heading):]
    start = after.index(f"```{language}\n") + len(f"```{language}\n")
    return after[start:after.index("```", start)]


@pytest.mark.slow
def test_the_ci_script_of_the_docs_fails_on_a_dead_end_and_passes_when_it_is_gone(tmp_path):
    import os
    import shutil
    import subprocess
    import sys
    repo = tmp_path / "my-games"
    (repo / "ci").mkdir(parents=True)
    (repo / "ci" / "playtest.sh").write_text(_block("## The script", "sh"), encoding="utf-8")
    (repo / "games").mkdir()
    env = dict(os.environ, PYTHONPATH=str(ROOT), PLAYTEST=f"{sys.executable} -m dsl.cli")
    subprocess.run([sys.executable, "-m", "dsl.cli", "new", "games/dice-race"], cwd=repo, env=env, check=True,
                   capture_output=True)
    shutil.copy(BLUFF, repo / "games" / "liars-dice.rules")       # its exact count is left a dead end
    (repo / "variants").mkdir()
    variant = repo / "variants" / "exact-count.rules"
    shutil.copy(ROOT / "variants" / "bluff-exact-nobody-loses.rules", variant)
    failed = subprocess.run(["sh", "ci/playtest.sh"], cwd=repo, env=env, capture_output=True, text=True)
    assert failed.returncode == 1, failed.stderr
    crossed = [line for line in failed.stderr.splitlines() if line.startswith("--fail-on")]
    assert len(crossed) == 2, failed.stderr              # simulate and fuzz of liars-dice, nothing of dice-race
    assert crossed[0].startswith("--fail-on dead-ends: ") and crossed[0].endswith(" of 1000 games end in a dead end")
    assert crossed[1] == "--fail-on dead-ends: 1 finding: no case applies in resolve_challenge"
    saved = sorted(p.name for p in (repo / "out" / "replays").iterdir())
    assert saved and all("resolve_challenge" in name for name in saved)
    assert "variants/exact-count.rules: ok" in failed.stdout
    variant.write_text(variant.read_text(encoding="utf-8").replace("replace rule resolve_challenge",
                                                                   "replace rule resolve_challeng"), encoding="utf-8")
    broken = subprocess.run(["sh", "ci/playtest.sh"], cwd=repo, env=env, capture_output=True, text=True)
    assert broken.returncode == 1 and "variants/exact-count.rules: failed (1 error" in broken.stderr
    variant.unlink()
    shutil.copy(repo / "games" / "dice-race.rules", repo / "games" / "liars-dice.rules")
    passed = subprocess.run(["sh", "ci/playtest.sh"], cwd=repo, env=env, capture_output=True, text=True)
    assert passed.returncode == 0, passed.stderr


def test_the_github_workflow_of_the_docs_runs_the_script():
    import yaml
    workflow = yaml.safe_load(_block("## On GitHub Actions", "yaml"))
    steps = workflow["jobs"]["rules"]["steps"]
    runs = [s.get("run") for s in steps]
    assert "sh ci/playtest.sh" in runs
    assert any(r and r.startswith("pip install") for r in runs)
    kept = [s for s in steps if s.get("uses", "").startswith("actions/upload-artifact")]
    assert kept[0]["if"] == "failure()" and kept[0]["with"]["path"] == "out/replays"


def test_fuzz_fails_on_a_game_that_does_not_end(tmp_path):
    short = tmp_path / "short.rules"
    short.write_text(TICTACTOE.read_text(encoding="utf-8").replace("  players 2 to 2\n", "  players 2 to 2\n  max steps 3\n"),
                     encoding="utf-8")
    gated = run("fuzz", short, "-n", 20, "--fail-on", "timeouts")
    assert gated.exit_code == FAILED, gated.output
    assert gated.stderr.strip() == "--fail-on timeouts: 1 finding: step limit in take"
    assert run("fuzz", short, "-n", 20, "--fail-on", "dead-ends").exit_code == 0
