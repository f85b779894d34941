"""Every finding in docs/findings.md replays to the situation it describes."""
from __future__ import annotations

import json
import sys

import pytest

from dsl.analyses import replay
from dsl.engine import Game
from dsl.engine.order import state_keyer
from dsl.loader import load

from _util import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import findings  # noqa: E402

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
    game = Game(rules, saved.players)
    if entry["kind"] == "can go on forever":         # no dead end: the history comes back to a state
        key, keys = state_keyer(game), []
        replay.run(game, saved.actions, log=False, on_state=lambda s: keys.append(key(s)))
        assert keys[-1] in keys[:-1]
        return
    state = replay.run(game, saved.actions)
    d = state.dead_end
    assert d is not None
    assert (d.rule, d.kind, d.where) == (entry["rule"], entry["kind"], entry["where"])


def test_every_game_runs_at_its_smallest_usual_and_largest_counts(monkeypatch):
    monkeypatch.chdir(ROOT)
    counts: dict = {}
    for game_path, stack, players in findings.configurations():
        counts.setdefault((game_path, tuple(stack)), []).append(players)
    assert counts[("games/bluff.rules", ())] == [2, 4, 6]
    assert counts[("games/populus.rules", ())] == [3, 4, 5]
    # 2 players make one team, over at once: 3 is the smallest count that can be played
    assert counts[("games/dream-duels.rules", ())] == [2, 3, 4, 20]
    assert counts[("games/dream-duels.rules", ("variants/dream-duels-2025.rules",))][-1] == 12
