"""Long chains of rules and values: `check` never overflows the stack on them, refuses with a
position and the bound what the engine could not compile, and what it passes compiles and
plays, at the bound, from a caller already deep in the stack."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from dsl.cli import main
from dsl.engine import Game
from dsl.language import limits
from dsl.language.checker import check
from dsl.language.parser import parse_text

SMALL = "game g\n  players 2 to 2\n\ncounter total = 0\n\nplay\n  {play}\n  end game\n\n"
HEAD_LINES = len(SMALL.format(play="").splitlines())


def rule_chain(n, do="  add 1 to total\n  do r{next}\n"):
    """play does r0, r0 does r1, ..., r(n-1) does rn."""
    return SMALL.format(play="do r0") + "".join(f"rule r{i}\n" + do.format(next=i + 1) + "\n" for i in range(n)) \
        + f"rule r{n}\n  add 1 to total\n"


def value_chain(n, link="v{last} + 1"):
    """play sets total to vn; v0 reads total, each next one the last."""
    return SMALL.format(play=f"set total to v{n}") + "value v0 = total + 1\n" \
        + "".join(f"value v{i} = " + link.format(last=i - 1) + "\n" for i in range(1, n + 1))


SHAPES = {
    "rules": rule_chain,
    "values": value_chain,
    "values with parameters": lambda n: SMALL.format(play=f"set total to f{n}(total)") + "value f0(x) = x + 1\n"
    + "".join(f"value f{i}(x) = f{i - 1}(x) + 1\n" for i in range(1, n + 1)),
    "do inside ifs": lambda n: rule_chain(n, "  if total >= 0\n    if total < 1000000\n      do r{next}\n"),
    "do inside choices": lambda n: rule_chain(n, "  first(players) chooses one of\n    option a{next}\n      do r{next}\n"),
    "values read in comprehensions": lambda n: value_chain(n, "count(p in players where v{last} > seat(p)) + 1"),
    "values in if-then-else": lambda n: value_chain(n, "if v{last} > 0 then v{last} else 0"),
}


def errors(text):
    rules, diagnostics = parse_text(text, "g.rules")
    if rules is not None:
        diagnostics = check(rules)
    return [d for d in diagnostics if d.severity == "error"]


def longest_that_checks(make) -> int:
    n = limits.MAX_CHAIN_DEPTH
    while errors(make(n)):
        n -= 1
    return n


def at_depth(frames, f):
    """f called from `frames` frames down, as from a deep caller."""
    return f() if frames == 0 else at_depth(frames - 1, f)


def played(text) -> int:
    rules, _ = parse_text(text, "g.rules")
    state = Game(rules, 2).new_initial_state()
    while not state.is_terminal():
        seat = state.current_actors()[0]
        state.apply(state.legal_moves(seat)[0], seat)
    return state.vars[0]


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_the_longest_chain_that_checks_compiles_and_plays_and_one_more_link_is_refused(shape):
    make = SHAPES[shape]
    n = longest_that_checks(make)
    assert n >= limits.MAX_CHAIN_DEPTH // 5 - 2      # each link here is at most five levels deep
    assert at_depth(300, lambda: played(make(n))) >= 1
    refused = errors(make(n + 1))
    assert len(refused) == 1 and f"(at most {limits.MAX_CHAIN_DEPTH} levels)" in refused[0].message
    assert refused[0].span.line >= 1 and "levels deep" in refused[0].message


def test_a_chain_of_1000_rules_is_one_positioned_error_not_a_crash(tmp_path):
    path = tmp_path / "g.rules"
    path.write_text(rule_chain(1000), encoding="utf-8")
    r = CliRunner().invoke(main, ["check", str(path)])
    assert r.exit_code == 1 and r.exception is None or isinstance(r.exception, SystemExit), r.output
    assert "Traceback" not in r.output and "RecursionError" not in r.output
    found = [line for line in r.output.splitlines() if ": error: " in line]
    # the chain crosses the bound once: r1000 is two levels deep (a statement and its number),
    # each rule before it one more
    first = 1000 - limits.MAX_CHAIN_DEPTH + 1
    assert len(found) == 1 and f"rule 'r{first}' is nested {limits.MAX_CHAIN_DEPTH + 1} levels deep" in found[0]
    assert found[0].startswith(f"{path}:{HEAD_LINES + 1 + 4 * first + 2}:3: error:")


@pytest.mark.parametrize("n, links", [(150, "values"), (500, "rules")])
def test_chains_that_did_not_compile_are_refused_by_check(n, links):
    found = errors(SHAPES[links](n))
    assert len(found) == 1 and "levels deep" in found[0].message and found[0].span.line > HEAD_LINES


def test_rules_that_double_at_each_link_are_refused_before_they_multiply():
    text = rule_chain(18, "  do r{next}\n  do r{next}\n")
    found = errors(text)
    assert len(found) == 1 and f"more than {limits.MAX_WRITTEN_OUT:,} parts long" in found[0].message
    # r(k) is 2**(18-k) copies of r18 (two parts each) plus its own three parts a copy
    assert "rule 'r7'" in found[0].message and found[0].span.line == HEAD_LINES + 1 + 4 * 7


def test_a_value_chain_written_backwards_is_checked_without_recursion():
    n = 3000
    text = SMALL.format(play="set total to v0") + "".join(f"value v{i} = v{i + 1} + 1\n" for i in range(n)) \
        + f"value v{n} = total\n"
    found = errors(text)
    assert len(found) == 1 and "levels deep" in found[0].message


def test_a_round_of_2000_rules_is_one_error_at_the_do_that_closes_it():
    n = 2000
    text = SMALL.format(play="do r0") + "".join(f"rule r{i}\n  do r{(i + 1) % n}\n\n" for i in range(n))
    found = [d for d in errors(text) if "runs itself" in d.message]
    assert len(found) == 1 and found[0].message.startswith("rule 'r0' runs itself: r0 -> r1 -> r2")
    assert found[0].span.line == HEAD_LINES + 1 + 3 * (n - 1) + 1


def test_a_loop_over_players_doing_a_chain_of_2000_rules_is_checked():
    n = 2000
    play = "for each p in players\n    p chooses one of\n      option go\n        do r0"
    text = SMALL.format(play=play) + "".join(f"rule r{i}\n  do r{i + 1}\n\n" for i in range(n)) + f"rule r{n}\n  add 1 to total\n" \
        + "trigger done when total > 5\n  end game\n"
    found = errors(text)
    assert len(found) == 1 and "levels deep" in found[0].message
    assert any("can end part-way" in d.message for d in check(parse_text(text, "g.rules")[0]))
