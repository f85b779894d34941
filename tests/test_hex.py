"""Hex boards (`adjacency hex`): a rhombus of hexagons, checked against hexagon distance worked
out independently (cube coordinates) and a brute-force count of three in a row on hexagons."""
from __future__ import annotations

from functools import lru_cache

from hypothesis import given, settings, strategies as st

from dsl.analyses.explore import explore
from dsl.engine import geometry
from dsl.language import syntax as S
from dsl.language.checker import check
from dsl.language.parser import parse_text
from dsl.printing.prose import Voice, plain

from _util import ROOT, game_of

HEX_THREE = ROOT / "tests" / "fixtures" / "hex_three.rules"
DIRECTIONS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))      # axial: the six sides of a hexagon


def _distance(a, b) -> int:
    """Steps between two hexagons in axial coordinates (x, y): the cube coordinates' largest difference."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def test_a_middle_hexagon_has_six_neighbours_and_the_corners_two_or_three():
    assert geometry.neighbours(3, 3, "hex", 2, 2) == ((2, 1), (3, 1), (1, 2), (3, 2), (1, 3), (2, 3))
    assert geometry.neighbours(3, 3, "hex", 1, 1) == ((2, 1), (1, 2))              # the sharp corners
    assert geometry.neighbours(3, 3, "hex", 3, 3) == ((3, 2), (2, 3))
    assert geometry.neighbours(3, 3, "hex", 3, 1) == ((2, 1), (2, 2), (3, 2))      # the wide ones
    assert geometry.neighbours(3, 3, "hex", 1, 3) == ((1, 2), (2, 2), (2, 3))


@settings(deadline=None)         # the first call on a size works the geometry out (then kept)
@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_neighbours_are_the_hexagons_one_step_away(w, h, data):
    x, y = data.draw(st.integers(1, w)), data.draw(st.integers(1, h))
    near = {(a, b) for a in range(1, w + 1) for b in range(1, h + 1) if _distance((a, b), (x, y)) == 1}
    assert set(geometry.neighbours(w, h, "hex", x, y)) == near
    for other in near:
        assert (x, y) in geometry.neighbours(w, h, "hex", *other)


def _lines(w, h, k) -> set:
    """Every straight run of k hexagons, each a side away from the last in one direction."""
    out = set()
    for x in range(1, w + 1):
        for y in range(1, h + 1):
            for dx, dy in DIRECTIONS:
                run = [(x + dx * i, y + dy * i) for i in range(k)]
                if all(1 <= a <= w and 1 <= b <= h for a, b in run):
                    out.add(frozenset(run))
    return out


@settings(deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(2, 4))
def test_lines_are_the_straight_runs_along_the_three_directions(w, h, k):
    found = [frozenset(run) for run in geometry.lines(w, h, "hex", k)]
    assert len(found) == len(set(found)) and set(found) == _lines(w, h, k)


def _games() -> dict:
    """Complete games of three in a row on a 3 x 3 hex board by brute force: outcome -> games."""
    cells = [(x, y) for y in range(1, 4) for x in range(1, 4)]
    lines = _lines(3, 3, 3)

    @lru_cache(maxsize=None)
    def count(mine: frozenset, theirs: frozenset, mover: int) -> tuple:
        totals = [0, 0, 0]          # P1 wins, P2 wins, no winner
        for c in cells:
            if c in mine or c in theirs:
                continue
            now = mine | {c}
            if any(line <= now for line in lines):
                totals[mover] += 1
            elif len(now) + len(theirs) == len(cells):
                totals[2] += 1
            else:
                for i, n in enumerate(count(theirs, now, 1 - mover)):
                    totals[i] += n
        return tuple(totals)
    p1, p2, drawn = count(frozenset(), frozenset(), 0)
    return {"P1 wins": p1, "P2 wins": p2, "no winner": drawn}


def test_three_in_a_row_on_hexagons_explores_to_the_brute_force_count():
    r = explore(game_of(str(HEX_THREE), 2))
    assert r.finished and r.proof
    assert {o["outcome"]: o["games"] for o in r.outcomes} == _games() == \
        {"P1 wins": 118_764, "P2 wins": 64_224, "no winner": 86_400}


BOARD = """game g
  players 2 to 2
board cells
  grid 3 by 3
  adjacency hex
{extra}
token stone
  count 5 per player
  in stones
zone stones is supply, per player, seen by everyone
play
  if in_a_row(3, m in all(cells) where m.owner = player(1)) and count(n in neighbours(cells(2, 2)) where not empty(n)) = 0
    end game
  end game
"""


def _checked(extra=""):
    rules, diagnostics = parse_text(BOARD.format(extra=extra), "g.rules")
    assert rules is not None and not diagnostics
    return rules, [d for d in check(rules) if d.severity == "error"]


def test_a_hex_board_has_no_gravity():
    _, errors = _checked("  gravity down")
    assert [e.message for e in errors] == ["a hex board has no gravity: its columns are not straight"]


def test_readings_say_hexagons():
    rules, errors = _checked()
    assert errors == []
    [play] = [f for f in rules.of(S.Flow) if f.name == "play"]
    en = plain(Voice(rules, "en").stmt(play.body[0]).runs)
    ja = plain(Voice(rules, "ja").stmt(play.body[0]).runs)
    assert "stand in a line along one of the three directions of the hexagons" in en
    assert "sharing a side of the hexagon" in en
    assert "横か斜め(六角形の3方向のどれか)に一列に並んでいる" in ja


def test_the_table_draws_the_rows_shifted_as_hexagons():
    from dsl.table import view as V
    from dsl.table.words import Words
    game = game_of(str(HEX_THREE), 2)
    cells = [z["grid"] for z in V.zones(Words(game, "en"), game.new_initial_state(), 0) if "grid" in z]
    assert len(cells) == 9 and all(c["hex"] for c in cells)
    square = game_of(str(ROOT / "games" / "tictactoe.rules"), 2)
    assert not any(z["grid"]["hex"] for z in V.zones(Words(square, "en"), square.new_initial_state(), 0) if "grid" in z)
