"""Instructions a random game takes, the engine beside the hand-written games, counted by valgrind.

A run's time on this machine moves by about 5%, and from one hour to another by a quarter, the
hand-written side included; the number of instructions a game takes does not (two runs agree to
about 0.2%). So a step of the engine is judged here, the time in `bench/run.py`. Each figure is
(the instructions of a process that plays N games - of one that plays none) / N, both counted by
`valgrind --tool=callgrind`, with the games `bench/run.py` plays (`bench/sides.py`); then the same
games played by `simulate` with its default figures, whose cost over the play alone is the last
column (the aim: at most 1.3). Valgrind runs
a program about fifty times slower: the whole table takes a few minutes.

Needs valgrind (Debian package valgrind). Not a test: no assertion.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROWS = (("Bluff, 2 players", "games/bluff.rules", 2, "handwritten_bluff", 2000),
        ("Bluff, 4 players", "games/bluff.rules", 4, "handwritten_bluff", 1000),
        ("Democracy, 4 players", "games/democracy.rules", 4, "handwritten_democracy", 200))


def play(side, path, players, module, games, seed):
    """The games counted: run under valgrind by `counted`."""
    sys.path.insert(0, os.path.join(HERE, ".."))
    sys.path.insert(0, HERE)
    from sides import engine_games, handwritten_games, simulated_games
    if side in ("engine", "simulate"):
        from dsl.engine import Game
        from dsl.loader import load
        game = Game(load(path)[0], players)
        engine_games(game, 1, seed)         # the first game generates the play-out's code
        if side == "engine":
            engine_games(game, games, seed)
        else:
            simulated_games(game, games, seed)
    else:
        handwritten_games(__import__(module), players, games, seed)


def counted(side, path, players, module, games, seed) -> int:
    """Instructions of a process playing `games` games, as callgrind counts them."""
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__,
           "--play", side, path, str(players), module, str(games), str(seed)]
    # a fixed hash seed: the same dictionaries, so a process that plays nothing counts the same each time
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    run = subprocess.run(cmd, capture_output=True, text=True, cwd=os.path.join(HERE, ".."), env=env)
    found = re.search(r"Collected\s*:\s*(\d+)", run.stderr)
    if run.returncode != 0 or found is None:
        sys.exit(f"valgrind did not count {side} {path}: {run.stderr.strip()[-400:]}")
    return int(found.group(1))


def per_game(side, path, players, module, games, seed) -> int:
    return (counted(side, path, players, module, games, seed) - counted(side, path, players, module, 0, seed)) // games


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scale", type=float, default=1.0, help="games per row, times this (default 1: 2000, 1000, 200)")
    ap.add_argument("--play", nargs=6, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.play:
        side, path, players, module, games, seed = a.play
        play(side, path, int(players), module, int(games), int(seed))
        return
    if shutil.which("valgrind") is None:
        sys.exit("bench/instructions.py: valgrind is not on PATH (Debian: apt install valgrind); "
                 "bench/run.py measures time without it")
    print(f"{'instructions a game':24} {'hand-written':>14} {'engine':>14} {'hand / engine':>14} "
          f"{'simulate':>14} {'simulate / engine':>18}")
    for name, path, players, module, games in ROWS:
        n = max(1, int(games * a.scale))
        hand = per_game("hand", path, players, module, n, a.seed)
        engine = per_game("engine", path, players, module, n, a.seed)
        summed = per_game("simulate", path, players, module, n, a.seed)
        print(f"{name:24} {hand:14,} {engine:14,} {hand / engine:14.2f} {summed:14,} {summed / engine:18.2f}", flush=True)


if __name__ == "__main__":
    main()
