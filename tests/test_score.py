"""`score NAME [+ NAME]`: the declaration that names a player's standing for the analyses."""
import random

from dsl.analyses.simulate import declared_score, play, score_title, scoring, simulate
from dsl.engine import Game
from dsl.language.checker import check
from dsl.language.parser import parse_text
from dsl.printing.book import contents
from dsl.printing.prose import Voice, describe, plain
from dsl.language import syntax as S

GAME = """game scoring
  players 2 to 3
counter pts per player = 0
  title ja "勝ち点" en "points"
counter pool = 0
counter side per team = 0
variable mood per player = 0
value doubled(p) = 2 * pts(p)
  title ja "倍の点" en "doubled points"
value pair(p, q) = pts(p) + pts(q)
{score}
play
  repeat 2 times
    for each p in players
      add seat(p) to pts(p)
  add side(team_of(first(players))) + pool + mood(first(players)) + pair(first(players), first(players)) to pool
  end game winners highest(pts(p) for p in players)
"""


def _rules(score):
    rules, diags = parse_text(GAME.format(score=score), "scoring.rules")
    assert rules is not None, diags
    return rules, [d for d in check(rules) if d.severity == "error"]


def _ok(score):
    rules, errors = _rules(score)
    assert errors == []
    return rules


def test_a_counter_and_a_value_are_added_up_per_seat():
    game = Game(_ok("score pts + doubled"), 3)
    s = game.blank_state()
    game.run(s, 0)
    assert s.is_terminal()
    # two passes add each seat's number (1, 2, 3) twice: pts 2, 4, 6; doubled 4, 8, 12
    assert game.scores(s) == [6, 12, 18]
    assert game.returns(s) == [0.0, 0.0, 1.0]       # the pay-offs beside, the winners unchanged


def test_without_a_declaration_there_is_no_score():
    game = Game(_ok(""), 2)
    assert game.scores(game.blank_state()) is None
    assert declared_score(game) is None and scoring(game, None) is None


def test_the_analyses_read_the_declared_score_and_the_option_overrides_it():
    game = Game(_ok("score doubled\n  title ja \"得点\" en \"standing\""), 2)
    name, fn = scoring(game, None)
    assert name == "doubled" and score_title(game) == "standing" and score_title(game, "ja") == "得点"
    _, log = play(game, random.Random(1), 0, score=fn)
    # the game has no decisions: one sample, at the end (seats 1, 2: pts 2, 4, doubled 4, 8)
    assert log.scores == [(4, 8)]
    name, fn = scoring(game, "pts")
    _, log = play(game, random.Random(1), 0, score=fn)
    assert name == "pts" and log.scores == [(2, 4)]
    assert simulate(game, 3, 1, score=scoring(game, None)).to_json()["score_by"] == "doubled"
    # without a title of its own, the parts' titles are added up
    assert score_title(Game(_ok("score pts + doubled"), 2)) == "points + doubled points"


def _error(score):
    _, errors = _rules(score)
    assert len(errors) == 1, errors
    return errors[0]


def test_what_a_score_cannot_name():
    e = _error("score pool")
    assert "kept once for the whole game" in e.message and "per player" in e.hint
    assert e.span.line == 11 and e.span.column == 1
    e = _error("score side")
    assert "kept for each team" in e.message
    assert "variable" in _error("score mood").message
    e = _error("score pair")
    assert "takes 2 parameters" in e.message and "value pair(p)" in e.hint
    e = _error("score ptss")
    assert "is not a counter kept per player" in e.message and e.hint == "did you mean 'pts'?"
    assert "'pair'" in _error("score doubled + pair").message      # the first part is fine
    assert "counted twice" in _error("score pts + pts").message
    e = _error("score pts\nscore doubled")
    assert "one score" in e.message and e.span.line == 12


def test_a_counter_named_score_is_still_allowed():
    # the declaration's name is its keyword, so it takes no name from the designer
    text = GAME.replace("counter pool = 0", "counter pool = 0\ncounter score per player = 0").replace(
        "+ pool +", "+ pool + score(first(players)) +")
    rules, diags = parse_text(text.format(score="score score"), "scoring.rules")
    assert [d for d in check(rules) if d.severity == "error"] == []
    assert Game(rules, 2).scores(Game(rules, 2).blank_state()) == [0, 0]


def test_the_rulebook_reads_the_score_by_titles_only():
    rules = _ok("score pts + doubled")
    d = rules.of(S.Score)[0]
    assert plain(describe(Voice(rules, "en"), d)) == "each player's points plus doubled points"
    assert plain(describe(Voice(rules, "ja"), d)) == "各プレイヤーの勝ち点と倍の点の合計"
    for lang, title in (("en", "Score"), ("ja", "スコア")):
        entries = [e for sec in contents(rules, lang).sections if sec.key == "markers" for e in sec.entries]
        assert entries[-1].title == title
        assert "pts" not in plain(entries[-1].detail) and "doubled" not in entries[-1].title


def test_the_editor_finds_the_parts_of_a_score_for_references_and_rename():
    from dsl.lsp.index import Index
    rules = _ok("score pts + doubled")
    index = Index([rules])
    line = GAME.format(score="score pts + doubled").splitlines().index("score pts + doubled")
    assert (line, 6, 9) in [(l.line, l.start, l.end) for l in index.occurrences("pts")]
    assert (line, 12, 19) in [(l.line, l.start, l.end) for l in index.occurrences("doubled")]
    assert index.declarations("score") == []       # the keyword is not a name the file declares


def test_reading_a_score_leaves_the_state_as_it_was():
    text = GAME.replace("value doubled(p) = 2 * pts(p)", "value doubled(p) = sum(2 * x for x in [pts(p)])")
    rules, _ = parse_text(text.format(score="score doubled"), "scoring.rules")
    assert [d for d in check(rules) if d.severity == "error"] == []
    without = Game(parse_text(text.format(score=""), "scoring.rules")[0], 3)
    game = Game(rules, 3)
    assert game.n_slots == without.n_slots       # the comprehension's local is lent, not kept
    s = game.blank_state()
    game.run(s, 0)
    before = (list(s.loc_slots), s.digest())
    assert game.scores(s) == [4, 8, 12]
    assert (list(s.loc_slots), s.digest()) == before
