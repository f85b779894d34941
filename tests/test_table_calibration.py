"""Calibration in `table-stats --against`: ten table games of Bluff and of Democracy whose person
is driven by a declared strategy, beside random and IS-MCTS games, each figure (length, each
seat's win share) with a 95% interval, flagged as agreeing or differing beyond the intervals."""
from __future__ import annotations

import glob
import json

import pytest
from click.testing import CliRunner

from dsl.cli import main
from dsl.table import calibration as C

from _util import BLUFF, DEMOCRACY


def test_a_share_has_a_wilson_interval_also_at_none_and_all():
    assert C.share(0, 10) == {"n": 10, "share": 0.0, "low": 0.0, "high": 0.2775}
    assert C.share(10, 10)["low"] == 0.7225 and C.share(10, 10)["high"] == 1.0
    assert C.share(0, 0)["share"] is None


@pytest.mark.parametrize("path,players,person", [(BLUFF, 3, "strategy:cautious"), (DEMOCRACY, 3, "strategy:trumper")],
                         ids=["bluff", "democracy"])
def test_scripted_people_are_compared_with_random_and_ismcts_within_intervals(tmp_path, path, players, person):
    made = CliRunner().invoke(main, ["table-script", str(path), "-p", str(players), "--people", person,
                                     "-n", "10", "--seed", "1", "--save", str(tmp_path)])
    assert made.exit_code == 0 and "10 games saved in" in made.output, made.output
    saved = sorted(glob.glob(str(tmp_path / "*.json")))
    assert len(saved) == 10
    for f in saved:
        data = json.loads(open(f, encoding="utf-8").read())
        assert data["seats"] == ["human", "random", "random"]
    r = CliRunner().invoke(main, ["table-stats", str(tmp_path), "-n", "5", "--json",
                                  "--against", "random", "--against", "ismcts:10", "--against-games", "10"])
    assert r.exit_code == 0, r.output
    [g] = json.loads(r.output)["groups"]
    c = g["calibration"]
    assert set(c["bots"]) == {"random", "ismcts:10"}
    t = c["table"]
    assert t["games"] == g["table"]["finished"] - sum(g["table"]["dead_ends"].values()) and t["length"]["n"] == t["games"]
    assert t["length"]["low"] <= t["length"]["mean"] <= t["length"]["high"]
    assert abs(sum(s["share"] for s in t["win_share"].values()) - 1) < 1e-3
    assert {f["figure"] for f in c["flags"]} == {"length", "P1 win share", "P2 win share", "P3 win share"}
    for f in c["flags"]:
        (tl, th), (bl, bh) = f["table"], f["bot_interval"]
        assert f["verdict"] == ("differ" if th < bl or bh < tl else "agree")
    text = CliRunner().invoke(main, ["table-stats", str(tmp_path), "-n", "5", "--against", "random",
                                     "--against-games", "10"]).output
    assert "calibration (95% intervals; games played to a result: table " in text
    assert "differs beyond the intervals" in text or "agrees within the intervals" in text


def test_table_script_refuses_a_strategy_the_game_lacks_before_making_the_folder(tmp_path):
    r = CliRunner().invoke(main, ["table-script", str(BLUFF), "-p", "3", "--people", "strategy:nosuch",
                                  "--save", str(tmp_path / "out")])
    assert r.exit_code != 0 and "declares no strategy 'nosuch'" in r.output
    assert not (tmp_path / "out").exists()
