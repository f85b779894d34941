"""A book in two layers from one source: Learn to Play (the game in plain sentences, in the order of
play), then the Rules Reference (the exact rules, each under its name)."""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from built import every, rules_of, text
from dsl.cli import main
from dsl.language import syntax as S
from dsl.printing.labels import label
from dsl.printing.prose import Voice

SEEDS = ("bluff", "democracy", "byzantine", "populus", "dream-duels")
# what Learn to Play must never print: arithmetic, a query over players, the code of a rule
FORMULA = re.compile(r"\bmod\b|[×−÷]|[^\s\d(〜~-]\s?[-+]\s?\d|\S\s[+\-]\s\S|\bthe number of every\b|\bevery player where\b|`")


def layers(page: str, lang: str) -> tuple[str, str]:
    """The text of Learn to Play and of the Rules Reference, the contents list left out."""
    learn, ref = label(lang, "learn"), label(lang, "reference")
    lines = page.split("\n")
    # the contents name both layers first; the layers themselves are their last occurrences
    i = len(lines) - 1 - lines[::-1].index(learn) if learn in lines else None
    j = len(lines) - 1 - lines[::-1].index(ref) if ref in lines else None
    assert i is not None and j is not None and i < j, "the book does not open with Learn to Play"
    return "\n".join(lines[i + 1:j]), "\n".join(lines[j + 1:])


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("lang", ("ja", "en"))
def test_the_seeds_books_and_sheets_open_with_learn_to_play(seed, lang):
    book = text(f"games/{seed}.rules", "book", lang)
    learn, ref = layers(book, lang)
    # before the reference: the goal and the end; after it, the exact setup and play
    assert label(lang, "setup") in ref and label(lang, "ending") in ref
    assert ("目的" if lang == "ja" else "The goal") in learn.split("\n")[:40]
    sheet = text(f"games/{seed}.rules", "sheet", lang).split("\n")
    first = next(i for i, ln in enumerate(sheet) if ln.startswith(label(lang, "learn")))
    assert first < sheet.index(label(lang, "turn"))


@pytest.mark.parametrize("path,kind,lang", every(("book",)))
def test_learn_to_play_prints_no_formula_and_says_each_rule_once(path, kind, lang):
    rules = rules_of(path)
    learn, ref = layers(text(path, kind, lang), lang)
    assert not FORMULA.search(learn), FORMULA.search(learn)
    from dsl.printing.prose import Voice
    v = Voice(rules, lang)
    for r in rules.of(S.Rule):
        said = [ln for ln in learn.split("\n") if ln.startswith(v.title(r.name) + ": ")]
        assert len(said) == 1, (r.name, said)
        # a rule without a plain line sends the reader to its entry, which the reference has
        if "参照" in said[0] or "Rules Reference" in said[0]:
            assert v.title(r.name) in ref.split("\n")


def test_check_warns_where_the_book_will_print_a_formula(tmp_path):
    out = CliRunner().invoke(main, ["check", "games/bluff.rules"]).output
    hit = [ln for ln in out.split("\n") if "Learn to Play" in ln]
    assert len(hit) == 1 and re.match(r"games/bluff\.rules:\d+:1: warning: .*'resolve_challenge'", hit[0]), hit
    assert "hint: give 'resolve_challenge' a line of designer text" in out
    # a line of designer text that is arithmetic is no plain reading either
    out = CliRunner().invoke(main, ["check", "games/dream-duels.rules"]).output
    assert any("Learn to Play" in ln and "'check_out'" in ln for ln in out.split("\n")), out
    # the rule that has a line of designer text is not named
    assert "rule 'lose'" not in out


@pytest.mark.parametrize("path,kind,lang", every(("book",)))
def test_each_word_of_the_game_is_defined_before_it_is_first_used(path, kind, lang):
    """The words Learn to Play lists (the game's places, values and the book's words for seats and
    turns) stand at or before their first use: the book's text from its title on, the contents left out."""
    from dsl.printing.glossary import glossary
    rules = rules_of(path)
    v = Voice(rules, lang)
    shown = text(path, kind, lang)
    learn, _ = layers(shown, lang)
    body = shown[shown.rindex("\n" + label(lang, "learn") + "\n"):]
    words = [g[1] for g in glossary(rules, v)] + [v.title(d.name) for d in rules.of(S.Zone) + rules.of(S.Counter)
                                                   + rules.of(S.Define) + rules.of(S.Symbol) if _plain(d, lang)]
    for w in dict.fromkeys(words):
        if w not in learn or (lang == "en" and " " not in w and w not in DESIGNERS_WORDS["en"]):
            continue        # a one-word English term ("number") is also an everyday word: not told apart here
        used = re.search(re.escape(w) if lang == "ja" else r"\b" + re.escape(w) + r"\b", body)
        defined = body.find("\n" + w + ": ")
        assert defined != -1 and defined <= used.start() - 1, (w, "used before it is defined")


def _plain(d, lang):
    from dsl.printing.learn import _said
    return bool(_said(d.texts, lang))


def test_the_actions_are_listed_in_the_order_play_meets_them(tmp_path):
    """Declared last, met first: Learn to Play lists a rule where a player first carries it out, a
    rule it calls right after it, and one play never reaches last."""
    f = tmp_path / "g.rules"
    f.write_text('game g\n  players 2 to 2\n\ncounter n = 0\n\n'
                 'rule score\n  title en "Score"\n  text en "Add one."\n  add 1 to n\n\n'
                 'rule unused\n  title en "Spare"\n  text en "Nothing."\n  pass\n\n'
                 'rule draw\n  title en "Draw"\n  text en "Draw then score."\n  do score\n\n'
                 'rule open\n  title en "Open"\n  text en "Open the game."\n  pass\n\n'
                 'setup\n  do open\n\nplay\n  repeat 2 times\n    do draw\n  end game winners players\n',
                 encoding="utf-8")
    from dsl.loader import load
    from dsl.printing.rulebook import contents
    rules, _ = load(str(f))
    acts = next(e for e in contents(rules, "en").sections[0].entries if e.name == "learn-actions")
    assert [t.split(":")[0] for _, t in acts.notes] == ["Open", "Draw", "Score", "Spare"]
    # Populus: a Blessing places workers, so "Place a worker" follows it, not the order of the file
    rules = rules_of("games/populus.rules")
    acts = next(e for e in contents(rules, "en").sections[0].entries if e.name == "learn-actions")
    v = Voice(rules, "en")
    at = {name: next(i for i, (_, t) in enumerate(acts.notes) if t.startswith(v.title(name) + ": "))
          for name in ("blessing", "place_worker")}
    assert at["blessing"] + 1 == at["place_worker"]


# The seeds' own words, each defined in its designer text; the books once used them undefined
DESIGNERS_WORDS = {"ja": {"byzantine": ["ガバナー", "プロポーザル", "親", "ステーキング"], "populus": ["恩寵置き場", "創世記"]},
                   "en": {"byzantine": ["governor", "proposal", "parent", "staking"], "populus": ["grace area"]}}
DESIGNERS_WORDS["en"].update({w: None for ws in list(DESIGNERS_WORDS["en"].values()) for w in ws})


@pytest.mark.parametrize("lang", ("ja", "en"))
@pytest.mark.parametrize("seed", ("byzantine", "populus"))
def test_the_designers_own_words_are_defined_where_first_used(seed, lang):
    shown = text(f"games/{seed}.rules", "book", lang)
    body = shown[shown.rindex("\n" + label(lang, "learn") + "\n"):]
    for w in DESIGNERS_WORDS[lang][seed]:
        defined = body.find("\n" + w + ": ")
        first = re.search(re.escape(w) if lang == "ja" else r"\b" + re.escape(w) + r"\b", body, re.I)
        assert defined != -1 and first is not None and first.start() >= defined + 1, (w, "used before it is defined")



def test_a_rule_a_variant_replaces_without_a_sentence_is_warned_at_the_variant_file(tmp_path):
    variant = tmp_path / "v.rules"
    variant.write_text("""variant v of bluff
  title ja "半分" en "Half"

replace rule lose(loser, n)
  title ja "さいころを失う" en "Lose dice"
  move up to n from cup(loser) to lost
""", encoding="utf-8")
    about = "no plain sentence for rule 'lose'"
    assert about not in CliRunner().invoke(main, ["check", "games/bluff.rules"]).output
    out = CliRunner().invoke(main, ["check", "games/bluff.rules", "--variant", str(variant)]).output
    warned = [line for line in out.splitlines() if about in line]
    assert len(warned) == 1 and warned[0].startswith(f"{variant}:4:"), out


@pytest.mark.parametrize("lang, exact, ranged", [("en", "2 players", "2 to 2 players"), ("ja", "2人", "2〜2人")])
def test_a_game_for_one_number_of_players_says_that_number_once(lang, exact, ranged):
    for kind in ("book", "sheet"):
        page = text("games/tictactoe.rules", kind, lang)
        assert exact in page and ranged not in page
