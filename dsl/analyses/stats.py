"""Comparing two simulation runs: confidence intervals and significance tests per metric.

Rates (a seat's wins, dead-end games) are compared with Fisher's exact test and shown
with Wilson 95% intervals; means (decisions per game) with Welch's t-test and t intervals.
The tests are scipy.stats'; the intervals, which every simulation reports, are computed here
from their closed forms, so that a simulation need not import scipy (over a second).
With many metrics some differences look significant by chance, so the verdict uses the
Holm-Bonferroni correction across all metrics of one comparison.
"""
from __future__ import annotations

import math
import statistics
import warnings
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction


class Histogram:
    """How many times each value occurred: a running summary of one number per game (decisions,
    rounds, lead changes) that merges exactly, in any order, and gives the mean, deviation,
    quartiles and extremes exactly as `statistics` gives them from the whole list, to the bit.
    Its size is the number of distinct values, not of games."""
    __slots__ = ("counts",)

    def __init__(self, counts=None):
        self.counts = Counter(counts or ())

    @classmethod
    def of(cls, values) -> "Histogram":
        return cls(Counter(values))

    @classmethod
    def of_pairs(cls, pairs) -> "Histogram":
        """From the [value, count] pairs of `pairs()` (as the report's JSON keeps them)."""
        return cls({v: k for v, k in pairs})

    def add(self, value, times: int = 1) -> None:
        self.counts[value] += times

    def merge(self, other: "Histogram") -> None:
        self.counts.update(other.counts)

    def pairs(self) -> list:
        return [[v, k] for v, k in sorted(self.counts.items())]

    def __len__(self) -> int:
        return sum(self.counts.values())

    def __bool__(self) -> bool:
        return bool(self.counts)

    def __eq__(self, other) -> bool:
        return isinstance(other, Histogram) and +self.counts == +other.counts

    def exact_sum(self):
        """The sum of every value, exactly (an int for whole numbers, else a Fraction)."""
        return sum((Fraction(v) if type(v) is float else v) * k for v, k in self.counts.items())

    def mean(self) -> float:
        """statistics.fmean of the values: their sum, correctly rounded, over their number."""
        n = len(self)
        return float(self.exact_sum()) / n if n else 0.0

    def stdev(self) -> float:
        """statistics.stdev of the values (n >= 2): the exact sum of squares, as it computes it."""
        n = len(self)
        sx = sxx = 0
        for v, k in self.counts.items():
            x = Fraction(v) if type(v) is float else v
            sx += x * k
            sxx += x * x * k
        mss = Fraction(n * sxx - sx * sx, n) / (n - 1)
        return statistics._float_sqrt_of_frac(mss.numerator, mss.denominator)

    def _at(self, index: int):
        """The value at `index` of the values sorted."""
        for v, k in sorted(self.counts.items()):
            if index < k:
                return v
            index -= k
        raise IndexError(index)

    def quartiles(self) -> list:
        """statistics.quantiles(values, n=4, method='inclusive'), n >= 2."""
        m = len(self) - 1
        out = []
        for i in range(1, 4):
            j, delta = divmod(i * m, 4)
            out.append((self._at(j) * (4 - delta) + self._at(j + 1) * delta) / 4)
        return out

    def median(self):
        """statistics.median of the values."""
        n = len(self)
        if n % 2:
            return self._at(n // 2)
        return (self._at(n // 2 - 1) + self._at(n // 2)) / 2

    def min(self):
        return min(self.counts)

    def max(self):
        return max(self.counts)

@dataclass(frozen=True)
class Metric:
    name: str
    kind: str                 # 'rate': successes out of n | 'mean': one value per game
    successes: int = 0
    n: int = 0
    values: Histogram = None  # of a mean: the values, as a Histogram

    @property
    def estimate(self) -> float:
        if self.kind == "rate":
            return self.successes / self.n if self.n else 0.0
        return self.values.mean()

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
    out.append(Metric("decisions per game", "mean", values=summary.turns))
    if summary.tally is not None and summary.tally.games:
        out.append(Metric("rounds per game", "mean", values=summary.tally.rounds))
    return out


# The normal distribution's 97.5% quantile as scipy.special.ndtri gives it (statistics.NormalDist
# rounds its last bit the other way): the intervals are scipy's to the bit.
Z975 = 1.959963984540054


def wilson(k: int, n: int) -> tuple[float, float]:
    """Wilson score 95% interval for k successes out of n (Newcombe 1998; scipy's
    `binomtest(k, n).proportion_ci(method="wilson")`, operation for operation)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 2 * (n + Z975 ** 2)
    center = (2 * n * p + Z975 ** 2) / denom
    delta = Z975 / denom * math.sqrt(4 * n * p * (1 - p) + Z975 ** 2)
    lo = 0.0 if k == 0 else center - delta
    hi = 1.0 if k == n else center + delta
    return (max(0.0, lo), min(1.0, hi))


def mean_interval(values) -> tuple[float, float]:
    """Student's t 95% interval for the mean of the values (a list or a Histogram)."""
    h = values if isinstance(values, Histogram) else Histogram.of(values)
    n = len(h)
    if n < 2:
        m = float(h.min()) if n else 0.0
        return (m, m)
    m = h.mean()
    half = t_quantile(0.975, n - 1) * h.stdev() / math.sqrt(n)
    return (m - half, m + half)


def fisher_exact(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value of Fisher's exact test for k1/n1 against k2/n2."""
    if n1 == 0 or n2 == 0:
        return 1.0
    return min(1.0, float(_scipy().fisher_exact([[k1, n1 - k1], [k2, n2 - k2]]).pvalue))


def welch(a, b) -> float:
    """Two-sided p-value of Welch's t-test for the means of a and b (lists or Histograms)."""
    a, b = (x if isinstance(x, Histogram) else Histogram.of(x) for x in (a, b))
    if len(a) < 2 or len(b) < 2:
        return 1.0
    sa, sb = a.stdev(), b.stdev()
    if sa + sb == 0:
        # scipy gives nan for two constant samples; equal constants do not differ, unequal ones surely do
        return 1.0 if a.mean() == b.mean() else 0.0
    with warnings.catch_warnings():
        # a side that is constant (every game 15 decisions) is exact, not a loss of precision to warn of
        warnings.simplefilter("ignore", RuntimeWarning)
        return float(_scipy().ttest_ind_from_stats(a.mean(), sa, len(a), b.mean(), sb, len(b),
                                                   equal_var=False).pvalue)


def t_quantile(p: float, df: int) -> float:
    """The quantile p (over one half) of Student's t with a whole number df of degrees of freedom."""
    if not 0.5 < p < 1 or df < 1:
        raise ValueError(f"t_quantile wants 0.5 < p < 1 and df >= 1, not p={p}, df={df}")
    if df > 1000:
        return _t_quantile_large(p, df)
    lo, hi = 0.0, math.pi / 2       # bisect θ = atan(t / sqrt(df)), on which the CDF is monotone
    for _ in range(64):
        mid = (lo + hi) / 2
        if _t_central(mid, df) < 2 * p - 1:
            lo = mid
        else:
            hi = mid
    return math.sqrt(df) * math.tan((lo + hi) / 2)


def _t_central(theta: float, df: int) -> float:
    """P(|T| <= sqrt(df) tan θ) for Student's t, by the finite series of Abramowitz and Stegun 26.7.3-4."""
    c2 = math.cos(theta) ** 2
    total = term = 1.0
    if df % 2:
        if df == 1:
            return 2 * theta / math.pi
        for k in range(1, (df - 1) // 2):
            term *= c2 * (2 * k) / (2 * k + 1)
            total += term
        return 2 / math.pi * (theta + math.sin(theta) * math.cos(theta) * total)
    for k in range(1, df // 2):
        term *= c2 * (2 * k - 1) / (2 * k)
        total += term
    return math.sin(theta) * total


def _t_quantile_large(p: float, df: int) -> float:
    """Cornish-Fisher expansion around the normal quantile (Abramowitz and Stegun 26.7.5): its
    error shrinks as df**-5, below 1e-14 past a thousand degrees of freedom."""
    z = statistics.NormalDist().inv_cdf(p)
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    g4 = (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4


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
    for row, significant in zip(rows, holm([r["p_value"] for r in rows], alpha)):
        row["significant"] = significant
    return rows


def holm(p_values: list, alpha: float = 0.05) -> list[bool]:
    """Which of several tests are significant at `alpha` together (Holm-Bonferroni): the k-th
    smallest p is compared with alpha / (m - k + 1), stopping at the first miss."""
    order = sorted(range(len(p_values)), key=lambda i: (p_values[i], i))
    out = [False] * len(p_values)
    still = True
    for rank, i in enumerate(order):
        still = still and p_values[i] <= alpha / (len(p_values) - rank)
        out[i] = still
    return out


def binomial(k: int, n: int, p: float) -> float:
    """Two-sided p-value of the exact binomial test of k successes in n against the rate p."""
    if n == 0:
        return 1.0
    return float(_scipy().binomtest(k, n, p).pvalue)


def _side(m: Metric) -> dict:
    lo, hi = m.interval()
    out = {"value": round(m.estimate, 4), "ci95": [round(lo, 4), round(hi, 4)]}
    if m.kind == "rate":
        out["count"] = m.successes
    out["n"] = m.n if m.kind == "rate" else len(m.values)
    return out


def _round_p(p: float) -> float:
    return float(f"{p:.3g}")
