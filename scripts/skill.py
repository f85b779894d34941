"""generated/skill/: the skill-versus-luck report of every seed game (`make skill`).

For each game at one player count, stronger and stronger agents play seat-rotated matches
against random seats (dsl.agents.match.skill). Budgets are set per game by what a playout
costs: Democracy and Populus playouts take 10-70 ms, so their budgets and game counts are
small and their intervals wide. Dream Duels runs at 4 players only: with 2 players both
are one team and every game is a shared win after one decision. Writes GAME-pN.json and GAME-pN.txt per game, and
README.md, a table of all of them; each file is written to a temporary name and renamed.

Usage: python scripts/skill.py [GAME ...]   (names as in games/, default: all below)
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from dsl.agents import RandomAgent, parse_agent  # noqa: E402
from dsl.agents.match import match, skill  # noqa: E402
from dsl.cli.agents import format_match, format_skill  # noqa: E402
from dsl.engine import Game  # noqa: E402
from dsl.loader import load  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), "..")
OUT = os.path.join(ROOT, "generated", "skill")
SEED = 1
# game, players, levels (weakest first), games per level
PLAN = [
    ("tictactoe", 2, "random,flat:50,ismcts:50,ismcts:200", 100),
    ("bluff", 2, "random,flat:50,ismcts:50,ismcts:200", 200),
    ("bluff", 4, "random,flat:50,ismcts:50,ismcts:200", 100),
    ("byzantine", 2, "random,flat:30,ismcts:30,ismcts:100", 100),
    ("byzantine", 4, "random,flat:30,ismcts:30,ismcts:100", 100),
    ("dream-duels", 4, "random,flat:20,ismcts:20,ismcts:60", 60),
    ("democracy", 2, "random,flat:8,ismcts:8,ismcts:16", 30),
    ("democracy", 4, "random,ismcts:8", 16),
    ("populus", 3, "random,flat:2,ismcts:4", 9),
]
# game, players, agent A, agent B, games: single matches worth keeping
MATCHES = [
    ("tictactoe", 2, "ismcts:1000", "random", 200),
    ("bluff", 2, "ismcts:200", "flat:50", 200),
    ("democracy", 2, "ismcts:16", "random", 100),
    ("populus", 3, "ismcts:4", "random", 30),
]


def _write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def run(name, players, levels, games):
    rules, _ = load(os.path.join(ROOT, "games", f"{name}.rules"))
    game = Game(rules, players)
    result = skill(game, [parse_agent(s) for s in levels.split(",")], RandomAgent(), games, SEED)
    base = os.path.join(OUT, f"{name}-p{players}")
    _write(base + ".json", json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    text = format_skill(rules.game.name, result)
    _write(base + ".txt", text + "\n")
    print(text, flush=True)
    print(flush=True)


def run_match(name, players, a, b, games):
    rules, _ = load(os.path.join(ROOT, "games", f"{name}.rules"))
    result = match(Game(rules, players), parse_agent(a), parse_agent(b), games, SEED)
    base = os.path.join(OUT, f"{name}-p{players}-{a}-vs-{b}".replace(":", ""))
    _write(base + ".json", json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    text = format_match(rules.game.name, result)
    _write(base + ".txt", text + "\n")
    print(text, flush=True)
    print(flush=True)


def table():
    rows = ["# Skill versus luck, every seed game", "",
            "Written by `make skill` (scripts/skill.py, seed 1). Each agent sits in one seat, rotated,",
            "against random players; score = mean utility (win 1, shared win 1/k, draw 1/n, loss or",
            "dead end 0), 95% Wilson interval; advantage = the agent's utility minus a random seat's,",
            "per game (above 0 with 95% confidence: the agent is stronger).",
            "Skill room = the best agent's advantage (= (best score - 1/n) / (1 - 1/n) when every game has",
            "a winner; unlike that, not pulled down by dead ends).", "",
            "| game | players | games a level | agent: score [95% interval], advantage | skill room | dead-end games (best agent) |",
            "| --- | --- | --- | --- | --- | --- |"]
    for name, players, _levels, _games in PLAN:
        path = os.path.join(OUT, f"{name}-p{players}.json")
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            r = json.load(f)
        curve = "<br>".join(f"{c['agent']}: {c['score']:.0%} [{c['ci95'][0]:.0%}, {c['ci95'][1]:.0%}], "
                            f"{c['advantage']:+.2f} [{c['advantage_ci95'][0]:+.2f}, {c['advantage_ci95'][1]:+.2f}]"
                            for c in r["curve"])
        best = next(c for c in r["curve"] if c["agent"] == r["best"])
        rows.append(f"| {name} | {players} | {r['games_per_level']} | {curve} | {r['skill_room']:.2f} "
                    f"(low end {r['skill_room_ci_low']:.2f}) | {best['dead_end_games']} |")
    rows += ["", "Single matches (agent A in one seat, rotated, against agent B in the others):", "",
             "| game | players | games | A | B | A's score [95%] | advantage [95%] | wins / draws / losses / dead ends |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, players, a, b, _games in MATCHES:
        path = os.path.join(OUT, f"{name}-p{players}-{a}-vs-{b}".replace(":", "") + ".json")
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            r = json.load(f)
        rows.append(f"| {name} | {players} | {r['games']} | {a} | {b} | {r['score']:.0%} [{r['ci95'][0]:.0%}, "
                    f"{r['ci95'][1]:.0%}] | {r['advantage']:+.2f} [{r['advantage_ci95'][0]:+.2f}, "
                    f"{r['advantage_ci95'][1]:+.2f}] | {r['wins']} / {r['draws']} / {r['losses']} / "
                    f"{r['dead_end_games']} |")
    _write(os.path.join(OUT, "README.md"), "\n".join(rows) + "\n")


def main():
    wanted = set(sys.argv[1:])
    os.makedirs(OUT, exist_ok=True)
    for name, players, levels, games in PLAN:
        if not wanted or name in wanted:
            run(name, players, levels, games)
    for name, players, a, b, games in MATCHES:
        if not wanted or name in wanted:
            run_match(name, players, a, b, games)
    table()


if __name__ == "__main__":
    main()
