"""`together`: effects that happen at once are checked by the triggers only when all are done."""
from __future__ import annotations

from pathlib import Path

from dsl.analyses.explore import explore
from dsl.engine import Game
from dsl.language.parser import parse_text
from dsl.loader import load
from dsl.printing.book import render

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "together.rules"


def _outcomes(source: str) -> set:
    path = FIXTURE.parent / "_together_variant.rules"
    try:
        path.write_text(source, encoding="utf-8")
        rules, _ = load(str(path))
        report = explore(Game(rules, 2))
        return {str(o) for o in report.outcomes}
    finally:
        path.unlink()


def test_paid_together_nobody_wins_and_paid_one_by_one_the_first_payer_wins():
    source = FIXTURE.read_text(encoding="utf-8")
    together = _outcomes(source)
    one_by_one = _outcomes(source.replace("    together\n      for each p in players\n        p chooses x from 1 to 1\n          subtract",
                                          "    if true\n      for each p in players\n        p chooses x from 1 to 1\n          subtract"))
    assert together != one_by_one
    assert any("no winner" in o or "[]" in o for o in together)
    assert not any("no winner" in o or "[]" in o for o in one_by_one)


def test_the_rulebook_says_it_happens_at_once():
    rules, _ = load(str(FIXTURE))
    assert "全員同時に行う" in render("book", "html", rules, "ja")
    assert "All at once" in render("book", "html", rules, "en")


def test_a_trigger_cannot_hold_together():
    bad = ("game g\n  players 2 to 2\nplay\n  end game\ntrigger t when true\n  together\n    end game\n")
    rules, _ = parse_text(bad, "t.rules")
    from dsl.language.checker import check
    assert any("at once" in d.message for d in check(rules))


def test_check_warns_where_the_game_can_end_half_way_through_a_pass_over_the_players():
    source = FIXTURE.read_text(encoding="utf-8")
    one_by_one = source.replace("    together\n      for each", "    if true\n      for each")
    warned = []
    for text in (source, one_by_one):
        rules, _ = parse_text(text, "pay.rules")
        from dsl.language.checker import check
        warned.append([d for d in check(rules) if "part-way" in d.message])
    assert warned[0] == []
    assert len(warned[1]) == 1 and warned[1][0].span.line == 10
    assert "together" in warned[1][0].hint


CLAIM = """game claim
  players 2 to 2
counter coins per player = 1
play
  step settle
    together
      for each p in players
        subtract 1 from coins(p)
  end game
trigger one_broke when count(p in players where coins(p) <= 0) = 1
  end game winners [first(p in players where coins(p) <= 0)]
"""


def test_effects_before_any_choice_in_the_block_wait_for_its_end_too(tmp_path, monkeypatch):
    """Play marks where it is only at a pause: a block of effects with no choice in it (both
    players pay at once) held no trigger back."""
    path = tmp_path / "claim.rules"
    path.write_text(CLAIM, encoding="utf-8")
    rules, _ = load(str(path))
    for fusing in (True, False):
        monkeypatch.setattr(Game, "fusing", fusing)
        s = Game(rules, 2).new_initial_state(log=True)
        assert s.is_terminal() and s.dead_end is None
        assert s.outcome == (), s.outcome               # both broke when checked: nobody wins
        assert not any(e["event"] == "trigger" for e in s.log)
    one_by_one = CLAIM.replace("    together\n", "    if true\n")
    path.write_text(one_by_one, encoding="utf-8")
    rules, _ = load(str(path))
    s = Game(rules, 2).new_initial_state(log=True)
    assert [int(p) for p in s.outcome] == [0]           # the first payer is broke first, and wins
