"""Tracks, loops and routes (`track`, `connect`) and the chain tests `joins` and `connected`:
the adjacency each declares against hand-written graphs, steps along a track against plain
arithmetic, chains against an independent union-find, and what `check` says of a wrong board."""
from __future__ import annotations

import random
import re

from hypothesis import given, settings, strategies as st

from dsl.engine import Game, geometry
from dsl.engine.builtins import BUILTINS
from dsl.engine.errors import RuleError
from dsl.engine.values import Spaces

from _util import ROOT, errors_of, parsed, playtest

BOARDS = """game boards
  title ja "盤" en "Boards"
  players 2 to 2

board path
  title ja "道" en "path"
  track 2 to 12

board ring
  title ja "輪" en "ring"
  track 6 loop

board map
  title ja "地図" en "map"
  connect london - paris, paris - rome, london - rome
  connect rome - athens

token pawn
  title ja "コマ" en "pawn"
  count 1 per player
  in home

zone home is supply, per player, seen by everyone
  title ja "手元" en "home"

play
  for each p in players
    p chooses s from spaces(path) where empty(s)
      move 1 from home(p) to s
  end game
"""


def _game(text=BOARDS) -> Game:
    return Game(parsed(text), 2)


def _call(name, state, *args):
    return BUILTINS[name].impl(state, *args)


def _labels(game, board, spaces) -> list:
    return [game.board_decls[board].labels()[game.space_at[z][1] - 1] for z in spaces]


def test_each_board_has_the_spaces_and_the_adjacency_it_declares():
    g = _game()
    s = g.new_initial_state()
    path = {x: g.space("path", x - 1, 1) for x in range(2, 13)}
    ring = {x: g.space("ring", x, 1) for x in range(1, 7)}
    assert [g.zone_names[z] for z in g.zones["path"]] == [f"path({x})" for x in range(2, 13)]
    # written out by hand: a line, a loop, and the listed connections both ways
    assert _labels(g, "path", _call("neighbours", s, path[2])) == [3]
    assert _labels(g, "path", _call("neighbours", s, path[7])) == [6, 8]
    assert _labels(g, "path", _call("neighbours", s, path[12])) == [11]
    assert _labels(g, "ring", _call("neighbours", s, ring[1])) == [2, 6]
    assert _labels(g, "ring", _call("neighbours", s, ring[6])) == [1, 5]
    near = {x: sorted(_labels(g, "map", _call("neighbours", s, z))) for x, z in zip(g.board_decls["map"].labels(), g.zones["map"])}
    assert near == {"london": ["paris", "rome"], "paris": ["london", "rome"],
                    "rome": ["athens", "london", "paris"], "athens": ["rome"]}
    assert not _call("adjacent", s, path[2], path[12]) and _call("adjacent", s, ring[6], ring[1])
    assert _call("label", s, path[5]) == 5 and _call("label", s, g.zones["map"][3]) == "athens"


def test_steps_along_a_track_stop_at_its_ends_and_wrap_round_a_loop():
    g = _game()
    s = g.new_initial_state()
    path = {x: g.space("path", x - 1, 1) for x in range(2, 13)}
    assert _call("along", s, path[2], 4) == path[6] and _call("along", s, path[9], -7) == path[2]
    assert not _call("past_end", s, path[9], 3) and _call("past_end", s, path[9], 4) and _call("past_end", s, path[3], -2)
    try:
        _call("along", s, path[12], 1)
        raise AssertionError("a step past the end gave a space")
    except RuleError as e:
        assert e.kind == "off the board"
    ring = {x: g.space("ring", x, 1) for x in range(1, 7)}
    assert _call("along", s, ring[5], 3) == ring[2] and _call("along", s, ring[1], -1) == ring[6]
    assert not _call("past_end", s, ring[6], 100)


@given(st.integers(1, 30), st.booleans(), st.integers(1, 30), st.integers(-40, 40))
def test_a_step_is_plain_arithmetic_on_a_line_and_modular_on_a_loop(n, loop, at, k):
    at = (at - 1) % n + 1
    if loop:
        assert geometry.step(n, True, at, k) == (at - 1 + k) % n + 1
    else:
        assert geometry.step(n, False, at, k) == (at + k if 1 <= at + k <= n else None)


@given(st.integers(1, 40), st.booleans())
def test_a_track_is_drawn_with_every_space_in_its_own_place_and_each_next_to_the_one_before(n, loop):
    at = geometry.layout(n, "track", loop)
    assert len(at) == n == len(set(at))
    # a line of spaces snakes, so the next space is always beside or under the one before
    if not loop:
        assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in zip(at, at[1:]))


@given(st.integers(1, 12), st.integers(1, 12), st.booleans())
def test_runs_along_a_track_are_its_consecutive_spaces(n, k, loop):
    found = set(geometry.runs(n, loop, k))
    by_hand = {tuple(range(s, s + k)) for s in range(1, n - k + 2)}
    if loop and 1 < k <= n:
        by_hand = {tuple((s + i - 1) % n + 1 for i in range(k)) for s in range(1, n + 1)}
    assert found == by_hand


# ---------------------------------------------------------------- chains
HEX_DIRECTIONS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))     # axial: the six sides


def _groups(cells, near) -> dict:
    """Union-find: each cell -> its group's root."""
    root = {c: c for c in cells}

    def find(c):
        while root[c] != c:
            root[c] = root[root[c]]
            c = root[c]
        return c
    for c in cells:
        for n in near(c):
            if n in root:
                root[find(c)] = find(n)
    return {c: find(c) for c in cells}


def _hex_game(side):
    text = (ROOT / "games" / "classics" / "hex.rules").read_text(encoding="utf-8")
    return Game(parsed(text.replace("parameter side = 3", f"parameter side = {side}")), 2)


@settings(deadline=None, max_examples=60)
@given(st.integers(1, 7), st.data())
def test_joins_on_hexagons_is_what_a_union_find_of_the_chosen_cells_says(side, data):
    g = _hex_game(side)
    s = g.new_initial_state()
    cells = [(x, y) for y in range(1, side + 1) for x in range(1, side + 1)]
    chosen = set(data.draw(st.lists(st.sampled_from(cells), unique=True)))
    groups = _groups(chosen, lambda c: [(c[0] + dx, c[1] + dy) for dx, dy in HEX_DIRECTIONS])
    top_to_bottom = any(groups[a] == groups[b] for a in chosen for b in chosen if a[1] == 1 and b[1] == side)
    spaces = lambda cs: Spaces(g.space("cells", x, y) for x, y in sorted(cs, key=lambda c: (c[1], c[0])))  # noqa: E731
    top, bottom = [c for c in cells if c[1] == 1], [c for c in cells if c[1] == side]
    assert _call("joins", s, spaces(chosen), spaces(top), spaces(bottom)) == top_to_bottom
    assert _call("connected", s, spaces(chosen)) == (len(set(groups.values())) <= 1)


@settings(deadline=None, max_examples=40)
@given(st.integers(2, 9), st.data())
def test_connected_on_a_route_is_what_a_union_find_of_its_connections_says(n, data):
    names = [f"s{i}" for i in range(n)]
    pairs = data.draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names)).filter(lambda p: p[0] != p[1]),
                               min_size=1, max_size=12))
    text = BOARDS.replace("  connect london - paris, paris - rome, london - rome\n  connect rome - athens",
                          "  connect " + ", ".join(f"{a} - {b}" for a, b in pairs))
    g = _game(text)
    s = g.new_initial_state()
    labels = g.board_decls["map"].labels()
    chosen = set(data.draw(st.lists(st.sampled_from(labels), unique=True)))
    joined = {a: set() for a in labels}
    for a, b in pairs:
        joined[a].add(b)
        joined[b].add(a)
    groups = _groups(chosen, lambda c: joined[c])
    spaces = Spaces(g.zones["map"][labels.index(x)] for x in sorted(chosen, key=labels.index))
    assert _call("connected", s, spaces) == (len(set(groups.values())) <= 1)


def _hex_joined(stones, red, side) -> bool:
    """Red joins row 1 to the last row, Blue column 1 to the last column: a flood fill by hand."""
    groups = _groups(stones, lambda c: [(c[0] + dx, c[1] + dy) for dx, dy in HEX_DIRECTIONS])
    axis = 1 if red else 0
    return any(groups[a] == groups[b] for a in stones for b in stones if a[axis] == 1 and b[axis] == side)


def test_hex_on_larger_boards_ends_exactly_when_a_flood_fill_sees_the_chain():
    for side in (4, 5, 6):
        g = _hex_game(side)
        for seed in range(3):
            state, rng, stones = g.new_initial_state(), random.Random(seed), {0: set(), 1: set()}
            while not state.is_terminal():
                [p] = state.current_actors()
                moves = state.legal_moves(p)
                move = moves[rng.randrange(len(moves))]
                _, x, y = g.space_at[move[1]]
                stones[int(p)].add((x, y))
                assert not any(_hex_joined(stones[q], q == 0, side) for q in (0, 1) if q != int(p))
                state.apply(move, p)
                assert state.is_terminal() == _hex_joined(stones[int(p)], int(p) == 0, side)
            [winner] = [int(w) for w in state.outcome]
            assert _hex_joined(stones[winner], winner == 0, side)


# ---------------------------------------------------------------- checks
def _said(text) -> list:
    return [(d.span.line, d.message, d.hint) for d in errors_of(text)]


def test_check_refuses_a_track_written_as_a_grid_and_names_outside_the_board():
    board_at = BOARDS.splitlines().index("board path") + 1
    wrong = BOARDS.replace("  track 2 to 12\n", "  track 2 to 12\n  grid 3 by 3\n  adjacency hex\n")
    said = _said(wrong)
    assert [(line, msg.split(":")[0]) for line, msg, _ in said] == [
        (board_at, "a board with a track has no grid"), (board_at, "a track takes no 'adjacency'")]
    # a route's spaces are those its connections name; a track's are its own, and a shortcut
    # must join two of them
    said = _said(BOARDS.replace("connect rome - athens", "connect rome - sparta, rome - rome")
                 .replace("  track 2 to 12\n", "  track 2 to 12\n  connect 2 - 13\n"))
    assert [m for _, m, _ in said] == ["'connect' names 13, which is not a space of the track 'path'",
                                       "'connect rome - rome' joins a space to itself"]
    assert said[0][2] == "its spaces are 2, 3, 4 ... 12"
    said = _said(BOARDS.replace("move 1 from home(p) to s", "move 1 from home(p) to map(berlin)"))
    assert [(m, h) for _, m, h in said] == [("'map' has no space 'berlin'", "its spaces are london, paris, rome, athens")]
    said = _said(BOARDS.replace("move 1 from home(p) to s", "move 1 from home(p) to path(2, 3)"))
    assert [m for _, m, _ in said] == ["'path' is a track: name one space, path(2)"]


def test_a_wrong_track_is_reported_with_its_place_and_a_hint_not_a_traceback(tmp_path):
    path = tmp_path / "t.rules"
    path.write_text(BOARDS.replace("  track 6 loop", "  track a, b, a loop"), encoding="utf-8")
    r = playtest("check", path)
    line = BOARDS.splitlines().index("board ring") + 1
    assert r.exit_code == 1 and f"t.rules:{line}:1: error: the track names a more than once" in r.output
    assert "hint: give every space its own name" in r.output


def _reading(rules, lang) -> str:
    from dsl.printing.book import render
    text = re.sub(r"<[^>]+>", " ", render("book", "html", rules, lang)).replace("&#39;", "'")
    return re.sub(r"\s+", "" if lang == "ja" else " ", text)


def test_a_track_s_spaces_read_by_their_labels_and_steps_in_both_languages():
    rules = parsed(BOARDS.replace("move 1 from home(p) to s", "move 1 from home(p) to along(path(3), 2)"))
    assert "the space 2 steps along the track from space 3 of the path" in _reading(rules, "en")
    assert "道の3のマスから2マス進んだマス" in _reading(rules, "ja")
    rules = parsed(BOARDS.replace("p chooses s from spaces(path) where empty(s)",
                                  "p chooses s from spaces(map) where joins(spaces(map), [s], [map(athens)])"))
    assert "the spaces of map join that space to space athens of the map in a chain of spaces (joined by a connection)" \
        in _reading(rules, "en")
    assert "地図のマスが道でつながってそのマスと地図のathensのマスを結ぶ" in _reading(rules, "ja")


def test_the_table_places_a_track_s_spaces_as_drawn_and_labels_them():
    from dsl.table import view as V
    from dsl.table.words import Words
    g = _game()
    cells = {z["name"]: z["grid"] for z in V.zones(Words(g, "en"), g.new_initial_state(), 0) if "grid" in z}
    assert [(cells[f"path({x})"]["col"], cells[f"path({x})"]["row"]) for x in range(2, 13)] == \
        [(c, 0) for c in range(11)]
    # a loop of 6 runs clockwise round a 3 by 2 rectangle: 1 2 3 along the top, 4 5 6 back below
    assert [(cells[f"ring({x})"]["col"], cells[f"ring({x})"]["row"]) for x in range(1, 7)] == \
        [(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)]
    assert cells["ring(1)"]["label"] == "1"
    assert sorted(cells["map(rome)"]["joined"]) == ["athens", "london", "paris"]
    assert "joined" not in cells["path(5)"]


# ---------------------------------------------------------------- the language guide's examples
def _docs_example(marker) -> str:
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    at = text.index(marker)
    return re.search(r"```rules\n(.*?)```", text[at:], re.S).group(1)


def _plays_clean(tmp_path, text, n):
    from dsl.analyses.simulate import game_rng, play_random
    path = tmp_path / "example.rules"
    path.write_text(text, encoding="utf-8")
    r = playtest("check", path)
    assert r.exit_code == 0 and "(0 errors, 0 warnings)" in r.output, r.output
    g = Game(parsed(text), n)
    for i in range(20):
        s = play_random(g, game_rng(1, i), i).state
        assert s.dead_end is None and s.outcome is not None
    return parsed(text)


def test_the_track_example_of_the_language_guide_checks_plays_and_reads(tmp_path):
    text = _docs_example("**Tracks and loops.**")
    assert "track 2 to 12" in text and "past_end(" in text and "along(" in text
    rules = _plays_clean(tmp_path, text, 3)
    en, ja = _reading(rules, "en"), _reading(rules, "ja")
    assert "If that number steps from that player's runner go past the end of the track" in en
    assert "the space that number steps along the track from that player's runner" in en
    assert "そのプレイヤーのコマからその数マス進むと道の端を越えるなら" in ja and "そのプレイヤーのコマからその数マス進んだマス" in ja


def test_the_route_example_of_the_language_guide_checks_plays_and_reads(tmp_path):
    text = _docs_example("**Routes and chains.**")
    assert "connect port - mill" in text and "joins(" in text and "connected(" in text
    rules = _plays_clean(tmp_path, text, 2)
    en, ja = _reading(rules, "en"), _reading(rules, "ja")
    assert "If the spaces of map where it holds a road for that player join space port of the map to space fort of " \
           "the map in a chain of spaces (joined by a connection)" in en
    assert "are all joined in one chain (joined by a connection)" in en
    assert "地図のマスのうち、道がある(そのプレイヤーについて)であるものが道でつながって地図のportのマスと地図のfortのマスを結ぶなら" in ja
    assert "道でひとつながりになっている" in ja
