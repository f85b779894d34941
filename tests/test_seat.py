"""`player(k)`: the player in seat k, named directly instead of through first(players)."""
from __future__ import annotations

from dsl.engine import Game
from dsl.language import syntax as S
from dsl.language.checker import check
from dsl.printing.prose import Voice, plain

from _util import errors_of, parsed

GAME = """game seats
  players 2 to 4
counter turns per player = 0
play
  add 10 to turns(player(1))
  add {k} to turns(player({k}))
  end game winners [player(2)]
"""




def test_player_names_a_seat_counted_from_one():
    game = Game(parsed(GAME.format(k=2)), 3)
    s = game.new_initial_state()
    assert s.pvars[game.pvar_slots["turns"]] == [10, 2, 0]
    assert [int(p) for p in s.outcome] == [1]
    assert check(parsed(GAME.format(k=2))) == []


def test_a_seat_past_the_smallest_player_count_is_an_error_with_a_hint():
    [err] = errors_of(GAME.format(k=3))
    assert err.message == "there is no seat 3 with 2 players (the game is for 2 to 4)"
    assert (err.span.line, err.span.column) == (6, 25)
    assert "top(players)" in err.hint
    [err] = errors_of(GAME.format(k=0))
    assert err.message == "there is no seat 0: seats are numbered from 1"
    [err] = errors_of(GAME.format(k=2).replace("player(2)]", "player(-1)]"))
    assert err.message == "there is no seat -1: seats are numbered from 1" and err.span.line == 7


def test_a_seat_worked_out_during_play_is_a_dead_end_when_it_is_empty():
    text = GAME.format(k=2).replace("add 2 to turns(player(2))", "add 1 to turns(player(player_count + 1))")
    assert errors_of(text) == []
    s = Game(parsed(text), 4).new_initial_state()
    assert (s.dead_end.kind, s.dead_end.line) == ("no such seat", 6)
    assert s.dead_end.message == "there is no seat 5 with 4 players (seats are 1 to 4)"


def test_a_player_is_not_a_seat_number():
    [err] = errors_of(GAME.format(k=2).replace("player(2)]", "player(player(1))]"))
    assert (err.message, err.span.line, err.span.column) == ("expected a number here, but this is a player", 7, 28)


def test_reads_in_both_languages():
    rules = parsed(GAME.format(k=2))
    play = [f for f in rules.of(S.Flow) if f.name == "play"][0]
    assert plain(Voice(rules, "en").stmt(play.body[1]).runs) == "Add 2 to the player in seat 2's turns."
    assert plain(Voice(rules, "ja").stmt(play.body[1]).runs) == "席2のプレイヤーのturnsに2を加える。"


RING = """game ring
  players 3 to 5
  seating {seating}
variable after = nobody
variable before = nobody
variable last = nobody
variable none = nobody
play
  eliminate player(2)
  set after to next_player(player(1))
  set before to previous_player(player(1))
  set last to next_player(player(2))
  set none to next_player(nobody)
  end game winners [player(1)]
"""


def test_next_and_previous_player_follow_the_seating_past_players_who_are_out():
    for seating, after, before, last in (("clockwise", 3, 4, 3), ("counterclockwise", 4, 3, 1)):
        game = Game(parsed(RING.format(seating=seating)), 4)
        s = game.new_initial_state()
        seat = {name: s.vars[game.var_slots[name]] for name in ("after", "before", "last", "none")}
        assert {k: None if v is None else int(v) + 1 for k, v in seat.items()} == \
            {"after": after, "before": before, "last": last, "none": None}, seating
