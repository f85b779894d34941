"""The random games the benches play on each side, so that `run.py` (time) and `instructions.py`
(instructions) measure the same games: the engine's `play_random` with each game's own
generator (as `simulate` plays them, whatever the number of workers), the hand-written loop with
one generator for the run. Each returns the decisions taken.
"""
import random


def engine_games(game, games: int, seed: int) -> int:
    # imported here: a process that plays only the hand-written games loads nothing of the engine
    from dsl.analyses.simulate import game_rng, play_random
    return sum(play_random(game, game_rng(seed, i), i, record=False).state.moves for i in range(games))


def simulated_games(game, games: int, seed: int) -> int:
    """The same games in `simulate`, with its default figures (the declared score, no option use)."""
    from dsl.analyses.simulate import declared_score, simulate
    return simulate(game, games, seed, score=declared_score(game), options=False).turns.exact_sum()


def handwritten_games(module, players: int, games: int, seed: int) -> int:
    rng = random.Random(seed)
    return sum(module.play_game(players, rng)[-1] for _ in range(games))
