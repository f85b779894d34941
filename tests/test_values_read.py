"""Values and calls read as a rulebook writes them, in a small rule set with made-up names: a
market where a trader buys crates. Each reading is a shape of the tree, not a seed's words."""
from __future__ import annotations

import pytest

from dsl.printing import book

from _util import parsed
from printed import as_text

MARKET = """game g
  players 2 to 4
deck crate
  title ja "木箱" en "crate"
  in stall
  cards for each weight in [1, 2, 3, 4, 5]
    | colour |
    | 1      |
zone stall is supply, shared, seen by everyone
  title ja "屋台" en "stall"
zone cart is hand, per player, seen by owner
  title ja "荷車" en "cart"
counter coins per player = 5
  title ja "硬貨" en "coins"
counter debt per player = 0
  title ja "借金" en "debt"
symbol weight
  title ja "重さ" en "weight"
symbol fee
  title ja "手数料" en "fee"
value affordable(p, c, fee) = coins(p) >= c.weight + fee
  title ja "買える木箱" en "a crate one can afford"
rule buy(p, fee)
  title ja "買う" en "Buy"
  if count(c in stall where affordable(p, c, fee)) > 0
    p chooses one of
      option take with c from crate where affordable(p, c, fee)
        move c to cart(p)
        subtract min(coins(p), c.weight + fee) from coins(p)
      option leave
        pass
rule go_broke(p)
  title ja "破産" en "Going broke"
  if coins(p) = 0
    add 2 * (debt(p) - 1) to debt(p)
play
  for each p in players
    do buy(p, 1)
    do buy(p, 0)
    do go_broke(p)
    p chooses one of
      option trio with a from cart(p), b from cart(p), c from cart(p) where a < b and b < c
        move a to stall
      option pair with a from cart(p), b from cart(p) where a != b
        move b to stall
    cases
      when coins(p) > 3
        add 1 to coins(p)
      when coins(p) > 1
        add 2 to coins(p)
      when coins(p) <= 1
        pass
  end game
"""


@pytest.fixture(scope="module")
def market():
    return parsed(MARKET)


def _page(rules, lang):
    return as_text(book.render("book", "html", rules, lang))


def test_the_smaller_of_two_values_says_both(market):
    assert "Subtract the smaller of that player's coins and the weight of that crate + the fee from that player's coins." \
        in _page(market, "en")
    assert "そのプレイヤーの硬貨からそのプレイヤーの硬貨とその木箱の重さ + その手数料の小さい方を引く。" in _page(market, "ja")


def test_a_formula_keeps_the_brackets_its_sum_needs(market):
    assert "Add 2 × (that player's debt − 1) to that player's debt." in _page(market, "en")
    assert "2 × (そのプレイヤーの借金 − 1)" in _page(market, "ja")


def test_cases_say_the_first_that_applies_wins(market):
    assert "Follow only the first case that applies, from the top:" in _page(market, "en")
    assert "上から順に見て、最初に当てはまる場合だけに従う。" in _page(market, "ja")


def test_a_rule_that_may_do_nothing_says_so_where_it_is_carried_out(market):
    en, ja = _page(market, "en"), _page(market, "ja")
    assert "That player carries out “Going broke” (only when its condition holds)." in en
    assert "そのプレイヤーが「破産」を行う(条件を満たすときだけ)。" in ja
    # a rule that always does something does not
    assert "“Buy” (only" not in en


def test_pieces_chosen_in_order_only_to_make_a_set_are_different_pieces(market):
    en, ja = _page(market, "en"), _page(market, "ja")
    assert "Choose 3 different crates from that player's cart" in en
    assert "そのプレイヤーの荷車から木箱3枚を選ぶ" in ja
    # where the two play different parts, each is still named
    assert "Choose a crate from that player's cart and another crate from that player's cart, where that crate is not the other crate" \
        in en


def test_a_titled_parameter_is_named_where_a_call_passes_it(market):
    en, ja = _page(market, "en"), _page(market, "ja")
    assert "Carry out “Buy” for that player (fee: 1)." in en
    assert "「買う」(そのプレイヤーについて、手数料: 0)を行う。" in ja
    assert "For a player and the fee." in en and "対象: プレイヤーと手数料" in ja


def test_a_condition_of_several_values_is_said_of_the_one_its_title_names(market):
    en, ja = _page(market, "en"), _page(market, "ja")
    # the item it names first, the others after; a value passed on under its own name not repeated
    assert "where that crate is a crate one can afford for that player" in en
    assert "その木箱が買える木箱(そのプレイヤーについて)" in ja
    assert "fee: the fee" not in en and "手数料: その手数料" not in ja



def test_a_titled_parameter_is_defined_by_what_each_call_gives(market):
    en, ja = _page(market, "en"), _page(market, "ja")
    assert "The value given each time “Buy” is carried out: 1 in “How to play”; 0 in “How to play”." in en
    assert "「買う」を行うたびに示される値。" in ja


def test_a_case_that_changes_nothing_lets_play_go_on(market):
    en, ja = _page(market, "en"), _page(market, "ja")
    assert "When that player's coins is at most 1:\nPlay on." in en
    assert "そのプレイヤーの硬貨が1以下のとき:\nそのまま続ける。" in ja


NONE_LEFT = """game g
  players 2 to 4
dice die
  title ja "さいころ" en "die"
  faces 1, 2, 3, 4, 5, 6
  count 2 per player
  in cup
zone cup is hand, per player, seen by owner
  title ja "カップ" en "cup"
zone pool is supply, shared, seen by everyone
  title ja "場" en "pool"
trigger broke for each p in alive_players() when count(cup(p)) {test}
  eliminate p
play
  for each p in players
    move 1 from cup(p) to pool
  end game by highest count(cup(p)) for p in players
"""


@pytest.mark.parametrize("test", ["<= 0", "< 1", "= 0"])
def test_a_count_at_most_0_is_none_left(test):
    rules = parsed(NONE_LEFT.format(test=test))
    en, ja = _page(rules, "en"), _page(rules, "ja")
    assert "the number of that player's cup is 0" in en and "at most 0" not in en and "less than 1" not in en
    assert "そのプレイヤーのカップの数が0" in ja and "0以下" not in ja


def test_a_count_ranks_as_many_or_few_in_japanese():
    rules = parsed(NONE_LEFT.format(test="= 0"))
    assert "カップの数が最も多いプレイヤーの勝ち" in _page(rules, "ja")


RACE = """game g
  players 2 to 4
counter steps per player = 0
  title ja "歩数" en "steps"
rule turn(p)
  title ja "手番" en "A turn"
  step walk
    title ja "歩く" en "Walk"
    add 1 to steps(p)
  step rest
    title ja "休む" en "Rest"
    pass
  step look
    title ja "見回す" en "Look around"
    pass
play
  repeat until max(steps(p) for p in players) >= 9
    for each p in players
      do turn(p)
  end game
"""


def test_the_largest_of_everyones_reaching_a_number_is_someone_reaching_it():
    rules = parsed(RACE)
    assert "Repeat until some player's steps is at least 9:" in _page(rules, "en")
    assert "だれかの歩数が9以上になるまで、次をくり返す:" in _page(rules, "ja")


def test_a_rule_of_several_steps_says_their_order_first():
    rules = parsed(RACE)
    assert "In this order: Walk → Rest → Look around." in _page(rules, "en")
    assert "次の順に行う: 歩く → 休む → 見回す。" in _page(rules, "ja")


def test_a_start_outside_the_bounds_holds_them_once_changed():
    """Dream Duels' column starts at 0 (off the field) and stays 1 to 5 once a team lands: the book
    read "starts at 0, never below 1", which contradicts itself."""
    rules = parsed(RACE.replace("counter steps per player = 0", "counter steps per player = 0 min 1 max 5"))
    assert "Starts at 0. Once changed, never below 1. Never above 5." in _page(rules, "en")
    assert "はじめは0。変わった後は1より小さくならない。5より大きくならない。" in _page(rules, "ja")


def test_two_things_alike_in_several_attributes_are_said_to_be_the_same():
    rules = parsed(MARKET.replace(
        'value affordable(p, c, fee) = coins(p) >= c.weight + fee',
        'value affordable(p, c, fee) = coins(p) >= c.weight + fee and c.weight = top(stall).weight and c.colour = top(stall).colour'))
    assert "that crate has the same weight and colour as the top of the stall" in _page(rules, "en")
    assert "その木箱の重さ・colourが屋台の一番上と同じ" in _page(rules, "ja")
