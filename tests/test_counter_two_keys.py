"""`counter NAME per KEY and per KEY`: one value for each pair of keys (each player's progress in
each lane), written NAME(x, y): its checks, its values, its words, and what each seat is told."""
from __future__ import annotations

import html
import random
import re

from dsl.analyses.replay import run
from dsl.constructs.counter import kept_per
from dsl.engine import Game
from dsl.engine.values import Piece
from dsl.printing.narrate import Narrator
from dsl.printing.prose import Voice
from dsl.table import Table
from dsl.table import view as V
from dsl.table.words import Words

from _util import ROOT, errors_of, parsed

CLIMB = """game climb_lanes
  players 2 to 3

deck lane
  in track
  cards
    | name  |
    | left  |
    | right |

zone track is board, shared, seen by everyone
counter progress per player and per lane = 0 min 0 max 2
  title ja "進み" en "progress"

play
  repeat 12 times
    for each p in players
      p chooses c from track, q from players where progress(q, c) < 2
        add 1 to progress(q, c)
        if count(x in track where progress(q, x) = 2) = 2
          end game winners [q]
"""


def _game(text=CLIMB, n=2):
    assert [e.message for e in errors_of(text)] == []
    return Game(parsed(text), n)


def test_the_example_of_the_language_guide_is_the_one_checked_here():
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    at = text.index("#### Two keys: `per player and per lane`")
    assert re.search(r"```rules\n(.*?)```", text[at:], re.S).group(1) == CLIMB


def test_each_pair_keeps_its_own_value():
    game = _game()
    left, right = (int(x) for x in game.kind_pieces["lane"])
    moves = [[0, ["choose", left, 1]], [1, ["choose", left, 1]], [0, ["choose", right, 0]]]
    s = run(game, moves, log=True)
    # player-major, lane fastest: (P1, left), (P1, right), (P2, left), (P2, right)
    assert s.pvars[game.pvar_slots["progress"]] == [0, 1, 2, 0]
    assert game.piece_index["progress"] == {(p, lane): 2 * int(p) + k for p in game._players
                                             for k, lane in enumerate(game.kind_pieces["lane"])}
    # P2 full in left: P1 may no longer give P2 a step there
    options = {tuple(m[1:]) for m in s.legal_moves()}
    assert (left, 1) not in options and {(left, 0), (right, 0), (right, 1)} <= options


def test_a_game_played_to_the_end_matches_a_hand_count_of_each_pair():
    game = _game(n=3)
    for seed in range(20):
        rng = random.Random(seed)
        s = game.new_initial_state()
        hand = {}
        while s.outcome is None and s.dead_end is None:
            move = rng.choice(s.legal_moves())
            _, lane, q = move
            hand[(q, lane)] = hand.get((q, lane), 0) + 1
            s.apply(move, s.current_actors()[0])
        assert s.dead_end is None
        lanes = game.kind_pieces["lane"]
        assert s.pvars[game.pvar_slots["progress"]] == [hand.get((q, lane), 0) for q in range(3) for lane in lanes]
        full = [q for q in range(3) if all(hand.get((q, lane), 0) == 2 for lane in lanes)]
        assert [int(p) for p in s.outcome] == full[:1] or (not full and s.outcome == ())


def test_checks_name_the_mistake():
    one_key = CLIMB.replace("add 1 to progress(q, c)", "add 1 to progress(q)")
    assert [e.message for e in errors_of(one_key)] == [
        "'progress' is kept per player and per lane: say both, e.g. progress(p, l)"]
    read_one = CLIMB.replace("where progress(q, c) < 2", "where progress(c) < 2")
    assert [e.message for e in errors_of(read_one)] == [
        "'progress' is kept per player and per lane: say both, e.g. progress(p, l)"]
    twice = CLIMB.replace("per player and per lane", "per lane and per lane")
    assert "counter 'progress' is kept per lane twice" in [e.message for e in errors_of(twice)]
    unknown = CLIMB.replace("per player and per lane", "per player and per lame")
    assert [e.message for e in errors_of(unknown)] == ["counter 'progress' is kept per 'lame', which is not a component"]
    owner_second = CLIMB.replace("min 0 max 2\n", "min 0 max 2\n  seen by owner\n").replace(
        "per player and per lane", "per lane and per player").replace("progress(q, c)", "progress(c, q)").replace(
        "progress(q, x)", "progress(x, q)")
    errors = errors_of(owner_second)
    assert [e.message for e in errors] == [
        "counter 'progress' is seen by its owner, but it is not kept per player or per team (its first key)"]
    assert "'per player and per lane'" in errors[0].hint
    single = CLIMB.replace("per player and per lane", "per player").replace("progress(q, c)", "progress(q)").replace(
        "add 1 to progress(q)", "add 1 to progress(q, c)")
    assert "'progress' is kept per player: one key, e.g. progress(p)" in [e.message for e in errors_of(single)]
    scored = CLIMB + "score progress\n"
    assert [e.message for e in errors_of(scored)] == [
        "score 'progress': the counter is kept for each player and each lane, and a score needs one number per player"]


def test_keys_in_the_wrong_order_are_a_dead_end_naming_the_pair():
    swapped = CLIMB.replace("add 1 to progress(q, c)", "add 1 to progress(c, q)")
    # the checker cannot tell a lane from a player: both are numbers to it here
    game = _game(swapped)
    left = int(game.kind_pieces["lane"][0])
    s = run(game, [[0, ["choose", left, 1]]], log=False)
    assert s.dead_end.kind == "evaluation failed"
    assert s.dead_end.message == "'progress' is kept per player and per lane, and (piece #0, P2) is not one"


def test_book_narration_and_table_name_both_keys():
    rules = parsed(CLIMB)
    [progress] = [d for d in rules.decls if getattr(d, "name", None) == "progress"]
    assert kept_per(Voice(rules, "en"), progress) == "each player and each lane"
    assert kept_per(Voice(rules, "ja"), progress) == "各プレイヤーのlaneごと"
    game = _game()
    left = int(game.kind_pieces["lane"][0])
    s = run(game, [[0, ["choose", left, 1]]], log=True)
    assert "   P2's progress for left = 1" in Narrator(game, "en").tell(s.log)
    assert "   P2のleftの進み = 1" in Narrator(game, "ja").tell(s.log)
    [listed] = [c for c in V.counters(Words(game, "en"), s, 0) if c["name"] == "progress"]
    assert listed["values"] == {"P1, left": 0, "P1, right": 0, "P2, left": 1, "P2, right": 0}
    assert listed["per"] == "player and lane"


def test_the_book_lists_it_with_what_players_keep_track_of():
    from dsl.printing.book import render
    for lang, kept, read in (("en", "One for each player and each lane.", "the other player's progress for that item"),
                             ("ja", "各プレイヤーのlaneごとに一つ。", "もう一方のプレイヤーのそのものの")):
        text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", render("book", "html", parsed(CLIMB), lang))))
        assert kept in text and read in text, lang


# ---------------------------------------------------------------- no peeking
HIDDEN = """game marked_cards
  players 2 to 2
deck card
  in stock
  cards
    | name  | rank | count |
    | guard | 1    | 3     |
    | king  | 3    | 2     |
zone stock is deck, shared, seen by nobody
zone hand is hand, per player, seen by owner
zone table is table, shared, seen by everyone
counter marked per player and per card = 0
counter secret per player and per card = 0
  seen by owner
play
  repeat 2 times
    for each p in players
      draw 1 from stock to hand(p)
      set marked(p, top(hand(p))) to count(hand(p))
      set secret(p, top(hand(p))) to 5
  for each p in players
    p chooses c from hand(p)
      move c to table
      add 1 to marked(p, c)
  end game by highest marked(p, first(all(table))) for p in players ties share
"""


def test_a_value_kept_on_a_hidden_card_names_it_to_no_seat_that_cannot_see_it():
    rules = parsed(HIDDEN)
    assert [e.message for e in errors_of(HIDDEN)] == []
    checked = 0
    for seed in range(6):
        t = Table(rules, 2, ["human"] * 2, seed)
        t.advance()
        while t.state.outcome is None:
            t.act(t.humans_to_act()[0], 1)
        game, s = t.game, t.state
        names = {int(p): Words(game, "en").value(Piece(p)) for p in range(len(game.kind_of))}
        for seat in range(2):
            known = V.visible_pieces(game, s, seat)
            unseen = {p for p in names if p not in known}
            assert unseen, "the other's hand is hidden"
            listed = {c["name"]: c for c in V.counters(t.words("en"), s, seat)}
            for name in ("marked", "secret"):
                # a pair naming a card the seat cannot see is not listed; every other pair is
                expected = sum(1 for q in range(2) for p in names if p in known)
                assert len(listed[name]["values"]) == expected, (name, listed[name])
            # the seat's own secret marks are listed, the other's are '?'
            secrets = listed["secret"]["texts"]
            assert all((v == "?") == (not k.startswith(f"P{seat + 1},")) for k, v in secrets.items())
            told = t.log(seat, "en")
            marks = [line for line in told if "'s marked for " in line or "'s secret for " in line]
            # one line per mark set, each naming a hidden card as hidden; the other's secret as '?'
            hidden_said = [line for line in marks if "for a hidden card" in line]
            sets = [ev for ev in s.log if ev["event"] == "set" and ev["name"] == "marked"]
            assert len([line for line in marks if "'s marked for " in line]) == len(sets)
            assert len(hidden_said) >= 1
            theirs = [line for line in marks if line.startswith(f"   P{2 - seat}'s secret")]
            assert len(theirs) == 2 and all(line.endswith(" is now ?") for line in theirs), theirs
            checked += 1
    assert checked == 12


def test_the_agents_imagine_a_hidden_pair_value_at_its_start():
    game = _game(HIDDEN, 2)
    plain, kept = game.unseen_values(0)
    i = game.pvar_slots["secret"]
    width = game.pair_width["secret"]
    # P1 sees its own row (the first `width` values), not P2's
    assert plain == [] and kept == [(i, k) for k in range(width, 2 * width)]


def test_a_value_kept_per_card_lists_each_seen_card_once_and_no_hidden_one():
    """One key, the same rule: alike cards are numbered apart, not merged into one entry."""
    t = Table(parsed((ROOT / "tests" / "fixtures" / "draw_targets.rules").read_text(encoding="utf-8")),
              2, ["human"] * 2, 1)
    t.advance()
    for _ in range(2):
        t.act(t.humans_to_act()[0], 1)
    game, s = t.game, t.state
    for seat in range(2):
        known = V.visible_pieces(game, s, seat)
        [slot] = [c for c in V.counters(t.words("en"), s, seat) if c["name"] == "slot"]
        seen = [p for p in game.kind_pieces["card"] if p in known]
        assert len(slot["values"]) == len(seen) and sorted(slot["values"].values()) == \
            sorted(s.pvars[game.pvar_slots["slot"]][game.piece_index["slot"][p]] for p in seen)
