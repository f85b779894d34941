"""The classic games of games/classics/, each against facts from outside the engine: the sizes
their published rules give, scores worked out by hand from seeded games, and exact counts of
small hand-written brute forces beside `explore`."""
from __future__ import annotations

import random
import re
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import product

import pytest

from dsl.analyses.explore import explore
from dsl.analyses.simulate import simulate
from dsl.engine import CHANCE
from dsl.engine.values import Player
from dsl.table import Table

from _util import ROOT, game_of, playtest, rules_of, step_random

CLASSICS = ROOT / "games" / "classics"
NIM, PIG, GOOF, HEX, LOST, SKULL = (str(CLASSICS / f) for f in ("nim.rules", "pig.rules", "goofspiel.rules",
                                                              "hex.rules", "lost-cities.rules", "skull.rules"))
CHEAT = str(CLASSICS / "cheat.rules")
INDIAN = str(CLASSICS / "indian-poker.rules")
THE_GAME = str(CLASSICS / "the-game.rules")
LOVE = str(CLASSICS / "love-letter.rules")
ALL = sorted(CLASSICS.glob("*.rules"))
PLAYERS = {"nim": [2], "pig": [2, 4], "goofspiel": [2, 3], "hex": [2], "lost-cities": [2], "skull": [3, 6], "cheat": [3, 6],
           "indian-poker": [3, 6], "the-game": [1, 2, 5],
           "love-letter": [2, 4], "backgammon": [2], "clue": [3, 6], "resistance": [5, 7, 10]}


def test_every_classic_is_in_the_table():
    assert sorted(p.stem for p in ALL) == sorted(PLAYERS)


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_every_classic_checks_clean_and_its_only_warnings_are_its_open_questions(path):
    r = playtest("check", path)
    assert r.exit_code == 0, r.output
    warnings = re.findall(r"warning: (.*)", r.output)
    asked = re.findall(r"^question (\w+)", path.read_text(encoding="utf-8"), re.M)
    assert warnings and all(w.startswith("open question") for w in warnings), warnings
    assert sorted(re.findall(r"open question '(\w+)'", r.output)) == sorted(asked)


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_every_classic_plays_200_seeded_games_without_a_dead_end(path):
    for n in PLAYERS[path.stem]:
        summary = simulate(game_of(str(path), n), 200, seed=1)
        assert summary.games == 200 and summary.dead_ends == {}, summary.dead_ends
        if not summary.cooperative:              # a cooperative game's loss has no winner
            assert summary.no_winner == 0


def _zone(state, name):
    return state.to_json()["zones"][name]


def _random_game(path, n, seed):
    """A seeded random game: the states before each action and the actions, to the end."""
    game = game_of(path, n)
    state, rng, trace = game.new_initial_state(), random.Random(seed), []
    while not state.is_terminal():
        before = state.to_json()
        before["scores"] = game.scores(state)
        trace.append((before, step_random(state, rng.randrange)))
    return game, state, trace


# ---------------------------------------------------------------- Nim
def _nim_brute_force(heaps=(3, 4, 5)):
    """Decision states (heaps, mover) reachable, and complete games by winner, normal play."""
    seen, ends = set(), set()

    @lru_cache(maxsize=None)
    def games(h, mover):
        seen.add((h, mover))
        won = [0, 0]
        for i, size in enumerate(h):
            for take in range(1, size + 1):
                after = h[:i] + (size - take,) + h[i + 1:]
                if sum(after) == 0:
                    won[mover] += 1
                    ends.add(mover)
                else:
                    for k, g in enumerate(games(after, 1 - mover)):
                        won[k] += g
        return tuple(won)
    won = games(tuple(heaps), 0)
    return len(seen), len(ends), won


def test_nim_deals_bouton_s_heaps_and_explores_to_the_brute_force_count():
    game = game_of(NIM, 2)
    start = game.new_initial_state().to_json()["zones"]
    assert [len(start[f"pile(#{i})"]) for i in (0, 1, 2)] == [3, 4, 5]     # Bouton's 3, 4, 5
    decisions, ends, (p1, p2) = _nim_brute_force()
    r = explore(game)
    assert r.finished and r.proof
    assert (r.decision_states, r.terminal_states) == (decisions, ends)
    assert {o["outcome"]: o["games"] for o in r.outcomes} == {"P1 wins": p1, "P2 wins": p2}
    assert r.complete_games == p1 + p2 == 431_128


def test_nim_is_won_by_the_one_move_bouton_s_nim_sum_names():
    heaps, names = (3, 4, 5), ("first", "second", "third")
    assert heaps[0] ^ heaps[1] ^ heaps[2] != 0                    # the player to move wins
    winning = [(names[i], h - (h ^ 2)) for i, h in enumerate(heaps) if h ^ 2 < h]   # 3 ^ 4 ^ 5 = 2
    assert winning == [("first", 2)]
    r = playtest("solve", NIM, "-p", "2")
    assert r.exit_code == 0, r.output
    assert "value of the game for P1: +1.0000" in r.output
    assert "P1: worth +1 (optimal): chooses first, number 2; worth -1:" in r.output


# ---------------------------------------------------------------- Pig
def test_pig_has_one_six_sided_die_and_a_target_of_100():
    game = game_of(PIG, 2)
    assert len(game.pieces) == 1 and game.new_initial_state().chance_outcomes() == 6
    assert "parameter target = 100" in open(PIG, encoding="utf-8").read()


def _pig_turn_by_engine(rolls):
    """P1's banked points after a first turn of `rolls` rolls then hold: each outcome's chance."""
    game = game_of(PIG, 2)
    out = Counter()

    def banked(state):
        return state.to_json()["player_variables"]["banked"][0]

    def walk(state, p, done):              # state: P1 is about to roll for the (done + 1)th time
        assert state.is_chance() and state.chance_outcomes() == 6
        for k in range(6):
            s = state.clone()
            s.apply(k)
            if k == 0:                     # a 1: the turn is over, P2 rolls next
                assert s.is_chance()
                out[banked(s)] += p / 6
                continue
            [actor] = s.current_actors()
            assert int(actor) == 0
            if done + 1 == rolls:
                s.apply(("hold",), actor)
                out[banked(s)] += p / 6
            else:
                s.apply(("roll_again",), actor)
                walk(s, p / 6, done + 1)
    walk(game.new_initial_state(), Fraction(1), 0)
    return out


def _pig_turn_by_hand(rolls):
    """The same by enumeration: all rolls must be 2-6 to bank their sum, else 0."""
    out = Counter()
    for faces in product(range(1, 7), repeat=rolls):
        out[0 if 1 in faces else sum(faces)] += Fraction(1, 6 ** rolls)
    return out


@pytest.mark.parametrize("rolls", [1, 2, 3])
def test_a_pig_turn_banks_what_enumerating_the_die_gives(rolls):
    engine = _pig_turn_by_engine(rolls)
    assert engine == _pig_turn_by_hand(rolls)
    assert engine[0] == 1 - Fraction(5, 6) ** rolls


def _pig_by_hand(trace, n):
    """Scorekeeping from the actions alone: a 1 loses the turn, a hold banks it."""
    banked, turn, face = [0] * n, 0, None
    for before, (actor, move) in trace:
        if actor == CHANCE:
            face = move + 1
            if face == 1:
                turn = 0
            else:
                turn += face
        elif move == ["hold"]:
            banked[actor] += turn
            turn = 0
    return banked


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seeded_pig_game_scores_as_kept_by_hand(seed):
    game, state, trace = _random_game(PIG, 3, seed)
    banked = _pig_by_hand(trace, 3)
    assert state.to_json()["player_variables"]["banked"] == banked == game.scores(state)
    assert max(banked) >= 100 and [int(p) for p in state.outcome] == [banked.index(max(banked))]


# ---------------------------------------------------------------- Goofspiel
def test_goofspiel_hands_and_prizes_are_whole_suits_of_13():
    for n in (2, 3):
        game = game_of(GOOF, n)
        state = game.new_initial_state()
        while state.is_chance():
            state.apply(0)
        zones = state.to_json()["zones"]
        assert len(game.pieces) == 52                              # one 52-card pack
        assert len(zones["prizes"]) + len(zones["prize"]) == 13
        for p in range(1, n + 1):
            hand = zones[f"hand({p})"]
            assert sorted(game.piece_attrs[c]["rank"] for c in hand) == list(range(1, 14))
            assert len({game.piece_attrs[c]["suit"] for c in hand}) == 1


def _goofspiel_by_hand(game, trace, n):
    """Prize points from the prizes on offer and the bids, ties discarding the prize."""
    points, bids, prize = [0] * n, {}, None
    rank = lambda c: game.piece_attrs[c]["rank"]
    for before, (actor, move) in trace:
        if actor == CHANCE:
            continue
        prize = before["zones"]["prize"][0]
        bids[actor] = rank(int(move[1]))
        if len(bids) == n:
            best = max(bids.values())
            top = [p for p, b in bids.items() if b == best]
            if len(top) == 1:
                points[top[0]] += rank(prize)
            bids = {}
    return points


@pytest.mark.parametrize("n,seed", [(2, 1), (2, 2), (3, 1), (3, 4)])
def test_a_seeded_goofspiel_game_scores_as_worked_out_by_hand(n, seed):
    game, state, trace = _random_game(GOOF, n, seed)
    points = _goofspiel_by_hand(game, trace, n)
    assert game.scores(state) == points
    assert sum(points) <= 91                                       # 1 + ... + 13
    assert sorted(int(p) for p in state.outcome) == [p for p in range(n) if points[p] == max(points)]


# ---------------------------------------------------------------- Hex
HEX_SIDES = ((1, 0), (-1, 0), (0, -1), (1, -1), (-1, 1), (0, 1))       # axial: the six sides


def _joined(stones, red, side=3):
    """Red joins row 1 to row `side`; Blue column 1 to column `side`: a flood fill."""
    start = [c for c in stones if (c[1] if red else c[0]) == 1]
    seen, todo = set(start), list(start)
    while todo:
        x, y = todo.pop()
        for dx, dy in HEX_SIDES:
            n = (x + dx, y + dy)
            if n in stones and n not in seen:
                seen.add(n)
                todo.append(n)
    return any((c[1] if red else c[0]) == side for c in seen)


def _hex_brute_force(side=3):
    cells = [(x, y) for y in range(1, side + 1) for x in range(1, side + 1)]
    positions, ends = set(), Counter()

    @lru_cache(maxsize=None)
    def games(red, blue):
        positions.add((red, blue))
        mover_red = len(red) == len(blue)
        won = [0, 0, 0]
        for c in cells:
            if c in red or c in blue:
                continue
            r2, b2 = (red | {c}, blue) if mover_red else (red, blue | {c})
            if _joined(r2 if mover_red else b2, mover_red, side):
                won[0 if mover_red else 1] += 1
                if (r2, b2) not in positions:
                    positions.add((r2, b2))
                    ends[0 if mover_red else 1] += 1
            elif len(r2) + len(b2) == len(cells):
                won[2] += 1
            else:
                for k, g in enumerate(games(r2, b2)):
                    won[k] += g
        return tuple(won)
    won = games(frozenset(), frozenset())
    return len(positions), ends, won


def test_hex_3x3_explores_to_the_brute_force_count_and_never_draws():
    game = game_of(HEX, 2)
    assert len([z for z in game.zone_names if z.startswith("cells(")]) == 9
    positions, ends, (red, blue, drawn) = _hex_brute_force()
    assert drawn == 0                                              # the Hex theorem, on 3 x 3
    r = explore(game)
    assert r.finished and r.proof
    assert r.positions == positions == 5_514
    assert (r.terminal_states, {o["outcome"]: o["terminal_states"] for o in r.outcomes}) == \
        (ends[0] + ends[1], {"P1 wins": ends[0], "P2 wins": ends[1]})
    assert {o["outcome"]: o["games"] for o in r.outcomes} == {"P1 wins": red, "P2 wins": blue}


def test_hex_2x2_explores_to_the_brute_force_count(tmp_path):
    text = open(HEX, encoding="utf-8").read()
    small = text.replace("parameter side = 3", "parameter side = 2")
    assert small != text
    path = tmp_path / "hex2.rules"
    path.write_text(small, encoding="utf-8")
    positions, ends, (red, blue, drawn) = _hex_brute_force(2)
    game = game_of(str(path), 2)
    assert len(game.pieces) == 4          # the stones follow the side: 2 each fill the 4 hexagons
    r = explore(game)
    assert r.finished and r.proof and drawn == 0
    assert r.positions == positions and r.terminal_states == ends[0] + ends[1]
    assert {o["outcome"]: o["games"] for o in r.outcomes} == {"P1 wins": red, "P2 wins": blue}


def _hex_winning_openings(side=3):
    """Red's first stones that win with perfect play: minimax over the boards, by hand."""
    cells = [(x, y) for y in range(1, side + 1) for x in range(1, side + 1)]

    @lru_cache(maxsize=None)
    def mover_wins(red, blue):
        red_moves = len(red) == len(blue)
        for c in cells:
            if c in red or c in blue:
                continue
            mine = (red if red_moves else blue) | {c}
            if _joined(mine, red_moves, side):
                return True
            if not (mover_wins(mine, blue) if red_moves else mover_wins(red, mine)):
                return True
        return False
    return {c for c in cells if _joined({c}, True, side) or not mover_wins(frozenset({c}), frozenset())}


def test_hex_3x3_solves_to_a_first_player_win_by_the_openings_minimax_finds():
    winning = _hex_winning_openings()
    assert winning == {(3, 1), (1, 2), (2, 2), (3, 2), (1, 3)}
    r = playtest("solve", HEX, "-p", "2")
    assert r.exit_code == 0 and "value of the game for P1: +1.0000" in r.output, r.output
    line = re.search(r"P1: worth \+1 \(optimal\): (.*?); worth -1", r.output)[1]
    said = {(int(x), int(y)) for x, y in re.findall(r"column (\d), row (\d)", line)}
    assert said == winning


def test_a_seeded_hex_game_is_won_by_the_chain_a_flood_fill_finds():
    game = game_of(HEX, 2)
    for seed in range(1, 6):
        game, state, trace = _random_game(HEX, 2, seed)
        zones = state.to_json()["zones"]
        stones = {0: set(), 1: set()}
        for name, pieces in zones.items():
            m = re.fullmatch(r"cells\((\d),(\d)\)", name)
            for p in pieces if m else ():
                stones[int(game.piece_owner[p])].add((int(m[1]), int(m[2])))
        [winner] = [int(p) for p in state.outcome]
        assert _joined(stones[winner], winner == 0) and not _joined(stones[1 - winner], winner == 1)


# ---------------------------------------------------------------- Lost Cities
def test_lost_cities_has_60_cards_in_five_colours_and_deals_8_each():
    game = game_of(LOST, 2)
    attrs = [game.piece_attrs[p] for p in range(len(game.pieces))]
    assert len(attrs) == 60                                        # Kosmos rulebook: 60 cards
    by_colour = Counter(a["colour"] for a in attrs)
    assert len(by_colour) == 5 and set(by_colour.values()) == {12}
    for colour in by_colour:
        ranks = sorted(a["rank"] for a in attrs if a["colour"] == colour)
        assert ranks == [0, 0, 0] + list(range(2, 11))            # 3 wagers and 2-10
    state = game.new_initial_state()
    while state.is_chance():
        state.apply(0)
    zones = state.to_json()["zones"]
    assert len(zones["hand(1)"]) == len(zones["hand(2)"]) == 8 and len(zones["deck"]) == 44


def _expeditions_by_hand(game, zones, seat):
    """Each expedition begun: (numbers - 20) x (1 + wagers), 20 more with 8 cards or more."""
    total = 0
    cards = [game.piece_attrs[c] for c in zones[f"expedition({seat})"]]
    for colour in {c["colour"] for c in cards}:
        mine = [c["rank"] for c in cards if c["colour"] == colour]
        total += (sum(mine) - 20) * (1 + mine.count(0)) + (20 if len(mine) >= 8 else 0)
    return total


@pytest.mark.parametrize("seed", [1, 2, 7])
def test_a_seeded_lost_cities_game_scores_as_worked_out_by_hand(seed):
    game, state, trace = _random_game(LOST, 2, seed)
    totals, last = [0, 0], None
    for before, (actor, move) in trace:
        zones = before["zones"]
        if actor == CHANCE or not (zones["deck"] and any(zones[f"hand({s})"] for s in (1, 2))):
            continue
        if last is not None and len(zones["deck"]) > len(last["deck"]):   # a new round was dealt
            for s in (0, 1):
                totals[s] += _expeditions_by_hand(game, last, s + 1)
        last = zones
        assert before["player_variables"]["total"] == totals
        assert before["scores"] == [totals[s] + _expeditions_by_hand(game, zones, s + 1) for s in (0, 1)]
    for s in (0, 1):
        totals[s] += _expeditions_by_hand(game, last, s + 1)
    assert state.to_json()["player_variables"]["total"] == totals == game.scores(state)
    assert [int(p) for p in state.outcome] == [s for s in (0, 1) if totals[s] == max(totals)]


def test_lost_cities_expeditions_only_rise():
    for seed in (1, 2):
        game, state, trace = _random_game(LOST, 2, seed)
        for before, _ in trace:
            for s in (1, 2):
                ranks = {}
                for c in before["zones"][f"expedition({s})"]:
                    a = game.piece_attrs[c]
                    ranks.setdefault(a["colour"], []).append(a["rank"])
                for r in ranks.values():
                    assert r == sorted(r) and len(set(x for x in r if x)) == len([x for x in r if x])


# ---------------------------------------------------------------- Skull
def test_skull_gives_each_player_three_roses_and_a_skull():
    for n in (3, 6):
        game = game_of(SKULL, n)
        state = game.new_initial_state()
        zones = state.to_json()["zones"]
        skulls = set(game.kind_pieces["skull_disc"])
        for p in range(1, n + 1):
            hand = zones[f"hand({p})"]
            assert len(hand) == 4 and len([d for d in hand if d in skulls]) == 1
            assert {int(game.piece_owner[d]) for d in hand} == {p - 1}


def _skull_by_hand(game, trace, n):
    """Each challenge settled from the mats as the bidding closed and the mats the Challenger
    chose: own stack from the top first, then the chosen tops; any skull fails it."""
    skulls = set(game.kind_pieces["skull_disc"])
    wins, fails, pending = [0] * n, [0] * n, None

    def settle():
        bid, who, mats, chosen = pending
        mats = {k: list(v) for k, v in mats.items()}
        turned = []
        while mats[who] and len(turned) < bid and not skulls & set(turned):
            turned.append(mats[who].pop())
        for q in chosen:
            assert not skulls & set(turned) and q != who and not mats[who]
            turned.append(mats[q].pop())
        assert len(turned) == bid or turned[-1] in skulls
        (fails if any(d in skulls for d in turned) else wins)[who] += 1

    bid = who = mats = None
    for before, (actor, move) in trace:
        if actor == CHANCE:
            continue
        kind = move[0]
        if kind == "choose" and isinstance(move[1], Player):
            pending[3].append(int(move[1]))
            continue
        if kind == "choose" and pending is not None:        # the next round's first disc
            settle()
            pending = None
        if kind in ("challenge", "raise"):
            bid, who = move[1], actor
            mats = {q: before["zones"][f"mat({q + 1})"] for q in range(n)}
        if kind in ("challenge", "raise", "pass_bid"):
            pending = [bid, who, mats, []]
    settle()
    return wins, fails


@pytest.mark.parametrize("n,seed", [(3, s) for s in range(1, 11)] + [(4, 3), (5, 2), (6, 1), (6, 2)])
def test_a_seeded_skull_game_counts_successes_and_losses_as_worked_out_by_hand(n, seed):
    game, state, trace = _random_game(SKULL, n, seed)
    wins, fails = _skull_by_hand(game, trace, n)
    end = state.to_json()
    assert end["player_variables"]["points"] == wins == game.scores(state)
    left = [sum(len(end["zones"][f"{z}({p + 1})"]) for z in ("hand", "mat", "shown")) for p in range(n)]
    assert [4 - k for k in left] == fails                            # one disc lost per failure
    assert [p for p in range(n) if not end["alive"][p]] == [p for p in range(n) if left[p] == 0]
    [winner] = [int(p) for p in state.outcome]
    assert wins[winner] == 2 or [p for p in range(n) if left[p]] == [winner]


def _laid(state, game, seat, cards):
    """Lay the given cards (wherever they are) on the seat's expeditions, in that order."""
    target = game.zone_names.index(f"expedition({seat})")
    for c in cards:
        state.zones[state.loc[c]].remove(c)
        state.zones[target].append(c)
        state.loc[c] = target


@pytest.mark.parametrize("yellow,red", [
    ([0, 0, 2, 3, 4, 5, 6, 7], []),            # 8 cards, two wagers: (27 - 20) x 3 + 20 = 41
    ([0, 2, 3, 4, 5, 6, 7], [10]),             # 7 cards, no bonus: 7 x 2, and red 10 - 20
    ([0, 0, 0], [2, 3, 4, 5, 6, 7, 8, 9, 10]),  # wagers alone: -20 x 4; red 54 - 20 + 20
])
def test_a_lost_cities_expedition_scores_as_the_rulebook_counts_it(yellow, red):
    # random play seldom lays 8 cards of a colour, so the bonus is checked on laid-out expeditions
    game = game_of(LOST, 2)
    state = game.new_initial_state()
    while state.is_chance():
        state.apply(0)
    pick = {}
    for c in range(len(game.pieces)):
        a = game.piece_attrs[c]
        pick.setdefault((a["colour"], a["rank"]), []).append(c)
    cards = [pick[("yellow", r)].pop() for r in yellow] + [pick[("red", r)].pop() for r in red]
    _laid(state, game, 1, cards)
    by_hand = _expeditions_by_hand(game, state.to_json()["zones"], 1)
    assert game.scores(state) == [by_hand, 0]
    expected = {(8, 0): 41, (7, 1): 14 - 10, (3, 9): -80 + 54}[(len(yellow), len(red))]
    assert by_hand == expected


# ---------------------------------------------------------------- Cheat
@pytest.mark.parametrize("n,sizes", [(3, [18, 17, 17]), (4, [13] * 4), (5, [11, 11, 10, 10, 10]), (6, [9, 9, 9, 9, 8, 8])])
def test_cheat_deals_the_whole_pack_out(n, sizes):
    game = game_of(CHEAT, n)
    state = game.new_initial_state()
    while state.is_chance():
        state.apply(0)
    zones = state.to_json()["zones"]
    assert len(game.pieces) == 52 and not zones["pack"]
    assert [len(zones[f"hand({p})"]) for p in range(1, n + 1)] == sizes


def _cheat_by_hand(game, trace, n, sizes):
    """Hand sizes kept from the moves: a lay, then a call settled by the ranks laid."""
    hands, pile, due, laid, layer, caller = list(sizes), 0, 1, [], None, None

    def settle():
        nonlocal pile, due, laid, caller
        if caller is None:
            pile += len(laid)
        else:
            honest = all(game.piece_attrs[c]["rank"] == due for c in laid)
            hands[caller if honest else layer] += pile + len(laid)
            pile = 0
        due, laid, caller = due % 13 + 1, [], None

    for before, (actor, move) in trace:
        if actor == CHANCE:
            continue
        if move[0] == "choose":
            if laid:
                settle()
            layer = actor
        if move[0] in ("choose", "another"):
            laid.append(int(move[1]))
            hands[actor] -= 1
        if move[0] == "call":
            caller = actor
    settle()
    return hands


@pytest.mark.parametrize("n,seed", [(3, 1), (3, 2), (4, 1), (6, 3)])
def test_a_seeded_cheat_game_moves_the_pile_as_kept_by_hand(n, seed):
    game, state, trace = _random_game(CHEAT, n, seed)
    first = next(b for b, (a, m) in trace if a != CHANCE)
    sizes = [len(first["zones"][f"hand({p})"]) for p in range(1, n + 1)]
    hands = _cheat_by_hand(game, trace, n, sizes)
    end = state.to_json()["zones"]
    assert [len(end[f"hand({p})"]) for p in range(1, n + 1)] == hands
    [winner] = [int(p) for p in state.outcome]
    assert hands[winner] == 0 and all(h > 0 for i, h in enumerate(hands) if i != winner)


# ---------------------------------------------------------------- Indian Poker
def test_indian_poker_deals_one_card_to_each_forehead_from_a_52_card_pack():
    for n in (3, 6):
        game = game_of(INDIAN, n)
        state = game.new_initial_state()
        while state.is_chance():
            state.apply(0)
        zones = state.to_json()["zones"]
        assert len(game.pieces) == 52
        ranks = Counter(game.piece_attrs[c]["rank"] for c in range(52))
        assert sorted(ranks) == list(range(2, 15)) and set(ranks.values()) == {4}   # Ace high
        assert [len(zones[f"forehead({p})"]) for p in range(1, n + 1)] == [1] * n
        assert len(zones["pack"]) == 52 - n


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_indian_poker_seat_never_sees_its_own_card_and_sees_every_other(seed):
    n = 4
    t = Table(rules_of(INDIAN), n, ["human"] * n, seed)
    t.advance()
    rng, looked = random.Random(seed), 0
    while not t.ended():
        for seat in range(n):
            for z in t.view(seat)["zones"]:
                if z["name"].startswith("forehead") and z["pieces"]:
                    assert z["seen"] == "others"
                    assert all((shown is None) == (z["owner"] == seat) for shown in z["pieces"])
                    looked += 1
        seat = t.humans_to_act()[0]
        t.act(seat, rng.randrange(len(t.options(seat))) + 1)
    assert looked >= n * n * 3        # every seat looked at every forehead, in each of the hands


# ---------------------------------------------------------------- The Game
@pytest.mark.parametrize("n,hand", [(1, 8), (2, 7), (3, 6), (5, 6)])
def test_the_game_deals_its_hands_from_the_98_cards_2_to_99(n, hand):
    game = game_of(THE_GAME, n)
    assert sorted(game.piece_attrs[c]["value"] for c in range(len(game.pieces))) == list(range(2, 100))
    state = game.new_initial_state()
    while state.is_chance():
        state.apply(0)
    start = state.to_json()
    assert [len(start["zones"][f"hand({p})"]) for p in range(1, n + 1)] == [hand] * n
    assert len(start["zones"]["deck"]) == 98 - n * hand
    assert [start["variables"][v] for v in ("up_a", "up_b", "down_a", "down_b")] == [1, 1, 100, 100]


@pytest.mark.parametrize("n,seed", [(1, 1), (2, 2), (3, 3), (5, 4)])
def test_a_seeded_game_of_the_game_lays_only_what_fits_and_scores_the_cards_left(n, seed):
    game, state, trace = _random_game(THE_GAME, n, seed)
    piles = {"up_a": 1, "up_b": 1, "down_a": 100, "down_b": 100}
    for before, (actor, move) in trace:
        assert {k: before["variables"][k] for k in piles} == piles
        if actor == CHANCE or not move[0].startswith("on_"):
            continue
        pile, v = move[0][3:], game.piece_attrs[int(move[1])]["value"]
        top = piles[pile]
        climbing = pile.startswith("up")
        assert (v > top if climbing else v < top) or v == (top - 10 if climbing else top + 10)
        piles[pile] = v
    end = state.to_json()["zones"]
    left = len(end["deck"]) + sum(len(end[f"hand({p})"]) for p in range(1, n + 1))
    assert game.team_score(state) == left and len(end["laid"]) == 98 - left
    assert left > 0 and not state.outcome                # random play leaves cards: the team lost


def test_the_game_s_backwards_trick_turns_a_pile_back_by_exactly_10():
    # random play seldom holds the card 10 back, so it is counted over many seeded games
    turned_back = []
    for seed in range(1, 13):
        game, state, trace = _random_game(THE_GAME, 2, seed)
        for before, (actor, move) in trace:
            if actor != CHANCE and move[0].startswith("on_"):
                top, v = before["variables"][move[0][3:]], game.piece_attrs[int(move[1])]["value"]
                if (v < top) == move[0].startswith("on_up"):
                    turned_back.append(v - top)
    assert set(turned_back) == {-10, 10}             # both ways: a climbing pile down, a falling one up


# ---------------------------------------------------------------- Love Letter
@pytest.mark.parametrize("n,deck,face_up", [(2, 9, 3), (3, 11, 0), (4, 10, 0)])
def test_love_letter_has_16_cards_and_deals_one_each_after_setting_cards_aside(n, deck, face_up):
    game = game_of(LOVE, n)
    ranks = Counter(game.piece_attrs[c]["rank"] for c in range(len(game.pieces)))
    assert ranks == {1: 5, 2: 2, 3: 2, 4: 2, 5: 2, 6: 1, 7: 1, 8: 1}      # AEG rulebook: 16 cards
    state = game.new_initial_state()
    while state.is_chance():
        state.apply(0)
    zones = state.to_json()["zones"]
    assert [len(zones[f"hand({p})"]) for p in range(1, n + 1)] == [2] + [1] * (n - 1)   # P1 has drawn
    assert (len(zones["aside"]), len(zones["shown_aside"]), len(zones["deck"])) == (1, face_up, deck)
    assert 1 + face_up + n + 1 + deck == 16


def test_a_love_letter_priest_shows_the_hand_to_its_player_alone():
    game = game_of(LOVE, 3)
    priests = 0
    for seed in range(1, 6):
        state, rng = game.new_initial_state(), random.Random(seed)
        while not state.is_terminal():
            discards = [list(state.zones[game.zone_names.index(f"discard({p})")]) for p in (1, 2, 3)]
            hands = [list(state.zones[game.zone_names.index(f"hand({p})")]) for p in (1, 2, 3)]
            knew = {c: set(v) for c, v in state.looked.items()}
            actor, move = step_random(state, rng.randrange)
            if actor == CHANCE or not (move[0] == "choose" and isinstance(move[1], Player)):
                continue
            q = int(move[1])
            if game.piece_attrs[discards[actor][-1]]["rank"] != 2 or q == actor:
                continue
            [card] = hands[q]
            if state.loc[card] != game.zone_names.index(f"hand({q + 1})"):
                continue                                     # the round ended and the cards went back
            priests += 1
            assert set(state.looked.get(card, ())) == knew.get(card, set()) | {actor}   # the looker, no one else
    assert priests > 3


# ---------------------------------------------------------------- Backgammon
BACKGAMMON = str(CLASSICS / "backgammon.rules")


def _bg_position(game, state) -> dict:
    """Each seat's checkers as the engine holds them: points (label -> count), bar, off."""
    pos = {q: {"points": Counter(), "bar": 0, "off": 0} for q in (0, 1)}
    for z, pieces in enumerate(state.zones):
        name = game.zone_names[z]
        for p in pieces:
            if game.kind_of[p] != "checker":
                continue
            q = int(game.piece_owner[p])
            if name.startswith("points("):
                pos[q]["points"][int(name[7:-1])] += 1
            elif name.startswith(("bar(", "off(")):
                pos[q][name[:3]] += 1
    return pos


def _bg_moves(pos, q, dice) -> set:
    """The (point or 'bar', die) moves the published rules allow seat q with dice left: written
    from the rules in each player's own count of points (24 far from home, 1 the last)."""
    mine, theirs = pos[q], pos[1 - q]
    pip = (lambda label: label) if q == 0 else (lambda label: 25 - label)
    open_ = lambda pv: theirs["points"][pip(pv)] < 2      # noqa: E731  (pip is its own inverse)
    held = [pip(label) for label, n in mine["points"].items() if n]
    home = mine["bar"] == 0 and all(pv <= 6 for pv in held)
    out = set()
    for d in set(dice):
        if mine["bar"]:
            if open_(25 - d):
                out.add(("bar", d))
            continue
        for pv in held:
            if pv - d >= 1:
                if open_(pv - d):
                    out.add((pip(pv), d))
            elif home and (pv == d or max(held) == pv):
                out.add((pip(pv), d))
    return out


def _bg_offered(game, state, actor) -> dict:
    out = {}
    for m in state.legal_moves(actor):
        out[("bar", m[1]) if len(m) == 2 else (game.space_at[m[1]][1], m[2])] = m
    return out


def test_backgammon_sets_up_15_checkers_each_as_2_5_3_5_in_mirror():
    game = game_of(BACKGAMMON, 2)
    pos = _bg_position(game, game.new_initial_state())
    assert pos[0] == {"points": Counter({24: 2, 13: 5, 8: 3, 6: 5}), "bar": 0, "off": 0}
    assert pos[1] == {"points": Counter({1: 2, 12: 5, 17: 3, 19: 5}), "bar": 0, "off": 0}
    assert all(sum(pos[q]["points"].values()) == 15 for q in (0, 1))


def test_backgammon_rolls_36_ordered_outcomes_21_distinct_with_doubles_played_four_times():
    game = game_of(BACKGAMMON, 2)
    rolls = Counter()
    for k in range(game.new_initial_state().chance_outcomes()):
        s = game.new_initial_state()
        s.apply(k)
        v = s.to_json()["variables"]
        rolls[(v["high"], v["low"], v["high_left"] + v["low_left"])] += 1
    assert sum(rolls.values()) == 36 and len(rolls) == 21
    assert {r: n for r, n in rolls.items() if r[0] == r[1]} == {(f, f, 4): 1 for f in range(1, 7)}
    assert all(n == 2 and left == 2 for (hi, lo, left), n in rolls.items() if hi != lo)


def test_backgammon_s_opening_6_5_offers_the_five_moves_worked_out_by_hand():
    # 24-18, 13-7, 8-2 with the 6; 13-8 and 8-3 with the 5 (24-19 and 6-1 are Black's points)
    game = game_of(BACKGAMMON, 2)
    s = game.new_initial_state()
    s.apply(5 + 4 * 6)                           # the first die shows 6, the second 5
    assert set(_bg_offered(game, s, s.current_actors()[0])) == {(24, 6), (13, 6), (8, 6), (13, 5), (8, 5)}


def _bg_endgame(tmp_path):
    """White: 2 on its 5-point and 1 on its 3, the rest off; Black: a blot on 1, 14 on its 1-point (24)."""
    text = open(BACKGAMMON, encoding="utf-8").read()
    at = text.index("setup\n")
    setup = ("setup\n  move 2 from stock(player(1)) to points(5)\n  move 1 from stock(player(1)) to points(3)\n"
             "  move 12 from stock(player(1)) to off(player(1))\n  move 1 from stock(player(2)) to points(1)\n"
             "  move 14 from stock(player(2)) to points(24)\n\n")
    path = tmp_path / "endgame.rules"
    path.write_text(text[:at] + setup + text[text.index("play\n", at):], encoding="utf-8")
    return game_of(str(path), 2)


def test_backgammon_bears_off_hits_and_enters_from_the_bar_as_worked_out_by_hand(tmp_path):
    game = _bg_endgame(tmp_path)
    s = game.new_initial_state()
    s.apply(5 + 1 * 6)                           # White rolls 6-2
    white = s.current_actors()[0]
    # the 6 bears off the 5 (the farthest checker); the 2 moves 5-3 or hits 3-1; 3 cannot bear off with the 6
    offered = _bg_offered(game, s, white)
    assert set(offered) == {(5, 6), (5, 2), (3, 2)}
    s.apply(offered[(3, 2)], white)              # the hit
    assert _bg_position(game, s)[1]["bar"] == 1 and _bg_position(game, s)[0]["points"][1] == 1
    assert set(_bg_offered(game, s, white)) == {(5, 6)}
    s.apply(_bg_offered(game, s, white)[(5, 6)], white)
    assert s.is_chance()                         # both dice played: Black's turn
    s.apply(4 + 4 * 6)                           # Black rolls 5-5
    black = s.current_actors()[0]
    # Black must enter first, on its 5 (White's 5-point, where White's last checker there is a blot)
    assert set(_bg_offered(game, s, black)) == {("bar", 5)}
    s.apply(_bg_offered(game, s, black)[("bar", 5)], black)
    pos = _bg_position(game, s)
    assert pos[0]["bar"] == 1 and pos[0]["points"][5] == 0 and pos[1]["points"][5] == 1


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_seeded_backgammon_game_offers_exactly_the_moves_the_rules_allow_and_scores_as_counted(seed):
    game = game_of(BACKGAMMON, 2)
    state, rng = game.new_initial_state(), random.Random(seed)
    dice, mover, decisions = [], None, 0
    while not state.is_terminal():
        if state.is_chance():
            assert dice == [] or not _bg_moves(_bg_position(game, state), mover, dice)   # no playable die was lost
            k = rng.randrange(state.chance_outcomes())
            a, b = k % 6 + 1, k // 6 + 1
            dice, mover = ([a] * 4 if a == b else [a, b]), 1 if mover == 0 else 0
            state.apply(k)
            continue
        [actor] = state.current_actors()
        assert int(actor) == mover
        offered = _bg_offered(game, state, actor)
        assert set(offered) == _bg_moves(_bg_position(game, state), mover, dice)
        move = list(offered)[rng.randrange(len(offered))]
        dice.remove(move[1])
        state.apply(offered[move], actor)
        decisions += 1
    pos = _bg_position(game, state)
    [winner] = [int(p) for p in state.outcome]
    loser = 1 - winner
    assert winner == mover and pos[winner]["off"] == 15 and decisions > 20
    in_winners_home = any((label <= 6) if winner == 0 else (label >= 19) for label, n in pos[loser]["points"].items() if n)
    worth = 1 if pos[loser]["off"] else 3 if pos[loser]["bar"] or in_winners_home else 2
    assert list(state.payoffs) == [worth if q == winner else -worth for q in (0, 1)]
