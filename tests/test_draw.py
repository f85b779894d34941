"""`draw N from A to B`: pieces taken at random from what is left of a pile, a chance event
at the moment of the draw (dsl/constructs/draw.py). Leduc poker written with draws explores
to OpenSpiel's 5,520 histories beside the shuffled version's 35,280, and solves to the same
value on fewer positions; a 52-card deck costs only the cards drawn."""
from __future__ import annotations

import json
from fractions import Fraction
from itertools import permutations

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from dsl.agents import parse_agent
from dsl.analyses.explore import explore
from dsl.analyses.simulate import game_rng, play_random
from dsl.analyses.solve import solve
from dsl.analyses.solve_tree import build_tree
from dsl.cli import main
from dsl.engine import CHANCE, Game
from dsl.engine.order import state_keyer
from dsl.language import syntax as S
from dsl.language.checker import check
from dsl.language.parser import parse_text
from dsl.printing.narrate import Narrator
from dsl.printing.prose import Voice, plain
from dsl.table import view as V
from dsl.table.words import Words

from _util import ROOT, game_of

FIXTURES = ROOT / "tests" / "fixtures"
LEDUC, LEDUC_DRAW, DECK52 = FIXTURES / "leduc.rules", FIXTURES / "leduc_draw.rules", FIXTURES / "draw_deck52.rules"
GHOST = ROOT / "variants" / "democracy-ghost.rules"

PILE = """game piles
  players 2 to 2
deck card
  cards
    | name | rank |
    | a    | 1    |
    | b    | 2    |
    | c    | 3    |
    | d    | 4    |
    | e    | 5    |
  in pile
zone pile is deck, shared, seen by nobody
zone hand is hand, per player, seen by owner
zone table is table, shared, seen by everyone
counter took = 0
{extra}
play
  {draw}
  end game winners [player(1)]
"""


def _rules(text, name="piles.rules"):
    rules, diagnostics = parse_text(text, name)
    assert rules is not None and not diagnostics, diagnostics
    return rules, check(rules)


def _game(draw="draw 2 from pile to hand(player(1))", extra="", players=2):
    rules, found = _rules(PILE.format(draw=draw, extra=extra))
    assert [d for d in found if d.severity == "error"] == []
    return Game(rules, players)


def _labels(game, s, zone):
    return [game.piece_label[p] for p in s.zones[game.zone_names.index(zone)]]


# ---------------------------------------------------------------- the chance event

def test_a_draw_of_two_from_five_has_twenty_outcomes_each_an_ordered_pair_once():
    game = _game()
    s = game.new_initial_state()
    assert game.is_chance(s) and game.chance_outcomes(s) == 5 * 4
    seen = []
    for k in range(20):
        c = s.clone()
        game.apply(c, k)
        assert c.is_terminal() and c.dead_end is None
        hand = _labels(game, c, "hand(1)")
        assert len(hand) == 2 and sorted(_labels(game, c, "pile") + hand) == ["a-1", "b-2", "c-3", "d-4", "e-5"]
        seen.append(tuple(hand))
    assert sorted(seen) == sorted(permutations(["a-1", "b-2", "c-3", "d-4", "e-5"], 2))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 5), st.booleans())
def test_every_drawn_piece_knows_where_it_lies_and_is_hidden_again(k, bottom):
    game = _game(f"move 1 from pile to table\n  reveal table\n  draw {k} from pile to table{' at bottom' if bottom else ''}")
    s = game.new_initial_state()
    if k > 4:       # one of the five is on the table already
        assert s.is_terminal() and s.dead_end.kind == "empty zone" and s.dead_end.line == 20
        assert "asked to draw 5, and the pile holds 4" in s.dead_end.message
        return
    first = s.zones[game.zone_names.index("table")][0]
    outcomes = game.chance_outcomes(s)
    game.apply(s, outcomes - 1)
    table = s.zones[game.zone_names.index("table")]
    assert len(table) == k + 1 and table[-1 if bottom else 0] == first
    for z, pieces in enumerate(s.zones):
        for p in pieces:
            assert s.loc[p] == z
    assert s.revealed[first] and not any(s.revealed[p] for p in table if p != first)


def test_a_negative_draw_is_a_dead_end_at_the_draw():
    s = _game("draw took - 1 from pile to table").new_initial_state()
    assert s.is_terminal() and (s.dead_end.kind, s.dead_end.line) == ("negative amount", 18)


def test_a_draw_sets_off_the_triggers_that_watch_the_zone():
    extra = "trigger full when count(hand(player(1))) >= 2\n  end game winners [player(2)]\n"
    game = _game("draw 2 from pile to hand(player(1))\n  set took to 1", extra)
    s = game.new_initial_state()
    game.apply(s, 0)
    assert s.outcome == (1,) and s.vars[game.var_slots["took"]] == 0


def test_check_refuses_a_draw_in_a_trigger_and_a_draw_from_a_number():
    text = PILE.format(draw="draw 1 from took to hand(player(1))",
                       extra="trigger t when took > 0\n  draw 1 from pile to table\n")
    errors = [d for d in _rules(text)[1] if d.severity == "error"]
    assert [(d.span.line, d.message) for d in errors] == [
        (17, "a trigger cannot draw at random"),
        (20, "expected a zone here, but this is a number")], [(d.span.line, d.message) for d in errors]


def test_draw_stays_a_name_where_no_statement_begins():
    # Byzantine's deck is a zone called `draw`, and Dream Duels has an option `draw`
    text = PILE.replace("in pile", "in draw").replace("zone pile is", "zone draw is").format(
        draw="p chooses one of\n    option draw\n      draw 1 from draw to hand(p)", extra="variable p = nobody\n")
    text = text.replace("  p chooses", "  set p to player(1)\n  p chooses")
    rules, found = _rules(text)
    assert [d for d in found if d.severity == "error"] == []
    game = Game(rules, 2)
    s = game.new_initial_state()
    p, moves = game.decision(s)
    game.apply(s, moves[0], p)
    assert game.chance_outcomes(s) == 5


# ---------------------------------------------------------------- explore, solve, random play

def test_leduc_with_draws_explores_to_openspiels_histories_and_shuffled_to_every_order():
    # per deal (6 x 5): 4 folds in the first round, else 5 ways to the second round x 4
    # table cards x (5 showdowns + 4 folds) = 184; shuffled, the 720 orders of the deck fix
    # the table card: 720 x (4 + 5 x 9)
    drawn, shuffled = explore(game_of(str(LEDUC_DRAW), 2)), explore(game_of(str(LEDUC), 2))
    assert drawn.finished and drawn.proof and drawn.complete_games == 6 * 5 * (4 + 5 * 4 * 9) == 5_520
    assert shuffled.finished and shuffled.complete_games == 720 * (4 + 5 * 9) == 35_280
    assert (drawn.states, shuffled.states) == (1_219, 4_951)


def _expected_payoff(game):
    """P1's pay-off under uniform random play and uniform chance, exactly."""
    key = state_keyer(game)
    memo = {}

    def value(s):
        k = key(s)
        if k in memo:
            return memo[k]
        if s.is_terminal():
            v = Fraction(game.returns(s)[0]).limit_denominator(1000)
        else:
            if game.is_chance(s):
                actions = [(CHANCE, k) for k in range(game.chance_outcomes(s))]
            else:
                p, moves = game.decision(s)
                actions = [(p, m) for m in moves]
            total = Fraction(0)
            for actor, m in actions:
                c = s.clone()
                game.apply(c, m, None if actor == CHANCE else actor, validate=False)
                total += value(c)
            v = total / len(actions)
        memo[k] = v
        return v
    return value(game.new_initial_state())


def test_random_play_of_leduc_pays_exactly_alike_drawn_and_shuffled():
    drawn, shuffled = _expected_payoff(game_of(str(LEDUC_DRAW), 2)), _expected_payoff(game_of(str(LEDUC), 2))
    assert drawn == shuffled and drawn != 0


def test_leduc_with_draws_solves_to_the_same_value_on_fewer_positions():
    agents = [parse_agent("random")]
    drawn, shuffled = solve(game_of(str(LEDUC_DRAW), 2), agents=agents), solve(game_of(str(LEDUC), 2), agents=agents)
    assert abs(drawn.value - (-0.0856)) < 0.005 and abs(drawn.value - shuffled.value) < 1e-3
    assert drawn.information_sets == shuffled.information_sets == 288
    assert (drawn.positions, shuffled.positions) == (1_939, 7_651)
    # OpenSpiel's NashConv of uniform random play on Leduc is 4.747222; exploitability half
    assert abs(drawn.agents[0]["exploitability"] - 4.747222 / 2) < 1e-5
    # the first deal: six cards, three ranks, each with chance 2/6
    tree = build_tree(game_of(str(LEDUC_DRAW), 2), 100_000)
    assert tree.count[0] == 3 and {tree.prob[j] for j in tree.children(0)} == {2 / 6}


def test_a_52_card_deck_costs_only_the_cards_drawn():
    r = explore(game_of(str(DECK52), 2))
    assert r.finished and r.proof and r.complete_games == 52 * 51 * 5
    shuffled = DECK52.read_text(encoding="utf-8").replace(
        "setup\n  for each p in players\n    draw 1 from stock to hand(p)",
        "setup\n  shuffle stock\n  for each p in players\n    move 1 from stock to hand(p)")
    rules, found = _rules(shuffled, "shuffled.rules")
    stopped = explore(Game(rules, 2))
    assert not stopped.finished and stopped.states == 1
    assert stopped.stopped_because.startswith("a chance event has 80,658,175,170,943,878,571,660,636,856,403,766,975")


def test_random_play_deals_every_card_alike_through_the_play_out_and_step_by_step():
    game = _game("draw 1 from pile to hand(player(1))")
    dealt = {}
    for i in range(500):
        p = play_random(game, game_rng(5, i), i)
        [[actor, k]] = p.actions
        assert actor == CHANCE
        dealt[k] = dealt.get(k, 0) + 1
    assert sorted(dealt) == [0, 1, 2, 3, 4] and min(dealt.values()) > 60


# ---------------------------------------------------------------- reading, narration, views

def test_reading_in_both_languages():
    rules, _ = _rules(PILE.format(draw="draw 2 from pile to hand(player(1)) at bottom", extra=""))
    [play] = [f for f in rules.of(S.Flow) if f.name == "play"]
    assert plain(Voice(rules, "en").stmt(play.body[0]).runs) == \
        "Draw 2 at random from pile to the player in seat 1's hand at the bottom."
    assert plain(Voice(rules, "ja").stmt(play.body[0]).runs) == "pileから無作為に2枚引き、席1のプレイヤーのhandの一番下に移す。"


def test_narration_names_the_cards_only_to_the_seat_that_sees_them():
    game = game_of(str(LEDUC_DRAW), 2)
    s = game.new_initial_state(log=True)
    game.apply(s, 0)        # P1 draws the first card left (a J)
    game.apply(s, 4)        # P2 draws the last card left (a K)
    assert Narrator(game, "en").tell(s.log)[:2] == ["   draw J from deck to P1's hand", "   draw K from deck to P2's hand"]
    assert Narrator(game, "ja").tell(s.log)[0] == "   山札からJを引いてP1の手札へ"
    at = {name: z for z, name in enumerate(game.zone_names)}
    told = [V.told(Words(game, "en"), s, seat, lambda i, seat=seat: V.visible_pieces(game, s, seat) | V.seen_in(game, s.log, seat, at))[:2]
            for seat in (0, 1)]
    # the table's words: the reader's own hand is "your hand"
    assert told[0][0] == "   J drawn from deck to your hand" and "J" not in told[1][0]
    assert told[1][1] == "   K drawn from deck to your hand" and "K" not in told[0][1]
    assert told[1][0] == "   a hidden card drawn from deck to P1's hand"


def test_the_ghost_variation_draws_a_card_unseen_from_the_neighbours_hand():
    assert "shuffle hand" not in GHOST.read_text(encoding="utf-8")
    game = game_of(str(GHOST), 4)           # two jokers with four players
    hand = game.zones["hand"]
    for i in range(200):
        s = game.new_initial_state(log=True)
        rng = game_rng(3, i)
        while not s.is_terminal():
            if game.is_chance(s):
                before = [list(s.zones[z]) for z in hand]
                game.apply(s, rng.randrange(game.chance_outcomes(s)))
                drawn = [ev for ev in s.log if ev["event"] == "draw"]
                if drawn:
                    # P1 draws first, from P2's hand (the next player): one card fewer there
                    [card] = drawn[0]["pieces"]
                    assert drawn[0]["from"] == "hand(2)" and drawn[0]["to"] == "scored(1)"
                    assert card in before[1] and s.zones[hand[1]] == [p for p in before[1] if p != card]
                    return
                continue
            p, moves = game.decision(s)
            game.apply(s, rng.choice(moves), p)
    pytest.fail("no joker was turned up as the vote in 200 games")


def test_cli_explore_json_of_leduc_with_draws():
    out = CliRunner().invoke(main, ["explore", str(LEDUC_DRAW), "-p", "2", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["complete_games"] == 5_520


def test_a_draw_into_nobody_is_a_dead_end_at_the_draw_before_any_piece_moves():
    game = _game("draw 1 from pile to spot", "variable spot = nobody\n")
    s = game.new_initial_state()
    assert s.is_terminal() and (s.dead_end.kind, s.dead_end.line) == ("evaluation failed", 19)
    assert s.dead_end.message == "a draw takes pieces into a zone, and nobody is not one"
    assert len(s.zones[game.zone_names.index("pile")]) == 5
