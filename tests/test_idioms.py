"""Idioms read as players say them (dsl/printing/idioms.py): each recognised as a shape of the rule
tree in a small rule set with made-up names, so nothing depends on one seed's words, and then in the
seed books where the readers met them."""
from __future__ import annotations

import re

import pytest

from dsl.language import syntax as S
from dsl.language.parser import parse_text
from dsl.printing import book, idioms
from dsl.constructs.choose import option_head
from dsl.constructs.rule import rule_item
from dsl.printing.prose import Voice
from dsl.printing.runs import plain

from _util import BLUFF, GAMES, rules_of
from printed import as_text

# A small game in other words than any seed: a tower's height and width are raised, a chip shows
# a colour or the joker, and a player can be knocked out.
GAME = """game g
  players 2 to 4
dice chip
  title ja "チップ" en "chip"
  faces 1, 2, 3, 4
  wild 4
  count 2 per player
  in pool
zone pool is supply, shared, seen by everyone
  title ja "山" en "pool"
zone hand is hand, per player, seen by owner
  title ja "手元" en "hand"
counter height = 0
  title ja "高さ" en "height"
counter width = 0
  title ja "幅" en "width"
counter colour = 1
  title ja "色" en "colour"
variable mover = nobody
  title ja "動かす人" en "mover"
symbol h
  title ja "新しい高さ" en "new height"
symbol w
  title ja "新しい幅" en "new width"
rule knock(victim, n)
  move up to n from hand(victim) to pool
  {knock}
rule score_one(who)
  title ja "得点" en "Score"
  add 1 to height
  add 1 to width
play
  set mover to player(1)
  repeat until height > 9
    mover chooses one of
      option grow with h from 0 to 9, w from 0 to 9 where {where}
        set height to h
        set width to w
        set mover to next_player(mover)
      option stop
        do knock(mover, count(c in all(hand) where {counted}))
        do score_one(player(2))
"""


def _rules(where="h >= height and w >= width and (h > height or w > width)",
           counted="c.face = colour or wild(c)", knock="eliminate victim"):
    rules, diags = parse_text(GAME.format(where=where, counted=counted, knock=knock))
    assert rules is not None, diags
    return rules


def _option(rules, name):
    for n in S.walk_rules(rules):
        if isinstance(n, S.Choose):
            return next(o for o in n.options if o.name == name)
    raise AssertionError(name)


def _said(rules, lang: str, e) -> str:
    return plain(Voice(rules, lang).expr(e))


# ---------------------------------------------------------------- a raise
@pytest.mark.parametrize("where, lean", [
    ("h >= height and w >= width and (h > height or w > width)", "up"),
    ("(w > width or h > height) and w >= width and h >= height", "up"),
    ("h <= height and w <= width and (h < height or w < width)", "down")])
def test_a_raise_is_found_in_any_order_and_either_way(where, lean):
    found = idioms.raised(_option(_rules(where), "grow").where)
    assert found is not None and found[0] == lean
    assert sorted(plain_pair(p) for p in found[1]) == [("h", "height"), ("w", "width")]


def plain_pair(pair):
    return tuple(x.id for x in pair)


@pytest.mark.parametrize("where", [
    "h >= height and w >= width",                                 # nothing must go up
    "h >= height and w >= width and (h > height or w > 3)",      # the strict part names another bound
    "h >= height and w <= width and (h > height or w < width)",  # one up, one down: no single lean
    "h >= height and (h > height or w > width)",                  # one pair kept, two moved
    "h > height or w > width"])
def test_what_is_not_a_raise_is_not_read_as_one(where):
    assert idioms.raised(_option(_rules(where), "grow").where) is None


def _head(rules, lang):
    return plain(option_head(Voice(rules, lang), _option(rules, "grow"), False))


def test_a_raise_reads_as_neither_down_and_one_up_in_both_languages():
    rules = _rules()
    assert _head(rules, "en") == ("Choose a new height (0 to 9) and a new width (0 to 9), where neither goes down "
                                  "and at least one goes up: the new height at least the height, the new width at least "
                                  "the width, not both the same")
    assert _head(rules, "ja") == ("新しい高さ(0〜9)と新しい幅(0〜9)を選ぶ(ただし、どちらも下げず、少なくとも一方を上げる: "
                                  "その新しい高さは高さ以上、その新しい幅は幅以上で、両方同じは不可)")
    lowered = _rules("h <= height and w <= width and (h < height or w < width)")
    assert "where neither goes up and at least one goes down: the new height at most the height" in _head(lowered, "en")


def test_bluffs_raise_is_one_phrase_not_a_nested_list():
    for lang, phrase in (("ja", "どちらも下げず、少なくとも一方を上げる: その目は宣言の目以上、その個数は宣言の数以上で、両方同じは不可"),
                         ("en", "neither goes down and at least one goes up: the face at least the bid face, "
                                "the count at least the bid count, not both the same")):
        page = as_text(book.render("book", "html", rules_of(str(BLUFF)), lang))
        assert phrase in page
        assert "かつ(" not in page and "and (" not in page and "次のどれか一つ以上を満たす" not in page


# ---------------------------------------------------------------- a count with wilds
def _counted(rules):
    return next(n for n in S.walk_rules(rules) if isinstance(n, S.Comprehension))


@pytest.mark.parametrize("counted", ["c.face = colour or wild(c)", "wild(c) or c.face = colour"])
def test_a_count_with_wilds_names_the_wild_face(counted):
    rules = _rules(counted=counted)
    e = _counted(rules)
    assert plain(Voice(rules, "en").expr(idioms.wild_count(e))) == "the colour"
    assert _said(rules, "en", e) == "every player's hand showing the colour or a 4 (wild)"
    assert _said(rules, "ja", e) == "全員の手元のうち、色か4(ワイルド)を出しているもの"


@pytest.mark.parametrize("counted", ["c.face = colour", "c.face = colour or c.face = 1",
                                     "c.face = colour and wild(c)"])
def test_a_filter_without_a_wild_alternative_is_read_as_written(counted):
    e = _counted(_rules(counted=counted))
    assert idioms.wild_count(e) is None


def test_bluffs_matching_dice_are_the_bid_face_or_a_wild_six():
    rules = rules_of(str(BLUFF))
    assert "全員の手元のさいころのうち、宣言の目か6(ワイルド)を出しているものの数" in as_text(book.render("book", "html", rules, "ja"))
    assert "every player's dice under your cup showing the bid face or a 6 (wild)" in \
        as_text(book.render("book", "html", rules, "en"))


# ---------------------------------------------------------------- the next player still in, passing the turn
def _assignments(rules):
    return [n for n in S.walk_rules(rules) if isinstance(n, S.Assign) and n.target.name == "mover"]


def test_passing_the_chooser_on_passes_the_turn_to_the_next_player_still_in():
    rules = _rules()
    v = Voice(rules, "en")
    passing = _assignments(rules)[1]
    assert idioms.passes_turn(v, passing)
    assert plain(v.stmt(passing).runs) == "The turn passes to the next player still in (the new mover)."
    assert plain(Voice(rules, "ja").stmt(passing).runs) == "手番は次の、まだ残っているプレイヤーに移る(その人が新しい動かす人)。"
    assert not idioms.passes_turn(v, _assignments(rules)[0])          # 'set mover to player(1)'


def test_where_nobody_leaves_the_game_the_next_player_is_just_the_next():
    rules = _rules(knock="pass")
    assert not idioms.puts_players_out(rules)
    assert plain(Voice(rules, "en").stmt(_assignments(rules)[1]).runs) == "The turn passes to the next player (the new mover)."


# ---------------------------------------------------------------- a rule called from one place
def test_a_rule_called_from_one_place_says_its_parameter_in_the_callers_words():
    rules = _rules()
    v = Voice(rules, "en")
    assert idioms.single_call(v, "score_one") is not None
    assert idioms.single_call(v, "knock") is not None       # a count reads the same anywhere
    assert plain(rule_item(v, rules.of(S.Rule)[0]).children[0].runs).startswith("Move up to the number of every player's hand")
    section = rule_item(v, rules.of(S.Rule)[1])
    assert [k for k, _ in section.texts] == []          # no 'For a player.' line: the caller named who
    call = next(n for n in S.walk_rules(rules) if isinstance(n, S.Do) and n.rule == "score_one")
    assert plain(v.stmt(call).runs) == "Carry out “Score”."


@pytest.mark.parametrize("arg, free", [("mover", True), ("count(c in all(hand) where c.face = colour)", True),
                                       ("p", False), ("count(c in hand(p))", False)])
def test_an_argument_naming_a_local_of_its_call_is_not_carried_into_the_rule(arg, free):
    rules, _ = parse_text(f"game g\n  players 2 to 2\ncounter colour = 0\nvariable mover = nobody\n"
                          f"zone hand is hand, per player, seen by owner\nrule r(x)\n  pass\n"
                          f"play\n  for each p in players\n    do r({arg})\n")
    call = next(n for n in S.walk_rules(rules) if isinstance(n, S.Do))
    assert idioms.free_of_locals(call.args[0], {"colour", "mover", "hand", "players"}) is free


def test_bluffs_lose_dice_is_read_at_its_calls_and_never_as_the_player_concerned():
    rules = rules_of(str(BLUFF))
    for lang, concerned, callers in (("ja", "対象", ("「さいころを失う」: 『ブラフ』をかけた人の手元のさいころから",
                                                    "「さいころを失う」: 宣言した人の手元のさいころから")),
                                     ("en", "concerned", ("“Lose dice”: Move up to the number below from the challenger's",
                                                          "“Lose dice”: Move up to the number below from the bidder's"))):
        page = as_text(book.render("book", "html", rules, lang))
        assert concerned not in page
        assert all(c in page for c in callers)
        assert re.search("「ブラフの判定」の中で行う|Carried out within “Settle the challenge”", page)


# ---------------------------------------------------------------- 'first' in a ranking
RANKED = """game g
  players 2 to 4
deck card
  title ja "カード" en "card"
  in stock
  cards
    | strength |
    | 1        |
    | 2        |
    | 2        |
zone stock is supply, shared, seen by everyone
  title ja "山" en "stock"
zone table is discard, shared, seen by everyone
  title ja "場" en "table"
zone laid is discard, per player, seen by everyone
  title ja "出したカード" en "cards laid"
symbol strength
  title ja "強さ" en "strength"
variable winner = nobody
  title ja "勝者" en "winner"
value best = highest(c.strength for c in {coll})
  title ja "最強のカード" en "the best card"
play
  {guard}
    set winner to holder(first(best))
"""


@pytest.mark.parametrize("coll, ja, en", [
    ("all(laid)", "同点なら、持ち主の席番号が最も小さいもの", "on a tie, the one whose owner sits in the lowest seat"),
    ("table", "同点なら、先に置かれたもの", "on a tie, the one put there first")])
def test_first_in_a_ranking_says_who_wins_a_tie(coll, ja, en):
    rules, diags = parse_text(RANKED.format(coll=coll, guard="if count(best) > 0"))
    assert rules is not None, diags
    setting = next(n for n in S.walk_rules(rules) if isinstance(n, S.Assign))
    assert plain(Voice(rules, "ja").stmt(setting).runs) == f"最強のカード({ja})を持つプレイヤーが勝者になる。"
    assert plain(Voice(rules, "en").stmt(setting).runs) == f"The player holding the best card ({en}) becomes the winner."


def test_first_of_a_ranking_known_to_hold_one_is_just_that_one():
    rules, diags = parse_text(RANKED.format(coll="table", guard="if count(best) = 1"))
    assert rules is not None, diags
    ruled = next(n for n in S.walk_rules(rules) if isinstance(n, S.If))
    read = Voice(rules, "en").stmt(ruled)
    assert plain(read.runs) == "If the number of the best card is 1:"
    assert plain(read.children[0].runs) == "The player holding the best card becomes the winner."


# ---------------------------------------------------------------- what players keep track of
def _kept(lang: str) -> dict[str, str]:
    page = book.render("book", "html", rules_of(str(BLUFF)), lang)
    table = re.search(r'id="markers".*?</section>', page, flags=re.S).group(0)
    return {re.sub(r"<[^>]+>", "", th).strip(): re.sub(r"<[^>]+>", "", td).strip()
            for th, td in re.findall(r"<th>(.*?)</th>\s*<td>(.*?)</td>", table, flags=re.S)}


def test_what_players_keep_track_of_is_said_by_when_it_changes_never_as_a_start_value_of_nobody():
    ja, en = _kept("ja"), _kept("en")
    assert ja["手番のプレイヤー"] == "いまだれの手番か。「最初の宣言」、「宣言を上げる」で変わる。"
    assert en["player to speak"] == "Whose turn it is. Changes in “Opening bid”, “Raise the bid”."
    assert ja["宣言の目"] == "「最初の宣言」、「宣言を上げる」で変わる。"       # set before it is read: no start value
    assert en["bidder"] == "Changes in “Opening bid”, “Raise the bid”."
    assert not any("開始時" in x or "なし" in x for x in ja.values())
    assert not any("starts at" in x.lower() or "nobody" in x for x in en.values())


def test_a_tally_that_is_added_to_keeps_its_start_and_its_bounds():
    rules = _rules()
    v = Voice(rules, "en")
    height = next(c for c in rules.of(S.Counter) if c.name == "height")
    assert plain(idioms.kept(v, height, "shared")) == "Starts at 0. Changes in “Score”."        # added to: its start counts
    tally, _ = parse_text("game g\n  players 2 to 2\ncounter score per player = 3 min 0 max 9\n  title ja \"点\" en \"points\"\n"
                          "play\n  step s\n    title ja \"得点\" en \"Scoring\"\n    add 1 to score(player(1))\n    end game\n")
    t = tally.of(S.Counter)[0]
    assert plain(idioms.kept(Voice(tally, "en"), t, "each player")) == \
        "One for each player. Starts at 3. Never below 0. Never above 9. Changes in “Scoring”."
    assert plain(idioms.kept(Voice(tally, "ja"), t, "各プレイヤー")) == \
        "各プレイヤーに一つ。はじめは3。0より小さくならない。9より大きくならない。「得点」で変わる。"


# ---------------------------------------------------------------- a state kept for each player
STATE = """game g
  players 2 to 4
counter racing per player = 1
  title ja "レースに残っている" en "still in the race"
counter pace per player = 0
  title ja "ペース" en "pace"
play
  repeat while count(p in players where racing(p) = 1) > {more}
    each p in highest(racing(q) for q in players where racing(q) = 1) simultaneously chooses one of
      option slow
        title ja "ゆっくり" en "Slow"
        set pace(p) to 1
      option fast
        title ja "速く" en "Fast"
        set pace(p) to {fast}
    for each p in players where racing(p) = 1 and pace(p) = 1
      set racing(p) to 0
  end game
"""


def _state_rules(more=1, fast=2):
    rules, diags = parse_text(STATE.format(more=more, fast=fast))
    assert rules is not None, diags
    return rules


def _read_play(rules, lang):
    v = Voice(rules, lang)
    loop = rules.of(S.Flow)[0].body[0]
    read = v.stmt(loop)
    return [plain(read.runs)] + [plain(c.runs) for c in read.children] + _below(read.children)


def _below(items) -> list[str]:
    return [plain(g.runs) for c in items for g in c.children] + [x for c in items for x in _below(c.children)]


def test_a_count_of_players_in_a_state_reads_as_how_many_are_in_it_in_both_languages():
    en, ja = _read_play(_state_rules(), "en"), _read_play(_state_rules(), "ja")
    assert en[0] == "Repeat while more than one player is still in the race:"
    assert ja[0] == "レースに残っているプレイヤーが2人以上いる間、次をくり返す:"
    assert _read_play(_state_rules(more=0), "en")[0] == "Repeat while at least one player is still in the race:"
    assert _read_play(_state_rules(more=0), "ja")[0] == "レースに残っているプレイヤーがいる間、次をくり返す:"
    assert _read_play(_state_rules(more=2), "en")[0] == "Repeat while more than two players are still in the race:"
    # the state set and cleared, and a filter by it with more to it
    assert en[2] == "For each player still in the race where that player's pace is 1:"
    assert ja[2] == "レースに残っているプレイヤーのうち、そのプレイヤーのペースが1であるものそれぞれについて:"
    assert en[-1] == "That player is no longer in the race."
    assert ja[-1] == "そのプレイヤーを「レースに残っている」から外す。"


def test_options_that_only_set_one_value_to_their_own_numbers_read_as_a_choice_of_that_value():
    en, ja = _read_play(_state_rules(), "en"), _read_play(_state_rules(), "ja")
    # the ranking of a key the filter already fixed keeps them all: no 'with the highest'
    assert en[1] == ("Every player still in the race chooses at the same time, face down, their pace: "
                     "Slow or Fast (counted as 1 and 2).")
    assert ja[1] == "レースに残っているプレイヤーそれぞれが同時に、伏せてペースを選ぶ: ゆっくり、速くのどれか(それぞれ1、2として数える)。"
    # two options naming the same number are two ways to one value: read as written
    same = _read_play(_state_rules(fast=1), "en")
    assert same[1] == "Every player still in the race chooses at the same time, face down, one of:"
    assert "Set that player's pace to 1." in same


def test_byzantines_rock_paper_scissors_reads_as_players_say_it():
    for lang, lines in (("en", ("Repeat while more than one player is still in the rock-paper-scissors:",
                                "Every player still in the rock-paper-scissors chooses at the same time, face down, "
                                "their rock-paper-scissors throw: Rock, Scissors or Paper (counted as 1, 2 and 3).",
                                "The player in the lowest seat who is still in the rock-paper-scissors becomes the parent.")),
                        ("ja", ("じゃんけんに残っているプレイヤーが2人以上いる間、次をくり返す:",
                                "じゃんけんに残っているプレイヤーそれぞれが同時に、伏せてじゃんけんの手を選ぶ: "
                                "グー、チョキ、パーのどれか(それぞれ1、2、3として数える)。",
                                "じゃんけんに残っているプレイヤーのうち、席番号が最も小さいプレイヤーが親になる。"))):
        page = as_text(book.render("book", "html", rules_of(str(GAMES / "byzantine.rules")), lang))
        assert all(line in page for line in lines)
        assert "with the highest still in" not in page and "Set that player's rock-paper-scissors throw" not in page
        assert "「じゃんけんに残っている」が1" not in page


# ---------------------------------------------------------------- a rule carried out by whoever its caller names
ACTED = """game g
  players 2 to 4
zone pile is discard, shared, seen by everyone
  title ja "山" en "pile"
zone kept is scored, per player, seen by everyone
  title ja "取った札" en "cards kept"
zone laid is trick, per player, seen by everyone
  title ja "出した札" en "cards laid"
variable leader = nobody
  title ja "先頭" en "leader"
variable trailer = nobody
  title ja "最後尾" en "last one"
rule settle
  title ja "決着" en "Settle"
  if count(pile) > 0
    do collect({first})
  else
    do collect({second})
rule collect(taker)
  title ja "回収" en "Collect"
  for each p in players
    move all from laid(p) to kept(taker)
  move all from pile to kept(taker)
play
  do settle
  end game
"""


def test_a_rule_carried_out_by_whoever_its_one_caller_names_says_who_once_then_the_acting_player():
    rules, diags = parse_text(ACTED.format(first="leader", second="trailer"))
    assert rules is not None, diags
    collect = next(r for r in rules.of(S.Rule) if r.name == "collect")
    for lang, said, lines in (
            ("en", "Carried out within “Settle” by the leader or the last one: below, the acting player.",
             ["Move everything in that player's cards laid to the acting player's cards kept.",
              "Move everything in the pile to the acting player's cards kept."]),
            ("ja", "「決着」の中で、先頭、または最後尾が行う(以下「行うプレイヤー」)。",
             ["そのプレイヤーの出した札を全て行うプレイヤーの取った札に移す。", "山を全て行うプレイヤーの取った札に移す。"])):
        section = rule_item(Voice(rules, lang), collect)
        assert section.texts[0] == ("params", said)
        assert [plain(section.children[0].children[0].runs), plain(section.children[1].runs)] == lines
    # a caller passing the same one twice says it once
    same, _ = parse_text(ACTED.format(first="leader", second="leader"))
    assert rule_item(Voice(same, "en"), same.of(S.Rule)[1]).texts[0][1] == \
        "Carried out within “Settle” by the leader: below, the acting player."


def test_democracys_take_the_trick_never_says_the_player_concerned():
    for lang, concerned, acting in (("ja", "対象", "表向きの投票カードを全て行うプレイヤーの取ったカードに移す。"),
                                    ("en", "concerned", "Move everything in the face-up vote to the acting player's cards taken.")):
        page = as_text(book.render("book", "html", rules_of(str(GAMES / "democracy.rules")), lang))
        assert concerned not in page and acting in page
        # said once who acts, without the tie rule the call already states
        assert ("最も強い切札を持つプレイヤー、または最も強いカードを持つプレイヤーが行う(以下「行うプレイヤー」)" in page
                or "by the player holding the highest trump or the player holding the highest cards: below, the acting player"
                in page)
        # a list of suits is gone through suit by suit, not item by item
        assert "スートがそのスートであるもの" in page or "where its suit is that suit" in page
        assert "そのもの" not in page and "that item" not in page


def test_byzantines_book_has_none_of_the_stumbles_a_first_reader_reported():
    rules = rules_of(str(GAMES / "byzantine.rules"))
    en = as_text(book.render("book", "html", rules, "en"))
    ja = as_text(book.render("book", "html", rules, "ja"))
    assert "Move 10 tokens from the token box to that player's tokens." in en          # not "that player's your tokens"
    assert "Move 7 cards from the deck to that player's hand." in en                    # a number with its noun
    assert "where the trump colour is not none and" in en                               # a colour is none, not nobody
    assert "with the highest number of tokens staked" in en                             # not 'the highest the number'
    assert "or how many cards can win is at least 2" in en                              # a question takes no "the"
    assert "the stake of the top of the governor" in en                                 # an option's title as a noun
    assert "every player's card played where it is a card that can win" in en
    # the ranking said first, then where from
    assert "The player holding the one with the highest number among every player's card played where" in en
    assert "the total of its points of each of that player's governors taken" in en     # a score is each player's
    assert "the colour of that card is the trump colour" in en                          # a chosen card played is a card
    assert re.search(r"未決の点が\d+点ある", ja) and not re.search(r"\d+つある", ja)       # 11点, not 11つ
    for stumble in ("your tokens to", "'s your ", "is not nobody", "the highest the ", "the the ", "the how ", "item concerned's colour", "the one of "):
        assert stumble not in en


# ---------------------------------------------------------------- whether any meets a condition
ANY = """game g
  players 2 to 4
zone hand is hand, per player, seen by owner
  title ja "手札" en "hand"
play
  repeat until count(p in players where empty(hand(p))) {test}
    pass
  end game
"""


@pytest.mark.parametrize("test, en, ja", [
    ("> 0", "Repeat until there is at least one player where hand is empty:",
     "「全員のうち、手札が空であるもの」が出るまで、次をくり返す:"),
    ("= 0", "Repeat until there is not one player where hand is empty:",
     "「全員のうち、手札が空であるものがいない」になるまで、次をくり返す:"),
    ("> 1", "Repeat until the number of every player where hand is empty is more than 1:",
     "「全員のうち、手札が空であるものの数が1より大きい」になるまで、次をくり返す:")])
def test_a_count_compared_with_none_says_whether_there_is_one(test, en, ja):
    rules, diags = parse_text(ANY.format(test=test))
    assert rules is not None, diags
    loop = rules.of(S.Flow)[0].body[0]
    assert plain(Voice(rules, "en").stmt(loop).runs) == en
    assert plain(Voice(rules, "ja").stmt(loop).runs) == ja


@pytest.mark.parametrize("name", ["bluff", "democracy", "byzantine", "dream-duels", "populus"])
def test_an_owner_is_never_followed_by_the_titles_own_article(name):
    """A zone or counter titled with its article or from its owner's side ("the card presented",
    "your tokens") reads after an owner without it: "one member's card presented"."""
    en = as_text(book.render("book", "html", rules_of(str(GAMES / f"{name}.rules")), "en"))
    assert not re.findall(r"\w's (?:the|your) \w+", en)


@pytest.mark.parametrize("name", ["bluff", "democracy", "byzantine", "dream-duels", "populus"])
def test_a_rules_parameter_is_that_player_never_the_player_concerned(name):
    """A defined term or rule that takes a player (a card, a number) says 'that player',
    「そのプレイヤー」, as a rulebook does: never 'the player concerned', 「対象のプレイヤー」."""
    rules = rules_of(str(GAMES / f"{name}.rules"))
    en = as_text(book.render("book", "html", rules, "en"))
    ja = as_text(book.render("book", "html", rules, "ja"))
    assert "concerned" not in en and "対象の" not in ja
