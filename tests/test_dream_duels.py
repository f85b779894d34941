"""Dream Duels (games/dream-duels.rules) against the seed /work/shared/seeds/dream-duels.md,
with A-E at the placeholders of the seeds README (A=2, B=2, C=1, D=3, E=2).

Facts used here:
- element cards: fire, water, wood × 1-13 × A, and 2 jokers; a joker counts as 25;
- teams of two in seat order here, a solo team when the count is odd; 4 life tokens per
  pair (2 each), 3 for a solo team, and the solo team gets a joker;
- each team gets B cards of each element and C random cards;
- encounters on one space go by ascending sums of the grid cards: sums 2 4 5 7 9 give
  2-4 and 5-7, and 9 waits (the seed's own example);
- a win deals 1, +1 for a facing not at right angles on the same space, +1 bonus for a
  13 against 7-10 (or double, or 2 or less against 11 or more), -1 in the reverse case;
  a joker win is 1; unpaid points cost E cards each, and knocking a member out one more.
"""
from __future__ import annotations

import random

import pytest

from _util import GAMES, assert_conserved, game_of, pieces_in, step_random

DREAM = GAMES / "dream-duels.rules"
E = 2


def dd(n):
    return game_of(str(DREAM), n)


def card(g, element, number, skip=()):
    for i, a in enumerate(g.piece_attrs):
        if g.kind_of[i] == "card" and a.get("element") == element and a.get("number") == number and i not in skip:
            return i
    raise AssertionError(f"no card {element} {number}")


AXES = ("x_axis", "y_axis")


def give(s, g, piece, zone_name, keep=()):
    """Put a piece into a zone, swapping out one of that zone's other cards to keep counts
    (never an axis card, never one in `keep`)."""
    dest = g.zone_names.index(zone_name)
    src = s.loc[piece]
    assert g.zone_names[src] not in AXES, "the axes stay as dealt"
    if src == dest:
        return
    out = next(x for x in reversed(s.zones[dest]) if x not in keep and g.kind_of[x] == "card")
    i, j = s.zones[src].index(piece), s.zones[dest].index(out)
    s.zones[src][i], s.zones[dest][j] = s.zones[dest][j], s.zones[src][i]     # the engine's own values
    s.loc[piece], s.loc[out] = dest, src
    s.memo.clear()


def free_card(g, s, element, number, taken):
    """A card of that element and number that is not on an axis and not taken yet."""
    for i, a in enumerate(g.piece_attrs):
        if g.kind_of[i] == "card" and a.get("element") == element and a.get("number") == number \
                and i not in taken and g.zone_names[s.loc[i]] not in AXES:
            taken.add(i)
            return i
    raise AssertionError(f"no free card {element} {number}")


def landing(n, seed=0):
    """The state at the landing decision (every chance before it settled by `seed`)."""
    g = dd(n)
    s = g.new_initial_state()
    rng = random.Random(seed)
    while s.is_chance():
        s.apply(rng.randrange(s.chance_outcomes()))
    return g, s


def land(s, g, picks: dict):
    """Team k (from 1) puts down (left, right, facing); the cards are put in its hand first."""
    chosen = {c for left, right, _ in picks.values() for c in (left, right)}
    for team, (left, right, facing) in picks.items():
        give(s, g, left, f"hand({team})", chosen)
        give(s, g, right, f"hand({team})", chosen)
    for team, (left, right, facing) in sorted(picks.items()):
        player = int(g.team_members[team - 1][0])
        s.apply(("choose", left, right, facing), player)


def foe(s, g, team):
    f = s.pvars[g.pvar_slots["foe"]][team - 1]
    return None if f is None else int(f) + 1


def test_components_and_hand_out_with_a_solo_team():
    g, s = landing(7)
    elements = [a for i, a in enumerate(g.piece_attrs) if g.kind_of[i] == "card" and "element" in a]
    assert len(elements) == 3 * 13 * 2
    assert sum(1 for i, a in enumerate(g.piece_attrs) if a.get("number") == 25) == 2
    assert [len(m) for m in g.team_members] == [2, 2, 2, 1]
    assert [len(pieces_in(s, g, f"life_of({p})")) for p in range(1, 8)] == [2, 2, 2, 2, 2, 2, 3]
    for t in range(1, 5):
        hand = [g.piece_attrs[c] for c in pieces_in(s, g, f"hand({t})")]
        for e in ("fire", "water", "wood"):
            assert sum(1 for a in hand if a.get("element") == e) >= 2
        assert len(hand) == 3 * 2 + 1 + (1 if t == 4 else 0)
        assert any(a.get("number") == 25 for a in hand) == (t == 4)
    assert_conserved(s, g)


def test_seed_example_encounter_order_by_sums():
    g, s = landing(10)
    taken = set()

    def c(e, k):
        return free_card(g, s, e, k, taken)
    sums = {1: (1, 1), 2: (2, 2), 3: (2, 3), 4: (3, 4), 5: (4, 5)}      # 2 4 5 7 9
    land(s, g, {t: (c("fire", a), c("water", b), 0) for t, (a, b) in sums.items()})
    assert len({(s.pvars[g.pvar_slots["px"]][t], s.pvars[g.pvar_slots["py"]][t]) for t in range(5)}) == 1
    assert [foe(s, g, t) for t in range(1, 6)] == [2, 1, 4, 3, None]
    assert s.pvars[g.pvar_slots["waiting"]][4] == 1


def test_joker_counts_as_twenty_five():
    g, s = landing(6)
    taken = set()

    def c(e, k):
        return free_card(g, s, e, k, taken)
    joker = next(i for i, a in enumerate(g.piece_attrs) if a.get("number") == 25)
    # sums 2, 26 (joker + 1 as the column) and 25: 2 meets 25, the joker team waits
    land(s, g, {1: (c("fire", 1), c("water", 1), 0), 2: (joker, c("water", 1), 0),
                3: (c("fire", 13), c("water", 12), 0)})
    col = s.pvars[g.pvar_slots["px"]][0]
    s.apply(("choose", col), int(g.team_members[1][0]))          # the joker's column
    assert [foe(s, g, t) for t in (1, 2, 3)] == [3, None, 1]


def _two_teams_on_one_space(g, s, facing_b):
    taken = set()

    def c(e, k):
        return free_card(g, s, e, k, taken)
    land(s, g, {1: (c("fire", 5), c("water", 5), 0), 2: (c("fire", 6), c("water", 6), facing_b)})
    assert foe(s, g, 1) == 2
    return c


def _life(s, g, player):
    return len(pieces_in(s, g, f"life_of({player})"))


def test_fire_thirteen_beats_wood_eight_for_three_and_steals():
    g, s = landing(4, seed=3)
    c = _two_teams_on_one_space(g, s, facing_b=2)               # facings 0 and 2: not at right angles
    fire13, wood8 = c("fire", 13), c("wood", 8)
    give(s, g, fire13, "hand(1)")
    give(s, g, wood8, "hand(2)")
    s.apply(("choose", 0), 0)                                   # team 1 sends P1
    s.apply(("choose", 2), 2)                                   # team 2 sends P3
    s.apply(("one", fire13), 0)
    s.apply(("one", wood8), 2)
    # 1 + 1 (same space, not at right angles) + 1 (13 against 7-10) = 3 against 2 life
    assert _life(s, g, 3) == 0 and _life(s, g, 4) == 2
    hand2 = len(pieces_in(s, g, "hand(2)"))
    steals = 0
    while s.current_actors() == [0] and all(m[0] == "choose" and len(m) == 2 for m in s.legal_moves(0)):
        s.apply(s.legal_moves(0)[0], 0)
        steals += 1
        if steals > 10:
            break
    assert steals == 1 + E * 1                                  # knock-out card + E per unpaid point
    assert len(pieces_in(s, g, "hand(2)")) == hand2 - steals
    assert_conserved(s, g)


def _duel(facing_b, card_1, card_2):
    """Teams 1 and 2 land on one space (team 2 facing `facing_b`), send P1 and P3, and play
    these cards, each (element, number) or "joker"."""
    g, s = landing(4, seed=3)
    c = _two_teams_on_one_space(g, s, facing_b)
    joker = next(i for i, a in enumerate(g.piece_attrs) if a.get("number") == 25)
    a, b = (joker if x == "joker" else c(*x) for x in (card_1, card_2))
    give(s, g, a, "hand(1)")
    give(s, g, b, "hand(2)")
    s.apply(("choose", 0), 0)
    s.apply(("choose", 2), 2)
    s.apply(("one", a), 0)
    s.apply(("one", b), 2)
    return g, s


def test_right_angles_lose_the_facing_point_and_a_penalty_applies():
    g, s = _duel(1, ("water", 2), ("fire", 11))           # facings 0 and 1: at right angles
    # water beats fire: 1 + 0 (right angles) + 1 (2 or less against 11 or more)
    # - 1 (the reverse of the double bonus: 11 is at least twice 2) = 1
    assert _life(s, g, 3) == 1 and _life(s, g, 1) == 2


def test_joker_wins_for_one_point():
    g, s = _duel(2, "joker", ("fire", 13))
    assert _life(s, g, 3) == 1


def random_games(g, seed, count, log=False):
    """Finished random games (ended, or stuck in a dead end), every piece accounted for."""
    rng = random.Random(seed)
    for _ in range(count):
        s = g.new_initial_state(log=log)
        while not g.stuck(s):
            step_random(s, rng.randrange)
        assert_conserved(s, g)
        yield s


@pytest.mark.parametrize("n", [6, 7])
def test_random_games_keep_teams_and_pieces_consistent(n):
    g = dd(n)
    for s in random_games(g, n, 15):
        for t, members in enumerate(g.team_members):
            out = all(not s.alive[p] for p in members)
            if any(pieces_in(s, g, f"life_of({int(p) + 1})") for p in members):
                assert not out
            if out:
                assert not pieces_in(s, g, f"grid_cards({t + 1})")
        if s.outcome is not None:
            winners = {int(p) for p in s.outcome}
            assert any(winners == {int(p) for p in m} for m in g.team_members)


# ----------------------------------------------------------------- teams in the language

TEAM_GAME = """game relay
  players 2 to 6
  teams of 2
zone pot is hand, per team, seen by owner
zone box is supply, shared
token chip
  count 3 per player
  in box
counter score per team = 0
play
  for each t in teams
    move 1 from box to pot(t)
  each t in teams simultaneously chooses k from 1 to 2
    add k to score(t)
  eliminate first(players)
  team_of(first(players)) chooses k from 1 to 3
    add k to score(team_of(first(players)))
  end game winners highest(score(t) for t in teams)
"""


def _team_game(n):
    from dsl.language.checker import check
    from dsl.engine import Game
    from dsl.language.parser import parse_text
    rules, diags = parse_text(TEAM_GAME, "relay.rules")
    assert rules is not None and not [d for d in check(rules) if d.severity == "error"]
    return Game(rules, n)


def test_seats_make_teams_and_a_remainder_makes_a_smaller_team():
    g = _team_game(5)
    assert [[int(p) for p in m] for m in g.team_members] == [[0, 1], [2, 3], [4]]
    s = g.new_initial_state()
    assert [len(pieces_in(s, g, f"pot({t})")) for t in (1, 2, 3)] == [1, 1, 1]
    assert s.current_actors() == [0, 2, 4]          # each team decides through its first member


def test_a_team_decides_through_its_first_member_still_in_and_wins_as_a_whole():
    g = _team_game(4)
    s = g.new_initial_state()
    s.apply(("choose", 2), 0)
    s.apply(("choose", 1), 2)
    assert s.current_actors() == [1]                # P1 is out: P2 decides for team 1
    s.apply(("choose", 1), 1)
    assert s.outcome == (0, 1)                      # team 1 (3 points) wins: both members
    assert s.pvars[g.pvar_slots["score"]] == [3, 1]


def test_checker_wants_a_team_for_a_zone_kept_per_team():
    from dsl.language.checker import check
    from dsl.language.parser import parse_text
    bad = TEAM_GAME.replace("for each t in teams\n    move 1 from box to pot(t)",
                            "for each p in players\n    move 1 from box to pot(p)")
    assert bad != TEAM_GAME
    rules, _ = parse_text(bad, "relay.rules")
    errors = [d for d in check(rules) if d.severity == "error"]
    assert any("expected a team" in d.message for d in errors)


def test_a_space_off_the_board_is_a_dead_end():
    from dsl.engine import Game
    from dsl.language.parser import parse_text
    rules, _ = parse_text("""game walk
  players 2 to 2
board field
  grid 3 by 3
zone box is supply, shared
token stone
  count 1
  in box
play
  move 1 from box to field(4, 1)
  end game
""", "walk.rules")
    s = Game(rules, 2).new_initial_state()
    assert s.dead_end is not None and s.dead_end.kind == "off the board"


# ----------------------------------------------------------------- the 2025 revision

REVISION = GAMES.parent / "variants" / "dream-duels-2025.rules"


def revised(n):
    from dsl.engine import Game
    from dsl.loader import load
    return Game(load(str(REVISION))[0], n)


def test_revision_gives_a_pair_two_life_and_four_copies():
    g = revised(7)
    _, s = g, g.new_initial_state()
    rng = random.Random(0)
    while s.is_chance():
        s.apply(rng.randrange(s.chance_outcomes()))
    assert [len(pieces_in(s, g, f"life_of({p})")) for p in range(1, 8)] == [1, 1, 1, 1, 1, 1, 3]
    assert sum(1 for i, a in enumerate(g.piece_attrs) if g.kind_of[i] == "card" and a.get("element")) == 3 * 13 * 4


def _spent_deck_until_the_forbidden_area(g, seed):
    """A random game in which, at landing, all but one card of the deck are already in the
    graveyard; played until the first forbidden area is drawn (or a dead end before it)."""
    rng = random.Random(seed)
    s = g.new_initial_state(log=True)
    while s.is_chance() or g.owner[s.ip] != "landing":
        step_random(s, rng.randrange)
    deck, grave = g.zone_names.index("deck"), g.zone_names.index("graveyard")
    while len(s.zones[deck]) > 1:
        spent = s.zones[deck].pop()
        s.zones[grave].append(spent)
        s.loc[spent] = grave
    s.memo.clear()
    while not g.stuck(s) and not any(e["event"] == "step" and e["name"] == "draw_area" for e in s.log):
        step_random(s, rng.randrange)
    return s, deck, grave


def test_revision_refills_the_deck_from_the_graveyard():
    g = revised(6)
    for seed in range(20):
        s, deck, grave = _spent_deck_until_the_forbidden_area(g, seed)
        if s.dead_end is None:
            break
    assert s.dead_end is None
    assert len(s.zones[deck]) > 50                          # the graveyard came back
    assert all(g.piece_attrs[x].get("number") == 25 for x in s.zones[grave])     # but its jokers
