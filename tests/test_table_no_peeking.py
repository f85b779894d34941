"""No peeking at the table: what a seat is shown never holds what the seat may not see.

Over random games of every game in games/ and of tests/fixtures/draw_targets.rules (two player
counts where the game allows them), at every decision and for every seat:
- the zones show exactly the pieces the engine's observation shows that seat, the rest null;
- the zones, counters and options are the same for every state the agents' Determinizer draws
  for that seat (states the seat cannot tell from the true one);
- the log reads the same when every piece the seat could not see at an event is swapped for
  another hidden piece of its kind (a piece moved, drawn, chosen, or whose own value is set), a
  hidden die shows another face, and another seat's face-down choice still waiting is another
  move, and a number a case compared is another where it was counted from pieces the seat
  could not see: no event a seat is told (the outcome sentence included) names a piece or a
  number that seat cannot see.
"""
from __future__ import annotations

import glob
import json
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dsl.agents.infoset import Determinizer, visible_zones
from dsl.constructs.choose import _chosen_from
from dsl.engine.values import Piece
from dsl.loader import load
from dsl.table import Table
from dsl.table import view as V

GAMES = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "..", "games", "*.rules")))
MAX_DECISIONS = 60          # a long game is checked over its first decisions


def _counts(path):
    g = load(path)[0].game
    return sorted({g.min_players, min(g.min_players + 1, g.max_players)})


CASES = [(os.path.basename(p)[:-6], p, n) for p in GAMES for n in _counts(p)]
# draws into hidden hands, a public number kept per card, a player chosen as a target; hands
# looked at privately (`show`); cards held facing out (`seen by others`); a rule settled by the
# total of hidden hands (the outcome sentence)
FIXTURES = [os.path.join(os.path.dirname(__file__), "fixtures", name)
            for name in ("draw_targets.rules", "looks.rules", "facing_out.rules", "hidden_total.rules")]
CASES += [(os.path.basename(p)[:-6], p, n) for p in FIXTURES for n in _counts(p)]


def test_every_game_is_covered_at_two_player_counts_where_allowed():
    names = {c[0] for c in CASES}
    assert names == {os.path.basename(p)[:-6] for p in GAMES + FIXTURES} and len(names) >= 7
    assert [c[2] for c in CASES if c[0] == "bluff"] == [2, 3]
    assert [c[2] for c in CASES if c[0] == "tictactoe"] == [2]


def _observed(game, state, seat) -> list:
    """Per zone, the piece ids the engine's observation shows (None where hidden)."""
    zones = game.observation(state, seat)["zones"]
    return [[None if o is None else o["piece"] for o in zones[name]] for name in game.zone_names]


def _swapped_log(game, table, seat, rng) -> list:
    """The log with what `seat` could not know changed: hidden pieces swapped within their kind
    and owner, hidden dice faces changed, others' pending face-down moves replaced."""
    known_at = table._known_at(seat)
    log = table.state.log
    pending_from = len(log) - V._pending_events(log, V.pending_choices(table.state))
    seen = visible_zones(game, seat)
    zone_at = {name: z for z, name in enumerate(game.zone_names)}
    out = []
    for i, ev in enumerate(log):
        known = known_at(i)
        hidden = [p for p in game.pieces if p not in known]

        def swap(x):
            if isinstance(x, int) and not isinstance(x, bool) and 0 <= x < len(game.pieces) and x not in known:
                same = [p for p in hidden if game.kind_of[p] == game.kind_of[x]
                        and game.piece_owner[p] == game.piece_owner[x]]
                return int(rng.choice(same))
            return x
        ev = dict(ev)
        if ev["event"] in ("move", "draw"):
            ev["pieces"] = [swap(p) for p in ev["pieces"]]
        elif ev["event"] == "look":
            ev["pieces"] = [swap(p) for p in ev["pieces"]]
            ev["shown"] = [game.piece_label[p] for p in ev["pieces"]]
        elif ev["event"] == "set":
            if "piece" in ev:
                ev["piece"] = swap(ev["piece"])     # a value kept per piece names its piece
            if type(ev["value"]) is Piece:
                ev["value"] = Piece(swap(ev["value"]))      # a piece set as a variable's value
        elif ev["event"] == "case":
            # a compared number counted from a piece the seat did not see could be any number
            ev["compared"] = [c if not c["secret"] and set(c["pieces"]) <= set(known) else
                              dict(c, values=[rng.randrange(-9, 99), rng.randrange(-9, 99)]) for c in ev["compared"]]
        elif ev["event"] == "rule" and "piece" in ev:
            ev["piece"] = swap(ev["piece"])     # the card that names whom a rule is for
        elif ev["event"] == "roll":
            # a rolled die is hidden again: only its zone's being seen shows its face
            where = [zone_at[ev["zone"]] if ev.get("zone") else table.state.loc[p] for p in ev["pieces"]]
            ev["faces"] = [f if seen[z] else rng.choice(game.faces[game.kind_of[p]])
                           for p, f, z in zip(ev["pieces"], ev["faces"], where)]
        elif ev["event"] == "choose":
            if ev.get("hidden") and i >= pending_from and seat not in V._choosers(game, ev):
                ev["move"] = ["another option"] + [rng.randrange(99) for _ in ev["move"][1:]]
            else:
                kinds = _chosen_from(table.words("en").narrator, ev["move"][0])
                names = ev.get("params") or [""] * (len(ev["move"]) - 1)
                seats = set(ev.get("players", ())) | set(ev.get("teams", ()))
                ev["move"] = [ev["move"][0]] + [swap(a) if kinds.get(k) == "piece" and i not in seats else a
                                                for i, (k, a) in enumerate(zip(names, ev["move"][1:]))]
        out.append(ev)
    return out


def _check_seat(table, seat, rng):
    game, state = table.game, table.state
    w = table.words("en")
    view = table.view(seat, "en")
    assert json.loads(json.dumps(view)) == view         # plain data, as a server sends it
    observed = _observed(game, state, seat)
    shown = [[None if p is None else p["id"] for p in z["pieces"]] for z in view["zones"]]
    assert shown == observed
    assert [z["count"] for z in view["zones"]] == [len(z) for z in state.zones]
    seen = {p for z in observed for p in z if p is not None}
    for o in view["options"]:
        assert set(o["pieces"]) <= seen, o
    # the same for every state the seat cannot tell from this one
    det = Determinizer(game, state, seat)
    moves = state.legal_moves(seat) if view["options"] else []
    for _ in range(2):
        sample = det.sample(rng)
        sample.log = state.log
        assert V.zones(w, sample, seat) == view["zones"]
        assert V.counters(w, sample, seat) == view["counters"]
        if moves:
            assert [o["text"] for o in V.options(w, sample, seat, sample.legal_moves(seat))] \
                == [o["text"] for o in view["options"]]
    swapped = _swapped_log(game, table, seat, rng)
    assert V.told(w, state, seat, table._known_at(seat), swapped) == view["log"]


@pytest.mark.parametrize("name,path,players", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**31), choices=st.randoms(use_true_random=False))
def test_a_seat_is_shown_only_what_it_may_see(name, path, players, seed, choices):
    rules = _rules(path)
    table = Table(rules, players, ["human"] * players, seed)
    table.advance()
    rng = random.Random(seed)
    for _ in range(MAX_DECISIONS):
        for seat in range(players):
            _check_seat(table, seat, rng)
        if table.ended():
            break
        seat = choices.choice(table.humans_to_act())
        table.act(seat, choices.randrange(len(table.options(seat))) + 1)


_LOADED: dict = {}


def _rules(path):
    if path not in _LOADED:
        _LOADED[path] = load(path)[0]
    return _LOADED[path]


def _play_until(table, stop, choices):
    while not table.ended() and not stop(table):
        seat = table.humans_to_act()[0]
        table.act(seat, choices.randrange(len(table.options(seat))) + 1)


def test_the_view_hides_another_seats_hand_and_names_its_own():
    table = Table(_rules(os.path.join("games", "democracy.rules")), 3, ["human"] * 3, 11)
    table.advance()
    view = table.view(0, "en")
    hands = {z["name"]: z for z in view["zones"] if z["name"].startswith("hand(")}
    assert len(hands["hand(1)"]["pieces"]) == 6 and all(p is not None for p in hands["hand(1)"]["pieces"])
    assert hands["hand(2)"]["pieces"] == [None] * 6 and hands["hand(2)"]["count"] == 6
    own = {p["name"] for p in hands["hand(1)"]["pieces"]}
    assert all(len(n) <= 3 and n[0] in "♠♥♦♣★" for n in own), own      # cards by printed symbol: ♦7, ♠A
    assert [o["text"].split(": ")[1] for o in view["options"]] == [p["name"] for p in hands["hand(1)"]["pieces"]]


def test_a_face_down_choice_stays_hidden_until_everyone_has_chosen():
    table = Table(_rules(os.path.join("games", "democracy.rules")), 3, ["human"] * 3, 11)
    table.advance()
    assert table.humans_to_act() == [0, 1, 2]       # Democracy plays its cards simultaneously
    card = table.options(1, "en")[0]["text"].split(": ")[1]
    table.act(1, 1)
    assert table.humans_to_act() == [0, 2]
    mine = table.view(1, "en")["log"][-1]
    assert mine.startswith("P2: ") and card in mine and mine.endswith("(face down)")
    for seat in (0, 2):
        assert table.view(seat, "en")["log"][-1] == "P2 chose (face down)"
        assert table.view(seat, "ja")["log"][-1] == "P2: 伏せて選んだ"
    table.act(0, 1)
    table.act(2, 1)
    # everyone has chosen: the choices are shown to all
    lines = table.view(0, "en")["log"]
    assert mine in lines and "P2 chose (face down)" not in lines


def test_a_hidden_die_is_never_named_in_another_seats_log():
    table = Table(_rules(os.path.join("games", "bluff.rules")), 2, ["human", "human"], 5)
    table.advance()
    rolled = [ln for ln in table.view(0, "en")["log"] if ln.startswith("   rolled")]
    assert rolled[0].startswith("   rolled dice under your cup") and "?" not in rolled[0]
    assert rolled[1] == "   rolled dice under P2's cup: ?, ?, ?, ?, ?"
    assert table.view(None, "en")["log"].count(rolled[1]) == 0       # the designer sees every face


def test_dice_rolled_again_after_a_reveal_are_hidden_again():
    table = Table(_rules(os.path.join("games", "bluff.rules")), 2, ["human", "human"], 5)
    table.advance()
    while table.view(0, "en")["log"].count("== Roll") < 2:
        seat = table.humans_to_act()[0]
        texts = [o["text"] for o in table.options(seat, "en")]
        table.act(seat, texts.index("Call bluff") + 1 if "Call bluff" in texts else 1)    # the lowest bid, then call
    log = table.view(0, "en")["log"]
    revealed = [ln for ln in log if ln.startswith("   revealed dice under P2's")]
    again = [ln for ln in log if ln.startswith("   rolled dice under P2's")]
    assert len(revealed) == 1 and "?" not in revealed[0]
    assert len(again) == 2 and set(again[1].split(": ")[1].split(", ")) == {"?"}


def test_the_view_never_holds_the_seed():
    seed = 918273645546372819
    for game, n in (("bluff", 2), ("democracy", 3), ("tictactoe", 2)):
        table = Table(_rules(os.path.join("games", f"{game}.rules")), n, ["human"] * n, seed)
        table.advance()
        choices = random.Random(1)
        for _ in range(8):
            for seat in range(n):
                text = json.dumps(table.view(seat, "en"), ensure_ascii=False)
                assert str(seed) not in text and str(seed % 2**32) not in text
            if table.ended():
                break
            seat = table.humans_to_act()[0]
            table.act(seat, choices.randrange(len(table.options(seat))) + 1)
        assert str(seed) in json.dumps(table.to_json())        # the replay keeps it: a seed replays the game


def test_pieces_named_in_options_are_seen_by_the_seat():
    table = Table(_rules(os.path.join("games", "byzantine.rules")), 3, ["human"] * 3, 2)
    table.advance()
    for seat in table.humans_to_act():          # the rock-paper-scissors for the parent: seat 1's rock wins
        table.act(seat, 1 if seat == 0 else 2)
    table.advance()
    seat = table.humans_to_act()[0]
    hand = next(z for z in table.view(seat, "en")["zones"] if z["name"] == f"hand({seat + 1})")
    ids = {p["id"] for p in hand["pieces"]}
    opts = table.options(seat, "en")
    assert opts and all(set(o["pieces"]) <= ids and o["pieces"] for o in opts)
    assert Piece(opts[0]["pieces"][0]) in table.state.zones[table.game.zone_names.index(f"hand({seat + 1})")]
