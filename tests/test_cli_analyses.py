"""`playtest fuzz` and `playtest explore` from the command line."""
from __future__ import annotations

import json

from click.testing import CliRunner

from dsl.cli import main

from _util import BLUFF, GAMES, ROOT, line_of, rules_text


def test_explore_prints_the_known_tictactoe_counts():
    res = CliRunner().invoke(main, ["explore", str(GAMES / "tictactoe.rules"), "--players", "2"])
    assert res.exit_code == 0, res.output
    assert "complete games 255,168" in res.output and "positions 5,478" in res.output
    assert "(proof)" in res.output


def test_fuzz_finds_the_exact_count_saves_a_replay_and_a_fix_removes_it(tmp_path):
    runner = CliRunner()
    res = runner.invoke(main, ["fuzz", str(BLUFF), "-p", "2", "--max-examples", "200", "--seed", "1", "--json",
                               "--save-replays", str(tmp_path)])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    [finding] = data["findings"]
    assert (finding["rule"], finding["kind"]) == ("resolve_challenge", "no case applies")
    assert finding["reproduction"]["decisions"] == 2          # one round: a bid and the call
    narrated = runner.invoke(main, ["replay", data["saved"][0], "--lang", "en"])
    assert narrated.exit_code == 0, narrated.output
    cases = line_of(rules_text(), "  cases", line_of(rules_text(), "rule resolve_challenge"))
    assert "Settle the challenge" in narrated.output and f"games/bluff.rules:{cases}:3" in narrated.output
    fixed = runner.invoke(main, ["fuzz", str(BLUFF), "-v", str(ROOT / "variants" / "bluff-exact-nobody-loses.rules"),
                                 "-p", "2", "--max-examples", "200", "--seed", "1", "--json"])
    assert json.loads(fixed.output)["findings"] == []
