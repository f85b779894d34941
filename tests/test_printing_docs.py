"""The docs quote the books as they print now: every "after" passage of docs/printing/GAME.md is
what scripts/printing_docs.py cuts from GAME's books, so a change to what the books say fails here
until the script is run; and no page of the printing docs is longer than a page of the code."""
from __future__ import annotations

import importlib.util
import re

import pytest

from _util import ROOT

spec = importlib.util.spec_from_file_location("printing_docs", ROOT / "scripts" / "printing_docs.py")
printing_docs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(printing_docs)

DOCS = ROOT / "docs"
GAMES = sorted(p.stem for p in (DOCS / "printing").glob("*.md"))


def test_every_seed_game_with_a_book_has_its_page_and_the_printing_doc_links_it():
    assert GAMES == ["bluff", "byzantine", "democracy", "dream-duels", "populus"]
    index = (DOCS / "printing.md").read_text(encoding="utf-8")
    for game in GAMES:
        assert f"](printing/{game}.md)" in index


@pytest.mark.parametrize("path", printing_docs.pages(), ids=lambda p: p.rsplit("/", 1)[-1])
def test_every_passage_quoted_as_printed_now_is_what_the_books_print(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    marks = printing_docs.MARK.findall(text)
    # a game page: the settling rule, its example and three passages, in two languages, and any
    # passage added since; printing.md: the sentences set right
    assert len(marks) >= 10 if "/printing/" in path else len(marks) == 19
    game = path.rsplit("/", 1)[-1][:-3]
    for _, named, kind, lang, anchor, first, last, quoted, _ in marks:
        assert quoted.strip() and quoted == printing_docs.passage(named or game, kind, lang, anchor, first, last), \
            (path, named, lang, anchor)


def test_a_stale_passage_is_found_and_cut_again():
    text = (DOCS / "printing" / "bluff.md").read_text(encoding="utf-8")
    stale = text.replace("Move 5 dice from the box to that player's dice under your cup.",
                         "Move dice per player at the start from box to p's dice under your cup.", 1)
    assert stale != text and printing_docs.rebuild(stale, "bluff") == text
    with pytest.raises(SystemExit, match="no part 'step-nowhere'"):
        printing_docs.rebuild("<!-- printed: book en step-nowhere -->\n```text\n```\n", "bluff")
    # a mark may name another rule set, a variant too: its book, with the variant applied
    reversed_ending = printing_docs.rebuild("<!-- printed: bluff-reversed book en ending 1:2 -->\n```text\n```\n", "printing")
    assert reversed_ending.endswith("The game ends: that player wins.\n```\n")


@pytest.mark.parametrize("path", sorted(DOCS.glob("printing*.md")) + sorted((DOCS / "printing").glob("*.md")),
                         ids=lambda p: p.name)
def test_no_printing_doc_is_longer_than_600_lines(path):
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 600


def test_the_before_passages_stay_and_every_after_is_marked():
    """An 'after' block without its mark would be hand-written again."""
    for game in GAMES:
        text = (DOCS / "printing" / f"{game}.md").read_text(encoding="utf-8")
        for m in re.finditer(r"^(日本語|English), after[^\n]*\n(.*?)\n```text", text, re.M | re.S):
            assert m[2].startswith("<!-- printed: "), (game, m[0][:60])
        assert text.count(", before") >= 8
