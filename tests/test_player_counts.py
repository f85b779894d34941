"""check names a player count at which a game cannot be played (dsl/analyses/player_counts.py):
Dream Duels allows 2 players, who form one team that has won before any round is played."""
from __future__ import annotations

from click.testing import CliRunner

from _util import BLUFF, GAMES, rules_of
from dsl.analyses.player_counts import unplayable, verdict
from dsl.cli import main
from dsl.loader import load

DREAM_DUELS = GAMES / "dream-duels.rules"

# The last player standing wins; with one player nobody is left to play against.
STANDING = """game standing
  players {low} to 3
  text en "Take a coin or knock the next player out."

counter coins per player = 0

trigger last when count(alive_players()) = 1
  end game winners alive_players()

play
  repeat until count(alive_players()) <= 1
    for each p in alive_players()
      p chooses one of
        option take
          add 1 to coins(p)
        option knock
          eliminate next_player(p)
"""


def _rules(tmp_path, text):
    path = tmp_path / "g.rules"
    path.write_text(text, encoding="utf-8")
    return load(str(path))[0]


def test_dream_duels_with_two_players_is_reported_on_its_players_line():
    (d,) = unplayable(rules_of(str(DREAM_DUELS)))
    assert (d.severity, d.span.line, d.span.column, d.span.end_column) == ("warning", 13, 3, 18)
    assert d.message == ("player count 2 cannot be played: with 2 players every game ends the same way "
                         "whatever is chosen: every seat shares the win, after at most 1 decision "
                         "(20 random games)")
    assert "players 3 to 20" in d.hint


def test_a_game_that_ends_before_anyone_decides(tmp_path):
    rules = _rules(tmp_path, STANDING.format(low=1))
    assert verdict(rules, 1) == ("with 1 player the game ends before anyone decides anything "
                                 "(seat 1 wins; 20 random games)")
    assert verdict(rules, 3) is None            # who wins depends on the choices
    (d,) = unplayable(rules)
    assert (d.span.line, d.message.split(":")[0]) == (2, "player count 1 cannot be played")


def test_playable_games_and_inconclusive_counts_say_nothing(tmp_path):
    assert unplayable(rules_of(str(BLUFF))) == []
    assert unplayable(_rules(tmp_path, STANDING.format(low=2))) == []
    # Bluff's open question exact_count leaves dead ends: its games do not all end properly
    assert verdict(rules_of(str(BLUFF)), 2, games=200) is None


def test_check_prints_it_and_still_passes():
    r = CliRunner().invoke(main, ["check", str(DREAM_DUELS)])
    assert r.exit_code == 0, r.output
    assert "dream-duels.rules:13:3: warning: player count 2 cannot be played" in r.output
    assert "hint: start the count where the game can be played (players 3 to 20)" in r.output
