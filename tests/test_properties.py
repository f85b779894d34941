"""Properties of the engine that must hold for every game and every line of play.

Games are played with moves and chance outcomes drawn by Hypothesis (an index into
legal_moves, or into range(chance_outcomes())). Long games (Democracy) draw the first
PREFIX actions from Hypothesis and continue with a Random seeded by a drawn integer, so
the example stays inside Hypothesis's input budget while staying reproducible.
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _util import BLUFF, DEMOCRACY, ROOT, assert_conserved, canonical_json, game_of, step_random

from dsl.analyses import replay
from dsl.cli import main
from dsl.engine import CHANCE
from dsl.analyses.simulate import game_rng, play_random, simulate

BOUND = 3000          # decisions; far beyond any real game of these rules
PREFIX = 150          # actions drawn from Hypothesis data before the seeded tail

PROPS = settings(max_examples=30, deadline=None, derandomize=True, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                        HealthCheck.large_base_example])

CASES = [pytest.param(str(BLUFF), n, id=f"bluff-{n}p") for n in range(2, 7)]
# Democracy at 4 to 6 players takes most of a minute each: `make test-slow`, which CI runs too
CASES += [pytest.param(str(DEMOCRACY), n, id=f"democracy-{n}p",
                       marks=[pytest.mark.skipif(not DEMOCRACY.exists(), reason="no games/democracy.rules yet")]
                       + ([pytest.mark.slow] if n >= 4 else []))
          for n in range(2, 7)]


def _chooser(data):
    tail = random.Random(data.draw(st.integers(0, 2 ** 32 - 1), label="tail seed"))
    drawn = [0]

    def pick(n):
        assert n >= 1
        drawn[0] += 1
        if drawn[0] <= PREFIX:
            return data.draw(st.integers(0, n - 1))
        return tail.randrange(n)
    return pick


def _check_json(s):
    j = s.to_json()
    text = json.dumps(j, sort_keys=True, ensure_ascii=False)
    assert json.loads(text) == j                                    # round-trips
    assert json.dumps(s.to_json(), sort_keys=True, ensure_ascii=False) == text   # deterministic
    return text


@pytest.mark.parametrize("path, n", CASES)
@PROPS
@given(data=st.data())
def test_random_play_properties(path, n, data):
    game = game_of(path, n)
    pick = _chooser(data)
    clone_at = data.draw(st.integers(0, 40), label="clone at action")
    s = game.new_initial_state()
    assert_conserved(s, game)
    digests = [s.digest()]
    jsons = [_check_json(s)]
    actions = []
    twin = None
    while not s.is_terminal():
        assert s.moves <= BOUND, "the game did not end within the bound"
        assert len(actions) <= 20 * BOUND
        if len(actions) == clone_at:
            twin = s.clone()
            assert twin == s and twin.key() == s.key()
            assert twin.digest() == s.digest()
            assert canonical_json(twin) == canonical_json(s)
        before = len(actions)
        actions.append(step_random(s, pick))
        assert len(actions) == before + 1
        assert_conserved(s, game)
        digests.append(s.digest())
        jsons.append(_check_json(s))
        if twin is not None:
            # the twin was not touched by what happened to the original
            assert twin.digest() == digests[-2]
            actor, move = actions[-1]
            if actor == CHANCE:
                assert twin.is_chance() and twin.chance_outcomes() == game.chance_outcomes(twin)
                twin.apply(move)
            else:
                assert actor in [int(p) for p in twin.current_actors()]
                assert tuple(move) in twin.legal_moves(actor)        # same queries as the original
                twin.apply(tuple(move), actor)
            assert twin == s
            assert twin.digest() == s.digest()
    # the move counter counts the decisions, not the chance outcomes
    assert s.moves == sum(1 for actor, _ in actions if actor != CHANCE)
    # it ended, one way or the other, and says so
    assert (s.outcome is not None) != (s.dead_end is not None)
    assert s.current_actors() == []
    if s.outcome is not None:
        assert all(0 <= int(p) < n for p in s.outcome)
    else:
        d = s.dead_end
        assert d.kind and d.rule and d.message
        assert d.line >= 0 and d.column >= 0
    # a replay of the recorded actions goes through the same states
    seen = []
    r = replay.run(game, actions, log=False, on_state=lambda st_: seen.append(st_.digest()))
    assert seen == digests
    assert canonical_json(r) == jsons[-1]
    # narration does not change the game
    logged = replay.run(game, actions, log=True)
    assert logged.digest() == digests[-1]
    assert logged.log and logged.log[-1]["event"] in ("end", "dead_end")


@pytest.mark.parametrize("path, n", [CASES[0], CASES[3], *CASES[6:7]])
@settings(max_examples=10, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.large_base_example])
@given(data=st.data())
def test_replay_files_round_trip(path, n, data):
    game = game_of(path, n)
    seed = data.draw(st.integers(0, 10 ** 6))
    index = data.draw(st.integers(0, 1000))
    played = play_random(game, game_rng(seed, index), index)
    with tempfile.TemporaryDirectory() as tmp:
        f = os.path.join(tmp, "sub", "game.json")
        replay.save(replay.Replay(path, [], n, seed, index, played.actions, note="x"), f)
        assert os.listdir(os.path.dirname(f)) == ["game.json"]      # no temporary file left
        back = replay.load(f)
    assert back.actions == played.actions
    assert (back.players, back.seed, back.index, back.rules) == (n, seed, index, path)
    assert replay.run(game, back.actions, log=False).digest() == played.state.digest()
    # the same seed and index play the same game
    again = play_random(game, game_rng(seed, index), index)
    assert again.actions == played.actions


# ----------------------------------------------------------------- state hygiene

def _decision_states(path, n, games=3):
    game = game_of(path, n)
    for g_i in range(games):
        rng = random.Random(g_i)
        s = game.new_initial_state()
        while not s.is_terminal():
            if not s.is_chance():
                yield game, s
            step_random(s, rng.randrange)


@pytest.mark.parametrize("path, n", [CASES[1], CASES[7]])
def test_asking_for_legal_moves_does_not_change_the_state(path, n):
    for game, s in _decision_states(path, n):
        before = (s.key(), s.digest())
        twin = s.clone()
        for p in s.current_actors():
            s.legal_moves(p)
        s.current_actors()
        s.observation(0)
        assert (s.key(), s.digest()) == before
        assert s == twin


def test_observation_and_actors_do_not_change_the_state():
    for game, s in _decision_states(str(BLUFF), 3):
        before = s.digest()
        s.current_actors()
        s.is_chance()
        for p in range(game.n):
            s.observation(p)
        s.to_json()
        assert s.digest() == before


def test_clone_is_independent():
    game = game_of(str(BLUFF), 3)
    s = game.new_initial_state()
    s.apply(0)
    twin = s.clone()
    before = twin.digest()
    s.apply(1234)
    s.apply(777)
    assert twin.digest() == before
    assert twin != s
    twin.apply(1234)
    twin.apply(777)
    assert twin.to_json() == s.to_json()


# ----------------------------------------------------------------- determinism

SIM_CASES = [pytest.param(str(BLUFF), n, id=f"bluff-{n}p") for n in (2, 4, 6)]
SIM_CASES += [pytest.param(str(DEMOCRACY), n, id=f"democracy-{n}p",
                           marks=pytest.mark.skipif(not DEMOCRACY.exists(), reason="no democracy"))
              for n in (3, 4)]


@pytest.mark.parametrize("path, n", SIM_CASES)
def test_simulate_is_deterministic_and_adds_up(path, n):
    game = game_of(path, n)
    a = simulate(game, 50, seed=3).to_json()
    b = simulate(game, 50, seed=3).to_json()
    assert a == b
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    # the summary is the sum of its games, each replayable from (seed, index)
    games = [play_random(game, game_rng(3, i), i) for i in range(50)]
    assert a["games"] == 50
    dead = [p for p in games if p.state.dead_end is not None]
    assert a["dead_end_games"] == len(dead) == sum(d["count"] for d in a["dead_ends"])
    wins = [0] * n
    for p in games:
        if p.state.outcome is not None and len(p.state.outcome) == 1:
            wins[int(p.state.outcome[0])] += 1
    assert [a["wins_by_seat"][str(i + 1)] for i in range(n)] == wins
    mean = sum(p.state.moves for p in games) / 50
    assert a["mean_turns"] == pytest.approx(mean, abs=1e-3)
    # another seed plays other games
    c = simulate(game, 50, seed=4).to_json()
    assert [p.actions for p in games[:5]] != [play_random(game, game_rng(4, i), i).actions for i in range(5)]
    assert c["games"] == 50


def test_cli_simulate_json_is_byte_identical_in_process():
    args = ["simulate", str(BLUFF), "--players", "4", "-n", "60", "--seed", "5", "--json"]
    r1 = CliRunner().invoke(main, args)
    r2 = CliRunner().invoke(main, args)
    assert r1.exit_code == 0 and r2.exit_code == 0, r1.output
    assert r1.stdout_bytes == r2.stdout_bytes
    json.loads(r1.stdout)


@pytest.mark.parametrize("path, n", [(str(BLUFF), 3)] + ([(str(DEMOCRACY), 4)] if DEMOCRACY.exists() else []))
def test_cli_simulate_json_is_byte_identical_across_processes(path, n):
    """Different hash seeds, different processes: the same bytes."""
    outs = []
    for hashseed in ("0", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed, PYTHONPATH=str(ROOT))
        p = subprocess.run([sys.executable, "-m", "dsl.cli", "simulate", path, "--players", str(n),
                            "-n", "40", "--seed", "9", "--json"],
                           cwd=ROOT, env=env, capture_output=True, timeout=120)
        assert p.returncode == 0, p.stderr.decode()
        outs.append(p.stdout)
    assert outs[0] == outs[1]
    assert json.loads(outs[0])["games"] == 40


# ----------------------------------------------------------------- apply checks every action

@pytest.mark.parametrize("path, n", [CASES[1], *CASES[6:7]])
def test_apply_rejects_illegal_actions_and_leaves_the_state_alone(path, n):
    from dsl.engine import IllegalMove
    game = game_of(path, n)
    rng = random.Random(5)
    s = game.new_initial_state()
    checked = 0
    while not s.is_terminal() and checked < 60:
        before = s.digest()
        if s.is_chance():
            k = s.chance_outcomes()
            for bad in (k, -1, "3", 1.5):
                with pytest.raises(IllegalMove):
                    s.apply(bad)
            with pytest.raises(IllegalMove):
                s.apply(0, 0)                       # a player where chance decides
        else:
            p = s.current_actors()[0]
            legal = s.legal_moves(p)
            others = [q for q in range(n) if q not in [int(a) for a in s.current_actors()]]
            if others:
                with pytest.raises(IllegalMove):
                    s.apply(legal[0], others[0])
            for bad in (("no_such_option",), (legal[0][0],) + (99999,) * (len(legal[0]) - 1),
                        tuple(legal[0]) + (1,), (), 7):
                if bad not in legal:
                    with pytest.raises(IllegalMove):
                        s.apply(bad, p)
            checked += 1
        assert s.digest() == before
        step_random(s, rng.randrange)
    # every legal move passes the check: it is the same set as legal_moves
    s = game.new_initial_state()
    while not s.is_terminal():
        if not s.is_chance():
            p = s.current_actors()[0]
            for m in s.legal_moves(p):
                assert game._checked_move(s, game.pauses[s.ip], m, p) == tuple(m)
        step_random(s, rng.randrange)


def test_a_move_from_json_binds_the_pieces_themselves():
    """Numbers read back from a replay file become the engine's own pieces and players."""
    game = game_of(str(DEMOCRACY), 3)
    s = game.new_initial_state()
    rng = random.Random(2)
    while s.is_chance():
        step_random(s, rng.randrange)
    p = s.current_actors()[0]
    move = s.legal_moves(p)[0]
    plain_move = json.loads(json.dumps([x if isinstance(x, str) else int(x) for x in move]))
    assert game._checked_move(s, game.pauses[s.ip], plain_move, p) == tuple(move)
    assert [type(x) for x in game._checked_move(s, game.pauses[s.ip], plain_move, p)] == [type(x) for x in move]


# ----------------------------------------------------------------- rules that cannot run for ever

def _rules(tmp_path, text, name="x.rules"):
    from dsl.language.parser import parse_file
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return parse_file(str(p))


def test_a_loop_without_decisions_is_a_step_limit_naming_the_loop(tmp_path):
    from dsl.engine import Game
    text = ("game spin\n  players 2 to 2\n  max steps 30\ncounter laps = 0\nplay\n  step go\n"
            "    repeat until laps < 0\n      add 1 to laps\n")
    game = Game(_rules(tmp_path, text), 2)
    s = game.new_initial_state()
    d = s.dead_end
    assert (d.kind, d.rule, d.line, d.column) == ("step limit", "go", 7, 5)
    assert "repeat until laps < 0" in d.message and "300" in d.message      # 10 x max steps
    assert s.vars[game.var_slots["laps"]] == 300


def test_loop_passes_are_counted_between_decisions_only(tmp_path):
    """A long game whose loops each end before the next decision is not cut short."""
    from dsl.engine import Game
    text = ("game long\n  players 2 to 2\n  max steps 10\ncounter k = 0\ncounter rounds = 0\nplay\n"
            "  repeat 9 times\n    set k to 0\n    repeat until k >= 90\n      add 1 to k\n"
            "    first(players) chooses one of\n      option go\n        add 1 to rounds\n"
            "  end game winners players\n")
    game = Game(_rules(tmp_path, text), 2)
    s = game.new_initial_state()
    while not s.is_terminal():
        s.apply(("go",), 0)
    assert s.outcome is not None and s.vars[game.var_slots["rounds"]] == 9


def test_a_rule_that_runs_itself_is_an_error_not_a_crash(tmp_path):
    from dsl.language.checker import check
    from dsl.engine import Game, RuleError
    text = ("game loop\n  players 2 to 2\nplay\n  do a\n  end game\nrule a\n  do b\nrule b\n  do a\n")
    rules = _rules(tmp_path, text)
    errors = [d for d in check(rules) if d.severity == "error"]
    assert len(errors) == 1 and "runs itself" in errors[0].message and errors[0].span.line == 9
    with pytest.raises(RuleError):
        Game(rules, 2)


@pytest.mark.parametrize("value, words", [("supply", "zone"), ("nobody", "nobody"), ("bid_count", "changes"),
                                          ("later", "above"), ('"five"', "text"), ("count(supply)", "count")])
def test_parameter_values_are_checked(tmp_path, value, words):
    from dsl.language.checker import check
    from dsl.engine import Game, RuleError
    text = BLUFF.read_text(encoding="utf-8").replace("parameter start_dice = 5\n",
                                                    f"parameter start_dice = {value}\nparameter later = 3\n", 1)
    rules = _rules(tmp_path, text)
    errors = [d for d in check(rules) if d.severity == "error"]
    assert len(errors) == 1, errors
    e = errors[0]
    assert "start_dice" in e.message and words in e.message and e.hint
    line = next(i for i, l in enumerate(text.splitlines(), 1) if l.startswith("parameter start_dice"))
    assert (e.span.line, e.span.column) == (line, len("parameter start_dice = ") + 1)
    with pytest.raises(RuleError):
        Game(rules, 2)


def test_simulate_counts_games_without_a_winner():
    game = game_of(str(ROOT / "games" / "tictactoe.rules"), 2)
    j = simulate(game, 300, seed=1).to_json()
    assert j["no_winner"] > 0 and j["draws"] == 0 and j["dead_end_games"] == 0
    assert sum(j["wins_by_seat"].values()) + j["no_winner"] == 300
