"""One game played by agents, one per seat: the same loop as random play.

Chance outcomes are drawn `rng.randrange(k)` and decisions come from `game.decision`, as
in `play_random`, and a random agent draws `rng.choice(moves)`, so all-random seats give
the very games `play_random` gives for the same RNG.

May import the engine, the analyses' `Played`, and .search.
"""
from __future__ import annotations

import random

from ..analyses.simulate import Played
from ..engine import CHANCE


def play(game, agents, rng: random.Random, record: bool = True, index: int = 0) -> Played:
    if len(agents) != game.n:
        raise ValueError(f"{len(agents)} agents for {game.n} players")
    s = game.new_initial_state()
    actions = [] if record else None
    while s.outcome is None and s.dead_end is None:
        if game.is_chance(s):
            k = rng.randrange(game.chance_outcomes(s))
            if record:
                actions.append([CHANCE, k])
            game.apply(s, k, validate=False)
            continue
        decision = game.decision(s)
        if decision is None:
            break
        player, moves = decision
        move = agents[player].act(s, player, rng, moves=moves)
        if record:
            actions.append([int(player), list(move)])
        game.apply(s, move, player, validate=False)
    return Played(index, actions or [], s)
