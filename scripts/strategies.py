"""generated/strategies/: every seed game's declared strategies side by side (`playtest strategies`).

For each game at one player count, each strategy in strategies/GAME.rules plays seat-rotated
matches against random seats and against each other strategy. Writes GAME-pN.json and
GAME-pN.txt (English) and GAME-pN.ja.txt per game, each to a temporary name and renamed.
About two minutes on 2 cores.

Usage: python scripts/strategies.py [GAME ...]   (names as in games/, default: all below)
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from dsl.agents.strategy import rules_with_strategies  # noqa: E402
from dsl.agents.strategy_table import side_by_side  # noqa: E402
from dsl.cli.strategies import _readings, format_side_by_side  # noqa: E402
from dsl.engine import Game  # noqa: E402
from dsl.io_guard import write_atomic  # noqa: E402
from dsl.loader import load  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), "..")
OUT = os.path.join(ROOT, "generated", "strategies")
SEED = 1
# game, players, games a pairing (the slow games fewer: a Democracy game is ~160 decisions)
PLAN = [("tictactoe", 2, 200), ("bluff", 2, 200), ("byzantine", 4, 100), ("democracy", 4, 40),
        ("dream-duels", 4, 40), ("populus", 3, 20)]


def main(names):
    os.makedirs(OUT, exist_ok=True)
    for name, players, games in PLAN:
        if names and name not in names:
            continue
        rules, _ = load(os.path.join(ROOT, "games", f"{name}.rules"))
        game = Game(rules, players)
        result = side_by_side(game, games, SEED)
        result["readings"] = {lang: _readings(rules_with_strategies(game), lang) for lang in ("en", "ja")}
        base = os.path.join(OUT, f"{name}-p{players}")
        write_atomic(base + ".json", json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
        write_atomic(base + ".txt", format_side_by_side(rules.game, result, "en") + "\n")
        write_atomic(base + ".ja.txt", format_side_by_side(rules.game, result, "ja") + "\n")
        print(f"wrote {base}.txt", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
