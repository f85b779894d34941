"""playtest solve: exact values of small games, checked against values worked out by hand and
the literature (Kuhn -1/18, Leduc -0.0856), and each agent's exploitability."""
from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from dsl.agents import parse_agent
from dsl.analyses import cfr
from dsl.analyses.solve import solve
from dsl.analyses.solve_tree import build_tree
from dsl.cli import main
from dsl.engine import Game
from dsl.loader import load

from _util import GAMES, ROOT, game_of

FIXTURES = ROOT / "tests" / "fixtures"
KUHN, LEDUC, MINI = FIXTURES / "kuhn.rules", FIXTURES / "leduc.rules", FIXTURES / "mini-poker.rules"

# Matching pennies with unequal prizes, chosen face down at once: P1 wins 2 on two heads and 1
# on two tails, and loses 1 when the coins differ. P1 shows heads with p: against heads 3p - 1,
# against tails 1 - 2p; equal at p = 2/5, so the value is 1/5 and P2 shows heads with 2/5 too.
PENNIES = """
game pennies
  players 2 to 2

counter shown per player = 0
value prize = if shown(player(1)) = shown(player(2)) then (if shown(player(1)) = 1 then 2 else 1) else -1
value won(p) = if p = player(1) then prize else -prize

play
  each p in players simultaneously chooses one of
    option heads
      set shown(p) to 1
    option tails
      set shown(p) to 2
  end game with payoff won(p) for p in players
"""

# Perfect information with chance: P1 may draw (nobody wins) or roll a three-sided die, winning
# on 2 or 3 and losing on 1: worth 2/3 - 1/3 = 1/3, so the value is 1/3.
GAMBLE = """
game gamble
  players 2 to 2

dice die
  faces 1, 2, 3
  count 1
  in tray

zone tray is tray, shared, seen by everyone

play
  player(1) chooses one of
    option safe
      end game
    option gamble
      roll tray
      if top(tray).face >= 2
        end game winners [player(1)]
      end game winners [player(2)]
"""


def _game(tmp_path, text, name="g.rules") -> Game:
    path = tmp_path / name
    path.write_text(text)
    rules, _ = load(str(path))
    return Game(rules, 2)


def _agents(*specs):
    return [parse_agent(s) for s in specs]


def test_tictactoe_is_a_draw_whatever_the_first_mark():
    r = solve(game_of(str(GAMES / "tictactoe.rules"), 2), agents=_agents("random"))
    assert r.solved and r.information == "perfect" and r.reading == "win-loss"
    assert r.value == 0 and r.positions == 5478          # explore's count of positions
    [opening] = r.opening
    assert len(opening["moves"]) == 9 and all(m["value"] == 0 and m["optimal"] for m in opening["moves"])
    [random_row] = r.agents
    assert random_row["exact"] and random_row["exploitability"] > 0.5


def test_kuhn_poker_is_worth_minus_one_eighteenth_to_the_first_player():
    r = solve(game_of(str(KUHN), 2), agents=_agents("random"))
    assert r.solved and r.information == "imperfect" and r.reading == "payoffs"
    assert abs(r.value - (-1 / 18)) < 0.001
    assert r.low <= -1 / 18 <= r.high and r.high - r.low < 0.001
    assert r.information_sets == 12                     # 3 cards x 2 decisions for each player
    bet = {row["seen"]: next(m["probability"] for m in row["moves"] if m["move"] == "bet") for row in r.opening}
    # Kuhn's equilibria: with the Q never bet; with the J bluff at some a <= 1/3, with the K bet 3a
    assert bet["P1's hand: Q"] < 0.01
    assert bet["P1's hand: J"] <= 1 / 3 + 0.01 and abs(bet["P1's hand: K"] - 3 * bet["P1's hand: J"]) < 0.02


def test_random_play_of_kuhn_poker_gives_away_what_the_hand_count_says():
    """Random P1 (check or bet, then fold or call, each half the time) against a best reply:
    P2's K bets after a check (1/2 + 1 = 1.5) and calls a bet (+2): 1.75; the Q calls (0) and
    bets after a check (1/2 + 0): 0.25; the J folds (-1) and bets after a check (1/2 - 1):
    -0.75; on average 5/12. Random P2 against a best reply: the K wins 1.5, the Q bets for
    1/2 + 0, the J bets for 1/2 - 1; on average 1/2. The mean, 11/24, is OpenSpiel's."""
    [row] = solve(game_of(str(KUHN), 2), agents=_agents("random")).agents
    assert row["seat_1"] == round(5 / 12, 6) and row["seat_2"] == 0.5
    assert row["exploitability"] == round(11 / 24, 6)


def test_mini_poker_by_hand():
    """P1 always bets a 3 and checks a 2; P1 bluffs a 1 with b, P2 calls a bet holding a 2
    with c. P2's 2 is indifferent when (2b - 2)/(1 + b) = -1: b = 1/3; P1's 1 when
    -1 + (1 - 3c)/2 = -1: c = 1/3. Summing the six deals, 1 + 4/3 + 1 - 1 - 1 - 1 = 1/3, over
    six: the value is 1/18. Random P1: P2 gains nothing on a check, and on a bet calls with a 3
    (+2) or a 2 (0) and folds a 1 (-1): 1/2 x 1/3 = 1/6. Random P2: P1 bets everything, for 3/2,
    1/2 and -1/2: 1/2."""
    r = solve(game_of(str(MINI), 2), agents=_agents("random"))
    assert abs(r.value - 1 / 18) < 0.001
    opening = {row["seen"]: {m["move"]: m["probability"] for m in row["moves"]} for row in r.opening}
    assert opening["P1's hand: 3"]["bet"] > 0.99 and opening["P1's hand: 2"]["check"] > 0.99
    assert abs(opening["P1's hand: 1"]["bet"] - 1 / 3) < 0.01
    [row] = r.agents
    assert row["seat_1"] == round(1 / 6, 6) and row["seat_2"] == 0.5


def test_pennies_chosen_face_down_are_solved_without_seeing_the_other_coin(tmp_path):
    r = solve(_game(tmp_path, PENNIES), agents=_agents("random"))
    assert r.information == "imperfect" and abs(r.value - 0.2) < 0.001      # a peek would make it -1 or 2
    [row] = r.opening
    assert abs(row["moves"][0]["probability"] - 0.4) < 0.01
    # random P1 (1/2 each): heads by P2 gives P1 1/2, tails gives 0, so P2 replies tails: 0.
    # random P2: P1's heads wins 1/2, tails 0: 1/2. The mean is 1/4.
    [random_row] = r.agents
    assert random_row["seat_1"] == 0 and random_row["seat_2"] == 0.5 and random_row["exploitability"] == 0.25


def test_a_gamble_with_a_die_is_solved_by_expectimax(tmp_path):
    r = solve(_game(tmp_path, GAMBLE), agents=_agents("random"))
    assert r.information == "perfect" and r.reading == "win-loss" and abs(r.value - 1 / 3) < 1e-12
    worth = {m["move"]: m["value"] for m in r.opening[0]["moves"]}
    assert worth == {"safe": 0, "gamble": round(1 / 3, 6)}
    # random P1 gets 1/2 x 0 + 1/2 x 1/3 = 1/6, so a best reply in seat 2 "wins" -1/6;
    # P2 never decides, so against it P1 gets the value, 1/3.
    [row] = r.agents
    assert row["seat_1"] == round(-1 / 6, 6) and row["seat_2"] == round(1 / 3, 6)


def test_leduc_poker_matches_openspiels_cfr_value():
    """Information sets by hand: in the first round P1 decides at the start, after check-raise
    and after raise-raise, P2 after a check, a raise and check-raise-raise: 3 each, for each of
    3 ranks. The second round follows 5 first rounds (check-check, check-raise-call,
    check-raise-raise-call, raise-call, raise-raise-call), with 3 decisions each per player,
    for each rank held and rank on the table: 5 x 3 x 9. So 9 + 135 for each player, 288 (with
    the suits told apart, 6 cards, it is OpenSpiel's 936)."""
    r = solve(game_of(str(LEDUC), 2), agents=_agents("random"))
    assert r.information_sets == 2 * (3 * 3 + 5 * 3 * 9)
    assert abs(r.value - (-0.0856)) < 0.005
    assert r.low <= r.value <= r.high
    # uniform random play: OpenSpiel's NashConv of Leduc is 4.747222, exploitability half of it
    assert abs(r.agents[0]["exploitability"] - 4.747222 / 2) < 1e-5


def test_a_shuffle_of_identical_cards_is_dealt_once_for_each_distinct_deal():
    tree = build_tree(game_of(str(LEDUC), 2), 100_000)
    # 720 orders of J J Q Q K K, 6! / 2!2!2! = 90 of them different, each with chance 8/720
    assert tree.count[0] == 90 and {tree.prob[j] for j in tree.children(0)} == {8 / 720}


def test_searching_agents_are_estimated_and_say_so():
    r = solve(game_of(str(KUHN), 2), agents=_agents("flat:10"), samples=4)
    [row] = r.agents
    assert not row["exact"] and row["estimate"]["samples"] == 4
    assert 1 <= row["estimate"]["asked_at"] <= 12 and row["exploitability"] >= 0


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=24, max_size=24))
def test_every_strategy_brackets_the_value_and_is_exploitable(weights):
    """Whatever a strategy is, each side's best reply to it brackets the value, and what the
    replies win against it is never negative."""
    a = cfr.Arrays(build_tree(game_of(str(KUHN), 2), 1000))
    sigma = a.normalised(np.array(weights))
    low, high = cfr.bounds(a, sigma)
    assert low <= -1 / 18 + 1e-12 and -1 / 18 - 1e-12 <= high
    assert cfr.exploitability(a, sigma)[2] >= -1e-12


def _cli(*args):
    return CliRunner().invoke(main, ["solve", *map(str, args)])


def test_the_command_prints_the_value_the_advantage_the_opening_and_the_agents():
    res = _cli(KUHN, "--agents", "random")
    assert res.exit_code == 0, res.output
    out = res.output
    assert "value of the game for P1: -0.0556 ≈ -1/18" in out
    assert "P2 has the advantage" in out and "P1's hand: J: check" in out
    assert "random       +0.4583  (in seat 1 +0.4167, in seat 2 +0.5000)  exact" in out
    ja = _cli(KUHN, "--lang", "ja").output
    assert "P1にとってのゲームの値: -0.0556" in ja and "P1の手札: J: チェック" in ja


def test_json_is_the_same_every_run():
    one, two = (_cli(KUHN, "--agents", "random,flat:3", "--samples", "2", "--json") for _ in range(2))
    assert one.exit_code == 0 and one.stdout == two.stdout
    data = json.loads(one.stdout)
    assert data["solved"] and data["value_fraction"] == "-1/18" and data["format"] == "playtest-solve/1"
    assert Fraction(data["value_fraction"]) == Fraction(-1, 18)


def test_games_it_cannot_solve_are_refused_plainly(tmp_path):
    res = _cli(GAMES / "bluff.rules", "-p", "3")
    assert res.exit_code == 1 and "3-player game" in res.output and "Traceback" not in res.output
    res = _cli(GAMES / "populus.rules")             # for 3 to 5: refused by its smallest count
    assert res.exit_code == 1 and "solving is offered for two-player zero-sum games only, and this is a 3-player game" in res.output
    res = _cli(GAMES / "tictactoe.rules", "--max-states", "100")
    assert res.exit_code == 1 and "more than 100 states" in res.output
    general = tmp_path / "general.rules"
    general.write_text(GAMBLE.replace("end game\n", "end game with payoff 1 for p in players\n"))
    res = _cli(general)
    assert res.exit_code == 1 and "not zero-sum" in res.output
    gap = tmp_path / "gap.rules"
    gap.write_text(GAMBLE.replace("      end game\n", "      stop when unhandled\n", 1))
    res = _cli(gap)
    assert res.exit_code == 1 and "a game ends in a dead end (unhandled in 'play' at" in res.output
    data = json.loads(_cli(GAMES / "tictactoe.rules", "--max-states", "100", "--json").stdout)
    assert data == {"format": "playtest-solve/1", "game": "tictactoe", "rules": str(GAMES / "tictactoe.rules"),
                    "players": 2, "solved": False, "refused": data["refused"], "size": 100}
    res = _cli(KUHN, "--agents", "plugin:no_such_agent")
    assert res.exit_code == 2 and "no installed package declares an agent 'no_such_agent'" in res.output


def test_ismcts_still_chooses_where_every_move_loses_chips():
    """IS-MCTS is measured on games of chips, where a move's mean can be far below -1."""
    import random
    from dsl.agents.search import _Edge, _Node, _select
    node = _Node()
    for m in (("fold",), ("call",)):
        e = node.edges[(0, m)] = _Edge()
        e.visits = e.avail = 10
        e.reward = -50.0
    move, edge, new = _select(node, 0, [("fold",), ("call",)], random.Random(1), 0.7)
    assert move in (("fold",), ("call",)) and edge is node.edges[(0, move)] and not new


def test_a_box_of_identical_tokens_hides_nothing_but_a_box_of_two_kinds_does(tmp_path):
    box = GAMBLE.replace("zone tray is", "token chip\n  count 3\n  in box\n\nzone box is box, shared, seen by nobody\nzone tray is")
    r = solve(_game(tmp_path, box, "box.rules"))
    assert r.information == "perfect" and abs(r.value - 1 / 3) < 1e-12
    two = box.replace("token chip\n  count 3\n  in box\n", "token chip\n  count 3\n  in box\n\ntoken bead\n  count 1\n  in box\n")
    r = solve(_game(tmp_path, two, "two.rules"))
    assert r.information == "imperfect" and abs(r.value - 1 / 3) < 0.001


def test_an_opening_after_chance_is_told_by_what_chance_showed(tmp_path):
    """The die is rolled first: on a 1 P1 stays safe (0), on a 2 or 3 gambles and wins: 2/3."""
    first = GAMBLE.replace("    option gamble\n      roll tray\n", "    option gamble\n").replace(
        "play\n", "play\n  roll tray\n")
    r = solve(_game(tmp_path, first, "first.rules"))
    assert abs(r.value - 2 / 3) < 1e-12
    best = {row["seen"]: [m["move"] for m in row["moves"] if m["optimal"]] for row in r.opening}
    assert best == {"tray: die(1)": ["safe"], "tray: die(2)": ["gamble"], "tray: die(3)": ["gamble"]}
