"""`eliminate P until the next round`: the player is passed over for the rest of the round and
back in as the next round (pass of the outermost play loop) begins."""
import random

from dsl.analyses.simulate import game_rng, play_random
from dsl.engine import Game
from dsl.engine.values import Player
from dsl.language import syntax as S
from dsl.language.checker import check
from dsl.language.parser import parse_text
from dsl.printing.narrate import Narrator
from dsl.printing.prose import Voice, plain

from _util import step_random

KNOCK = """game knock
  players 3 to 4
counter turns per player = 0
play
  repeat 3 times
    for each p in players where alive(p)
      add 1 to turns(p)
      p chooses one of
        option knock with q from alive_players() where q != p
          eliminate q until the next round
        option wait
          pass
  end game by highest turns(p) for p in players ties share
"""


def _game(n=3, text=KNOCK):
    rules, diags = parse_text(text, "knock.rules")
    assert rules is not None, diags
    assert [d.message for d in check(rules) if d.severity == "error"] == []
    return Game(rules, n)


def _decisions(game, seed):
    """(round, seat, move) of each decision of a seeded random game."""
    s = game.new_initial_state()
    rng = random.Random(seed)
    out = []
    while not s.is_terminal():
        rnd = s.rounds
        actor, move = step_random(s, rng.randrange)
        out.append((rnd, actor, move))
    assert s.dead_end is None
    return out


def test_the_player_knocked_out_sits_out_the_round_and_acts_the_next():
    game = _game()
    came_back = 0
    for seed in range(60):
        decisions = _decisions(game, seed)
        for at, (rnd, actor, move) in enumerate(decisions):
            if move[0] != "knock":
                continue
            q = int(move[1])
            later = decisions[at + 1:]
            assert all(a != q for r, a, _ in later if r == rnd), (seed, decisions)
            following = [(a, m) for r, a, m in later if r == rnd + 1]
            if rnd + 1 > 3 or not following:
                continue
            # back in the next round, unless knocked again there before their turn
            knocked_first = next((i for i, (a, m) in enumerate(following) if m[0] == "knock" and int(m[1]) == q), None)
            acted = next((i for i, (a, m) in enumerate(following) if a == q), None)
            assert acted is not None or knocked_first is not None, (seed, decisions)
            came_back += acted is not None and (knocked_first is None or acted < knocked_first)
    assert came_back > 10


def test_out_for_the_round_is_out_now_and_not_for_good():
    game = _game()
    s = game.new_initial_state(log=True)
    s.apply(("knock", Player(1)), Player(0))
    assert not s.alive[1] and s.alive[1] is not False
    assert [int(p) for p in s.current_actors()] == [2]      # seat 2 is passed over
    s.apply(("wait",), Player(2))
    assert s.alive[1] is True and [int(p) for p in s.current_actors()] == [0]
    told = Narrator(game, "en").tell(s.log)
    assert "   P2 is out until the next round" in told and "   P2 is back in" in told
    assert "   P2は次のラウンドまで抜ける" in Narrator(game, "ja").tell(s.log)


def test_random_play_and_fused_code_agree_with_the_instructions(monkeypatch):
    rules = _game().rules
    fast = Game(rules, 3)
    monkeypatch.setattr(Game, "fusing", False)
    slow = Game(rules, 3)
    monkeypatch.undo()
    slow.fusing = False

    def plays(g):
        return [(p.actions, p.state.to_json()) for p in (play_random(g, game_rng(3, i), i) for i in range(20))]
    assert plays(fast) == plays(slow)


def test_checks_and_readings():
    flat = "game f\n  players 2 to 2\nplay\n  eliminate first(players) until the next round\n  end game\n"
    rules, _ = parse_text(flat, "f.rules")
    assert any("the play has no round" in d.message for d in check(rules) if d.severity == "error")
    rules = _game().rules
    st = next(n for n in S.walk_rules(rules) if isinstance(n, S.Eliminate))
    # read alone, q is any player; in the book it is the option's player
    assert plain(Voice(rules, "en").stmt(st).runs) == "Each player is out until the next round (passed over until then)."
    assert plain(Voice(rules, "ja").stmt(st).runs) == "各プレイヤーは次のラウンドまで抜ける(その間は手番が飛ばされる)。"


def test_the_example_of_the_language_guide_is_the_one_played_here():
    import re
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    at = text.index("### 3.8.1 `eliminate P until the next round`")
    assert re.search(r"```rules\n(.*?)```", text[at:], re.S).group(1) == KNOCK


def test_counting_the_players_still_in_passes_over_one_out_for_the_round():
    """count(alive_players()) counts a player out for the round as out, not as a failed sum."""
    text = KNOCK.replace("        option wait\n", "        option wait if count(alive_players()) > 1\n")
    game = _game(3, text)
    outs = 0
    for seed in range(30):
        decisions = _decisions(game, seed)       # asserts no dead end
        outs += sum(1 for _, _, m in decisions if m[0] == "knock")
    assert outs > 10
