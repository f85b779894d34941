"""Places where pieces lie, read as players name them (dsl/printing/places.py), in a small rule set
with made-up names: a pond of lily pads, frogs and stones on the pads, frogs kept per player too."""
from __future__ import annotations

import pytest

from dsl.language import syntax as S
from dsl.printing import book
from dsl.printing.prose import Voice
from dsl.printing.runs import plain

from _util import GAMES, parsed, rules_of
from printed import as_text

POND = """game g
  players 2 to 3
deck pad
  title ja "葉" en "lily pad"
  in pads
  cards for each number in [1, 2, 3]
    | colour |
    | 1      |
token frog
  title ja "カエル" en "frog"
  count 2 per player
  in frogs
token stone
  title ja "石" en "stone"
  count 2
  in stones
symbol number
  title ja "葉の番号" en "lily pad number"
zone pads is supply, shared, seen by everyone
  title ja "葉" en "lily pads"
zone on_pad is space, per pad, seen by everyone
  title ja "葉の上" en "the pieces on a lily pad"
zone frogs is supply, per player, seen by everyone
  title ja "カエル置き場" en "frog pool"
zone stones is supply, shared, seen by everyone
  title ja "石置き場" en "stone pile"
variable landed = nobody
  title ja "着いた葉" en "pad landed on"
value far(lp) = lp.number > 2
  title ja "遠い葉" en "a far pad"
value out_there(x) = far(holder(x))
  title ja "遠くにいる" en "far out"
play
  repeat until count(x in all(on_pad) where x.kind = "frog" and out_there(x)) > 0
    for each p in players
      p chooses one of
        option jump with lp from pad where far(lp) and empty(on_pad(lp))
          move top(frogs(p)) to on_pad(lp)
        option drop with lp from pad where empty(on_pad(lp))
          move top(stones) to on_pad(lp)
        option sink with s from all(on_pad) where s.kind = "stone"
          set landed to holder(s)
          move s to stones
  end game
"""


@pytest.fixture(scope="module")
def pond():
    return parsed(POND)


def _lines(rules, lang):
    v = Voice(rules, lang)
    return [plain(it.runs) for d in rules.decls if isinstance(d, S.Flow) for it in _flat(v.body(d.body))]


def _flat(items):
    for it in items:
        yield it
        yield from _flat(it.children)


def test_a_zone_kept_per_piece_is_read_as_that_pieces_place(pond):
    en, ja = _lines(pond, "en"), _lines(pond, "ja")
    # the piece chosen from a deck is named by its component, and its zone by the place it names
    assert any("that lily pad is a far pad and the pieces on that lily pad is empty" in line for line in en), en
    assert any("その葉が遠い葉、かつその葉の上が空" in line for line in ja), ja
    assert any("to the pieces on that lily pad" in line for line in en)
    assert any("その葉の上に移す" in line for line in ja)
    # every place at once, never "every player's", which would be a zone kept per player
    assert any("the pieces on every lily pad where" in line for line in en)
    assert any("全ての葉の上のうち" in line for line in ja)
    assert not any("every player's the pieces" in line or "全員の葉の上" in line for line in en + ja)


def test_a_piece_of_a_kind_is_that_kind(pond):
    en, ja = _lines(pond, "en"), _lines(pond, "ja")
    assert any("where it is a frog and it is far out" in line for line in en), en
    assert any("種類がカエル" in line for line in ja)
    assert any("that piece is a stone" in line for line in en)
    assert any("そのコマが石" in line for line in ja)
    assert not any("its kind is" in line for line in en)


def test_what_holds_a_piece_on_a_pad_is_the_place_not_a_player(pond):
    en, ja = _lines(pond, "en"), _lines(pond, "ja")
    assert any("The place that piece is in becomes the pad landed on." in line for line in en), en
    assert any("そのコマがある場所が着いた葉になる" in line for line in ja), ja
    assert not any("player holding" in line for line in en)


def test_a_parameter_passed_pieces_of_a_deck_is_named_by_it(pond):
    terms = as_text(book.render("book", "html", pond, "en"))
    assert "the number of that lily pad is more than 2" in terms      # 'lily pad number' not said twice
    assert "that item" not in terms
    assert "その葉の番号が2より大きい" in as_text(book.render("book", "html", pond, "ja"))


def test_a_card_in_a_hand_is_still_held_by_a_player():
    """Where pieces lie only with players and in shared piles, `holder` is a player, as before."""
    en = as_text(book.render("book", "html", rules_of(str(GAMES / "populus.rules")), "en"))
    assert "The player holding the first of genesis card where its mark is S mark becomes the start player." in en


@pytest.mark.parametrize("lang, leaked", [("en", "that item"), ("ja", "そのもの")])
def test_populus_names_every_piece_and_place(lang, leaked):
    page = as_text(book.render("book", "html", rules_of(str(GAMES / "populus.rules")), lang))
    assert leaked not in page
    assert "(#" not in page         # a place kept per piece named by that piece's values, not its number
    assert ("マス(小さい数字" in page) if lang == "ja" else ("the pieces on the space (lower number" in page)
