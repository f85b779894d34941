"""Write generated/reports/: a balance report per seed game and the parameter sweeps the
seeds leave open (Dream Duels' A, B, C, E; Populus' starting food).

    python scripts/reports.py            (make reports)
    python scripts/reports.py populus    only the jobs whose output names contain a word

Each job is one `playtest report` or `playtest sweep` command line, run in this process;
the game counts are chosen so that the whole set takes a few minutes on one core. The score
comes from each rule file's `score` line. Skill (an agent against random seats) is measured
where it is quick; Democracy, Dream Duels and Populus games are long enough that it is left
to `make skill` (generated/skill/). The
outputs depend only on the rule files and these lines, so a rerun changes nothing.
"""
from __future__ import annotations

import os
import sys
import time
from html import escape

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from dsl.cli import main  # noqa: E402
from dsl.analyses.replay import write_atomic  # noqa: E402

OUT = "generated/reports"

# (output name, what it is, command line)
JOBS = [
    ("tictactoe", "every state is known: draws 8/63 = 12.7% under random play",
     ["report", "games/tictactoe.rules", "-n", "20000", "--skill", "flat:10", "--skill-games", "40", "--strategies", "100"]),
    ("bluff", "2-6 players, with skill (flat:10 against random)",
     ["report", "games/bluff.rules", "-n", "300", "--skill", "flat:10", "--skill-games", "40", "--strategies", "40"]),
    ("democracy", "2-6 players, score: tribe points", ["report", "games/democracy.rules", "-n", "200"]),
    ("byzantine", "2-4 players, score: final score, with skill (flat:10 against random)",
     ["report", "games/byzantine.rules", "-n", "300", "--skill", "flat:10", "--skill-games", "40"]),
    ("dream-duels", "4, 6, 8 and 12 players (2 players make one team)",
     ["report", "games/dream-duels.rules", "-p", "4,6,8,12", "-n", "200"]),
    ("populus", "3-5 players, score: VP + FP", ["report", "games/populus.rules", "-n", "60"]),
    ("dream-duels-sweep-A-B", "A (copies of each card) x B (extraction multiple), 4 players",
     ["sweep", "games/dream-duels.rules", "--param", "A=1..3", "--param", "B=1..3", "-p", "4", "-n", "150",
      "--target-length", "4-10", "--target-dead-ends", "0.5"]),
    ("dream-duels-sweep-C-E", "C (random cards per team) x E (card-steal multiple), 4 players",
     ["sweep", "games/dream-duels.rules", "--param", "C=0..2", "--param", "E=1..3", "-p", "4", "-n", "150",
      "--target-length", "4-10", "--target-dead-ends", "0.5"]),
    ("populus-sweep-start_food", "starting food 2-6, 3 players, score VP + FP",
     ["sweep", "games/populus.rules", "--param", "start_food=2..6", "-p", "3", "-n", "40",
      "--target-length", "10-20", "--target-dead-ends", "0.1"]),
]


def index(done) -> str:
    rows = "".join(f'<tr><td><a href="{escape(name)}.html">{escape(name)}</a></td><td>{escape(what)}</td>'
                   f'<td><a href="{escape(name)}.json">JSON</a> <a href="{escape(name)}.csv">CSV</a></td>'
                   f'<td><code>playtest {escape(" ".join(args))}</code></td></tr>' for name, what, args in done)
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>playtest: balance reports</title>"
            "<style>body{font-family:system-ui,sans-serif;margin:2em}td{padding:.2em .6em;border-bottom:1px solid #ddd}"
            "</style></head>\n<body>\n<h1>Balance reports and sweeps</h1>\n<p>Written by <code>make reports</code> "
            "(scripts/reports.py); random play, seed 1. The metrics are defined in docs/metrics.md.</p>\n"
            f"<table>{rows}</table>\n</body>\n</html>\n")


def main_() -> None:
    words = sys.argv[1:]
    for name, what, args in JOBS:
        if words and not any(w in name for w in words):
            continue
        start = time.time()
        main.main(args + ["-o", os.path.join(OUT, name)], prog_name="playtest", standalone_mode=False)
        print(f"{name}: {time.time() - start:.1f} s", file=sys.stderr)
    write_atomic(os.path.join(OUT, "index.html"), index(JOBS))


if __name__ == "__main__":
    main_()
