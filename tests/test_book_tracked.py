"""What players keep track of is what they touch: the book lists the tokens, counters and marks that
last from one part of play to another, and puts a value the rules only work out in passing among
the terms; a designer's `tracked` / `not tracked` says which where the structure cannot tell."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from _util import ROOT
from built import every, rules_of
from dsl.language import syntax as S
from dsl.loader import load
from dsl.printing.rulebook import contents

# Read off the rules by hand: each is set afresh and read within one part of play, never carried
# to another, so nobody has to remember it.
IN_PASSING = {
    "games/democracy.rules": {"tied_cards"},           # the tied highest cards, while a trick is won
    "games/populus.rules": {"raising", "force", "enlisted_workers", "enlisted_houses", "vandal_due"},
    "games/byzantine.rules": {"throw"},                # thrown and compared at once
    "games/classics/cheat.rules": {"laying", "asked"},
    "games/classics/indian-poker.rules": {"winner"},
}
# Read off the rules by hand: carried from one part to another, or kept as a record
KEPT = {
    "games/bluff.rules": {"bid_face", "bid_count", "bidder", "speaker", "challenger", "starter"},
    "games/democracy.rules": {"tribe", "trump", "day"},
    "games/populus.rules": {"vp", "fp", "food", "ether", "area_low", "area_high", "ending"},
    "games/dream-duels.rules": {"px", "py", "facing", "place", "teams_out"},
    "games/classics/pig.rules": {"banked", "turn_total"},       # the turn total: marked `tracked`
}
BOOKS = every(("book",)) + [pytest.param(p.relative_to(ROOT).as_posix(), "book", lang, id=f"{p.stem}-{lang}")
                            for p in sorted(ROOT.glob("games/classics/*.rules")) for lang in ("ja", "en")]


def _listed(rules, lang: str, key: str) -> list[str]:
    return [e.name for s in contents(rules, lang).sections if s.key == key for e in s.entries]


@pytest.mark.parametrize("path,kind,lang", BOOKS)
def test_no_value_computed_only_in_passing_is_listed_as_kept(path, kind, lang):
    rules = rules_of(path)
    kept, terms = _listed(rules, lang, "markers"), _listed(rules, lang, "terms")
    # a variant keeps its game's counters
    passing = set().union(*(names for g, names in IN_PASSING.items() if Path(path).stem.startswith(Path(g).stem)))
    assert not passing & set(kept), passing & set(kept)
    # none is lost: each counter is either kept or a term, once
    counters = [c.name for c in rules.of(S.Counter)]
    assert sorted(n for n in kept + terms if n in counters) == sorted(counters)
    assert KEPT.get(path, set()) <= set(kept)
    for c in rules.of(S.Counter):
        if c.tracked is not None:
            assert (c.name in kept) is c.tracked, c.name


def _book(tmp_path, lines: str) -> dict[str, list[str]]:
    src = ("game g\n  players 2 to 2\n\ncounter best = 0\n" + lines +
           "\ncounter moves = 0\n\nplay\n  repeat 3 times\n    step turn\n      set best to 2\n"
           "      add best to moves\n  end game winners players\n")
    f = tmp_path / "g.rules"
    f.write_text(src, encoding="utf-8")
    rules, _ = load(str(f))
    return {key: _listed(rules, "en", key) for key in ("markers", "terms")}


def test_the_designer_says_which_where_the_structure_cannot_tell(tmp_path):
    # set afresh and read in one step: worked out in passing, a term
    assert _book(tmp_path, "") == {"markers": ["moves"], "terms": ["best"]}
    assert _book(tmp_path, "  tracked\n") == {"markers": ["best", "moves"], "terms": []}
    # `not tracked` on what the structure would list
    src = _book(tmp_path, "").copy()
    f = tmp_path / "h.rules"
    f.write_text("game g\n  players 2 to 2\n\ncounter moves = 0\n  not tracked\n\nplay\n  repeat 3 times\n"
                 "    add 1 to moves\n  end game winners players\n", encoding="utf-8")
    rules, _ = load(str(f))
    assert _listed(rules, "en", "markers") == [] and _listed(rules, "en", "terms") == ["moves"]
    assert src["markers"] == ["moves"]


def test_the_language_guide_example_parses_and_says_both():
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```rules\n(.*?)```", text, re.S) if "not tracked" in b)
    from dsl.language.parser import parse_text
    rules, problems = parse_text("game g\n  players 2 to 2\n\n" + block)
    assert not problems
    assert [(d.name, d.tracked) for d in rules.of(S.Counter)] == [("turn_total", True), ("raising", False)]
