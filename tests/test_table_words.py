"""The table's log in people's words: over random games of every seed game, in Japanese and in
English, no line a seat reads is an engine assignment (`=`), a step marker (`--`, `!!`) or an
open question's provisional answer, and no zone of another seat is called "your" (あなたの)."""
from __future__ import annotations

import glob
import os
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dsl.loader import load
from dsl.table import Table

GAMES = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "..", "games", "*.rules")))
_LOADED: dict = {}


def _rules(path):
    if path not in _LOADED:
        _LOADED[path] = load(path)[0]
    return _LOADED[path]


def _own_titles(table, seat, lang) -> set:
    """The titles of the seat's own zones as its view names them."""
    return {z["title"] for z in table.view(seat, lang)["zones"] if z["owner"] == seat}


@pytest.mark.parametrize("path", GAMES, ids=lambda p: os.path.basename(p)[:-6])
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2 ** 31 - 1), lang=st.sampled_from(["en", "ja"]))
def test_the_table_log_has_no_engine_trace_and_no_other_seats_your(path, seed, lang):
    rules = _rules(path)
    n = rules.game.min_players
    table = Table(rules, n, ["human"] * n, seed)
    table.advance()
    pick = random.Random(seed)
    for _ in range(40):
        if table.ended():
            break
        seat = table.humans_to_act()[0]
        table.act(seat, pick.randrange(len(table.options(seat))) + 1)
    for seat in [*range(n), None]:
        view = table.view(seat, lang)
        others = [z["title"] for z in view["zones"] if z["owner"] is not None and z["owner"] != seat]
        for line in view["log"]:
            assert "=" not in (line[3:] if line.startswith("== ") else line), line
            assert not re.search(r"(^|\s)(--|!!)\s", line), line
            assert "provisional" not in line and "仮の答え" not in line, line
        for title in others:        # another seat's zone is never "your …"
            assert not re.search(r"\byour\b", title) and "あなたの" not in title, title
        if seat is None:            # the designer owns no zone: nothing is "your …" to them
            assert not any(re.search(r"\byour\b", line) or "あなたの" in line for line in view["log"])
        else:                       # "your" only in this seat's own zones' names
            own = _own_titles(table, seat, lang)
            for line in view["log"]:
                rest = line
                for title in own:
                    rest = rest.replace(title, "")
                assert not re.search(r"\byour (?!choice)", rest) and "あなたの" not in rest, line


def test_bluff_tells_a_call_and_its_outcome_in_the_seats_own_words():
    table = Table(_rules(os.path.join("games", "bluff.rules")), 3, ["human"] * 3, 4)
    table.advance()
    while not any(ev["event"] == "reveal" for ev in table.state.log):
        seat = table.humans_to_act()[0]
        texts = [o["text"] for o in table.options(seat)]
        table.act(seat, texts.index("Call bluff") + 1 if "Call bluff" in texts else 1)
    p1, p2 = table.view(0)["log"], table.view(1)["log"]
    assert "   revealed dice under your cup: " in "\n".join(p1) and "   revealed dice under P1's cup: " in "\n".join(p2)
    assert not any("P1's dice under your cup" in line or "P2's dice under your cup" in line for line in p1 + p2)
    assert not any(line.strip().startswith(("bid face", "player to speak", "-- ", "!! ")) for line in p1)
    # the trigger's title is said as the reason for what it caused
    out = [line for line in table.view(0)["log"] if " is out" in line]
    assert all("(" in line for line in out)
    titles = {z["title"] for z in table.view(1)["zones"]}
    assert "dice under your cup" in titles and "dice under P1's cup" in titles
    tiles = {c["title"] for c in table.view(0)["counters"]}
    assert all(c["text"] != "nobody" for c in table.view(0)["counters"]), tiles


def test_the_last_rounds_bid_is_no_tile_once_the_next_round_begins_but_stays_through_its_reveal():
    table = Table(_rules(os.path.join("games", "bluff.rules")), 3, ["human", "human", "random"], 4)
    table.holds_moments = True
    table.advance()
    while table.moment is None:
        seat = table.humans_to_act()[0]
        texts = [o["text"] for o in table.options(seat)]
        table.act(seat, texts.index("Call bluff") + 1 if "Call bluff" in texts else 1)
    held = {c["title"] for c in table.view(0)["counters"]}
    assert {"bid face", "bid count", "challenger"} <= held          # the call is judged against them
    for seat in sorted(table.moment["waiting"]):
        table.carry_on(seat)
    assert table.view(0)["turn"]["step"] == "Opening bid"       # the bot opens the next round
    tiles = {c["title"] for c in table.view(0)["counters"]}
    assert not {"bid face", "bid count", "challenger"} & tiles, tiles


def _in_passing(path, players):
    from dsl.engine import Game
    from dsl.table import story
    return story.in_passing(Game(_rules(path), players))


def test_values_the_rules_only_compute_in_passing_are_no_tiles():
    # read only as whose decision it is or to set another value: the player to speak, the first bidder
    assert _in_passing(os.path.join("games", "bluff.rules"), 3) == {"speaker", "starter"}
    # set and read at once in the tie's own case: the tied highest cards; the day is never read
    # by the rules and is there for the players, the trump suit decides every trick
    assert _in_passing(os.path.join("games", "democracy.rules"), 3) == {"tied_cards"}
    table = Table(_rules(os.path.join("games", "bluff.rules")), 3, ["human"] * 3, 4)
    table.advance()
    seat = table.humans_to_act()[0]
    table.act(seat, 1)                  # an opening bid: the bid, the bidder and the next to speak are set
    assert table.state.vars[table.game.var_slots["speaker"]] is not None
    tiles = {c["name"] for c in table.view(0)["counters"]}
    assert tiles == {"bid_face", "bid_count", "bidder"}, tiles


def test_a_value_set_and_read_in_one_block_is_in_passing_one_read_elsewhere_is_not(tmp_path):
    from dsl.engine import Game
    from dsl.table import story
    path = tmp_path / "passing.rules"
    path.write_text(GAME_IN_PASSING, encoding="utf-8")
    game = Game(load(str(path))[0], 2)
    assert story.in_passing(game) == {"worked", "next_up"}


GAME_IN_PASSING = """game passing
  players 2 to 2

variable next_up = nobody
variable worked = 0
variable kept = 0
variable shown = 0

setup
  set next_up to player(1)

play
  repeat 2 times
    step turn
      next_up chooses one of
        option go
          set worked to 3
          set kept to worked
          if worked > 2
            add 1 to shown
      set next_up to next_player(next_up)
  if kept > 0
    end game winners players
"""


def test_the_designers_tracked_line_shows_the_value_as_a_tile():
    # Pig's turn total is reset every turn, yet it is what a player risks by rolling again: its
    # rule file says `tracked`, and the table shows it as the book lists it
    passing = _in_passing(os.path.join("games", "classics", "pig.rules"), 2)
    assert "turn_total" not in passing and "rolling" in passing
