"""Agents: the same games as random play, agent specs, matches, and strength on small budgets."""
from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from dsl.agents import FlatAgent, ISMCTSAgent, RandomAgent, parse_agent, parse_agents, play
from dsl.agents.match import match, mean_interval, skill, wilson
from dsl.analyses.simulate import game_rng, play_random
from dsl.cli import main

from _util import GAMES, game_of

SEED_GAMES = [("bluff", 2), ("bluff", 4), ("democracy", 4), ("byzantine", 3), ("dream-duels", 4),
              ("populus", 3), ("tictactoe", 2)]


def game(name, n):
    return game_of(str(GAMES / f"{name}.rules"), n)


@pytest.mark.parametrize("name,n", SEED_GAMES)
def test_random_agents_play_the_very_games_of_random_play(name, n):
    g = game(name, n)
    for i in range(2 if name == "populus" else 6):
        a = play_random(g, game_rng(7, i), i)
        b = play(g, [RandomAgent()] * n, game_rng(7, i), index=i)
        assert b.actions == a.actions
        assert b.state.digest() == a.state.digest()
        assert b.index == i


def test_play_refuses_the_wrong_number_of_agents():
    with pytest.raises(ValueError, match="3 agents for 2 players"):
        play(game("tictactoe", 2), [RandomAgent()] * 3, random.Random(1))


def test_parse_agents_reads_every_form():
    one = parse_agents("ismcts:50", 3)
    assert len(one) == 3 and one[0] is one[2] and one[0].name == "ismcts:50"
    seats = parse_agents("ismcts:1000:c=0.5, random ,flat:20", 3)
    assert [a.name for a in seats] == ["ismcts:1000:c=0.5", "random", "flat:20"]
    assert isinstance(seats[1], RandomAgent) and isinstance(seats[2], FlatAgent)
    assert seats[0].c == 0.5 and seats[0].budget.iterations == 1000
    timed = parse_agent("ismcts:100000:time=0.5")
    assert timed.budget.seconds == 0.5 and timed.name == "ismcts:100000:time=0.5"


@pytest.mark.parametrize("spec,says", [
    ("mcts:10", "unknown agent 'mcts:10'"),
    ("ismcts", "needs an iteration budget"),
    ("ismcts:ten", "'ten' is not a whole number"),
    ("flat:0", "at least 1 iteration"),
    ("random:5", "random takes no budget"),
    ("ismcts:10:k=2", "bad option 'k=2'"),
    ("flat:10:c=2", "bad option 'c=2'"),
    ("ismcts:10:c=-1", "'c=-1' must be a positive number"),
    ("ismcts:10:c=x", "'x' is not a number"),
    ("random,random,random", "names 3 agents for 2 players"),
    ("", "no agent given"),
])
def test_bad_agent_specs_say_what_is_wrong_and_list_the_forms(spec, says):
    with pytest.raises(ValueError) as e:
        parse_agents(spec, 2)
    assert says in str(e.value)
    assert "valid forms: random, flat:N, ismcts:N" in str(e.value)


def test_wilson_interval_matches_the_hand_computed_one():
    lo, hi = wilson(8, 10)
    assert round(lo, 4) == 0.4902 and round(hi, 4) == 0.9433
    assert wilson(0, 0) == (0.0, 1.0)


def test_advantage_interval_matches_the_hand_computed_one():
    # mean 0.5, sample deviation 1, so 0.5 +- 1.96 / 2
    mean, lo, hi = mean_interval([1, -1, 1, 1])
    assert mean == 0.5 and round(lo, 4) == -0.48 and round(hi, 4) == 1.48
    assert mean_interval([0.0, 0.0]) == (0.0, 0.0, 0.0)


def test_dead_ends_do_not_make_the_stronger_agent_look_weaker():
    """Byzantine's random games mostly end in dead ends (0 to everyone): the score sits below
    1/2 for both sides, so the verdict rests on the advantage, not on the score."""
    r = match(game("byzantine", 2), RandomAgent(), RandomAgent(), 30, 1)
    assert r["dead_end_games"] > 15 and r["score"] < 0.5
    assert r["verdict"] == "no clear difference"


@pytest.mark.parametrize("name,n", [("bluff", 2), ("democracy", 3), ("tictactoe", 2)])
def test_agents_do_not_change_the_state_and_answer_a_legal_move(name, n):
    g = game(name, n)
    rng = random.Random(3)
    s = g.new_initial_state()
    for agent in (FlatAgent(6), ISMCTSAgent(12)):
        for _ in range(6):
            while g.is_chance(s):
                g.apply(s, rng.randrange(g.chance_outcomes(s)))
            if s.is_terminal():
                break
            p, moves = g.decision(s)
            before = s.key()
            m = agent.act(s, p, rng)
            assert s.key() == before
            assert m in moves
            g.apply(s, m, p)


def test_ismcts_is_deterministic_for_a_seed():
    g = game("bluff", 3)
    a = match(g, ISMCTSAgent(30), RandomAgent(), 6, 5)
    b = match(g, ISMCTSAgent(30), RandomAgent(), 6, 5)
    assert a == b


def test_tictactoe_ismcts_never_loses_to_random():
    g = game("tictactoe", 2)
    r = match(g, ISMCTSAgent(300), RandomAgent(), 12, 1)
    assert r["losses"] == 0
    assert r["ci95"][0] > 0.5
    assert r["wins"] + r["draws"] == 12 and r["dead_end_games"] == 0


def test_bluff_ismcts_beats_random_seats():
    r = match(game("bluff", 2), ISMCTSAgent(100), RandomAgent(), 30, 1)
    assert r["ci95"][0] > 0.5, r
    assert r["verdict"] == "ismcts:100 is stronger"
    r4 = match(game("bluff", 4), ISMCTSAgent(60), RandomAgent(), 24, 1)
    assert r4["ci95"][0] > 0.25, r4


def test_random_against_random_is_not_called_stronger():
    r = match(game("bluff", 2), RandomAgent(), RandomAgent(), 40, 1)
    assert r["verdict"] == "no clear difference"
    assert r["score_by_seat"]["1"] is not None and r["score_by_seat"]["2"] is not None


def test_skill_curve_and_room():
    g = game("tictactoe", 2)
    r = skill(g, [RandomAgent(), FlatAgent(40)], RandomAgent(), 10, 2)
    assert [c["agent"] for c in r["curve"]] == ["random", "flat:40"]
    best = max(r["curve"], key=lambda c: c["advantage"])
    assert r["best"] == best["agent"] == "flat:40"
    assert r["skill_room"] == best["advantage"] and r["skill_room_ci_low"] == best["advantage_ci95"][0]
    if best["dead_end_games"] == 0:     # utilities sum to 1 (a draw is 1/n each): the normalised score
        assert r["skill_room"] == round((best["score"] - 0.5) / 0.5, 4)


def test_cli_match_and_skill():
    runner = CliRunner()
    path = str(GAMES / "tictactoe.rules")
    out = runner.invoke(main, ["match", path, "flat:20", "random", "-p", "2", "-n", "6", "--json"])
    assert out.exit_code == 0, out.output
    r = json.loads(out.output)
    assert r["a"] == "flat:20" and r["b"] == "random" and r["games"] == 6
    again = runner.invoke(main, ["match", path, "flat:20", "random", "-p", "2", "-n", "6", "--json"])
    assert again.output == out.output
    text = runner.invoke(main, ["skill", path, "-p", "2", "-n", "4", "--levels", "random,flat:10"])
    assert text.exit_code == 0 and "skill room" in text.output and "flat:10" in text.output


@pytest.mark.parametrize("args,says", [
    (["match", "{p}", "ismcts:x", "random", "-p", "2"], "agent A: agent 'ismcts:x'"),
    (["match", "{p}", "random", "dqn", "-p", "2"], "agent B: unknown agent 'dqn'"),
    (["skill", "{p}", "-p", "2", "--levels", "random,flat"], "--levels: agent 'flat' needs an iteration budget"),
])
def test_cli_bad_agents_exit_2_with_a_clean_error(args, says):
    path = str(GAMES / "tictactoe.rules")
    out = CliRunner().invoke(main, [a.format(p=path) for a in args])
    assert out.exit_code == 2
    assert says in out.output and "Traceback" not in out.output
