"""Runs at scale, side by side in one run (issue 37):

1. whole-process `playtest simulate` (its default table, one process) against the hand-written
   programs of the same rules in bench/ (Bluff with 2 and 4 players, Democracy with 4), each a
   fresh process: CPU seconds (user + system, so other load on the machine counts less than in
   wall time) and the engine's speed relative to the hand-written program's (aim: 0.5 or better);
2. the cost of simulate's default figures relative to the play itself, in one process: CPU time
   of `simulate` (as the table asks it: no option use) over `play_random` of the same games;
3. the peak memory (max RSS) of `simulate` at 10,000 and 100,000 games: flat, not growing.

Not a test: it prints figures for the README (with the date and the machine) and one line for
docs/speed-history.md.

    python bench/scale.py            # about ten minutes of CPU
"""
import argparse
import datetime
import os
import platform
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

PY = sys.executable
SIDES = [("Bluff", "games/bluff.rules", "handwritten_bluff.py", 2, 20000),
         ("Bluff", "games/bluff.rules", "handwritten_bluff.py", 4, 20000),
         ("Democracy", "games/democracy.rules", "handwritten_democracy.py", 4, 2000)]


def measured(cmd) -> tuple:
    """(CPU seconds, wall seconds, peak RSS in MB) of one process, by /usr/bin/time."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as f:
        subprocess.run(["/usr/bin/time", "-f", "%U %S %e %M", "-o", f.name] + cmd, cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": ROOT})
        user, system, wall, rss = f.read().split()[-4:]
    return float(user) + float(system), float(wall), int(rss) / 1024


def simulate_cmd(path, players, games, *extra):
    return [PY, "-m", "dsl.cli", "simulate", path, "-p", str(players), "-n", str(games), "--workers", "1", *extra]


def metrics_cost(path, players, games, runs=3) -> tuple:
    """CPU seconds a game of `play_random`, of `simulate` with its default figures, their ratio."""
    from dsl.analyses.simulate import declared_score, game_rng, play_random, simulate
    from dsl.engine import Game
    from dsl.loader import load
    rules, _ = load(os.path.join(ROOT, path))
    game = Game(rules, players)
    score = declared_score(game)
    play_random(game, game_rng(1, 0), 0, record=False)       # the first game also generates its code
    play = summary = float("inf")
    for _ in range(runs):
        t = time.process_time()
        for i in range(games):
            play_random(game, game_rng(1, i), i, record=False)
        play = min(play, time.process_time() - t)
        t = time.process_time()
        simulate(game, games, 1, score=score, options=False).to_json()
        summary = min(summary, time.process_time() - t)
    return play / games, summary / games, summary / play


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--memory-games", default="10000,100000")
    ap.add_argument("--memory-game", default="games/bluff.rules")
    ap.add_argument("--memory-players", type=int, default=4)
    args = ap.parse_args()
    print(f"{datetime.date.today()} on {platform.node() or 'this machine'}: {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores, Python {platform.python_version()}, load {os.getloadavg()[0]:.1f}")
    print("\n1. whole process, one core: CPU seconds (engine speed relative to the hand-written program)")
    print(f"   {'game':<22} {'games':>7} {'hand-written':>13} {'simulate':>9} {'relative':>9}")
    rows = []
    for name, path, hand, players, games in SIDES:
        own, _, _ = measured([PY, os.path.join("bench", hand), "--players", str(players), "-n", str(games)])
        sim, _, _ = measured(simulate_cmd(path, players, games))
        rows.append((name, players, games, own, sim))
        print(f"   {name + f', {players} players':<22} {games:>7} {own:>12.2f}s {sim:>8.2f}s {own / sim:>9.2f}")
    print("\n2. the default figures against the play itself (one process, CPU per game)")
    costs = []
    for name, path, _, players, games in SIDES:
        play, summary, ratio = metrics_cost(path, players, min(games, 1000))
        costs.append((name, players, ratio))
        print(f"   {name + f', {players} players':<22} play {play * 1000:.3f} ms, simulate {summary * 1000:.3f} ms: "
              f"{ratio:.2f} times")
    print(f"\n3. peak memory of simulate ({args.memory_game}, {args.memory_players} players, one process)")
    peaks = []
    for n in (int(x) for x in args.memory_games.split(",")):
        cpu, wall, rss = measured(simulate_cmd(args.memory_game, args.memory_players, n, "--json"))
        peaks.append((n, rss))
        print(f"   {n:>9,} games: {rss:.1f} MB peak RSS ({cpu:.1f} s CPU)")
    print("\nhistory line:")
    print(f"- {datetime.date.today()}: whole-process simulate relative to hand-written "
          + ", ".join(f"{n} {p}p {own / sim:.2f}" for n, p, g, own, sim in rows)
          + "; default figures " + ", ".join(f"{n} {p}p {r:.2f}x play" for n, p, r in costs)
          + "; peak RSS " + ", ".join(f"{n:,} games {rss:.0f} MB" for n, rss in peaks) + ".")


if __name__ == "__main__":
    main()
