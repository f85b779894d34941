"""The one-page sheet is enough to play: every component with how many there are (per player where
the rules count them so), every wild face, every rule that settles something with each of its
outcomes, every rule that applies at any time, and how the game ends; for every seed game, in
both languages."""
from __future__ import annotations

import functools
import re

import pytest

from dsl.engine import Game
from dsl.language import syntax as S
from dsl.printing import book, sheet
from dsl.printing.examples import settling_rules
from dsl.printing.prose import Voice, notes_of
from dsl.printing.rulebook import contents

from _util import BLUFF, GAMES, rules_of
from printed import as_text

SEEDS = ["bluff", "byzantine", "democracy", "dream-duels", "populus", "tictactoe"]


@functools.lru_cache(maxsize=None)
def _sheet(game: str, lang: str):
    rules = rules_of(str(GAMES / f"{game}.rules"))
    return rules, Voice(rules, lang), contents(rules, lang).sheet


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", SEEDS)
def test_every_component_is_on_the_sheet_with_its_count(game, lang):
    rules, v, sheet = _sheet(game, lang)
    listed = dict(sheet["components"])
    for c in rules.decls:
        if not isinstance(c, (S.Component, S.ExtraComponent)) or getattr(c, "part_of", None):
            continue
        assert v.title(c.name) in listed, f"{c.name} is not on the sheet"
        line = listed[v.title(c.name)]
        per = getattr(c, "count_per_player", False) or getattr(c, "per", None) == "player"
        if per:
            n = Game(rules, rules.game.min_players)
            each = len(n.kind_pieces.get(c.name, ())) // rules.game.min_players if isinstance(c, S.Component) else None
            assert ("per player" if lang == "en" else "1人") in line, f"{c.name}: {line}"
            if each:
                assert re.search(rf"(?<!\d){each}(?!\d)", line), f"{c.name}: {each} each is not said in {line!r}"
        wild = getattr(c, "wild", None)
        if wild is not None:
            assert ("wild" if lang == "en" else "ワイルド") in line and str(wild) in line


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", SEEDS)
def test_every_settling_rule_and_each_of_its_outcomes_is_on_the_sheet(game, lang):
    rules, v, sheet = _sheet(game, lang)
    shown = {r["title"]: " ".join(text for _, text in r["lines"]) for r in sheet["rules"]}
    for rule in settling_rules(rules):
        assert v.title(rule.name) in shown, f"{rule.name} is not on the sheet"
        for st in S.statements(rule.body):
            for case in getattr(st, "cases", ()):
                for kind, text in notes_of(case.texts, lang):
                    if kind == "text":
                        assert text in shown[v.title(rule.name)]
    triggers = {t["title"] for t in sheet["triggers"]}
    assert triggers == {v.title(t.name) for t in rules.of(S.Trigger)}
    endings = sum(1 for n in S.walk_rules(rules) if isinstance(n, S.EndGame))
    assert len(sheet["ending"]) == endings


def test_the_printed_bluff_sheet_says_a_six_is_wild_and_five_dice_each():
    """The issue's own complaint, read from the page a player holds."""
    rules = rules_of(str(BLUFF))
    ja = as_text(book.render("sheet", "html", rules, "ja"))
    assert "さいころ: 1人あたり5" in ja and "(ワイルドは6)" in ja and "6の目はワイルド" in ja
    assert "ブラフの判定" in ja and "宣言より少なかった" in ja and "宣言より多かった" in ja


def test_the_games_have_settling_rules_to_check():
    assert sum(len(settling_rules(rules_of(str(GAMES / f"{g}.rules")))) for g in SEEDS) == 5


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", SEEDS)
def test_every_open_point_is_on_the_printed_sheet_with_the_answer_a_table_plays_by(game, lang):
    """Not 'see the rulebook': each question's title and its provisional answer (what its text says
    the rules do meanwhile), or among those where play stops for a ruling; each provisional number's value."""
    rules, v, _ = _sheet(game, lang)
    doc = contents(rules, lang)
    printed = book.render("sheet", "html", rules, lang)
    page = as_text(printed)
    heading = f"Not yet decided ({len(doc.undecided)})" if lang == "en" else f"未決の点({len(doc.undecided)}点)"
    assert (heading in page) == bool(doc.undecided)
    lines = page[page.find(heading):].split("\n")[1:] if doc.undecided else []
    assumed = {b.name for b in S.walk_rules(rules) if isinstance(b, S.Block) and b.kind == "assume"}
    stop = "No provisional answer (play stops: agree a ruling, then play on):" if lang == "en" else \
        "仮の扱いなし(この場面になったら手を止め、全員で扱いを決めて続ける):"
    # the head, then the questions as a list, one item (one line of the page) each
    listed = re.search(r'<ul class="stops">(.*?)</ul>', printed, re.S)
    stops = [as_text(t) for t in re.findall(r"<li>(.*?)</li>", listed.group(1), re.S)] if listed else []
    assert bool(stops) == (stop in lines)
    assert all(t in lines for t in stops)
    questions = rules.of(S.Question)
    for q in questions:
        title = v.title(q.name)
        if q.name in assumed:
            text = " ".join(t for k, t in notes_of(q.texts, lang) if k == "text")
            answer = sheet.provisional_answer(text, lang)
            assert answer and text.endswith(answer) and f"{title} {answer}" in lines, q.name
        else:
            assert title in stops, q.name
    assert len(stops) == len([q for q in questions if q.name not in assumed])
    numbers = [p for p in rules.of(S.Parameter) if p.provisional]
    for p in numbers:
        value = Game.laid_out(rules, rules.game.max_players).params[p.name]
        assert f"{v.title(p.name)} {value}" in page, p.name
    assert len(questions) + len(numbers) == len(doc.undecided)
    assert "see the rulebook" not in page and "詳しくはルールブック" not in page


def test_a_provisional_answer_is_what_the_text_says_is_done_meanwhile():
    assert sheet.provisional_answer("The original is silent. Here seat 1 starts. Then play on.", "en") == \
        "Here seat 1 starts. Then play on."
    assert sheet.provisional_answer("原案は書いていない。ここでは席1を親とする。", "ja") == "ここでは席1を親とする。"
    # no sentence says what is done here: the whole text, never nothing
    assert sheet.provisional_answer("Nobody knows where (somewhere) it goes.", "en") == "Nobody knows where (somewhere) it goes."
    assert sheet.provisional_answer("Where does it go? Nowhere: there is no such place.", "en") == \
        "Where does it go? Nowhere: there is no such place."


def test_the_fullest_sheets_stay_one_page_with_their_open_points():
    """Dream Duels (the most open points) and Populus (the longest Japanese sheet) still fit one
    page, with every open point counted in the heading."""
    import io
    import pypdf
    for game in ("dream-duels", "populus"):
        rules = rules_of(str(GAMES / f"{game}.rules"))
        for lang in ("en", "ja"):
            n = len(contents(rules, lang).undecided)
            assert n >= 16, (game, lang, n)
            pages = pypdf.PdfReader(io.BytesIO(book.make("sheet", "pdf", rules, lang))).pages
            assert len(pages) == 1, (game, lang)
            said = re.sub(r"\s+", "", pages[0].extract_text())
            assert (f"Notyetdecided({n})" if lang == "en" else f"未決の点({n}点)") in said, (game, lang)
