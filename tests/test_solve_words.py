"""solve's opening in words a player can tell apart: each chosen number under its parameter's
own name, and each position by what the player holds, even where two cards print alike."""
from __future__ import annotations

from dsl.analyses.solve import solve
from dsl.engine import Game
from dsl.loader import load

# A bid of a face and a count, neither titled: both are numbers, and "number 1, number 2"
# would not say which is which.
BID = """\
game bid
  players 2 to 2
dice die
  faces 1, 2
  count 1 per player
  in supply
zone supply is supply, shared, seen by everyone
zone cup is hand, per player, seen by owner
counter bid_face = 0
counter bid_count = 0
setup
  for each p in players
    move 1 from supply to cup(p)
play
  for each p in players
    roll cup(p)
  player(1) chooses one of
    option bid with face from 1 to 2, number from 1 to 2
      set bid_face to face
      set bid_count to number
    option pass_on
      end game winners [player(2)]
  player(2) chooses one of
    option believe
      end game winners [player(1)]
    option call
      if count(d in all(cup) where d.face = bid_face) >= bid_count
        end game winners [player(1)]
      else
        end game winners [player(2)]
"""

# Two cards that print alike ("3") and differ in weight, the one thing play reads.
WEIGHTS = """\
game weights
  players 2 to 2
deck card
  title en "card"
  in stock
  cards
    | rank | weight |
    | 3    | 1      |
    | 3    | 2      |
zone stock is deck, shared, seen by nobody
zone hand is hand, per player, seen by owner
  title en "hand"
setup
  shuffle stock
  move 1 from stock to hand(player(1))
play
  player(1) chooses one of
    option stay
      if top(hand(player(1))).weight = 2
        end game winners [player(1)]
      else
        end game winners [player(2)]
    option fold
      end game
"""


def _solved(tmp_path, text):
    p = tmp_path / "g.rules"
    p.write_text(text, encoding="utf-8")
    rules, _ = load(str(p))
    return solve(Game(rules, 2))


def test_each_number_chosen_is_said_under_its_own_name(tmp_path):
    r = _solved(tmp_path, BID)
    moves = [m["move"] for m in r.opening[0]["moves"]]
    assert "bid face 1, number 2" in moves and "bid face 2, number 1" in moves
    assert not any("number 1, number" in m for m in moves)


def test_positions_that_print_alike_are_told_apart(tmp_path):
    r = _solved(tmp_path, WEIGHTS)
    seen = [row["seen"] for row in r.opening]
    assert len(seen) == 2 and len(set(seen)) == 2, seen
    assert sorted(seen) == ["P1's hand: 3 (weight 1)", "P1's hand: 3 (weight 2)"]
    stay = {row["seen"]: row["moves"][0]["probability"] for row in r.opening}
    assert stay["P1's hand: 3 (weight 2)"] > 0.99 and stay["P1's hand: 3 (weight 1)"] < 0.01
