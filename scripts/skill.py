"""generated/skill/: the skill-versus-luck report of every seed game (`make skill`).

For each game at one player count (the long games first), stronger agents play seat-rotated matches
against random seats (dsl.agents.match.skill), in a process per core (the figures are the same
for any number). Game counts are set so that the skill figure's 95% interval (the best level's
advantage) is narrower than 0.1; in the long games (Democracy, Populus) the searching agent's
rollouts stop at a horizon and are valued by the standing on the score (`ismcts:N:depth=D`),
which makes a search several times cheaper. Dream Duels runs at 4 players only: with 2 players
both are one team and every game is a shared win after one decision. Writes GAME-pN.json and
GAME-pN.txt per game, timings.json (seconds and the machine's load average for each run:
measurements, unlike the figures, not the same from run to run) and README.md, a table of all
of them; each file is written to a temporary name and renamed.

Usage: python scripts/skill.py [GAME ...]   (names as in games/, or GAME-pN for one player count; default: all below)
       python scripts/skill.py --table     (README.md only, from the files already written)
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from dsl.agents import RandomAgent, parse_agent  # noqa: E402
from dsl.agents.match import match, skill  # noqa: E402
from dsl.analyses.batches import Pool  # noqa: E402
from dsl.io_guard import write_atomic  # noqa: E402
from dsl.cli.agents import format_match, format_skill  # noqa: E402
from dsl.engine import Game  # noqa: E402
from dsl.loader import load  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), "..")
OUT = os.path.join(ROOT, "generated", "skill")
SEED = 1
WORKERS = os.cpu_count() or 1
# game, players, levels (weakest first), games per level
PLAN = [
    ("democracy", 2, "random,ismcts:12:depth=15", 1500),
    ("populus", 3, "random,ismcts:4:depth=15", 800),
    ("democracy", 4, "random,ismcts:8:depth=15", 900),
    ("dream-duels", 4, "random,ismcts:30", 150),
    ("byzantine", 2, "random,ismcts:50", 450),
    ("byzantine", 4, "random,ismcts:50", 600),
    ("bluff", 2, "random,ismcts:100", 250),
    ("bluff", 4, "random,ismcts:100", 420),
    ("tictactoe", 2, "random,ismcts:100", 260),
]
# game, players, agent A, agent B, games: single matches worth keeping
MATCHES: list = []


def _timed(key, work):
    """Runs `work`, keeping how long it took and the load average before and after in timings.json."""
    load = os.getloadavg()[0]
    start = time.perf_counter()
    work()
    seconds = time.perf_counter() - start
    path = os.path.join(OUT, "timings.json")
    timings = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            timings = json.load(f)
    timings[key] = {"seconds": round(seconds), "load_before": round(load, 1),
                    "load_after": round(os.getloadavg()[0], 1), "workers": WORKERS,
                    "finished": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    write_atomic(path, json.dumps(timings, indent=1, sort_keys=True) + "\n")


def run(name, players, levels, games):
    rules, _ = load(os.path.join(ROOT, "games", f"{name}.rules"))
    game = Game(rules, players)
    base = os.path.join(OUT, f"{name}-p{players}")

    def work():
        with Pool(WORKERS) as pool:
            result = skill(game, [parse_agent(s) for s in levels.split(",")], RandomAgent(), games, SEED, pool=pool)
        write_atomic(base + ".json", json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
        text = format_skill(rules.game.name, result)
        write_atomic(base + ".txt", text + "\n")
        print(text, flush=True)
        print(flush=True)
    _timed(f"{name}-p{players}", work)


def run_match(name, players, a, b, games):
    rules, _ = load(os.path.join(ROOT, "games", f"{name}.rules"))
    base = os.path.join(OUT, f"{name}-p{players}-{a}-vs-{b}".replace(":", ""))

    def work():
        with Pool(WORKERS) as pool:
            result = match(Game(rules, players), parse_agent(a), parse_agent(b), games, SEED, pool=pool)
        write_atomic(base + ".json", json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
        text = format_match(rules.game.name, result)
        write_atomic(base + ".txt", text + "\n")
        print(text, flush=True)
        print(flush=True)
    _timed(os.path.basename(base), work)


def table():
    timings = {}
    if os.path.exists(os.path.join(OUT, "timings.json")):
        with open(os.path.join(OUT, "timings.json"), encoding="utf-8") as f:
            timings = json.load(f)
    rows = ["# Skill versus luck, every seed game", "",
            "Written by `make skill` (`python scripts/skill.py [GAME ...]`, seed 1, a process per core).",
            "Each agent sits in one seat, rotated, against random players; score = mean utility (win 1,",
            "shared win 1/k, draw 1/n, loss or dead end 0), 95% Wilson interval; advantage = the agent's",
            "utility minus a random seat's, per game (above 0 with 95% confidence: the agent is stronger).",
            "Skill room = the best agent's advantage (= (best score - 1/n) / (1 - 1/n) when every game has",
            "a winner; unlike that, not pulled down by dead ends), with its 95% interval.",
            "`ismcts:N:depth=D`: rollouts stop at the first decision after D actions and are valued by",
            "the standing on the game's `score` (docs/agents.md).", "",
            "The time is the whole run of every level on this machine (2 cores, shared with other work:",
            "the load average before and after the run is beside it; 2 means both cores busy). The",
            "figures are the same for any number of processes; the times are measurements.", "",
            "| game | players | games a level | agent: score [95% interval], advantage | skill room [95% interval] (width) "
            "| dead-end games (best agent) | time (load) |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
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
        lo, hi = best["advantage_ci95"]
        rows.append(f"| {name} | {players} | {r['games_per_level']} | {curve} | {r['skill_room']:.2f} "
                    f"[{lo:.2f}, {hi:.2f}] ({hi - lo:.3f}) | {best['dead_end_games']} | "
                    f"{_took(timings.get(f'{name}-p{players}'))} |")
    if MATCHES:
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
    write_atomic(os.path.join(OUT, "README.md"), "\n".join(rows) + "\n")


def _took(timing) -> str:
    if timing is None:
        return ""
    m, s = divmod(timing["seconds"], 60)
    return f"{m} min {s:02d} s ({timing['load_before']}, {timing['load_after']})"


def main():
    if sys.argv[1:] == ["--table"]:        # README.md again from the files there
        table()
        return
    wanted = set(sys.argv[1:])
    os.makedirs(OUT, exist_ok=True)
    for name, players, levels, games in PLAN:
        if not wanted or name in wanted or f"{name}-p{players}" in wanted:
            run(name, players, levels, games)
    for name, players, a, b, games in MATCHES:
        if not wanted or name in wanted:
            run_match(name, players, a, b, games)
    table()


if __name__ == "__main__":
    main()
