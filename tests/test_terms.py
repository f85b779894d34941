"""Terms defined where the book uses them: every word a book or sheet sets as a term is named by a
heading, a table row or the glossary (dsl/printing/glossary.py), for every game and variant in both
languages; seats, the next player and the players still in are said in words; every zone a rule
names is listed."""
from __future__ import annotations

import html
import re

import pytest

import readability as R
from dsl.language import syntax as S
from dsl.language.parser import parse_text
from dsl.printing import book
from dsl.printing.glossary import glossary
from dsl.printing.prose import Voice
from dsl.printing.runs import plain

from _util import BLUFF, rules_of
from printed import as_text

BOOKS = [p for p in R.pages() if "-book-" in p.name]


@pytest.mark.parametrize("path", BOOKS, ids=lambda p: p.stem)
def test_every_term_a_book_uses_is_defined_in_it(path):
    assert R.undefined_terms(path.read_text(encoding="utf-8")) == set()


def test_the_check_finds_a_term_nothing_defines():
    page = ('<h3>Lose dice</h3><dl class="entries"><dt>seat</dt></dl><table><tr><th>team&#39;s facing</th></tr></table>'
            '<p><b class="term">seat</b>, <b class="term">facing</b>, <b class="term">The Lose dice</b>, '
            '<b class="term">wild face</b></p>')
    assert R.undefined_terms(page) == {"wild face"}


GAME = """game g
  players 2 to 5
  seating counterclockwise
deck card
  title ja "札" en "card"
  in stock
  cards for each colour in [red, blue]
    | rank |
    | 1    |
symbol colour
  title ja "色" en "colour"
symbol red
  title ja "赤" en "red"
symbol blue
  title ja "青" en "blue"
symbol n
  title ja "賭け" en "stake"
symbol shout
  title ja "叫び" en "shout"
zone stock is supply, shared, seen by everyone
  title ja "山" en "stock"
zone hand is hand, per player, seen by owner
  title ja "手札" en "hand"
variable mover = nobody
  title ja "動かす人" en "mover"
variable said = nobody
  title ja "かけ声" en "call made"
play
  set mover to player(1)
  repeat until count(alive_players()) = 1
    mover chooses one of
      option stake with n from 1 to 3
        title ja "賭ける" en "Stake"
        set mover to next_player(mover)
      option yell
        title ja "叫ぶ" en "Shout"
        set said to "shout"
        eliminate mover
"""


def test_the_glossary_says_seats_the_next_player_and_the_games_own_words():
    rules, diags = parse_text(GAME)
    assert rules is not None, diags
    en = {word: plain(said) for _, word, said in glossary(rules, Voice(rules, "en"))}
    assert en == {
        "seat": "Where a player sits, numbered from 1 in the order of play (counterclockwise). The rules do not say "
                "who sits in seat 1: agree it before you start.",
        "the next player": "The player in the next seat counterclockwise, skipping anyone out of the game.",
        "players still in": "Those not yet out of the game.",
        "red, blue": "The colour values of a card.",
        "stake": "What is chosen in “Stake”: a number from 1 to 3.",
        "shout": "The call made when “Shout” is chosen."}
    ja = {word: plain(said) for _, word, said in glossary(rules, Voice(rules, "ja"))}
    assert ja["次のプレイヤー"] == "反時計回りで隣の席のプレイヤー。ゲームから脱落した人は飛ばす。"
    assert ja["赤、青"] == "札の色。" and ja["賭け"] == "「賭ける」で選ぶ値: 1から3までの数。"


def test_where_nobody_leaves_and_nobody_passes_on_there_is_no_next_player_to_define():
    rules, _ = parse_text(GAME.replace("        eliminate mover\n", "").replace("next_player(mover)", "player(2)")
                          .replace("count(alive_players()) = 1", "count(stock) = 0"))
    words = [w for _, w, _ in glossary(rules, Voice(rules, "en"))]
    assert "seat" in words and "the next player" not in words and "players still in" not in words


@pytest.mark.parametrize("path", [p for p in BOOKS if p.stem.endswith("-en")], ids=lambda p: p.stem)
def test_every_zone_a_rule_names_is_listed_where_things_go(path):
    page = path.read_text(encoding="utf-8")
    zones = re.search(r'id="zones".*?</section>', page, flags=re.S)
    listed = set(re.findall(r"<th>(.*?)</th>", zones.group(0))) if zones else set()
    rules = rules_of(str(_source(path)))
    v = Voice(rules, "en")
    named = {z.name for z in rules.of(S.Zone) + rules.of(S.Board)}
    used = {n.id if isinstance(n, S.Name) else n.fn for n in S.walk_rules(rules)
            if isinstance(n, S.Name) and n.id in named or isinstance(n, S.Call) and n.fn in named}
    assert {v.titles.get(z, z) for z in used} <= {html.unescape(re.sub(r"<[^>]+>", "", x)).strip() for x in listed}


def _source(path):
    stem = path.name.rsplit("-book-", 1)[0]
    root = R.GENERATED.parent
    game = root / "games" / f"{stem}.rules"
    return game if game.exists() else root / "variants" / f"{stem}.rules"


def test_bluffs_book_defines_the_bids_words_and_seat_one():
    for lang, words in (("ja", ("席", "次のプレイヤー", "目", "個数")), ("en", ("seat", "the next player", "face", "count"))):
        page = book.render("book", "html", rules_of(str(BLUFF)), lang)
        glossed = re.search(r'id="glossary".*?</section>', page, flags=re.S).group(0)
        assert all(f">{w}</dt>" in glossed for w in words), lang
    assert "「最初の宣言」と「宣言を上げる」で選ぶ値: 1から5までの数。" in as_text(book.render("book", "html", rules_of(str(BLUFF)), "ja"))
