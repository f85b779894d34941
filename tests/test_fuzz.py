"""`fuzz`: Hypothesis drives the engine, finds what the rules leave open and shrinks it."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from _util import BLUFF, GAMES, ROOT, bluff, game_of, line_of, rules_text

from dsl.analyses import fuzz as fuzz_mod
from dsl.analyses import fuzz_drawing
from dsl.analyses import replay
from dsl.engine import CHANCE, Game
from dsl.analyses.fuzz import fuzz
from dsl.loader import load

from test_explore import BROKEN

TICTACTOE = GAMES / "tictactoe.rules"

ENDLESS = """\
game endless
  players 2 to 2
  max steps 20
play
  repeat until false
    for each p in players
      step wait
        p chooses one of
          option stay
            pass
          option leave if false
            end game
"""


def _game(tmp_path, text, n=2):
    p = tmp_path / "g.rules"
    p.write_text(text, encoding="utf-8")
    rules, _ = load(str(p))
    return Game(rules, n)


@pytest.fixture(scope="module")
def bluff2():
    return fuzz(bluff(2), max_examples=300, seed=1)


def test_bluff_exact_count_shrinks_to_one_round(bluff2):
    r = bluff2
    assert [(f.rule, f.kind) for f in r.findings] == [("resolve_challenge", "no case applies")]
    f = r.findings[0]
    text = rules_text(BLUFF)
    assert f.where == f"{bluff(2).path}:{line_of(text, 'cases', line_of(text, 'rule resolve_challenge'))}:3"
    assert 0 < f.hits <= r.examples == 300
    assert r.outcomes["dead_ends"] == f.hits
    # one round: both cups rolled, the opening bid, and the call
    assert f.shrunk and f.replays
    assert [a for a, _ in f.actions] == [CHANCE, CHANCE, 0, 1]
    assert f.actions[2][1][0] == "choose" and f.actions[3][1] == ["call_bluff"]
    s = replay.run(bluff(2), f.actions, log=False)
    assert (s.dead_end.rule, s.dead_end.kind) == ("resolve_challenge", "no case applies")
    # the bid was exactly right: that is the case the rules leave open
    face, count = f.actions[2][1][1:]
    dice = [p for z in s.zones for p in z if s.game.kind_of[p] == "die" and s.revealed[p]]
    assert sum(1 for p in dice if s.face[p] in (face, 6)) == count


def test_a_reproduction_is_a_replay_file(bluff2, tmp_path):
    f = bluff2.findings[0]
    rep = bluff2.replay_of(f)
    path = tmp_path / "finding.json"
    replay.save(rep, str(path))
    back = replay.load(str(path))
    assert back.actions == f.actions and back.players == 2 and back.rules == bluff2.rules
    s = replay.run(bluff(2), back.actions, log=True)
    assert s.dead_end is not None and s.log[-1]["event"] == "dead_end"


def test_report_json_and_text(bluff2):
    j = bluff2.to_json()
    assert json.loads(bluff2.dumps()) == j
    for key in ("format", "game", "rules", "players", "seed", "examples", "findings", "coverage", "bounds",
                "outcomes", "shrink_runs", "stopped_because"):
        assert key in j
    f = j["findings"][0]
    assert set(f) == {"kind", "rule", "where", "message", "hits", "first_example", "reproduction"}
    assert set(f["reproduction"]) == {"actions", "length", "decisions", "shrunk", "replays"}
    assert j["bounds"]["max_decisions"] == 5000 and j["bounds"]["max_decisions_from"] == "default"
    o = j["outcomes"]
    assert sum(o["wins_by_seat"].values()) + o["shared"] + o["no_winner"] + o["dead_ends"] == o["games"] == 300
    # in two-player Bluff a challenger who runs out of dice ends the game at once
    assert [b["kind"] for b in j["coverage"]["never_reached"]] == ["else"]
    text = bluff2.format_text()
    assert "resolve_challenge: no case applies" in text and "shrunk to 4 actions" in text


def test_a_correct_small_game_has_no_findings():
    r = fuzz(game_of(str(TICTACTOE), 2), max_examples=300, seed=0)
    assert r.findings == []
    assert r.never_reached == [] and r.reached == r.blocks > 0
    o = r.outcomes
    assert o["dead_ends"] == 0 and sum(o["wins_by_seat"].values()) + o["no_winner"] == 300
    assert "no findings" in r.format_text()


def test_a_broken_rule_file_gives_every_kind_of_finding(tmp_path):
    g = _game(tmp_path, BROKEN)
    r = fuzz(g, max_examples=300, seed=3)
    found = {(f.rule, f.kind): f for f in r.findings}
    assert {("settle", "no case applies"), ("spin_forever", "step limit"), ("play", "tie not covered")} <= set(found)
    assert "repeat until laps < 0" in found[("spin_forever", "step limit")].message
    assert found[("spin_forever", "step limit")].where.endswith(":28:3")
    # shrunk to the shortest games there are (P1 needs two points first; a tie needs three each)
    assert len(found[("settle", "no case applies")].actions) == 5
    assert len(found[("spin_forever", "step limit")].actions) == 5
    assert len(found[("play", "tie not covered")].actions) == 6
    for (rule, kind), f in found.items():
        assert f.replays
        s = replay.run(g, f.actions, log=False)
        assert (s.dead_end.rule, s.dead_end.kind) == (rule, kind)
    assert [b["name"] for b in r.never_reached] == ["turn: if score(p) > 5"]
    assert r.bounds["max_decisions"] == 40 and r.bounds["max_decisions_from"].startswith("max steps (")
    assert r.bounds["max_loop_passes"] == 400


def test_a_game_that_never_ends_is_reported_with_its_bound(tmp_path):
    g = _game(tmp_path, ENDLESS)
    r = fuzz(g, max_examples=20, seed=0)
    assert [(f.rule, f.kind) for f in r.findings] == [("wait", "can go on forever"), ("wait", "step limit")]
    loop, f = r.findings
    assert "20 decisions" in f.message and len(f.actions) == 21 and f.replays
    # P1 then P2 stays: the state after those two is the start's again
    assert [m for _, m in loop.actions] == [["stay"], ["stay"]] and loop.replays
    assert "after 2 actions play is back in the state it was in after 0" in loop.message
    assert r.bounds["max_decisions"] == 20
    assert any(b["kind"] == "option" for b in r.never_reached)          # `leave` is never offered


TWICE = """\
game twice
  players 2 to 2
counter points per player = 0
rule score(p, k)
  if k > 1
    add k to points(p)
  else
    add 1 to points(p)
play
  step first
    do score(player(1), 1)
  step second
    do score(player(2), 2)
  step last
    end game by highest points(p) for p in players
"""


def test_a_rule_done_from_two_places_is_one_block_reached_from_either(tmp_path):
    # each `do` compiles the rule's body again; coverage is of the rule file's blocks: the
    # branch `k > 1` is taken by the second `do` alone, the `else` by the first alone
    from dsl.analyses.explore import explore
    g = _game(tmp_path, TWICE)
    assert len(g.block_names) == 9          # 3 steps, and the rule, its branch and its else twice
    r = fuzz(g, max_examples=5, seed=0)
    assert (r.blocks, r.reached, r.never_reached) == (6, 6, [])
    e = explore(g)
    assert e.finished and (e.blocks, e.never_reached) == (6, [])
    # a block no copy reaches is listed once
    g = _game(tmp_path, TWICE.replace("score(player(2), 2)", "score(player(2), 1)"))
    r = fuzz(g, max_examples=5, seed=0)
    assert (r.blocks, r.reached) == (6, 5)
    assert [(b["kind"], b["name"]) for b in r.never_reached] == [("branch", "score: if k > 1")]
    assert explore(g).never_reached == r.never_reached


@pytest.mark.slow
def test_the_same_seed_gives_the_same_json_and_another_seed_other_games():
    g = bluff(3)
    a = fuzz(g, max_examples=150, seed=5).dumps()
    b = fuzz(g, max_examples=150, seed=5).dumps()
    assert a == b
    c = json.loads(fuzz(g, max_examples=150, seed=6).dumps())
    assert c["outcomes"] != json.loads(a)["outcomes"]


def test_the_same_seed_gives_the_same_bytes_across_processes():
    code = ("import sys; from dsl.loader import load; from dsl.engine import Game; from dsl.analyses.fuzz import fuzz; "
            f"r, _ = load({str(BLUFF)!r}); sys.stdout.write(fuzz(Game(r, 2), max_examples=120, seed=9).dumps())")
    outs = []
    for hashseed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed, PYTHONPATH=str(ROOT))
        p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, timeout=300)
        assert p.returncode == 0, p.stderr.decode()
        outs.append(p.stdout)
    assert outs[0] == outs[1] and json.loads(outs[0])["examples"] == 120


def test_max_time_runs_whole_batches_and_says_so():
    r = fuzz(bluff(2), max_time=1.0, seed=1)
    assert r.stopped_because == "max_time"
    assert r.examples > 0 and r.examples % fuzz_mod.BATCH == 0 and r.batches == r.examples // fuzz_mod.BATCH


def test_drawing_past_data_draw_generates_and_shrinks_the_same_games(monkeypatch, tmp_path):
    # fuzz draws each number as data.draw(st.integers(0, n - 1)) does, without its extras
    from test_explore import BROKEN
    games = [bluff(3), _game(tmp_path, BROKEN)]
    through_draw = fuzz_drawing._through_draw

    def unused(data):
        raise AssertionError("fuzz drew through data.draw")
    monkeypatch.setattr(fuzz_drawing, "_through_draw", unused)     # this Hypothesis has what the fast path needs
    fast = [json.dumps(fuzz(g, max_examples=150, seed=4).to_json()) for g in games]
    monkeypatch.setattr(fuzz_drawing, "_integers", through_draw)
    assert [json.dumps(fuzz(g, max_examples=150, seed=4).to_json()) for g in games] == fast
    assert [len(json.loads(f)["findings"]) for f in fast] == [1, 3]      # and shrunk: both phases compared


def test_progress_reports_both_phases():
    seen = []
    fuzz(bluff(2), max_examples=120, seed=1, progress=lambda *a: seen.append(a))
    discover = [a for a in seen if a[0] == "discover"]
    assert [d for _, d, _ in discover] == list(range(1, 121)) and discover[-1][2] == 120
    assert [a for a in seen if a[0] == "shrink"] == [("shrink", 0, 1), ("shrink", 1, 1)]


def test_a_small_shrink_budget_still_gives_a_game_that_replays(monkeypatch):
    monkeypatch.setattr(fuzz_mod, "SHRINK_BUDGET", 30)
    r = fuzz(bluff(3), max_examples=200, seed=2)
    assert r.findings and all(f.replays for f in r.findings)


def test_engine_errors_and_broken_invariants_are_findings_not_crashes(monkeypatch):
    game = Game(load(str(BLUFF))[0], 2)
    real_apply = Game.apply

    def corrupting_apply(self, s, move, player=None, validate=True):
        real_apply(self, s, move, player, validate)
        if s.moves == 3 and not s.is_terminal():
            s.zones[0].append(s.zones[0][0] if s.zones[0] else 0)      # a piece in two places

    monkeypatch.setattr(Game, "apply", corrupting_apply)
    r = fuzz(game, max_examples=100, seed=1)
    assert ("engine", "pieces not conserved") in [(f.rule, f.kind) for f in r.findings]
    monkeypatch.undo()

    def failing_choice_moves(self, s, pause, player, *chooser):
        if s.moves >= 2:
            raise RuntimeError("boom")
        return Game.choice_moves(self, s, pause, player, *chooser)

    game2 = Game(load(str(BLUFF))[0], 2)
    # working out a player's moves (decision and legal_moves both go through choice_moves) fails
    monkeypatch.setattr(game2, "choice_moves", failing_choice_moves.__get__(game2))
    r = fuzz(game2, max_examples=50, seed=1)
    f = next(f for f in r.findings if f.kind == "engine error")
    assert f.rule == "engine" and "RuntimeError: boom" in f.message


def test_a_tiny_game_stops_when_every_game_has_been_generated(tmp_path):
    text = ("game tiny\n  players 2 to 2\nplay\n  first(players) chooses one of\n    option a\n"
            "      end game winners [first(players)]\n    option b\n      end game\n")
    r = fuzz(_game(tmp_path, text), max_examples=1000, seed=1)
    assert r.stopped_because == "every distinct game generated"
    assert r.examples == 2 and r.outcomes["wins_by_seat"]["1"] == 1 and r.outcomes["no_winner"] == 1


def test_a_dead_end_before_any_decision_has_an_empty_reproduction(tmp_path):
    text = "game spin\n  players 2 to 2\ncounter laps = 0\nplay\n  repeat until laps < 0\n    add 1 to laps\n"
    r = fuzz(_game(tmp_path, text), max_examples=50, seed=0)
    assert [(f.rule, f.kind, f.actions, f.replays) for f in r.findings] == [("play", "step limit", [], True)]
    assert "before the first decision" in r.format_text()


def test_fuzzing_skips_hypothesis_copying_the_global_random_state_at_every_draw(monkeypatch):
    import random

    from hypothesis.strategies._internal import core
    own = core.deprecate_random_in_strategy
    copies = []
    getstate = random.getstate
    monkeypatch.setattr(random, "getstate", lambda: copies.append(1) or getstate())
    report = fuzz(bluff(4), max_examples=50, seed=3)
    games = report.examples + report.shrink_runs
    # what is left is Hypothesis's own few copies a game (about 3 here), not two a draw (about 39 a game here)
    assert 0 < len(copies) <= 6 * games
    assert core.deprecate_random_in_strategy is own             # put back after the run
