"""`skill` in the long games, as `make skill` runs it: agents that remember (the game's log) and
cut their rollouts at a horizon give byte-identical JSON for any number of workers, and the
same again when run twice."""
from __future__ import annotations

import json

from click.testing import CliRunner

from dsl.cli import main

from _util import GAMES


def _skill(workers: str) -> str:
    res = CliRunner().invoke(main, ["skill", str(GAMES / "democracy.rules"), "-p", "2", "--levels",
                                    "random,ismcts:3:depth=8", "-n", "6", "--seed", "3", "--json",
                                    "--workers", workers])
    assert res.exit_code == 0, res.output
    return res.stdout


def test_skill_with_recall_and_a_horizon_is_byte_identical_for_any_workers():
    one = _skill("1")
    assert _skill("2") == one
    assert _skill("1") == one
    result = json.loads(one)
    assert [c["agent"] for c in result["curve"]] == ["random", "ismcts:3:depth=8"]
    assert result["games_per_level"] == 6
    for c in result["curve"]:        # every game counted once: won, shared, drawn, lost or a dead end
        assert c["wins"] + c["shared_wins"] + c["draws"] + c["losses"] + c["dead_end_games"] == 6
