"""Comparing two simulation runs: confidence intervals and significance tests per metric.

Rates (a seat's wins, dead-end games) are compared with Fisher's exact test and shown
with Wilson 95% intervals; means (turns per game) with Welch's t-test and t intervals.
With many metrics some differences look significant by chance, so the verdict uses the
Holm-Bonferroni correction across all metrics of one comparison.
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

Z95 = 1.959963984540054


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
    out.append(Metric("dead-end games", "rate", sum(d["count"] for d in summary.dead_ends.values()), n))
    for key in sorted(summary.dead_ends):
        d = summary.dead_ends[key]
        out.append(Metric(f"dead end: {d['rule']}: {d['kind']}", "rate", d["count"], n))
    out.append(Metric("turns per game", "mean", values=tuple(summary.turns)))
    return out


def wilson(k: int, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + Z95 ** 2 / (2 * n)) / (1 + Z95 ** 2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / (1 + Z95 ** 2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values) -> tuple[float, float]:
    n = len(values)
    if n < 2:
        m = values[0] if values else 0.0
        return (m, m)
    m = statistics.fmean(values)
    half = t_quantile(0.975, n - 1) * statistics.stdev(values) / math.sqrt(n)
    return (m - half, m + half)


def _log_choose(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def fisher_exact(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value of Fisher's exact test for k1/n1 against k2/n2."""
    total, successes = n1 + n2, k1 + k2
    if n1 == 0 or n2 == 0 or successes in (0, total):
        return 1.0
    lo, hi = max(0, successes - n2), min(successes, n1)
    logp = lambda x: _log_choose(n1, x) + _log_choose(n2, successes - x) - _log_choose(total, successes)
    observed = logp(k1)
    p = sum(math.exp(logp(x)) for x in range(lo, hi + 1) if logp(x) <= observed + 1e-9)
    return min(1.0, p)


def welch(a, b) -> float:
    """Two-sided p-value of Welch's t-test for the means of a and b."""
    na, nb = len(a), len(b)
    if na < 2 or nb < 2:
        return 1.0
    va, vb = statistics.variance(a) / na, statistics.variance(b) / nb
    if va + vb == 0:
        return 1.0 if statistics.fmean(a) == statistics.fmean(b) else 0.0
    t = (statistics.fmean(a) - statistics.fmean(b)) / math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (na - 1) + vb ** 2 / (nb - 1))
    return 2 * t_sf(abs(t), df)


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with df degrees of freedom (t >= 0)."""
    return 0.5 * _betainc(df / 2, 0.5, df / (df + t * t))


def t_quantile(p: float, df: float) -> float:
    lo, hi = 0.0, 1000.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if 1 - t_sf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _betainc(a: float, b: float, x: float) -> float:
    """Regularised incomplete beta I_x(a, b), by its continued fraction (Lentz)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x))
    if x > (a + 1) / (a + b + 2):
        return 1.0 - _betainc(b, a, 1 - x)
    tiny = 1e-300
    f, c, d = 1.0, 1.0, 0.0
    for i in range(400):
        m = i // 2
        if i == 0:
            num = 1.0
        elif i % 2 == 0:
            num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        else:
            num = -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1))
        d = 1.0 + num * d
        d = tiny if abs(d) < tiny else d
        d = 1.0 / d
        c = 1.0 + num / c
        c = tiny if abs(c) < tiny else c
        f *= c * d
        if abs(1.0 - c * d) < 1e-12:
            break
    return front * (f - 1.0) / a


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
