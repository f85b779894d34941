"""Sentences the books once got wrong, each checked as a pattern over every book and sheet, and
at the rule that showed it."""
from __future__ import annotations

import re

import pytest

from dsl.language.parser import parse_text
from dsl.loader import load
from dsl.printing import book
from dsl.printing.prose import Voice, plain
from dsl.language import syntax as S

from _util import BLUFF, ROOT
from printed import as_text, pages, text

EN_PAGES = [p for p in pages() if p.values[2] == "en"]
SHEETS = pages(("sheet",))


def _rendered(path, kind: str, lang: str) -> str:
    rules, _ = load(str(path))
    base = load(rules.path)[0] if rules.variants else None
    return as_text(book.render(kind, "html", rules, lang, base))


def test_a_trigger_for_each_player_reads_of_the_one_it_fired_for_on_the_sheet():
    """Bluff's sheet read `eliminate p` of `trigger ... for each p` as 「各プレイヤーはゲームから脱落する」."""
    ja = _rendered(BLUFF, "sheet", "ja")
    assert "各プレイヤーはゲームから脱落" not in ja
    assert "残っているプレイヤーのだれかについて「そのプレイヤーの手元のさいころの数が0」になったら、すぐに: " \
           "そのプレイヤーはゲームから脱落する。" in ja
    en = _rendered(BLUFF, "sheet", "en")
    assert "That player is out of the game." in en or "that player is out of the game" in en.lower(), en


@pytest.mark.parametrize("name, kind, lang", SHEETS)
def test_no_sheet_reads_a_trigger_of_each(name, kind, lang):
    """Whatever a `for each` trigger does, the sheet says it of the one the condition picked out."""
    sheet = text(name, kind, lang)
    assert not re.search(r"(すぐに: |immediately: |:\s)(各|each )", sheet), sheet


def test_one_winner_named_in_a_trigger_wins_alone():
    """Bluff reversed: `end game winners [p]` in `trigger ... for each p` printed "each player wins"."""
    page = _rendered(ROOT / "variants" / "bluff-reversed.rules", "book", "en")
    assert "is 0: The game ends: that player wins." in page
    assert "each player win" not in page
    ja = _rendered(ROOT / "variants" / "bluff-reversed.rules", "book", "ja")
    assert "各プレイヤーの勝ち" not in ja and "ゲーム終了。そのプレイヤーの勝ち。" in ja


@pytest.mark.parametrize("name, kind, lang", pages())
def test_no_page_says_every_player_wins_where_one_does(name, kind, lang):
    assert not re.search(r"each player wins|各プレイヤーの勝ち", text(name, kind, lang))


FOREVER = '''game g
  players 2 to 2
counter rounds = 0
  title ja "ラウンド数" en "rounds"
play
  repeat while true
    add 1 to rounds
    if rounds >= 3
      end game winners [player(1)]
'''


@pytest.mark.parametrize("head", ["repeat while true", "repeat until false"])
def test_a_loop_only_the_end_stops_says_so(head):
    rules, diags = parse_text(FOREVER.replace("repeat while true", head))
    assert rules is not None, diags
    en, ja = (as_text(book.render("book", "html", rules, lang)) for lang in ("en", "ja"))
    assert "Repeat until the game ends:" in en and "yes" not in en and " no:" not in en
    assert "ゲームが終わるまで、次をくり返す:" in ja and "はい" not in ja and "いいえ" not in ja


@pytest.mark.parametrize("name, kind, lang", EN_PAGES)
def test_no_doubled_article(name, kind, lang):
    """Populus's counter titled "the end is triggered" was read "the the end is triggered", and the
    just-call variant's "the call made" "There is no the call made yet"."""
    assert not re.search(r"\b(the|a|an|no) (the|a|an)\b", text(name, kind, lang), re.I)


def test_a_mark_reads_as_the_state_it_records():
    """A 0-or-1 counter titled by a state is a mark players set, clear and ask about, not a number:
    Populus's `repeat until ending = 1` printed "Repeat until the the end is triggered is 1"."""
    rules, _ = load(str(ROOT / "games" / "populus.rules"))
    assert Voice(rules, "en").flags == {"ending", "raising", "vandal_due"}
    en, ja = (as_text(book.render("book", "html", rules, lang)) for lang in ("en", "ja"))
    assert "Repeat until the end is triggered:" in en and "Mark that the end is triggered." in en
    assert "Repeat while someone added food:" in en and "Clear the mark that someone added food." in en
    assert "「終了条件を満たした」の印があるまで、次をくり返す:" in ja
    assert "「フードを追加した人がいる」の印を外す。" in ja
    assert not re.search(r"(triggered|added food) is [01]|」が[01]", en + ja)


def test_a_counter_that_counts_is_no_mark():
    """A counter that is added to, or starts at 5, or is titled by a thing, stays a number."""
    rules, _ = load(str(BLUFF))
    assert Voice(rules, "ja").flags == set()
    rules, _ = load(str(ROOT / "games" / "populus.rules"))
    flags = Voice(rules, "ja").flags
    assert all(plain(Voice(rules, "ja").name(f)).startswith("「") for f in flags)


JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e「」、。]")


@pytest.mark.parametrize("name, kind, lang", EN_PAGES)
def test_an_english_page_holds_no_japanese(name, kind, lang):
    """Populus's English note quoted a number by its Japanese title (仮の値「1エリアの適性のないマスの数」).
    What the game itself prints (Dream Duels' element marks 火, 水, 木) it may show, and so may a
    designer's gloss of the original's word, a few characters in parentheses ("taken (入手できる)")."""
    rules, _ = load(str(next((ROOT / d / f"{name.split('/')[1]}.rules") for d in ("games", "variants")
                             if (ROOT / d / f"{name.split('/')[1]}.rules").exists())))
    marks = {d.mark for d in rules.of(S.Symbol) if d.mark}
    glossed = [re.sub(r"\([^()「」]{1,8}\)", "", line) for line in text(name, kind, lang).split("\n")]
    found = [line for line in glossed if JAPANESE.search("".join(ch for ch in line if ch not in "".join(marks)))]
    assert not found, found[:5]


def test_the_sheet_says_how_many_dice_and_what_is_wild():
    """Bluff's sheet never said that a 6 is wild or how many dice each player gets."""
    en, ja = _rendered(BLUFF, "sheet", "en"), _rendered(BLUFF, "sheet", "ja")
    assert "die: 5 per player —" in en and "A 6 is wild" in en
    assert "さいころ: 1人あたり5" in ja and "6の目はワイルド" in ja
    # and what counts for a bid, which the settling rule reads, with the wild face in it
    assert "number of dice that count for the bid:" in en and "wild" in en.split("number of dice that count for the bid:")[1].split("\n")[0]


@pytest.mark.parametrize("path", sorted((ROOT / "games").glob("*.rules")), ids=lambda p: p.stem)
def test_every_sheet_lists_every_component(path):
    rules, _ = load(str(path))
    v = Voice(rules, "en")
    sheet = _rendered(path, "sheet", "en")
    for c in rules.decls:
        if isinstance(c, (S.Component, S.ExtraComponent)) and not getattr(c, "part_of", None):
            assert f"\n{v.title(c.name)}: " in sheet, c.name
