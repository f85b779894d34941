"""Byzantine (games/byzantine.rules) against the seed /work/shared/seeds/byzantine.md and
the version 2.0 card values of /work/shared/seeds/README.md.

The seed's worked examples (参考プレイ):
- the parent leads a 1 and the others follow in colour: under a highest-wins governor the
  red 7 wins;
- with yellow as the governor's trump, a player holding no red plays the yellow 1 and wins;
- two players stake instead of playing; at the end the most staked scores 5, the second 3.
"""
from __future__ import annotations

import random
import sys

import pytest

from _util import GAMES, assert_conserved, game_of, pieces_in, step_random
from test_democracy import shuffle_outcome

BYZANTINE = GAMES / "byzantine.rules"
V1 = GAMES.parent / "variants" / "byzantine-cards-v1.rules"
MONOPOLY = {2: 5, 3: 4, 4: 3}


def byz(n):
    return game_of(str(BYZANTINE), n)


def card(g, suit, number):
    for i, a in enumerate(g.piece_attrs):
        if a.get("suit") == suit and a.get("number") == number:
            return i
    raise AssertionError(f"no card {suit} {number}")


def rock_paper_scissors(s, throws: dict):
    """One round of the seed's じゃんけん: seat -> 'rock', 'scissors' or 'paper'."""
    for actor in s.current_actors():
        s.apply((throws[int(actor) + 1],), actor)


def arranged(n, hands: dict, governor: int, parent: int = 1):
    """The first decision of a game whose deal gave these cards (seat -> ids) and governor,
    after a rock-paper-scissors the seat `parent` wins at once (rock against scissors)."""
    g = byz(n)
    s = g.new_initial_state()
    rock_paper_scissors(s, {seat: "rock" if seat == parent else "scissors" for seat in range(1, n + 1)})
    used = {governor} | {c for cs in hands.values() for c in cs}
    filler = [p for p in range(32) if p not in used]
    blocks = []
    for seat in range(1, n + 1):
        want = list(hands.get(seat, []))
        while len(want) < 7:
            want.append(filler.pop())
        blocks.append(want)
    desired = filler + [governor] + [c for b in reversed(blocks) for c in b]
    draw = g.zone_names.index("draw")
    s.apply(shuffle_outcome([int(p) for p in s.zones[draw]], desired))
    assert pieces_in(s, g, "governor") == [governor]
    for seat in range(1, n + 1):
        assert sorted(pieces_in(s, g, f"hand({seat})")) == sorted(blocks[seat - 1])
    return g, s


def play(s, seat, move):
    assert tuple(move) in [tuple(m) for m in s.legal_moves(seat - 1)], f"P{seat} cannot {move}"
    s.apply(tuple(move), seat - 1)


def test_deck_has_the_version_2_values():
    g = byz(4)
    assert g.kind_of.count("card") == 32 and g.kind_of.count("stake_token") == 4 * 10
    red7 = g.piece_attrs[card(g, "red", 7)]
    assert (red7["points"], red7["stake"], red7["vote"]) == (2, 2, "S") and "trump" not in red7
    assert g.piece_attrs[card(g, "green", 7)]["trump"] == "blue"
    assert "stake" not in g.piece_attrs[card(g, "blue", 1)]
    assert g.piece_attrs[card(g, "yellow", 8)]["vote"] == "S"


def test_version_1_variant_changes_exactly_the_listed_cards():
    from dsl.engine import Game
    from dsl.loader import load
    v1 = Game(load(str(V1))[0], 3)
    v2 = byz(3)
    changed = {(a["suit"], a["number"]) for a, b in zip(v1.piece_attrs, v2.piece_attrs) if a != b}
    assert changed == {("blue", 1), ("blue", 2), ("blue", 3), ("blue", 4), ("blue", 6), ("blue", 7),
                       ("yellow", 7), ("yellow", 8)}
    assert v1.piece_attrs[card(v1, "blue", 1)]["stake"] == 2
    assert "stake" not in v1.piece_attrs[card(v1, "blue", 3)]
    assert v1.piece_attrs[card(v1, "yellow", 8)]["vote"] == "Q"


def test_example_red_seven_wins_and_becomes_the_governor():
    n = 3
    probe = byz(n)
    gov = card(probe, "blue", 6)                    # 1 point, no staking, S, no trump
    r1, r7, r4 = card(probe, "red", 1), card(probe, "red", 7), card(probe, "red", 4)
    g, s = arranged(n, {1: [r1], 2: [r7], 3: [r4]}, gov)
    play(s, 1, ("choose", r1))
    play(s, 2, ("vote", r7))
    play(s, 3, ("vote", r4))
    assert pieces_in(s, g, "won(2)") == [gov]       # the winner takes the governor
    assert pieces_in(s, g, "governor") == [r7]      # the winning card is the next governor
    assert s.current_actors() == [1]                # and the winner proposes next
    assert_conserved(s, g)
    play(s, 2, s.legal_moves(1)[0])
    assert s.current_actors() == [2]                # voting goes on from the parent's left
    play(s, 3, s.legal_moves(2)[0])
    assert s.current_actors() == [0]


def test_must_follow_and_trump_only_when_void():
    n = 3
    probe = byz(n)
    gov = card(probe, "green", 4)                   # S with yellow as trump
    r3, r8, y1, y2 = (card(probe, c, k) for c, k in (("red", 3), ("red", 8), ("yellow", 1), ("yellow", 2)))
    blue = [card(probe, "blue", k) for k in range(1, 7)]
    g, s = arranged(n, {1: [r3], 2: [y1] + blue, 3: [r8, y2]}, gov)
    play(s, 1, ("choose", r3))
    moves = s.legal_moves(1)                        # P2 holds no red: any card, trump included
    assert ("vote", y1) in moves and ("vote", blue[0]) in moves
    play(s, 2, ("vote", y1))
    assert ("vote", y2) not in s.legal_moves(2)     # P3 holds red: must follow
    play(s, 3, ("vote", r8))
    assert pieces_in(s, g, "governor") == [y1]      # the yellow 1 wins as the only trump
    assert pieces_in(s, g, "won(2)") == [gov]


def test_off_colour_card_loses_whatever_its_number():
    n = 3
    probe = byz(n)
    gov = card(probe, "blue", 2)                    # S, no trump
    r1, r2, b8 = card(probe, "red", 1), card(probe, "red", 2), card(probe, "blue", 8)
    green = [card(probe, "green", k) for k in range(1, 7)]
    g, s = arranged(n, {1: [r1], 2: [b8] + green, 3: [r2]}, gov)
    play(s, 1, ("choose", r1))
    play(s, 2, ("vote", b8))
    play(s, 3, ("vote", r2))
    assert pieces_in(s, g, "governor") == [r2]


@pytest.mark.parametrize("vote_card, winner", [(("red", 2), "second"), (("blue", 5), "lowest")])
def test_ranked_and_quadratic_voting(vote_card, winner):
    n = 3
    probe = byz(n)
    gov = card(probe, *vote_card)                   # red 2: R; blue 5: Q
    lead, mid, high = card(probe, "green", 3), card(probe, "green", 5), card(probe, "green", 8)
    g, s = arranged(n, {1: [mid], 2: [high], 3: [lead]}, gov)
    play(s, 1, ("choose", mid))
    play(s, 2, ("vote", high))
    play(s, 3, ("vote", lead))
    assert pieces_in(s, g, "governor") == [mid if winner == "second" else lead]


def test_a_lone_trump_wins_whatever_the_voting_rule(tmp_path, monkeypatch):
    """「この切り札のカードは他のカードよりも強い」: no version 2.0 card joins a trump to Ranked
    Choice, so the red 2 (R) is given yellow as its trump; the one trump played beats the red
    cards though the voting rule would pick a second card."""
    text = BYZANTINE.read_text(encoding="utf-8")
    row = "    | red    | 2      | 1      | -     | R    | -      |"
    assert row in text
    path = tmp_path / "byzantine.rules"
    path.write_text(text.replace(row, row[:-9] + "yellow |"), encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "BYZANTINE", path)
    n = 3
    probe = byz(n)
    gov = card(probe, "red", 2)
    assert probe.piece_attrs[gov]["trump"] == "yellow" and probe.piece_attrs[gov]["vote"] == "R"
    r3, r8, y1 = card(probe, "red", 3), card(probe, "red", 8), card(probe, "yellow", 1)
    blue = [card(probe, "blue", k) for k in range(1, 7)]
    g, s = arranged(n, {1: [r3], 2: [y1] + blue, 3: [r8]}, gov)
    play(s, 1, ("choose", r3))
    play(s, 2, ("vote", y1))
    play(s, 3, ("vote", r8))
    assert s.dead_end is None
    assert pieces_in(s, g, "governor") == [y1]
    assert pieces_in(s, g, "won(2)") == [gov]


def test_ranked_voting_with_one_card_is_left_open():
    n = 2
    probe = byz(n)
    gov = card(probe, "red", 5)                     # R, stake 1
    g, s = arranged(n, {}, gov)
    play(s, 1, ("choose", pieces_in(s, g, "hand(1)")[0]))
    play(s, 2, ("stake",))
    assert s.dead_end is not None and s.dead_end.rule == "settle_trick"
    assert s.dead_end.kind == "no case applies"


def test_example_staking_two_tokens_each():
    n = 3
    probe = byz(n)
    gov = card(probe, "red", 7)                     # stake 2
    b3 = card(probe, "blue", 3)
    g, s = arranged(n, {1: [b3]}, gov)
    play(s, 1, ("choose", b3))
    play(s, 2, ("stake",))
    play(s, 3, ("stake",))
    for seat in (2, 3):
        assert len(pieces_in(s, g, f"staked({seat})")) == 2
        assert len(pieces_in(s, g, f"hand({seat})")) == 7     # staking keeps the cards
    assert pieces_in(s, g, "won(1)") == [gov]       # the only card played wins under S


def test_no_staking_under_a_dash_governor():
    n = 2
    probe = byz(n)
    gov = card(probe, "red", 1)                     # stake "-"
    g, s = arranged(n, {}, gov)
    play(s, 1, ("choose", pieces_in(s, g, "hand(1)")[0]))
    assert all(m[0] == "vote" for m in s.legal_moves(1))


def _stake_points(counts):
    ranked = sorted({c for c in counts.values() if c > 0}, reverse=True)
    pts = {p: 0 for p in counts}
    for p, c in counts.items():
        if ranked and c == ranked[0]:
            pts[p] = 5
        elif len(ranked) > 1 and c == ranked[1]:
            pts[p] = 3
    return pts


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_score_staking_ranks_and_monopoly(n):
    g = byz(n)
    rng = random.Random(n)
    finished = 0
    for _ in range(40):
        s = g.new_initial_state()
        while not s.is_terminal():
            step_random(s, rng.randrange)
            for p in range(n):
                if len(pieces_in(s, g, f"won({p + 1})")) >= MONOPOLY[n]:
                    assert not s.alive[p]
        assert_conserved(s, g)
        if s.outcome is None:
            continue
        finished += 1
        alive = [p for p in range(n) if s.alive[p]]
        counts = {p: len(pieces_in(s, g, f"staked({p + 1})")) for p in alive}
        pts = _stake_points(counts)
        stake = s.pvars[g.pvar_slots["stake_points"]]
        assert [stake[p] for p in alive] == [pts[p] for p in alive]
        final = {p: sum(g.piece_attrs[c]["points"] for c in pieces_in(s, g, f"won({p + 1})")) + pts[p]
                 - len(pieces_in(s, g, f"hand({p + 1})")) for p in alive}
        best = max(final.values())
        assert [int(w) for w in s.outcome] == [p for p in alive if final[p] == best]
        assert any(not pieces_in(s, g, f"hand({p + 1})") for p in alive)
    assert finished > 0


LAST_ONE = GAMES.parent / "variants" / "byzantine-last-player-wins.rules"


def test_one_player_left_is_left_open_and_the_variant_lets_them_win():
    """After a monopoly leaves one player, nobody plays a trick alone: the seed stops there.

    With 2 players every monopoly leaves one; the base file stops at `enough_players`, the
    last-player variant ends the game with that player as the winner.
    """
    base, variant = byz(2), game_of(str(LAST_ONE), 2)
    stopped = won = 0
    for seed in range(60):
        for g in (base, variant):
            rng = random.Random(seed)
            s = g.new_initial_state()
            while not s.is_terminal():
                step_random(s, rng.randrange)
            if sum(s.alive) != 1:
                continue
            if g is base:
                if s.outcome is not None:       # the monopoly came in the last trick: no lone play
                    assert any(not pieces_in(s, g, f"hand({p + 1})") for p in range(2) if s.alive[p])
                    continue
                assert s.dead_end.rule == "enough_players"
                stopped += 1
            else:
                assert [int(w) for w in s.outcome] == [s.alive.index(True)]
                won += 1
    assert stopped > 0 and won > 0


def test_rock_paper_scissors_decides_the_parent():
    """「じゃんけんで親を決める」: all three shapes is a draw and is thrown again; two shapes
    drop the beaten throwers; the last one in is the parent and makes the proposal."""
    g = byz(4)
    s = g.new_initial_state()
    rock_paper_scissors(s, {1: "rock", 2: "scissors", 3: "paper", 4: "rock"})
    assert sorted(int(p) + 1 for p in s.current_actors()) == [1, 2, 3, 4]     # a draw
    rock_paper_scissors(s, {1: "scissors", 2: "rock", 3: "scissors", 4: "rock"})
    assert sorted(int(p) + 1 for p in s.current_actors()) == [2, 4]           # 1 and 3 are out
    rock_paper_scissors(s, {2: "paper", 4: "paper"})
    assert sorted(int(p) + 1 for p in s.current_actors()) == [2, 4]           # a draw again
    rock_paper_scissors(s, {2: "paper", 4: "scissors"})
    assert s.is_chance()                                                       # the deal
    s.apply(0)
    assert [int(p) + 1 for p in s.current_actors()] == [4]                     # seat 4 proposes
    assert all(m[0] != "rock" for m in s.legal_moves(s.current_actors()[0]))
