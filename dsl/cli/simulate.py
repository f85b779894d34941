"""simulate: play many games and summarise them."""
from __future__ import annotations

import contextlib

import json
import sys

import click

from .common import (main, players_option, _fail, _variant_option, _load_or_exit, _game_or_exit, _scale_options, pool_or_exit,
                     save_replay_or_exit, writable_or_exit)
from .options import (agents_option, alias, exit_if_crossed, fail_on_option, games_option, json_option, lang_option, pad, save_replays_option, say,
                      seed_option)
from .common import RULE_FILE, within_budget_or_exit
from .progress import Progress, exit_stopped, progress_option, stoppable_run


def _play_options(f):
    """--score, --ban and --ban-seat, shared by simulate, report and sweep."""
    f = click.option("--ban-seat", "ban_seats", multiple=True, type=int,
                     help="The seat (from 1) the bans apply to (repeatable; default every seat).")(f)
    f = click.option("--ban", "bans", multiple=True, metavar="OPTION",
                     help="Restricted play: never take this option ('rule: option', an option name or a card) "
                          "while another move is legal (repeatable).")(f)
    f = agents_option()(f)
    return click.option("--score", default=None, metavar="COUNTER[+COUNTER]",
                        help="A per-player counter (or a sum) that measures each player's standing; overrides the rule file's own 'score' line.")(f)


@main.command(help="""Play many games (random legal moves, or the agents --agents names) and report balance:
wins per seat (or team) with 95% intervals, a seat flagged when its interval misses the
fair share, draws and games nobody won, dead ends counted by the rule that leaves them
open, games past the step limit, and decisions and rounds per game.

\b
Example:
  playtest simulate games/GAME.rules --players 4 -n 2000 --seed 1 --json
  playtest simulate games/GAME.rules --players 2 -n 200 --agents ismcts:200,random
  playtest simulate games/GAME.rules --players 3 --score COUNTER   (lead changes, comebacks)
  playtest simulate games/GAME.rules --players 3 --ban OPTION --ban-seat 1
  playtest simulate games/GAME.rules --players 4 -n 20000 --workers 4   (same output, 4 processes)
  playtest simulate games/GAME.rules --players 4 --fail-on dead-ends,timeouts   (for CI)

Ctrl-C stops at the next whole game: the figures of the games played so far are printed,
marked partial ("partial": true in the JSON), and the exit status is 130.

Exit status: 0, whatever the games show; 1 an error in the rules; 2 a bad command line;
3 a finding --fail-on names was found (docs/ci-for-designers.md); 130 stopped by Ctrl-C.""")
@click.argument("file", type=RULE_FILE)
@_variant_option
@players_option
@games_option(1000, "Games to play.")
@seed_option()
@json_option("Print one JSON object instead of a table.")
@lang_option()
@save_replays_option("Folder to save the shortest game of each distinct dead end, as replay files.")
@alias("--save-dead-ends", to="save_replays", type=click.Path(file_okay=False))
@fail_on_option("dead-ends", "timeouts", "unbalanced")
@progress_option
@_play_options
@_scale_options
def simulate(file, variants, players, games, seed, as_json, lang, save_replays, fail_on, show_progress, score,
             agent_spec, bans, ban_seats, workers, scheduler):
    from ..analyses import replay as replay_mod
    rules, _ = _load_or_exit(file, variants)
    game = _game_or_exit(rules, players)
    players = game.n
    if save_replays:
        writable_or_exit(save_replays, "--save-replays", folder=True)
    agents = agents_or_exit(agent_spec, players)
    restriction = restriction_or_exit(bans, ban_seats, players)
    with pool_or_exit(workers, scheduler) as pool, stoppable_run():
        # the table printed shows no option or card use: reading them would nearly double the cost
        summary = simulate_or_exit(game, games, seed, f"simulating {rules.game.name}", score=score,
                                   agents=agents, restriction=restriction, pool=pool, show_progress=show_progress,
                                   options=as_json)
    saved = []
    if save_replays:
        for key, played in sorted(summary.examples.items()):
            rule, kind = key.split("|", 1)
            rep = replay_mod.Replay(file, list(variants), players, seed, played.index, played.actions,
                                    note=f"dead end: {kind} in {rule}")
            saved.append(save_replay_or_exit(rep, game, save_replays, f"p{players}", f"seed{seed}",
                                             f"game{played.index}", rule))
    result = summary.to_json()
    _correct_flags(result["metrics"]["outcomes"])
    if saved:
        result["saved"] = saved
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True))
    else:
        # the variants by file, so the heading says which rules were played
        _print_summary(rules.game.name + "".join(f" + {v}" for v in variants), result, lang)
    if summary.partial:
        exit_stopped(f"after {summary.games} of {games} games: the figures are of those games")
    exit_if_crossed(fail_on, _crossed(result))


def _correct_flags(out) -> None:
    """Keep a side's flag only when it holds with the others (Holm-Bonferroni over an exact binomial
    test of each side's share of the games won): with four seats, the four 95% intervals of a fair
    game miss the fair share at least once in up to 19% of runs, by chance alone."""
    if not any(w["flag"] for w in out["wins"]):
        return          # nothing to correct, and scipy (slow to import) stays unloaded
    from ..analyses.stats import binomial, holm
    decided = sum(w["count"] for w in out["wins"])
    held = holm([binomial(w["count"], decided, out["fair_share"]) for w in out["wins"]])
    for w, significant in zip(out["wins"], held):
        w["flag"] = w["flag"] if significant else ""


def _crossed(r) -> dict:
    """What --fail-on may name, as the sentence that says it was found (None when it was not)."""
    games = r["games"]
    dead = sum(d["count"] for d in r["dead_ends"] if d["kind"] != "step limit")
    late = r["metrics"]["outcomes"]["step_limit"]["count"]
    flagged = [w for w in r["metrics"]["outcomes"]["wins"] if w["flag"]]
    by = r["metrics"]["outcomes"]["by"]
    return {"dead-ends": dead and f"{dead} of {games} games end in a dead end",
            "timeouts": late and f"{late} of {games} games pass the step limit",
            "unbalanced": flagged and "; ".join(
                f"{by} {','.join(map(str, w['seats']))} wins {w['share_of_decided']['value']:.1%} of the games won, "
                f"{w['flag']} the fair share {r['metrics']['outcomes']['fair_share']:.1%}" for w in flagged)}


def simulate_or_exit(game, games, seed, label, agents=None, score=None, restriction=None, pool=None,
                     show_progress=False, options=True):
    """Run a simulation with its progress on a terminal (or with `show_progress`); a bad --score
    exits cleanly."""
    from ..analyses.simulate import scoring as score_of, simulate as run_simulation
    try:
        scoring = score_of(game, score)
    except ValueError as e:
        _fail(f"--score: {e}", 2)
    kw = dict(agents=agents, score=scoring, restriction=restriction, pool=pool, options=options)
    with agents_failing_exit(game, agents if not callable(agents) else None):
        if show_progress or (sys.stderr.isatty() and games >= 200):
            with Progress(games, label) as progress:
                return run_simulation(game, games, seed, progress=progress, **kw)
        return run_simulation(game, games, seed, **kw)


@contextlib.contextmanager
def agents_failing_exit(game=None, agents=()):
    """Agents that fail in play (a package's agent raising, a strategy not declared or not
    checking) stop the command with what went wrong, checked before the first game where it can be."""
    from ..agents import AGENT_ERRORS
    from ..agents.strategy import ready
    try:
        ready(agents, game)
        yield
    except AGENT_ERRORS as e:
        _fail(str(e))


def agents_or_exit(spec, players):
    """The agents an --agents spec names, one per seat; None (random play) without one."""
    if spec is None:
        return None
    from ..agents import parse_agents
    try:
        return within_budget_or_exit(parse_agents(spec, players), "--agents")
    except ValueError as e:
        _fail(f"--agents: {e}", 2)


def restriction_or_exit(bans, seats, players):
    from ..analyses.simulate import Restriction
    if not bans:
        if seats:
            _fail("--ban-seat needs --ban OPTION", 2)
        return None
    for seat in seats:
        if not 1 <= seat <= players:
            _fail(f"--ban-seat {seat}: seats are 1 to {players}", 2)
    return Restriction(tuple(bans), tuple(s - 1 for s in seats))


def _pct(r) -> str:
    return f"{r['value']:6.1%}  {r['ci95'][0]:6.1%} - {r['ci95'][1]:.1%}"


def _print_summary(name, r, lang):
    m = r["metrics"]
    out = m["outcomes"]
    by = say(lang, out["by"], {"seat": "席", "team": "チーム"}[out["by"]])
    agents = "/".join(sorted(set(r["agents"])))
    click.echo(say(lang, f"{name}: {r['games']} games, {r['players']} players, seed {r['seed']}, {agents} play",
                   f"{name}: {r['games']}ゲーム、{r['players']}人、シード{r['seed']}、{agents}がプレイ"))
    if r.get("partial"):
        click.echo(say(lang, f"  partial: stopped after {r['games']} of {r['games_asked']} games",
                       f"  途中まで: {r['games_asked']}ゲーム中{r['games']}ゲームで停止"))
    click.echo("")
    if "team" in r:
        _print_team(r["team"], lang)
    else:
        _print_seats(r, out, by, lang)
    click.echo("")
    d, rd = m["decisions"], m["rounds"]
    click.echo(say(lang, f"  decisions per game: mean {d['mean']}, median {d['median']}, max {d['max']}",
                   f"  ゲームごとの判断数: 平均{d['mean']}、中央値{d['median']}、最大{d['max']}"))
    if rd["max"]:       # a game without rounds has none to count
        click.echo(say(lang, f"  rounds per game:    mean {rd['mean']}, median {rd['median']}, max {rd['max']}",
                       f"  ゲームごとのラウンド数: 平均{rd['mean']}、中央値{rd['median']}、最大{rd['max']}"))
    if "score" in m:
        sc = m["score"]
        lead, comebacks, margin = sc["lead_changes"]["value"], sc["comebacks"]["value"], sc["final_margin"]["value"]
        click.echo(say(lang, f"  score ({r['score_by']}): lead changes per game {lead}, comebacks {comebacks:.1%}, "
                             f"final margin {margin}",
                       f"  得点（{r['score_by']}）: ゲームごとの首位交代{lead}回、逆転{comebacks:.1%}、最終の差{margin}"))
    click.echo("")
    dead = [d for d in r["dead_ends"] if d["kind"] != "step limit"]
    if dead:
        total = sum(d["count"] for d in dead)
        click.echo(click.style(say(lang, f"  dead ends: {total} of {r['games']} games ({total / r['games']:.1%})",
                                   f"  行き止まり: {r['games']}ゲーム中{total}（{total / r['games']:.1%}）"), fg="yellow"))
        for d in dead:
            click.echo(f"    {d['count']:>6}  {d['rule']}: {d['kind']}  ({d['where']})")
            click.echo(f"            {d['message']}")
    else:
        click.echo(click.style(say(lang, "  no dead ends", "  行き止まりなし"), fg="green"))
    for path in r.get("saved", []):
        click.echo(say(lang, f"  saved {path}", f"  保存: {path}"))


def _print_seats(r, out, by, lang):
    paid = r.get("mean_payoff_by_seat")
    click.echo(f"  {by:>{5 - (lang == 'ja')}}    " + say(lang, "wins  win rate  95% interval", "勝ち    勝率    95%区間")
               + (say(lang, "  mean pay-off", "  平均得点") if paid else ""))
    for w in out["wins"]:
        side = ",".join(str(s) for s in w["seats"])
        bar = "#" * round(w["value"] * 40)
        share, fair = w["share_of_decided"]["value"], out["fair_share"]
        flag = say(lang, f"  {w['flag']} the fair share: {share:.1%} of the games won (fair {fair:.1%})",
                   f"  公平な取り分より{'上' if w['flag'] == 'above' else '下'}: 勝者の出たゲームの{share:.1%}"
                   f"（公平なら{fair:.1%}）") if w["flag"] else ""
        mean = f"  {paid[side]:>+12.3f}" if paid and side in paid else ""
        click.echo(f"  {side:>5}  {w['count']:>6}  {_pct(w)}{mean}  {bar}{flag}")
    click.echo("")
    for label, key in ((say(lang, "draws: the game ended and nobody won", "引き分け: 勝者なしで終了"), "nobody"),
                       (say(lang, f"draws: a win shared across {out['by']}s", f"引き分け: 複数の{by}で勝ちを分け合った"),
                        "shared"),
                       (say(lang, "games past the step limit", "手数の上限を超えたゲーム"), "step_limit")):
        click.echo(f"  {pad(label, 38)} {out[key]['count']:>6}  {_pct(out[key])}")


def _print_team(t, lang):
    """A cooperative game: the team's win rate and score, each with its 95% interval."""
    lo, hi = t["win_rate_ci95"]
    click.echo(say(lang, f"  the team won {t['won']} of {t['games']} games: {t['win_rate']:.1%}  (95% interval {lo:.1%} - {hi:.1%})",
                   f"  チームの勝ち: {t['games']}ゲーム中{t['won']}、{t['win_rate']:.1%}(95%区間 {lo:.1%} - {hi:.1%})"))
    sc = t.get("score")
    if sc:
        a, b = sc["mean_ci95"]
        better = say(lang, f"{sc['better']} is better", "低いほど良い" if sc["better"] == "lower" else "高いほど良い")
        click.echo(say(lang, f"  team score ({better}): mean {sc['mean']} (95% interval {a:.2f} - {b:.2f}), "
                             f"median {sc['median']}, {sc['min']} to {sc['max']}",
                       f"  チームの得点({better}): 平均{sc['mean']}(95%区間 {a:.2f} - {b:.2f})、"
                       f"中央値{sc['median']}、{sc['min']}〜{sc['max']}"))
        most = max(k for _, k in sc["distribution"])
        for v, k in sc["distribution"]:
            click.echo(f"    {v!s:>6}  {k:>6}  {'#' * max(1, round(k / most * 30))}")
