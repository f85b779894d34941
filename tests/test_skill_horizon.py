"""Rollouts with a horizon (`ismcts:N:depth=D`): they stop at the first decision after D
actions of random play, the state they leave is valued by the standing on the score, and a game without a score
plays its rollouts to the end."""
from __future__ import annotations

import random

import pytest

from dsl.agents import ISMCTSAgent, parse_agent
from dsl.agents.search import _rollout, standing, utility
from dsl.analyses.simulate import game_rng, play_random
from dsl.engine import CHANCE

from _util import GAMES, game_of


def game(name, n):
    return game_of(str(GAMES / f"{name}.rules"), n)


def _table(s) -> dict:
    """What the score can read: zones, faces, counters and variables (not the paused position,
    which a play-out stopped in the middle of its code has not written back)."""
    j = s.to_json()
    return {k: j[k] for k in ("zones", "faces", "revealed", "variables", "player_variables")}


def _replayed(g, actions):
    s = g.new_initial_state()
    for actor, move in actions:
        g.apply(s, move if actor == CHANCE else tuple(move), None if actor == CHANCE else actor)
    return s


@pytest.mark.parametrize("name,n,depth", [("populus", 3, 1), ("populus", 3, 40), ("democracy", 2, 25),
                                          ("byzantine", 3, 7)])
def test_a_rollout_stops_after_exactly_depth_actions_of_random_play(name, n, depth):
    g = game(name, n)
    assert g.score_of is not None
    games = (play_random(g, game_rng(3, i), i) for i in range(50))    # the actions random play takes
    for i, full in [(p.index, p) for p in games if any(a[0] != CHANCE for a in p.actions[depth:])][:3]:
        stop = next(k for k in range(depth, len(full.actions)) if full.actions[k][0] != CHANCE)
        taken = full.actions[:stop]             # depth actions, and chance on to the next decision
        s = g.new_initial_state()
        _rollout(g, s, game_rng(3, i), depth)
        assert s.outcome is None and s.dead_end is None
        assert _table(s) == _table(_replayed(g, taken))
        t = g.new_initial_state()
        g.play_out = lambda *args: False        # a game without generated code: the engine's own loop
        try:
            _rollout(g, t, game_rng(3, i), depth)
        finally:
            del g.play_out
        assert t.digest() == _replayed(g, taken).digest()


def test_a_rollout_past_the_end_of_the_game_is_the_whole_random_game():
    g = game("byzantine", 3)
    full = play_random(g, game_rng(3, 0), 0)
    s = g.new_initial_state()
    _rollout(g, s, game_rng(3, 0), len(full.actions) + 5)
    assert s.digest() == full.state.digest()


def test_without_a_score_the_depth_is_ignored():
    g = game("bluff", 2)
    assert g.score_of is None
    s, t = g.new_initial_state(), g.new_initial_state()
    _rollout(g, s, random.Random(5), 2)
    _rollout(g, t, random.Random(5))
    assert s.outcome is not None or s.dead_end is not None
    assert s.digest() == t.digest()


def test_a_cut_game_is_worth_a_share_of_the_win_to_the_leaders_on_the_score():
    g = game("democracy", 4)
    s = g.new_initial_state()
    _rollout(g, s, random.Random(2), 60)
    scores = g.scores(s)
    top = max(scores)
    leaders = [i for i, v in enumerate(scores) if v == top]
    assert standing(g, s) == utility(g, s) == [1 / len(leaders) if i in leaders else 0.0 for i in range(4)]
    assert sum(standing(g, s)) == pytest.approx(1.0)


def test_depth_in_a_spec_and_its_name():
    a = parse_agent("ismcts:50:depth=30")
    assert isinstance(a, ISMCTSAgent) and a.depth == 30 and a.name == "ismcts:50:depth=30"
    assert parse_agent("ismcts:50:c=0.5:depth=8").name == "ismcts:50:c=0.5:depth=8"
    assert parse_agent("ismcts:50").depth is None


@pytest.mark.parametrize("spec,says", [("ismcts:10:depth=2.5", "whole number of actions"),
                                       ("ismcts:10:depth=0", "must be a positive number"),
                                       ("flat:10:depth=3", "bad option 'depth=3'")])
def test_bad_depths_are_refused(spec, says):
    with pytest.raises(ValueError, match=says):
        parse_agent(spec)


def test_a_searcher_with_a_horizon_is_deterministic_and_plays_a_legal_move():
    g = game("populus", 3)
    full = play_random(g, game_rng(1, 0), 0)
    s = _replayed(g, full.actions[:30])
    while g.is_chance(s):
        g.apply(s, 0)
    player, moves = g.decision(s)
    agent = ISMCTSAgent(12, depth=10)
    before = s.digest()
    picks = {tuple(agent.act(s, player, random.Random(4))) for _ in range(2)}
    assert len(picks) == 1 and list(picks)[0] in {tuple(m) for m in moves}
    assert s.digest() == before
