"""Counters kept per any declared key: per value of a card attribute (`per suit`) and per zone
of a family (`per hand`), written NAME(key), beside those kept per player, team or piece."""
from __future__ import annotations

from dsl.engine import Game
from dsl.language.checker import check
from dsl.language.parser import parse_text
from dsl.printing.narrate import Narrator
from dsl.printing.prose import Voice
from dsl.table import view as V
from dsl.table.words import Words

GAME = """game suits
  players 2 to 2
deck card
  in stock
  cards for each suit in [spade, heart]
    | rank |
    | 1    |
    | 2    |
zone stock is deck, shared, seen by nobody
zone hand is hand, per player, seen by owner
counter taken per suit = 0
counter dealt per hand = 0 max 2
counter seen per rank = 0
play
  for each p in players
    move 2 from stock to hand(p)
    add 2 to dealt(hand(p))
    for each c in hand(p)
      add 1 to taken(c.suit)
      add 10 to seen(c.rank)
  {last}
  end game by highest taken(spade) + dealt(hand(p)) for p in players ties share
"""


def _parsed(text):
    rules, diagnostics = parse_text(text, "suits.rules")
    assert rules is not None and not diagnostics, diagnostics
    return rules, [d for d in check(rules) if d.severity == "error"]


def _played(last="pass"):
    rules, errors = _parsed(GAME.format(last=last))
    assert errors == []
    game = Game(rules, 2)
    s = game.new_initial_state(log=True)
    return game, s


def _values(game, s, name):
    return dict(zip(game.piece_index[name], s.pvars[game.pvar_slots[name]]))


def test_one_value_for_each_value_of_a_card_attribute_and_each_zone_of_a_family():
    game, s = _played()
    assert s.is_terminal() and s.dead_end is None
    # the deck is spade 1, spade 2, heart 1, heart 2 from the bottom: P1 takes both hearts
    assert _values(game, s, "taken") == {"spade": 2, "heart": 2}
    assert _values(game, s, "seen") == {1: 20, 2: 20}
    hands = game.zones["hand"]
    assert _values(game, s, "dealt") == {hands[0]: 2, hands[1]: 2}
    assert s.outcome == (0, 1)


def test_a_key_of_another_kind_is_a_dead_end_naming_it():
    for last, message in (("add 1 to taken(player(1))", "'taken' is kept per suit, and P1 is not one"),
                          ("add 1 to seen(player(1))", "'seen' is kept per rank, and P1 is not one"),
                          ("add 1 to taken(3)", "'taken' is kept per suit, and 3 is not one"),
                          ("add 1 to dealt(stock)", "'dealt' is kept per hand, and Z0 is not one"),
                          ("add 1 to dealt(hand(player(1)))", "'dealt' would become 3, above its maximum 2")):
        game, s = _played(last)
        assert s.dead_end is not None and s.dead_end.message == message, (last, s.dead_end)
        assert s.dead_end.line == 21


def test_checks_name_the_mistake():
    _, errors = _parsed(GAME.format(last="pass").replace("per suit", "per suite"))
    assert [e.message for e in errors] == ["counter 'taken' is kept per 'suite', which is not a component"]
    assert "did you mean" not in errors[0].hint or "card attribute" in errors[0].hint
    _, errors = _parsed(GAME.format(last="add 1 to dealt(player(1))"))
    assert [(e.span.line, e.message) for e in errors] == [(21, "expected a zone here, but this is a player")]
    _, errors = _parsed(GAME.format(last="add 1 to taken"))
    assert [e.message for e in errors] == ["'taken' is kept per suit: say whose, e.g. taken(s)"]


def test_narration_reading_and_the_table_name_each_key():
    game, s = _played()
    en = Narrator(game, "en").tell(s.log)
    assert "   P1's hand's dealt = 2" in en and "   heart's taken = 1" in en and "   1's seen = 10" in en
    assert "   P1のhandのdealt = 2" in Narrator(game, "ja").tell(s.log)
    counters = {c["name"]: c for c in V.counters(Words(game, "en"), s)}
    assert counters["taken"]["values"] == {"spade": 2, "heart": 2}
    assert counters["dealt"]["values"] == {"P1's hand": 2, "P2's hand": 2}
    rules, _ = _parsed(GAME.format(last="pass"))
    from dsl.constructs.counter import kept_per
    [taken] = [d for d in rules.decls if getattr(d, "name", None) == "taken"]
    assert kept_per(Voice(rules, "en"), taken) == "one for each suit"
    assert kept_per(Voice(rules, "ja"), taken) == "suitごと"
