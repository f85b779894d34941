"""The document model: long conditions as lists, arithmetic as displayed formulas, the same blocks
in HTML and Typst."""
from __future__ import annotations

import re

import pytest

from dsl.language.parser import parse_text
from dsl.loader import load
from dsl.printing import blocks, book

from _util import BLUFF, GAMES
from printed import pages, text

POPULUS = GAMES / "populus.rules"


def _cond(source: str):
    rules, diags = parse_text(f"game g\n  players 2 to 2\ncounter a = 0\ncounter b = 0\ncounter c = 0\n"
                              f"play\n  if {source}\n    end game\n")
    assert rules is not None, diags
    return rules.of(__import__("dsl.language.syntax", fromlist=["Flow"]).Flow)[0].body[0].branches[0][0]


@pytest.mark.parametrize("source, long", [
    ("a = 1", False), ("a = 1 and b = 1", False), ("a = 1 or b = 1", False),
    ("a = 1 and b = 1 and c = 1", True), ("a = 1 and (b = 1 or c = 1)", True), ("(a = 1 or b = 1) and c = 1", True)])
def test_a_condition_is_listed_when_it_has_three_parts_or_mixes_and_with_or(source, long):
    assert blocks.is_long(_cond(source)) is long


def test_a_mixed_condition_is_a_list_not_parentheses():
    """Populus's war read "… and (the vandals … is 0 or the vandals' war strength is less than …)"; a raise,
    the one mixed condition players say in a phrase, is an idiom instead (tests/test_idioms.py)."""
    rules, _ = load(str(POPULUS))
    for lang, every, one in (("ja", "次のすべてを満たす:", "次のどれか一つ以上を満たす:"),
                             ("en", "all of these hold:", "at least one of these holds:")):
        html = book.render("book", "html", rules, lang)
        listed = re.search(r'<div class="conditions all"><p>(.*?)</p>\s*<ul><li>(.*?)</li><li>'
                           r'<div class="conditions any"><p>(.*?)</p>\s*<ul><li>(.*?)</li>', html)
        assert listed, lang
        plain = [re.sub(r"<[^>]+>", "", x) for x in listed.groups()]
        assert every in plain[0] and one in plain[2] and plain[1] and plain[3]
        typ = book.render("book", "typ", rules, lang)
        assert typ.count("#conditions[") >= 2       # the list and the list inside it, in the PDF too


def test_arithmetic_passed_to_a_rule_is_a_displayed_formula():
    """Bluff's challenge read "Move up to the dice that count for the bid − the bid count from …"."""
    rules, _ = load(str(BLUFF))
    en = book.render("book", "html", rules, "en")
    shown = [re.sub(r"<[^>]+>", "", f) for f in re.findall(r'<p class="formula">(.*?)</p>', en)]
    assert shown == ["the number = the number of dice that count for the bid − the bid count",
                     "the number = the bid count − the number of dice that count for the bid"]
    assert "Move up to the number below from the challenger" in re.sub(r"<[^>]+>", "", en)
    ja = re.sub(r"<[^>]+>", "", book.render("book", "html", rules, "ja"))
    assert "数 = 宣言の目として数えるさいころの数 − 宣言の数" in ja
    assert "最大で下の数だけ" in ja and "最大宣言" not in ja
    assert book.render("book", "typ", rules, "ja").count("#formula[") == 2


@pytest.mark.parametrize("name, kind, lang", pages())
def test_no_condition_nests_parentheses(name, kind, lang):
    """Anywhere in any book or sheet: 'and (… or …)' is a list now, never a bracket to count."""
    found = re.findall(r".{0,30}(?:、かつ\(|、または\(| and \(| or \().{0,30}", text(name, kind, lang))
    assert not found, found[:3]
