"""`pass ZONE to the left/right`, the statement docs/adding-a-construct.md walks through."""
from dsl.engine import Game
from dsl.language import syntax as S
from dsl.language.checker import check
from dsl.language.parser import parse_text
from dsl.printing.narrate import Narrator
from dsl.printing.prose import Voice, plain

GAME = """game passing
  players 3 to 3
deck cards
  card a with mark 1
  card b with mark 2
  card c with mark 3
  in pile
zone pile is supply, shared, seen by nobody
zone hand is hand, per player, seen by owner
setup
  for each p in players
    move 1 from pile to hand(p)
play
  pass hand to the {side}
  end game winners [first(players)]
"""


def _game(side, text=GAME):
    rules, diags = parse_text(text.format(side=side), "passing.rules")
    assert rules is not None and [d for d in check(rules) if d.severity == "error"] == []
    return Game(rules, 3)


def _hands(game, s):
    return [[game.piece_label[x] for x in s.zones[z]] for z in game.zones["hand"]]


def test_hands_go_to_the_left_and_to_the_right():
    for side, expected in (("left", [["a"], ["c"], ["b"]]), ("right", [["b"], ["a"], ["c"]])):
        game = _game(side)
        s = game.blank_state()
        game.run(s, 0)
        assert s.is_terminal() and s.dead_end is None
        # the deck's top card went to P1 (c), then P2 (b), then P3 (a); passing moves them on
        assert _hands(game, s) == expected, side


def test_a_player_who_is_out_is_passed_over():
    text = GAME.replace("play\n", "play\n  eliminate first(players)\n")
    game = _game("left", text)
    s = game.blank_state()
    game.run(s, 0)
    assert s.dead_end is None
    assert _hands(game, s) == [["c"], ["a"], ["b"]]     # P1 keeps c; P2 and P3 swap


def test_pieces_stay_conserved_and_know_where_they_are():
    game = _game("left")
    s = game.blank_state()
    game.run(s, 0)
    for zone, pieces in enumerate(s.zones):
        for p in pieces:
            assert s.loc[p] == zone


def test_checks_name_the_mistake():
    bad = GAME.format(side="up").replace("pass hand", "pass pile")
    rules, _ = parse_text(bad, "bad.rules")
    messages = [d.message for d in check(rules) if d.severity == "error"]
    assert "pass to the 'up'? A zone passes to the left or to the right" in messages
    assert "'pile' is not kept per player, so there is nothing to pass round" in messages


def test_reads_and_narrates_in_both_languages():
    game = _game("left")
    play = [f for f in game.rules.of(S.Flow) if f.name == "play"][0]
    en = plain(Voice(game.rules, "en").stmt(play.body[0]).runs)
    ja = plain(Voice(game.rules, "ja").stmt(play.body[0]).runs)
    assert en == "Each player passes their hand to the player on their left."
    assert ja == "各プレイヤーは自分のhandを左隣のプレイヤーに渡す。"
    s = game.new_initial_state(log=True)
    assert "   everyone passes their hand to the left" in Narrator(game, "en").tell(s.log)
    assert "   各自のhandを左隣へ渡す" in Narrator(game, "ja").tell(s.log)
