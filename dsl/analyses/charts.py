"""Charts of the balance report and the sweep, drawn with matplotlib as inline SVG.

The SVG is deterministic (fixed hash salt, no date, text kept as text), so a report is
byte-identical across runs. Takes plain data (the dicts of `metrics`); imports matplotlib
only.
"""
from __future__ import annotations

import io
import warnings

COLOURS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c"]


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams.update({"svg.hashsalt": "playtest", "svg.fonttype": "none", "font.size": 9,
                                "axes.spines.top": False, "axes.spines.right": False})
    import matplotlib.pyplot as plt
    return plt


def _svg(fig) -> str:
    buf = io.StringIO()
    with warnings.catch_warnings():
        # matplotlib measures Japanese words with a font that lacks them; the text is kept as
        # text and drawn by the browser's own font, so the warning is not the reader's concern
        warnings.filterwarnings("ignore", r"Glyph \d+ .* missing from font", UserWarning)
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    _plt().close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]          # inline: no XML prolog or doctype


def _say(lang: str, en: str, ja: str) -> str:
    return ja if lang == "ja" else en


def length_histogram(series: dict, what: str = "decisions", lang: str = "en") -> str:
    """series: label -> the lengths as [length, games] pairs, sorted, one histogram outline each; what: decisions or rounds."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 2.8))
    top = max((v[-1][0] for v in series.values() if v), default=1)
    # one bin a length while they fit, so a bar sits on its own number
    bins = [x - 0.5 for x in range(top + 2)] if top < 60 else [i * (top + 1) / 40 for i in range(41)]
    for k, (label, pairs) in enumerate(series.items()):
        ax.hist([v for v, _ in pairs], weights=[n for _, n in pairs], bins=bins, histtype="step", linewidth=1.5,
                color=COLOURS[k % len(COLOURS)], label=label)
    ax.set_xlabel(_say(lang, f"{what} per game", {"decisions": "1ゲームの判断数", "rounds": "1ゲームのラウンド数"}[what]))
    ax.set_ylabel(_say(lang, "games", "ゲーム数"))
    ax.legend(frameon=False)
    return _svg(fig)


def win_rates(series: dict, fair: dict, lang: str = "en") -> str:
    """series: label -> list of (side, rate, lo, hi); fair: label -> fair share (a dashed line)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 2.8))
    width = 0.8 / max(len(series), 1)
    for k, (label, rows) in enumerate(series.items()):
        xs = [i + k * width for i in range(len(rows))]
        ys = [r[1] for r in rows]
        err = [[r[1] - r[2] for r in rows], [r[3] - r[1] for r in rows]]
        colour = COLOURS[k % len(COLOURS)]
        ax.bar(xs, ys, width=width * 0.9, color=colour, alpha=0.75, label=label)
        ax.errorbar(xs, ys, yerr=err, fmt="none", ecolor="black", capsize=2, linewidth=1)
        ax.hlines(fair[label], xs[0] - width / 2, xs[-1] + width / 2, colors=colour, linestyles="dashed", linewidth=1)
    longest = max(series.values(), key=len)
    ax.set_xticks([i + width * (len(series) - 1) / 2 for i in range(len(longest))], [r[0] for r in longest])
    ax.set_ylabel(_say(lang, "win rate (95% interval)", "勝率（95%区間）"))
    ax.set_ylim(0, 1)
    ax.legend(frameon=False)
    return _svg(fig)


def score_over_time(progress, lines: dict, highlight_last: bool = True, lang: str = "en") -> str:
    """lines: label -> values at each progress point; the last (the eventual winner) black and dashed."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 2.8))
    for k, (label, values) in enumerate(lines.items()):
        last = k == len(lines) - 1 and highlight_last
        ax.plot([p * 100 for p in progress], values, marker="o", markersize=3, linestyle="--" if last else "-",
                color="black" if last else COLOURS[k % len(COLOURS)], label=label)
    ax.set_xlabel(_say(lang, "progress through the game (% of decisions)", "ゲームの進み具合（判断数の%）"))
    ax.set_ylabel(_say(lang, "mean score", "平均得点"))
    ax.legend(frameon=False)
    return _svg(fig)


def option_use(rows: list, limit: int = 25, lang: str = "en") -> str:
    """rows: (option, taken share); the most taken first."""
    plt = _plt()
    rows = rows[:limit]
    fig, ax = plt.subplots(figsize=(6, 0.6 + 0.22 * len(rows)))
    ys = list(range(len(rows)))[::-1]
    ax.barh(ys, [r[1] for r in rows], color=COLOURS[0], alpha=0.75)
    ax.set_yticks(ys, [r[0] for r in rows])
    ax.set_xlabel(_say(lang, "share of all decisions", "全判断に占める割合"))
    return _svg(fig)


def heatmap(values, xlabels, ylabels, xname: str, yname: str, title: str, bounds=None) -> str:
    """values[y][x] (None: no value); bounds (lo, hi) fixes the colour scale (rates: 0 to 1),
    so that small differences do not look large."""
    plt = _plt()
    import numpy as np
    data = np.array([[np.nan if v is None else v for v in row] for row in values], dtype=float)
    fig, ax = plt.subplots(figsize=(1.2 + 0.7 * len(xlabels), 0.8 + 0.45 * len(ylabels)))
    lo, hi = bounds if bounds else (np.nanmin(data), np.nanmax(data))
    im = ax.imshow(data, cmap="viridis", aspect="auto", vmin=lo, vmax=hi)
    ax.set_xticks(range(len(xlabels)), xlabels)
    ax.set_yticks(range(len(ylabels)), ylabels)
    ax.set_xlabel(xname)
    ax.set_ylabel(yname)
    ax.set_title(title)
    for y, row in enumerate(values):
        for x, v in enumerate(row):
            if v is not None:
                light = hi > lo and (v - lo) / (hi - lo) > 0.6      # viridis is light at the top
                ax.text(x, y, f"{v:.3g}", ha="center", va="center", color="black" if light else "white", fontsize=7)
    fig.colorbar(im, ax=ax)
    return _svg(fig)


def intervals(rows: list, xlabel: str, bounds=None) -> str:
    """rows: (label, mean, low, high), the first at the top; a row without an interval (low None)
    is a point alone, one without a mean is left empty. bounds (lo, hi) fixes the axis (a 1-5
    rating), so that a small difference does not look large."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 0.7 + 0.32 * len(rows)))
    ys = list(range(len(rows)))[::-1]
    for y, (label, mean, low, high) in zip(ys, rows):
        if mean is None:
            continue
        colour = COLOURS[(len(rows) - 1 - y) % len(COLOURS)]
        if low is not None:
            ax.errorbar([mean], [y], xerr=[[mean - low], [high - mean]], fmt="o", color=colour, capsize=3, linewidth=1.5)
        else:
            ax.plot([mean], [y], "o", color=colour)
    ax.set_yticks(ys, [r[0] for r in rows])
    ax.set_ylim(-0.6, len(rows) - 0.4)
    if bounds:
        ax.set_xlim(*bounds)
    ax.set_xlabel(xlabel)
    return _svg(fig)
