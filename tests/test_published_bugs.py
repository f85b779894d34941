"""What designers encoding published card and dice games met: each case a small rule set that
failed before (tests/fixtures/draw_targets.rules and rule texts written here)."""
from __future__ import annotations

import random

from dsl.agents import ISMCTSAgent, RandomAgent, play
from dsl.agents.infoset import Determinizer, hidden_places, recalled
from dsl.analyses.simulate import game_rng
from dsl.table import Table

from _util import ROOT, game_of, playtest, rules_of

DRAW_TARGETS = str(ROOT / "tests" / "fixtures" / "draw_targets.rules")


# ---------------------------------------------------------------- a draw into a hidden hand
def test_a_searching_agent_plays_a_game_that_draws_into_hidden_hands():
    g = game_of(DRAW_TARGETS, 3)
    for i in range(3):
        s = play(g, [ISMCTSAgent(8), RandomAgent(), ISMCTSAgent(8)], game_rng(2, i), record=False, index=i).state
        assert s.outcome is not None and s.dead_end is None


def test_simulate_with_searching_agents_over_draws_ends_without_a_traceback():
    r = playtest("simulate", DRAW_TARGETS, "-p", "2", "--agents", "ismcts:6", "-n", "2")
    assert r.exit_code == 0, r.output
    assert "no dead ends" in r.output


def test_what_a_player_remembers_after_draws_is_true():
    """A draw moves pieces as a move does: a player who saw no card drawn knows of none where it
    lies, and never places one where it is not."""
    g = game_of(DRAW_TARGETS, 2)
    rng = random.Random(4)
    s = g.new_initial_state(log=True)
    drew = 0
    while s.outcome is None and s.dead_end is None:
        if g.is_chance(s):
            g.apply(s, rng.randrange(g.chance_outcomes(s)))
            continue
        for p in range(2):
            places = hidden_places(g, s, p)
            known = recalled(g, s, p).hidden_known(places)
            assert all(s.loc[q] == z for q, z in known.items())
            Determinizer(g, s, p).sample(rng)
        drew += sum(e["event"] == "draw" for e in s.log)
        d = g.decision(s)
        g.apply(s, rng.choice(d[1]), d[0])
    assert drew > 0


# ---------------------------------------------------------------- values kept per card, a target chosen
def _table(players=2, turns=4, seed=1):
    t = Table(rules_of(DRAW_TARGETS), players, ["human"] * players, seed)
    t.advance()
    for _ in range(turns):
        seat = t.humans_to_act()[0]
        t.act(seat, 1)
    return t


def test_a_value_kept_on_a_hidden_card_is_not_told_under_its_name():
    t = _table()
    game, log = t.game, t.state.log
    words = t.words("en")
    for seat in range(2):
        told = t.log(seat, "en")
        known_at = t._known_at(seat)
        hidden_sets = [(i, ev["piece"]) for i, ev in enumerate(log)
                       if ev["event"] == "set" and "piece" in ev and ev["piece"] not in known_at(i)]
        assert hidden_sets, "the game sets a value on a card the seat cannot see"
        for i, p in hidden_sets:
            line = told[i]
            assert words.narrator.piece(p) not in line and line.startswith("   a hidden card's slot"), line


def test_a_player_chosen_as_a_target_is_told_as_that_player_to_every_seat():
    t = _table(turns=2)
    log = t.state.log
    chose = [i for i, ev in enumerate(log) if ev["event"] == "choose"]
    assert chose
    for i in chose:
        ev = log[i]
        target = f"P{ev['move'][2] + 1}"
        designer = t.log(None, "en")[i]
        assert designer.endswith(f", player {target}"), designer
        for seat in range(2):
            assert t.log(seat, "en")[i].endswith(f", player {target}")
        assert t.log(None, "ja")[i].endswith(f"、プレイヤー {target}")
