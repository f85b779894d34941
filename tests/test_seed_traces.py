"""The seed trace tables (docs/seeds/*.md) stay true to the rule files: every range a row cites
(each one, not only the first) shows each construct quoted in its brackets; a range quoting
none must show one construct its row quotes. A rule file edited above a traced rule moves it:
`python scripts/seed_traces.py --fix` moves the range back onto what it quotes."""
from __future__ import annotations

import sys

import pytest

from _util import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import seed_traces  # noqa: E402


@pytest.mark.parametrize("table", seed_traces.TABLES, ids=lambda t: t.name)
def test_every_range_shows_what_its_row_quotes(table):
    checked, stale = seed_traces.stale(table)
    assert checked >= 60
    assert stale == []


def test_a_range_shifted_by_an_edit_is_caught_and_moved_back(tmp_path, monkeypatch):
    rules = tmp_path / "games" / "g.rules"
    rules.parent.mkdir()
    rules.write_text("game g\n  players 2\n\nrule a\n  do b\n\nrule b\n  end game\n", encoding="utf-8")
    table = tmp_path / "g.md"
    table.write_text("| 1 | 「…」 | games/g.rules:1-2 (`game g`), 4-5 (`rule a`) | encoded |\n"
                     "| 2 | 「…」 | games/g.rules:2 (`players 2`), 7-8 | encoded (`rule b`) |\n", encoding="utf-8")
    monkeypatch.setattr(seed_traces, "ROOT", tmp_path)
    assert seed_traces.stale(table) == (4, [])
    rules.write_text("# three\n# new\n# lines\n" + rules.read_text(encoding="utf-8"), encoding="utf-8")
    checked, stale = seed_traces.stale(table)
    assert [s.split(": ", 1)[1] for s in stale] == [
        "games/g.rules:1-2 does not show `game g`",
        "games/g.rules:4-5 does not show `rule a`",
        "games/g.rules:2-2 does not show `players 2`",
        "games/g.rules:7-8 shows none of the constructs its row quotes",
    ]
    assert seed_traces.fix(table) == 3          # the range quoting nothing is left for a person
    assert "games/g.rules:4-5 (`game g`), 7-8 (`rule a`)" in table.read_text(encoding="utf-8")
    assert "games/g.rules:5 (`players 2`)" in table.read_text(encoding="utf-8")
    assert [s.split(": ", 1)[1] for s in seed_traces.stale(table)[1]] == [
        "games/g.rules:7-8 shows none of the constructs its row quotes"]


def test_line_map_follows_every_line_through_an_edit():
    """`--since REV` moves every range with its lines, stale or not: lines below an insertion
    move down by it, lines above stay, a rewritten line maps into its rewritten stretch."""
    old = ["game g", "  players 2", "", "rule a", "  do b", "", "rule b", "  end game"]
    new = ["# why", "game g", "  players 2", "", "rule a", "  do c", "  do b", "", "rule b", "  end game"]
    at = seed_traces._line_map(old, new)
    assert [at(n) for n in range(1, 9)] == [2, 3, 4, 5, 7, 8, 9, 10]
