"""Figures drawn from the declarations: a board's spaces, coordinates and adjacency; what setup
puts where; a card's values. The drawings are read back as SVG and counted."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from dsl.constructs.board import Board
from dsl.loader import load
from dsl.printing import book, figures
from dsl.printing.cards import cards
from dsl.printing.prose import Voice
from dsl.printing.runs import plain

from _util import BLUFF, DEMOCRACY, GAMES, rules_of

SVG = "{http://www.w3.org/2000/svg}"


def _svg(item) -> ET.Element:
    assert item.kind == "figure" and item.texts[0][0] == "svg"
    assert "\n" not in item.texts[0][1]         # one line: it goes into a Typst string as it is
    return ET.fromstring(item.texts[0][1])


def _texts(root) -> list[str]:
    return [t.text for t in root.iter(SVG + "text")]


def _board(path, lang="en"):
    rules = rules_of(str(path))
    game, state = figures._set_up(rules)
    board = rules.of(Board)[0]
    return figures.board_figure(Voice(rules, lang), game, state, board)


def _fills(root) -> list[str]:
    return [r.get("fill") for r in root.iter(SVG + "rect")]


def test_a_board_is_drawn_with_its_coordinates_and_the_spaces_its_adjacency_joins():
    field = _svg(_board(GAMES / "dream-duels.rules"))
    fills = _fills(field)
    assert len(fills) == 25
    assert fills.count(figures.ACCENT) == 1 and fills.count(figures.SHADE) == 4       # orthogonal
    assert _texts(field)[-12:] == [str(k) for k in range(1, 6)] * 2 + ["column →", "row ↓"]
    grid = _svg(_board(GAMES / "tictactoe.rules"))
    assert _fills(grid).count(figures.SHADE) == 8                                      # all eight around the centre
    caption = plain(_board(GAMES / "dream-duels.rules", "ja").runs)
    assert caption.startswith("場: 5×5のマス。マスは列(左から1〜5)と行(上から1〜5)の番号で呼ぶ。") and "薄い色の4マス" in caption


def test_the_setup_figure_shows_what_the_engine_put_where():
    rules = rules_of(str(BLUFF))
    game, state = figures._set_up(rules)
    assert state.playing
    root = _svg(figures.setup_figure(Voice(rules, "en"), game, state))
    texts = _texts(root)
    assert texts[:3] == ["In front of seat 1 (each seat has its own)", "dice under your cup", "5 × die"]
    assert len(state.zones[game.zone_names.index("cup(1)")]) == 5


def test_a_card_figure_names_every_value_the_card_carries():
    rules = rules_of(str(DEMOCRACY))
    first = next(c for c in cards(rules, "en")[0] if len(c.attrs) >= 2)
    item = next(f for f in [figures.card_figure(Voice(rules, "en"), first)])
    texts = _texts(_svg(item))
    assert [f"{t}: {v}" for t, v in first.attrs] == [t for t in texts if ": " in t]


def test_rule_file_text_reaches_the_drawing_escaped(tmp_path):
    source = (GAMES / "tictactoe.rules").read_text(encoding="utf-8").replace(
        'title ja "盤" en "grid"', 'title ja "盤<b>&" en "grid</svg><script>x</script>"')
    path = tmp_path / "tictactoe.rules"
    path.write_text(source, encoding="utf-8")
    rules, _ = load(str(path))
    item = _board(path)
    root = _svg(item)                          # still well-formed
    assert not list(root.iter(SVG + "script"))
    html = book.render("book", "html", rules, "en")
    assert "<script>x</script>" not in html and "grid&lt;/svg&gt;&lt;script&gt;" in html


def test_both_books_carry_the_same_figures_and_the_pdf_is_made():
    rules = rules_of(str(GAMES / "tictactoe.rules"))
    html = book.render("book", "html", rules, "en")
    typ = book.render("book", "typ", rules, "en")
    assert html.count('<figure class="figure"') == typ.count("#figure-box(") == 1
    assert book.render("book", "html", rules, "en") == html
    pdf = book.make("book", "pdf", rules, "ja")
    assert pdf.startswith(b"%PDF") and pdf == book.make("book", "pdf", rules, "ja")


SEEDS = ["bluff", "byzantine", "democracy", "dream-duels", "populus", "tictactoe"]


def test_a_facing_is_drawn_with_every_number_the_rules_give_it_its_way_and_turn():
    rules = rules_of(str(GAMES / "dream-duels.rules"))
    [facing] = figures.facings(rules)
    # the numbers come from the choices `f from 0 to 3`; the steps from dx and dy
    assert (facing.counter, facing.board, facing.alike) == ("facing", "field", ["wanted"])
    assert facing.steps == {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}
    en = _texts(_svg(figures.facing_figure(Voice(rules, "en"), facing)))
    for number, way, turn in [("0", "up", "upright, not turned"), ("1", "right", "a quarter turn clockwise"),
                              ("2", "down", "a half turn"), ("3", "left", "a quarter turn counterclockwise")]:
        assert en[en.index(way) - 1:en.index(way) + 2] == [number, way, turn]
    ja = _texts(_svg(figures.facing_figure(Voice(rules, "ja"), facing)))
    assert [ja[ja.index(w) - 1] for w in ("上", "右", "下", "左")] == ["0", "1", "2", "3"]
    assert "時計回りに4分の1回す" in ja and "反時計回りに4分の1回す" in ja


def test_the_facing_follows_the_declarations(tmp_path):
    """Swap what 1 and 3 step by, and the drawing and the definition swap their ways."""
    source = (GAMES / "dream-duels.rules").read_text(encoding="utf-8")
    swapped = source.replace("value dx(f) = if f = 1 then 1 else if f = 3 then -1 else 0",
                             "value dx(f) = if f = 1 then -1 else if f = 3 then 1 else 0")
    assert swapped != source
    path = tmp_path / "dream-duels.rules"
    path.write_text(swapped, encoding="utf-8")
    rules, _ = load(str(path))
    [facing] = figures.facings(rules)
    assert facing.steps[1] == (-1, 0) and facing.steps[3] == (1, 0)
    html = book.render("book", "html", rules, "en")
    assert "1, left: a quarter turn counterclockwise; 2, down: a half turn; 3, right: a quarter turn clockwise." in html


@pytest.mark.parametrize("game", SEEDS)
def test_the_facing_figure_stands_in_the_books_of_the_games_that_declare_a_facing_and_no_other(game):
    rules = rules_of(str(GAMES / f"{game}.rules"))
    declared = [f.counter for f in figures.facings(rules)]
    assert declared == (["facing"] if game == "dream-duels" else [])
    for lang in ("en", "ja"):
        html = book.render("book", "html", rules, lang)
        typ = book.render("book", "typ", rules, lang)
        assert html.count('id="figure-facing-') == len(declared)
        assert typ.count("#figure-box(") == html.count('<figure class="figure"')        # the PDF draws the same
        glossary = html[html.index('id="glossary"'):html.index("</section>", html.index('id="glossary"'))]
        assert glossary.count('id="figure-facing-') == len(declared)
        # the definition beside the drawing names each number's way, in words
        for d, step in (figures.facings(rules)[0].steps.items() if declared else ()):
            said = f"{d}, {figures.way('en', step)}:" if lang == "en" else f"{d}は{figures.way('ja', step)}:"
            assert said in glossary


ROVER = """game rover
  title ja "探査車" en "Rover"
  players 2 to 2

board field
  title ja "場" en "field"
  grid 5 by 5
  adjacency all

counter x per player = 3 min 1 max 5
  title ja "横の位置" en "column"
counter y per player = 3 min 1 max 5
  title ja "縦の位置" en "row"
counter heading per player = 0
  title ja "車の向き" en "heading"

value sx(h) = if h = 1 or h = 2 or h = 3 then 1 else if h = 5 or h = 6 or h = 7 then -1 else 0
  title ja "向きの横の歩み" en "column step"
value sy(h) = if h = 3 or h = 4 or h = 5 then 1 else if h = 7 or h = 0 or h = 1 then -1 else 0
  title ja "向きの縦の歩み" en "row step"

play
  repeat until x(player(1)) = 5
    for each p in players
      step drive
        title ja "走る" en "Drive"
        p chooses h from 0 to 7
          set heading(p) to h
          add sx(heading(p)) to x(p)
          add sy(heading(p)) to y(p)
        if count(field(x(p), y(p))) = 0
          end game winners [p]
"""


def test_any_game_that_steps_a_piece_by_a_number_has_its_facings_drawn(tmp_path):
    """Not Dream Duels' words: eight headings, diagonals among them, named by other titles."""
    path = tmp_path / "rover.rules"
    path.write_text(ROVER, encoding="utf-8")
    rules, _ = load(str(path))
    [f] = figures.facings(rules)
    assert (f.counter, f.board, f.alike) == ("heading", "field", [])
    assert f.steps == {0: (0, -1), 1: (1, -1), 2: (1, 0), 3: (1, 1), 4: (0, 1), 5: (-1, 1), 6: (-1, 0), 7: (-1, -1)}
    texts = _texts(_svg(figures.facing_figure(Voice(rules, "en"), f)))
    assert texts[texts.index("up and right") + 1] == "turned 45° clockwise"
    assert texts[texts.index("down and left") + 1] == "turned 135° counterclockwise"
    ja = book.render("book", "html", rules, "ja")
    assert "7は左上: 反時計回りに45度回す" in ja and ja.count('id="figure-facing-heading"') == 1
