"""Design metrics computed from play logs: how games end, how long they last, how much
choice they offer, which options win, and (given a score) how the lead moves.

Each metric is defined in docs/metrics.md with its source (Ludii's evaluation metrics,
CardStock's heuristics, TAG's per-game metrics). A `GameLog` is what one game leaves
behind; `metrics(logs, ...)` turns many of them into one plain dict with 95% intervals.
May import `stats` and the standard library only: it knows neither the engine nor a game.
"""
from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

from . import stats

PROGRESS = tuple(i / 10 for i in range(11))      # where "score over time" samples a game
MIN_DECIDED = 20        # fewer games won than this flag no side: one lucky win is no evidence of unfairness


@dataclass
class GameLog:
    """One game as the metrics see it."""
    index: int
    end: str                        # 'won' (one player or one team) | 'shared' | 'nobody' | 'dead end' | 'step limit'
    winners: tuple = ()             # seats (from 0) that won
    decisions: int = 0
    rounds: int = 0
    dead_end: Optional[str] = None  # "rule|kind"
    # per decision: (seat, moves offered, option key taken, option keys offered, cards taken, cards offered)
    choices: list = field(default_factory=list)
    scores: list = field(default_factory=list)    # each seat's score before every decision, then at the end


def _rate(k: int, n: int) -> dict:
    lo, hi = stats.wilson(k, n)
    return {"count": k, "n": n, "value": round(k / n, 4) if n else 0.0, "ci95": [round(lo, 4), round(hi, 4)]}


def _mean(values) -> dict:
    if not values:
        return {"n": 0, "value": 0.0, "ci95": [0.0, 0.0]}
    lo, hi = stats.mean_interval(values)
    return {"n": len(values), "value": round(statistics.fmean(values), 4), "ci95": [round(lo, 4), round(hi, 4)]}


def distribution(values) -> dict:
    """Mean, spread and quartiles of a length (decisions or rounds per game)."""
    if not values:
        return {"mean": 0.0, "sd": 0.0, "min": 0, "q1": 0, "median": 0, "q3": 0, "max": 0}
    q = statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1 else [values[0]] * 3
    return {"mean": round(statistics.fmean(values), 3),
            "sd": round(statistics.stdev(values), 3) if len(values) > 1 else 0.0,
            "min": min(values), "q1": round(q[0], 3), "median": round(q[1], 3), "q3": round(q[2], 3),
            "max": max(values)}


def outcomes(logs: list, n_players: int, teams: tuple = ()) -> dict:
    """Wins per seat and team with intervals, the fair share, and how the other games ended.

    `teams` lists each team's seats; a team of several players wins together (`end` 'won'
    with all its seats as winners)."""
    n = len(logs)
    team_play = any(len(t) > 1 for t in teams)
    sides = [tuple(t) for t in teams] if team_play else [(i,) for i in range(n_players)]
    fair = 1 / len(sides) if sides else 0.0
    wins = [0] * len(sides)
    for g in logs:
        if g.end == "won":
            for k, side in enumerate(sides):
                if set(g.winners) == set(side):
                    wins[k] += 1
    decided = sum(wins)
    rows = []
    for k, side in enumerate(sides):
        r = _rate(wins[k], n)
        r["seats"] = [s + 1 for s in side]
        # fairness is judged among the games someone won: draws and dead ends lower every side alike
        share = r["share_of_decided"] = _rate(wins[k], decided)
        r["flag"] = ("above" if share["ci95"][0] > fair else "below" if share["ci95"][1] < fair else "") \
            if decided >= MIN_DECIDED else ""
        rows.append(r)
    count = lambda end: sum(1 for g in logs if g.end == end)
    return {"by": "team" if team_play else "seat", "fair_share": round(fair, 4), "wins": rows,
            "won": _rate(count("won"), n), "shared": _rate(count("shared"), n), "nobody": _rate(count("nobody"), n),
            "dead_end": _rate(count("dead end"), n), "step_limit": _rate(count("step limit"), n)}


def design(logs: list, n_players: int, teams: tuple = ()) -> dict:
    """The metrics of docs/metrics.md that need no score."""
    n = len(logs)
    out = outcomes(logs, n_players, teams)
    rates = [w["count"] / n for w in out["wins"]] if n else []
    finished = [g for g in logs if g.end in ("won", "shared", "nobody")]
    decisions = [c for g in logs for c in g.choices]
    real = sum(1 for c in decisions if c[1] > 1)
    result = {
        "first_player_advantage": {**_rate(out["wins"][0]["count"], n), "fair_share": out["fair_share"],
                                   "excess": round(rates[0] - out["fair_share"], 4) if rates else 0.0},
        "balance": round(1 - (max(rates) - min(rates)), 4) if rates else 1.0,
        "completion": out["won"],
        "drawishness": _rate(sum(1 for g in finished if g.end != "won"), n),
        "timeouts": out["step_limit"],
        "dead_ends": out["dead_end"],
        "decisions": distribution([g.decisions for g in logs]),
        "decisions_of_finished": distribution([g.decisions for g in finished]),
        "rounds": distribution([g.rounds for g in logs]),
        "real_choice": _rate(real, len(decisions)),
        "branching_factor": round(statistics.fmean([c[1] for c in decisions]), 3) if decisions else 0.0,
        "branching_factor_real": round(statistics.fmean([c[1] for c in decisions if c[1] > 1]), 3) if real else 0.0,
        "options": option_use(logs),
        "cards": option_use(logs, cards=True),
    }
    return {"outcomes": out, **result}


def option_use(logs: list, cards: bool = False) -> list:
    """Per option (or per card, by label): how often it is offered and taken, and the win rate
    of the seats that took it at least once in a finished game against those offered it who
    never took it."""
    offered, taken = Counter(), Counter()
    users, users_won, others, others_won = Counter(), Counter(), Counter(), Counter()
    for g in logs:
        took, saw = {}, {}      # seat -> the keys it took, and was offered, once per decision
        for c in g.choices:
            seat = c[0]
            if seat not in saw:
                took[seat], saw[seat] = [], []
            if cards:
                took[seat] += c[4]
                saw[seat] += c[5]
            else:
                took[seat].append(c[2])
                saw[seat] += c[3]
        winners = g.winners if g.end == "won" else ()
        finished = g.end in ("won", "shared", "nobody")
        for seat, keys in saw.items():
            if not keys:
                continue
            taken.update(took[seat])
            offered.update(keys)
            if not finished:
                continue
            used, won = set(took[seat]), seat in winners
            for key in set(keys):
                if key in used:
                    users[key] += 1
                    users_won[key] += won
                else:
                    others[key] += 1
                    others_won[key] += won
    rows = []
    for key in sorted(offered):
        rows.append({"card" if cards else "option": key, "offered": offered[key], "taken": taken.get(key, 0),
                     "taken_when_offered": round(taken.get(key, 0) / offered[key], 4),
                     "win_rate_if_used": _rate(users_won.get(key, 0), users.get(key, 0)),
                     "win_rate_if_not_used": _rate(others_won.get(key, 0), others.get(key, 0))})
        used, unused = rows[-1]["win_rate_if_used"], rows[-1]["win_rate_if_not_used"]
        rows[-1]["gap"] = round(used["value"] - unused["value"], 4) if used["n"] and unused["n"] else 0.0
    return rows


def _leader(scores) -> Optional[int]:
    best = max(scores)
    top = [i for i, v in enumerate(scores) if v == best]
    return top[0] if len(top) == 1 else None


def lead_changes(scores: list) -> int:
    """Times the sole leader changes; samples where the lead is shared are skipped."""
    changes, last, before = 0, None, None
    for row in scores:
        if row == before:       # most decisions change no score
            continue
        before = row
        lead = _leader(row)
        if lead is None:
            continue
        if last is not None and lead != last:
            changes += 1
        last = lead
    return changes


def comeback(scores: list, winner: int) -> bool:
    """The winner was strictly behind someone at the half of the game."""
    half = scores[(len(scores) - 1) // 2]
    return half[winner] < max(v for i, v in enumerate(half) if i != winner)


def margin(final, winner: int) -> float:
    return final[winner] - max(v for i, v in enumerate(final) if i != winner)


def scored(logs: list, n_players: int) -> dict:
    """The metrics that need a score: lead changes, comebacks, final margin, score over time."""
    with_scores = [g for g in logs if g.scores]
    single = [g for g in with_scores if g.end == "won" and len(g.winners) == 1 and n_players > 1]
    over_time = [[0.0] * len(PROGRESS) for _ in range(n_players)]
    winner_line, other_line = [0.0] * len(PROGRESS), [0.0] * len(PROGRESS)
    for g in with_scores:
        for j, f in enumerate(PROGRESS):
            row = g.scores[round(f * (len(g.scores) - 1))]
            for p in range(n_players):
                over_time[p][j] += row[p] / len(with_scores)
    for g in single:
        w = g.winners[0]
        for j, f in enumerate(PROGRESS):
            row = g.scores[round(f * (len(g.scores) - 1))]
            winner_line[j] += row[w] / len(single)
            other_line[j] += (sum(row) - row[w]) / (n_players - 1) / len(single)
    return {
        "games": len(with_scores),
        "lead_changes": _mean([lead_changes(g.scores) for g in with_scores]),
        "comebacks": _rate(sum(1 for g in single if comeback(g.scores, g.winners[0])), len(single)),
        "final_margin": _mean([margin(g.scores[-1], g.winners[0]) for g in single]),
        "progress": list(PROGRESS),
        "score_over_time": [[round(v, 3) for v in line] for line in over_time],
        "winner_over_time": [round(v, 3) for v in winner_line],
        "others_over_time": [round(v, 3) for v in other_line],
    }


def metrics(logs: list, n_players: int, teams: tuple = (), with_score: bool = False) -> dict:
    out = design(logs, n_players, teams)
    if with_score:
        out["score"] = scored(logs, n_players)
    return out
