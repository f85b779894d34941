"""`explore`: exhaustive search of a configuration, checked against games whose numbers are known."""
from __future__ import annotations

import json

import pytest

from _util import BLUFF, DEMOCRACY, GAMES, game_of

from dsl.analyses import replay
from dsl.engine import Game
from dsl.analyses.explore import explore
from dsl.engine.order import order_free_zones, state_keyer
from dsl.engine.order import OrderUse as _OrderUse
from dsl.loader import load

TICTACTOE = GAMES / "tictactoe.rules"

BROKEN = """\
game broken
  players 2 to 2
  max steps 40

counter score per player = 0 min 0 max 3
counter laps = 0

play
  repeat until max(score(p) for p in players) >= 3
    for each p in players
      step turn
        p chooses one of
          option gain
            add 1 to score(p)
          option spin if score(p) = 2
            do spin_forever
          option settle
            cases settle
              when score(p) = 0
                pass
              when score(p) = 1
                add 1 to score(p)
        if score(p) > 5
          end game winners [p]
  end game by highest score(p) for p in players

rule spin_forever
  repeat until laps < 0
    add 1 to laps
"""

DICE_DUEL = """\
game dice_duel
  players 2 to 2
dice die
  faces 1, 2, 3, 4, 5, 6
  count 1 per player
  in box
zone box is supply, shared, seen by everyone
zone cup is hand, per player, seen by everyone
setup
  for each p in players
    move 1 from box to cup(p)
play
  for each p in players
    roll cup(p)
  end game by highest sum(d.face for d in cup(p)) for p in players ties share
"""


def _game(tmp_path, text, n=2, name="g.rules"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    rules, _ = load(str(p))
    return Game(rules, n)


@pytest.fixture(scope="module")
def tictactoe():
    return explore(game_of(str(TICTACTOE), 2))


def test_tictactoe_has_the_known_numbers(tictactoe):
    r = tictactoe
    assert r.finished and r.stopped_because == ""
    assert r.complete_games == 255_168
    assert r.positions == 5_478                 # reachable boards, the empty one included
    assert r.states == 5_478 and r.chance_states == 0
    assert r.terminal_states == 958 and r.decision_states == 4_520
    assert r.max_depth == 9 and not r.cyclic
    by = {o["outcome"]: (o["terminal_states"], o["games"]) for o in r.outcomes}
    assert by == {"P1 wins": (626, 131_184), "P2 wins": (316, 77_904), "no winner": (16, 46_080)}
    assert r.dead_ends == [] and r.proof
    assert r.never_reached == []


def test_report_json_and_text(tictactoe, tmp_path):
    j = tictactoe.to_json()
    text = json.dumps(j, sort_keys=True)
    assert json.loads(text) == j
    for key in ("format", "game", "players", "finished", "proof", "states", "positions", "complete_games",
                "outcomes", "dead_ends", "coverage", "max_states", "stopped_because", "transitions"):
        assert key in j
    assert j["proof"] is True and j["complete_games"] == 255_168
    t = tictactoe.format_text()
    assert "255,168" in t and "5,478" in t and "proof" in t


def test_explore_is_deterministic(tmp_path):
    g = _game(tmp_path, BROKEN)
    assert json.dumps(explore(g).to_json(), sort_keys=True) == json.dumps(explore(g).to_json(), sort_keys=True)


def test_chance_outcomes_are_enumerated(tmp_path):
    r = explore(_game(tmp_path, DICE_DUEL))
    assert r.finished and r.complete_games == 36
    assert r.chance_states == 1 + 6 and r.terminal_states == 36 and r.positions == 36
    by = {o["outcome"]: (o["terminal_states"], o["games"]) for o in r.outcomes}
    assert by == {"P1 wins": (15, 15), "P2 wins": (15, 15), "shared: P1, P2": (6, 6)}


def test_dead_ends_with_shortest_games_that_replay(tmp_path):
    g = _game(tmp_path, BROKEN)
    r = explore(g)
    assert r.finished and not r.proof
    # passing with `settle` at 0 returns to a state already seen: the games are unbounded
    assert r.cyclic and r.complete_games is None
    found = {(d["rule"], d["kind"]): d for d in r.dead_ends}
    assert set(found) == {("settle", "no case applies"), ("spin_forever", "step limit"), ("play", "tie not covered")}
    shortest = {"settle": 5, "spin_forever": 5, "play": 6}     # P1 needs 2 points; a tie needs 3 each
    for (rule, kind), d in found.items():
        assert d["shortest"]["length"] == len(d["shortest"]["actions"]) == shortest[rule]
        s = replay.run(g, d["shortest"]["actions"], log=False)
        assert (s.dead_end.rule, s.dead_end.kind) == (rule, kind)
        assert d["where"] == s.dead_end.where
    assert found[("spin_forever", "step limit")]["where"].endswith(":28:3")
    # the branch no game can take is reported, as a proof (the search finished)
    assert [b["name"] for b in r.never_reached] == ["turn: if score(p) > 5"]


def test_max_states_stops_the_search():
    r = explore(game_of(str(TICTACTOE), 2), max_states=500)
    assert not r.finished and "max_states" in r.stopped_because
    assert 500 <= r.states < 5_478
    assert r.complete_games is None and not r.proof and r.never_reached == []


def test_progress_is_reported():
    seen = []
    explore(game_of(str(TICTACTOE), 2), progress=lambda phase, done, total: seen.append((phase, done, total)))
    assert seen[-1] == ("search", 5_478, None)
    assert [d for _, d, _ in seen] == sorted(d for _, d, _ in seen)


def test_a_huge_chance_event_stops_the_search_instead_of_hanging():
    r = explore(game_of(str(DEMOCRACY), 2), max_states=10_000)
    assert not r.finished and "outcomes" in r.stopped_because


# ----------------------------------------------------------------- which zones keep their order

def test_zone_order_analysis_on_the_games():
    # the squares; `move 1 from marks(p)` takes a player's top mark, so the supplies keep their order
    assert {game_of(str(TICTACTOE), 2).zone_names[i] for i in order_free_zones(game_of(str(TICTACTOE), 2))} \
        == {f"grid({x},{y})" for x in (1, 2, 3) for y in (1, 2, 3)}
    bluff = game_of(str(BLUFF), 3)
    free = {bluff.zone_names[i] for i in order_free_zones(bluff)}
    assert free == {"lost"}                     # `move up to N from cup(...)` takes the top dice


@pytest.mark.parametrize("line, ordered", [
    ("  move top(hand(first(players))) to pile", {"hand"}),
    ("  move 1 from pile to hand(first(players))", {"pile"}),
    ("  move all from hand(first(players)) to pile\n  move 1 from pile to box", {"pile", "hand"}),
    ("  for each c in pile\n    move c to box", {"pile"}),
    ("  move 1 from box to zone_of(first(all(hand)))", None),
    ("  set best to highest(c.n for c in pile)\n  move first(best) to box", {"pile"}),
    ("  move up to count(pile) from box to pile\n  if count(c in hand(first(players)) where c.n = 1) > 0\n"
     "    shuffle pile", {"box"}),
])
def test_zone_order_analysis(tmp_path, line, ordered):
    text = ("game z\n  players 2 to 2\ndeck card\n  in box\n  cards\n    | n |\n    | 1 |\n    | 2 |\n"
            "zone box is deck, shared, seen by everyone\nzone pile is pile, shared, seen by everyone\n"
            "zone hand is hand, per player, seen by owner\nvariable best = nobody\n"
            "play\n" + line + "\n  end game\n")
    p = tmp_path / "z.rules"
    p.write_text(text, encoding="utf-8")
    rules, _ = load(str(p))
    use = _OrderUse(rules)
    if ordered is None:
        assert use.everything
    else:
        assert not use.everything and use.ordered == ordered


def test_the_key_ignores_what_cannot_matter():
    """The same board reached in two move orders is one state; a different board is not."""
    game = game_of(str(TICTACTOE), 2)
    key = state_keyer(game)

    def play(cells):            # squares 0-8 in reading order
        s = game.new_initial_state()
        for c in cells:
            p = s.current_actors()[0]
            square = f"grid({c % 3 + 1},{c // 3 + 1})"
            s.apply(next(m for m in s.legal_moves(p) if game.zone_names[m[1]] == square), p)
        return s
    a, b, c = play([0, 4, 8]), play([8, 4, 0]), play([0, 8, 4])
    assert a.key() != b.key()                   # the exact state remembers the order ...
    assert key(a) == key(b)                     # ... the search does not need to
    assert key(a) != key(c)                     # X and O swapped squares: another board
