"""table-stats as one self-contained HTML page (and the section `report --replays` adds): for
each game and player count the table beside random play and the bots, as charts with 95%
intervals and where they agree or differ; for each version of the rules the ratings with
intervals, the designer's own questions, the notes by rule and by decision with the command
that opens the replay at each, and the rulings made at the table.

Charts are matplotlib SVG inline (dsl/analyses/charts.py): the same replays and seed give the
same bytes.

May import: the table core (dsl/table), analyses.charts, printing's templates.
"""
from __future__ import annotations

import os

from ..analyses import charts
from .notes import QUESTIONS, SCALES

TEMPLATES = os.path.join(os.path.dirname(os.path.dirname(__file__)), "printing", "templates")


def _t(lang):
    return lambda en, ja: ja if lang == "ja" else en


def _group_charts(g: dict, lang: str) -> dict:
    """The calibration of one group: length and wins by seat, the table beside each bot."""
    c = g.get("calibration")
    if not c:
        return {}
    t = _t(lang)
    cols = {t("at the table", "卓"): c["table"], **c["bots"]}
    length = [(name, f["length"]["mean"], f["length"]["low"], f["length"]["high"]) for name, f in cols.items()]
    wins = {name: [(f"P{s}", r["share"], r["low"], r["high"]) for s, r in f["win_share"].items() if r["share"] is not None]
            for name, f in cols.items()}
    wins = {k: v for k, v in wins.items() if v}
    out = {"length": charts.intervals(length, t("decisions per game (mean, 95% interval)", "1ゲームの判断数(平均、95%区間)"))}
    if wins:
        out["wins"] = charts.win_rates(wins, {k: 1 / g["players"] for k in wins}, lang)
    return out


def _session_charts(s: dict, lang: str) -> dict:
    t = _t(lang)
    words = {k: (ja if lang == "ja" else en) for k, _, en, ja in QUESTIONS}
    rows = [(k, words[k], s["ratings"][k]) for k in SCALES if s["ratings"][k]["n"]]
    rows += [(k, q["ja"] if lang == "ja" and q["ja"] else q["en"], q["rating"]) for k, q in s.get("asked", {}).items()
             if q.get("rating", {}).get("n")]
    if not rows:
        return {}
    return {"ratings": charts.intervals([(_short(text), r["mean"], r["low"], r["high"]) for _, text, r in rows],
                                        t("answer from 1 to 5 (mean, 95% interval)", "1〜5の回答(平均、95%区間)"), (0.5, 5.5))}


def _short(text: str, cap: int = 40) -> str:
    return text if len(text) <= cap else text[:cap - 1] + "…"


def context(groups: list, sessions: list, lang: str) -> dict:
    """What the templates draw."""
    words = {k: (ja if lang == "ja" else en) for k, _, en, ja in QUESTIONS}
    return {"groups": [(g, _group_charts(g, lang)) for g in groups],
            "sessions": [(s, _session_charts(s, lang)) for s in sessions],
            "words": words, "scales": SCALES, "t": _t(lang), "lang": lang,
            "who": lambda seat: (_t(lang)("the designer", "デザイナー") if seat is None else
                                 f"P{int(seat) + 1}" if isinstance(seat, int) else str(seat)),
            "base": os.path.basename}


def _env():
    from jinja2 import Environment, FileSystemLoader, select_autoescape
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html", "j2"]),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters["pct"] = lambda v: "–" if v is None else f"{v:.0%}"
    env.filters["num"] = lambda v: "–" if v is None else f"{v:.2f}"
    return env


def render(groups: list, sessions: list, lang: str = "en") -> str:
    """The whole page."""
    return _env().get_template("table-stats.html.j2").render(**context(groups, sessions, lang))


def section(groups: list, sessions: list, lang: str = "en") -> str:
    """The page's body, for the balance report of the same game (`report --replays`)."""
    return _env().get_template("table-sessions.html.j2").render(**context(groups, sessions, lang))
