"""Start-up of the command line: `playtest --help` and `playtest check` on a small and a large
game, each a fresh process (best of 5), for this tree and, beside it, for an earlier revision
(extracted with `git archive`, so the figures are measured in the same run on the same load).

    python bench/startup.py                 # this tree beside the revision BEFORE names
    python bench/startup.py --before HEAD~3

Not a test: no assertion. Byte-code is written on the first run of each tree and not counted
(the best of 5 is taken), as it is for a designer after the first command.
"""
import argparse
import os
import resource
import subprocess
import sys
import tarfile
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RUNS = 5
# As a designer's shell has it: byte-code written once and read after (an environment that
# forbids it compiles every module at every start, which is another figure).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
# The last revision before lazy command imports and the compile cache.
BEFORE = "7e4f150"
COMMANDS = [
    ("--help", ["--help"], False),
    ("check bluff", ["check", "games/bluff.rules"], False),
    ("check dream-duels", ["check", "games/dream-duels.rules"], False),
    ("  with PLAYTEST_CACHE", ["check", "games/dream-duels.rules"], True),    # the parsed file kept on disk
]


def best_of(tree: str, args: list, cache=None) -> tuple:
    """(wall seconds, CPU seconds) of the fastest run: on a shared machine the CPU time the
    process used is the steadier figure, the wall time what a person waits."""
    best = None
    for _ in range(RUNS + 1):           # the first run writes byte-code
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        env = {**ENV, "PLAYTEST_CACHE": cache} if cache else ENV
        done = subprocess.run([sys.executable, "-m", "dsl.cli", *args], cwd=tree, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        if done.returncode != 0:
            raise SystemExit(f"{tree}: playtest {' '.join(args)} exited {done.returncode}")
        best = (wall, cpu) if best is None else (min(best[0], wall), min(best[1], cpu))
    return best


def extracted(revision: str, into: str) -> str:
    archive = subprocess.run(["git", "-C", ROOT, "archive", "--format=tar", revision, "dsl", "games", "grammars"],
                             check=True, capture_output=True).stdout
    os.makedirs(into)
    path = os.path.join(into, "tar")
    with open(path, "wb") as f:
        f.write(archive)
    with tarfile.open(path) as tar:
        tar.extractall(into, filter="data")
    return into


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", default=BEFORE, help="the revision to compare with (default %(default)s)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        before = extracted(args.before, os.path.join(tmp, "before"))
        print(f"start-up, fresh process, best of {RUNS}: wall and CPU seconds; Python {sys.version.split()[0]}")
        print(f"{'command':<20} {args.before + ' wall':>12} {'CPU':>7} {'now wall':>10} {'CPU':>7}")
        for label, argv, cached in COMMANDS:
            cache = os.path.join(tmp, "cache") if cached else None
            (w0, c0), (w1, c1) = best_of(before, argv, cache), best_of(ROOT, argv, cache)
            print(f"{label:<20} {w0:>12.3f} {c0:>7.3f} {w1:>10.3f} {c1:>7.3f}")


if __name__ == "__main__":
    main()
