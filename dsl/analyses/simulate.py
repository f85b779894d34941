"""Random-play simulation: many seeded games, summarised as balance figures.

Game i of a run with seed S uses its own RNG seeded from (S, i), so any single game can
be replayed from the seed and its index, and runs can be split across workers.
"""
from __future__ import annotations

import random
import statistics
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..engine import CHANCE, Game
from ..engine.program import Chance as _Chance
from ..engine.state import State


def game_rng(seed: int, index: int) -> random.Random:
    return random.Random(seed * 1_000_003 + index)


@dataclass
class Played:
    """One finished game: how it ended and every action that led there."""
    index: int
    actions: list                      # [actor, move]; actor -1 is chance
    state: State


def play_random(game: Game, rng: random.Random, index: int = 0, record: bool = True) -> Played:
    """Play one game with uniformly random legal moves (and uniform chance)."""
    s = game.new_initial_state()
    actions = [] if record else None
    pauses = game.pauses
    while s.outcome is None and s.dead_end is None:
        if type(pauses.get(s.ip)) is _Chance:
            k = rng.randrange(game.chance_outcomes(s))
            if record:
                actions.append([CHANCE, k])
            game.apply(s, k, validate=False)
            continue
        decision = game.decision(s)
        if decision is None:
            break
        player, moves = decision
        move = rng.choice(moves)
        if record:
            actions.append([int(player), list(move)])
        game.apply(s, move, player, validate=False)
    return Played(index, actions or [], s)


@dataclass
class Summary:
    games: int = 0
    players: int = 0
    seed: int = 0
    wins: list = field(default_factory=list)
    draws: int = 0                     # games won by several players together
    team_wins: dict = field(default_factory=dict)      # team number -> games its members won together
    no_winner: int = 0                 # games that ended (not in a dead end) with nobody winning
    dead_ends: dict = field(default_factory=dict)      # "rule|kind" -> {rule, kind, where, message, count}
    turns: list = field(default_factory=list)
    examples: dict = field(default_factory=dict)      # "rule|kind" -> Played (the shortest)

    def add(self, p: Played) -> None:
        s = p.state
        self.games += 1
        self.turns.append(s.moves)
        if s.dead_end is not None:
            d = s.dead_end
            key = f"{d.rule}|{d.kind}"
            entry = self.dead_ends.setdefault(key, {"rule": d.rule, "kind": d.kind, "where": d.where,
                                                   "message": d.message, "count": 0})
            entry["count"] += 1
            best = self.examples.get(key)
            if best is None or len(p.actions) < len(best.actions):
                self.examples[key] = p
            return
        winners = s.outcome or ()
        if len(winners) == 1:
            self.wins[int(winners[0])] += 1
        elif len(winners) > 1:
            self.draws += 1
            team = _team_of_winners(s.game, winners)
            if team is not None:
                self.team_wins[team] = self.team_wins.get(team, 0) + 1
        else:
            self.no_winner += 1

    def to_json(self) -> dict:
        finished = self.games
        turns = self.turns or [0]
        return {
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "wins_by_seat": {str(i + 1): w for i, w in enumerate(self.wins)},
            "win_rate_by_seat": {str(i + 1): round(w / finished, 4) if finished else 0.0
                                 for i, w in enumerate(self.wins)},
            "draws": self.draws,
            **({"wins_by_team": {str(k): v for k, v in sorted(self.team_wins.items())}} if self.team_wins else {}),
            "no_winner": self.no_winner,
            "dead_end_games": sum(d["count"] for d in self.dead_ends.values()),
            "dead_ends": sorted(self.dead_ends.values(), key=lambda d: (-d["count"], d["rule"], d["kind"])),
            "mean_turns": round(statistics.fmean(turns), 3),
            "median_turns": statistics.median(turns),
            "max_turns": max(turns),
        }


def _team_of_winners(game: Game, winners) -> Optional[int]:
    """The team number (from 1) when the winners are exactly one team of several players."""
    won = {int(p) for p in winners}
    for k, members in enumerate(game.team_members):
        if len(members) > 1 and won == {int(p) for p in members}:
            return k + 1
    return None


def simulate(game: Game, n: int, seed: int, progress: Optional[Callable[[int], None]] = None) -> Summary:
    summary = Summary(players=game.n, seed=seed, wins=[0] * game.n)
    for i in range(n):
        summary.add(play_random(game, game_rng(seed, i), i))
        if progress is not None:
            progress(1)
    return summary
