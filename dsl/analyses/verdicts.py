"""What a match or a skill curve found, said in one sentence with its 95% intervals (en or ja),
for `playtest match`, `playtest skill` and the report's skill section; and the figures' shared
way of writing a rate and an interval ("31% [29, 33]").

Takes the plain dicts of dsl.agents.match. A figure that does not apply (dead ends in a run
that had none) is left out of the sentence.
"""
from __future__ import annotations


def pct(v: float) -> str:
    """A rate as the summaries print it: whole per cent."""
    return f"{v * 100:.0f}"


def interval(ci, as_pct=True) -> str:
    f = pct if as_pct else (lambda v: f"{v:.0f}")
    return f"[{f(ci[0])}, {f(ci[1])}]"


def _gain(v: float) -> str:
    return f"{v:+.2f}"


def _gains(ci) -> str:
    return f"[{_gain(ci[0])}, {_gain(ci[1])}]"


def stronger(r: dict) -> str | None:
    """'a' or 'b' where one agent's advantage is above 0 (or below) with 95% confidence."""
    lo, hi = r["advantage_ci95"]
    return "a" if lo > 0 else "b" if hi < 0 else None


def verdict(r: dict, lang: str = "en") -> str:
    """Which agent is stronger, in words."""
    side = stronger(r)
    if side is None:
        return "はっきりした差はない" if lang == "ja" else "no clear difference"
    return f"{r[side]}の方が強い" if lang == "ja" else f"{r[side]} is stronger"


def match_sentence(r: dict, lang: str = "en") -> str:
    """A match (agent A in one seat, B in the others) in one sentence: who is stronger, A's
    score and its advantage over a B seat, each with its interval."""
    a, b, side = r["a"], r["b"], stronger(r)
    score = f"{pct(r['score'])}% {interval(r['ci95'])}"
    gain = f"{_gain(r['advantage'])} {_gains(r['advantage_ci95'])}"
    if lang == "ja":
        head = {"a": f"{a}の方が{b}より強い", "b": f"{b}の方が{a}より強い", None: f"{a}と{b}にはっきりした差はない"}[side]
        text = (f"{head}: {a}は{b}を相手に1席で得点{score}（互角なら{pct(r['fair_share'])}%）、"
                f"{b}の席との差は1ゲームあたり{gain}。")
        if r["dead_end_games"]:
            text += f"{r['games']}ゲーム中{r['dead_end_games']}ゲームが行き止まりで終わった（全員0）。"
        return text + _team_said([{"agent": a, **r}], lang)
    head = {"a": f"{a} is stronger than {b}", "b": f"{b} is stronger than {a}",
            None: f"No clear difference between {a} and {b}"}[side]
    text = (f"{head}: in one seat against {b}, {a} scores {score} where equal agents score "
            f"{pct(r['fair_share'])}%, {gain} a game against a {b} seat.")
    if r["dead_end_games"]:
        text += f" {r['dead_end_games']} of {r['games']} games ended in a dead end (0 to everyone)."
    return text + _team_said([{"agent": a, **r}], lang)


def skill_sentence(r: dict, lang: str = "en") -> str:
    """A skill curve in one sentence: whether trying to win pays against random seats, by the
    best level's score and its advantage (the skill room), each with its interval."""
    best = next(c for c in r["curve"] if c["agent"] == r["best"])
    pays = best["advantage_ci95"][0] > 0
    score = f"{pct(best['score'])}% {interval(best['ci95'])}"
    room = f"{_gain(best['advantage'])} {_gains(best['advantage_ci95'])}"
    n = r["players"]
    if lang == "ja":
        head = (f"{n}人では技量が効く: 最も強い{best['agent']}" if pays else
                f"{n}人では技量がはっきりしない: ランダム相手に95%の確かさで勝るエージェントはなく、最も良い{best['agent']}")
        base = (f"全員ランダムのチームなら{pct(r['fair_share'])}%" if r.get("cooperative")
                else f"互角なら{pct(r['fair_share'])}%")
        text = f"{head}はランダムの席を相手に得点{score}（{base}）、技量の余地{room}。"
        if best["dead_end_games"]:
            text += f"その{r['games_per_level']}ゲーム中{best['dead_end_games']}ゲームが行き止まりで終わった（全員0）。"
        return text + _team_said(r["curve"], lang)
    head = (f"Skill pays at {n} players: the best agent, {best['agent']}, scores {score}" if pays else
            f"Skill does not show at {n} players: no agent beats random seats with 95% confidence; "
            f"the best, {best['agent']}, scores {score}")
    base = (f"with random seats, where a team of random seats wins {pct(r['fair_share'])}%" if r.get("cooperative")
            else f"against random seats where equal agents score {pct(r['fair_share'])}%")
    text = f"{head} {base}, skill room {room}."
    if best["dead_end_games"]:
        text += f" {best['dead_end_games']} of its {r['games_per_level']} games ended in a dead end (0 to everyone)."
    return text + _team_said(r["curve"], lang)


def _team_said(curve: list, lang: str) -> str:
    """A cooperative game's team score: what the level that improves it most adds, game by game
    against the same games played by random seats only, with its interval."""
    levels = [c for c in curve if "team_score" in c]
    if not levels:
        return ""
    top = max(levels, key=lambda c: c["team_score"]["gain"])
    t = top["team_score"]
    shows = t["gain_ci95"][0] > 0
    lower = t["better"] == "lower"
    gain = f"{t['gain']:+.2f} [{t['gain_ci95'][0]:+.2f}, {t['gain_ci95'][1]:+.2f}]"
    if lang == "ja":
        way = "低いほど良い" if lower else "高いほど良い"
        return (f"チームの得点（{way}）は{top['agent']}が入ると平均{t['with']:.2f}、全員ランダムなら{t['alone']:.2f}: "
                f"1ゲームあたり{gain}の改善" + ("。" if shows else "で、95%の確かさでは改善とは言えない。"))
    way = "lower is better" if lower else "higher is better"
    return (f" The team's score ({way}) averages {t['with']:.2f} with {top['agent']} and {t['alone']:.2f} with random "
            f"seats only: {top['agent']} improves it by {gain} a game"
            + ("." if shows else ", not an improvement with 95% confidence."))
