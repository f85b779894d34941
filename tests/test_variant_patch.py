"""`replace in step NAME` (phase, rule): a variant that changes one statement inside a step
without copying the step; the step keeps its titles, texts and every other statement."""
from __future__ import annotations

import json
import pytest
from click.testing import CliRunner

from dsl.analyses.simulate import game_rng, play_random
from dsl.cli import main
from dsl.engine import Game
from dsl.language import syntax as S
from dsl.language.diagnostics import RuleFileError
from dsl.loader import load
from dsl.variants import diff as diff_mod
from dsl.language.syntax import same as same_statement
from dsl.variants.overlay import blocks_of

from _util import GAMES, ROOT
from test_variants import variant, write

TOY = """\
game toy
  players 2 to 2

counter score per player = 0

rule bonus(p)
  add 1 to score(p)
  add 1 to score(p)

play
  repeat until max(score(p) for p in players) >= 6
    step first
      title en "Everyone scores"
      for each p in players
        add 1 to score(p)
        if score(p) > 2
          do bonus(p)
    step second
      pass
  end game by highest score(p) for p in players ties share
"""


def _step(rules, name):
    [b] = [b for b in blocks_of(rules.decls) if b.name == name]
    return b


def _errors(tmp_path, body):
    game = write(tmp_path, "toy.rules", TOY)
    with pytest.raises(RuleFileError) as e:
        load(game, [variant(tmp_path, "v", body)])
    return [(d.span.line, d.message, d.hint) for d in e.value.diagnostics if d.severity == "error"]


def test_one_statement_of_a_step_is_replaced_and_the_rest_stays(tmp_path):
    game = write(tmp_path, "toy.rules", TOY)
    v = variant(tmp_path, "v", """\
        replace in step first
          add  1 to score( p )
          with
            add 2 to score(p)
            add 1 to score(p)
        """)
    rules, _ = load(game, [v])
    base, _ = load(game)
    step, before = _step(rules, "first"), _step(base, "first")
    assert step.texts == before.texts and step.span == before.span
    [loop], [old_loop] = step.body, before.body
    added = loop.body[:2]
    assert [type(st).__name__ for st in loop.body] == ["Assign", "Assign", "If"]
    assert [st.value.value for st in added] == [2, 1] and all(st.span.file == v for st in added)
    assert same_statement(loop.body[2], old_loop.body[1])          # the `if` and the rule it calls, as they were
    # 3 a pass and then the bonus of 2: 5 after the first pass, 10 after the second
    s = Game(rules, 2).new_initial_state()
    assert s.is_terminal() and s.pvars[0] == [10, 10]


def test_a_statement_nested_deep_and_one_of_a_rule(tmp_path):
    game = write(tmp_path, "toy.rules", TOY)
    inner = variant(tmp_path, "inner", "replace in step first\n  do bonus(p)\n  with\n    pass\n")
    rules, _ = load(game, [inner])
    assert Game(rules, 2).new_initial_state().pvars[0] == [6, 6]
    # the rule's two lines are alike, so "this statement" names none of them alone
    twice = variant(tmp_path, "twice", "replace in rule bonus\n  add 1 to score(p)\n  with\n    pass\n")
    with pytest.raises(RuleFileError) as e:
        load(game, [twice])
    [err] = e.value.diagnostics
    assert err.message == "rule 'bonus' has 2 statements like this (lines 7, 8)" and "around" in err.hint
    once = variant(tmp_path, "once", "replace in rule bonus\n  if score(p) > 2\n    do bonus(p)\n  with\n    pass\n")
    with pytest.raises(RuleFileError) as e:
        load(game, [once])
    assert e.value.diagnostics[0].message == "rule 'bonus' has no statement like this"


def test_mistakes_are_named_in_the_variant_file(tmp_path):
    assert _errors(tmp_path, "replace in step frist\n  pass\n  with\n    pass\n") == [
        (4, "no step 'frist' to change", "did you mean 'first'?")]
    assert _errors(tmp_path, "replace in step second\n  add 1 to score(p)\n  with\n    pass\n") == [
        (4, "step 'second' has no statement like this",
         "write it as the game file has it (the same words; spacing does not matter)")]
    assert _errors(tmp_path, "replace in phase first\n  pass\n  with\n    pass\n") == [
        (4, "'first' is a step, not a phase", None)]
    assert _errors(tmp_path, "replace in rule bonu\n  pass\n  with\n    pass\n")[0][1:] == (
        "no rule 'bonu' to change", "did you mean 'bonus'?")
    [(line, message, _)] = _errors(tmp_path, "replace in step second\n  pass\n  pass\n  with\n    pass\n")
    assert line == 6 and message.startswith("unexpected")           # one statement, then `with`
    # what it puts there is checked in the game, pointing into the variant file
    [(line, message, hint)] = _errors(tmp_path, "replace in step second\n  pass\n  with\n    add 1 to scroe(1)\n")
    assert line == 7 and "scroe" in message and hint == "did you mean 'score'?"


def test_it_conflicts_with_another_variant_changing_the_same_step(tmp_path):
    game = write(tmp_path, "toy.rules", TOY)
    a = variant(tmp_path, "a", "replace step first\n  pass\n")
    b = variant(tmp_path, "b", "replace in step first\n  do bonus(p)\n  with\n    pass\n")
    with pytest.raises(RuleFileError) as e:
        load(game, [a, b])
    assert "both change step 'first'" in e.value.diagnostics[0].message
    on_top = variant(tmp_path, "c", "replace in step second\n  pass\n  with\n    pass\n", head="  builds on a")
    rules, _ = load(game, [on_top])
    assert [st for st in _step(rules, "first").body if not isinstance(st, S.Pass)] == []


def test_the_diff_shows_the_step_as_changed():
    rules, _ = load(str(ROOT / "variants" / "dream-duels-2025.rules"))
    base, _ = load(str(GAMES / "dream-duels.rules"))
    [change] = [c for c in diff_mod.diff(base, rules) if c.name == "present_movement"]
    before, after = change.a.text.splitlines(), change.b.text.splitlines()
    at = before.index("      move 2 from deck to hand(t)")
    assert after[:at] == before[:at] and after[at:at + 2] == ["      do refill(2)", "      move 2 from deck to hand(t)"]
    assert after[at + 2:] == before[at + 1:]
    out = CliRunner().invoke(main, ["diff", str(ROOT / "variants" / "dream-duels-2025.rules"), "--json"])
    assert out.exit_code == 0
    [row] = [c for c in json.loads(out.output)["changes"] if c["name"] == "present_movement"]
    assert "do refill(2)" in row["b"]["text"]


def test_the_2025_revision_keeps_the_option_titles_of_the_step_it_changes():
    rules, _ = load(str(ROOT / "variants" / "dream-duels-2025.rules"))
    step = _step(rules, "present_movement")
    [choice] = [st for st in step.body if isinstance(st, S.Choose)]
    titles = [t.text for o in choice.options for t in o.texts if t.kind == "title" and t.lang == "en"]
    assert titles == ["Present a card face down", "Draw two cards"]
    draw = [o for o in choice.options if o.name == "draw"][0]
    assert [type(st).__name__ for st in draw.body] == ["Do", "Move"] and draw.body[0].rule == "refill"
    game = Game(rules, 4)
    for i in range(20):
        assert play_random(game, game_rng(7, i), i).state.is_terminal()
