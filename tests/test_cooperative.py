"""`cooperative [score ... lower|higher is better]`: the team wins or loses together, and the
analyses measure the team; `score ... lower is better`: a golf-like competitive score."""
import json
from pathlib import Path

from click.testing import CliRunner

from dsl.agents import RandomAgent
from dsl.agents.match import match
from dsl.agents.spec import parse_agent
from dsl.analyses.metrics import Tally, GameLog
from dsl.analyses.player_counts import unplayable
from dsl.analyses.simulate import game_rng, play_random
from dsl.cli import main
from dsl.constructs.registry import hook
from dsl.engine import Game
from dsl.language import syntax as S
from dsl.language.checker import check
from dsl.language.parser import parse_text
from dsl.printing.prose import Voice, plain

# The team climbs to 20 within 8 turns: resting never helps, so a strategy makes the team better.
CLIMB = """game climb
  players 2 to 3
dice die
  faces 1, 2, 3, 4, 5, 6
  count 1
  in cup
zone cup is supply, seen by everyone
counter height = 0
counter turns = 0
cooperative score turns lower is better
play
  repeat until height >= 20
    for each p in players
      add 1 to turns
      if turns > 8
        end game
      roll cup
      p chooses one of
        option climb
          add first(all(cup)).face to height
        option rest
          pass
      if height >= 20
        end game winners [p]
"""


def _rules(text=CLIMB, name="climb.rules"):
    rules, diags = parse_text(text, name)
    assert rules is not None, diags
    return rules


def _errors(text):
    return [d.message for d in check(_rules(text)) if d.severity == "error"]


def test_check_is_clean_and_finds_every_count_playable(tmp_path):
    assert _errors(CLIMB) == []
    assert unplayable(_rules()) == []
    path = tmp_path / "climb.rules"
    path.write_text(CLIMB)
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 0 and "0 warnings" in result.output, result.output


def test_one_winner_is_the_whole_team_and_seats_share_one_result():
    game = Game(_rules(), 3)
    won = lost = 0
    for i in range(40):
        st = play_random(game, game_rng(1, i), i).state
        assert st.outcome is not None
        if st.outcome:
            assert [int(p) for p in st.outcome] == [0, 1, 2]
            assert game.returns(st) == [1.0, 1.0, 1.0]
            won += 1
        else:
            assert game.returns(st) == [0.0, 0.0, 0.0]
            lost += 1
        assert game.team_score(st) == st.vars[game.var_slots["turns"]]
    assert won and lost


def test_simulate_gives_the_team_win_rate_and_score_with_intervals(tmp_path):
    path = tmp_path / "climb.rules"
    path.write_text(CLIMB)
    result = CliRunner().invoke(main, ["simulate", str(path), "--players", "2", "-n", "200", "--json"])
    assert result.exit_code == 0, result.output
    team = json.loads(result.output)["team"]
    assert team["games"] == 200 and 0 < team["won"] < 200
    assert team["win_rate"] == round(team["won"] / 200, 4)
    lo, hi = team["win_rate_ci95"]
    assert lo < team["win_rate"] < hi
    sc = team["score"]
    assert sc["better"] == "lower" and sum(k for _, k in sc["distribution"]) == 200
    assert sc["mean_ci95"][0] < sc["mean"] < sc["mean_ci95"][1]
    text = CliRunner().invoke(main, ["simulate", str(path), "--players", "2", "-n", "200"]).output
    assert f"the team won {team['won']} of 200 games" in text
    assert "team score (lower is better)" in text
    assert "a win shared across seats" not in text


def test_skill_measures_what_an_agent_adds_to_the_team():
    game = Game(_rules(), 2)
    m = match(game, parse_agent("flat:8"), RandomAgent(), 60, 1)
    # the team without the agent: random seats only, the same games
    assert m["fair_share"] < 0.3
    assert m["advantage_ci95"][0] > 0 and m["verdict"] == "flat:8 is stronger"
    same = match(game, RandomAgent(), RandomAgent(), 60, 1)
    assert same["advantage"] == 0.0


def test_checks_name_the_mistakes():
    per_player = CLIMB.replace("counter turns = 0", "counter turns per player = 0").replace(
        "add 1 to turns", "add 1 to turns(p)").replace("if turns > 8", "if turns(p) > 4")
    assert any("the counter is kept for each player, and the team has one score" in m for m in _errors(per_player))
    assert any("is not a counter kept once" in m for m in _errors(CLIMB.replace("score turns", "score turnz")))
    both = CLIMB + "counter pts per player = 0\nscore pts\n"
    assert any("in a cooperative game the players score together" in m for m in _errors(both))


def test_ranking_or_pay_offs_in_a_cooperative_game_are_refused():
    paying = CLIMB.replace("end game winners [p]", "end game with payoff height for q in players")
    errors = _errors(paying)
    assert any("in a cooperative game the players win or lose together" in m for m in errors), errors


def test_the_book_says_how_the_team_wins_in_both_languages():
    rules = _rules()
    coop = rules.of(S.Cooperative)[0]
    en = plain(hook(coop, "read")(Voice(rules, "en"), coop))
    ja = plain(hook(coop, "read")(Voice(rules, "ja"), coop))
    assert en == ("A cooperative game: all players win or lose together. "
                  "The team's score is turns; lower is better.")
    assert ja == "協力ゲーム: 全員が一緒に勝つか、一緒に負ける。チームの得点はturnsで、低いほど良い。"
    ends = [st for st in S.walk_rules(rules) if isinstance(st, S.EndGame)]
    read = [plain(Voice(rules, lang).stmt(st).runs) for st in ends for lang in ("en", "ja")]
    assert "The game ends: the team loses." in read and "The game ends: the team wins." in read
    assert "ゲーム終了。チームの負け。" in read and "ゲーム終了。チーム全員の勝ち。" in read


def test_a_lower_is_better_score_reverses_the_lead_and_the_margin():
    golf = CLIMB.replace("cooperative score turns lower is better", "counter strokes per player = 0\n"
                         "score strokes lower is better")
    rules = _rules(golf)
    assert _errors(golf) == []
    assert Game(rules, 2).score_lower
    # seat 1 leads with the fewer strokes all game and wins by 3
    log = GameLog(0, "won", (0,), 4, 1, None, [], [(0, 0), (1, 2), (2, 3), (2, 5)])
    low, high = Tally(2, (), True, lower=True), Tally(2, (), True)
    low.fold(log)
    high.fold(log)
    assert low.margins.mean() == 3 and high.margins.mean() == -3
    assert low.comebacks == 0 and high.comebacks == 1
    score = rules.of(S.Score)[0]
    assert plain(hook(score, "read")(Voice(rules, "en"), score)) == "each player's strokes (lower is better)"
    assert plain(hook(score, "read")(Voice(rules, "ja"), score)) == "各プレイヤーのstrokes(低いほど良い)"


def test_the_example_of_the_language_guide_is_the_one_checked_here():
    import re
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    at = text.index("### 2.10b `cooperative`")
    assert re.search(r"```rules\n(.*?)```", text[at:], re.S).group(1) == CLIMB


def test_the_skill_sentence_says_what_the_agent_adds_to_the_team():
    from dsl.agents.match import skill
    from dsl.analyses.verdicts import skill_sentence
    game = Game(_rules(), 2)
    r = skill(game, [parse_agent("flat:8")], RandomAgent(), 40, 1)
    assert r["cooperative"] and r["fair_share"] < 0.3
    en = skill_sentence(r, "en")
    assert en.startswith("Skill pays at 2 players: the best agent, flat:8, scores") and \
        f"with random seats, where a team of random seats wins {round(r['fair_share'] * 100)}%" in en, en
    assert "全員ランダムのチームなら" in skill_sentence(r, "ja")


def test_skill_measures_what_an_agent_adds_to_the_team_score_game_by_game():
    """Lower is better (turns taken): the gain is the team's turns without the agent minus with it,
    the same games (seeds) played both ways, worked out here from the games themselves."""
    from dsl.agents.play import play
    game = Game(_rules(), 2)
    agent, rnd = parse_agent("flat:8"), RandomAgent()
    m = match(game, agent, rnd, 40, 3)
    gains, withs, alones = [], [], []
    for i in range(40):
        seats = [rnd, rnd]
        seats[i % 2] = agent
        with_a = game.team_score(play(game, seats, game_rng(3, i), record=False, index=i).state)
        alone = game.team_score(play(game, [rnd, rnd], game_rng(3, i), record=False, index=i).state)
        withs.append(with_a)
        alones.append(alone)
        gains.append(alone - with_a)
    t = m["team_score"]
    assert t["better"] == "lower"
    assert t["with"] == round(sum(withs) / 40, 4) and t["alone"] == round(sum(alones) / 40, 4)
    assert t["gain"] == round(sum(gains) / 40, 4) and t["gain_ci95"][0] < t["gain"] < t["gain_ci95"][1]
    from dsl.agents.match import skill
    from dsl.analyses.verdicts import skill_sentence
    r = skill(game, [agent], rnd, 40, 3)
    assert r["curve"][0]["team_score"] == t
    en = skill_sentence(r, "en")
    assert f"The team's score (lower is better) averages {t['with']:.2f} with flat:8 and {t['alone']:.2f}" in en, en
    assert "チームの得点（低いほど良い）" in skill_sentence(r, "ja")


def test_the_game_shows_a_strategy_improving_the_team_where_the_team_never_wins():
    """The Game with random seats: the team wins no game, so only its score (cards left, lower is
    better) can show what a searching agent adds."""
    the_game = str(Path(__file__).parent.parent / "games" / "classics" / "the-game.rules")
    r = CliRunner().invoke(main, ["skill", the_game, "-p", "2", "-n", "30", "--seed", "1",
                                  "--levels", "random,flat:4", "--json"])
    assert r.exit_code == 0, r.output
    curve = json.loads(r.output)["curve"]
    assert all(c["wins"] == 0 for c in curve)
    random_level, flat = curve
    assert random_level["team_score"]["gain"] == 0.0
    assert flat["team_score"]["better"] == "lower" and flat["team_score"]["gain_ci95"][0] > 0
