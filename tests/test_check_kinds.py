"""Kinds of value are checked wherever values meet: each mistake below once checked clean and
failed (or misbehaved) only during play. Each is reported once, at the value that is wrong."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsl.language.checker import check
from dsl.language.parser import parse_text

HEAD = """game kinds
  players 2 to 4
counter gold per player = 3
variable leader = nobody
counter total = 0
dice die
  faces 1, 2, 3
  count 4
  in pile
zone pile is supply, shared, seen by everyone
zone hand is hand, per player, seen by owner
play
  set leader to first(players)
"""


def errors(body: str):
    text = HEAD + body + "  end game\n"
    tree, diags = parse_text(text, "kinds.rules")
    assert tree is not None, [d.message for d in diags]
    found = [d for d in check(tree) if d.severity == "error"]
    return [(d.span.line, d.span.column, d.message) for d in found]


LINE = HEAD.count("\n") + 1         # the line of the body's first statement


@pytest.mark.parametrize("body, at, message", [
    ("  set total to leader\n", 'leader', "expected a number here, but this is a player"),
    ("  add leader to gold(leader)\n", 'leader to', "expected a number here, but this is a player"),
    ("  set total to -leader\n", 'leader', "expected a number here, but this is a player"),
    ("  repeat leader times\n    add 1 to total\n", 'leader', "expected a number here, but this is a player"),
    ("  move leader from pile to hand(leader)\n", 'leader from', "expected a number here, but this is a player"),
    ("  move 1 from leader to hand(leader)\n", 'leader to', "expected a zone here, but this is a player"),
    ("  leader chooses x from 1 to leader\n    add x to total\n", 'leader\n', "expected a number here, but this is a player"),
    ("  if leader\n    pass\n", 'leader', "expected a truth value here, but this is a player"),
    ("  if not total\n    pass\n", 'total', "expected a truth value here, but this is a number"),
    ("  if total = 1 and leader\n    pass\n", 'leader', "expected a truth value here, but this is a player"),
    ("  for each p in players where seat(p)\n    pass\n", 'seat(p)', "expected a truth value here, but this is a number"),
    ("  if count(leader) > 1\n    pass\n", 'leader', "expected a collection here, but this is a player"),
    ("  if next_player(3) = leader\n    pass\n", '3)', "expected a player here, but this is a number"),
    ("  if total = leader\n    pass\n", 'total =', "cannot compare a number with a player"),
    ("  if leader = pile\n    pass\n", 'leader =', "cannot compare a player with a zone"),
    ('  if total = "red"\n    pass\n', 'total =', "cannot compare a number with a text"),
    ("  if total = true\n    pass\n", 'total =', "cannot compare a number with a truth value"),
    ("  if sum(d.face for d in pile) = leader\n    pass\n", 'sum(', "cannot compare a number with a player"),
    ("  set leader to 3\n", '3', "'leader' is set to a player (line 13), but here it is set to a number"),
    ("  roll total\n", 'total', "expected a zone or a piece or a collection here, but this is a number"),
    ('  each x in [leader, "red"] simultaneously chooses n from 1 to 2\n    add n to total\n', '"red"',
     "a text cannot choose: the ones who choose at the same time are players or teams"),
])
def test_a_value_of_the_wrong_kind_is_an_error_where_it_stands(body, at, message):
    """`at` is where in the body the wrong value starts."""
    assert errors(body) == [(LINE, body.index(at) + 1, message)]


@pytest.mark.parametrize("body", [
    "  set leader to next_player(leader)\n",
    "  if leader = first(players) or leader = nobody\n    pass\n",
    "  add count(hand(leader)) to gold(leader)\n",
    "  for each p in players where gold(p) > total\n    set leader to p\n",
    "  repeat until total > 3\n    add 1 to total\n",
    "  move 1 from pile to hand(next_player(first(players)))\n",
    "  each x in [leader, next_player(leader), nobody] simultaneously chooses n from 1 to 2\n    add n to total\n",
    "  roll pile\n  roll top(pile)\n  roll [top(pile), first(pile)]\n",
])
def test_values_of_the_right_kind_check_clean(body):
    assert errors(body) == []


def test_a_variables_starting_value_gives_its_kind():
    text = HEAD.replace("variable leader = nobody", "variable leader = 0") + "  end game\n"
    tree, _ = parse_text(text, "kinds.rules")
    [err] = [d for d in check(tree) if d.severity == "error"]
    assert err.message == "'leader' starts as a number (line 4), but here it is set to a player"
    assert (err.span.line, err.span.column) == (13, 17)


# An expression of each kind, and a place that wants one kind (None: any comparison partner).
SAMPLES = {"number": "gold(leader)", "player": "next_player(leader)", "zone": "hand(leader)",
           "truth": "empty(pile)", "text": '"red"'}
PLACES = {"number": "  repeat {} times\n    pass\n", "truth": "  if {}\n    pass\n",
          "zone": "  move 1 from {} to pile\n", "player": "  add 1 to gold({})\n"}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(SAMPLES)), st.sampled_from(sorted(PLACES)))
def test_a_place_accepts_exactly_its_own_kind(kind, place):
    found = errors(PLACES[place].format(SAMPLES[kind]))
    if kind == place:
        assert found == []
    else:
        assert [m for _, _, m in found] == [f"expected {_a(place)} here, but this is {_a(kind)}"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(SAMPLES)), st.sampled_from(sorted(SAMPLES)))
def test_two_values_compare_only_when_alike(left, right):
    found = errors(f"  if {SAMPLES[left]} = {SAMPLES[right]}\n    pass\n")
    if left == right:
        assert found == []
    else:
        assert [m for _, _, m in found] == [f"cannot compare {_a(left)} with {_a(right)}"]


def _a(kind):
    return {"number": "a number", "player": "a player", "zone": "a zone", "truth": "a truth value",
            "text": "a text"}[kind]


def test_a_zone_kept_per_piece_refuses_a_player():
    """Player 0 and piece 0 are the same number during play: `spot(p)` once read the first
    space's zone without a word. Only the checker can tell them apart."""
    text = ("game g\n  players 2 to 2\ndeck space\n  in places\n  cards\n    | n |\n    | 1 |\n    | 2 |\n"
            "zone places is table, shared, seen by everyone\nzone spot is space, per space, seen by everyone\n"
            "token stone\n  count 2\n  in box\nzone box is supply, shared, seen by everyone\n"
            "play\n  move 1 from box to spot(first(players))\n  move 1 from box to spot(top(places))\n  end game\n")
    tree, diags = parse_text(text, "spot.rules")
    assert tree is not None, [d.message for d in diags]
    found = [(d.span.line, d.message) for d in check(tree) if d.severity == "error"]
    wrong = next(i for i, line in enumerate(text.splitlines(), 1) if "spot(first(players))" in line)
    assert found == [(wrong, "expected a piece here, but this is a player")]
