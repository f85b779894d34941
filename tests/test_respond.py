"""`in turn order after P, the first Q who chooses one of`: each player still in after P is
asked in turn order, passing or responding, and the first who responds stops the round."""
import json

from dsl.analyses.simulate import game_rng, play_random
from dsl.engine import Game
from dsl.language import syntax as S
from dsl.language.checker import check
from dsl.language.parser import parse_text
from dsl.printing.prose import Voice, plain

CLAIM = """game claim
  players 3 to 4
counter challenges per player = 0
counter claims = 0
variable challenger = nobody
play
  repeat until claims >= 6
    for each p in players
      add 1 to claims
      set challenger to nobody
      in turn order after p, the first q who chooses one of
        option challenge
          add 1 to challenges(q)
          set challenger to q
  end game winners highest(challenges(p) for p in players)
"""


def _rules(text=CLAIM):
    rules, diags = parse_text(text, "claim.rules")
    assert rules is not None, diags
    return rules


def _game(n, text=CLAIM, monkeypatch=None):
    rules = _rules(text)
    assert [d.message for d in check(rules) if d.severity == "error"] == []
    return Game(rules, n)


def _rounds(actions, n, claimants):
    """The answers of each claim: the seats asked, in order, and who challenged (None)."""
    out, it = [], iter(a for a in actions if a[0] >= 0)
    for p in claimants:
        asked, who = [], None
        for _ in range(n - 1):
            seat, move = next(it)
            asked.append(seat)
            if move[0] == "challenge":
                who = seat
                break
        out.append((p, asked, who))
    return out


def test_the_first_in_turn_order_who_responds_is_the_one_who_acts():
    for n in (3, 4):
        game = _game(n)
        slot = game.pvar_slots["challenges"]
        for i in range(40):
            played = play_random(game, game_rng(5, i), i)
            s = played.state
            assert s.dead_end is None and s.outcome
            claimants = [k % n for k in range(n * 2)]       # rounds of `for each p in players` until 6 claims
            claimants = claimants[:max(6, n * ((6 + n - 1) // n))]
            rounds = _rounds(played.actions, n, claimants)
            counted = [0] * n
            for p, asked, who in rounds:
                # asked from the next seat on, never the claimant, stopping at the first response
                assert asked == [(p + k) % n for k in range(1, len(asked) + 1)]
                assert who is None or asked[-1] == who
                assert who is not None or len(asked) == n - 1
                if who is not None:
                    counted[who] += 1
            assert list(s.pvars[slot]) == counted
        # over the seeded games, every seat after the claimant gets to respond first at some point
        firsts = {(p, who) for i in range(40)
                  for p, _, who in _rounds(play_random(game, game_rng(5, i), i).actions, n, list(range(n)))}
        assert {(0, k) for k in range(1, n)} <= firsts


def test_a_player_who_is_out_is_not_asked():
    text = CLAIM.replace("play\n", "play\n  eliminate player(2)\n")
    game = _game(3, text)
    for i in range(20):
        played = play_random(game, game_rng(5, i), i)
        assert 1 not in {seat for seat, _ in played.actions if seat >= 0}
        assert played.state.dead_end is None


def test_the_same_games_through_instructions_and_fused_code(monkeypatch):
    rules = _rules()
    fused = Game(rules, 3)
    monkeypatch.setattr(Game, "fusing", False)
    plain_game = Game(rules, 3)
    monkeypatch.undo()
    plain_game.fusing = False

    def plays(game):
        return [json.dumps([p.actions, p.state.to_json()], default=str)
                for p in (play_random(game, game_rng(11, i), i) for i in range(20))]
    assert plays(fused) == plays(plain_game)


def test_checks_and_readings():
    bad = CLAIM.replace("after p,", "after claims,")
    messages = [d.message for d in check(_rules(bad)) if d.severity == "error"]
    assert messages and any("player" in m for m in messages), messages
    rules = _rules()
    st = next(n for n in S.walk_rules(rules) if type(n).__name__ == "Respond")
    en = plain(Voice(rules, "en").stmt(st).runs)
    ja = plain(Voice(rules, "ja").stmt(st).runs)
    # read alone, p is any player: in the book it is the loop's 'that player'
    assert en == ("In turn order from the player after each player, each player still in may pass or choose one of "
                  "the following; the first who chooses does it, and nobody after them is asked:"), en
    assert ja.startswith("手番の順に、各プレイヤーの次のプレイヤーから、残っている各プレイヤーはパスするか、"
                         "次のどれか一つを選ぶ。最初に選んだプレイヤーがそれを行い、それより後のプレイヤーには聞かない:"), ja


def test_the_example_of_the_language_guide_is_the_one_played_here():
    import re
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    at = text.index("### 3.5.1 `in turn order after P")
    assert re.search(r"```rules\n(.*?)```", text[at:], re.S).group(1) == CLAIM
