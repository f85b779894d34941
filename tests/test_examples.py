"""Worked examples from real play: which rules get one, that the numbers are the game's own,
that a replay which ends elsewhere stops the book, and that the same book comes out twice."""
from __future__ import annotations

import random
import re

import pytest

from dsl.analyses.simulate import game_rng, play_random
from dsl.engine import Game
from dsl.printing import book, examples
from dsl.printing.prose import Voice
from dsl.printing.runs import plain

from _util import BLUFF, GAMES, rules_of
from printed import as_text

SETTLING = {"bluff": ["resolve_challenge"], "democracy": ["settle_trick"], "byzantine": ["settle_trick"],
            "dream-duels": ["judge"], "populus": ["war"], "tictactoe": []}


@pytest.mark.parametrize("game", sorted(SETTLING))
def test_the_rules_that_settle_something_are_those_whose_cases_weigh_quantities(game):
    rules = rules_of(str(GAMES / f"{game}.rules"))
    assert [r.name for r in examples.settling_rules(rules)] == SETTLING[game]


def _lines(item) -> dict[str, list[str]]:
    return {plain(part.runs): [plain(line.runs) for line in part.children] for part in item.children}


@pytest.mark.parametrize("game", [g for g in sorted(SETTLING) if SETTLING[g]])
def test_every_settling_rule_has_an_example_in_both_languages(game):
    rules = rules_of(str(GAMES / f"{game}.rules"))
    for name in SETTLING[game]:
        en = examples.example_item(Voice(rules, "en"), rules, name)
        ja = examples.example_item(Voice(rules, "ja"), rules, name)
        assert en is not None and ja is not None
        assert en.kind == ja.kind == "example"
        assert "The case that holds" in _lines(en) and "当てはまる場合" in _lines(ja)
        assert _lines(en)["What follows"] and _lines(ja)["結果"]
        # the same moment, told twice
        assert re.search(r"game no\. (\d+)$", plain(en.runs)).group(1) == re.search(r"第(\d+)局$", plain(ja.runs)).group(1)


def test_the_bluff_example_counts_the_dice_it_shows():
    """The count of dice that match the bid, as printed, is what the revealed faces give: the
    bid face or a wild 6; and the case printed is the one those numbers choose."""
    rules = rules_of(str(BLUFF))
    m = examples.moments(rules)["resolve_challenge"]
    lines = _lines(examples.example_item(Voice(rules, "en"), rules, "resolve_challenge"))
    numbers = dict(line.split(": ", 1) for line in lines["The numbers compared"])
    face, matching, bid = (int(numbers[k].split(" ")[0]) for k in ("the bid face", "the number of dice that count for the bid", "the bid count"))
    faces = [int(f) for line in lines["What happened"] if " shown: " in line
             for f in line.split("shown: ")[1].split(", ")]
    assert len(faces) == 15                 # three players' five dice: the first challenge of the game
    assert matching == sum(1 for f in faces if f in (face, 6))
    more = "More than the bid: the call fails, and the challenger loses the difference."
    fewer = "Fewer than the bid: the call succeeds, and the bidder loses the difference."
    assert lines["The case that holds"] == [more if matching > bid else fewer]
    lost = abs(matching - bid)
    moved = [line for line in lines["What follows"] if " dice go from " in line]
    assert moved and int(moved[0].split(" ")[0]) == min(lost, 5)
    assert m.players == 3 and m.seed == 1


def test_the_pieces_a_trick_took_are_named_as_they_lay_before():
    """Every card of the trick is named where it lay when the case held, including the card the
    winner's own move took without the log saying from where."""
    rules = rules_of(str(GAMES / "byzantine.rules"))
    m = examples.moments(rules)["settle_trick"]
    lines = _lines(examples.example_item(Voice(rules, "en"), rules, "settle_trick"))
    played = [line for line in lines["How many each place holds (before → after)"] if "'s card played: 1 → 0 (" in line]
    assert len(played) == m.players == 3
    names = examples._Table(m.before.game, "en")
    for line in played:
        seat = int(line.split(" ")[1].split("'")[0])
        zone = m.before.game.zone_names.index(f"played({seat})")
        assert line.endswith(f"({names.card(m.before.zones[zone][0])})")
    # and each is said where it went
    told = " ".join(lines["What follows"])
    assert all(names.card(m.before.zones[m.before.game.zone_names.index(f"played({k})")][0]) in told
               for k in range(1, 4))


def test_a_replay_that_ends_elsewhere_stops_the_book():
    rules = rules_of(str(BLUFF))
    game = Game(rules, 3)
    wanted = {r.name: r for r in examples.settling_rules(rules)}
    played = play_random(game, game_rng(1, 0))
    other = play_random(game, game_rng(2, 0))
    assert played.state.digest() != other.state.digest()
    played.state = other.state           # the game as if it had ended where another one did
    ids = {i: (wanted["resolve_challenge"], c) for i, (kind, _, span) in enumerate(game.block_names)
           for c in examples._cases_of(wanted["resolve_challenge"]) if kind == "case" and span == c.span}
    with pytest.raises(examples.ExampleMismatch, match="seed 1 with 3 players ended elsewhere"):
        examples._replay(game, 1, played, ids, set())


def test_the_same_book_twice_is_the_same_bytes_and_holds_the_example_under_its_rule():
    rules = rules_of(str(BLUFF))
    first = book.render("book", "html", rules, "ja")
    examples._CACHE.clear()
    again = book.render("book", "html", rules, "ja")
    assert first == again
    assert first.index('id="rule-resolve_challenge"') < first.index('id="example-resolve_challenge"') \
        < first.index('id="rule-lose"')
    assert "実際のプレイから: 3人の対局 第1局" in as_text(first)
    typ = book.render("book", "typ", rules, "en")
    assert typ.count("#worked[") == 1 and "game no\\. 1" in typ and "decision" not in typ


def test_a_game_without_settling_rules_prints_no_example():
    rules = rules_of(str(GAMES / "tictactoe.rules"))
    assert examples.moments(rules) == {}
    assert "worked" not in book.render("book", "html", rules, "en").split("<body", 1)[1]


def test_a_rule_called_with_arguments_is_shown_with_what_they_held():
    """Dream Duels' duel is `judge(x, y)`: its numbers name the two seats' cards, and each card
    is the one that seat revealed."""
    rules = rules_of(str(GAMES / "dream-duels.rules"))
    lines = _lines(examples.example_item(Voice(rules, "en"), rules, "judge"))
    cards = [line for line in lines["The numbers compared"] if line.startswith("Seat ")]
    assert len(cards) == 2
    for line in cards:
        seat, card = line.split("'s card presented: ")
        assert f"{seat}'s card presented in battle shown: {card}" in lines["What happened"]
    assert all("'s the " not in line for part in lines.values() for line in part)
    ja = _lines(examples.example_item(Voice(rules, "ja"), rules, "judge"))
    assert [line.split("の提示")[0] for line in ja["比べる数"][:2]] == [line.split("'s")[0].replace("Seat ", "席")
                                                                     for line in cards]


# ---------------------------------------------------------------- event lines as a table says them
TOLD = """game g
  players 2 to 2
token chip
  title ja "チップ" en "chip"
  count 2 per player
  in stash
zone stash is supply, per player, seen by everyone
  title ja "プレイヤーの持ち駒" en "player's stash"
board grid
  title ja "盤" en "grid"
  grid 3 by 3
play
  each p in players simultaneously chooses x from stash(p)
    move x to grid(2, 3)
  for each p in players
    move 1 from stash(p) to grid(1, 2)
  end game
"""


def _told(lang: str) -> list[str]:
    from dsl.language.parser import parse_text
    from dsl.printing.narrate import Narrator
    rules, diags = parse_text(TOLD)
    assert rules is not None, diags
    game = Game(rules, 2)
    s = game.new_initial_state(log=True)
    for actor, move in play_random(game, random.Random(1)).actions:
        s.apply(move, None if actor == -1 else actor)
    return Narrator(game, lang).tell(s.log)


def test_event_lines_name_a_square_by_its_column_and_row_a_piece_by_itself_and_an_owner_once():
    en, ja = _told("en"), _told("ja")
    assert any(line.startswith("P1: chooses chip") for line in en)          # not 'chooses item chip'
    assert any(line.startswith("P1: 選択 チップ") for line in ja)            # not 「選択 もの チップ」
    assert "   move chip to the grid at column 2, row 3" in en and "   チップを盤の2列目・3行目のマスへ" in ja
    assert any("from P1's stash to the grid at column 1, row 2" in line for line in en)
    assert any("P1の持ち駒から盤の1列目・2行目のマス" in line for line in ja)
    page = "\n".join(en + ja)
    assert "item" not in page and "もの" not in page and "grid(2,3)" not in page
    assert "player's" not in page and "プレイヤーの持ち駒" not in page


# ---------------------------------------------------------------- told as a player tells it
# what a machine log says and a player never would
MACHINE = re.compile(r"decision \d+|\d+手目|× \w+ moved|選択 |\bchooses\b|revealed:|^   ")
# Democracy's order of strength, as its rules print it: 5 and the joker rank together at the top
STRENGTH = ["6", "7", "8", "9", "10", "jack", "queen", "king", "ace", "3", "4", "5"]


def _example(game: str, lang: str) -> dict[str, list[str]]:
    """The worked example as the printed book shows it: each part's lines under its heading."""
    from built import text
    lines = text(f"games/{game}.rules", "book", lang).split("\n")
    head = "From real play" if lang == "en" else "実際のプレイから"
    at = next(i for i, ln in enumerate(lines) if ln.startswith(head))
    parts, out = {"head": [lines[at]]}, None
    heads = ("What happened", "The numbers compared", "The case that holds", "What follows",
             "その場面", "比べる数", "当てはまる場合", "結果")
    for ln in lines[at + 1:]:
        if ln in heads:
            out = parts.setdefault(ln, [])
        elif ln.startswith(("How many each place", "置き場ごとの数")):
            break
        else:
            out.append(ln)
    return parts


@pytest.mark.parametrize("lang", ("en", "ja"))
def test_bluffs_example_says_the_bid_the_count_with_the_wild_and_why_fewer_dice_went(lang):
    ex = _example("bluff", lang)
    said = "\n".join(sum(ex.values(), []))
    assert not MACHINE.search(said), MACHINE.search(said)
    happened, numbers, follows = (ex[k] for k in (("What happened", "The numbers compared", "What follows")
                                                  if lang == "en" else ("その場面", "比べる数", "結果")))
    # who bid what: the bid challenged, by its bidder, with the face and the count
    bid = re.search(r"Seat (\d) chose .*face (\d), count (\d+)" if lang == "en" else
                    r"席(\d)が.*目 (\d)、個数 (\d+)", happened[0])
    assert bid, happened
    bidder, face, count = (int(x) for x in bid.groups())
    # the dice shown, seat by seat; the count is what they give, a 6 counting as the face
    shown = {int(m.group(1)): [int(f) for f in re.split(r", |、", m.group(2))] for ln in happened
             for m in [re.match(r"Seat (\d)'s .* shown: (.*)" if lang == "en" else r"席(\d)の.*を公開: (.*)", ln)] if m}
    assert sorted(shown) == [1, 2, 3]
    matching = sum(1 for faces in shown.values() for f in faces if f in (face, 6))
    counted = next(ln for ln in numbers if ln.startswith(("the number of dice that count", "宣言の目として数える")))
    assert re.search(r"[:：] ?(\d+)", counted).group(1) == str(matching)
    sixes = sum(faces.count(6) for faces in shown.values())
    assert counted.count("wild" if lang == "en" else "ワイルド") == sixes > 0
    assert (f"counts as {face}" if lang == "en" else f"{face}として数える") in counted
    # the result and why: the loser is the bidder (fewer) or the challenger (more); the cap said
    assert matching < count          # the moment this book prints: the call succeeds
    loss, held = count - matching, len(shown[bidder])
    went = next(ln for ln in follows if re.search(r"dice go from|が移る", ln))
    assert (f"Seat {bidder}'s" if lang == "en" else f"席{bidder}の") in went
    assert f"{min(loss, held)}" in went
    if loss > held:
        cap = f"{loss} were due ({count} − {matching}), but only {held} were there, so those {held} go" if lang == "en" \
            else f"{loss}個({count} − {matching})移すはずが、{held}個しかなかったので、その{held}個を移す"
        assert any(cap in ln for ln in follows), follows


@pytest.mark.parametrize("lang", ("en", "ja"))
def test_democracys_example_says_who_played_what_and_who_took_the_trick(lang):
    ex = _example("democracy", lang)
    said = "\n".join(sum(ex.values(), []))
    assert not MACHINE.search(said), MACHINE.search(said)
    happened, follows = (ex[k] for k in (("What happened", "What follows") if lang == "en" else ("その場面", "結果")))
    shown = dict(m.groups() for ln in happened for m in [re.match(
        r"Seat (\d)'s played card shown: (.*)" if lang == "en" else r"席(\d)の出したカードを公開: (.*)", ln)] if m)
    assert sorted(shown) == ["1", "2", "3"]
    taken = [m.group(1) for ln in follows for m in [re.match(
        r"Seat (\d)'s cards taken gets" if lang == "en" else r"席(\d)の取ったカードに", ln)] if m]
    assert len(taken) == 1
    # every card played goes to the one who took the trick, named
    assert all(card in next(ln for ln in follows if ln.startswith(("Seat", "席"))) for card in shown.values())
    if lang == "en":
        numbers = dict(ln.split(": ", 1) for ln in ex["The numbers compared"])
        trump = numbers["the trump suit"]
        trumps = {k: c for k, c in shown.items() if c.split(" ")[0] == trump}
        best = max(trumps or shown, key=lambda k: STRENGTH.index(shown[k].split(" ")[1]))
        assert taken == [best]
