"""IS-MCTS speed: iterations per second on every seed game and tic-tac-toe.

Each figure searches the first few decisions of seeded games (after random moves to reach
them) with a fixed iteration budget. Beside it: random playouts per second from the same
decisions (a playout is the floor of one iteration's cost with rollouts to the end; the rest
is the determinization, the tree and the availability counts), and, for a game with a
`score`, the iterations per second with rollouts cut at a horizon (`ismcts:N:depth=D`, what
`make skill` plays in the long games). The first column is the search as it was before the
horizon: rollouts to the end of the game. Not a test: no assertion.
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


def measure(path, players, iterations, count, seed, depth):
    rules, _ = load(path)
    game = Game(rules, players)
    states = decisions(game, count, seed)

    def per_second(agent):
        t = time.perf_counter()
        for k, s in enumerate(states):
            agent.search(s, game.decision(s)[0], random.Random(k))
        return iterations * len(states) / (time.perf_counter() - t)
    its = per_second(ISMCTSAgent(iterations))
    cut = per_second(ISMCTSAgent(iterations, depth=depth)) if game.score_of is not None else None
    t = time.perf_counter()
    rng = random.Random(seed)
    for s in states:
        p = game.decision(s)[0]
        for _ in range(iterations):
            _rollout(game, sample_state(game, s, p, rng), rng)
    playouts = iterations * len(states) / (time.perf_counter() - t)
    return its, playouts, cut


# game, players, share of --iterations, horizon of the cut rollouts
GAMES = (("tictactoe", 2, 1, 30), ("bluff", 2, 1, 30), ("bluff", 4, 1, 30), ("byzantine", 4, 4, 30),
         ("dream-duels", 4, 4, 30), ("democracy", 2, 10, 30), ("democracy", 4, 10, 30), ("populus", 3, 50, 30))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--decisions", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    root = os.path.join(os.path.dirname(__file__), "..", "games")
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, one process, "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"ismcts at {a.decisions} decisions each; playouts/s: determinized random playouts to the end")
    print(f"{'game':24} {'budget':>6} {'iterations/s':>13} {'playouts/s':>11} {'depth=D it/s':>13} {'x':>5}")
    for name, players, scale, depth in GAMES:
        n = max(a.iterations // scale, 1)
        its, playouts, cut = measure(os.path.join(root, f"{name}.rules"), players, n, a.decisions, a.seed, depth)
        more = f"{cut:13.0f} {cut / its:5.1f}" if cut is not None else f"{'(no score)':>13} {'':>5}"
        print(f"{name + ', ' + str(players) + ' players':24} {n:6} {its:13.0f} {playouts:11.0f} {more}", flush=True)


if __name__ == "__main__":
    main()
