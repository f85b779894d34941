"""The printed game speaks the table's language: what generated/ holds shows a playtester
no variable letter, rule-file identifier, option name or (in Japanese) English word beyond
what the game itself prints, in the HTML and in the PDF's text alike."""
from __future__ import annotations

from pathlib import Path

import pytest

from dsl.loader import load

from print_words import ROOT, code_runs, identifiers, leftovers, pdf_pages, rule_files, visible_text

GENERATED = ROOT / "generated"
OUTPUTS = sorted(p for p in GENERATED.glob("*/*.html") if p.parent.name not in ("reports", "skill", "findings"))


def _rules_for(output: Path):
    """The rule file an output was printed from: generated/<game>/<stem>-<kind>-<lang>.html."""
    stem = output.name.rsplit("-", 2)[0]
    for folder in ("games", "variants"):
        path = ROOT / folder / f"{stem}.rules"
        if path.exists():
            return load(str(path))[0]
    raise AssertionError(f"no rule file for {output}")


def test_every_game_and_variant_is_printed_in_both_languages():
    stems = {p.name.rsplit("-", 2)[0] for p in OUTPUTS}
    expected = {p.stem for p in (ROOT / "games").glob("*.rules")} | {p.stem for p in (ROOT / "variants").glob("*.rules")}
    assert stems == expected
    for kind in ("book", "sheet"):
        for lang in ("ja", "en"):
            assert len([p for p in OUTPUTS if p.name.endswith(f"-{kind}-{lang}.html")]) == len(expected)


@pytest.mark.slow
@pytest.mark.parametrize("output", OUTPUTS, ids=lambda p: p.name)
def test_printed_text_shows_nothing_of_the_rule_file(output):
    lang = output.stem.rsplit("-", 1)[1]
    rules = _rules_for(output)
    files = rule_files(rules)
    names = identifiers(files)
    page = output.read_text(encoding="utf-8")
    assert code_runs(page) == [], "names printed as written in the rule file"
    assert leftovers(visible_text(page), lang, files, names) == []
    # a card sheet's pages share one template: its first fronts and backs pages stand for all
    # (the HTML above holds every card)
    first = 2 if "-cards-" in output.name else None
    text = "\n".join(pdf_pages(str(output.with_suffix(".pdf")), first))
    assert leftovers(text, lang, files, names) == []


def test_the_check_finds_what_it_looks_for():
    """The finder itself: letters, identifiers and English in Japanese are caught."""
    files = rule_files(load(str(ROOT / "games" / "bluff.rules"))[0])
    assert leftovers("全員の一人ずつ(p)について", "ja", files) == ["p"]
    assert leftovers("宣言の目をfaceにする", "ja", files) == ["face"]
    assert leftovers("Set bid_face to 3", "en", files) == ["bid_face"]
    assert leftovers("For each p in players", "en", files) == ["p"]
    assert leftovers("種は書いていない", "ja", files) == ["種"]
    assert leftovers("各プレイヤーについて、手元のさいころを振る", "ja", files) == []
    assert code_runs("<p><code>starter</code> chooses</p>") == ["starter"]
