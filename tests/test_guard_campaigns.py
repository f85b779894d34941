"""A few seconds of `make fuzz-cli` (scripts/fuzz_cli.py): hostile command lines and paths, each
in a process of its own, end with a clear exit, no traceback and every special file untouched."""
from __future__ import annotations

import importlib.util

from _util import ROOT

spec = importlib.util.spec_from_file_location("fuzz_cli", ROOT / "scripts" / "fuzz_cli.py")
fuzz_cli = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fuzz_cli)


def test_a_short_campaign_of_hostile_command_lines_finds_nothing():
    tally = fuzz_cli.campaign(seconds=10, seed=5)
    assert tally["failure"] is None, tally["failure"]
    assert tally["commands"] == sum(tally["by_exit"].values()) >= 1
    assert set(tally["by_exit"]) <= {0, 1, 2}
