"""Agents measured against each other: seat-rotated matches and the skill curve.

A match puts agent A in one seat and agent B in every other, moving A one seat on each
game, so no seat's advantage counts for either. A's score is its mean utility (1 for a win,
1/k for a win shared by k, 1/n for a draw: a game that ends with nobody winning, 0 for a
loss or a dead end); two equal agents would score 1/n
with n players. The interval is Wilson's 95% score interval. Who is stronger is decided
on the advantage: per game, A's utility minus the mean utility of B's seats, with a 95%
normal interval; unlike the score against 1/n, it stays fair when dead ends (worth 0 to
everyone) eat many games.

The skill curve plays stronger and stronger agents (random, flat, ismcts with rising
budgets) against random seats. Its number, the skill room, is the best level's advantage:
0 means no agent beats random play (luck decides) and 1 means the best agent always wins
and the random seats never do. When every game has a winner it equals
(best score - 1/n) / (1 - 1/n), how far the best agent gets from the fair share toward
always winning; unlike that, it is not pulled down by dead ends, which are worth 0 to all.

In a cooperative game every seat shares one result (1 when the team wins, else 0), so A's
advantage is measured against the same game (the same seed) played with B in every seat:
how much A in the team raises the team's win rate. The fair share is then that team's rate.
A team score (`cooperative score ...`) is compared the same way, game by game: the team's
score with A minus its score without, turned so that a gain is better whichever way the score
counts (`lower is better`: fewer cards left is a gain), with its 95% interval. A game the team
rarely wins (The Game with random seats) shows what a strategy adds only there.

May import .play and .spec, and the analyses' `game_rng` and the batches' running (where games are played)
and `Histogram`.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable, Optional

from ..analyses.batches import Stopped, play_all, played, until_stopped
from ..analyses.simulate import game_rng
from ..analyses.stats import Histogram
from .play import play
from .search import win_share

Z95 = 1.959964


def wilson(score: float, n: int, z: float = Z95) -> tuple:
    """Wilson's score interval for a mean score in [0, 1] over n games."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values, z: float = Z95) -> tuple:
    """(mean, low, high): the mean with its normal-approximation interval (sample deviation), of
    a list or a Histogram, computed exactly from the values' histogram."""
    h = values if isinstance(values, Histogram) else Histogram.of(values)
    n = len(h)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = h.mean()
    half = z * (h.stdev() if n > 1 else 0.0) / math.sqrt(n)
    return mean, mean - half, mean + half


class MatchTally:
    """A match's games folded in one at a time, as exact sums (the utilities are fractions such
    as 1/3, kept as Fractions) and a histogram of the advantages, so the tallies of any split of
    the games merge to the same figures to the bit. Nothing is kept per game."""

    def __init__(self, n: int):
        self.n = n
        self.games = self.wins = self.shared = self.draws = self.losses = self.dead = self.turns = 0
        self.score = Fraction(0)
        self.alone = Fraction(0)        # cooperative: the team's results with no A in it, added up
        self.by_seat = [[Fraction(0), 0] for _ in range(n)]
        self.gaps = Histogram()
        self.team_with = self.team_alone = Fraction(0)   # cooperative with a score: the team's, added up
        self.team_gains = Histogram()

    def fold(self, i: int, end: tuple) -> None:
        """Game i's end, as `_match_game` gives it."""
        u, won, ended, dead_end, moves, alone, team = end
        n, seat = self.n, i % self.n
        if team is not None:        # (the team's score with A, without A, whether lower is better)
            with_a, without, lower = Fraction(team[0]), Fraction(team[1]), team[2]
            self.team_with += with_a
            self.team_alone += without
            self.team_gains.add(float(without - with_a if lower else with_a - without))
        r = Fraction(u[seat])
        if alone is not None:       # cooperative: what A in the team adds to the team's win
            self.alone += Fraction(alone)
            self.gaps.add(float(r - Fraction(alone)))
        else:
            self.gaps.add(float(r - (sum(map(Fraction, u)) - r) / (n - 1)) if n > 1 else 0.0)
        self.games += 1
        self.score += r
        self.by_seat[seat][0] += r
        self.by_seat[seat][1] += 1
        self.wins += r == 1
        self.shared += 0 < r < 1 and won
        self.draws += not won and ended
        self.losses += r == 0 and won
        self.dead += dead_end
        self.turns += moves

    def merge(self, other: "MatchTally") -> None:
        for name in ("games", "wins", "shared", "draws", "losses", "dead", "turns", "score", "alone",
                     "team_with", "team_alone"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.by_seat = [[t + u, c + d] for (t, c), (u, d) in zip(self.by_seat, other.by_seat)]
        self.gaps.merge(other.gaps)
        self.team_gains.merge(other.team_gains)

    def team_score(self, game) -> dict:
        """The team's mean score with A and without, and A's gain with its interval."""
        gain, lo, hi = mean_interval(self.team_gains)
        return {"better": "lower" if game.team_lower else "higher",
                "with": round(float(self.team_with) / self.games, 4), "alone": round(float(self.team_alone) / self.games, 4),
                "gain": round(gain, 4), "gain_ci95": [round(lo, 4), round(hi, 4)]}


def match(game, a, b, games: int, seed: int, progress: Optional[Callable[[int], None]] = None,
          pool=None) -> dict:
    """Agent a in one seat (seat i mod n in game i) against agent b in the others.
    pool: a batches.Pool to play the games in (the result is the same without it). Ctrl-C
    (batches.stoppable) ends it early: the figures of the first games, marked partial; or
    Stopped when none was played."""
    n = game.n
    fair = 1 / n
    tally = MatchTally(n)

    def here(i):
        tally.fold(i, _match_game(game, a, b, seed, i))
        if progress is not None:
            progress(1)
    stopped = play_all(pool, game, games, here, _match_batch, lambda portable, r: (portable, a, b, seed, r),
                       tally.merge, progress, (a, b))
    if stopped and not tally.games:
        raise Stopped()         # nothing to report
    played_games = tally.games
    if game.cooperative and played_games:
        fair = float(tally.alone) / played_games     # the team's win rate without A: what A is measured against
    score = float(tally.score)
    lo, hi = wilson(score, played_games)
    mean, a_lo, a_hi = mean_interval(tally.gaps)
    verdict = (f"{a.name} is stronger" if a_lo > 0 else f"{b.name} is stronger" if a_hi < 0
               else "no clear difference")
    return {
        "a": a.name, "b": b.name, "players": n, "games": played_games, "seed": seed,
        **({"partial": True, "games_asked": games} if stopped else {}),
        "score": round(score / played_games, 4), "ci95": [round(lo, 4), round(hi, 4)], "fair_share": round(fair, 4),
        "advantage": round(mean, 4), "advantage_ci95": [round(a_lo, 4), round(a_hi, 4)],
        "wins": tally.wins, "shared_wins": tally.shared, "draws": tally.draws, "losses": tally.losses,
        "dead_end_games": tally.dead,
        "score_by_seat": {str(k + 1): round(float(t / c), 4) if c else None for k, (t, c) in enumerate(tally.by_seat)},
        "mean_turns": round(tally.turns / played_games, 2) if played_games else 0.0,
        "verdict": verdict,
        **({"team_score": tally.team_score(game)} if game.cooperative and game.team_score is not None and played_games
           else {}),
    }


def _match_game(game, a, b, seed: int, i: int) -> tuple:
    """How game i of a match ended: (utilities, someone won, it ended, a dead end, decisions,
    and in a cooperative game the team's utility in the same game (seed) with b in every seat)."""
    n = game.n
    agents = [b] * n
    agents[i % n] = a
    s = play(game, agents, game_rng(seed, i), record=False, index=i).state
    alone = team = None
    if game.cooperative:
        # every seat shares one result, so A is measured against the team without it
        without = play(game, [b] * n, game_rng(seed, i), record=False, index=i).state
        alone = win_share(game, without)[0]
        if game.team_score is not None:
            team = (game.team_score(s), game.team_score(without), game.team_lower)
    # a match measures winning, also where a game pays out chips
    return (tuple(win_share(game, s)), bool(s.outcome), s.outcome is not None, s.dead_end is not None, s.moves,
            alone, team)


def _match_batch(task) -> MatchTally:
    """In a worker: the games of one index range, folded."""
    portable, a, b, seed, indices = task
    game = portable.game()
    tally = MatchTally(game.n)
    for i in indices:
        tally.fold(i, _match_game(game, a, b, seed, i))
        if played():
            break
    return tally


def skill(game, levels: list, opponent, games: int, seed: int,
          progress: Optional[Callable[[int], None]] = None, pool=None) -> dict:
    """Each level (an agent) in seat-rotated matches against `opponent` in the other seats. Ctrl-C
    ends it early: the levels played, the last perhaps partial."""
    curve, stopped = until_stopped(levels, lambda agent: match(game, agent, opponent, games, seed, progress, pool),
                                   lambda m: "partial" in m)
    if not curve:
        raise Stopped()
    report = {
        "game": game.name, "players": game.n, "games_per_level": games, "seed": seed,
        "opponent": opponent.name,
        "fair_share": curve[0]["fair_share"] if game.cooperative else round(1 / game.n, 4),
        **({"cooperative": True} if game.cooperative else {}),
        "curve": [{"agent": m["a"], "score": m["score"], "ci95": m["ci95"], "advantage": m["advantage"],
                   "advantage_ci95": m["advantage_ci95"], "wins": m["wins"], "shared_wins": m["shared_wins"],
                   "draws": m["draws"], "losses": m["losses"], "dead_end_games": m["dead_end_games"],
                   "mean_turns": m["mean_turns"], "verdict": m["verdict"],
                   **({"team_score": m["team_score"]} if "team_score" in m else {}),
                   **({"partial": True, "games": m["games"]} if "partial" in m else {})} for m in curve],
        **({"partial": True, "levels_asked": len(levels)} if stopped else {}),
    }
    return {**report, **skill_room(report["curve"])}


def skill_room(curve: list) -> dict:
    """The best level's advantage over the random seats, and its interval's low end."""
    best = max(curve, key=lambda c: c["advantage"])
    return {"best": best["agent"], "skill_room": best["advantage"], "skill_room_ci_low": best["advantage_ci95"][0]}
