"""Design metrics on small hand-computed logs, and the play loop that writes the logs."""
from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest

from dsl.analyses import metrics as M
from dsl.analyses.metrics import GameLog
from dsl.analyses.simulate import Restriction, counter_score, game_rng, play, play_loop, play_random, simulate
from dsl.engine import Game
from dsl.loader import load

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"


def game_of(name, n):
    rules, _ = load(str(GAMES / f"{name}.rules"))
    return Game(rules, n)


# ---------------------------------------------------------------- outcomes

LOGS = [GameLog(0, "won", (0,)), GameLog(1, "won", (0,)), GameLog(2, "won", (1,)), GameLog(3, "nobody"),
        GameLog(4, "dead end", dead_end="r|no case applies"), GameLog(5, "step limit"), GameLog(6, "shared", (0, 1))]


def test_outcomes_count_every_way_a_game_ends():
    o = M.outcomes(LOGS, 2)
    assert o["by"] == "seat" and o["fair_share"] == 0.5
    assert [w["count"] for w in o["wins"]] == [2, 1]
    assert [w["share_of_decided"]["count"] for w in o["wins"]] == [2, 1]
    assert [w["share_of_decided"]["n"] for w in o["wins"]] == [3, 3]
    assert (o["won"]["count"], o["nobody"]["count"], o["shared"]["count"], o["dead_end"]["count"],
            o["step_limit"]["count"]) == (3, 1, 1, 1, 1)
    assert o["wins"][0]["value"] == round(2 / 7, 4)
    assert [w["flag"] for w in o["wins"]] == ["", ""]        # 2 of 3 is no evidence


def test_a_side_is_flagged_when_its_interval_misses_the_fair_share():
    logs = [GameLog(i, "won", (0,)) for i in range(30)] + [GameLog(30 + i, "won", (1,)) for i in range(5)]
    o = M.outcomes(logs, 2)
    assert [w["flag"] for w in o["wins"]] == ["above", "below"]
    even = [GameLog(i, "won", (i % 2,)) for i in range(22)] + [GameLog(22, "won", (0,))]
    assert [w["flag"] for w in M.outcomes(even, 2)["wins"]] == ["", ""]
    # below MIN_DECIDED games won, even a clean sweep flags nobody
    sweep = lambda k: [GameLog(i, "won", (0,)) for i in range(k)]
    assert [w["flag"] for w in M.outcomes(sweep(M.MIN_DECIDED - 1), 2)["wins"]] == ["", ""]
    assert [w["flag"] for w in M.outcomes(sweep(M.MIN_DECIDED), 2)["wins"]] == ["above", "below"]


def test_team_games_count_teams_not_seats():
    logs = [GameLog(0, "won", (0, 1)), GameLog(1, "won", (2, 3)), GameLog(2, "won", (0, 1))]
    o = M.outcomes(logs, 4, teams=((0, 1), (2, 3)))
    assert o["by"] == "team"
    assert [(w["seats"], w["count"]) for w in o["wins"]] == [([1, 2], 2), ([3, 4], 1)]


def test_balance_first_player_completion_drawishness_timeouts():
    d = M.design(LOGS, 2)
    assert d["balance"] == round(1 - (2 / 7 - 1 / 7), 4)
    assert d["first_player_advantage"]["count"] == 2
    assert d["first_player_advantage"]["excess"] == round(2 / 7 - 0.5, 4)
    assert d["completion"]["count"] == 3
    assert d["drawishness"]["count"] == 2          # nobody won + shared; not the dead end or the timeout
    assert d["timeouts"]["count"] == 1 and d["dead_ends"]["count"] == 1


def test_intervals_are_wilson_and_t():
    r = M._rate(56, 2000)
    assert r["ci95"] == [0.0216, 0.0362]
    m = M._mean([1, 2, 3, 4, 5])
    half = 2.776445 * math.sqrt(2.5) / math.sqrt(5)           # t(0.975, 4) * sd / sqrt(n)
    assert m["ci95"] == [round(3 - half, 4), round(3 + half, 4)]


def test_length_distribution_quartiles():
    d = M.distribution([1, 2, 3, 4])
    assert (d["mean"], d["min"], d["q1"], d["median"], d["q3"], d["max"]) == (2.5, 1, 1.75, 2.5, 3.25, 4)


# ---------------------------------------------------------------- choice

CHOICES = [(0, 1, "a: x", ("a: x",), (), ()), (1, 3, "b: y", ("b: y", "b: z"), ("red",), ("blue", "red")),
           (0, 2, "b: z", ("b: y", "b: z"), ("blue",), ("blue", "red"))]


def test_real_choice_and_branching_factor():
    d = M.design([GameLog(0, "won", (0,), decisions=3, choices=CHOICES)], 2)
    assert (d["real_choice"]["count"], d["real_choice"]["n"]) == (2, 3)
    assert d["branching_factor"] == 2.0            # (1 + 3 + 2) / 3
    assert d["branching_factor_real"] == 2.5       # (3 + 2) / 2


def test_option_use_relates_use_to_winning():
    rows = {r["option"]: r for r in M.option_use([GameLog(0, "won", (0,), choices=CHOICES)])}
    assert (rows["b: y"]["offered"], rows["b: y"]["taken"], rows["b: y"]["taken_when_offered"]) == (2, 1, 0.5)
    # seat 2 took 'b: y' and lost; seat 1 was offered it, never took it, and won
    assert (rows["b: y"]["win_rate_if_used"]["count"], rows["b: y"]["win_rate_if_used"]["n"]) == (0, 1)
    assert (rows["b: y"]["win_rate_if_not_used"]["count"], rows["b: y"]["win_rate_if_not_used"]["n"]) == (1, 1)
    assert (rows["b: z"]["win_rate_if_used"]["count"], rows["b: z"]["win_rate_if_used"]["n"]) == (1, 1)
    cards = {r["card"]: r for r in M.option_use([GameLog(0, "won", (0,), choices=CHOICES)], cards=True)}
    assert (cards["red"]["offered"], cards["red"]["taken"]) == (2, 1)
    assert (cards["red"]["win_rate_if_used"]["count"], cards["red"]["win_rate_if_used"]["n"]) == (0, 1)
    assert (cards["blue"]["win_rate_if_used"]["count"], cards["blue"]["win_rate_if_used"]["n"]) == (1, 1)
    # a game that dead-ends counts its offers but no win rate; a shared win counts as no win
    more = {r["option"]: r for r in M.option_use([GameLog(0, "won", (0,), choices=CHOICES),
                                                  GameLog(1, "dead end", choices=CHOICES),
                                                  GameLog(2, "shared", (0, 1), choices=CHOICES)])}
    assert (more["b: y"]["offered"], more["b: y"]["taken"]) == (6, 3)
    assert (more["b: y"]["win_rate_if_used"]["count"], more["b: y"]["win_rate_if_used"]["n"]) == (0, 2)
    assert (more["b: y"]["win_rate_if_not_used"]["count"], more["b: y"]["win_rate_if_not_used"]["n"]) == (1, 2)


# ---------------------------------------------------------------- score

def test_lead_changes_skip_shared_leads():
    scores = [(0, 0), (1, 0), (1, 1), (1, 2), (3, 2), (3, 3)]      # leaders: -, 1, -, 2, 1, -
    assert M.lead_changes(scores) == 2
    assert M.lead_changes([(0, 0), (0, 0)]) == 0


def test_comeback_is_the_winner_behind_at_the_half():
    assert M.comeback([(0, 0), (0, 2), (1, 2), (5, 2)], 0)          # half: (0, 2)
    assert not M.comeback([(0, 0), (1, 0), (1, 1), (1, 2), (3, 2), (3, 3)], 0)   # half: (1, 1), level


def test_final_margin_and_score_over_time():
    assert M.margin((5, 2, 4), 0) == 1
    log = GameLog(0, "won", (0,), scores=[(i, 10 - i) for i in range(11)])
    s = M.scored([log], 2)
    assert s["score_over_time"] == [[float(i) for i in range(11)], [float(10 - i) for i in range(11)]]
    assert s["winner_over_time"] == [float(i) for i in range(11)]
    assert s["final_margin"]["value"] == 10
    assert s["comebacks"]["count"] == 0 and s["comebacks"]["n"] == 1      # the half sample (index 5) is 5-5: level
    assert M.comeback([(0, 0), (4, 6), (9, 6)], 0)


# ---------------------------------------------------------------- the play loop

@pytest.mark.parametrize("name, n", [("tictactoe", 2), ("bluff", 3), ("democracy", 3)])
def test_play_without_agents_is_play_random(name, n):
    game = game_of(name, n)
    for i in range(10):
        a = play_random(game, game_rng(4, i), i)
        b, log = play(game, game_rng(4, i), i)
        assert a.actions == b.actions and a.state.key() == b.state.key()
        assert log.decisions == a.state.moves == len(log.choices)


@pytest.mark.parametrize("name, n", [("bluff", 3), ("byzantine", 3), ("democracy", 4), ("dream-duels", 2),
                                     ("populus", 3), ("tictactoe", 2)])
def test_every_decision_is_logged_as_its_moves_and_the_scores_say(name, n):
    """The log's reading of a decision, worked out here from its moves alone: the option keys
    (the rule's name, the option), the labels of the pieces named by options that take them
    from a collection, once each, sorted; and every seat's score before it. `play` reads these
    through shortcuts per pause (a choice of one option, one parameter per option, cached key
    sets) and the score's own reading of every seat at once."""
    from dsl.engine.program import Choice
    from dsl.engine.values import Piece
    game = game_of(name, n)
    label = game.piece_label
    score = game.score_of or (lambda s, p: 0)

    def reading(s, seat, moves, move):
        pause = game.pauses[s.ip]
        prefix = f"{pause.owner}: " if pause.owner else ""
        carded = pause.naming_pieces() if type(pause) is Choice else None

        def labels(ms):
            return tuple(sorted({label[x] for m in ms for x in m[1:]
                                 if type(x) is Piece and (carded is None or m[0] in carded)}))
        expected.append((seat, len(moves), prefix + str(move[0]), tuple(sorted({prefix + str(m[0]) for m in moves})),
                         labels([move]), labels(moves)))
        scores.append(tuple(score(s, p) for p in range(n)))
    for i in range(6):
        expected, scores = [], []
        play_loop(game, game_rng(2, i), i, True, watch=reading)
        _, log = play(game, game_rng(2, i), i, score=game.score_of or score)
        assert log.choices == expected
        assert log.scores[:-1] == scores
        assert any(c[4] for c in log.choices) == (name not in ("bluff", "tictactoe"))     # bids, spaces: no piece


def test_rounds_are_passes_of_the_outermost_loop():
    game = game_of("tictactoe", 2)
    for i in range(30):
        _, log = play(game, game_rng(1, i), i)
        assert log.rounds == math.ceil(log.decisions / 2)        # one mark each per pass; the last may be half


def test_agents_decide_for_their_seats():
    class First:
        name = "first"

        def act(self, state, player, rng, moves=None):
            return state.game.decision(state)[1][0]
    game = game_of("tictactoe", 2)
    s = simulate(game, 5, 1, agents=[First(), First()])
    assert s.to_json()["agents"] == ["first", "first"]
    assert len({repr(p.actions) for p in [play(game, game_rng(1, i), i, [First(), First()])[0]
                                                       for i in range(5)]}) == 1


def test_a_banned_option_is_taken_only_when_nothing_else_is_legal():
    game = game_of("byzantine", 3)
    r = Restriction(("stake",))
    for i in range(15):
        _, log = play(game, game_rng(1, i), i, restriction=r)
        for seat, k, key, keys, *_ in log.choices:
            if key == "voting: stake":
                assert keys == ("voting: stake",)
    only_seat_2 = Restriction(("voting: stake",), (1,))
    staked = {seat for i in range(15) for seat, _, key, keys, *_ in play(game, game_rng(1, i), i,
              restriction=only_seat_2)[1].choices if key == "voting: stake" and len(keys) > 1}
    assert 1 not in staked and staked


def test_counter_scores_and_a_clear_error():
    game = game_of("populus", 3)
    f = counter_score(game, "vp+fp")
    s = game.new_initial_state()
    assert f(s, 0) == (s.pvars[game.pvar_slots["vp"]][0] or 0) + s.pvars[game.pvar_slots["fp"]][0]
    with pytest.raises(ValueError, match="did you mean 'food'"):
        counter_score(game, "fod")


def test_tictactoe_draws_match_the_exact_value():
    """Random tic-tac-toe ends with nobody winning with probability 8/63 (12.7%), computed
    here over every position; the simulated rate's 95% interval holds it."""
    from dsl.engine.order import state_keyer
    game = game_of("tictactoe", 2)
    memo = {}
    key = state_keyer(game)         # a player's marks are alike: which of them stands where does not count

    def nobody(s):
        k = key(s)
        if k not in memo:
            if s.is_terminal():
                memo[k] = Fraction(int(not s.outcome))
            else:
                player, moves = game.decision(s)
                total = Fraction(0)
                for m in moves:
                    c = s.clone()
                    game.apply(c, m, player)
                    total += nobody(c)
                memo[k] = total / len(moves)
        return memo[k]
    exact = nobody(game.new_initial_state())
    assert exact == Fraction(8, 63)
    o = simulate(game, 2000, 1).to_json()["metrics"]["outcomes"]
    assert o["nobody"]["count"] == 282 and o["shared"]["count"] == 0
    assert o["nobody"]["ci95"][0] <= float(exact) <= o["nobody"]["ci95"][1]
