"""What once passed `check` and broke every game, or hid other mistakes: a die's face read
from all the dice, a word of the language used as a name, and name errors behind a syntax
error. Each is an error with file:line:col and a hint."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from dsl.cli import main
from dsl.engine import CHANCE, Game
from dsl.language.checker import RESERVED
from dsl.language.parser import _lark
from dsl.loader import load

RACE = """game race
  players 2 to 2

dice d6
  faces 1, 2, 3, 4, 5, 6
  count 1
  in tray

zone tray is supply, shared, seen by everyone
counter position per player = 0

play
  repeat until position(first(players)) >= 20
    for each p in players
      roll d6
      add d6.face to position(p)
  end game
"""


def run_check(tmp_path, text):
    path = tmp_path / "g.rules"
    path.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(main, ["check", str(path)])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output
    return r, path


def errors_in(output):
    return [line for line in output.splitlines() if ": error: " in line]


def test_a_face_read_from_all_the_dice_is_an_error_with_its_position_and_a_fix(tmp_path):
    r, path = run_check(tmp_path, RACE)
    assert r.exit_code == 1
    assert errors_in(r.output) == [f"{path}:16:11: error: '.face' is read from one piece, and this is "
                                   "dice 'd6': all its pieces together, not one of them"]
    assert "hint: read one piece, e.g. `first(d6).face`, or add them all up: `sum(d.face for d in d6)`" in r.output


@pytest.mark.parametrize("fix", ["first(d6).face", "sum(d.face for d in d6)"])
def test_each_fix_the_hint_offers_checks_and_plays_to_the_end(tmp_path, fix):
    r, path = run_check(tmp_path, RACE.replace("d6.face", fix))
    assert r.exit_code == 0, r.output
    rules, _ = load(str(path))
    state = Game(rules, 2).new_initial_state()
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.chance_outcomes() - 1, CHANCE)      # every die shows its last face
        else:
            seat = state.current_actors()[0]
            state.apply(state.legal_moves(seat)[0], seat)
    assert state.dead_end is None and state.outcome is not None


@pytest.mark.parametrize("attr, obj, kind", [("face", "tray", "a zone"), ("seat", "d6", "dice 'd6'"),
                                             ("owner", "position(first(players))", "a number")])
def test_other_values_read_from_what_never_has_them_are_errors(tmp_path, attr, obj, kind):
    text = RACE.replace("add d6.face to position(p)", f"add {obj}.{attr} to position(p)" if attr != "owner"
                        else f"if {obj}.owner = p\n        add 1 to position(p)")
    r, _ = run_check(tmp_path, text)
    found = errors_in(r.output)
    assert len(found) == 1 and f"'.{attr}' is read from" in found[0] and kind in found[0], r.output


def test_an_option_named_pass_is_an_error_at_the_name(tmp_path):
    text = ("game kw\n  players 2 to 2\n\ncounter total = 0\n\nplay\n  repeat until total >= 3\n"
            "    first(players) chooses one of\n      option pass\n        add 1 to total\n"
            "      option take\n        add 2 to total\n  end game\n")
    r, path = run_check(tmp_path, text)
    assert r.exit_code == 1
    assert errors_in(r.output) == [f"{path}:9:14: error: 'pass' is a word of the rule language and cannot be used as a name"]
    assert "hint: choose another name" in r.output


@pytest.mark.parametrize("declaration, column", [("counter until = 0", 9), ("value where = 1", 7),
                                                  ("rule go(then)\n  pass", 9)])
def test_words_of_the_language_cannot_name_counters_values_or_parameters(tmp_path, declaration, column):
    r, path = run_check(tmp_path, f"game g\n  players 2 to 2\n\n{declaration}\n\nplay\n  end game\n")
    found = errors_in(r.output)
    assert len(found) == 1 and found[0].startswith(f"{path}:4:{column}: error: '") and "word of the rule language" in found[0]


def test_every_reserved_word_is_a_keyword_of_the_grammar():
    keywords = {t.pattern.value for t in _lark().terminals if t.pattern.type == "str" and t.pattern.value.isalpha()}
    assert RESERVED <= keywords, sorted(RESERVED - keywords)


SEVERAL = """game syn
  players 2 to 2

counter total = 0

value bonus = total +* 2

rule score_it
  add bonus to totl
  set total to total ==  1

play
  do score_it
  add 1 to missing
  if totall > 3
    end game
  end game winners [frist(players)]
"""


def test_syntax_errors_no_longer_hide_the_name_errors_behind_them(tmp_path):
    r, path = run_check(tmp_path, SEVERAL)
    assert r.exit_code == 1
    assert [line.split(": error: ")[0].removeprefix(f"{path}:") for line in errors_in(r.output)] == \
        ["6:22", "9:16", "10:23", "14:12", "15:6", "17:21"]
    assert "unexpected '*'" in r.output and "unknown counter or variable 'totl'" in r.output
    assert "hint: did you mean 'total'?" in r.output and "unknown function 'frist'" in r.output
    assert "hint: did you mean 'first'?" in r.output
    # `bonus` was declared on the broken line: that it is unknown is the mending's doing, not a mistake
    assert "'bonus'" not in r.output
    assert r.output.rstrip().endswith("failed (6 errors, 0 warnings)")
