"""IS-MCTS speed: iterations per second on Bluff (2 and 4 players) and Democracy (4).

Each figure searches the first few decisions of seeded games (after random moves to reach
them) with a fixed iteration budget. Beside it, the baseline: random playouts per second
from the same decisions (a playout is the floor of one iteration's cost; the rest is the
determinization, the tree and the availability counts). The aim on 2-player Bluff is at
least 1,000 iterations/s. Not a test: no assertion.
"""
import argparse
import os
import platform
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from dsl.agents import ISMCTSAgent, sample_state  # noqa: E402
from dsl.agents.search import _rollout  # noqa: E402
from dsl.analyses.simulate import game_rng, play_random  # noqa: E402
from dsl.engine import CHANCE  # noqa: E402
from dsl.engine import Game  # noqa: E402
from dsl.loader import load  # noqa: E402


def decisions(game, count, seed):
    """`count` decision states: the first i actions of random game i, then on to a decision."""
    out = []
    i = 0
    while len(out) < count:
        rng = game_rng(seed, i)
        actions = play_random(game, rng, i).actions
        s = game.new_initial_state()
        for actor, move in actions[:i % 7]:
            game.apply(s, move if actor == CHANCE else tuple(move), None if actor == CHANCE else actor)
        while game.is_chance(s):
            game.apply(s, rng.randrange(game.chance_outcomes(s)))
        if not s.is_terminal() and game.decision(s) is not None:
            out.append(s)
        i += 1
    return out


def measure(path, players, iterations, count, seed):
    rules, _ = load(path)
    game = Game(rules, players)
    states = decisions(game, count, seed)
    agent = ISMCTSAgent(iterations)
    t = time.perf_counter()
    for k, s in enumerate(states):
        agent.search(s, game.decision(s)[0], random.Random(k))
    its = iterations * len(states) / (time.perf_counter() - t)
    t = time.perf_counter()
    rng = random.Random(seed)
    for s in states:
        p = game.decision(s)[0]
        for _ in range(iterations):
            _rollout(game, sample_state(game, s, p, rng), rng)
    playouts = iterations * len(states) / (time.perf_counter() - t)
    return its, playouts


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--decisions", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    root = os.path.join(os.path.dirname(__file__), "..", "games")
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, one process")
    print(f"ismcts:{a.iterations} at {a.decisions} decisions each; baseline: determinized random playouts/s")
    print(f"{'game':32} {'iterations/s':>13} {'playouts/s':>11} {'ratio':>6}")
    for name, players, scale in (("bluff", 2, 1), ("bluff", 4, 1), ("democracy", 4, 10)):
        n = max(a.iterations // scale, 1)
        its, playouts = measure(os.path.join(root, f"{name}.rules"), players, n, a.decisions, a.seed)
        print(f"{name + ', ' + str(players) + ' players':32} {its:13.0f} {playouts:11.0f} {its / playouts:6.2f}")


if __name__ == "__main__":
    main()
