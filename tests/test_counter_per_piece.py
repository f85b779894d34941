"""`counter NAME per COMPONENT`: one value for each piece of a deck, dice or token (votes on
each space), written NAME(x), as a zone kept per piece is."""
from __future__ import annotations

import re

from dsl.analyses.explore import explore
from dsl.analyses.replay import run
from dsl.engine import Game
from dsl.engine.order import piece_classes
from dsl.printing.book import render
from dsl.printing.narrate import Narrator

from _util import errors_of, parsed

GAME = """game ballot
  players 2 to 3
deck space
  in places
  cards
    | name  |
    | north |
    | south |
zone places is board, shared, seen by everyone
counter votes per space = 0 max 2
play
  for each p in players
    p chooses sp from places
      add 1 to votes(sp)
  end game winners (if votes(first(places)) >= votes(top(places)) then [player(1)] else [player(2)])
"""




def test_each_piece_keeps_its_own_value():
    game = Game(parsed(GAME), 3)
    north, south = game.kind_pieces["space"]
    s = run(game, [[0, ["choose", int(south)]], [1, ["choose", int(north)]], [2, ["choose", int(south)]]], log=True)
    assert s.pvars[game.pvar_slots["votes"]] == [1, 2]
    assert [int(p) for p in s.outcome] == [1]           # south (the top of places) has more
    assert s.to_json()["player_variables"]["votes"] == [1, 2]
    assert "   south's votes = 2" in Narrator(game, "en").tell(s.log)


def test_passing_the_bound_is_a_dead_end():
    game = Game(parsed(GAME), 3)
    south = int(game.kind_pieces["space"][1])
    s = run(game, [[0, ["choose", south]], [1, ["choose", south]], [2, ["choose", south]]], log=False)
    assert (s.dead_end.kind, s.dead_end.line) == ("above maximum", 14)


def test_something_that_is_not_such_a_piece_is_a_dead_end_not_another_value():
    text = GAME.replace("add 1 to votes(sp)", "add 1 to votes(p)")
    assert [e.message for e in errors_of(text)] == []       # the checker cannot tell a piece's kind
    s = Game(parsed(text), 2).new_initial_state()
    s.apply(s.legal_moves()[0], s.current_actors()[0])
    assert s.dead_end.kind == "evaluation failed"
    assert s.dead_end.message == "'votes' is kept per space, and P1 is not one"


def test_checks_name_the_mistake():
    [err] = errors_of(GAME.replace("counter votes per space", "counter votes per spcae"))
    assert err.message == "counter 'votes' is kept per 'spcae', which is not a component"
    assert "space" in err.hint and err.span.line == 10
    [err] = errors_of(GAME.replace("counter votes per space", "counter votes per places"))
    assert err.message == "counter 'votes' is kept per 'places', which is not a component"
    [err] = errors_of(GAME.replace("add 1 to votes(sp)", "add 1 to votes"))
    assert err.message == "'votes' is kept per space: say whose, e.g. votes(s)"


def test_pieces_with_values_of_their_own_are_kept_apart_by_explore():
    alike = GAME.replace("| north |", "| same  |").replace("| south |", "| same  |")
    game = Game(parsed(alike), 2)
    north, south = game.kind_pieces["space"]
    assert piece_classes(game)[north] != piece_classes(game)[south]
    unkept = Game(parsed(alike.replace("counter votes per space", "counter votes per player")
                         .replace("votes(sp)", "votes(p)").replace("votes(first(places))", "votes(player(1))")
                         .replace("votes(top(places))", "votes(player(2))")), 2)
    assert piece_classes(unkept)[north] == piece_classes(unkept)[south]
    # seat 1 wins unless both chose the top space: 3 of the 4 ways, which explore must tell apart
    assert sorted((o["outcome"], o["games"]) for o in explore(game).outcomes) == [("P1 wins", 3), ("P2 wins", 1)]


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub("<[^>]+>", "", html)).replace("&#39;", "'")


def test_reads_in_both_languages():
    rules = parsed(GAME)
    en, ja = _text(render("book", "html", rules, "en")), _text(render("book", "html", rules, "ja"))
    assert "What players keep track of votes One for each space. Starts at 0. Never above 2." in en
    assert "ゲーム中に覚えておくこと votes spaceごとに一つ。はじめは0。2より大きくならない。" in ja
    assert "Choose an item from places.Add 1 to that item's votes." in en
    assert "placesからものを選ぶ。そのもののvotesに1を加える。" in ja
