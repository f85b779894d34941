"""`check`: mistakes reported like a compiler, and clear messages for unusable files."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from _util import BLUFF, GAMES, ROOT, line_of, rules_text

from dsl.cli import main
from dsl.language.diagnostics import RuleFileError
from dsl.loader import load

SOURCE = rules_text(BLUFF)

# three separate mistakes, each made by changing one piece of the real file
MISTAKES = [
    # (original text, broken text, the misspelt or wrong name, near miss or None)
    ("move start_dice from supply to cup(p)", "move start_dice from suply to cup(p)", "suply", "supply"),
    ("set bid_count to number", "set bid_cuont to number", "bid_cuont", "bid_count"),
    ("set speaker to next_player(starter)", "set speaker to next_player(starter, 2)", "next_player", None),
]


def broken_text():
    text = SOURCE
    for old, new, _, _ in MISTAKES:
        assert old in text, f"bluff.rules no longer contains {old!r}; update this test"
        text = text.replace(old, new, 1)
    return text


def expected_positions(text):
    out = []
    for _, new, word, near in MISTAKES:
        line = line_of(text, new)
        col = text.splitlines()[line - 1].index(word) + 1
        out.append((line, col, word, near))
    return out


@pytest.fixture
def broken(tmp_path):
    path = tmp_path / "broken.rules"
    path.write_text(broken_text(), encoding="utf-8")
    return path


def test_three_mistakes_are_all_reported_with_lines_and_hints(broken):
    text = broken_text()
    with pytest.raises(RuleFileError) as info:
        load(str(broken))
    errors = [d for d in info.value.diagnostics if d.severity == "error"]
    assert len(errors) == 3, [(d.span.line, d.message) for d in errors]
    by_line = {d.span.line: d for d in errors}
    for line, col, word, near in expected_positions(text):
        assert line in by_line, f"no error on line {line} ({word})"
        d = by_line[line]
        assert word in d.message
        assert d.span.column == col
        if near is not None:
            assert d.hint is not None and "did you mean" in d.hint and near in d.hint
    # the arity error says how many arguments are wanted and how many were given
    arity = by_line[expected_positions(text)[2][0]]
    assert "1" in arity.message and "2" in arity.message


def test_unknown_counter_without_a_near_miss_suggests_declaring_it(tmp_path):
    text = SOURCE.replace("set bid_count to number", "set zzz_rounds to number", 1)
    p = tmp_path / "x.rules"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(RuleFileError) as info:
        load(str(p))
    (err,) = [d for d in info.value.diagnostics if d.severity == "error"]
    assert "zzz_rounds" in err.message
    assert err.span.line == line_of(text, "set zzz_rounds to number")
    assert err.hint is None or "did you mean" not in err.hint


def test_wrong_number_of_arguments_to_a_rule(tmp_path):
    text = SOURCE.replace("do resolve_challenge", "do resolve_challenge(bidder)", 1)
    p = tmp_path / "x.rules"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(RuleFileError) as info:
        load(str(p))
    (err,) = [d for d in info.value.diagnostics if d.severity == "error"]
    assert err.span.line == line_of(text, "do resolve_challenge(bidder)")
    assert "resolve_challenge" in err.message


def test_cli_check_prints_compiler_style_errors_with_a_caret(broken):
    text = broken_text()
    r = CliRunner().invoke(main, ["check", str(broken)])
    assert r.exit_code == 1
    assert "Traceback" not in r.output
    out = r.output.splitlines()
    heads = [(i, m) for i, l in enumerate(out) if (m := re.match(re.escape(str(broken)) + r":(\d+):(\d+): error: (.*)", l))]
    assert len(heads) == 3
    got = {(int(m.group(1)), int(m.group(2))) for _, m in heads}
    want = {(line, col) for line, col, _, _ in expected_positions(text)}
    assert got == want
    words = {line: word for line, _, word, _ in expected_positions(text)}
    for i, m in heads:
        line = int(m.group(1))
        src, caret = out[i + 1], out[i + 2]
        assert src.strip() == text.splitlines()[line - 1].strip()
        assert re.fullmatch(r"\s*\^~*", caret), caret
        # the caret sits under the offending name
        assert src[caret.index("^"):].startswith(words[line]), (src, caret)
    assert "did you mean 'supply'?" in r.output
    assert "did you mean 'bid_count'?" in r.output
    assert re.search(r"3 errors", r.output)


def test_cli_check_json(broken):
    r = CliRunner().invoke(main, ["check", "--json", str(broken)])
    assert r.exit_code == 1
    report = json.loads(r.stdout)
    assert report[0]["errors"] == 3
    lines = sorted(d["line"] for d in report[0]["diagnostics"] if d["severity"] == "error")
    assert lines == sorted(line for line, _, _, _ in expected_positions(broken_text()))


@pytest.mark.parametrize("path", sorted(GAMES.glob("*.rules")), ids=lambda p: p.name)
def test_cli_check_passes_on_every_game(path):
    r = CliRunner().invoke(main, ["check", str(path)])
    assert r.exit_code == 0, r.output
    assert ": error:" not in r.output
    assert "ok" in r.output


def test_check_several_files_fails_if_any_fails(broken):
    r = CliRunner().invoke(main, ["check", str(BLUFF), str(broken)])
    assert r.exit_code == 1


def test_open_questions_of_bluff_are_warnings():
    questions = re.findall(r"^question (\w+)", SOURCE, re.M)
    assert {"first_player", "next_starter", "exact_count"} <= set(questions)
    rules, warnings = load(str(BLUFF))
    for q in questions:
        ws = [w for w in warnings if w.severity == "warning" and q in w.message]
        assert ws, f"open question {q} is not reported"
        assert ws[0].span.line == line_of(SOURCE, f"question {q}")
    r = CliRunner().invoke(main, ["check", str(BLUFF)])
    assert r.exit_code == 0
    for q in questions:
        assert re.search(re.escape(str(BLUFF)) + r":\d+:\d+: warning: .*" + q, r.output), q


# ----------------------------------------------------------------- files that are not rule files

def _bad_files(tmp_path):
    empty = tmp_path / "empty.rules"
    empty.write_text("", encoding="utf-8")
    blank = tmp_path / "blank.rules"
    blank.write_text("\n   \n\t\n", encoding="utf-8")
    binary = tmp_path / "binary.rules"
    binary.write_bytes(bytes(range(256)) * 4)
    latin = tmp_path / "latin1.rules"
    latin.write_bytes(SOURCE.replace("ブラフ", "Bluff").encode("utf-8") + "# caf\xe9\n".encode("latin-1"))
    folder = tmp_path / "folder.rules"
    folder.mkdir()
    return {
        "missing": (tmp_path / "nope.rules", r"no such file"),
        "empty": (empty, r"empty"),
        "blank": (blank, r"empty"),
        "binary": (binary, r"binary"),
        "non-utf8": (latin, r"UTF-8"),
        "folder": (folder, r"folder"),
    }


@pytest.mark.parametrize("kind", ["missing", "empty", "blank", "binary", "non-utf8", "folder"])
def test_unusable_files_give_a_clear_message(tmp_path, kind):
    path, pattern = _bad_files(tmp_path)[kind]
    with pytest.raises(RuleFileError) as info:
        load(str(path))
    (d,) = info.value.diagnostics
    assert d.severity == "error" and d.span.line >= 1 and d.span.column >= 1
    assert re.search(pattern, d.message, re.I)
    for command in (["check", str(path)], ["simulate", str(path), "--players", "2", "-n", "1"]):
        r = CliRunner().invoke(main, command)
        assert r.exit_code == 1, (command, r.output)
        assert r.exception is None or isinstance(r.exception, SystemExit)
        assert "Traceback" not in r.output
        assert re.search(pattern, r.output, re.I)
        assert str(path) in r.output


def test_unusable_files_in_a_real_process(tmp_path):
    """The installed entry point, a real interpreter: nothing but a message on stderr."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for kind, (path, pattern) in _bad_files(tmp_path).items():
        p = subprocess.run([sys.executable, "-m", "dsl.cli", "check", str(path)], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 1, kind
        assert "Traceback" not in p.stderr + p.stdout, kind
        assert re.search(pattern, p.stderr, re.I), (kind, p.stderr)


def test_simulate_with_too_many_players_names_the_range():
    r = CliRunner().invoke(main, ["simulate", str(BLUFF), "--players", "9", "-n", "5"])
    assert r.exit_code == 2
    assert "Traceback" not in r.output
    assert re.search(r"\b2\b\D{1,6}\b6\b", r.output), r.output      # "2 to 6" / "2..6"
    assert "9" in r.output


def test_simulate_with_a_broken_file_exits_1(broken):
    r = CliRunner().invoke(main, ["simulate", str(broken), "--players", "3", "-n", "5"])
    assert r.exit_code == 1
    assert "did you mean 'supply'?" in r.output
    assert "Traceback" not in r.output


def test_three_syntax_errors_in_one_block_give_three_diagnostics():
    from dsl.language.parser import parse_text
    text = ("game g\n  players 2 to 2\ncounter c = 0\nplay\n  step one\n    set c to 1 +\n    add 1 to c\n"
            "    set c to 2 2\n  step two\n    add 2 to = c\n  end game\n")
    tree, diags = parse_text(text, "three.rules")
    assert tree is None
    assert [(d.span.line, d.span.column) for d in diags] == [(6, 17), (8, 16), (10, 14)]


def test_a_mistake_in_a_declarations_own_line_still_blanks_only_that_declaration():
    from dsl.language.parser import parse_text
    text = ("game g\n  players 2 to 2\nparameter p = 1\n  title ja \"x\" en\ncounter c = 0 +\nplay\n  end game\n")
    tree, diags = parse_text(text, "decl.rules")
    assert [d.span.line for d in diags] == [4, 5]


@pytest.mark.parametrize("line, hint", [
    ("  set c to 1 == 1\n", "`=` compares"),
    ("  set c to 3[1]\n", "e.g. `hand(p)[3]`"),
    ("  repeat forever\n    pass\n", "repeat until CONDITION"),
    ("  if c = 1 or\n     c = 2\n    pass\n", "a statement is one line"),
    ("  set c to seat(seat_of(1))\n", "the player in seat 1 is `player(1)`"),
])
def test_a_newcomers_mistake_gets_the_hint_it_needs(line, hint):
    from dsl.language.checker import check
    from dsl.language.parser import parse_text
    text = "game g\n  players 2 to 2\ncounter c = 0\nplay\n" + line + "  end game\n"
    tree, diags = parse_text(text, "m.rules")
    if tree is not None:
        diags = check(tree)
    assert any(d.hint and hint in d.hint for d in diags), [(d.message, d.hint) for d in diags]


def test_a_number_compared_with_a_player_is_an_error_where_it_stands():
    """`when matching > bidder` checked clean once, and simulate blamed an innocent rule."""
    from dsl.language.checker import check
    from dsl.language.parser import parse_text
    text = (ROOT / "games" / "bluff.rules").read_text(encoding="utf-8").replace(
        "    when matching > bid_count\n", "    when matching > bidder\n")
    tree, _ = parse_text(text, "bluff.rules")
    [err] = [d for d in check(tree) if d.severity == "error"]
    assert err.message == "cannot compare a number with a player"
    assert text.splitlines()[err.span.line - 1].strip() == "when matching > bidder"


def test_comparing_a_zone_by_size_is_an_error_not_a_crash():
    from dsl.language.checker import check
    from dsl.language.parser import parse_text
    text = "game g\n  players 2 to 2\nzone z is pile, shared, seen by everyone\nplay\n  if z > 1\n    pass\n  end game\n"
    tree, _ = parse_text(text, "z.rules")
    assert [d.message for d in check(tree) if d.severity == "error"] == ["cannot compare a zone with a number by size"]


def test_pairs_compare_item_by_item_from_the_first():
    from dsl.engine import Game
    from dsl.loader import load
    rules, _ = load(str(ROOT / "tests" / "fixtures" / "pair_bid.rules"))
    game = Game(rules, 2)
    s = game.new_initial_state()
    _, moves = game.decision(s)
    assert len(moves) == 6 * 4                      # above [0, 0]: every bid
    six_ones = next(m for m in moves if list(m)[1:] == [6, 1])      # face 6, count 1
    game.apply(s, six_ones, 0)
    _, moves = game.decision(s)
    assert len(moves) == 6 * 3                      # above [1, 6]: a count of 2 or more, any face


def test_pairs_of_different_lengths_are_an_error():
    from dsl.language.checker import check
    from dsl.language.parser import parse_text
    text = "game g\n  players 2 to 2\ncounter c = 0\nplay\n  if [c, 1] > [2]\n    pass\n  end game\n"
    tree, _ = parse_text(text, "p.rules")
    assert [d.message for d in check(tree) if d.severity == "error"] == ["cannot compare 2 values with 1"]
