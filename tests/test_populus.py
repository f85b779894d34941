"""Populus draft 5 (games/populus.rules) against the seed /work/shared/seeds/populus-draft5.txt,
the rules from "■ 概要" on.

Facts used here:
- 15 area tiles, each named by two numbers of 1-5 (low first) and made of 7 spaces;
  9, 12 or 15 of them make the world with 3, 4 or 5 players;
- each player has genesis cards 1-5 and one almighty card; one almighty card has the S
  mark and its holder starts; with fewer than 5 players the unmarked extras are removed;
- lowering a 4 and a 2 makes 2-4 the genesis area (the seed's example);
- workers go on empty spaces only; unsuitable terrain costs 1 food (blessing excepted);
- war: when every space of the area is taken and several players' workers are there;
  each food enlists a worker (1) or a house (2), plus one die; the single strongest wins
  VP for every area; with a tie everyone loses; a loser returns a piece and gains 2 FP;
- VP + FP of 60 ends the game after the round; then the most workers placed breaks ties.
"""
from __future__ import annotations

import random

import pytest

from _util import GAMES, assert_conserved, game_of, pieces_in, step_random
from test_dream_duels import random_games

POPULUS = GAMES / "populus.rules"
WORLD = {3: 9, 4: 12, 5: 15}
UNSUITABLE = 3          # the provisional parameter unsuitable_spaces


def pop(n):
    return game_of(str(POPULUS), n)


def first_turn(n, seed=0):
    """The state at the start player's first decision (setup's chances and grace picks random)."""
    g = pop(n)
    s = g.new_initial_state()
    rng = random.Random(seed)
    while s.is_chance() or "area_selection" not in g.owner[s.ip] and g.owner[s.ip] != "take_turn":
        step_random(s, rng.randrange)
    return g, s


def var(s, g, name):
    return s.vars[g.var_slots[name]]


def pvar(s, g, name, seat):
    return s.pvars[g.pvar_slots[name]][seat - 1]


def genesis_card(g, s, seat, number):
    for c in pieces_in(s, g, f"book({seat})"):
        if g.piece_attrs[c].get("number") == number:
            return c
    raise AssertionError(f"P{seat} has no {number}")


def space(g, low, high, index):
    for i, a in enumerate(g.piece_attrs):
        if g.kind_of[i] == "space" and (a["low"], a["high"], a["index"]) == (low, high, index):
            return i
    raise AssertionError("no such space")


def spot(g, sp):
    return g.zone_names.index(f"spot(#{sp})")


def put(s, g, piece, zone_index):
    src = s.zones[s.loc[piece]]
    piece = src.pop(src.index(piece))           # the engine's own piece value, not a plain int
    s.zones[zone_index].append(piece)
    s.loc[piece] = zone_index
    s.memo.clear()


@pytest.mark.parametrize("n", [3, 4, 5])
def test_world_genesis_cards_and_start_player(n):
    g, s = first_turn(n)
    tiles = [g.piece_attrs[t] for t in pieces_in(s, g, "world")]
    assert len(tiles) == WORLD[n]
    assert len({(t["low"], t["high"]) for t in tiles}) == WORLD[n]
    all_tiles = {(a["low"], a["high"]) for i, a in enumerate(g.piece_attrs) if g.kind_of[i] == "tile"}
    assert all_tiles == {(a, b) for a in range(1, 6) for b in range(a, 6)}
    assert g.kind_of.count("space") == 15 * 7
    assert g.kind_of.count("worker") == 16 * n and g.kind_of.count("house") == 6 * n
    marked = [i for i, a in enumerate(g.piece_attrs) if g.kind_of[i] == "genesis" and "mark" in a]
    assert len(marked) == n                                   # one almighty card per player
    for seat in range(1, n + 1):
        book = [g.piece_attrs[c] for c in pieces_in(s, g, f"book({seat})")]
        assert sorted(a["number"] for a in book if "number" in a) == [1, 2, 3, 4, 5]
        assert sum(1 for a in book if "mark" in a) == 1
        assert len(pieces_in(s, g, f"grace_hand({seat})")) == 3
        assert pvar(s, g, "fp", seat) == 10 and pvar(s, g, "vp", seat) == 0
    s_holder = next(i for i in marked if g.piece_attrs[i]["mark"] == "S")
    start = int(var(s, g, "start_player"))
    assert s_holder in pieces_in(s, g, f"book({start + 1})")
    assert s.current_actors() == [start]
    assert_conserved(s, g)


def test_lowering_four_and_two_makes_two_four_the_genesis_area():
    g, s = first_turn(5)
    seat = int(var(s, g, "start_player")) + 1
    four, two = genesis_card(g, s, seat, 4), genesis_card(g, s, seat, 2)
    assert ("two_numbers", four, two) not in s.legal_moves(seat - 1)      # low first
    s.apply(("two_numbers", two, four), seat - 1)
    assert (var(s, g, "area_low"), var(s, g, "area_high")) == (2, 4)
    assert sorted(pieces_in(s, g, f"lowered({seat})")) == sorted([two, four])


def _blessing_or_labour(g, s, seat, number):
    s.apply(("two_numbers", genesis_card(g, s, seat, 2), genesis_card(g, s, seat, 4)), seat - 1)
    s.apply(("numbered", genesis_card(g, s, seat, number)), seat - 1)


def test_workers_go_on_empty_spaces_and_unsuitable_terrain_costs_food():
    g, s = first_turn(5)
    seat = int(var(s, g, "start_player")) + 1
    other = seat % 5 + 1
    put(s, g, pieces_in(s, g, f"workers({other})")[0], spot(g, space(g, 2, 4, 7)))
    _blessing_or_labour(g, s, seat, 5)                      # labour: one worker, food costs apply
    places = {m[1] for m in s.legal_moves(seat - 1) if m[0] == "place"}
    assert places == {space(g, 2, 4, k) for k in range(1, 7)}          # the taken space is not offered
    food = pvar(s, g, "food", seat)
    s.apply(("place", space(g, 2, 4, 1)), seat - 1)                    # unsuitable: 1 food
    assert pvar(s, g, "food", seat) == food - 1 + 1          # labour then gives 1 food per worker there
    assert pvar(s, g, "fp", seat) == 10 + 1


def test_blessing_places_two_without_food():
    g, s = first_turn(5)
    seat = int(var(s, g, "start_player")) + 1
    _blessing_or_labour(g, s, seat, 1)
    food = pvar(s, g, "food", seat)
    s.apply(("place", space(g, 2, 4, 1)), seat - 1)
    s.apply(("place", space(g, 2, 4, 2)), seat - 1)
    assert pvar(s, g, "food", seat) == food
    on_area = [x for k in range(1, 8) for x in s.zones[spot(g, space(g, 2, 4, k))]]
    assert len(on_area) == 2 and all(g.piece_owner[x] == seat - 1 for x in on_area)


def _war(dice, bids):
    """Area 2-4 holds three workers of the start player (A) and three of the next (B); A
    places the seventh with labour, so war breaks out. `bids` lists who enlists a worker in
    turn ('A', 'B'), then both stop; `dice` are the faces (A's, B's)."""
    g, s = first_turn(5, seed=1)
    a = int(var(s, g, "start_player")) + 1
    b = a % 5 + 1
    for k, seat in zip(range(1, 7), [a, a, a, b, b, b]):
        put(s, g, pieces_in(s, g, f"workers({seat})")[-1], spot(g, space(g, 2, 4, k)))
    _blessing_or_labour(g, s, a, 5)
    s.apply(("place", space(g, 2, 4, 7)), a - 1)
    seats = {"A": a, "B": b}
    for who in bids:
        for seat in sorted((a, b)):
            move = ("enlist_worker",) if seats[who] == seat else ("enough",)
            s.apply(move, seat - 1)
    for seat in sorted((a, b)):
        s.apply(("enough",), seat - 1)
    for seat in sorted((a, b)):                             # dice are rolled in seat order
        assert s.is_chance()
        s.apply((dice[0] if seat == a else dice[1]) - 1)
    return g, s, a, b


def test_war_single_strongest_wins_vp_and_the_loser_returns_a_piece():
    g, s, a, b = _war(dice=(4, 3), bids=["A"])              # A: 1 + 4 = 5, B: 0 + 3 = 3
    assert s.current_actors() == [b - 1]                    # B, the loser, picks a piece to return
    fp_b = pvar(s, g, "fp", b)
    s.apply(s.legal_moves(b - 1)[0], b - 1)
    assert pvar(s, g, "fp", b) == fp_b + 2
    assert len(pieces_in(s, g, f"workers({b})")) == 16 - 3 + 1
    assert pvar(s, g, "vp", a) == 1                         # a worker in one area: 1 VP
    assert_conserved(s, g)


def test_war_tie_makes_everyone_a_loser():
    g, s, a, b = _war(dice=(3, 4), bids=["A"])              # 1 + 3 = 0 + 4
    losers = []
    for _ in range(2):                                      # each loser returns a piece
        p = s.current_actors()[0]
        assert all(g.piece_owner[m[1]] == p for m in s.legal_moves(p))
        losers.append(p + 1)
        s.apply(s.legal_moves(p)[0], p)
    assert sorted(losers) == sorted([a, b])
    assert pvar(s, g, "fp", a) == 10 + 4 + 2 and pvar(s, g, "fp", b) == 10 + 2     # A laboured with 4 workers
    assert pvar(s, g, "vp", a) == 0 and pvar(s, g, "vp", b) == 0


def test_zone_per_piece_lookup_rejects_other_pieces():
    g, s = first_turn(3)
    from dsl.language.parser import parse_text
    from dsl.engine import Game
    rules, _ = parse_text("""game t
  players 2 to 2
zone box is supply, shared
zone spot is space, per cell
token cell
  count 2
  in box
token stone
  count 1
  in box
play
  move first(x in box where x.kind = "stone") to spot(first(x in box where x.kind = "stone"))
  end game
""", "t.rules")
    st = Game(rules, 2).new_initial_state()
    assert st.dead_end is not None and st.dead_end.message == "'spot' is kept per cell, and piece #2 is not one"


@pytest.mark.parametrize("n", [3, 5])
def test_random_games_end_by_the_rules(n):
    g = pop(n)
    finished = 0
    for s in random_games(g, n, 6, log=True):
        for sp in (i for i, k in enumerate(g.kind_of) if k == "space"):
            assert len(s.zones[spot(g, sp)]) <= 1               # one piece per space
        if s.outcome is not None:
            totals = [pvar(s, g, "vp", k) + pvar(s, g, "fp", k) for k in range(1, n + 1)]
            assert max(totals) >= 60
            best = max(totals)
            assert all(totals[int(w)] == best for w in s.outcome)
            turns = [e["player"] for e in s.log if e["event"] == "choose" and e["move"][0] in
                     ("two_numbers", "with_almighty")]
            assert len(turns) % n == 0 and all(turns.count(k) == len(turns) // n for k in range(n))
            finished += 1
    assert finished > 0


def test_checker_names_a_zone_kept_per_something_that_is_not_a_component():
    from dsl.language.checker import check
    from dsl.language.parser import parse_text
    rules, _ = parse_text("""game t
  players 2 to 2
zone box is supply, shared
zone spot is space, per cel
token cell
  count 2
  in box
play
  move 1 from box to spot(first(box))
  end game
""", "t.rules")
    errors = [d for d in check(rules) if d.severity == "error"]
    assert [d.message for d in errors] == ["zone 'spot' is kept per 'cel', which is not a component"]
    assert "cell" in errors[0].hint
