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

from dsl import replay
from dsl.cli import main
from dsl.engine import CHANCE
from dsl.simulate import game_rng, play_random, simulate

BOUND = 3000          # decisions; far beyond any real game of these rules
PREFIX = 150          # actions drawn from Hypothesis data before the seeded tail

PROPS = settings(max_examples=30, deadline=None, derandomize=True, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                        HealthCheck.large_base_example])

CASES = [pytest.param(str(BLUFF), n, id=f"bluff-{n}p") for n in range(2, 7)]
CASES += [pytest.param(str(DEMOCRACY), n, id=f"democracy-{n}p",
                       marks=pytest.mark.skipif(not DEMOCRACY.exists(), reason="no games/democracy.rules yet"))
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
