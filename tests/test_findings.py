"""Every finding in docs/findings.md replays to the situation it describes."""
from __future__ import annotations

import json

import pytest

from dsl.analyses import replay
from dsl.engine import Game
from dsl.loader import load

from _util import ROOT

INDEX = ROOT / "generated" / "findings" / "index.json"
ENTRIES = json.loads(INDEX.read_text(encoding="utf-8"))
DOC = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")


def test_the_report_lists_exactly_the_saved_findings():
    assert ENTRIES, "make findings found nothing at all: Bluff's exact count should be there"
    for e in ENTRIES:
        assert f"playtest replay {e['replay']}" in DOC
    assert DOC.count("playtest replay ") == len(ENTRIES)


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["replay"].split("/")[-1] for e in ENTRIES])
def test_each_finding_replays_to_its_dead_end(entry, monkeypatch):
    monkeypatch.chdir(ROOT)
    saved = replay.load(entry["replay"])
    assert (saved.rules, saved.variants, saved.players) == (entry["rules"], entry["variants"], entry["players"])
    rules, _ = load(saved.rules, saved.variants)
    state = replay.run(Game(rules, saved.players), saved.actions)
    d = state.dead_end
    assert d is not None
    assert (d.rule, d.kind, d.where) == (entry["rule"], entry["kind"], entry["where"])
