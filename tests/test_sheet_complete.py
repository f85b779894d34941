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
from dsl.printing import book
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
    assert "さいころ: 1人あたり5" in ja and "ワイルド 6" in ja and "6の目はワイルド" in ja
    assert "ブラフの判定" in ja and "宣言より少なかった" in ja and "宣言より多かった" in ja


def test_the_games_have_settling_rules_to_check():
    assert sum(len(settling_rules(rules_of(str(GAMES / f"{g}.rules")))) for g in SEEDS) == 5
