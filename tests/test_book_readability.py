"""The readability check: every sentence of every book and sheet of every game and variant,
measured (tests/readability.py), against limits. The limits and the worst sentences are printed in
docs/printing.md ("Readability"); a change that writes a longer or deeper sentence, or a term the
page never names, fails here and has to be set out differently (a list, a formula, a table)."""
from __future__ import annotations

import pytest

import readability as R

# Limits, per language: the longest sentence (characters in Japanese, words in English), brackets
# open at once, and terms a page uses without naming them in a heading, table row or option title.
# Each is today's worst page (docs/printing.md quotes it): a ratchet, lowered as the readings that
# make those sentences (a value's definition in the Terms table, a count at twenty player counts)
# are set out as lists and tables in turn; nothing may get worse meanwhile.
LIMITS = {"ja": {"length": 260, "depth": 2, "undefined": 11},
          "en": {"length": 130, "depth": 2, "undefined": 9}}


@pytest.mark.parametrize("path", R.pages(), ids=lambda p: p.stem)
def test_every_sentence_is_within_the_limits(path):
    m = R.measure(path)
    limit = LIMITS[m["lang"]]
    too_long = [s for s in m["sentences"] if R.length(s, m["lang"]) > limit["length"]]
    too_deep = [s for s in m["sentences"] if R.depth(s) > limit["depth"]]
    assert not too_long, too_long[:3]
    assert not too_deep, too_deep[:3]
    assert len(m["undefined"]) <= limit["undefined"], m["undefined"]


def test_the_measures_see_what_they_measure():
    """The check can fail: the sentences it would have refused before lists and formulas."""
    nested = "その目が宣言の目以上、かつその個数が宣言の数以上、かつ(その目が宣言の目より大きい、またはその個数が宣言の数より大きい)"
    assert R.depth(nested) == 1 and R.depth("a (b “c (d)”)") == 3
    assert R.length(nested, "ja") == len(nested)
    assert R.length("Move up to the dice that count for the bid", "en") == 10
    assert R.sentences("一つ目。二つ目。", "ja") == ["一つ目。", "二つ目。"]
    page = '<h3>Lose dice</h3><p>the <b class="term">bid face</b> and <b class="term">Lose dice</b></p>'
    assert R.undefined_terms(page) == {"bid face"}
