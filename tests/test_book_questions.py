"""Open questions the table can act on: a provisional answer where the rules give one; where
they give none, what to do when it happens and which variants settle it, by their titles."""
from __future__ import annotations

import pytest

from dsl.loader import load
from dsl.printing import book, labels, rulebook
from dsl.language import syntax as S

from _util import BLUFF, ROOT
from printed import as_text


def _book(path, lang: str) -> str:
    rules, _ = load(str(path))
    base = load(rules.path)[0] if rules.variants else None
    return as_text(book.render("book", "html", rules, lang, base))


def test_the_exact_count_says_what_the_table_does_and_names_the_variants_that_settle_it():
    text = _book(BLUFF, "en")
    assert "Playtests use the provisional answer printed where each applies" not in text
    assert text.count(labels.label("en", "no_answer")) == 1      # exact_count; the other two have answers
    assert ("Variants that settle this point (each has its own rulebook): “Exact count: the challenger loses one die”, "
            "“Add a \"just\" call”, “Exact count: nobody loses”, “Exact count: everyone but the bidder loses one die”") in text
    ja = _book(BLUFF, "ja")
    assert "「ぴったりなら、『ブラフ』をかけた人が1つ失う」、「『ジャスト』宣言を加える」" in ja
    assert ja.count("仮の扱いはない。遊んでいてこの場面になったら、いったん手を止め") == 1


def test_a_variant_book_names_no_variant_for_a_question_it_settled():
    rules, _ = load(str(ROOT / "variants" / "bluff-exact-published.rules"))
    assert "Exact count: everyone but the bidder loses one die" not in rulebook.settling_variants(rules, "en")["exact_count"]
    assert "Variants that settle" not in _book(ROOT / "variants" / "bluff-exact-published.rules", "en")


def _rule_sets():
    return sorted((ROOT / "games").glob("*.rules")) + sorted((ROOT / "variants").glob("*.rules"))


@pytest.mark.parametrize("path", _rule_sets(), ids=lambda p: p.stem)
def test_every_question_without_an_answer_says_what_the_table_does(path):
    rules, _ = load(str(path))
    assumed = {b.name for b in S.walk_rules(rules) if isinstance(b, S.Block) and b.kind == "assume"}
    # how teams are formed has the engine's seat formation as its answer until the designer gives one
    # and a question whose own text gives the handling ("Here ...") has that for its answer
    unanswered = [q for q in rules.of(S.Question) if q.name not in assumed and q.about != "teams"
                  and not rulebook.states_answer(q.texts)]
    for lang in ("en", "ja"):
        text = _book(path, lang)
        assert text.count(labels.label(lang, "no_answer")) == len(unanswered), (lang, [q.name for q in unanswered])
        # a variant named is one whose own rulebook generated/ holds
        for titles in rulebook.settling_variants(rules, lang).values():
            for t in titles:
                assert any(t in line for line in text.split("\n")) or not unanswered
