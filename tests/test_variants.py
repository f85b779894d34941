"""Variant overlays: applying, stacking, conflicts, missing names, and `playtest diff`."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings, strategies as st
from click.testing import CliRunner

from dsl.variants import diff as diff_mod
from dsl.analyses import stats
from dsl.cli import main
from dsl.language.diagnostics import RuleFileError
from dsl.engine import Game
from dsl.loader import load
from dsl.analyses.simulate import simulate
from dsl.language.syntax import Parameter

from _util import BLUFF, DEMOCRACY, ROOT

VARIANTS = ROOT / "variants"
EXACT_FIXES = ["bluff-exact-challenger-loses", "bluff-exact-nobody-loses", "bluff-exact-published", "bluff-exact-just-call"]

TOY = """\
game toy
  players 2 to 2

parameter goal = 3

counter score per player = 0

deck card
  in pile
  cards for each colour in [red, blue]
    | number | points |
    | 1      | 1      |
    | 2      | 2      |

zone pile is deck, shared, seen by nobody

play
  repeat until max(score(p) for p in players) >= goal
    step first
      for each p in players
        add 1 to score(p)
    step second
      pass
  step finish
    end game by highest score(p) for p in players ties share
"""


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return str(path)


def variant(tmp_path, name, body, head=""):
    return write(tmp_path, f"{name}.rules", f"variant {name} of toy\n  title en \"{name}\"\n{head}\n" + textwrap.dedent(body))


def steps_of(rules):
    from dsl.variants.overlay import blocks_of
    return [b.name for b in blocks_of(rules.decls)]


def errors_of(excinfo):
    return [d for d in excinfo.value.diagnostics if d.severity == "error"]


# ---------------------------------------------------------------- applying

def test_replace_add_remove_and_steps(tmp_path):
    game = write(tmp_path, "toy.rules", TOY)
    v = variant(tmp_path, "v", """\
        replace parameter goal = 5

        add counter bonus = 0

        add step middle after first
          add 1 to bonus

        add step opening before first
          pass

        remove step second
        """)
    rules, _ = load(game, [v])
    assert [d.value.value for d in rules.of(Parameter)] == [5]
    assert steps_of(rules) == ["opening", "first", "middle", "finish"]
    # the engine runs the patched game: five rounds now, and the new step counts them
    g = Game(rules, 2)
    s = g.new_initial_state()
    assert s.outcome is not None
    assert s.vars[g.var_slots["bonus"]] == 5


def test_change_cards_sets_and_clears_attributes(tmp_path):
    game = write(tmp_path, "toy.rules", TOY)
    v = variant(tmp_path, "v", """\
        change cards of card where colour = blue and number = 2 set points = 7, count = 2
        change cards of card where number = 1 set points = -
        """)
    rules, _ = load(game, [v])
    cards = {c.name: (dict(c.attrs), c.count.value if c.count else 1) for c in rules.of(type(rules.decls[3]))[0].cards}
    assert cards["2-2-blue"] == ({"number": 2, "points": 7, "colour": "blue"}, 2)
    assert cards["1-1-red"][0] == {"number": 1, "colour": "red"}
    assert cards["2-2-red"][0]["points"] == 2


def test_missing_names_get_a_did_you_mean(tmp_path):
    game = write(tmp_path, "toy.rules", TOY)
    v = variant(tmp_path, "v", """\
        replace parameter gaol = 5

        remove step secnd

        replace rule goal
          pass

        change cards of card where colour = green set points = 1
        """)
    with pytest.raises(RuleFileError) as e:
        load(game, [v])
    messages = [(d.path, d.span.line, d.message, d.hint) for d in errors_of(e)]
    assert messages[0] == (v, 4, "no parameter 'gaol' to replace", "did you mean 'goal'?")
    assert messages[1][1:3] == (6, "no step or phase 'secnd' to remove") and "'second'" in messages[1][3]
    assert messages[2][2] == "no rule 'goal' to replace" and messages[2][3] == "'goal' is a parameter, not a rule"
    assert messages[3][2] == "no card of 'card' has colour = green"


def test_add_of_an_existing_name_is_an_error(tmp_path):
    game = write(tmp_path, "toy.rules", TOY)
    v = variant(tmp_path, "v", "add parameter goal = 4\n")
    with pytest.raises(RuleFileError) as e:
        load(game, [v])
    assert errors_of(e)[0].message == "the game already has a parameter 'goal'"
    assert "replace parameter goal" in errors_of(e)[0].hint


def test_errors_inside_a_patch_point_into_the_variant_file(tmp_path):
    game = write(tmp_path, "toy.rules", TOY)
    v = variant(tmp_path, "v", """\
        replace step second
          add 1 to scroe(1)
        """)
    with pytest.raises(RuleFileError) as e:
        load(game, [v])
    d = errors_of(e)[0]
    assert d.path == v and d.span.line == 5
    assert "scroe" in d.message and d.hint == "did you mean 'score'?"
    assert "add 1 to scroe(1)" in d.format(e.value.source_for(d.path))


def test_a_variant_for_another_game_and_patches_in_a_game_are_refused(tmp_path):
    game = write(tmp_path, "toy.rules", TOY)
    other = write(tmp_path, "other.rules", "variant other of chess\n  title en \"x\"\n\nremove step second\n")
    with pytest.raises(RuleFileError) as e:
        load(game, [other])
    assert "is for the game 'chess', not 'toy'" in errors_of(e)[0].message
    stray = write(tmp_path, "stray.rules", TOY + "\nremove step second\n")
    with pytest.raises(RuleFileError) as e:
        load(stray)
    assert "belongs in a variant file" in errors_of(e)[0].message


# ---------------------------------------------------------------- stacking

def test_two_variants_patching_the_same_rule_conflict_naming_both_files(tmp_path):
    game = write(tmp_path, "toy.rules", TOY)
    a = variant(tmp_path, "a", "replace step second\n  pass\n")
    b = variant(tmp_path, "b", "replace step second\n  pass\n")
    with pytest.raises(RuleFileError) as e:
        load(game, [a, b])
    d = errors_of(e)[0]
    assert d.path == b and a in d.message and b in d.message and "step 'second'" in d.message
    assert "builds on a" in d.hint


def test_replacing_a_container_conflicts_with_a_step_patched_inside_it(tmp_path):
    game = write(tmp_path, "toy.rules", TOY)
    a = variant(tmp_path, "a", "replace step first\n  pass\n")
    b = variant(tmp_path, "b", "replace play\n  end game\n")
    with pytest.raises(RuleFileError) as e:
        load(game, [a, b])
    assert "step 'first'" in errors_of(e)[0].message


def test_builds_on_allows_the_same_rule_and_loads_the_base_variant(tmp_path):
    game = write(tmp_path, "toy.rules", TOY)
    variant(tmp_path, "a", "replace parameter goal = 4\n")
    b = variant(tmp_path, "b", "replace parameter goal = 6\n", head="  builds on a")
    rules, _ = load(game, [b])        # a is found beside b and applied first
    assert [v.path.split("/")[-1] for v in rules.variants] == ["a.rules", "b.rules"]
    assert rules.of(Parameter)[0].value.value == 6


def test_a_circle_of_builds_on_is_an_error(tmp_path):
    game = write(tmp_path, "toy.rules", TOY)
    variant(tmp_path, "a", "replace parameter goal = 4\n", head="  builds on b")
    b = variant(tmp_path, "b", "replace parameter goal = 6\n", head="  builds on a")
    with pytest.raises(RuleFileError) as e:
        load(game, [b])
    assert "circle" in errors_of(e)[0].message


def test_seed_variants_check_clean_and_name_their_game():
    for path in sorted(VARIANTS.glob("*.rules")):
        rules, warnings = load(str(path))
        assert rules.variants and rules.variants[-1].path == str(path)
        assert all(d.severity == "warning" for d in warnings)


def test_life_system_composes_with_nobody_loses():
    rules, _ = load(str(BLUFF), [str(VARIANTS / "bluff-life.rules"), str(VARIANTS / "bluff-exact-nobody-loses.rules")])
    summary = simulate(Game(rules, 3), 300, seed=2)
    assert summary.dead_ends == {}
    assert sum(summary.wins) == 300


def test_exact_fixes_are_mutually_exclusive():
    with pytest.raises(RuleFileError) as e:
        load(str(BLUFF), [str(VARIANTS / "bluff-exact-nobody-loses.rules"), str(VARIANTS / "bluff-exact-published.rules")])
    assert any("rule 'resolve_challenge'" in d.message for d in errors_of(e))


# ---------------------------------------------------------------- the seeds' worked example, in play

@pytest.mark.parametrize("fix", EXACT_FIXES)
def test_each_exact_count_fix_removes_the_dead_end(fix):
    rules, _ = load(str(BLUFF), [str(VARIANTS / f"{fix}.rules")])
    fixed = simulate(Game(rules, 4), 2000, seed=1)
    assert fixed.dead_ends == {}
    assert sum(fixed.wins) == 2000


def test_the_base_game_still_reports_the_exact_count_dead_end():
    rules, _ = load(str(BLUFF))
    base = simulate(Game(rules, 4), 2000, seed=1)
    assert list(base.dead_ends) == ["resolve_challenge|no case applies"]


def _exact_round(variant_name, players=3):
    """Play until a challenge whose bid is exactly right, then report the dice counts before and after."""
    import random
    rules, _ = load(str(BLUFF), [str(VARIANTS / f"{variant_name}.rules")] if variant_name else [])
    g = Game(rules, players)
    cup = [i for i, n in enumerate(g.zone_names) if n.startswith("cup")]
    for seed in range(500):
        rng = random.Random(seed)
        s = g.new_initial_state()
        while s.outcome is None and s.dead_end is None:
            if g.is_chance(s):
                g.apply(s, rng.randrange(g.chance_outcomes(s)))
                continue
            p = g.current_actors(s)[0]
            moves = g.legal_moves(s, p)
            calls = [m for m in moves if m[0] == "call_bluff"]
            if calls and s.vars[g.var_slots["bid_count"]] == _matching(g, s):
                before = [len(s.zones[z]) for z in cup]
                bidder = int(s.vars[g.var_slots["bidder"]])
                g.apply(s, calls[0], p)      # reveal and settle run at once, up to the next roll
                after = [len(s.zones[z]) for z in cup]
                return before, after, int(p), bidder, s
            g.apply(s, rng.choice([m for m in moves if m[0] != "call_bluff"] or moves), p)
    raise AssertionError("no exact bid was challenged")


def _matching(g, s):
    return sum(1 for z, name in enumerate(g.zone_names) if name.startswith("cup")
               for piece in s.zones[z] if s.face[piece] in (6, s.vars[g.var_slots["bid_face"]]))


def test_exact_count_rules_as_each_fix_says():
    before, after, challenger, bidder, s = _exact_round(None)
    assert s.dead_end is not None and s.dead_end.rule == "resolve_challenge"
    before, after, challenger, bidder, _ = _exact_round("bluff-exact-challenger-loses")
    assert [b - a for b, a in zip(before, after)] == [1 if i == challenger else 0 for i in range(3)]
    before, after, challenger, bidder, _ = _exact_round("bluff-exact-nobody-loses")
    assert before == after
    before, after, challenger, bidder, _ = _exact_round("bluff-exact-published")
    assert [b - a for b, a in zip(before, after)] == [0 if i == bidder else min(1, b) for i, b in enumerate(before)]


# ---------------------------------------------------------------- diff

def test_diff_of_the_life_system_lists_exactly_what_it_changes():
    a, _ = load(str(BLUFF))
    b, _ = load(str(VARIANTS / "bluff-life.rules"))
    changes = {(c.change, c.kind, c.name) for c in diff_mod.diff(a, b)}
    assert changes == {("changed", "rule", "lose"), ("removed", "trigger", "out_of_dice"),
                       ("added", "parameter", "start_life"), ("added", "counter", "life"),
                       ("added", "trigger", "out_of_life"), ("added", "question", "dice_kept")}


def test_diff_reports_a_step_not_the_rule_around_it(tmp_path):
    game = write(tmp_path, "toy.rules", TOY)
    v = variant(tmp_path, "v", "replace step second\n  end game\n")
    a, _ = load(game)
    b, _ = load(game, [v])
    [change] = diff_mod.diff(a, b)
    assert (change.change, change.kind, change.name) == ("changed", "step", "second")
    assert change.a.text == "step second\n  pass" and change.b.text == "step second\n  end game"
    assert change.a.where.endswith("toy.rules:22:5") and change.b.where.endswith("v.rules:4:9")


def test_diff_of_a_game_with_itself_is_empty():
    a, _ = load(str(DEMOCRACY))
    assert diff_mod.diff(a, a) == []


def test_diff_cli_formats_and_determinism(tmp_path):
    runner = CliRunner()
    args = ["diff", str(BLUFF), str(VARIANTS / "bluff-exact-just-call.rules")]
    out = runner.invoke(main, args + ["--format", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["summary"] == {"added": 7, "removed": 1, "changed": 2}
    assert data["b"]["variants"] == [str(VARIANTS / "bluff-exact-just-call.rules")]
    html_path = tmp_path / "d.html"
    written = []
    for _ in range(2):
        out = runner.invoke(main, args + ["--format", "html", "-o", str(html_path)])
        assert out.exit_code == 0, out.output
        written.append(html_path.read_bytes())
    assert written[0] == written[1]
    html = written[0].decode()
    assert "class=\"tag changed\"" in html and "&#34;just&#34;" in html       # escaped, not raw quotes in markup
    text = runner.invoke(main, args).output
    assert "changed rule resolve_challenge" in text and "added parameter just_reward" in text


def test_diff_cli_refuses_a_conflicting_stack_and_writes_nothing(tmp_path):
    out_file = tmp_path / "d.json"
    res = CliRunner().invoke(main, ["diff", str(BLUFF), "--b-variant", str(VARIANTS / "bluff-life.rules"),
                                    "--b-variant", str(VARIANTS / "bluff-reversed.rules"), "--format", "json", "-o", str(out_file)])
    assert res.exit_code == 1
    assert "bluff-life.rules" in res.output and "bluff-reversed.rules" in res.output and "conflict" in res.output
    assert not out_file.exists()
    assert "Traceback" not in res.output


def test_behavioural_diff_reports_every_simulate_figure():
    res = CliRunner().invoke(main, ["diff", str(BLUFF), str(VARIANTS / "bluff-exact-published.rules"),
                                    "--simulate", "400", "--players", "3", "--seed", "1", "--format", "json"])
    assert res.exit_code == 0, res.output
    rows = {r["metric"]: r for r in json.loads(res.output)["behaviour"]["metrics"]}
    assert set(rows) == {"win rate, seat 1", "win rate, seat 2", "win rate, seat 3", "draws", "draws: nobody won",
                         "dead-end games", "dead end: resolve_challenge: no case applies", "decisions per game",
                         "rounds per game"}
    dead = rows["dead-end games"]
    assert dead["a"]["count"] > 0 and dead["b"]["count"] == 0 and dead["test"] == "Fisher's exact test"
    assert dead["a"]["ci95"][0] < dead["a"]["value"] < dead["a"]["ci95"][1]
    assert rows["decisions per game"]["test"] == "Welch's t-test"


def test_variants_command_lists_the_games_variants():
    res = CliRunner().invoke(main, ["variants", str(BLUFF), "--json"])
    assert res.exit_code == 0
    names = {v["name"] for v in json.loads(res.output)}
    assert names == {"bluff_exact_challenger_loses", "bluff_exact_nobody_loses", "bluff_exact_published",
                     "bluff_exact_just_call", "bluff_life", "bluff_reversed"}


# ---------------------------------------------------------------- statistics against known values

def test_statistics_match_reference_values():
    assert stats.fisher_exact(1, 10, 9, 10) == pytest.approx(0.0010933, rel=1e-4)       # R: fisher.test
    assert stats.welch([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]) == pytest.approx(0.34659, rel=1e-4)  # R: t.test
    assert stats.t_quantile(0.975, 10) == pytest.approx(2.228139, rel=1e-5)
    lo, hi = stats.wilson(56, 2000)
    assert (round(lo, 4), round(hi, 4)) == (0.0216, 0.0362)


@pytest.mark.parametrize("df", [1, 2, 3, 4, 5, 9, 10, 29, 30, 99, 100, 999, 1000, 1001, 1500, 19_999, 10 ** 6])
def test_t_quantiles_without_scipy_agree_with_scipy(df):
    from scipy import stats as reference
    for p in (0.6, 0.9, 0.975, 0.995):
        assert stats.t_quantile(p, df) == pytest.approx(float(reference.t.ppf(p, df)), rel=1e-12)
    with pytest.raises(ValueError):
        stats.t_quantile(0.3, df)        # the lower half is not what an interval needs: refused, not 0


@given(st.integers(1, 10 ** 6), st.floats(0, 1))
@settings(max_examples=300, deadline=None)
def test_wilson_intervals_without_scipy_are_scipys_to_the_bit(n, share):
    from scipy import stats as reference
    k = round(n * share)
    ci = reference.binomtest(k, n).proportion_ci(0.95, method="wilson")
    assert stats.wilson(k, n) == (max(0.0, float(ci.low)), min(1.0, float(ci.high)))


def test_a_simulation_does_not_import_scipy():
    # scipy.stats takes over a second to import; only comparisons of two runs need it
    code = ("import sys; from dsl.cli import main; sys.argv = ['playtest', 'simulate', 'games/bluff.rules', "
            "'-p', '2', '-n', '20', '--json']\ntry:\n    main()\nexcept SystemExit as done:\n"
            "    assert not done.code, done.code\nassert 'scipy' not in sys.modules, 'scipy was imported'")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_holm_marks_only_differences_that_survive_correction():
    a = [stats.Metric("big", "rate", 100, 1000), stats.Metric("none", "rate", 100, 1000)]
    b = [stats.Metric("big", "rate", 200, 1000), stats.Metric("none", "rate", 101, 1000)]
    rows = {r["metric"]: r for r in stats.compare(a, b)}
    assert rows["big"]["significant"] and not rows["none"]["significant"]


def test_a_variants_own_questions_and_assumptions_are_reported_from_its_file():
    _, warnings = load(str(VARIANTS / "bluff-exact-just-call.rules"))
    by_message = {d.message.split(":")[0]: d for d in warnings}
    q = by_message["open question 'bluff_on_exact'"]
    assert q.path.endswith("variants/bluff-exact-just-call.rules")
    assert q.hint == "play uses the provisional answer marked 'assume bluff_on_exact'"
    assert "open question 'exact_count'" not in by_message      # the variant answers it
