"""--agents on simulate and diff --simulate: agents play the named seats; random is the default."""
from __future__ import annotations

import json

from click.testing import CliRunner

from dsl.cli import main

from _util import BLUFF, ROOT


def _simulate(*extra):
    res = CliRunner().invoke(main, ["simulate", str(BLUFF), "-p", "2", "-n", "60", "--seed", "3", "--json",
                                    "-v", str(ROOT / "variants" / "bluff-exact-nobody-loses.rules"), *extra])
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_random_agents_play_the_very_games_of_the_default():
    plain, named = _simulate(), _simulate("--agents", "random")
    assert named["agents"] == ["random", "random"]
    assert {k: v for k, v in plain.items() if k != "agents"} == {k: v for k, v in named.items() if k != "agents"}


def test_an_ismcts_seat_wins_more_than_its_random_opponent():
    data = _simulate("--agents", "ismcts:100,random")
    assert data["agents"] == ["ismcts:100", "random"]
    assert data["wins_by_seat"]["1"] > data["wins_by_seat"]["2"] * 2         # 60 games: a strong, not a lucky, margin


def test_a_bad_spec_is_a_clear_error():
    res = CliRunner().invoke(main, ["simulate", str(BLUFF), "-p", "2", "-n", "5", "--agents", "ismcts:0"])
    assert res.exit_code == 2
    assert "--agents:" in res.output and "valid forms" in res.output and "Traceback" not in res.output
    res = CliRunner().invoke(main, ["diff", str(BLUFF), str(ROOT / "variants" / "bluff-life.rules"),
                                    "--simulate", "5", "-p", "3", "--agents", "random,random"])
    assert res.exit_code == 2 and "names 2 agents for 3 players" in res.output
