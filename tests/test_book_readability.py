"""The readability check: every sentence of every book and sheet of every game and variant,
measured (tests/readability.py), against limits. The limits and the worst sentences are printed in
docs/printing.md ("Readability"); a change that writes a longer or deeper sentence, or a term the
page never names, fails here and has to be set out differently (a list, a formula, a table)."""
from __future__ import annotations

import pytest

import readability as R

# Limits, per language and kind of page: the longest sentence (characters in Japanese, words in
# English), brackets open at once, sentences that say "each X" of one X, and terms a book uses without
# defining them (a heading, a table row, an option's title or the glossary). The books before the
# idioms, the glossary and values set out as cases had sentences of 259 characters / 127 words and up
# to 5 undefined terms a page: these limits refuse them (docs/printing.md, "Readability").
LIMITS = {("book", "ja"): {"length": 140, "depth": 2, "each one": 0, "undefined": 0},
          ("book", "en"): {"length": 80, "depth": 2, "each one": 0, "undefined": 0},
          # a sheet lists a component's count at every player count on one line (Dream Duels: 19 of them)
          ("sheet", "ja"): {"length": 160, "depth": 2, "each one": 0, "undefined": 0},
          ("sheet", "en"): {"length": 90, "depth": 2, "each one": 0, "undefined": 0}}


@pytest.mark.parametrize("path", R.pages(), ids=lambda p: p.stem)
def test_every_sentence_is_within_the_limits(path):
    m = R.measure(path)
    limit = LIMITS[path.stem.rsplit("-", 2)[1], m["lang"]]
    too_long = [s for s in m["sentences"] if R.length(s, m["lang"]) > limit["length"]]
    too_deep = [s for s in m["sentences"] if R.depth(s) > limit["depth"]]
    assert not too_long, too_long[:3]
    assert not too_deep, too_deep[:3]
    assert len(m["each one"]) <= limit["each one"], m["each one"]
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
    # what the old pages said, refused now: a loop's item read outside its loop, the longest sentence
    assert R.each_one("各プレイヤーはゲームから脱落する。", "ja") and R.each_one("The game ends: each player wins.", "en")
    assert not R.each_one("各プレイヤーについて:", "ja") and not R.each_one("For each player:", "en")
    assert not R.each_one("各プレイヤーに一つ。はじめは0。", "ja")
    populus = ("全員のマスの上のうち、持ち主が対象のプレイヤー、かつ種類がハウス、かつそれを持つプレイヤーの小さい数字が対象の"
               "エリアタイルの小さい数字、かつそれを持つプレイヤーの大きい数字が対象のエリアタイルの大きい数字であるものの数が"
               "0より大きいなら2、そうでなければ全員のマスの上のうち、持ち主が対象のプレイヤー、かつ種類がワーカーポーン、かつ"
               "それを持つプレイヤーの小さい数字が対象のエリアタイルの小さい数字、かつ…")
    assert R.length(populus, "ja") > LIMITS["book", "ja"]["length"]
