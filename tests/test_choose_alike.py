"""`p chooses a, b from Z`: several items at once in no order, each set once, and pieces nobody
can tell apart once; counted against sets worked out by hand and by brute force."""
from __future__ import annotations

import itertools
import re
from math import comb

from hypothesis import given, settings
from hypothesis import strategies as st

from dsl.engine import Game
from dsl.engine.errors import IllegalMove

from _util import ROOT, errors_of, parsed

PAIRS = """game pairs
  players 2 to 2

deck card
  in stock
  cards
    | name  | rank | count |
    | guard | 1    | 3     |
    | king  | 3    | 1     |
    | spy   | 2    | 1     |

zone stock is deck, shared, seen by everyone
zone table is table, shared, seen by everyone
counter points per player = 0

play
  for each p in players
    p chooses a, b from stock
      add a.rank + b.rank to points(p)
      move a to table
      move b to table
  end game by highest points(p) for p in players ties share
"""


def _deck(counts: dict, names: str = "a, b", where: str = "", seen: str = "everyone") -> str:
    rows = "".join(f"    | {name:<6}| {k:<6}|\n" for name, k in counts.items())
    return (f"game sets\n  players 2 to 2\ndeck card\n  in stock\n  cards\n    | name  | count |\n{rows}"
            f"zone stock is deck, shared, seen by {seen}\nzone table is table, shared, seen by everyone\n"
            f"play\n  for each p in players\n    p chooses {names} from stock{where}\n"
            + "".join(f"      move {n.strip()} to table\n" for n in names.split(","))
            + "  end game winners [player(1)]\n")


def _moves(text):
    assert [e.message for e in errors_of(text)] == []
    game = Game(parsed(text), 2)
    s = game.new_initial_state()
    return game, s, s.legal_moves()


def _labels(game, move):
    return tuple(game.piece_label[x] for x in move[1:])


def test_the_example_of_the_language_guide_is_the_one_checked_here():
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    at = text.index("#### Several items at once, in no order")
    assert re.search(r"```rules\n(.*?)```", text[at:], re.S).group(1) == PAIRS


def test_five_different_cards_give_ten_pairs_and_ten_triples():
    five = {n: 1 for n in ("ace", "two", "three", "four", "five")}
    for names, k in (("a, b", 2), ("a, b, c", 3)):
        game, s, moves = _moves(_deck(five, names))
        assert len(moves) == comb(5, k) == 10
        sets = {frozenset(m[1:]) for m in moves}
        assert len(sets) == 10 and all(len(x) == k for x in sets)
    # the ordered spelling offers each pair in both orders: 5 * 4
    ordered = _deck(five).replace("p chooses a, b from stock", "p chooses a from stock, b from stock where a != b")
    game, s, moves = _moves(ordered)
    assert len(moves) == 20


def test_alike_pieces_make_one_set_each():
    game, s, moves = _moves(PAIRS)
    # by hand: {guard, guard}, {guard, king}, {guard, spy}, {king, spy}
    assert sorted(_labels(game, m) for m in moves) == [
        ("guard-1", "guard-1"), ("guard-1", "king-3"), ("guard-1", "spy-2"), ("king-3", "spy-2")]


def test_a_set_offered_twice_is_refused_and_the_one_offered_is_taken():
    game, s, moves = _moves(PAIRS)
    guards = [int(p) for p in game.kind_pieces["card"] if game.piece_label[p] == "guard-1"]
    king = next(int(p) for p in game.kind_pieces["card"] if game.piece_label[p] == "king-3")
    offered = [m for m in moves if _labels(game, m) == ("guard-1", "king-3")]
    assert len(offered) == 1 and offered[0][1] == min(guards)
    other = ["choose", max(guards), king]
    try:
        s.apply(other, 0)
    except IllegalMove:
        pass
    else:
        raise AssertionError("a second guard with the king is the same set: not offered, not taken")
    s.apply(list(offered[0]), 0)
    assert s.pvars[game.pvar_slots["points"]][0] == 4


def test_a_where_after_a_set_filters_the_sets():
    five = {n: 1 for n in ("ace", "two", "three", "four", "five")}
    game, s, moves = _moves(_deck(five, "a, b", " where a.name != ace"))
    assert len(moves) == comb(4, 2)


def test_checks_and_the_book_read_the_set():
    from html import unescape
    from dsl.printing.book import render
    for lang, said in (("en", "Choose 2 different items from stock"), ("ja", "stock からもの2枚を選ぶ")):
        text = re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", render("book", "html", parsed(PAIRS), lang))))
        assert said in text, lang
    assert [e.message for e in errors_of(PAIRS.replace("a.rank + b.rank", "a.rank + c.rank"))] == ["unknown name 'c'"]
    assert "a set names 'a' twice" in [e.message for e in errors_of(PAIRS.replace("a, b from", "a, a from"))]


def _brute(counts: dict, k: int) -> int:
    """Sets of k cards told apart only by name: every k of the cards, as a sorted tuple of names."""
    cards = [name for name, n in counts.items() for _ in range(n)]
    return len({tuple(sorted(c)) for c in itertools.combinations(cards, k)})


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=1, max_size=4), st.integers(2, 3))
def test_the_sets_offered_are_the_sets_of_names(copies, k):
    counts = {f"n{i}": c for i, c in enumerate(copies)}
    if sum(copies) < k:
        return
    names = ", ".join("abc"[:k])
    game, s, moves = _moves(_deck(counts, names))
    assert len(moves) == _brute(counts, k)
    assert len({tuple(sorted(_labels(game, m))) for m in moves}) == len(moves)
