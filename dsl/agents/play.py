"""One game played by agents, one per seat: random play's own loop with agents deciding.

Chance outcomes are drawn `rng.randrange(k)` and decisions come from `game.decision`, as in
`play_random`, and a random agent draws `rng.choice(moves)`, so all-random seats give the very
games `play_random` gives for the same RNG.

May import the engine and the analyses' play loop.
"""
from __future__ import annotations

import random

from ..analyses.simulate import Played, play_loop


def play(game, agents, rng: random.Random, record: bool = True, index: int = 0) -> Played:
    if len(agents) != game.n:
        raise ValueError(f"{len(agents)} agents for {game.n} players")
    return play_loop(game, rng, index, record, list(agents))
