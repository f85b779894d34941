"""The balance report: one game simulated at several player counts (and agent specs), its
design metrics with intervals, charts, and the shortest game of each dead end narrated.

`build()` returns a plain dict (the JSON beside the HTML); `render_html()` and
`render_csv()` turn it into files. May import the engine, `simulate`, `metrics`, `charts`,
`replay` and the narrator.
"""
from __future__ import annotations

import csv
import io
import os
from typing import Callable, Optional

from ..engine import Game
from . import charts
from . import replay as replay_mod
from .simulate import Restriction, declared_score, score_label, score_title, simulate

TEMPLATES = os.path.join(os.path.dirname(os.path.dirname(__file__)), "printing", "templates")
CARD_ROWS = 30              # cards shown per player count, the largest gaps first
REPLAY_LINES = 80           # a narrated dead end longer than this shows its last lines


def build(rules, player_counts: list, games: int, seed: int, agent_sets: Optional[list] = None,
          score: Optional[str] = None, scorer: Optional[Callable] = None,
          restriction: Optional[Restriction] = None, progress=None, skill: Optional[tuple] = None,
          pool=None) -> dict:
    """Simulate every player count with every agent set (None: random play).

    agent_sets: list of (spec label, factory n_players -> per-seat agents or None).
    scorer: game -> score function (state, player) -> number, when `score` names one; without
    it the rule file's own `score` declaration is used, if it has one.
    skill: (agent spec, games) to measure skill: at each player count the agent in one seat
    (rotated) against random players, as `playtest match` does.
    pool: a batches.Pool to play the simulations in (the report is the same without it)."""
    from ..printing.narrate import Narrator
    agent_sets = agent_sets or [("random", lambda n: None)]
    configs = []
    declared = title = None
    for n in player_counts:
        game = Game(rules, n)
        declared = declared or score_label(game)
        title = title or score_title(game)
        for label, make in agent_sets:
            summary = simulate(game, games, seed, progress, agents=make(n),
                               score=(score, scorer(game)) if score else declared_score(game),
                               restriction=restriction, pool=pool)
            result = summary.to_json()
            dead = []
            for key, played in sorted(summary.examples.items()):
                rule, kind = key.split("|", 1)
                state = replay_mod.run(game, played.actions, log=True)
                lines = list(Narrator(game, "en").tell(state.log))
                dead.append({"rule": rule, "kind": kind, "game": played.index, "actions": played.actions,
                             "count": summary.dead_ends[key]["count"], "where": summary.dead_ends[key]["where"],
                             "narration": lines[-REPLAY_LINES:], "cut": max(0, len(lines) - REPLAY_LINES)})
            configs.append({"players": n, "agents": label, "agent_specs": result["agents"], "summary": result,
                            "lengths": [g.decisions for g in summary.logs],
                            "rounds": [g.rounds for g in summary.logs], "dead_end_games": dead})
    g = rules.game
    skills = [_skill(Game(rules, n), skill, seed, progress, pool) for n in player_counts] if skill else None
    return {"skill": skills, "game": g.name, "file": rules.path, "variants": [v.path for v in rules.variants],
            "seed": seed, "games": games, "score": score or declared,
            "score_title": None if score else title,
            "restriction": {"banned": list(restriction.banned), "seats": [s + 1 for s in restriction.seats]}
            if restriction else None, "configs": configs}


def _skill(game: Game, skill: tuple, seed: int, progress, pool) -> dict:
    """How much a stronger agent gains over random seats at one player count."""
    from ..agents import RandomAgent, parse_agent
    from ..agents.match import match
    spec, games = skill
    return match(game, parse_agent(spec), RandomAgent(), games, seed, progress, pool)


def _label(c) -> str:
    return f"{c['players']} players" + ("" if c["agents"] == "random" else f", {c['agents']}")


def chart_set(data: dict) -> dict:
    """Every chart of a report, as inline SVG."""
    configs = data["configs"]
    out = {"lengths": charts.length_histogram({_label(c): c["lengths"] for c in configs})}
    if any(c["rounds"] and max(c["rounds"]) > 0 for c in configs):
        out["rounds"] = charts.length_histogram({_label(c): c["rounds"] for c in configs}, "rounds per game")
    wins, fair = {}, {}
    for c in configs:
        o = c["summary"]["metrics"]["outcomes"]
        wins[_label(c)] = [(",".join(map(str, w["seats"])), w["value"], *w["ci95"]) for w in o["wins"]]
        fair[_label(c)] = o["fair_share"]
    out["wins"] = charts.win_rates(wins, fair)
    out["scores"] = {}
    out["options"] = {}
    for c in configs:
        m = c["summary"]["metrics"]
        if "score" in m and m["score"]["games"]:
            s = m["score"]
            lines = {f"seat {i + 1}": v for i, v in enumerate(s["score_over_time"])}
            lines["eventual winner"] = s["winner_over_time"]
            out["scores"][_label(c)] = charts.score_over_time(s["progress"], lines)
        total = sum(o["taken"] for o in m["options"]) or 1
        rows = sorted(((o["option"], o["taken"] / total) for o in m["options"]), key=lambda r: (-r[1], r[0]))
        if len(rows) > 1:
            out["options"][_label(c)] = charts.option_use(rows)
    return out


def render_html(data: dict, title: str = "") -> str:
    from jinja2 import Environment, FileSystemLoader, select_autoescape
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html", "j2"]),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters["pct"] = lambda v: f"{v:.1%}"
    return env.get_template("report.html.j2").render(d=data, title=title or data["game"], charts=chart_set(data),
                                                      label=_label, card_rows=CARD_ROWS)


CSV_COLUMNS = ["players", "agents", "games", "side", "wins", "win_rate", "ci_low", "ci_high", "flag",
               "draws_nobody_won", "draws_shared", "dead_end_games", "step_limit_games", "mean_decisions",
               "mean_rounds", "real_choice", "branching_factor", "balance", "first_player_advantage"]


def render_csv(data: dict) -> str:
    """One row per player count, agent spec and side (seat or team)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for c in data["configs"]:
        m = c["summary"]["metrics"]
        o = m["outcomes"]
        for side in o["wins"]:
            w.writerow([c["players"], c["agents"], c["summary"]["games"], "+".join(map(str, side["seats"])),
                        side["count"], side["value"], *side["ci95"], side["flag"], o["nobody"]["count"],
                        o["shared"]["count"], o["dead_end"]["count"], o["step_limit"]["count"],
                        m["decisions"]["mean"], m["rounds"]["mean"], m["real_choice"]["value"],
                        m["branching_factor"], m["balance"], m["first_player_advantage"]["value"]])
    return buf.getvalue()
