"""How the printed game is laid out: the sheet is one page and enough to play, each open question is
printed once where it applies, callouts and headings stay with their text, and every printout says
which rules it came from."""
from __future__ import annotations

import glob
import hashlib
import io
import re
from html.parser import HTMLParser

import pypdf
import pytest

from dsl.language import syntax as S
from dsl.loader import load
from dsl.printing.rulebook import contents
from dsl.printing import book
from dsl.printing.runs import notes_of, title_of

from _util import BLUFF, ROOT

BYZANTINE = ROOT / "games" / "byzantine.rules"
POPULUS = ROOT / "games" / "populus.rules"
DREAM = ROOT / "games" / "dream-duels.rules"
RULE_SETS = sorted(glob.glob(str(ROOT / "games" / "*.rules"))) + sorted(glob.glob(str(ROOT / "variants" / "*.rules")))


def pages(data: bytes) -> list[str]:
    return [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(data)).pages]


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def loaded(path):
    rules, _ = load(str(path))
    return rules, (load(rules.path)[0] if rules.variants else None)


# ---------------------------------------------------------------- the sheet

@pytest.mark.parametrize("path", RULE_SETS, ids=lambda p: p.rsplit("/", 1)[-1])
def test_sheet_is_one_page_and_names_every_rule_play_reaches(path):
    rules, base = loaded(path)
    reached = book.reachable_rules(rules)
    for lang in ("ja", "en"):
        text = pages(book.make("sheet", "pdf", rules, lang, base))
        assert len(text) == 1, (path, lang, len(text))
        page = squeeze(text[0])
        for r in reached:
            title = title_of(r.texts, lang) or r.name
            assert squeeze(title) in page, (path, lang, title)
        # options are read by their titles, never by the identifier the rule file gives them
        identifiers = {o.name for d in rules.decls if isinstance(d, (S.Flow, S.Rule, S.Trigger))
                       for st in S.statements(d.body) if isinstance(st, S.Choose)
                       for o in st.options if o.name != "choose" and title_of(o.texts, lang) != o.name}
        for _, _, options in book.contents(rules, lang, base).sheet["choices"]:
            for title, _ in options:
                assert title not in identifiers, (path, lang, title)


def test_reachable_rules_follow_do_through_rules_and_triggers():
    rules, _ = load(str(BLUFF))
    # play calls resolve_challenge, which calls lose
    assert [r.name for r in book.reachable_rules(rules)] == ["resolve_challenge", "lose"]
    populus, _ = load(str(POPULUS))
    names = [r.name for r in book.reachable_rules(populus)]
    assert names[0] == "take_turn" and {"war", "lose_war", "place_worker", "blessing"} <= set(names)


@pytest.mark.parametrize("lang, says", [
    ("en", ["the challenger loses the difference", "the bidder loses the difference"]),
    ("ja", ["『ブラフ』をかけた人が差の数だけさいころを失う", "宣言した人が差の数だけさいころを失う"]),
])
def test_bluff_sheet_says_who_loses_dice_after_a_challenge(lang, says):
    rules, _ = load(str(BLUFF))
    page = squeeze(pages(book.make("sheet", "pdf", rules, lang))[0])
    for s in says:
        assert squeeze(s) in page


def test_sheet_shows_the_values_the_game_is_scored_by():
    rules, _ = load(str(BYZANTINE))
    page = " ".join(pages(book.make("sheet", "pdf", rules, "en"))[0].split())
    assert "final score" in page and "staking points - cards left in hand" in page


# ---------------------------------------------------------------- open questions

def _placed_questions(rules, lang):
    doc = book.contents(rules, lang)
    index = next(s for s in doc.sections if s.key == "questions").entries
    return doc, {e.name: e for e in index}


@pytest.mark.parametrize("path", [BLUFF, BYZANTINE, POPULUS, DREAM], ids=lambda p: p.name)
def test_each_open_question_is_printed_once_where_it_applies(path):
    rules, _ = load(str(path))
    for lang in ("ja", "en"):
        doc, index = _placed_questions(rules, lang)
        html = book.render("book", "html", rules, lang)
        first_page = html.split('<nav class="toc">')[0]
        for q in rules.of(S.Question):
            text = " ".join(t for _, t in notes_of(q.texts, lang))
            escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&#34;")
            escaped = escaped.replace("'", "&#39;")
            assert html.count(escaped) == 1, (path.name, lang, q.name, html.count(escaped))
            assert escaped not in first_page
            # the index says where it applies, with a link to each place; a question that applies
            # nowhere in particular (no `about`, no `assume`) is printed in the index itself
            places = index[q.name].places
            assert places or index[q.name].notes, (path.name, q.name)
            for where, anchor in places:
                assert f'href="#{anchor}"' in html and f'id="{anchor}"' in html
        assert html.count('class="badge"') >= len(rules.of(S.Question))


def test_question_about_a_rule_is_flagged_in_that_rule_and_indexed_with_its_page():
    rules, _ = load(str(BLUFF))
    text = pages(book.make("book", "pdf", rules, "en"))
    whole = " ".join(" ".join(text).split())
    exact = next(q for q in rules.of(S.Question) if q.name == "exact_count")
    assert whole.count(" ".join(t for _, t in notes_of(exact.texts, "en"))) == 1
    assert "Rules in detail › Settle the challenge (p." in whole
    # the first page keeps one line, not the list
    before_contents = " ".join(text[0].split()).split("Contents")[0]
    undecided = len(contents(rules, "en").undecided)
    assert undecided >= 3 and f"{undecided} points are not yet decided" in before_contents and "Who is the first parent" not in before_contents


@pytest.mark.parametrize("path", [BYZANTINE, POPULUS, DREAM], ids=lambda p: p.name)
def test_callouts_are_not_split_across_pages(path):
    rules, _ = load(str(path))
    for lang in ("ja", "en"):
        text = pages(book.make("book", "pdf", rules, lang))
        squeezed = [squeeze(t) for t in text]
        for q in rules.of(S.Question):
            body = squeeze(" ".join(t for _, t in notes_of(q.texts, lang)))
            assert any(body in page for page in squeezed), (path.name, lang, q.name)


class _Nesting(HTMLParser):
    """Which step sections stand inside an open question's box."""

    def __init__(self):
        super().__init__()
        self.stack: list[str] = []
        self.boxed_steps: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("br", "meta", "img", "hr"):
            return
        cls = dict(attrs).get("class") or ""
        if tag == "section" and cls.split()[:1] in (["step"], ["phase"]) and "flag" in self.stack:
            self.boxed_steps.append(dict(attrs).get("id"))
        self.stack.append(cls.split()[0] if cls else tag)

    def handle_endtag(self, tag):
        if tag not in ("br", "meta", "img", "hr") and self.stack:
            self.stack.pop()


def test_an_assume_around_the_turn_is_a_flag_line_not_a_box():
    rules, _ = load(str(BYZANTINE))
    for lang in ("ja", "en"):
        html = book.render("book", "html", rules, lang)
        nesting = _Nesting()
        nesting.feed(html)
        assert nesting.boxed_steps == []
        assert html.count('class="flagline"') == 1            # round_end, which holds the whole turn
        typ = book.render("book", "typ", rules, lang)
        assert "#flagline[" in typ


def test_headings_stick_and_long_tables_repeat_their_header():
    rules, _ = load(str(BYZANTINE))
    typ = book.render("book", "typ", rules, "en")
    assert typ.count("#table(") == typ.count("table.header(") == 1
    assert "#block(breakable: true)[#table(" in typ           # 32 cards: may break, header repeated
    short = book.render("book", "typ", load(str(ROOT / "games" / "populus.rules"))[0], "en")
    assert "#block(breakable: false)[#table(" in short        # the 15 area tiles stay together
    html = book.render("book", "html", rules, "en")
    assert "<thead>" in html and "break-after: avoid" in html


def test_no_page_of_a_long_book_ends_on_a_heading():
    rules, _ = load(str(DREAM))
    for lang in ("ja", "en"):
        doc = book.contents(rules, lang)
        headings = {squeeze(s.title) for s in doc.sections}
        for s in doc.sections:
            for it in s.items:
                for node in _items(it):
                    if node.kind in ("step", "phase"):
                        headings.add(squeeze(f"{node.number}{''.join(t for _, t in node.runs)}"))
        text = pages(book.make("book", "pdf", rules, lang))
        for n, page in enumerate(text[:-1], 1):
            lines = [squeeze(line) for line in page.splitlines() if squeeze(line)]
            body = [line for line in lines if not line.isdigit() and "dream-duels.rules" not in line]
            assert body[-1] not in headings, (lang, n, body[-1])


def _items(it):
    yield it
    for c in it.children:
        yield from _items(c)


# ---------------------------------------------------------------- the version stamp

def test_version_is_the_hash_of_the_rule_texts():
    rules, _ = load(str(BLUFF))
    text = BLUFF.read_text(encoding="utf-8")
    digest = hashlib.sha256(text.encode("utf-8") + b"\0").hexdigest()
    assert book.version(rules) == f"{int(digest[:8], 16):010d}"
    life, _ = load(str(ROOT / "variants" / "bluff-life.rules"))
    assert book.version(life) != book.version(rules)


def test_book_sheet_and_cards_print_the_version_and_it_follows_the_text(tmp_path):
    rules, _ = load(str(BYZANTINE))
    v = book.version(rules)
    for kind in ("book", "sheet", "cards"):
        for lang in ("ja", "en"):
            text = pages(book.make(kind, "pdf", rules, lang))
            assert all(v in page for page in text), (kind, lang)
            assert v in book.render(kind, "html", rules, lang)
    changed = tmp_path / "byzantine.rules"
    changed.write_text(BYZANTINE.read_text(encoding="utf-8").replace('hand_size = 7', 'hand_size = 6'), encoding="utf-8")
    other, _ = load(str(changed))
    assert book.version(other) != v
    assert book.version(other) in " ".join(pages(book.make("book", "pdf", other, "en")))


@pytest.mark.slow
def test_printouts_are_byte_identical_across_runs():
    for path in (BLUFF, DREAM):
        rules, _ = load(str(path))
        again, _ = load(str(path))
        for kind in ("book", "sheet"):
            assert book.make(kind, "pdf", rules, "ja") == book.make(kind, "pdf", again, "ja")
            assert book.make(kind, "html", rules, "en") == book.make(kind, "html", again, "en")


# ---------------------------------------------------------------- components a player unpacks

def _components(path, lang="en"):
    from dsl.printing.runs import plain
    rules, _ = load(str(path))
    entries = next(s for s in book.contents(rules, lang).sections if s.key == "components").entries
    return {e.title: plain(e.detail) for e in entries}


def test_components_give_counts_per_player_where_the_rules_do():
    assert _components(BLUFF)["die"].startswith("5 per player (2 players: 10 · 3 players: 15")
    assert _components(BLUFF, "ja")["さいころ"].startswith("1人あたり5 (2人: 10 · 3人: 15")
    assert _components(POPULUS)["worker"].startswith("16 per player (3 players: 48 · 4 players: 64 · 5 players: 80)")
    # a count per team, at every player count (the last team may be smaller)
    assert _components(DREAM)["number token"].startswith("1 per team (2 players: 1 · 3-4 players: 2")


def test_populus_spaces_are_part_of_the_tiles_not_cards_to_unpack():
    comps = _components(POPULUS)
    assert "space" not in comps
    assert comps["area tile"] == "15 — 7 × space on each"
    assert "cards" not in " ".join(comps.values())
    html = book.render("book", "html", load(str(POPULUS))[0], "en")
    components = html.split('id="components"')[1].split('id="zones"')[0]
    assert "space-" not in components and "7 × space on each" in components


def test_components_the_seed_lists_but_play_does_not_model_are_printed_not_played():
    comps = _components(POPULUS)
    for title in ("race board", "score track"):
        assert comps[title] == "the rules do not track it"
    assert comps["marker"].startswith("2 per player (3 players: 6")
    rules, _ = load(str(POPULUS))
    from dsl.engine import Game
    assert "marker" not in Game(rules, 3).kind_pieces         # the engine never sees it


def test_a_component_not_modelled_cannot_be_played_with(tmp_path):
    from dsl.language.diagnostics import RuleFileError
    f = tmp_path / "g.rules"
    f.write_text(POPULUS.read_text(encoding="utf-8").replace(
        "    set vandal_due to 0\n", "    set vandal_due to 0\n    move 1 from marker to lowered(p)\n"), encoding="utf-8")
    with pytest.raises(RuleFileError) as err:
        load(str(f))
    errors = [d for d in err.value.diagnostics if d.severity == "error"]
    assert len(errors) == 1 and "'marker'" in errors[0].message
    f.write_text(POPULUS.read_text(encoding="utf-8").replace("  part of tile\n", "  part of tiles\n"), encoding="utf-8")
    with pytest.raises(RuleFileError) as err:
        load(str(f))
    errors = [d for d in err.value.diagnostics if d.severity == "error"]
    assert len(errors) == 1 and "part of 'tiles'" in errors[0].message and "'tile'" in errors[0].hint


def test_a_variant_adds_and_removes_such_components(tmp_path):
    (tmp_path / "populus.rules").write_text(POPULUS.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "v.rules").write_text(
        'variant no_marker of populus\n  title en "No markers"\n'
        'remove component marker\nadd component pad\n  title en "score pad"\n  count 1\n', encoding="utf-8")
    rules, _ = load(str(tmp_path / "v.rules"))
    entries = next(s for s in book.contents(rules, "en", load(rules.path)[0]).sections if s.key == "components").entries
    titles = {e.title: e.mark for e in entries}
    assert "marker" not in titles and titles["score pad"] == "No markers"
