"""Every size the language accepts has a bound: `check` refuses what goes past one with a
positioned error, the engine refuses what a game computes past one, and nothing that passes
`check` raises a Python exception during play."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from _util import BLUFF, rules_text

from dsl.cli import main
from dsl.engine import Game
from dsl.language import limits
from dsl.language.diagnostics import Diagnostic
from dsl.language.syntax import Span
from dsl.loader import load

SOURCE = rules_text(BLUFF)


def run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output
    return r


def errors_of(tmp_path, text, *variants):
    path = tmp_path / "g.rules"
    path.write_text(text, encoding="utf-8")
    r = run("check", path, *[a for v in variants for a in ("-v", v)])
    assert r.exit_code == 1, r.output
    return r.output


def plays(tmp_path, text, players=2):
    path = tmp_path / "g.rules"
    path.write_text(text, encoding="utf-8")
    rules, _ = load(str(path))
    return Game(rules, players)


def _write(tmp_path, text):
    path = tmp_path / "g.rules"
    path.write_text(text, encoding="utf-8")
    return path


def line_of(output, message):
    return next(l for l in output.splitlines() if message in l)


IF_243 = "rule deep\n" + "".join("  " * (i + 1) + "if bid_face = 0\n" for i in range(243)) + "  " * 244 + "set bid_face to 1\n"
TOO_DEEP = {
    "not": "value vv = " + "not " * 487 + "true\n",
    "minus": "counter c = " + "-(" * 487 + "1" + ")" * 487 + "\n",
    "list": "value vv = " + "[" * 487 + "1" + "]" * 487 + "\n",
    "sum": "counter c = " + " + ".join(["1"] * 495) + "\n",
    "if": IF_243,
}


@pytest.mark.parametrize("name", sorted(TOO_DEEP))
def test_deep_nesting_is_an_error_with_a_position(tmp_path, name):
    out = errors_of(tmp_path, SOURCE + TOO_DEEP[name])
    assert f":{len(SOURCE.splitlines()) + 1}:" in line_of(out, "nested too deeply") or name == "if"
    assert "give the inner part a name" in out


def test_nesting_a_game_could_use_still_plays(tmp_path):
    text = SOURCE + "counter c = " + " + ".join(["1"] * 40) + "\nvalue vv = " + "not " * 30 + "true\n"
    assert plays(tmp_path, text).new_initial_state() is not None


def test_an_integer_of_5000_digits_is_an_error(tmp_path):
    out = errors_of(tmp_path, SOURCE + "counter big = " + "9" * 5000 + "\n")
    assert "(5,000 digits) is too large (at most 1,000,000)" in out


@pytest.mark.parametrize("old, new", [("number from 1 to dice_in_play\n", "number from 1 to 1000000000\n"),
                                      ("count start_dice per player", "count 100000000000")])
def test_huge_choice_ranges_and_piece_counts_are_refused_by_check(tmp_path, old, new):
    assert old in SOURCE
    out = errors_of(tmp_path, SOURCE.replace(old, new, 1))
    assert "is too large (at most 1,000,000)" in out


def test_pieces_computed_past_the_bound_are_refused_before_play(tmp_path):
    text = SOURCE.replace("parameter start_dice = 5", "parameter start_dice = 1000000")
    r = run("simulate", _write(tmp_path, text), "-p", "2", "-n", "1")
    assert r.exit_code == 1
    assert "g.rules:22:9:" in r.output and f"more than {limits.MAX_PIECES:,} pieces" in r.output


def test_a_decision_computed_past_the_bound_is_a_dead_end_not_a_memory_blowup(tmp_path):
    text = SOURCE.replace("number from 1 to dice_in_play\n", "number from 1 to dice_in_play * 100000\n", 1)
    s = plays(tmp_path, text).new_initial_state()
    while s.is_chance():
        s.apply(0)
    assert s.legal_moves() == []
    assert s.dead_end is not None and s.dead_end.kind == "too many options", s.dead_end
    assert f"at most {limits.MAX_OPTIONS:,}" in s.dead_end.message


def test_player_counts_are_bounded(tmp_path):
    text = SOURCE.replace("players 2 to 6", "players 2 to 1000") + "parameter k by players 2: 1\n"
    out = errors_of(tmp_path, text)
    assert "up to 1,000 players" in out and "at most 100" in out
    assert "no value for" not in out                # not 999 counts listed


def test_missing_player_counts_are_listed_as_runs(tmp_path):
    text = SOURCE.replace("players 2 to 6", "players 2 to 60") + "parameter k by players 2: 1, 7: 2\n"
    assert "has no value for 3 to 6, 8 to 60 players" in errors_of(tmp_path, text)


def test_a_file_and_a_text_past_their_bounds(tmp_path):
    long_title = SOURCE.replace('en "Bluff"', 'en "' + "x" * (limits.MAX_TEXT_CHARS + 1) + '"', 1)
    assert "this text is too long (10,001 characters; at most 10,000)" in errors_of(tmp_path, long_title)
    huge = SOURCE + "# " + "x" * limits.MAX_FILE_CHARS + "\n"
    assert "the file is too long" in errors_of(tmp_path, huge)


@pytest.mark.parametrize("start", ["min(1)", "count(1)", "first(3)", "sum(3)", "abs(players)"])
def test_starting_values_of_the_wrong_kind_are_check_errors(tmp_path, start):
    out = errors_of(tmp_path, SOURCE + f"counter c = {start}\n")
    assert f":{len(SOURCE.splitlines()) + 1}:" in out and "expected a" in out


@pytest.mark.parametrize("op", ["//", "%"])
def test_division_by_a_zero_literal_is_a_check_error(tmp_path, op):
    assert f"'{op}' by zero has no value" in errors_of(tmp_path, SOURCE + f"counter c = 1 {op} 0\n")


def test_a_starting_value_that_fails_anyway_is_refused_with_its_position_and_plain_words(tmp_path):
    r = run("simulate", _write(tmp_path, SOURCE + "counter c = 1 // (player_count - player_count)\n"), "-p", "2", "-n", "1")
    assert r.exit_code == 1
    assert f"g.rules:{len(SOURCE.splitlines()) + 1}:1:" in r.output
    assert "divided by zero" in r.output and "ZeroDivisionError" not in r.output


def test_a_value_defined_by_itself_is_a_check_error(tmp_path):
    out = errors_of(tmp_path, SOURCE + "value v = w + 1\nvalue w = v * 2\n")
    assert "value 'v' is worked out from itself: v -> w -> v" in out


def test_add_add_in_a_variant_is_an_error_not_a_traceback(tmp_path):
    variant = tmp_path / "v.rules"
    variant.write_text('variant x of bluff\n  title en "x"\n\nadd add question q\n  title en "q"\n', encoding="utf-8")
    r = run("check", BLUFF, "-v", variant)
    assert r.exit_code == 1
    assert "v.rules:4:1: error: 'add add': a patch cannot add another patch" in r.output


@pytest.mark.parametrize("seconds", ["nan", "inf"])
def test_fuzz_max_time_must_be_a_finite_number(seconds):
    r = run("fuzz", BLUFF, "-p", "2", "--max-time", seconds)
    assert r.exit_code == 2 and "is not a number of seconds" in r.output


def test_many_diagnostics_split_the_source_once():
    class Counted(str):
        splits = 0

        def splitlines(self, *a):
            Counted.splits += 1
            return super().splitlines(*a)
    source = Counted("x\n" * 1000)
    for i in range(500):
        Diagnostic("error", "p", Span(i + 1, 1, i + 1, 2), "m").format(source)
    assert Counted.splits == 1


def test_control_characters_in_rule_text_do_not_reach_the_terminal(tmp_path):
    out = errors_of(tmp_path, SOURCE + 'counter c = "\x1b[2J" + 1\n')
    assert "\x1b" not in out and "\\x1b[2J" in out


def test_a_renamed_card_column_is_a_check_error(tmp_path):
    text = SOURCE.replace("where d.face = bid_face", "where d.fase = bid_face")
    assert "no card or piece has a value called 'fase'" in errors_of(tmp_path, text)


def test_runtime_failures_read_in_plain_words():
    from dsl.engine.errors import plain_error
    for err in (ZeroDivisionError("x"), TypeError("x"), IndexError("x"), KeyError("rank"), AttributeError("x")):
        assert type(err).__name__ not in plain_error(err)


def test_comparing_a_zone_by_size_is_a_check_error_not_a_traceback(tmp_path):
    # found by make mutate: the message's helper was shadowed by a local named `a`
    text = SOURCE + "value vv = supply < 3\n"
    assert "cannot compare a zone with a number by size" in errors_of(tmp_path, text)
