"""A team game's setup starts by forming teams as the engine forms them (by seat), and a question
about how teams are formed is printed there, answered for now by that formation."""
from __future__ import annotations

import pytest

from dsl.engine.game import compiled
from dsl.language.diagnostics import RuleFileError
from dsl.loader import checked
from dsl.printing import book

from _util import GAMES, parsed, rules_of
from printed import as_text

TEAMS = """game g
  players 3 to 6
  teams of {size}
zone pool is supply, shared, seen by everyone
  title ja "場" en "pool"
question who_pairs about teams
  title ja "組み方" en "Who plays with whom?"
  text ja "原案は組み方を書いていない。ここでは席順。" en "The original does not say. Here by seat."
setup
  step shuffle_up
    title ja "混ぜる" en "Shuffle"
    pass
play
  end game
"""


def _rules(size: int):
    return parsed(TEAMS.format(size=size))


def test_setup_forms_teams_by_seat_first_as_the_engine_does():
    rules = _rules(3)
    en, ja = as_text(book.render("book", "html", rules, "en")), as_text(book.render("book", "html", rules, "ja"))
    assert "1 Form teams" in en and "2 Shuffle" in en
    assert "Players form teams of 3 in seat order (seats 1, 2, 3 are team 1, seats 4, 5, 6 team 2, …)." in en
    assert "席順に3人ずつが1チームになる(席1・席2・席3がチーム1、席4・席5・席6がチーム2、…)。" in ja
    # what the book says is what the engine does: with 5 players, seats 4 and 5 are the last team
    g = compiled(rules, 5)
    assert [[int(p) + 1 for p in m] for m in g.team_members] == [[1, 2, 3], [4, 5]]


def test_a_question_about_teams_stands_at_that_step_with_the_formation_as_its_answer():
    rules = _rules(2)
    ja = as_text(book.render("book", "html", rules, "ja"))
    step = ja.index("1 チームを組む")
    assert ja.index("未決の問題「組み方」") > step
    assert "仮の扱いはない" not in ja           # the seat formation is the answer for now
    assert "準備 › 1 チームを組む" in ja         # the index of open questions says where


def test_a_game_without_teams_has_no_such_step_and_no_question_about_teams():
    rules = parsed(TEAMS.format(size=2).replace("  teams of 2\n", ""))
    assert "Form teams" not in as_text(book.render("book", "html", rules, "en"))
    with pytest.raises(RuleFileError) as err:
        checked(rules, [])
    assert "question 'who_pairs' is about 'teams', which is not a rule, step or named cases" in str(err.value)


def test_dream_duels_says_how_pairs_form_in_its_setup():
    en = as_text(book.render("book", "html", rules_of(str(GAMES / "dream-duels.rules")), "en"))
    # in the setup as the Rules Reference gives it: forming teams, its question, then the first round
    setup = en.index("Form teams")
    assert setup < en.index("Who pairs with whom?", setup) < en.index("Round 0", setup)
