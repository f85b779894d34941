"""Every rule line of a seed's game and of its variants is justified (issue 38): a trace table
row cites it (docs/seeds/*.md, the sentence it encodes or the reason it exists), or the rule
language marks it as undecided (`question`, `assume`, a `provisional` parameter), or a comment
directly above its construct says where it comes from: `# seed: 「quote」` (found in the
seed), `# readme: "quote"` (found in the seeds README), `# modelling: reason` or
`# assumption: reason`. The mechanism lives in scripts/seed_traces.py."""
from __future__ import annotations

import sys

import pytest

from _util import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import seed_traces  # noqa: E402

FILES = seed_traces.seed_rule_files()


def test_every_seed_game_and_variant_is_checked():
    names = {p.name for p in FILES}
    assert {"bluff.rules", "byzantine.rules", "democracy.rules", "dream-duels.rules", "populus.rules",
            "bluff-life.rules", "dream-duels-2025.rules"} <= names
    assert "tictactoe.rules" not in names       # no seed behind it
    assert len(names) == len(list((ROOT / "variants").glob("*.rules"))) + 5


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_construct_is_justified(path):
    assert seed_traces.unjustified(path) == []


def _game(tmp_path, body: str):
    games = tmp_path / "games"
    games.mkdir(exist_ok=True)
    path = games / "bluff.rules"
    path.write_text(body, encoding="utf-8")
    return path


def test_an_unmarked_construct_fails_and_each_mark_justifies_its_block(tmp_path, monkeypatch):
    monkeypatch.setattr(seed_traces, "ROOT", tmp_path)
    (tmp_path / "docs" / "seeds").mkdir(parents=True)
    (tmp_path / "docs" / "seeds" / "bluff.md").write_text(
        "| 1 | 「…」 | games/bluff.rules:2 (`players 2 to 6`) | encoded |\n", encoding="utf-8")
    path = _game(tmp_path, "game bluff\n  players 2 to 6\n\n"
                 "# seed: 「全ての参加者にさいころが5つずつ配られる」\n"
                 "parameter start_dice = 5\n  title en \"dice\"\n\n"
                 "parameter rounds = 3 provisional\n\n"
                 "# modelling: dice go somewhere once lost; nothing reads them\n"
                 "zone lost is discard, shared, seen by everyone\n\n"
                 "counter invented = 0\n"
                 "# seed: 「さいころは7つずつ配られる」\n"
                 "counter misquoted = 0\n"
                 "# modelling: why\n"
                 "counter reasonless = 0\n")
    assert seed_traces.unjustified(path) == [
        "bluff.rules:14: `# seed:` quotes no sentence of the seed: 「さいころは7つずつ配られる」",
        "bluff.rules:16: `# modelling:` gives no reason",
        "bluff.rules:1: game bluff",
        "bluff.rules:13: counter invented = 0",
    ]


def test_quotes_are_found_part_by_part_in_order():
    seed = "ブラフというボードゲームがある。パイレーツオブカリビアンで\nやられていた。"
    assert seed_traces.quote_found("ブラフというボードゲームがある。…やられていた。", seed_traces._normal(seed))
    assert not seed_traces.quote_found("やられていた。…ブラフ", seed_traces._normal(seed))


def test_a_line_added_under_a_cited_declaration_is_covered_by_it(tmp_path, monkeypatch):
    """A `seen by` line added to a counter the table cites needs no new range; a statement
    added under a cited rule head does."""
    monkeypatch.setattr(seed_traces, "ROOT", tmp_path)
    (tmp_path / "docs" / "seeds").mkdir(parents=True)
    (tmp_path / "docs" / "seeds" / "bluff.md").write_text(
        "| 1 | 「…」 | games/bluff.rules:1-2 (`game bluff`), 4 (`counter bid = 0`), 7 (`rule lose`) | encoded |\n",
        encoding="utf-8")
    path = _game(tmp_path, "game bluff\n  players 2 to 6\n\ncounter bid = 0\n  seen by everyone\n\n"
                 "rule lose\n  pass\n")
    assert seed_traces.unjustified(path) == ["bluff.rules:8: pass"]
