"""Random-play speed of the engine, beside a hand-written Bluff and Democracy of the same rules, the
speed of the analyses built on it (simulate with its metrics: games/s; fuzz: generated games/s;
explore: states/s), and the time to typeset a rulebook, sheet or card sheet as PDF (seconds per
page).

Prints games/s and moves/s (decisions/s) for one process, each the best of a few runs; the
engine's first game, which also generates its code, is timed apart. Not a test: no assertion,
figures go in the README with the machine they were measured on.
"""
import argparse
import os
import platform
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

from dsl.printing import book  # noqa: E402
from dsl.engine import Game  # noqa: E402
from dsl.analyses.explore import explore  # noqa: E402
from dsl.analyses.fuzz import fuzz  # noqa: E402
from dsl.loader import load  # noqa: E402
from dsl.analyses.simulate import game_rng, play_random  # noqa: E402
import handwritten_bluff  # noqa: E402
import handwritten_democracy  # noqa: E402
from sides import engine_games, handwritten_games  # noqa: E402


# Each rate is the best of this many runs: one run on this machine can be a quarter slower.
RUNS = 3


def rates(games, run) -> tuple:
    """(games/s, moves/s) of the fastest of RUNS calls of `run`, which plays `games` games and
    returns the decisions taken in them."""
    best = None
    for _ in range(RUNS):
        t = time.perf_counter()
        moves = run()
        dt = time.perf_counter() - t
        if best is None or dt < best[0]:
            best = (dt, moves)
    return games / best[0], best[1] / best[0]


def engine(path, players, games, seed):
    """(games/s, moves/s, seconds of the first game): the first game of a process also
    generates the game's play-out code, so it is timed apart and the runs come after it."""
    rules, _ = load(path)
    game = Game(rules, players)
    t = time.perf_counter()
    play_random(game, game_rng(seed, 0), 0, record=False)
    first = time.perf_counter() - t
    return *rates(games, lambda: engine_games(game, games, seed)), first


def handwritten(players, games, seed, module=handwritten_bluff):
    return rates(games, lambda: handwritten_games(module, players, games, seed))


def simulating(path, players, games, seed):
    """Games per second as `playtest simulate` plays them (its metrics watching every decision,
    the declared score, where the game has one, read before each) and sums them up as JSON: one
    run in one process, its first game generating the play-out code; and the run's time."""
    from dsl.analyses.simulate import declared_score, simulate
    rules, _ = load(path)
    game = Game(rules, players)
    t = time.perf_counter()
    simulate(game, games, seed, score=declared_score(game)).to_json()
    dt = time.perf_counter() - t
    return games / dt, dt


def fuzzing(path, players, examples, seed):
    """Generated games per second in fuzz's discover phase, and the whole run's time."""
    rules, _ = load(path)
    r = fuzz(Game(rules, players), max_examples=examples, seed=seed)
    return r.examples / r.discover_seconds, r.elapsed, len(r.findings)


def exploring(path, players):
    rules, _ = load(path)
    t = time.perf_counter()
    r = explore(Game(rules, players))
    dt = time.perf_counter() - t
    return r.states / dt, r.transitions / dt, dt, r.states


def printing(path, lang, kind, repeat=5):
    """Seconds per PDF page: rule file -> contents -> Typst markup -> PDF, best of `repeat`."""
    import io

    import pypdf
    rules, _ = load(path)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        pdf = book.make(kind, "pdf", rules, lang)
        times.append(time.perf_counter() - t)
    pages = len(pypdf.PdfReader(io.BytesIO(pdf)).pages)
    return times[0], min(times), pages


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("-n", type=int, default=2000, help="games for Bluff (Democracy plays n/20)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--engine-only", action="store_true", help="only the engine rows, not fuzz, explore or printing")
    a = ap.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, one process")
    print(f"best of {RUNS} runs each; the engine's first game (which also generates its code) timed apart")
    print(f"{'what':40} {'games/s':>10} {'moves/s':>10} {'first ms':>9}")
    for players in sorted({2, a.players}):
        hg, hm = handwritten(players, a.n, a.seed)
        print(f"{'hand-written Bluff, ' + str(players) + ' players':40} {hg:10.0f} {hm:10.0f}")
        eg, em, first = engine("games/bluff.rules", players, a.n, a.seed)
        print(f"{'engine: games/bluff.rules, ' + str(players) + ' players':40} {eg:10.0f} {em:10.0f} {first * 1000:9.1f}")
        print(f"{'engine / hand-written (games/s)':40} {eg / hg:10.2f}")
    hdg, hdm = handwritten(a.players, max(1, a.n // 20), a.seed, handwritten_democracy)
    print(f"{'hand-written Democracy, ' + str(a.players) + ' players':40} {hdg:10.1f} {hdm:10.0f}")
    dg, dm, first = engine("games/democracy.rules", a.players, max(1, a.n // 20), a.seed)
    print(f"{'engine: games/democracy.rules, ' + str(a.players) + ' players':40} {dg:10.1f} {dm:10.0f} {first * 1000:9.1f}")
    print(f"{'engine / hand-written (games/s)':40} {dg / hdg:10.2f}")
    if a.engine_only:
        return
    print()
    print(f"{'analysis':40} {'rate':>10} {'':10} {'run':>8}")
    for path, players, n in (("games/bluff.rules", 2, a.n), ("games/democracy.rules", a.players, max(1, a.n // 20))):
        rate, total = simulating(path, players, n, a.seed)
        name = f"simulate: {os.path.basename(path)}, {players}p, {n} games"
        print(f"{name:40} {rate:10.0f} {'games/s':10} {total:7.1f}s  (metrics and summary included)")
    for path, players, n in (("games/bluff.rules", 2, a.n // 2), ("games/bluff.rules", a.players, a.n // 2),
                             ("games/tictactoe.rules", 2, a.n // 2)):
        rate, total, found = fuzzing(path, players, n, a.seed)
        name = f"fuzz: {os.path.basename(path)}, {players}p, {n} games"
        print(f"{name:40} {rate:10.0f} {'games/s':10} {total:7.1f}s  ({found} finding{'s' if found != 1 else ''}, shrunk)")
    srate, trate, dt, states = exploring("games/tictactoe.rules", 2)
    name = f"explore: tictactoe, {states:,} states"
    print(f"{name:40} {srate:10.0f} {'states/s':10} {dt:7.1f}s  ({trate:,.0f} transitions/s)")
    print()
    print(f"{'printing a PDF (first call, best of 5)':40} {'s/page':>10} {'pages':>10} {'first s':>8} {'best s':>8}")
    for path, lang, kind in (("games/bluff.rules", "ja", "book"), ("games/democracy.rules", "en", "book"),
                             ("games/democracy.rules", "ja", "sheet"), ("games/democracy.rules", "en", "cards")):
        first, best, pages = printing(path, lang, kind)
        name = f"{kind}: {os.path.basename(path)}, {lang}"
        print(f"{name:40} {best / pages:10.3f} {pages:10d} {first:8.3f} {best:8.3f}")


if __name__ == "__main__":
    main()
