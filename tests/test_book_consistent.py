"""No contradiction survives the build: every book and sheet of every game and variant, in both
languages, built now from the rule files and read as a player reads them."""
from __future__ import annotations

import re

import pytest

from built import every, page, rules_of, text
from dsl.language import syntax as S
from dsl.printing.labels import label
from dsl.printing.prose import Voice

# a line that gives the handling the book plays meanwhile
PROVISIONAL = re.compile(r"ここでは|\bhere\b|決まるまでの仮の扱い|[Pp]rovisional answer:", re.I)
# the turning words the book's own sentences use; the seeds' 右回り/左回り would be a second word
DIRECTION = {"ja": re.compile(r"右回り|左回り"), "en": re.compile(r"\b(?:to the (?:left|right)|anticlockwise)\b")}
# the article in a sentence ("A ace" in a card table is a rank's letter and its name, not an article)
ENGLISH_SLIPS = re.compile(r"(?:\ba|(?<=[.:] )A) (?=[aeiouAEIOU])(?!one\b|once\b|uni|use\b|usu|eu)\w+"
                           r"|\b(?:an|(?<=[.:] )An) (?=[bcdfgjklmnpqrstvwxyz])\w+"
                           r"|\b(?:their the|the the|is now speaks|becomes the still)\b")


@pytest.mark.parametrize("path,kind,lang", every())
def test_a_question_with_a_provisional_answer_never_says_it_has_none(path, kind, lang):
    lines = text(path, kind, lang).split("\n")
    none = label(lang, "no_answer")
    for i, line in enumerate(lines):
        if line == none:
            # the question's own text stands just above the line that tells the table what to do
            assert not PROVISIONAL.search(lines[i - 1]), lines[i - 1]


@pytest.mark.parametrize("path,kind,lang", every())
def test_every_reference_points_at_a_section_that_exists(path, kind, lang):
    html = page(path, kind, lang)
    ids = set(re.findall(r'\bid="([^"]+)"', html))
    assert not [a for a in re.findall(r'href="#([^"]+)"', html) if a not in ids]
    # "see “X”": X is a heading, an entry or a step of this page
    shown = text(path, kind, lang)
    heads = set(shown.split("\n")) | {re.sub(r"^[\d.]+ ", "", ln) for ln in shown.split("\n")}
    for m in re.finditer(r"(?:「([^」]+)」の項を参照|ルール詳細の「([^」]+)」を参照|See “([^”]+)”)", shown):
        for target in filter(None, m.groups()):
            for one in re.split(r"」・「|”, “", target):
                assert one in heads, (one, m.group(0))


@pytest.mark.parametrize("path,kind,lang", every())
def test_the_turning_direction_has_one_word(path, kind, lang):
    found = DIRECTION[lang].search(text(path, kind, lang))
    assert not found, found


@pytest.mark.parametrize("path,kind,lang", every())
def test_a_component_the_rules_do_not_track_is_not_said_to_be_unused_where_a_step_uses_it(path, kind, lang):
    shown = text(path, kind, lang)
    rules = rules_of(path)
    v = Voice(rules, lang)
    unused = ("ルールの処理では使わない", "not used by the rules of play")[lang == "en"]
    play = "\n".join(ln for ln in shown.split("\n") if unused not in ln)
    for d in rules.of(S.ExtraComponent):
        if v.title(d.name) in play.split(label(lang, "reference"))[-1] and unused in shown:
            # the reference tells the table to use it: the book may not call it unused
            assert all(v.title(d.name) not in ln for ln in shown.split("\n") if unused in ln), d.name


@pytest.mark.parametrize("path,kind,lang", [p for p in every() if p.values[2] == "en"])
def test_english_has_no_grammar_slips(path, kind, lang):
    found = [m.group(0) for m in ENGLISH_SLIPS.finditer(text(path, kind, lang))]
    assert not found, found


def test_the_slips_are_seen():
    assert [m.group(0) for m in ENGLISH_SLIPS.finditer("a item, an card, their the cup, the the dice, X is now speaks, "
                                                         "she becomes the still in, a one, a unit, an hour, A ace. A egg")] == \
        ["a item", "an card", "their the", "the the", "is now speaks", "becomes the still", "A egg"]
