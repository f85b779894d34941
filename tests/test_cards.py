"""`symbol` declarations and the card sheets they print: titles, marks and colours on real seed
games, Japanese sheets in Japanese, cut marks on the page, backs that line up when duplexed."""
from __future__ import annotations

import html
import io
import re

import pypdf
import pytest
from click.testing import CliRunner

from dsl.cli import main
from dsl.language import syntax as S
from dsl.language.checker import check
from dsl.language.parser import parse_text
from dsl.loader import load
from dsl.printing import book
from dsl.variants.diff import _shape, source_text

from _util import DEMOCRACY, GAMES

BYZANTINE = GAMES / "byzantine.rules"
DECKS = ["democracy", "byzantine", "dream-duels", "populus"]    # every seed game with a deck
SYMBOL_BLOCK = re.compile(r"^symbol .*\n(?:  .*\n)*", re.M)


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def visible_text(page: str) -> str:
    body = page[page.index("<body"):]
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def diagnostics(text: str):
    tree, errors = parse_text(text, "g.rules")
    assert tree is not None, errors
    return check(tree)


# ---------------------------------------------------------------- the declaration

def test_symbol_round_trips_through_the_parser():
    text = ('game g\n  players 2 to 2\n\nsymbol fire\n  title ja "火" en "fire"\n  mark "火"\n  colour "#C33"\n'
            'symbol bare\n\nplay\n  end game\n')
    tree, errors = parse_text(text, "g.rules")
    assert not errors
    fire, bare = tree.of(S.Symbol)
    assert (fire.name, fire.mark, fire.colour) == ("fire", "火", "#C33")
    assert [(t.lang, t.text) for t in fire.texts if t.kind == "title"] == [("ja", "火"), ("en", "fire")]
    assert (bare.name, bare.texts, bare.mark, bare.colour) == ("bare", (), None, None)
    # the declaration's own text parses back to the same declaration
    again, _ = parse_text("game g\n  players 2 to 2\n" + source_text(tree, fire.span) + "\nplay\n  end game\n")
    assert _shape(again.of(S.Symbol)[0]) == _shape(fire)
    assert book.colour_hex(fire.colour) == "#cc3333" and book.colour_hex("Crimson") == "#dc143c"


def test_a_bad_colour_is_reported_at_its_line_and_column_with_a_hint(tmp_path):
    source = DEMOCRACY.read_text(encoding="utf-8").replace('colour "crimson"', 'colour "crimsn"', 1)
    bad = tmp_path / "democracy.rules"
    bad.write_text(source, encoding="utf-8")
    line = next(i for i, l in enumerate(source.splitlines(), 1) if 'colour "crimsn"' in l)
    r = run("check", bad)
    assert r.exit_code == 1
    assert f"democracy.rules:{line}:10: error: 'crimsn' is not a colour" in r.output
    assert "did you mean 'crimson'?" in r.output


def test_the_checker_reports_a_symbol_declared_twice_naming_nothing_or_with_a_long_mark():
    base = "game g\n  players 2 to 2\nzone stock is pile\ndeck card\n  in stock\n  card ace with suit spade\n"
    found = diagnostics(base + 'symbol spade\n  mark "♠"\nsymbol spade\n  mark "♤"\n'
                               'symbol spades\n  title en "spades"\nsymbol suit\n  mark "♠♥♦♣"\n'
                               "play\n  if top(stock).suit = spade\n    end game\n  end game\n")
    got = [(d.severity, d.span.line, d.message) for d in found]
    assert ("error", 9, "'spade' is already declared at line 7") in got
    assert ("warning", 11, "symbol 'spades' names nothing in the file") in got
    assert next(d.hint for d in found if "spades" in d.message) == "did you mean 'spade'?"
    assert ("error", 14, "the mark of 'suit' must be 1 to 3 characters, but it is 4") in got
    assert not [d for d in found if "spade" in d.message and d.span.line > 14]      # `spade` is still a value


def test_declaring_symbols_leaves_play_exactly_as_it_was(tmp_path):
    plain = tmp_path / "democracy.rules"
    plain.write_text(SYMBOL_BLOCK.sub("", DEMOCRACY.read_text(encoding="utf-8")), encoding="utf-8")
    assert not load(str(plain))[0].of(S.Symbol) and load(str(DEMOCRACY))[0].of(S.Symbol)

    def simulated(path):
        r = run("simulate", path, "--players", 4, "-n", 40, "--seed", 3, "--json")
        assert r.exit_code == 0, r.output
        return re.sub(r'"[^"]*\.rules:\d+:\d+"', '"at"', r.stdout).replace(str(path), "file")
    assert simulated(plain) == simulated(DEMOCRACY)


# ---------------------------------------------------------------- what the cards show

def test_symbol_titles_marks_and_colours_reach_the_cards_and_the_rulebook():
    rules, _ = load(str(DEMOCRACY))
    cards, _ = book.cards(rules, "ja", 4)
    five = cards[0]
    assert (five.big, five.corner, five.suit) == ("5", "5", book.Value("スペード", "♠", "#000000"))
    assert five.rows == [("点数", book.Value("5"))]
    hearts = [c for c in cards if c.suit and c.suit.text == "ハート"]
    assert len(hearts) == 12 and {c.suit.colour for c in hearts} == {"#dc143c"}
    ace = next(c for c in cards if c.suit and c.suit.mark == "♣" and c.big == "A")
    assert ace.corner == "A"
    jokers = [c for c in cards if not c.suit]
    assert [(c.big, c.name) for c in jokers] == [("★", "ジョーカー")] * 2
    page = book.render("cards", "html", rules, "ja", players=4)
    assert '<b class="pip" style="color: #dc143c">♥</b> ハート' in page
    assert "#dc143c" in book.render("cards", "typ", rules, "ja", players=4)
    # the rulebook's card table: column titles, values with their marks
    table = next(e for s in book.contents(rules, "ja").sections if s.key == "components" for e in s.entries).rows
    assert table[0] == ["ランク", "点数", "スート", "枚数"]
    assert table[4] == ["A エース", "3", "♠ スペード, ♥ ハート, ♦ ダイヤ, ♣ クラブ", "1"]


def test_a_colour_without_a_mark_prints_as_a_coloured_dot_and_a_missing_value_as_a_dash():
    rules, _ = load(str(BYZANTINE))
    cards, _ = book.cards(rules, "en", 4)
    red_six = next(c for c in cards if c.suit.text == "red" and c.big == "6")
    assert red_six.suit == book.Value("red", "", "#dc143c")
    # the columns in the table's order, whatever cells a row leaves out
    assert [k for k, _ in red_six.rows] == ["points", "stake", "vote", "trump colour"]
    assert dict(red_six.rows)["stake"] == book.Value("—")
    assert dict(red_six.rows)["trump colour"] == book.Value("yellow", "", "#daa520")
    assert dict(red_six.rows)["vote"] == book.Value("single choice voting", "S")
    page = book.render("cards", "html", rules, "en")
    assert '<span class="dot" style="background: #daa520"></span> <b>yellow</b>' in page


@pytest.mark.parametrize("game", DECKS)
def test_a_japanese_card_sheet_prints_no_latin_letter_but_the_declared_marks(game):
    rules, _ = load(str(GAMES / f"{game}.rules"))
    text = visible_text(book.render("cards", "html", rules, "ja"))
    for mark in {d.mark for d in rules.of(S.Symbol) if d.mark}:
        text = text.replace(mark, " ")
    assert re.findall(r"[A-Za-z]+", text) == []
    assert re.findall(r"[A-Za-z]{2,}", visible_text(book.render("cards", "html", rules, "en")))   # English is English


def test_a_japanese_pdf_card_sheet_holds_only_marks_as_latin_letters(tmp_path):
    out = tmp_path / "cards.pdf"
    assert run("cards", BYZANTINE, "--lang", "ja", "--format", "pdf", "-o", out).exit_code == 0
    text = "".join(p.extract_text() for p in pypdf.PdfReader(str(out)).pages)
    # the footer names the rule file and its version (docs/printing.md), which are not card text
    text = text.replace(f"byzantine.rules · 版 {book.version(load(str(BYZANTINE))[0])}", "")
    assert set(re.findall(r"[A-Za-z]", text)) == {"S", "R", "Q"} and "シングル・チョイス投票" in text


# ---------------------------------------------------------------- the sheets

@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_cut_marks_lie_inside_the_page_and_outside_every_bleed(paper):
    sheets = book.card_sheets(load(str(DEMOCRACY))[0], "en", paper, 4)
    _, _, w, h = book.PAPERS[paper]
    xs, ys = sheets.cuts
    assert xs[3] - xs[0] == 3 * book.CARD[0] and ys[3] - ys[0] == 3 * book.CARD[1]
    assert xs[0] == pytest.approx(w - xs[3]) and ys[0] == pytest.approx(h - ys[3])      # centred
    assert len(sheets.marks) == 16              # both ends of the 4 + 4 cut lines
    for x1, y1, x2, y2 in sheets.marks:
        assert 0 < x1 < w and 0 < x2 < w and 0 < y1 < h and 0 < y2 < h, (paper, x1, y1, x2, y2)
        assert (x1 == x2 and x1 in xs) or (y1 == y2 and y1 in ys)
        assert max(x1, x2) - min(x1, x2) + max(y1, y2) - min(y1, y2) >= 3      # long enough to see
        bleed = book.BLEED
        inside_x = xs[0] - bleed < min(x1, x2) and max(x1, x2) < xs[3] + bleed
        inside_y = ys[0] - bleed < min(y1, y2) and max(y1, y2) < ys[3] + bleed
        assert not (inside_x and inside_y)      # never on a card or its bleed


def test_backs_follow_their_fronts_mirrored_for_long_edge_duplex_then_the_tokens():
    rules, _ = load(str(BYZANTINE))
    sheets = book.card_sheets(rules, "ja", "letter", 3)
    sides = [p.side for p in sheets.pages]
    assert sides == ["front", "back"] * 4 + ["tokens"]         # 32 cards; 30 tokens fit on one page
    w = book.PAPERS["letter"][2]
    for fronts, backs in zip(sheets.pages[0::2], sheets.pages[1::2]):
        if fronts.side != "front":
            break
        assert len(fronts.cards) == len(backs.cards)
        for f, b in zip(fronts.cards, backs.cards):
            assert b.x == pytest.approx(w - f.x - book.CARD[0]) and b.y == f.y and b.deck == f.deck
    tokens = sheets.pages[-1].tokens
    assert len(tokens) == 30 and tokens[0].title == "トークン" and tokens[0].owner == "プレイヤー1"
    assert tokens[-1].owner == "プレイヤー3"
    assert all(0 <= t.x and t.x + book.TOKEN <= w for t in tokens)


def test_a_card_sheet_is_the_same_bytes_every_time(tmp_path):
    outs = []
    for i in range(2):
        out = tmp_path / f"cards-{i}.pdf"
        assert run("cards", BYZANTINE, "--lang", "ja", "--paper", "letter", "-o", out).exit_code == 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    pages = pypdf.PdfReader(io.BytesIO(outs[0])).pages
    assert len(pages) == 9 and round(float(pages[0].mediabox.height) / 72 * 25.4, 1) == 279.4
