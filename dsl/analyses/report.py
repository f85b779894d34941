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

from ..engine import Game, compiled
from . import charts
from . import replay as replay_mod
from .batches import Stopped, stop_asked, until_stopped
from .simulate import Restriction, declared_score, score_label, score_title, simulate
from .verdicts import interval, match_sentence, pct, verdict

TEMPLATES = os.path.join(os.path.dirname(os.path.dirname(__file__)), "printing", "templates")
CARD_ROWS = 30              # rows of a card table shown open; the rest fold into a <details>
REPLAY_LINES = 80           # a narrated dead end longer than this shows its last lines


def build(rules, player_counts: list, games: int, seed: int, agent_sets: Optional[list] = None,
          score: Optional[str] = None, scorer: Optional[Callable] = None,
          restriction: Optional[Restriction] = None, progress=None, skill: Optional[tuple] = None,
          pool=None, lang: str = "en", strategy_games: int = 0) -> dict:
    """Simulate every player count with every agent set (None: random play).

    agent_sets: list of (spec label, factory n_players -> per-seat agents or None).
    scorer: game -> score function (state, player) -> number, when `score` names one; without
    it the rule file's own `score` declaration is used, if it has one.
    skill: (agent spec, games) to measure skill: at each player count the agent in one seat
    (rotated) against random players, as `playtest match` does.
    pool: a batches.Pool to play the simulations in (the report is the same without it).
    lang: the language of the narrated dead ends and the cards' printed names.
    strategy_games: games a pairing to play the declared strategies side by side at each player
    count (each against random seats and against each other, seats rotated); 0: not played."""
    from ..language import syntax as S
    agent_sets = agent_sets or [("random", lambda n: None)]
    marks = {d.name: d.mark for d in rules.of(S.Symbol) if d.mark}
    declared = title = None
    for n in player_counts:
        declared = declared or score_label(compiled(rules, n))
        title = title or score_title(compiled(rules, n))

    def simulated(run):
        n, _, make = run
        game = compiled(rules, n)
        return simulate(game, games, seed, progress, agents=make(n),
                        score=(score, scorer(game)) if score else declared_score(game), restriction=restriction,
                        pool=pool)
    runs = [(n, label, make) for n in player_counts for label, make in agent_sets]
    summaries, stopped = until_stopped(runs, simulated, lambda summary: summary.partial)
    if not summaries:
        raise Stopped()
    configs = [_config(compiled(rules, n), label, summary, marks, lang)
               for (n, label, _), summary in zip(runs, summaries)]
    skills = strategies = None
    if skill and not stopped:
        skills, stopped = until_stopped(player_counts, lambda n: _skill(compiled(rules, n), skill, seed, progress, pool),
                                        lambda m: "partial" in m)
    if strategy_games and not stopped:
        try:
            strategies = _strategies(rules, player_counts, strategy_games, seed, progress, pool)
        except Stopped:
            pass
        # the strategies table keeps no mark of a pairing cut short: a stopped one is left out whole
        stopped = stop_asked()
        strategies = None if stopped else strategies
    g = rules.game
    return {"skill": skills, "strategies": strategies, "game": g.name, "file": rules.path,
            "variants": [v.path for v in rules.variants], "seed": seed, "games": games, "score": score or declared,
            "score_title": None if score else title,
            "restriction": {"banned": list(restriction.banned), "seats": [s + 1 for s in restriction.seats]}
            if restriction else None, "configs": configs, **({"partial": True} if stopped else {})}


def _config(game: Game, label: str, summary, marks: dict, lang: str) -> dict:
    """One player count and agent set of the report: its figures, and its dead ends narrated."""
    from ..printing.narrate import Narrator
    result = summary.to_json()
    narrator = Narrator(game, lang)
    for row in result["metrics"]["cards"]:
        row["name"] = _printed(game, narrator, marks, row["card"])
    dead = []
    for key, played in sorted(summary.examples.items()):
        rule, kind = key.split("|", 1)
        state = replay_mod.run(game, played.actions, log=True)
        lines = list(narrator.tell(state.log))
        dead.append({"rule": rule, "kind": kind, "game": played.index, "actions": played.actions,
                     "count": summary.dead_ends[key]["count"], "where": summary.dead_ends[key]["where"],
                     "narration": lines[-REPLAY_LINES:], "cut": max(0, len(lines) - REPLAY_LINES)})
    return {"players": game.n, "agents": label, "agent_specs": result["agents"], "summary": result,
            "lengths": summary.tally.decisions.pairs(),
            "rounds": summary.tally.rounds.pairs(), "dead_end_games": dead,
            "first_player": None if _starts_together(game) else summary.tally.first_player()}


def _printed(game: Game, narrator, marks: dict, label: str) -> str:
    """A card by the marks it prints and the name a player calls it: '♥ heart 5'."""
    if label not in game.piece_label:
        return label
    i = game.piece_label.index(label)
    shown = "".join(marks[str(v)] for v in game.piece_attrs[i].values() if str(v) in marks)
    name = f"{shown} {narrator.card(i)}" if shown else narrator.card(i)
    # copies that print alike (a genesis card '1' for each player) are told apart by their number
    alike = [j for j, kind in enumerate(game.kind_of) if kind == game.kind_of[i] and narrator.card(j) == narrator.card(i)]
    return f"{name} #{alike.index(i) + 1}" if len(alike) > 1 else name


def _starts_together(game: Game) -> bool:
    """Whether the first decision is one every seat takes at once (a vote everyone casts together): then no
    player acts first, and a first player's figure does not apply."""
    from ..agents.infoset import simultaneous_pause
    from ..engine import CHANCE
    s = game.new_initial_state()
    while not s.is_terminal() and game.is_chance(s):
        game.apply(s, 0, CHANCE, validate=False)
    return simultaneous_pause(game, s) is not None


def _skill(game: Game, skill: tuple, seed: int, progress, pool) -> dict:
    """How much a stronger agent gains over random seats at one player count."""
    from ..agents import RandomAgent, parse_agent
    from ..agents.match import match
    spec, games = skill
    return match(game, parse_agent(spec), RandomAgent(), games, seed, progress, pool)


def _strategies(rules, player_counts: list, games: int, seed: int, progress, pool) -> Optional[list]:
    """The declared strategies side by side at each player count, as `playtest strategies`."""
    if not games:
        return None
    from ..agents.strategy_table import side_by_side
    tables = [side_by_side(compiled(rules, n), games, seed, progress, pool) for n in player_counts]
    return [t for t in tables if t["strategies"]] or None


def strategy_pairings(rules, player_counts: list) -> int:
    """How many matches the strategies section plays, for the progress bar."""
    from ..agents.strategy_table import pairings
    return sum(pairings(compiled(rules, n)) for n in player_counts)


def _label(c, lang: str = "en") -> str:
    players = f"{c['players']}人" if lang == "ja" else f"{c['players']} players"
    return players + ("" if c["agents"] == "random" else f", {c['agents']}")


def chart_set(data: dict, lang: str = "en") -> dict:
    """Every chart of a report, as inline SVG, its words in `lang`; keyed by the English label."""
    configs = data["configs"]
    shown = {_label(c): _label(c, lang) for c in configs}
    out = {"lengths": charts.length_histogram({shown[_label(c)]: c["lengths"] for c in configs}, "decisions", lang)}
    if any(c["rounds"] and c["rounds"][-1][0] > 0 for c in configs):
        out["rounds"] = charts.length_histogram({shown[_label(c)]: c["rounds"] for c in configs}, "rounds", lang)
    wins, fair = {}, {}
    for c in configs:
        o = c["summary"]["metrics"]["outcomes"]
        wins[shown[_label(c)]] = [(",".join(map(str, w["seats"])), w["value"], *w["ci95"]) for w in o["wins"]]
        fair[shown[_label(c)]] = o["fair_share"]
    out["wins"] = charts.win_rates(wins, fair, lang)
    out["scores"] = {}
    out["options"] = {}
    for c in configs:
        m = c["summary"]["metrics"]
        if "score" in m and m["score"]["games"]:
            s = m["score"]
            lines = {(f"席{i + 1}" if lang == "ja" else f"seat {i + 1}"): v for i, v in enumerate(s["score_over_time"])}
            lines["最終的な勝者" if lang == "ja" else "eventual winner"] = s["winner_over_time"]
            out["scores"][_label(c)] = charts.score_over_time(s["progress"], lines, lang=lang)
        total = sum(o["taken"] for o in m["options"]) or 1
        rows = sorted(((o["option"], o["taken"] / total) for o in m["options"]), key=lambda r: (-r[1], r[0]))
        if len(rows) > 1:
            out["options"][_label(c)] = charts.option_use(rows, lang=lang)
    return out


def use_table(rows: list) -> tuple:
    """An option or card table's rows in the order its heading names, and whether the "if not
    used" column means anything: where every seat offered a key took it (every card in a hand is
    played in the end) there is no seat to compare with, and the rows go by the win rate if used."""
    compared = any(r["win_rate_if_not_used"]["n"] for r in rows)
    key = (lambda r: (-r["gap"], -r["win_rate_if_used"]["value"])) if compared else \
        (lambda r: (-r["win_rate_if_used"]["value"], -r["taken"]))
    return sorted(rows, key=key), compared


def render_html(data: dict, title: str = "", lang: str = "en", table_section: str = "") -> str:
    """The page; `table_section` the games played at the table (dsl/table/stats_page.section)."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html", "j2"]),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters["pct"] = lambda v: f"{v:.1%}"
    return env.get_template("report.html.j2").render(d=data, title=title or data["game"], charts=chart_set(data, lang),
                                                      label=lambda c: _label(c, lang), key=_label, card_rows=CARD_ROWS, lang=lang, use_table=use_table,
                                                      verdict=lambda k: verdict(k, lang), table_section=table_section,
                                                      t=lambda en, ja: ja if lang == "ja" else en)


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


def _counts(ns: list, lang: str) -> str:
    """'3-6 players' for a run of counts, '2, 4 players' otherwise."""
    run = len(ns) > 2 and ns == list(range(ns[0], ns[-1] + 1))
    text = f"{ns[0]}{'〜' if lang == 'ja' else '-'}{ns[-1]}" if run else ", ".join(map(str, ns))
    return f"{text}人" if lang == "ja" else f"{text} player" + ("" if ns == [1] else "s")


def _stopped_sentence(data: dict, say: Callable) -> str:
    """Where Ctrl-C stopped the report: the page shows the games played until then."""
    cut = next((part for part in [c["summary"] for c in data["configs"]] + (data["skill"] or []) if "partial" in part),
               None)
    if cut is None:
        return say("Partial: stopped by Ctrl-C; the sections after the last one shown are left out (not played or cut short)",
                   "途中まで: Ctrl-Cで停止。最後に表示された部分より後は載せていない（遊んでいないか途中で止まった）")
    return say(f"Partial: stopped by Ctrl-C at {cut['players']} players after {cut['games']} of {cut['games_asked']} games; "
               f"nothing after that was played",
               f"途中まで: {cut['players']}人の{cut['games_asked']}ゲーム中{cut['games']}ゲームのところでCtrl-Cで停止。"
               f"それより後は遊んでいない")


def summary(data: dict, lang: str = "en") -> list:
    """What the report found, in sentences with their 95% intervals, from the figures the page
    shows below it: who wins, how long games run and how they end, and what the first player gains.
    A figure that does not apply (rounds in a game without rounds, draws that never happen) is left out."""
    say = (lambda en, ja: ja) if lang == "ja" else (lambda en, ja: en)
    out = [_stopped_sentence(data, say)] if "partial" in data else []
    for agents in dict.fromkeys(c["agents"] for c in data["configs"]):
        configs = [c for c in data["configs"] if c["agents"] == agents]
        ns = [c["players"] for c in configs]
        by = configs[0]["summary"]["metrics"]["outcomes"]["by"]
        side_word = say("Seat" if by == "seat" else "Team", "席" if by == "seat" else "チーム")
        who = "" if agents == "random" else say(f" with {agents}", f"（{agents}）")
        flagged = [(c, w) for c in configs for w in c["summary"]["metrics"]["outcomes"]["wins"] if w["flag"]]
        for c, w in flagged:
            o = c["summary"]["metrics"]["outcomes"]
            s = w["share_of_decided"]
            out.append(say(
                f"{side_word} {','.join(map(str, w['seats']))} wins {pct(s['value'])}% {interval(s['ci95'])} of the games "
                f"won at {_counts([c['players']], lang)}{who}: {w['flag']} the fair share {pct(o['fair_share'])}%, "
                f"after Holm-Bonferroni across the {len(o['wins'])} {by}s",
                f"{_counts([c['players']], lang)}{who}で{side_word}{','.join(map(str, w['seats']))}が勝負のついたゲームの"
                f"{pct(s['value'])}% {interval(s['ci95'])}に勝つ: 公平な取り分{pct(o['fair_share'])}%より"
                f"{'上' if w['flag'] == 'above' else '下'}（{len(o['wins'])}{'席' if by == 'seat' else 'チーム'}でHolm-Bonferroni補正後）"))
        if not flagged:
            # the side furthest from its fair share, so the sentence quotes the worst case
            c, w = max(((c, w) for c in configs for w in c["summary"]["metrics"]["outcomes"]["wins"]),
                       key=lambda cw: abs(cw[1]["share_of_decided"]["value"] - cw[0]["summary"]["metrics"]["outcomes"]["fair_share"]))
            s = w["share_of_decided"]
            if s["n"]:
                out.append(say(
                    f"{side_word} {','.join(map(str, w['seats']))} wins {pct(s['value'])}% {interval(s['ci95'])} of the games "
                    f"won at {_counts([c['players']], lang)}{who}, the furthest from a fair share: no {by} is favoured "
                    f"at {_counts(ns, lang)}",
                    f"{_counts([c['players']], lang)}{who}で{side_word}{','.join(map(str, w['seats']))}の勝率 {pct(s['value'])}% "
                    f"{interval(s['ci95'])}（勝負のついたゲームのうち、公平な取り分から最も遠い）: "
                    f"{_counts(ns, lang)}でどの{'席' if by == 'seat' else 'チーム'}も有利ではない"))
        out += _length_sentences(configs, who, lang, say)
        if by == "seat":
            out += _first_player_sentences(configs, who, lang, say)
    for k in data.get("skill") or ():
        sentence = match_sentence(k, lang).rstrip(".。")
        out.append(f"{k['players']}人では{sentence}" if lang == "ja" else f"{_counts([k['players']], lang)}: {sentence}")
    return out


def _length_sentences(configs, who, lang, say) -> list:
    from .stats import Histogram, mean_interval
    parts = []
    if len(configs) > 4:        # many player counts: the shortest and the longest, the table has the rest
        by_length = sorted(configs, key=lambda c: (c["summary"]["metrics"]["decisions"]["mean"], c["players"]))
        quoted = {id(by_length[0]), id(by_length[-1])}
    else:
        quoted = {id(c) for c in configs}
    for c in (c for c in configs if id(c) in quoted):
        m = c["summary"]["metrics"]
        lo, hi = mean_interval(Histogram.of_pairs(c["lengths"]))
        rounds = ""
        if m["rounds"]["max"]:
            rlo, rhi = mean_interval(Histogram.of_pairs(c["rounds"]))
            rounds = say(f", {m['rounds']['mean']:.1f} rounds [{rlo:.1f}, {rhi:.1f}]",
                         f"、{m['rounds']['mean']:.1f}ラウンド [{rlo:.1f}, {rhi:.1f}]")
        parts.append(say(f"{m['decisions']['mean']:.0f} decision{'' if round(m['decisions']['mean']) == 1 else 's'} {interval((lo, hi), False)}{rounds} at "
                         f"{_counts([c['players']], lang)}",
                         f"{_counts([c['players']], lang)}で{m['decisions']['mean']:.0f}判断 {interval((lo, hi), False)}{rounds}"))
    games = sum(c["summary"]["games"] for c in configs)
    dead = sum(c["summary"]["metrics"]["outcomes"]["dead_end"]["count"] for c in configs)
    late = sum(c["summary"]["metrics"]["outcomes"]["step_limit"]["count"] for c in configs)
    nobody = sum(c["summary"]["metrics"]["outcomes"]["nobody"]["count"] for c in configs)
    shared = sum(c["summary"]["metrics"]["outcomes"]["shared"]["count"] for c in configs)
    ends = []
    teams = [(c, c["summary"]["team"]) for c in configs if "team" in c["summary"]]
    if teams:       # cooperative: the team's result takes the place of winners and shared wins
        nobody = shared = 0
        ends.append(_team_sentence(teams, lang, say))
    if late:
        ends.append(say(f"{pct(late / games)}% pass the step limit", f"{pct(late / games)}%が手数の上限を超える"))
    if nobody:
        ends.append(say(f"{pct(nobody / games)}% end with nobody winning", f"{pct(nobody / games)}%は誰も勝たずに終わる"))
    if shared:
        ends.append(say(f"{pct(shared / games)}% end in a shared win", f"{pct(shared / games)}%は勝利を分け合う"))
    if dead:        # last, as its pointer to the section below ends the sentence
        ends.append(say(f"{pct(dead / games)}% end in a dead end: see Dead ends below",
                        f"{pct(dead / games)}%が行き止まりで終わる（下の「行き止まり」を参照）"))
    if not ends:
        ends.append(say("every game ends with a winner", "どのゲームも勝者が決まる"))
    if len(parts) < len(configs):
        parts = [say(f"from {parts[0]} to {parts[1]} (every count below)", f"最短は{parts[0]}、最長は{parts[1]}（全人数は下の表）")]
    return [say(f"Games{who} run " + "; ".join(parts) + "; " + ", ".join(ends),
                f"ゲーム{who}の長さ: " + "、".join(parts) + "。" + "、".join(ends))]


def _team_sentence(teams, lang, say) -> str:
    """A cooperative game's result at each count: the team's win rate and mean score, with intervals."""
    parts = []
    for c, t in teams:
        at = _counts([c["players"]], lang)
        sc = t.get("score")
        ci = "" if not sc else f"[{sc['mean_ci95'][0]:.1f}, {sc['mean_ci95'][1]:.1f}]"
        better = "" if not sc else say(f", scoring {sc['mean']:.1f} {ci} ({sc['better']} is better)",
                                       f"、得点{sc['mean']:.1f} {ci}"
                                       f"（{'低' if sc['better'] == 'lower' else '高'}いほど良い）")
        parts.append(say(f"{pct(t['win_rate'])}% {interval(t['win_rate_ci95'])}{better} at {at}",
                         f"{at}で{pct(t['win_rate'])}% {interval(t['win_rate_ci95'])}{better}"))
    return say("the team wins " + ", ".join(parts), "チームの勝率: " + "、".join(parts))


def _first_player_sentences(configs, who, lang, say) -> list:
    rows = [(c, c["first_player"]) for c in configs if c.get("first_player") and c["first_player"]["n"]]
    if not rows:
        return []
    starters = sorted({i + 1 for _, f in rows for i, k in enumerate(f["seats"]) if k})
    whom = say(f"seat {starters[0]} in every game" if len(starters) == 1 else "the seat varies from game to game",
               f"どのゲームでも席{starters[0]}" if len(starters) == 1 else "ゲームごとに違う席")
    parts = [say(f"{pct(f['value'])}% {interval(f['ci95'])} at {_counts([c['players']], lang)} (fair {pct(f['fair_share'])}%)",
                 f"{_counts([c['players']], lang)}で{pct(f['value'])}% {interval(f['ci95'])}（公平な取り分{pct(f['fair_share'])}%）")
             for c, f in rows]
    return [say(f"The player who acts first{who} ({whom}) wins " + ", ".join(parts) + " of the games won",
                f"最初に手番を持つプレイヤー{who}（{whom}）の勝率（勝負のついたゲームのうち）: " + "、".join(parts))]
