"""Board geometry: the spaces next to a space, lines of K, and where a dropped piece lands, all
read from the board's declared `adjacency` and `gravity`."""
from __future__ import annotations

import html
import re

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from _util import ROOT
from dsl.cli import main
from dsl.engine import Game
from dsl.engine import geometry
from dsl.engine.errors import RuleError
from dsl.engine.program import Env
from dsl.language.diagnostics import RuleFileError
from dsl.loader import load

CORNER, EDGE, CENTRE = (1, 1), (2, 1), (2, 2)


# ---------------------------------------------------------------- the shape alone
@pytest.mark.parametrize("adjacency, at, expected", [
    ("orthogonal", CORNER, [(2, 1), (1, 2)]),
    ("orthogonal", EDGE, [(1, 1), (3, 1), (2, 2)]),
    ("orthogonal", CENTRE, [(2, 1), (1, 2), (3, 2), (2, 3)]),
    ("diagonal", CORNER, [(2, 2)]),
    ("diagonal", EDGE, [(1, 2), (3, 2)]),
    ("diagonal", CENTRE, [(1, 1), (3, 1), (1, 3), (3, 3)]),
    ("all", CORNER, [(2, 1), (1, 2), (2, 2)]),
    ("all", EDGE, [(1, 1), (3, 1), (1, 2), (2, 2), (3, 2)]),
    ("all", CENTRE, [(1, 1), (2, 1), (3, 1), (1, 2), (3, 2), (1, 3), (2, 3), (3, 3)]),
])
def test_neighbours_on_a_3x3_board_in_reading_order(adjacency, at, expected):
    assert list(geometry.neighbours(3, 3, adjacency, *at)) == expected


@pytest.mark.parametrize("w, h, adjacency, k, count", [
    (3, 3, "all", 3, 8),            # tic-tac-toe: 3 rows, 3 columns, 2 diagonals
    (3, 3, "orthogonal", 3, 6),
    (3, 3, "diagonal", 3, 2),
    (4, 4, "all", 4, 10),           # Connect Four 4 x 4
    (4, 3, "all", 4, 3),            # 4 x 3: only the rows hold four
    (7, 6, "all", 4, 69),           # Connect Four proper
    (3, 3, "all", 1, 9),
    (3, 3, "all", 4, 0),
])
def test_lines_of_k(w, h, adjacency, k, count):
    assert len(geometry.lines(w, h, adjacency, k)) == count


def test_the_diagonals_of_tictactoe_are_lines_and_a_bent_run_is_not():
    lines = geometry.lines(3, 3, "all", 3)
    assert ((1, 1), (2, 2), (3, 3)) in lines and ((3, 1), (2, 2), (1, 3)) in lines
    assert not any(set(line) == {(1, 1), (2, 1), (2, 2)} for line in lines)


@pytest.mark.parametrize("gravity, at, expected", [
    # row 3 holds pieces in columns 2 and 3; a piece enters on the side away from the pull
    ("down", 2, (2, 2)),
    ("down", 1, (1, 3)),
    ("up", 1, (1, 1)),
    ("up", 2, None),            # it would enter at row 3, which is taken
    ("right", 3, (1, 3)),
    ("left", 3, None),
    ("left", 1, (1, 1)),
])
def test_a_dropped_piece_rests_on_the_first_taken_space_or_the_edge(gravity, at, expected):
    taken = {(2, 3), (3, 3)}
    assert geometry.landing(3, 3, gravity, at, lambda x, y: (x, y) in taken) == expected


def test_a_full_column_has_no_landing_space():
    assert geometry.landing(3, 3, "down", 1, lambda x, y: x == 1) is None


SIZES = st.integers(1, 7)
ADJACENCY = st.sampled_from(["orthogonal", "diagonal", "all"])


@settings(max_examples=150, deadline=None)
@given(w=SIZES, h=SIZES, adjacency=ADJACENCY, data=st.data())
def test_neighbours_are_symmetric(w, h, adjacency, data):
    a = (data.draw(st.integers(1, w)), data.draw(st.integers(1, h)))
    b = (data.draw(st.integers(1, w)), data.draw(st.integers(1, h)))
    assert (b in geometry.neighbours(w, h, adjacency, *a)) == (a in geometry.neighbours(w, h, adjacency, *b))
    assert a not in geometry.neighbours(w, h, adjacency, *a)


@settings(max_examples=200, deadline=None)
@given(w=SIZES, h=SIZES, adjacency=ADJACENCY, k=st.integers(2, 8))
def test_the_count_of_lines_is_the_closed_form(w, h, adjacency, k):
    across, down = max(0, w - k + 1) * h, max(0, h - k + 1) * w
    diagonal = 2 * max(0, w - k + 1) * max(0, h - k + 1)
    expected = {"orthogonal": across + down, "diagonal": diagonal, "all": across + down + diagonal}[adjacency]
    lines = geometry.lines(w, h, adjacency, k)
    assert len(lines) == expected == len({frozenset(line) for line in lines})


# ---------------------------------------------------------------- in a game
GAME = """game geometry
  players 2 to 2

board grid
  grid {w} by {h}
  adjacency {adjacency}
{gravity}
token stone
  count 5 per player
  in pile

zone pile is supply, per player, seen by everyone

value probe = {probe}
value holds = {holds}

play
  for each p in players
    if holds
      end game winners [p]
  end game
"""


def _game(tmp_path, probe="true", w=3, h=3, adjacency="all", gravity="", holds="true"):
    """A game whose value `probe` the test works out; `holds` is the condition play tests."""
    path = tmp_path / "geometry.rules"
    path.write_text(GAME.format(probe=probe, holds=holds, w=w, h=h, adjacency=adjacency,
                                gravity=f"  gravity {gravity}\n" if gravity else ""), encoding="utf-8")
    rules, _ = load(str(path))
    return Game(rules, 2)


def _value(game, state, name="probe"):
    probe = game.expr(game.defines[name].expr, Env(game, {}))
    state.loc_slots.extend([None] * 4)          # the slots of the probe's own comprehensions
    return probe(state)


def _put(state, game, owner, x, y):
    """Take one of the owner's stones from the pile and lay it on grid(x, y)."""
    pile = game.zones["pile"][owner]
    piece = state.zones[pile].pop()
    space = game.zone_names.index(f"grid({x},{y})")
    state.zones[space].append(piece)
    state.loc[piece] = space
    return piece


def _names(game, spaces):
    return [game.zone_names[z] for z in spaces]


def test_neighbours_adjacent_column_and_row_in_play(tmp_path):
    g = _game(tmp_path, "count(neighbours(grid(1, 1)))")
    s = g.new_initial_state()
    assert _value(g, s) == 3
    g = _game(tmp_path, "neighbours(grid(2, 1))", adjacency="orthogonal")
    assert _names(g, _value(g, g.new_initial_state())) == ["grid(1,1)", "grid(3,1)", "grid(2,2)"]
    for probe, expected in [("adjacent(grid(1, 1), grid(2, 2))", False), ("adjacent(grid(1, 1), grid(1, 2))", True),
                            ("column(grid(3, 2))", 3), ("row(grid(3, 2))", 2),
                            ("count(s in spaces(grid) where row(s) = 2)", 3)]:
        g = _game(tmp_path, probe, adjacency="orthogonal")
        assert _value(g, g.new_initial_state()) == expected, probe


def test_neighbours_of_a_piece_are_those_of_its_space(tmp_path):
    g = _game(tmp_path, "neighbours(first(all(grid)))", adjacency="diagonal")
    s = g.new_initial_state()
    _put(s, g, 0, 2, 1)
    assert _names(g, _value(g, s)) == ["grid(1,2)", "grid(3,2)"]


def test_a_collection_of_spaces_is_its_spaces_not_the_pieces_on_them(tmp_path):
    g = _game(tmp_path, "count(x in neighbours(grid(2, 2)) where empty(x))")
    s = g.new_initial_state()
    _put(s, g, 0, 1, 1)
    _put(s, g, 0, 1, 1)
    assert _value(g, s) == 7


WIN = "in_a_row(3, d in all(grid) where d.owner = first(players))"


@pytest.mark.parametrize("adjacency, mine, theirs, wins", [
    ("all", [(1, 1), (2, 2), (3, 3)], [], True),                 # a diagonal
    ("orthogonal", [(1, 1), (2, 2), (3, 3)], [], False),         # the same diagonal is no line across or down
    ("orthogonal", [(1, 2), (2, 2), (3, 2)], [], True),
    ("all", [(1, 1), (2, 1), (2, 2)], [], False),                # three, bent
    ("all", [(1, 1), (3, 1)], [(2, 1)], False),                  # broken by the other player's stone
    ("diagonal", [(3, 1), (2, 2), (1, 3)], [], True),
    ("diagonal", [(1, 3), (2, 3), (3, 3)], [], False),
])
def test_in_a_row_on_hand_built_positions(tmp_path, adjacency, mine, theirs, wins):
    g = _game(tmp_path, WIN, adjacency=adjacency)
    s = g.new_initial_state()
    for x, y in mine:
        _put(s, g, 0, x, y)
    for x, y in theirs:
        _put(s, g, 1, x, y)
    assert _value(g, s) is wins


def test_pieces_off_the_board_are_in_no_line(tmp_path):
    # every stone of the first player: five in the pile, none on the board
    g = _game(tmp_path, "in_a_row(1, d in stone where d.owner = first(players))")
    assert _value(g, g.new_initial_state()) is False


@pytest.mark.parametrize("gravity, at, expected", [
    ("down", 2, ["grid(2,3)", "grid(2,2)", "grid(2,1)"]),
    ("up", 1, ["grid(1,1)", "grid(1,2)", "grid(1,3)"]),
    ("left", 3, ["grid(1,3)", "grid(2,3)", "grid(3,3)"]),
    ("right", 1, ["grid(3,1)", "grid(2,1)", "grid(1,1)"]),
])
def test_a_piece_dropped_into_a_column_falls_onto_the_last_one(tmp_path, gravity, at, expected):
    g = _game(tmp_path, f"grid({at})", gravity=gravity)
    s = g.new_initial_state()
    landed = []
    for _ in expected:
        landed.append(g.zone_names[_value(g, s)])
        _put(s, g, 0, *map(int, landed[-1][5:-1].split(",")))
    assert landed == expected
    with pytest.raises(RuleError) as full:
        _value(g, s)
    line = "column" if gravity in ("down", "up") else "row"
    assert full.value.kind == "off the board" and f"{line} {at} of 'grid' is full" in full.value.message


def test_dropping_into_a_column_off_the_board_is_off_the_board(tmp_path):
    g = _game(tmp_path, "grid(4)", gravity="down")
    with pytest.raises(RuleError) as off:
        _value(g, g.new_initial_state())
    assert (off.value.kind, off.value.message) == ("off the board", "there is no column 4 on a 3 by 3 board")


def test_a_space_asked_of_something_off_the_boards_is_a_dead_end(tmp_path):
    g = _game(tmp_path, holds="count(neighbours(first(stone))) > 0")
    s = g.new_initial_state()
    assert s.dead_end is not None and s.dead_end.kind == "evaluation failed"
    assert "a piece that is not on a board" in s.dead_end.message


# ---------------------------------------------------------------- check
def _errors(tmp_path, probe, **board):
    with pytest.raises(RuleFileError) as info:
        _game(tmp_path, probe, **board)
    line = GAME.splitlines().index("value probe = {probe}") + 1 + bool(board.get("gravity"))
    return [(d.span.line, d.span.column, d.message, d.hint) for d in info.value.diagnostics if d.severity == "error"], line


# each mistake with the text its column points at
@pytest.mark.parametrize("probe, at, message, hint", [
    ("count(neighbours(pile(first(players)))) = 1", "pile(", "'pile' is a zone, not a space of a board",
     "a space is written grid(x, y)"),
    ("row(grid) = 1", "grid)", "'grid' is a whole board, not a space of a board", "a space is written grid(x, y)"),
    ("column(3) = 1", "3)", "expected a space of a board or a piece on one here, but this is a number",
     "a space is written grid(x, y)"),
    ("adjacent(grid(1, 1), next_player(first(players)))", "next_player(", "expected a space of a board or a piece on one here, but this is a player",
     "a space is written grid(x, y)"),
    ("count(spaces(pile)) = 9", "pile)", "'spaces' takes the name of a board, and 'pile' is not one", "write spaces(grid)"),
    ("in_a_row(3, next_player(first(players)))", "next_player(", "expected a collection here, but this is a player", None),
    ("in_a_row(true, spaces(grid))", "true", "expected a number here, but this is a truth value", None),
    ("empty(grid(2))", "grid(", "'grid' needs a column and a row: grid(x, y)",
     "to drop a piece into a column, give the board `gravity down` and write grid(x)"),
])
def test_a_geometry_mistake_is_reported_where_it_is(tmp_path, probe, at, message, hint):
    errors, line = _errors(tmp_path, probe)
    assert errors == [(line, len("value probe = ") + probe.index(at) + 1, message, hint)]


def test_a_board_with_gravity_takes_one_or_two_coordinates(tmp_path):
    errors, line = _errors(tmp_path, "empty(grid(1, 2, 3))", gravity="left")
    assert errors == [(line, len("value probe = empty(") + 1, "'grid' takes a column and a row, grid(x, y), or the row a piece is dropped into, grid(n)",
                       None)]


def test_geometry_without_a_board_says_to_declare_one(tmp_path):
    path = tmp_path / "boardless.rules"
    path.write_text("game g\n  players 2 to 2\nplay\n  if count(neighbours(nobody)) = 0\n    end game\n  end game\n",
                    encoding="utf-8")
    with pytest.raises(RuleFileError) as info:
        load(str(path))
    errors = [(d.span.line, d.span.column, d.message, d.hint) for d in info.value.diagnostics if d.severity == "error"]
    assert errors[0] == (4, 12, "'neighbours' reads a board, and this game declares none",
                         "declare one: `board field` with `grid 3 by 3` and `adjacency orthogonal`")


# ---------------------------------------------------------------- the printed rulebook
def _book(path, lang) -> str:
    result = CliRunner().invoke(main, ["book", str(path), "--lang", lang])
    assert result.exit_code == 0, result.output
    return html.unescape(re.sub(r"<[^>]+>", "", result.output))


@pytest.mark.parametrize("lang, sentence", [
    ("en", "Move 1 piece from that player's pile to the lowest empty space in column that number of grid."),
    ("en", "If 4 of what lies on grid where its owner is that player stand in a line across, down or diagonally:"),
    ("ja", "そのプレイヤーのpileから1個をgridのその数列目で一番下の空いているマスに移す。"),
    ("ja", "gridの上のもののうち、持ち主がそのプレイヤーであるもののうち4つが縦・横・斜めのどれかに一列に並んでいるなら:"),
    ("en", "4 × 4 · a piece dropped into a column falls to its lowest empty space"),
    ("ja", "4 × 4 · 入れた駒は列の一番下の空いているマスまで落ちる"),
])
def test_connect_four_reads_its_gravity_and_its_lines(lang, sentence):
    assert sentence in _book(ROOT / "tests" / "fixtures" / "connect-four-4x4.rules", lang)


@pytest.mark.parametrize("adjacency, lang, sentence", [
    ("orthogonal", "en", "the number of the spaces next to the grid's space at (1, 1) (sharing a side)"),
    ("diagonal", "en", "the number of the spaces next to the grid's space at (1, 1) (corner to corner)"),
    ("all", "ja", "gridの(1、1)のマスと辺か角で接しているマスの数"),
    ("orthogonal", "ja", "gridの(1、1)のマスと辺で接しているマスの数"),
])
def test_neighbours_say_which_spaces_touch(tmp_path, adjacency, lang, sentence):
    _game(tmp_path, "count(neighbours(grid(1, 1))) = 3", adjacency=adjacency)
    assert sentence in _book(tmp_path / "geometry.rules", lang)


@pytest.mark.parametrize("lang, sentence", [
    ("en", "the grid's space at (1, 1) is next to the grid's space at (2, 2) (corner to corner)"),
    ("ja", "gridの(1、1)のマスがgridの(2、2)のマスと角で接している"),
])
def test_adjacent_says_how_the_spaces_touch(tmp_path, lang, sentence):
    _game(tmp_path, "adjacent(grid(1, 1), grid(2, 2))", adjacency="diagonal")
    assert sentence in _book(tmp_path / "geometry.rules", lang)
