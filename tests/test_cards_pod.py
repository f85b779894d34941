"""`playtest cards --preset pod`: a PDF a deck for a print-on-demand card printer, poker size
with 1/8 in bleed, one card a page, each card's front then its back, the text inside the safe
zone; the nine-up sheets stay the default."""
from __future__ import annotations

import io
from collections import Counter

import pypdf
import pytest
from click.testing import CliRunner

from dsl.cli import main
from dsl.engine import compiled
from dsl.language import syntax as S
from dsl.loader import load

from _util import DEMOCRACY, GAMES

MM = 72 / 25.4
TRIM, BLEED, SAFE = (63.5, 88.9), 3.175, 3.175
DECKS = [p.stem for p in sorted(GAMES.glob("*.rules"))
         if any(c.kind == "deck" for c in load(str(p))[0].of(S.Component))]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def pod(tmp_path, game: str, *more) -> dict:
    out = tmp_path / "pod"
    r = run("cards", GAMES / f"{game}.rules", "--preset", "pod", "-o", out, *more)
    assert r.exit_code == 0, r.output
    return {p.name: pypdf.PdfReader(io.BytesIO(p.read_bytes())) for p in sorted(out.iterdir())}


def text_origins(page) -> list:
    """Where each run of text starts on a page, mm from its bottom-left corner."""
    found = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            found.append((x / MM, y / MM, text))
    page.extract_text(visitor_text=visit)
    return found


def test_democracy_prints_a_poker_card_a_page_at_the_bleed_size_front_then_back(tmp_path):
    pdfs = pod(tmp_path, "democracy")
    rules, _ = load(str(DEMOCRACY))
    cards = Counter(compiled(rules, rules.game.max_players).kind_of)["card"]
    assert list(pdfs) == ["democracy-card.pdf"]
    pages = pdfs["democracy-card.pdf"].pages
    assert len(pages) == 2 * cards == 98
    for page in pages:
        w, h = float(page.mediabox.width) / MM, float(page.mediabox.height) / MM
        assert w == pytest.approx(TRIM[0] + 2 * BLEED, abs=0.01) and h == pytest.approx(TRIM[1] + 2 * BLEED, abs=0.01)
    fronts, backs = [p.extract_text() for p in pages[0::2]], [p.extract_text() for p in pages[1::2]]
    assert all("Democracy" in t for t in backs) and not any("Democracy" in t for t in fronts)
    assert "5" in fronts[0] and "spade" in fronts[0] and "joker" in fronts[-1]


@pytest.mark.parametrize("game", DECKS)
def test_every_deck_is_its_own_file_and_every_text_stays_inside_the_safe_zone(tmp_path, game):
    rules, _ = load(str(GAMES / f"{game}.rules"))
    counts = Counter(compiled(rules, rules.game.max_players).kind_of)
    decks = [c.name for c in rules.of(S.Component) if c.kind == "deck"]
    pdfs = pod(tmp_path, game, "--lang", "ja")
    assert sorted(pdfs) == sorted(f"{rules.game.name}-{d}.pdf" for d in decks)
    lo_x, hi_x = BLEED + SAFE, BLEED + TRIM[0] - SAFE
    lo_y, hi_y = BLEED + SAFE, BLEED + TRIM[1] - SAFE
    for d in decks:
        pages = pdfs[f"{rules.game.name}-{d}.pdf"].pages
        assert len(pages) == 2 * counts[d]
        for page in pages[:6]:
            origins = text_origins(page)
            assert origins
            for x, y, text in origins:
                assert lo_x <= x <= hi_x and lo_y <= y <= hi_y, (d, text, round(x, 2), round(y, 2))


def test_the_home_preset_is_still_the_default_and_pod_refuses_what_it_cannot_write(tmp_path):
    home = tmp_path / "home.pdf"
    assert run("cards", DEMOCRACY, "-o", home).exit_code == 0
    first = pypdf.PdfReader(str(home)).pages[0]
    assert round(float(first.mediabox.width) / MM, 1) == 210.0          # nine-up on A4
    r = run("cards", DEMOCRACY, "--preset", "pod", "--format", "html", "-o", tmp_path / "x")
    assert r.exit_code == 1 and "--preset pod writes PDF files" in r.output
    r = run("cards", DEMOCRACY, "--preset", "pod")
    assert r.exit_code == 1 and "add -o FOLDER" in r.output
    r = run("cards", GAMES / "bluff.rules", "--preset", "pod", "-o", tmp_path / "y")
    assert r.exit_code == 1 and "defines no deck" in r.output and "Traceback" not in r.output


def test_a_pod_file_is_the_same_bytes_every_time(tmp_path):
    a = run("cards", GAMES / "byzantine.rules", "--preset", "pod", "-o", tmp_path / "a")
    b = run("cards", GAMES / "byzantine.rules", "--preset", "pod", "-o", tmp_path / "b")
    assert a.exit_code == b.exit_code == 0
    assert (tmp_path / "a" / "byzantine-card.pdf").read_bytes() == (tmp_path / "b" / "byzantine-card.pdf").read_bytes()
