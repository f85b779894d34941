"""Private looks (`show X to p`), zones seen by everyone but their owner (`seen by others`) and
the k-th item of a zone (`hand(p)[3]`): play, checks, readings, and what each seat may know."""
from __future__ import annotations

import random
import re

import pytest

from dsl.agents import ISMCTSAgent, RandomAgent, play
from dsl.agents.infoset import Determinizer
from dsl.analyses.simulate import game_rng, play_random
from dsl.engine import Game
from dsl.engine.values import Unwitnessed
from dsl.language.diagnostics import RuleFileError
from dsl.loader import load
from dsl.printing.book import render
from dsl.printing.narrate import Narrator
from dsl.table import Table

from _util import ROOT, game_of, playtest, rules_of

LOOKS = str(ROOT / "tests" / "fixtures" / "looks.rules")
FACING_OUT = str(ROOT / "tests" / "fixtures" / "facing_out.rules")


def _written(tmp_path, text, name="g.rules"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _errors(tmp_path, text) -> list:
    try:
        load(_written(tmp_path, text, f"g{len(list(tmp_path.iterdir()))}.rules"))
    except RuleFileError as e:
        return [(d.span.line, d.span.column, d.message, d.hint) for d in e.diagnostics if d.severity == "error"]
    return []


def _book(rules, lang) -> str:
    html = render("book", "html", rules, lang)
    text = re.sub(r"<[^>]+>", " ", html).replace("&#39;", "'")
    return re.sub(r"\s+", "" if lang == "ja" else " ", text)


def _decide(g, s, rng):
    while s.outcome is None and s.dead_end is None and g.is_chance(s):
        g.apply(s, rng.randrange(g.chance_outcomes(s)))


# ---------------------------------------------------------------- show X to p
def test_a_look_is_known_to_the_looker_while_the_piece_stays_and_dealt_again_for_everyone_else():
    """Over random games: the looker's information set keeps each piece it looked at where it
    lies until the piece moves; a seat that did not look (nor owns the hand) imagines other cards there."""
    g = game_of(LOOKS, 3)
    fixed = differed = looks = 0
    for game in range(6):
        rng = random.Random(game)
        s = g.new_initial_state(log=True)
        while True:
            _decide(g, s, rng)
            if s.outcome is not None or s.dead_end is not None:
                break
            looks += sum(e["event"] == "look" for e in s.log)
            for x, seers in s.looked.items():
                # looked at since it last moved: the last event naming it is the look
                last = [e["event"] for e in s.log if x in e.get("pieces", ())][-1]
                assert last == "look"
                z = s.loc[x]
                k = s.zones[z].index(x)
                for p in range(3):
                    if g.zone_visible(z, p):
                        continue
                    d = Determinizer(g, s, p)
                    imagined = [d.sample(rng).zones[z][k] for _ in range(12)]
                    if p in seers:
                        assert imagined == [x] * 12
                        fixed += 1
                    else:
                        differed += any(g.piece_label[y] != g.piece_label[x] for y in imagined)
            d = g.decision(s)
            g.apply(s, rng.choice(d[1]), d[0])
        assert s.outcome is not None
    assert looks and fixed > 20 and differed > 20


def test_searching_agents_play_games_of_looks_and_cards_facing_out_to_the_end():
    for path in (LOOKS, FACING_OUT):
        g = game_of(path, 3)
        for i in range(2):
            s = play(g, [ISMCTSAgent(8), RandomAgent(), ISMCTSAgent(8)], game_rng(2, i), record=False, index=i).state
            assert s.outcome is not None and s.dead_end is None


def test_a_piece_moved_after_a_look_is_no_longer_known_by_its_looker():
    g = game_of(LOOKS, 3)
    rng = random.Random(3)
    s = g.new_initial_state(log=True)
    _decide(g, s, rng)
    player, moves = g.decision(s)
    g.apply(s, moves[0], player)          # P1 looks at P2's hand
    assert set(s.looked) == set(s.zones[g.zones["hand"][1]]) and all(w == (0,) for w in s.looked.values())
    seen = dict(s.looked)
    # P1 discards, draws; P2 looks at someone, then discards one of the cards P1 saw
    player, moves = g.decision(s)
    g.apply(s, moves[0], player)
    _decide(g, s, rng)
    player, moves = g.decision(s)
    g.apply(s, moves[0], player)
    player, moves = g.decision(s)
    gone = next(m for m in moves if m[1] in seen)
    g.apply(s, gone, player)
    assert gone[1] not in s.looked and s.loc[gone[1]] == g.zones["discard"]
    kept = next(x for x in seen if x != gone[1])
    assert s.looked[kept] == (0,)


def test_the_table_shows_a_looked_at_card_only_to_its_looker_in_the_view_and_the_log():
    t = Table(rules_of(LOOKS), 3, ["human"] * 3, 5)
    t.advance()
    rng = random.Random(5)
    checked = 0
    while not t.ended():
        seat = t.humans_to_act()[0]
        t.act(seat, rng.randrange(len(t.options(seat))) + 1)
        s, g = t.state, t.game
        for r in range(3):
            for z in t.view(r)["zones"]:
                zid = g.zone_names.index(z["name"])
                if g.zone_visible(zid, r):
                    continue
                for p, shown in zip(s.zones[zid], z["pieces"]):
                    assert (shown is not None) == (r in s.looked.get(p, ())), (r, z["name"])
                    checked += shown is not None
    hidden = 0
    for r in range(3):
        lines = t.log(r, "en", trace=True)   # one line an event, to pair with the events
        knows = set()           # what r looked at before, and has not moved since
        for ev, line in zip(t.state.log, lines):
            if ev["event"] in ("move", "draw"):
                knows -= set(ev["pieces"])
            if ev["event"] != "look":
                continue
            owner = int(ev["zone"][5:-1]) - 1
            if r in ev["to"] or r == owner:
                assert "hidden" not in line, line
                knows |= set(ev["pieces"]) if r in ev["to"] else set()
            else:
                told = line.split(": ", 1)[1].split(", ")
                assert [x == "a hidden card" for x in told] == [p not in knows for p in ev["pieces"]], line
                hidden += told.count("a hidden card")
    assert checked > 5 and hidden > 5


def test_show_reads_and_narrates_in_both_languages():
    rules = rules_of(LOOKS)
    assert "Show the other player's hand to that player only." in _book(rules, "en")
    assert "もう一方のプレイヤーのhandをそのプレイヤーにだけ見せる。" in _book(rules, "ja")
    g = Game(rules, 3)
    ev = {"event": "look", "zone": "hand(2)", "pieces": [0, 1], "to": [0], "shown": ["guard", "guard"]}
    assert Narrator(g, "en").event(ev) == "   P2's hand shown to P1: guard, guard"
    assert Narrator(g, "ja").event(ev).startswith("   P2のhandをP1に見せる: ")
    one = dict(ev, zone=None, pieces=[0], shown=["guard"])
    assert Narrator(g, "en").event(one) == "   shown to P1: guard"


SHOW_ONE = """game show_one
  players 2 to 2

deck card
  in stock
  cards
    | name  | count |
    | guard | 2     |
    | spy   | 2     |

zone stock is deck, shared, seen by nobody
zone hand is hand, per player, seen by owner

setup
  for each p in players
    move 1 from stock to hand(p)

play
  for each p in players
    show top(hand(next_player(p))) to [p]
  show {what} to {whom}
  end game
"""


def test_one_piece_can_be_shown_and_a_team_or_list_of_players_is_a_group(tmp_path):
    g = Game(rules_of(_written(tmp_path, SHOW_ONE.format(what="stock", whom="players"))), 2)
    s = play_random(g, game_rng(1, 0), 0).state
    assert s.dead_end is None
    hands = g.zones["hand"]
    assert s.looked[s.zones[hands[0]][0]] == (1,) and s.looked[s.zones[hands[1]][0]] == (0,)
    assert all(s.looked[p] == (0, 1) for p in s.zones[g.zones["stock"]])


def test_show_is_checked_for_what_it_shows_and_to_whom(tmp_path):
    errors = _errors(tmp_path, SHOW_ONE.format(what="3", whom="players"))
    assert [e[2] for e in errors] == ["'show' shows a piece or a zone's pieces, and this is a number"]
    errors = _errors(tmp_path, SHOW_ONE.format(what="stock", whom="stock"))
    assert [e[:3] for e in errors] == [(21, 17, "a piece is shown to a player, a team or a collection of players, "
                                                "and this is a zone")]
    assert "reveal" in errors[0][3]


# ---------------------------------------------------------------- seen by others
def test_cards_facing_out_are_hidden_from_their_owner_and_shown_to_the_others():
    t = Table(rules_of(FACING_OUT), 3, ["human"] * 3, 2)
    t.advance()
    s, g = t.state, t.game
    for seat in range(3):
        for z in t.view(seat)["zones"]:
            if z["name"].startswith("forehead"):
                own = z["owner"] == seat
                assert z["seen"] == "others" and len(z["pieces"]) == 1
                assert (z["pieces"][0] is None) == own
        log = t.log(seat, "en")
        assert "   a hidden card goes from stock to your forehead" in log
        assert sum("a hidden card goes from stock to" in line for line in log) == 1


def test_the_owners_information_set_deals_its_own_card_again_and_the_others_know_it():
    g = game_of(FACING_OUT, 4)
    rng = random.Random(7)
    s = g.new_initial_state(log=True)
    _decide(g, s, rng)
    for p in range(4):
        d = Determinizer(g, s, p)
        samples = [d.sample(rng) for _ in range(40)]
        for q in range(4):
            z = g.zones["forehead"][q]
            imagined = {t.zones[z][0] for t in samples}
            if q == p:
                assert len(imagined) > 3 and all(x not in imagined for r in range(4) if r != p
                                                 for x in s.zones[g.zones["forehead"][r]])
            else:
                assert imagined == {s.zones[z][0]}


OTHERS_CHECKS = """game others
  players 3 to 3

deck card
  in stock
  cards
    | name  | count |
    | guard | 6     |

zone stock is deck, shared, seen by others
zone hand is hand, per player, seen by others
counter bet per player = 0
  seen by others
variable pot = 0
  seen by others

play
  end game
"""


def test_seen_by_others_needs_an_owner_and_a_counter_kept_per_player_is_seen_by_the_others(tmp_path):
    errors = _errors(tmp_path, OTHERS_CHECKS)
    assert [(e[0], e[2]) for e in errors] == [
        (10, "zone 'stock' is seen by everyone but its owner, but it is not kept per player or per team"),
        (14, "variable 'pot' is seen by everyone but its owner, but it is not kept per player or per team")]
    fixed = OTHERS_CHECKS.replace("stock is deck, shared, seen by others", "stock is deck, shared, seen by nobody") \
        .replace("variable pot = 0\n  seen by others\n", "")
    g = Game(rules_of(_written(tmp_path, fixed)), 3)
    s = g.new_initial_state()
    assert g.observation(s, 1)["counters"]["bet"] == [0, None, 0]
    assert "seen by everyone but its owner" in _book(g.rules, "en") and "持ち主以外の全員が見る" in _book(g.rules, "ja")


# ---------------------------------------------------------------- the k-th item
INDEXED = """game indexed
  players 2 to 2

deck card
  in stock
  cards for each value in 1..6
    | colour |
    | red    |

zone stock is deck, shared, seen by everyone
zone hand is hand, per player, seen by owner
zone table is pile, shared, seen by everyone

setup
  for each p in players
    move 3 from stock to hand(p)

play
  for each p in players
    move hand(p)[{k}] to table
  move hand(player(1))[{last}] to table
  end game
"""


def test_the_kth_card_of_a_zone_is_counted_from_its_first_and_too_few_is_a_dead_end_where_it_is_asked(tmp_path):
    g = Game(rules_of(_written(tmp_path, INDEXED.format(k=2, last=2))), 2)
    s = play_random(g, game_rng(1, 0), 0).state
    assert s.dead_end is None
    # the unshuffled stock deals its top three, cards 4 to 6, to P1 and cards 1 to 3 to P2:
    # the second of each hand, then the second of what P1 has left
    assert [g.piece_attrs[p]["value"] for p in s.zones[g.zones["table"]]] == [5, 2, 6]
    g = Game(rules_of(_written(tmp_path, INDEXED.format(k=2, last=3), "short.rules")), 2)
    s = play_random(g, game_rng(1, 0), 0).state
    d = s.dead_end
    assert (d.kind, d.line, d.column) == ("out of range", 21, 8)
    assert d.message == "asked for item 3 of hand(1), which holds 2"


def test_an_item_number_no_zone_can_reach_is_an_error_before_play(tmp_path):
    errors = _errors(tmp_path, INDEXED.format(k=0, last=7))
    assert [(e[0], e[1], e[2]) for e in errors] == [
        (20, 18, "there is no item 0: items are counted from 1"),
        (21, 24, "no zone can hold 7 pieces: the game has 6")]
    errors = _errors(tmp_path, INDEXED.format(k="p", last=1))
    assert any("expected a number" in e[2] for e in errors)
    assert _errors(tmp_path, INDEXED.format(k="1", last="count(stock) + 9")) == []


def test_the_kth_item_reads_in_both_languages(tmp_path):
    rules = rules_of(_written(tmp_path, INDEXED.format(k=2, last="count(table)")))
    en, ja = _book(rules, "en"), _book(rules, "ja")
    assert "Move the 2nd item in that player's hand to table" in en
    assert "item number the number of table in the player in seat 1's hand" in en
    assert "そのプレイヤーのhandの2番目をtableに移す" in ja and "の3番目" not in ja


STRATEGY = """
strategy peeker
  prefer fold where forehead(me)[1].value < 3

strategy reader
  prefer fold where forehead(next_player(me))[1].value > 3
"""


def test_a_strategy_may_not_read_a_card_facing_out_and_may_read_the_kth_of_its_own_hand(tmp_path):
    # which player a name stands for the check cannot always tell from `me`: no card facing out is read
    text = open(FACING_OUT, encoding="utf-8").read() + STRATEGY
    errors = _errors(tmp_path, text)
    assert [(e[0], e[2]) for e in errors] == [
        (30, "strategy 'peeker' reads what its player cannot see: forehead(me)[1].value, of a piece the player cannot see"),
        (33, "strategy 'reader' reads what its player cannot see: forehead(next_player(me))[1].value, "
             "of a piece the player cannot see")]
    own = text.replace("zone forehead is hand, per player, seen by others", "zone forehead is hand, per player, seen by owner")
    assert [e[0] for e in _errors(tmp_path, own)] == [33]


# ---------------------------------------------------------------- the language guide's example
def _docs_example() -> str:
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    at = text.index("**Looks, cards facing out, the k-th card.**")
    return re.search(r"```rules\n(.*?)```", text[at:], re.S).group(1)


def test_the_looks_example_of_the_language_guide_checks_plays_and_reads(tmp_path):
    text = _docs_example()
    assert "show hand(q) to p" in text and "seen by others" in text and "hand(p)[1]" in text
    path = _written(tmp_path, text)
    r = playtest("check", path)
    assert r.exit_code == 0 and "(0 errors, 0 warnings)" in r.output, r.output
    g = game_of(path, 3)
    for i in range(20):
        s = play_random(g, game_rng(1, i), i).state
        assert s.dead_end is None and s.outcome is not None
    rules, _ = load(path)
    en, ja = _book(rules, "en"), _book(rules, "ja")
    assert "Show the other player's hand to that player only." in en and "the 1st item in that player's hand" in en
    assert "もう一方のプレイヤーの手札をそのプレイヤーにだけ見せる。" in ja and "そのプレイヤーの手札の1番目" in ja


def test_random_play_out_keeps_the_same_looks_as_the_game_played_move_by_move():
    """The play-out's own code clears a look where a piece moves, as the instructions do."""
    g = game_of(LOOKS, 3)
    for i in range(30):
        p = play_random(g, game_rng(1, i), i)
        s = g.new_initial_state(log=True)
        for actor, m in p.actions:
            g.apply(s, m) if actor == -1 else g.apply(s, tuple(m) if isinstance(m, list) else m, actor)
        assert s.looked and s.looked == p.state.looked and s.to_json() == p.state.to_json()


# ---------------------------------------------------------------- show X to p secretly
def _night(tmp_path, secretly=True) -> str:
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    at = text.index("**Secret looks: `show X to p secretly`.**")
    example = re.search(r"```rules\n(.*?)```", text[at:], re.S).group(1)
    assert "show role(q) to p secretly" in example
    return _written(tmp_path, example if secretly else example.replace(" secretly", ""),
                    "night.rules" if secretly else "night_open.rules")


def _wolves(g, s) -> list:
    return [p for p in range(g.n) if g.piece_label[s.zones[g.zones["role"][p]][0]].startswith("wolf")]


def test_the_secret_looks_example_of_the_language_guide_checks_plays_and_reads(tmp_path):
    path = _night(tmp_path)
    r = playtest("check", path)
    assert r.exit_code == 0 and "(0 errors, 0 warnings)" in r.output, r.output
    for n in (4, 6):
        g = game_of(path, n)
        for i in range(10):
            s = play_random(g, game_rng(1, i), i).state
            assert s.dead_end is None and s.outcome is not None
    rules, _ = load(path)
    assert "While everyone else has their eyes shut, show the other player's role to that player only " \
           "(nobody else knows it was shown)." in _book(rules, "en")
    assert "ほかの全員が目を閉じている間に、もう一方のプレイヤーの役をそのプレイヤーにだけ見せる" \
           "(見せたことも他の人には分からない)。" in _book(rules, "ja")
    g = Game(rules, 4)
    ev = {"event": "look", "zone": "role(2)", "pieces": [0], "to": [0], "shown": ["wolf"], "secret": True}
    assert Narrator(g, "en").event(ev) == "   P2's role shown to P1 (secretly): wolf"
    assert Narrator(g, "ja").event(ev) == "   P2の役をP1に見せる(ひそかに): wolf"


@pytest.mark.parametrize("n,seed", [(4, 1), (5, 2), (6, 3), (6, 4)])
def test_wolves_see_each_other_and_no_villager_learns_the_look_happened(tmp_path, n, seed):
    t = Table(rules_of(_night(tmp_path)), n, ["human"] * n, seed)
    t.advance()
    g, s = t.game, t.state
    wolves = _wolves(g, s)
    assert len(wolves) == 2
    # each wolf's role is known to the other wolf, by a look nobody else witnessed
    assert {s.loc[p]: w for p, w in s.looked.items()} == {g.zones["role"][a]: (b,) for a, b in (wolves, wolves[::-1])}
    assert all(type(w) is Unwitnessed for w in s.looked.values())
    for seat in range(n):
        roles = [z["pieces"] for z in t.view(seat)["zones"] if z["name"].startswith("role(")]
        seen = [k for k, pieces in enumerate(roles) if pieces != [None]]
        # a wolf sees both wolves' roles, a villager only their own
        assert seen == (wolves if seat in wolves else [seat])
        told = [line for line in t.log(seat, "en") if "shown" in line]
        assert len(told) == (1 if seat in wolves else 0), told
        # the worlds a villager imagines keep no trace of the wolves' look; a wolf's keep it
        d = Determinizer(g, s, seat)
        for _ in range(5):
            imagined = d.sample(random.Random(seed))
            assert bool(imagined.looked) == (seat in wolves)
            if seat in wolves:
                assert _wolves(g, imagined) == wolves


def test_the_same_look_shown_openly_tells_every_villager_who_looked(tmp_path):
    # the difference `secretly` makes: without it the log names the lookers to everyone
    t = Table(rules_of(_night(tmp_path, secretly=False)), 5, ["human"] * 5, 2)
    t.advance()
    villagers = [p for p in range(5) if p not in _wolves(t.game, t.state)]
    for seat in villagers:
        told = [line for line in t.log(seat, "en") if "shown" in line]
        assert len(told) == 2 and all("a hidden" in line for line in told)
        d = Determinizer(t.game, t.state, seat)
        assert d.sample(random.Random(1)).looked
