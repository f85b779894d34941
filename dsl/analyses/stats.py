"""Comparing two simulation runs: confidence intervals and significance tests per metric.

Rates (a seat's wins, dead-end games) are compared with Fisher's exact test and shown
with Wilson 95% intervals; means (turns per game) with Welch's t-test and t intervals.
The numerics are scipy.stats'; this module only chooses and words them.
With many metrics some differences look significant by chance, so the verdict uses the
Holm-Bonferroni correction across all metrics of one comparison.
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

@dataclass(frozen=True)
class Metric:
    name: str
    kind: str                 # 'rate': successes out of n | 'mean': one value per game
    successes: int = 0
    n: int = 0
    values: tuple = ()

    @property
    def estimate(self) -> float:
        if self.kind == "rate":
            return self.successes / self.n if self.n else 0.0
        return statistics.fmean(self.values) if self.values else 0.0

    def interval(self) -> tuple[float, float]:
        if self.kind == "rate":
            return wilson(self.successes, self.n)
        return mean_interval(self.values)


def summary_metrics(summary) -> list[Metric]:
    """Every figure `simulate` reports that can be compared between two runs."""
    n = summary.games
    out = [Metric(f"win rate, seat {i + 1}", "rate", w, n) for i, w in enumerate(summary.wins)]
    out.append(Metric("draws", "rate", summary.draws, n))
    out.append(Metric("draws: nobody won", "rate", summary.no_winner, n))
    out.append(Metric("dead-end games", "rate", sum(d["count"] for d in summary.dead_ends.values()), n))
    for key in sorted(summary.dead_ends):
        d = summary.dead_ends[key]
        out.append(Metric(f"dead end: {d['rule']}: {d['kind']}", "rate", d["count"], n))
    out.append(Metric("turns per game", "mean", values=tuple(summary.turns)))
    if summary.logs:
        out.append(Metric("rounds per game", "mean", values=tuple(g.rounds for g in summary.logs)))
    return out


def wilson(k: int, n: int) -> tuple[float, float]:
    """Wilson score 95% interval for k successes out of n."""
    if n == 0:
        return (0.0, 1.0)
    ci = _scipy().binomtest(k, n).proportion_ci(0.95, method="wilson")
    return (max(0.0, float(ci.low)), min(1.0, float(ci.high)))


def mean_interval(values) -> tuple[float, float]:
    """Student's t 95% interval for the mean."""
    n = len(values)
    if n < 2:
        m = float(values[0]) if values else 0.0
        return (m, m)
    m = statistics.fmean(values)
    half = t_quantile(0.975, n - 1) * statistics.stdev(values) / math.sqrt(n)
    return (m - half, m + half)


def fisher_exact(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value of Fisher's exact test for k1/n1 against k2/n2."""
    if n1 == 0 or n2 == 0:
        return 1.0
    return min(1.0, float(_scipy().fisher_exact([[k1, n1 - k1], [k2, n2 - k2]]).pvalue))


def welch(a, b) -> float:
    """Two-sided p-value of Welch's t-test for the means of a and b."""
    if len(a) < 2 or len(b) < 2:
        return 1.0
    if statistics.variance(a) + statistics.variance(b) == 0:
        # scipy gives nan for two constant samples; equal constants do not differ, unequal ones surely do
        return 1.0 if statistics.fmean(a) == statistics.fmean(b) else 0.0
    return float(_scipy().ttest_ind(a, b, equal_var=False).pvalue)


def t_quantile(p: float, df: float) -> float:
    return float(_scipy().t.ppf(p, df))


def _scipy():
    # scipy.stats takes a noticeable moment to import; only the commands that test need it
    from scipy import stats
    return stats


def compare(a: list[Metric], b: list[Metric], alpha: float = 0.05) -> list[dict]:
    """One row per metric present on either side, with intervals, test, p-value and verdict."""
    by_a, by_b = {m.name: m for m in a}, {m.name: m for m in b}
    names = [m.name for m in a] + [m.name for m in b if m.name not in by_a]
    n_a = a[0].n if a else 0
    n_b = b[0].n if b else 0
    rows = []
    for name in names:
        ma = by_a.get(name) or Metric(name, "rate", 0, n_a)
        mb = by_b.get(name) or Metric(name, "rate", 0, n_b)
        if ma.kind == "rate":
            test, p = "Fisher's exact test", fisher_exact(ma.successes, ma.n, mb.successes, mb.n)
        else:
            test, p = "Welch's t-test", welch(ma.values, mb.values)
        rows.append({"metric": name, "kind": ma.kind,
                     "a": _side(ma), "b": _side(mb), "difference": round(mb.estimate - ma.estimate, 4),
                     "test": test, "p_value": _round_p(p)})
    # Holm-Bonferroni: the k-th smallest p is compared with alpha / (m - k + 1), stopping at the first miss.
    order = sorted(range(len(rows)), key=lambda i: (rows[i]["p_value"], i))
    still = True
    for rank, i in enumerate(order):
        still = still and rows[i]["p_value"] <= alpha / (len(rows) - rank)
        rows[i]["significant"] = still
    return rows


def _side(m: Metric) -> dict:
    lo, hi = m.interval()
    out = {"value": round(m.estimate, 4), "ci95": [round(lo, 4), round(hi, 4)]}
    if m.kind == "rate":
        out["count"] = m.successes
    out["n"] = m.n if m.kind == "rate" else len(m.values)
    return out


def _round_p(p: float) -> float:
    return float(f"{p:.3g}")
