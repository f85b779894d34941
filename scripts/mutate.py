"""Mutation fuzzing of the seed games, their files of strategies and their variants (make
mutate): N mutants, each checked and, when it checks, played briefly under a time and memory
bound; prints the tally and exits 1 on any traceback (MissingHook included) or run over the
bound, saving those mutants under out/mutate/.

    python scripts/mutate.py [-n 10000] [--jobs 2] [--seed 1]
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests"))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import mutants  # noqa: E402
# imported before the pool forks, so every worker plays the code the run started with
import dsl.analyses.explore, dsl.analyses.simulate, dsl.analyses.replay, dsl.agents.play, dsl.loader  # noqa: E402,F401

BASE = mutants.sources()


def _init():
    mutants.bound_memory()


def _one(args):
    i, seed = args
    return mutants.try_one(i, BASE, seed)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=10_000)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    start = time.monotonic()
    total = mutants.Tally()
    with Pool(a.jobs, initializer=_init, maxtasksperchild=500) as pool:
        for k, t in enumerate(pool.imap_unordered(_one, [(i, a.seed) for i in range(a.n)], chunksize=20), 1):
            total.add(t)
            if k % 500 == 0:
                print(f"{k} mutants...", file=sys.stderr)
    minutes = (time.monotonic() - start) / 60
    print(f"{total.mutants:,} mutants of {len(BASE)} files (seed {a.seed}): {total.checkable:,} checkable, "
          f"{total.played:,} played; {total.tracebacks} tracebacks, {total.over_bound} over the bound "
          f"({mutants.SECONDS} s, {mutants.MEMORY // 1024 ** 3} GB); {minutes:.1f} min on {a.jobs} "
          f"of {os.cpu_count()} cores ({platform.machine()})")
    if total.failures:
        os.makedirs("out/mutate", exist_ok=True)
        for i, what, detail in sorted(total.failures):
            try:
                name, text = mutants.mutant(i, BASE, a.seed)
            except Exception:           # making it again can hit the same bug; the detail below says where
                print(f"  mutant {i}: {what}\n{detail}")
                continue
            path = f"out/mutate/mutant-{i}-{name.replace('/', '-')}"
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(text)
            print(f"  mutant {i} ({name}): {what}  -> {path}\n{detail}")
        sys.exit(1)


if __name__ == "__main__":
    main()
