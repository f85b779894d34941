"""The printed game: rulebooks, sheets and card sheets, read back as a player would see them."""
from __future__ import annotations

import io
import os
import re
import sys

import pypdf
import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from dsl.printing import book
from dsl.variants import diff
from dsl.variants import overlay
from dsl.language import syntax as S
from dsl.cli import main
from dsl.loader import load

from _util import BLUFF, DEMOCRACY, ROOT
from print_words import pdf_pages

LIFE = ROOT / "variants" / "bluff-life.rules"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def pdf_text(data: bytes) -> str:
    reader = pypdf.PdfReader(io.BytesIO(data))
    return "".join(page.extract_text() for page in reader.pages)


def step_titles(rules: S.RuleFile, lang: str) -> list[str]:
    out = []
    for flow in rules.of(S.Flow):
        for st_ in S.statements(flow.body):
            if isinstance(st_, S.Block) and st_.kind == "step":
                out.append(S.text_of(st_.texts, "title", lang))
    return out


@pytest.fixture(scope="module")
def bluff_ja_pdf(tmp_path_factory):
    out = tmp_path_factory.mktemp("pdf") / "bluff-ja.pdf"
    r = run("book", BLUFF, "--lang", "ja", "--format", "pdf", "-o", out)
    assert r.exit_code == 0, r.output
    return out.read_bytes()


def test_japanese_pdf_has_every_step_and_flags_the_exact_count(bluff_ja_pdf):
    text = pdf_text(bluff_ja_pdf)
    squeezed = re.sub(r"\s+", "", text)
    rules, _ = load(str(BLUFF))
    for title in step_titles(rules, "ja"):
        assert re.sub(r"\s+", "", title) in squeezed, title
    # the exact-count question, flagged where it is listed and at the rule it is about
    assert squeezed.count("ぴったりだった時") >= 2
    assert "未決の問題「ぴったりだった時」" in squeezed


def test_pdf_fonts_are_embedded_and_no_date_varies(bluff_ja_pdf):
    reader = pypdf.PdfReader(io.BytesIO(bluff_ja_pdf))
    fonts = {}
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            desc = descendant["/FontDescriptor"].get_object()
            fonts[font["/BaseFont"]] = any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))
    assert any("NotoSansJP" in name for name in fonts)
    assert all(fonts.values()), fonts
    assert b"/CreationDate" not in bluff_ja_pdf and b"/ModDate" not in bluff_ja_pdf


def test_english_pdf_has_every_step():
    rules, _ = load(str(DEMOCRACY))
    text = re.sub(r"\s+", " ", pdf_text(book.make("book", "pdf", rules, "en")))
    for title in step_titles(rules, "en"):
        assert title in text, title


def test_same_input_gives_identical_html_typst_and_pdf():
    rules, _ = load(str(BLUFF))
    for kind in ("book", "sheet"):
        assert book.render(kind, "html", rules, "ja") == book.render(kind, "html", load(str(BLUFF))[0], "ja")
        typ = book.render(kind, "typ", rules, "en")
        assert typ == book.render(kind, "typ", rules, "en")
        assert book.typeset(typ) == book.typeset(typ)


def _references(part: diff.Part, names: set[str]) -> bool:
    return any(re.search(rf"\b{re.escape(n)}\b", part.text) for n in names)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_life_system_book_differs_exactly_where_the_rules_do(lang):
    base, _ = load(str(BLUFF))
    life, _ = load(str(BLUFF), [str(LIFE)])
    before, after = book.contents(base, lang).parts, book.contents(life, lang, base).parts
    differ = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
    changes = diff.diff(base, life)
    changed = {(overlay.family(c.kind), c.name) for c in changes}
    # every changed part reads differently; any other part that does names a changed part
    # (a rule that says "Carry out 'Lose life'" now that the rule it calls has a new title)
    assert changed <= differ
    names = {c.name for c in changes}
    parts = diff.parts(life)
    assert all(_references(parts[k], names) for k in differ - changed), differ - changed
    assert differ - changed == {("rule", "resolve_challenge")}


def test_variant_book_names_its_variants_and_marks_each_change():
    base, _ = load(str(BLUFF))
    life, _ = load(str(BLUFF), [str(LIFE)])
    html = book.render("book", "html", life, "en", base)
    first_page = html.split('<nav class="toc">')[0]
    assert "Variants in this rulebook" in first_page and "Life system" in first_page
    assert "No dice left: you are out" in first_page            # the removed trigger
    doc = book.contents(life, "en", base)
    added_or_changed = [c for c in diff.diff(base, life) if c.change != "removed"]
    assert doc.marks == len(added_or_changed)
    assert html.count('class="mark"') == len(added_or_changed)
    assert 'class="mark"' not in book.render("book", "html", base, "en")


def test_provisional_numbers_are_flagged():
    life, _ = load(str(BLUFF), [str(LIFE)])
    doc = book.contents(life, "en", load(str(BLUFF))[0])
    flagged = [e.title for e in doc.undecided]
    assert "life at the start" in flagged and "dice per player at the start" not in flagged


def test_component_counts_follow_the_rules():
    rules, _ = load(str(DEMOCRACY))
    comps = next(s for s in book.contents(rules, "en").sections if s.key == "components").entries
    detail = "".join(t for _, t in comps[0].detail)
    # 48 cards, two jokers at four players, one at six (the seeds README); counts alike run together
    assert "2-3 players: 48" in detail and "4 players: 50" in detail and "6 players: 49" in detail


def test_card_sheets_hold_every_card_nine_to_a_page(tmp_path):
    out = tmp_path / "cards.pdf"
    r = run("cards", DEMOCRACY, "--players", "4", "--format", "pdf", "-o", out)
    assert r.exit_code == 0, r.output
    reader = pypdf.PdfReader(str(out))
    assert len(reader.pages) == 12                             # 50 cards: 6 pages of fronts, each with its backs
    box = reader.pages[0].mediabox
    assert round(float(box.width) / 72 * 25.4) == 210          # A4
    cards, n = book.cards(load(str(DEMOCRACY))[0], "en", 4)
    assert len(cards) == 50 and sum(c.name == "joker" for c in cards) == 2


def test_a_rule_file_with_an_error_writes_nothing(tmp_path):
    broken = tmp_path / "broken.rules"
    broken.write_text(BLUFF.read_text(encoding="utf-8").replace("move start_dice from supply", "move start_dice from suply"),
                      encoding="utf-8")
    out = tmp_path / "out.pdf"
    r = run("book", broken, "--format", "pdf", "-o", out)
    assert r.exit_code == 1
    assert "did you mean 'supply'" in r.output and "Traceback" not in r.output
    assert not out.exists()
    out.write_bytes(b"an older book")
    assert run("sheet", broken, "-o", out).exit_code == 1
    assert out.read_bytes() == b"an older book"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.rules", "out.pdf"]    # no temporary left


def test_cards_of_a_game_without_cards_is_an_error():
    r = run("cards", BLUFF, "-o", "never.pdf")
    assert r.exit_code == 1 and "no deck" in r.output


def test_designer_text_is_escaped_in_html(tmp_path):
    f = tmp_path / "g.rules"
    f.write_text(BLUFF.read_text(encoding="utf-8").replace('en "Bluff"', 'en "<script>x</script> & #1"'), encoding="utf-8")
    html = book.render("book", "html", load(str(f))[0], "en")
    assert "<script>x" not in html and "&lt;script&gt;x&lt;/script&gt; &amp; #1" in html


@settings(max_examples=30, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7e), min_size=1, max_size=40))
def test_any_text_reaches_the_pdf_as_text(text):
    # two runs, as prose joins them: the space between them must survive escaping
    source = (f'#set text(font: "Libertinus Serif")\n#set document(date: none)\n'
              f'{book.typst_escape(text + " ")}{book.typst_escape("end")}\n')
    extracted = pdf_text(book.typeset(source))
    assert " ".join(extracted.split()) == " ".join((text + " end").split())


def _rule_sets() -> list[tuple[str, str]]:
    """Every game and variant `make generated` prints, one test each so the runners share them out."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import generated
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        return generated.rule_sets()
    finally:
        os.chdir(here)


@pytest.mark.slow
@pytest.mark.parametrize("stem, path", _rule_sets(), ids=lambda x: os.path.basename(x))
def test_committed_html_is_current(monkeypatch, stem, path):
    monkeypatch.chdir(ROOT)
    import generated
    stale = []
    for t in generated.targets_of(stem, path):
        path = ROOT / t.path("html")
        if not path.exists() or path.read_text(encoding="utf-8") != generated.output(t, "html"):
            stale.append(t.path("html"))
    assert not stale, f"run `make generated`: {stale}"


def test_every_construct_has_a_reading_in_both_languages():
    """A new expression, statement or declaration class needs its ja/en reading in dsl/prose.py."""
    from dsl.printing import prose

    def concrete(base):
        for cls in base.__subclasses__():
            yield cls
            yield from concrete(cls)
    # the game line and the setup and play blocks are the rulebook's frame, not constructs it reads
    structure = {S.Game, S.Flow, S.Variant, S.Patch}
    constructs = set(concrete(S.Expr)) | set(concrete(S.Stmt)) | (set(concrete(S.Decl)) - structure)
    assert constructs - prose.readable() == set()


@pytest.mark.slow
@pytest.mark.parametrize("stem, path", _rule_sets(), ids=lambda x: os.path.basename(x))
def test_every_committed_rulebook_pdf_names_its_steps_in_its_language(monkeypatch, stem, path):
    monkeypatch.chdir(ROOT)
    import generated
    books = [t for t in generated.targets_of(stem, path) if t.kind == "book"]
    assert sorted(t.lang for t in books) == ["en", "ja"]
    for t in books:
        text = re.sub(r"\s+", "", "".join(pdf_pages(str(ROOT / t.path("pdf")))))
        rules, _ = load(t.rules)
        missing = [title for title in step_titles(rules, t.lang) if title and re.sub(r"\s+", "", title) not in text]
        assert not missing, (t.path("pdf"), missing)
