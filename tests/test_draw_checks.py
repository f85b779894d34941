"""The checks that follow pieces from zone to zone (syntax.transfer) count `draw` as `move`: a
strategy may not read a card drawn, chosen or handed on from a public pile into a hidden hand
(no peeking), and a pass over the players whose body draws, passes or shuffles what an ending
trigger watches is said to end part-way."""
from __future__ import annotations

import pytest

from dsl.language.checker import check
from dsl.language.parser import parse_text

CARDS = """deck card
  cards
    | name | rank |
    | a    | 1    |
    | b    | 2    |
    | c    | 3    |
  in pile
zone hand is hand, per player, seen by owner
"""

DRAWN = """game drawn
  players 2 to 2
""" + CARDS + """zone pile is deck, shared, seen by everyone
counter folded per player = 0
play
  step deal
    for each p in players
      {deal}
  step guess
    for each p in players
      p chooses one of
        option fold
          add 1 to folded(p)
        option stay
          add 0 to folded(p)
  end game
strategy peek
  prefer fold where count(c in card where holder(c) != me and c.rank = 3) > 0
  prefer stay
"""

RACE = """game race
  players 2 to 2
""" + CARDS + """zone pile is deck, shared, seen by nobody
counter passed per player = 0
play
  step take
    for each p in players
      p chooses one of
        option take
          {deal}
        option pass
          add 1 to passed(p)
  end game
trigger holds_one when count(p in players where count(hand(p)) >= 1) = 1
  end game winners [first(p in players where count(hand(p)) >= 1)]
"""


def _diagnostics(text):
    rules, found = parse_text(text, "drawn.rules")
    assert [d for d in found if d.severity == "error"] == []
    return check(rules)


@pytest.mark.parametrize("deal", ["move", "draw"])
def test_a_strategy_reading_a_card_dealt_from_a_public_pile_into_a_hidden_hand_is_refused(deal):
    errors = [d for d in _diagnostics(DRAWN.format(deal=f"{deal} 1 from pile to hand(p)")) if d.severity == "error"]
    assert [(d.span.line, d.span.column, d.message) for d in errors] == [
        (26, 43, "strategy 'peek' reads what its player cannot see: holder(c), of pieces the player cannot see")]


@pytest.mark.parametrize("deal", ["move", "draw"])
def test_a_strategy_may_read_the_card_dealt_into_its_own_hand(deal):
    text = DRAWN.format(deal=f"{deal} 1 from pile to hand(p)").replace("c in card where holder(c) != me", "c in hand(me) where true")
    assert [d.message for d in _diagnostics(text) if d.severity == "error"] == []


@pytest.mark.parametrize("deal", ["move", "draw"])
def test_a_pass_over_the_players_that_deals_into_a_watched_hand_can_end_part_way(deal):
    warned = [d for d in _diagnostics(RACE.format(deal=f"{deal} 1 from pile to hand(p)")) if "part-way" in d.message]
    assert [(d.span.line, d.message) for d in warned] == [
        (15, "the game can end part-way through this 'for each': trigger 'holds_one' watches what it changes, "
             "and is checked after each choice")]


@pytest.mark.parametrize("deal", [
    "p chooses x from pile\n        move x to hand(p)",             # a card the player picks
    "for each x in pile where x.rank = p.seat\n        move x to hand(p)",
    "do give(p, top(pile))",                                      # a rule's parameter
])
def test_a_card_named_on_its_way_from_a_public_pile_into_a_hidden_hand_is_not_in_sight(deal):
    text = DRAWN.format(deal=deal) + "rule give(q, x)\n  move x to hand(q)\n"
    errors = [d for d in _diagnostics(text) if d.severity == "error"]
    assert [d.message for d in errors] == [
        "strategy 'peek' reads what its player cannot see: holder(c), of pieces the player cannot see"]


@pytest.mark.parametrize("deal,watched", [
    ("pass hand to the left", "count(p in players where count(hand(p)) >= 1) = 1"),
    ("shuffle pile", "top(pile).rank = 3"),
])
def test_a_pass_over_the_players_that_passes_or_shuffles_what_a_trigger_watches_can_end_part_way(deal, watched):
    text = RACE.format(deal=deal).replace("count(p in players where count(hand(p)) >= 1) = 1", watched)
    assert [d.span.line for d in _diagnostics(text) if "part-way" in d.message] == [15]
    calm = text.replace(f"trigger holds_one when {watched}", "trigger holds_one when false")
    assert [d.span.line for d in _diagnostics(calm) if "part-way" in d.message] == []
