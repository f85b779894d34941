"""Parameter sweeps: play every combination of parameter values with common random seeds,
report each metric per combination, and rank combinations against a designer's target.

A combination is the rule file with its `parameter` declarations replaced (a plain number
for every player count); nothing in the language changes. May import the syntax tree,
`simulate` and `metrics`.
"""
from __future__ import annotations

import dataclasses
import itertools
from typing import Optional

from ..engine import Game, RuleError
from ..language import syntax as S
from ..language.diagnostics import did_you_mean
from .batches import Stopped, until_stopped
from .bounds import MAX_COMBINATIONS
from .simulate import declared_score, score_label, simulate


class SweepError(ValueError):
    """A parameter or value the sweep cannot use; the message says why and what would do."""


def parse_values(text: str) -> list[int]:
    """'2,3,4' or '1..3' or '1..9..2' (a step) or a mix: '1..3,6'."""
    out = []
    for part in text.split(","):
        part = part.strip()
        try:
            if ".." in part:
                bits = [int(x) for x in part.split("..")]
                if len(bits) not in (2, 3) or bits[0] > bits[1] or (len(bits) == 3 and bits[2] < 1):
                    raise ValueError
                step = bits[2] if len(bits) == 3 else 1
                values = range(bits[0], bits[1] + 1, step)
                count = (bits[1] - bits[0]) // step + 1         # len() of a range past 2**63 overflows
            else:
                count, values = 1, [int(part)]
        except ValueError:
            raise SweepError(f"'{text}' is not a list of whole numbers (write 2,3,4 or 1..3 or 2..10..2)") from None
        if len(out) + count > MAX_COMBINATIONS:
            raise SweepError(f"'{text}' is {len(out) + count:,} values, more than the {MAX_COMBINATIONS} "
                             "combinations a sweep may have; sweep fewer values at once")
        out.extend(values)
    if any(v < 0 for v in out):
        raise SweepError(f"'{text}': parameters count things, so a value is 0 or more")
    return list(dict.fromkeys(out))


def parse_param(spec: str, rules) -> tuple[str, list[int]]:
    """'NAME=VALUES' checked against the rule file's parameters."""
    if "=" not in spec:
        raise SweepError(f"'{spec}': write NAME=VALUES, e.g. A=2,3,4 or A=1..3")
    name, values = (x.strip() for x in spec.split("=", 1))
    params = {p.name: p for p in rules.of(S.Parameter)}
    if name not in params:
        hint = did_you_mean(name, params) or next(
            (f"did you mean '{p}'?" for p in params if p.lower() == name.lower()), None)
        raise SweepError(f"'{name}' is not a parameter of {rules.game.name} (its parameters: "
                         f"{', '.join(sorted(params)) or 'none'})" + (f"; {hint}" if hint else ""))
    vals = parse_values(values)
    if not vals:
        raise SweepError(f"'{spec}': no values")
    return name, vals


def with_values(rules, values: dict):
    """The rule file with these parameters set to these numbers."""
    decls = []
    for d in rules.decls:
        if isinstance(d, S.Parameter) and d.name in values:
            d = dataclasses.replace(d, value=S.Num(d.span, values[d.name]), by_players=(), otherwise=None)
        decls.append(d)
    return dataclasses.replace(rules, decls=tuple(decls))


def combinations(params: list) -> list[dict]:
    names = [n for n, _ in params]
    combos = [dict(zip(names, vals)) for vals in itertools.product(*(v for _, v in params))]
    if len(combos) > MAX_COMBINATIONS:
        raise SweepError(f"{len(combos)} combinations is more than {MAX_COMBINATIONS}; sweep fewer values at once")
    return combos


# The figures a sweep reports per combination, and where each lives in a simulate summary.
FIGURES = {
    "completion": lambda m: m["completion"]["value"],
    "drawishness": lambda m: m["drawishness"]["value"],
    "dead_ends": lambda m: m["dead_ends"]["value"],
    "timeouts": lambda m: m["timeouts"]["value"],
    "balance": lambda m: m["balance"],
    "first_player_advantage": lambda m: m["first_player_advantage"]["value"],
    "mean_decisions": lambda m: m["decisions"]["mean"],
    "mean_rounds": lambda m: m["rounds"]["mean"],
    "real_choice": lambda m: m["real_choice"]["value"],
}


@dataclasses.dataclass(frozen=True)
class Target:
    """What the designer wants: lengths in a range (in rounds, or decisions when the game
    has no rounds), balance at least some value, and at most some share of dead ends."""
    length: Optional[tuple] = None
    length_in: str = "rounds"
    balance: Optional[float] = None
    dead_ends: Optional[float] = None

    def misses(self, fig: dict, lang: str = "en") -> list[str]:
        say = (lambda en, ja: ja) if lang == "ja" else (lambda en, ja: en)
        out = []
        if self.length is not None:
            v = fig["mean_rounds" if self.length_in == "rounds" else "mean_decisions"]
            if not self.length[0] <= v <= self.length[1]:
                unit = say(self.length_in, "ラウンド数" if self.length_in == "rounds" else "判断数")
                out.append(say(f"mean {unit} {v} outside {self.length[0]}-{self.length[1]}",
                               f"平均{unit} {v} が {self.length[0]}〜{self.length[1]} の外"))
        if self.balance is not None and fig["balance"] < self.balance:
            out.append(say(f"balance {fig['balance']} below {self.balance}", f"均衡 {fig['balance']} が {self.balance} 未満"))
        if self.dead_ends is not None and fig["dead_ends"] > self.dead_ends:
            out.append(say(f"dead ends {fig['dead_ends']:.1%} above {self.dead_ends:.1%}",
                           f"行き止まり {fig['dead_ends']:.1%} が {self.dead_ends:.1%} 超"))
        return out

    def distance(self, fig: dict) -> float:
        """How far a combination is from the target (0: on it), for ranking."""
        d = 0.0
        if self.length is not None:
            v = fig["mean_rounds" if self.length_in == "rounds" else "mean_decisions"]
            lo, hi = self.length
            d += max(0.0, lo - v, v - hi) / max(hi, 1)
        if self.balance is not None:
            d += max(0.0, self.balance - fig["balance"])
        if self.dead_ends is not None:
            d += max(0.0, fig["dead_ends"] - self.dead_ends)
        return d


def run(rules, params: list, players: list, games: int, seed: int, score=None, progress=None,
        target: Optional[Target] = None, agents=None, pool=None) -> dict:
    """Every combination at every player count, each with the same seeds (common random numbers).
    pool: a batches.Pool to play the games in (the result is the same without it).

    score: None or (name, game -> score function); None uses the rule file's `score`, if any."""
    label = score[0] if score else None
    runs = [(combo, with_values(rules, combo), n) for combo in combinations(params) for n in players]

    def simulated(run):
        combo, changed, n = run
        try:
            game = Game(changed, n)
        except RuleError as e:
            raise SweepError(f"{', '.join(f'{k}={v}' for k, v in combo.items())}: {e.message}") from None
        return score_label(game), simulate(game, games, seed, progress, agents=agents(n) if agents else None,
                              score=(score[0], score[1](game)) if score else declared_score(game), pool=pool)
    played, stopped = until_stopped(runs, simulated, lambda run: run[1].partial)
    if not played:
        raise Stopped()
    rows = []
    for (combo, _, n), (declared, summary) in zip(runs, played):
        label = label or declared
        result = summary.to_json()
        m = result["metrics"]
        fig = {k: f(m) for k, f in FIGURES.items()}
        if "score" in m:
            fig["lead_changes"] = m["score"]["lead_changes"]["value"]
            fig["comebacks"] = m["score"]["comebacks"]["value"]
            fig["final_margin"] = m["score"]["final_margin"]["value"]
        row = {"values": combo, "players": n, "agents": result["agents"], "figures": fig,
               "wins": m["outcomes"]["wins"], "dead_end_kinds": result["dead_ends"],
               **({"partial": True, "games": summary.games} if summary.partial else {})}
        if target is not None:
            row["misses"] = target.misses(fig)
            row["distance"] = round(target.distance(fig), 4)
        rows.append(row)
    ranking = None
    if target is not None:
        ranking = sorted(range(len(rows)), key=lambda i: (rows[i]["distance"], i))
    return {"game": rules.game.name, "file": rules.path, "params": [[n, v] for n, v in params],
            "players": players, "games": games, "seed": seed, "score": label,
            "target": dataclasses.asdict(target) if target else None, "rows": rows, "ranking": ranking,
            **({"partial": True, "rows_asked": len(runs)} if stopped else {})}


def partial_line(data: dict, lang: str = "en") -> str:
    """Where Ctrl-C stopped a sweep: in a row (its games so far shown), or after one."""
    say = (lambda en, ja: ja) if lang == "ja" else (lambda en, ja: en)
    last, left = data["rows"][-1], data["rows_asked"] - len(data["rows"])
    at = ", ".join(f"{k}={v}" for k, v in last["values"].items()) + say(f", {last['players']} players",
                                                                       f"、{last['players']}人")
    if "partial" in last:
        return say(f"Partial: stopped by Ctrl-C at {at} after {last['games']} of {data['games']} games; "
                   f"the {left} rows after it were not played",
                   f"途中まで: {at}の{data['games']}ゲーム中{last['games']}ゲームでCtrl-Cにより停止。"
                   f"その後の{left}行は遊んでいない")
    return say(f"Partial: stopped by Ctrl-C after {at}; the {left} rows after it were not played",
               f"途中まで: {at}の後でCtrl-Cにより停止。その後の{left}行は遊んでいない")


HEATMAP_FIGURES = ("completion", "dead_ends", "balance", "mean_rounds", "mean_decisions")

# Each figure's name on the page, (en, ja); docs/metrics.md defines them.
FIGURE_WORDS = {
    "completion": ("completion", "決着率"),
    "drawishness": ("drawishness", "引き分け率"),
    "dead_ends": ("dead ends", "行き止まり"),
    "timeouts": ("timeouts", "上限到達"),
    "balance": ("balance", "均衡"),
    "first_player_advantage": ("first player advantage", "先手の有利"),
    "mean_decisions": ("mean decisions", "平均判断数"),
    "mean_rounds": ("mean rounds", "平均ラウンド数"),
    "real_choice": ("real choice", "実質的な選択"),
    "lead_changes": ("lead changes", "首位交代"),
    "comebacks": ("comebacks", "逆転"),
    "final_margin": ("final margin", "最終得点差"),
}


def render_html(data: dict, lang: str = "en") -> str:
    from jinja2 import Environment, FileSystemLoader, select_autoescape
    from . import charts
    from .report import TEMPLATES
    names = [n for n, _ in data["params"]]
    say = (lambda en, ja: ja) if lang == "ja" else (lambda en, ja: en)
    target = Target(**data["target"]) if data["target"] else None
    maps = []
    if len(names) in (1, 2) and "partial" not in data:      # a stopped sweep's grid has holes
        xs = data["params"][0][1]
        ys = data["params"][1][1] if len(names) == 2 else [None]
        for n in data["players"]:
            by = {(tuple(r["values"].values()), r["players"]): r for r in data["rows"]}
            for fig in HEATMAP_FIGURES:
                grid = [[by[((x, y) if len(names) == 2 else (x,), n)]["figures"][fig] for x in xs] for y in ys]
                maps.append(charts.heatmap(grid, [str(x) for x in xs], [str(y) for y in ys] if len(names) == 2 else [""],
                                           names[0], names[1] if len(names) == 2 else "",
                                           say(f"{FIGURE_WORDS[fig][0]}, {n} players", f"{FIGURE_WORDS[fig][1]}（{n}人）"),
                                           None if fig.startswith("mean_") else (0, 1)))
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html", "j2"]),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters["pct"] = lambda v: f"{v:.1%}"
    return env.get_template("sweep.html.j2").render(
        d=data, names=names, maps=maps, figures=list(FIGURES), lang=lang, t=say,
        partial=partial_line(data, lang) if "partial" in data else None,
        figure=lambda f: say(*FIGURE_WORDS[f]),
        misses=lambda r: "; ".join(target.misses(r["figures"], lang)) if target else "")


def render_csv(data: dict) -> str:
    import csv
    import io
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    names = [n for n, _ in data["params"]]
    extra = sorted({k for r in data["rows"] for k in r["figures"]} - set(FIGURES))
    w.writerow(names + ["players"] + list(FIGURES) + extra + (["distance", "misses"] if data["target"] else []))
    for r in data["rows"]:
        w.writerow([r["values"][n] for n in names] + [r["players"]] + [r["figures"][k] for k in FIGURES]
                   + [r["figures"].get(k, "") for k in extra]
                   + ([r["distance"], "; ".join(r["misses"])] if data["target"] else []))
    return buf.getvalue()
