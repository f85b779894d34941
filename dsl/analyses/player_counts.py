"""Player counts at which a game cannot be played: at the fewest and at the most players the
`players` line allows, seeded random games either end before any seat has decided anything,
or all end the same way whatever was chosen (one team that has already won, one player who
wins at once). `check` reports such a count as a warning on the `players` line.

Only the two ends of the range are played: they are where a count runs out of opponents or
of pieces, and compiling a game costs a second or more per count. A count is judged only when
every game there ends properly: one dead end or one game past the step limit makes it
inconclusive, since `fuzz` and `simulate` already report those. Play is seeded, so the same
rules give the same verdict.
"""
from __future__ import annotations

import re
from dataclasses import replace

from ..engine import Game
from ..engine.errors import RuleError
from ..language import syntax as S
from ..language.diagnostics import Diagnostic
from .simulate import game_rng, play_random

GAMES_PER_COUNT = 20
SEED = 1


def _players_line(rules: S.RuleFile) -> S.Span:
    """The span of the game's `players` line (the game declaration's when it has none)."""
    game = rules.game
    lines = rules.source_of(game.span).splitlines()
    for number in range(game.span.line, min(game.span.end_line, len(lines)) + 1):
        found = re.match(r"(\s*)(players\b.*?)\s*(#.*)?$", lines[number - 1])
        if found:
            column = len(found.group(1)) + 1
            return replace(game.span, line=number, column=column, end_line=number,
                           end_column=column + len(found.group(2)))
    return game.span


def _seats(players: int) -> str:
    return f"{players} player{'s' if players != 1 else ''}"


def _winners(returns: tuple) -> str:
    if returns and returns[0] == "team":
        _, won, score = returns
        return ("the team wins" if won else "the team loses") + ("" if score is None else f" with a score of {score}")
    best = max(returns)
    if all(r == best for r in returns) and len(returns) > 1:
        return "every seat shares the win" if best > 0 else "nobody wins"
    seats = [str(i + 1) for i, r in enumerate(returns) if r == best]
    return (f"seat {seats[0]} wins" if len(seats) == 1
            else f"seats {', '.join(seats[:-1])} and {seats[-1]} share the win")


def verdict(rules: S.RuleFile, players: int, games: int = GAMES_PER_COUNT) -> str | None:
    """Why the game cannot be played with this many players, or None."""
    try:
        game = Game(rules, players)
    except RuleError:
        return None
    outcomes, decisions = set(), []
    for index in range(games):
        played = play_random(game, game_rng(SEED, index), index)
        if played.state.outcome is None:
            return None                     # a dead end or the step limit: inconclusive
        s = played.state
        if game.cooperative:        # one result for the whole table: the team's win and score
            outcomes.add(("team", bool(s.outcome), None if game.team_score is None else game.team_score(s)))
        else:
            outcomes.add(tuple(s.returns()))
        decisions.append(sum(1 for actor, _ in played.actions if actor >= 0))
    if max(decisions) == 0:
        return (f"with {_seats(players)} the game ends before anyone decides anything "
                f"({_winners(next(iter(outcomes)))}; {games} random games)")
    if len(outcomes) == 1:
        most = max(decisions)
        return (f"with {_seats(players)} every game ends the same way whatever is chosen: "
                f"{_winners(next(iter(outcomes)))}, after at most {most} decision{'s' if most != 1 else ''} "
                f"({games} random games)")
    return None


def unplayable(rules: S.RuleFile, games: int = GAMES_PER_COUNT) -> list[Diagnostic]:
    """A warning on the `players` line for each end of the range that cannot be played."""
    game = rules.game
    if game is None:
        return []
    where = _players_line(rules)
    ends = sorted({game.min_players, game.max_players})
    verdicts = {players: verdict(rules, players, games) for players in ends}
    failed = {players for players, why in verdicts.items() if why}
    return [Diagnostic("warning", rules.path_of(where), where, f"player count {players} cannot be played: {why}",
                       _hint(game, players, both=len(failed) == 2))
            for players, why in verdicts.items() if why]


def _hint(game, players: int, both: bool = False) -> str:
    """What to change: the range without this count, where there is one left to play (`both`:
    the other end cannot be played either, so the range cut at one end is no cure)."""
    low, high = game.min_players, game.max_players
    if low == high:
        # the only count: no other range to suggest from the line
        return f"write what happens at {players} players, or give the player counts the game is for"
    if both:
        other = high if players == low else low
        return (f"write what happens at {players} players ({other} players cannot be played either, "
                f"so cutting the range at one end does not help)")
    if players == low:
        return (f"start the count where the game can be played (players {low + 1} to {high}), "
                f"or write what happens at {players} players")
    return (f"end the count where the game can be played (players {low} to {high - 1}), "
            f"or write what happens at {players} players")
