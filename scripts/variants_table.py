"""Print the behavioural diff of a game against each of its variants as a Markdown table.

    python scripts/variants_table.py games/bluff.rules variants/bluff-*.rules -n 2000 -p 4 --seed 1

Each row is `playtest diff GAME VARIANT -n N --players P --seed S`; figures in bold
differ significantly from the base game (Fisher / Welch, Holm-Bonferroni at 5%).
A stack of variants can be given as one argument joined with '+'.
"""
from __future__ import annotations

import argparse

from dsl.analyses import stats
from dsl.engine import Game
from dsl.loader import load
from dsl.analyses.simulate import simulate


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("variants", nargs="+")
    ap.add_argument("-n", type=int, default=2000)
    ap.add_argument("-p", "--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    base_rules, _ = load(args.game)
    base = stats.summary_metrics(simulate(Game(base_rules, args.players), args.n, args.seed))
    seats = [f"win rate, seat {i + 1}" for i in range(args.players)]
    header = ["variant", "dead-end games", "decisions per game"] + [f"seat {i + 1} wins" for i in range(args.players)]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    rows = {r["metric"]: r for r in stats.compare(base, base)}
    print(_row(f"base ({args.game})", rows, seats, side="a"))
    for stack in args.variants:
        rules, _ = load(args.game, stack.split("+"))
        metrics = stats.summary_metrics(simulate(Game(rules, args.players), args.n, args.seed))
        rows = {r["metric"]: r for r in stats.compare(base, metrics)}
        print(_row(" + ".join(stack.split("+")), rows, seats, side="b"))


def _row(name, rows, seats, side):
    def cell(metric, pct):
        r = rows[metric]
        s = r[side]
        lo, hi = s["ci95"]
        text = (f"{s['value']:.1%} ({lo:.1%}–{hi:.1%})" if pct else f"{s['value']:.2f} ({lo:.2f}–{hi:.2f})")
        if side == "b":
            text += f", p={r['p_value']:.2g}" if r["p_value"] > 0 else ", p<1e-300"
            if r["significant"]:
                text = f"**{text}**"
        return text
    return "| " + " | ".join([name, cell("dead-end games", True), cell("decisions per game", False)]
                             + [cell(s, True) for s in seats]) + " |"


if __name__ == "__main__":
    main()
