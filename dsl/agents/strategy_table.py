"""The declared strategies side by side: each against random seats and against each other,
in seat-rotated matches (.match), for `playtest strategies`.

May import .match, .search and .strategy.
"""
from __future__ import annotations

from typing import Callable, Optional

from .match import match
from .search import RandomAgent
from .strategy import StrategyAgent, declared


def side_by_side(game, games: int, seed: int, progress: Optional[Callable[[int], None]] = None, pool=None,
                 names: Optional[list] = None) -> dict:
    """Every declared strategy (or those named) in one seat against random seats and against each
    other strategy in the other seats: the score and advantage of each pairing, with intervals."""
    names = list(declared(game)) if names is None else names
    opponents = [("random", RandomAgent())] + [(n, StrategyAgent(n)) for n in names]
    rows = []
    for name in names:
        me = StrategyAgent(name)
        cells = {}
        for other, agent in opponents:
            if other == name:
                continue
            m = match(game, me, agent, games, seed, progress, pool)
            # a and b name the agents, as analyses.verdicts.verdict says which is stronger
            cells[other] = {k: m[k] for k in ("a", "b", "score", "ci95", "advantage", "advantage_ci95", "wins",
                                              "draws", "losses", "dead_end_games", "verdict")}
        rows.append({"strategy": name, "against": cells})
    return {"game": game.name, "players": game.n, "games": games, "seed": seed,
            "fair_share": round(1 / game.n, 4), "strategies": names, "rows": rows}


def pairings(game, names: Optional[list] = None) -> int:
    """How many matches side_by_side plays: each strategy against random and every other."""
    k = len(declared(game)) if names is None else len(names)
    return k * k
