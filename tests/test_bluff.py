"""Bluff (games/bluff.rules) against the seed, /work/shared/seeds/bluff.md.

Facts used here, all from the seed (and the shared README's modelling choice):
- every player starts with 5 six-sided dice; 6 is wild (counts as any face 1-5);
- a bid "n の目が m つ" names a face 1-5 and a count 1..(dice in play);
- a raise must increase the face, the count, or both, and never decrease either;
- on "ブラフ": more matching dice than the bid -> the challenger loses the difference,
  fewer -> the bidder loses the difference; exactly equal is left open (a dead end of
  the rule resolve_challenge);
- a player without dice is out; the last player with dice wins.
"""
from __future__ import annotations

import itertools

import pytest

from _util import BLUFF, assert_conserved, bluff, dice_outcome, line_of, pieces_in, rules_text

from dsl.engine import CHANCE

START = 5
NO_MATCH_FOR_3 = [1, 2, 4, 5, 1]         # no 3 and no 6: counts 0 for a bid on face 3


def cup_size(s, g, seat):
    return len(pieces_in(s, g, f"cup({seat})"))


def faces_of(s, g, seat):
    return [s.face[p] for p in pieces_in(s, g, f"cup({seat})")]


def roll_round(s, g, faces_by_seat: dict):
    """Answer the roll chance nodes of one round: the alive players' cups, in seat order.

    Checks that each cup ends up showing exactly the requested faces, so the chance
    encoding (little-endian, base 6, die i in zone order) is tested at the same time.
    """
    alive_seats = [i + 1 for i in range(g.n) if s.alive[i]]
    for seat in alive_seats:
        assert s.is_chance(), f"expected the roll of cup({seat})"
        assert s.current_actors() == [CHANCE]
        faces = faces_by_seat[seat]
        assert len(faces) == cup_size(s, g, seat)
        assert s.chance_outcomes() == 6 ** len(faces)
        s.apply(dice_outcome(faces))
        assert faces_of(s, g, seat) == list(faces)
    assert not s.is_chance()
    assert_conserved(s, g)


def default_faces(g, s, **override):
    """Faces with no 3s and no 6s for every alive cup, unless overridden (seat -> faces)."""
    out = {}
    for i in range(g.n):
        if s.alive[i]:
            k = cup_size(s, g, i + 1)
            out[i + 1] = (NO_MATCH_FOR_3 * 2)[:k]
    for seat, faces in override.items():
        out[int(seat)] = faces
    return out


def fresh(n):
    g = bluff(n)
    s = g.new_initial_state(log=False)
    return g, s


def matching(faces_by_seat, face):
    return sum(1 for fs in faces_by_seat.values() for f in fs if f == face or f == 6)


# ----------------------------------------------------------------- set-up

@pytest.mark.parametrize("n", range(2, 7))
def test_setup_five_dice_each_and_player_one_rolls_first(n):
    g, s = fresh(n)
    assert_conserved(s, g)
    for seat in range(1, n + 1):
        assert cup_size(s, g, seat) == START
    assert pieces_in(s, g, "supply") == [] and pieces_in(s, g, "lost") == []
    assert s.is_chance() and not s.is_terminal()
    roll_round(s, g, default_faces(g, s))
    assert s.current_actors() == [0]           # seat 1 is the parent (open question first_player)


@pytest.mark.parametrize("n", [1, 7])
def test_player_counts_outside_2_to_6_are_rejected_by_the_cli(n):
    from click.testing import CliRunner
    from dsl.cli import main
    r = CliRunner().invoke(main, ["simulate", str(BLUFF), "--players", str(n), "-n", "1"])
    assert r.exit_code == 2
    assert "2" in r.output and "6" in r.output


# ----------------------------------------------------------------- challenge resolution

@pytest.mark.parametrize("n", [2, 3, 6])
def test_more_than_bid_challenger_loses_the_difference(n):
    """Seed example: bid "3の目が4つ", six dice count as 3 -> the challenger loses 2."""
    g, s = fresh(n)
    faces = default_faces(g, s, **{"1": [3, 3, 3, 6, 6], "2": [3, 1, 1, 1, 1]})
    assert matching(faces, 3) == 6
    roll_round(s, g, faces)
    s.apply(("choose", 3, 4), 0)               # P1 opens: 3の目が4つ
    assert s.current_actors() == [1]
    assert ("call_bluff",) in s.legal_moves(1)
    s.apply(("call_bluff",), 1)                # P2: ブラフ!
    assert s.dead_end is None and s.outcome is None
    assert cup_size(s, g, 2) == START - 2      # the challenger lost 6 - 4 = 2
    assert cup_size(s, g, 1) == START
    for seat in range(3, n + 1):
        assert cup_size(s, g, seat) == START
    assert len(pieces_in(s, g, "lost")) == 2
    assert_conserved(s, g)
    assert s.is_chance()                       # next round: everyone rolls again


@pytest.mark.parametrize("n", [2, 3, 6])
def test_fewer_than_bid_bidder_loses_the_difference(n):
    """Seed example: bid "3の目が4つ", only two dice count as 3 -> the bidder loses 2."""
    g, s = fresh(n)
    faces = default_faces(g, s, **{"1": [3, 1, 2, 4, 5], "2": [6, 1, 1, 1, 1]})
    assert matching(faces, 3) == 2
    roll_round(s, g, faces)
    s.apply(("choose", 3, 4), 0)
    s.apply(("call_bluff",), 1)
    assert s.dead_end is None and s.outcome is None
    assert cup_size(s, g, 1) == START - 2      # the bidder lost 4 - 2 = 2
    assert cup_size(s, g, 2) == START
    assert len(pieces_in(s, g, "lost")) == 2
    assert_conserved(s, g)


def test_bidder_is_the_last_raiser_and_challenger_is_whoever_calls():
    """P1 opens, P2 raises to 3の目が4つ, P3 calls: P2 is the bidder, P3 the challenger."""
    g, s = fresh(4)
    faces = default_faces(g, s, **{"4": [3, 3, 6, 6, 6], "1": [3, 1, 1, 1, 1]})
    assert matching(faces, 3) == 6
    roll_round(s, g, faces)
    s.apply(("choose", 2, 1), 0)
    assert s.current_actors() == [1]
    s.apply(("raise", 3, 4), 1)
    assert s.current_actors() == [2]
    s.apply(("call_bluff",), 2)
    sizes = [cup_size(s, g, seat) for seat in range(1, 5)]
    assert sizes == [5, 5, 3, 5]               # P3 (challenger) loses 6 - 4 = 2
    # the challenger is still in, so the challenger opens the next round
    roll_round(s, g, default_faces(g, s))
    assert s.current_actors() == [2]


def test_bidder_loses_after_a_raise():
    g, s = fresh(3)
    faces = default_faces(g, s, **{"3": [3, 5, 5, 5, 5]})
    assert matching(faces, 3) == 1
    roll_round(s, g, faces)
    s.apply(("choose", 1, 2), 0)
    s.apply(("raise", 3, 4), 1)                # P2 bids 3の目が4つ; only one die counts
    s.apply(("call_bluff",), 2)
    assert [cup_size(s, g, seat) for seat in (1, 2, 3)] == [5, 2, 5]


def test_wild_six_counts_for_every_face():
    """Five 6s and nothing else: a bid of five of any face 1-5 is exactly right."""
    for face in range(1, 6):
        g, s = fresh(2)
        others = [f for f in range(1, 6) if f != face]
        faces = {1: [6, 6, 6, 6, 6], 2: others + others[:1]}
        assert matching(faces, face) == 5
        roll_round(s, g, faces)
        s.apply(("choose", face, 4), 0)
        s.apply(("call_bluff",), 1)
        # five count as `face` against a bid of 4: the challenger (P2) loses 1
        assert cup_size(s, g, 2) == START - 1
        assert cup_size(s, g, 1) == START


@pytest.mark.parametrize("n", [2, 3, 5])
def test_exact_count_is_a_dead_end_of_resolve_challenge(n):
    """The seed's problem 1: an exact count is left open, so the game stops there."""
    g, s = fresh(n)
    faces = default_faces(g, s, **{"1": [3, 3, 1, 1, 1], "2": [6, 6, 2, 2, 2]})
    assert matching(faces, 3) == 4
    roll_round(s, g, faces)
    s.apply(("choose", 3, 4), 0)
    s.apply(("call_bluff",), 1)
    assert s.is_terminal()
    assert s.outcome is None
    d = s.dead_end
    assert d is not None
    assert d.kind == "no case applies"
    assert d.rule == "resolve_challenge"
    # the dead end points into the rule resolve_challenge of the rule file
    text = rules_text()
    start = line_of(text, "rule resolve_challenge")
    end = line_of(text, "value dice_in_play", start)
    assert start <= d.line < end
    assert d.column >= 1
    # nobody lost a die, and nothing more can happen
    assert all(cup_size(s, g, seat) == START for seat in range(1, n + 1))
    assert s.legal_moves(0) == [] and s.current_actors() == []
    assert_conserved(s, g)


# ----------------------------------------------------------------- bids

def _legal_raises(s, player):
    return {m[1:] for m in s.legal_moves(player) if m[0] == "raise"}


@pytest.mark.parametrize("n", [2, 4])
def test_raises_follow_the_partial_order(n):
    g, s = fresh(n)
    roll_round(s, g, default_faces(g, s))
    dice = START * n
    s.apply(("choose", 3, 4), 0)
    moves = s.legal_moves(1)
    assert ("raise", 2, 5) not in moves        # face went down
    assert ("raise", 3, 4) not in moves        # nothing increased
    assert ("raise", 3, 3) not in moves
    assert ("raise", 3, 5) in moves            # count up
    assert ("raise", 4, 4) in moves            # face up
    assert ("raise", 5, 9) in moves            # both up, 9 <= dice in play
    assert ("raise", 6, 4) not in moves        # a bid names a face 1-5
    assert ("call_bluff",) in moves
    expected = {(f, c) for f in range(1, 6) for c in range(1, dice + 1)
                if f >= 3 and c >= 4 and (f > 3 or c > 4)}
    assert _legal_raises(s, 1) == expected
    assert set(moves) == {("raise", f, c) for f, c in expected} | {("call_bluff",)}


def test_opening_bid_any_face_1_to_5_and_count_up_to_dice_in_play():
    g, s = fresh(3)
    roll_round(s, g, default_faces(g, s))
    moves = s.legal_moves(0)
    assert set(moves) == {("choose", f, c) for f in range(1, 6) for c in range(1, 16)}
    assert ("call_bluff",) not in moves        # nothing to call yet


def test_bid_count_cannot_exceed_dice_in_play():
    g, s = fresh(2)
    roll_round(s, g, {1: [3, 3, 3, 6, 6], 2: [3, 1, 1, 1, 1]})
    assert ("choose", 3, 10) in s.legal_moves(0)
    assert ("choose", 3, 11) not in s.legal_moves(0)
    s.apply(("choose", 3, 4), 0)
    assert ("raise", 3, 10) in s.legal_moves(1)
    assert ("raise", 3, 11) not in s.legal_moves(1)
    # P2 calls and loses 2 (six dice count as 3): now only 8 dice are in play
    s.apply(("call_bluff",), 1)
    assert cup_size(s, g, 2) == 3
    roll_round(s, g, {1: [1, 1, 1, 1, 1], 2: [2, 2, 2]})
    assert s.current_actors() == [1]           # the challenger opens the next round
    opening = s.legal_moves(1)
    assert max(m[2] for m in opening) == 8
    assert ("choose", 1, 9) not in opening
    s.apply(("choose", 1, 8), 1)
    assert _legal_raises(s, 0) == {(f, 8) for f in range(2, 6)}


def test_highest_bid_leaves_only_the_call():
    g, s = fresh(2)
    roll_round(s, g, default_faces(g, s))
    s.apply(("choose", 5, 10), 0)
    assert s.legal_moves(1) == [("call_bluff",)]


def test_a_chain_of_raises_each_raises_over_the_last():
    g, s = fresh(3)
    roll_round(s, g, default_faces(g, s))
    s.apply(("choose", 1, 1), 0)
    bids = [(1, 2), (2, 2), (2, 5), (5, 5)]
    speakers = itertools.cycle([1, 2, 0])
    last = (1, 1)
    for bid in bids:
        p = next(speakers)
        assert s.current_actors() == [p]
        raises = _legal_raises(s, p)
        assert bid in raises
        assert all(f >= last[0] and c >= last[1] and (f, c) != last for f, c in raises)
        s.apply(("raise", *bid), p)
        last = bid


# ----------------------------------------------------------------- elimination and winning

def test_losing_all_dice_eliminates_and_the_other_player_wins():
    g, s = fresh(2)
    roll_round(s, g, {1: [1, 1, 1, 1, 1], 2: [2, 2, 2, 2, 2]})
    s.apply(("choose", 5, 10), 0)              # no 5 and no 6 anywhere: 0 of 10
    s.apply(("call_bluff",), 1)
    assert cup_size(s, g, 1) == 0              # loses min(10 - 0, 5) = 5: all
    assert s.alive == [False, True]
    assert s.is_terminal() and s.dead_end is None
    assert tuple(int(p) for p in s.outcome) == (1,)
    assert s.returns() == [0.0, 1.0]
    assert_conserved(s, g)


def test_elimination_over_two_rounds():
    g, s = fresh(2)
    # round 1: P1 bids 3の目が4つ, only 1 counts: P1 (bidder) loses 3
    roll_round(s, g, {1: [3, 1, 1, 1, 1], 2: [2, 2, 2, 2, 2]})
    s.apply(("choose", 3, 4), 0)
    s.apply(("call_bluff",), 1)
    assert cup_size(s, g, 1) == 2 and s.alive == [True, True] and not s.is_terminal()
    # round 2: P2 (the challenger) opens; P1 calls; 7 dice count as 4 against 5: P1 loses 2
    roll_round(s, g, {1: [4, 6], 2: [4, 4, 6, 6, 4]})
    assert s.current_actors() == [1]
    s.apply(("choose", 4, 5), 1)
    s.apply(("call_bluff",), 0)
    assert cup_size(s, g, 1) == 0
    assert s.alive == [False, True]
    assert tuple(int(p) for p in s.outcome) == (1,)


def test_elimination_with_three_players_game_goes_on_without_the_loser():
    g, s = fresh(3)
    roll_round(s, g, {1: [1] * 5, 2: [2] * 5, 3: [4] * 5})
    s.apply(("choose", 1, 1), 0)
    s.apply(("raise", 3, 15), 1)               # P2 bids fifteen 3s; none count
    s.apply(("call_bluff",), 2)
    assert cup_size(s, g, 2) == 0
    assert s.alive == [True, False, True]
    assert not s.is_terminal()
    # only the two players still in roll; the challenger P3 opens
    roll_round(s, g, {1: [1] * 5, 3: [4] * 5})
    assert s.current_actors() == [2]
    assert max(m[2] for m in s.legal_moves(2)) == 10
    s.apply(("choose", 2, 3), 2)
    assert s.current_actors() == [0]           # P2 is skipped
    s.apply(("call_bluff",), 0)                # no 2s, no 6s: P3 (bidder) loses 3
    assert [cup_size(s, g, i) for i in (1, 2, 3)] == [5, 0, 2]
    roll_round(s, g, {1: [5] * 5, 3: [5, 5]})
    assert s.current_actors() == [0]           # P1 (the challenger) opens
    s.apply(("choose", 1, 3), 0)
    s.apply(("call_bluff",), 2)                # no 1s: P1 (bidder) loses 3
    assert [cup_size(s, g, i) for i in (1, 2, 3)] == [2, 0, 2]
    roll_round(s, g, {1: [2, 2], 3: [2, 2]})
    assert s.current_actors() == [2]           # P3 (the challenger) opens
    s.apply(("choose", 5, 4), 2)               # no 5s, no 6s: P3 loses min(4, 2) = 2 and is out
    s.apply(("call_bluff",), 0)
    assert s.alive == [True, False, False]
    assert tuple(int(p) for p in s.outcome) == (0,)
    assert_conserved(s, g)


def test_eliminated_challenger_passes_the_opening_to_the_next_player():
    """The challenger loses every die: the next player still in opens the next round."""
    g, s = fresh(3)
    roll_round(s, g, {1: [6] * 5, 2: [6] * 5, 3: [6] * 5})
    s.apply(("choose", 1, 1), 0)
    s.apply(("call_bluff",), 1)                # fifteen count as 1 against 1: P2 loses 14 -> 5
    assert cup_size(s, g, 2) == 0
    assert s.alive == [True, False, True]
    roll_round(s, g, {1: [1] * 5, 3: [1] * 5})
    assert s.current_actors() == [2]           # next_player(P2) = P3


def test_dice_are_hidden_until_the_challenge_reveals_them():
    g, s = fresh(2)
    roll_round(s, g, {1: [3, 3, 3, 6, 6], 2: [3, 1, 1, 1, 1]})
    obs = s.observation(0)["zones"]
    assert all(d is not None for d in obs["cup(1)"])     # one's own dice are seen
    assert all(d is None for d in obs["cup(2)"])         # the others' are not
    obs2 = s.observation(1)["zones"]
    assert all(d is None for d in obs2["cup(1)"]) and all(d is not None for d in obs2["cup(2)"])
    s.apply(("choose", 3, 4), 0)
    s.apply(("call_bluff",), 1)
    # ブラフ: everyone's dice were shown; what is left under P2's cup is known to P1 now
    obs = s.observation(0)["zones"]
    assert [d["face"] for d in obs["cup(2)"]] == faces_of(s, g, 2)
    assert all(d is not None for d in obs["lost"])         # lost dice lie in the open


def test_the_reveal_shows_every_cup_in_the_log():
    g = bluff(3)
    s = g.new_initial_state(log=True)
    faces = {1: [3, 3, 3, 6, 6], 2: [3, 1, 1, 1, 1], 3: [2, 2, 4, 5, 5]}
    roll_round(s, g, faces)
    s.apply(("choose", 3, 4), 0)
    s.apply(("call_bluff",), 1)
    shown = [e for e in s.log if e["event"] == "reveal"]
    assert sorted(sorted(e["shown"]) for e in shown) == sorted(sorted(f) for f in faces.values())


def test_dice_rolled_again_are_hidden_again():
    g, s = fresh(2)
    roll_round(s, g, {1: [3, 3, 3, 6, 6], 2: [3, 1, 1, 1, 1]})
    s.apply(("choose", 3, 4), 0)
    s.apply(("call_bluff",), 1)
    roll_round(s, g, {1: [2, 2, 2, 2, 2], 2: [4, 4, 4]})
    obs = s.observation(0)["zones"]
    assert all(d is None for d in obs["cup(2)"]), obs["cup(2)"]


# ----------------------------------------------------------------- invariants over random games

@pytest.mark.parametrize("n", range(2, 7))
def test_invariants_of_random_games(n):
    import random
    g = bluff(n)
    for seed in range(25):
        rng = random.Random(seed)
        s = g.new_initial_state()
        dice_in_cups = START * n
        while not s.is_terminal():
            if s.is_chance():
                s.apply(rng.randrange(s.chance_outcomes()))
                continue
            sizes = [cup_size(s, g, seat) for seat in range(1, n + 1)]
            # dice only ever leave the cups, and a player is in exactly while holding dice
            assert sum(sizes) <= dice_in_cups
            dice_in_cups = sum(sizes)
            assert len(pieces_in(s, g, "lost")) == START * n - dice_in_cups
            assert s.alive == [k > 0 for k in sizes]
            (actor,) = s.current_actors()
            assert s.alive[actor]
            moves = s.legal_moves(actor)
            bid = s.to_json()["variables"]
            for m in moves:
                if m[0] == "raise":
                    f, c = m[1], m[2]
                    assert 1 <= f <= 5 and 1 <= c <= dice_in_cups
                    assert f >= bid["bid_face"] and c >= bid["bid_count"]
                    assert (f, c) != (bid["bid_face"], bid["bid_count"])
            s.apply(rng.choice(moves), actor)
        if s.outcome is not None:
            (winner,) = s.outcome
            assert [seat - 1 for seat in range(1, n + 1) if cup_size(s, g, seat) > 0] == [int(winner)]
        else:
            assert s.dead_end.rule == "resolve_challenge"
