"""solve: the exact value of a small two-player zero-sum game, and how far each agent is from it."""
from __future__ import annotations

import json
import sys
import time

import click

from ..analyses.bounds import MAX_ITERATIONS, MAX_STATES
from .options import lang_option, seed_option

from .common import RULE_FILE
from .common import main, _fail, _variant_option, _load_or_exit, _game_or_exit


class _Progress:
    """A line on stderr every few seconds, once a run has taken a few: short runs stay quiet."""

    def __init__(self, every: float = 5.0):
        self.began = self.last = time.monotonic()
        self.every = every

    def __call__(self, phase, done, total):
        now = time.monotonic()
        if now - self.last >= self.every:
            self.last = now
            of = f" of {total:,}" if total else ""
            what = {"tree": "positions", "states": "states", "solve": "iterations"}.get(phase, f"{phase}: asked at")
            click.echo(f"solve: {what} {done:,}{of} ({now - self.began:.0f} s)", err=True)


@main.command(help="""Who wins with perfect play: solve a small two-player zero-sum game exactly.

A game of perfect information is solved on its states by minimax (chance averaged); a game
with hidden cards or simultaneous choices by CFR+ over what each player can see, which
states its own error. The game is read from its pay-offs (they must sum to zero) or from its
winners (+1 a win, -1 a loss, 0 a draw). Prints the game's value for the first player, their
advantage, the optimal opening, and what a best reply wins against each agent: exactly for
random, estimated for searching agents from --samples tries at every place play can reach.

\b
Examples:
  playtest solve games/GAME.rules
  playtest solve games/GAME.rules --agents random,flat:50,ismcts:100
  playtest solve games/GAME.rules --lang ja --json""")
@click.argument("file", type=RULE_FILE)
@_variant_option
@click.option("--players", "-p", type=int, default=None,
              help="Number of players: 2, the default where the game allows it (solving is for two).")
@click.option("--agents", "agent_specs", default="random", show_default=True,
              help="Agents to measure against the solution, comma-separated: random | flat:N | ismcts:N | "
                   "plugin:NAME (an installed agent package).")
@click.option("--max-states", type=click.IntRange(1, MAX_STATES), default=2_000_000, show_default=True,
              help="Give up, saying so, past this many states (positions of the game tree for hidden information).")
@click.option("--iterations", type=click.IntRange(1, MAX_ITERATIONS), default=2000, show_default=True,
              help="At most this many CFR+ iterations (it stops sooner once the value is pinned down).")
@click.option("--samples", type=click.IntRange(1, 10_000), default=20, show_default=True,
              help="Tries of a searching agent at each place it is asked, to estimate its moves.")
@seed_option("Seed of the agents' tries.")
@lang_option("Language of the text: en or ja.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def solve(file, variants, players, agent_specs, max_states, iterations, samples, seed, lang, as_json):
    from ..agents import parse_agent
    from ..analyses.solve import solve as run_solve
    try:
        agents = [parse_agent(spec) for spec in agent_specs.split(",") if spec.strip()]
    except ValueError as e:
        _fail(f"--agents: {e}", 2)
    rules, _ = _load_or_exit(file, variants)
    g = rules.game
    if players is None:         # two is the count solving is for; a game without it is refused by name below
        players = 2 if g.min_players <= 2 <= g.max_players else g.min_players
    game = _game_or_exit(rules, players)
    from .simulate import agents_failing_exit
    with agents_failing_exit(game, agents):
        report = run_solve(game, agents=agents, max_states=max_states, iterations=iterations, samples=samples,
                           seed=seed, lang=lang, progress=_Progress())
    if as_json:
        click.echo(json.dumps(report.to_json(), ensure_ascii=False, indent=1, sort_keys=True))
    else:
        click.echo(format_solve(rules.game, report, lang))
    if not report.solved:
        sys.exit(1)


def format_solve(decl, r, lang: str = "en") -> str:
    def say(ja, en):
        return ja if lang == "ja" else en
    from ..language import syntax as S
    name = S.text_of(decl.texts, "title", lang) or decl.name
    if not r.solved:
        size = say(f"(見つかった状態: {r.size:,})", f"(found so far: {r.size:,})") if r.size else ""
        return say(f"{name}: 解けません — {r.refused} {size}", f"{name}: not solved — {r.refused} {size}").rstrip()
    v = r.value
    frac = _fraction(r)
    reading = say("収支", "pay-offs") if r.reading == "payoffs" else say("勝ち+1・負け-1・引き分け0", "a win +1, a loss -1, a draw 0")
    out = [say(f"{name}: 最善手での結果(2人、ゼロサム、{reading})", f"{name}: solved exactly (2 players, zero-sum, {reading})")]
    if r.information == "perfect":
        out.append(say(f"  完全情報: 状態 {r.positions:,}、ミニマックス(偶然は平均)、{r.seconds:.1f}秒",
                       f"  perfect information: {r.positions:,} states, minimax with chance averaged, {r.seconds:.1f} s"))
        out.append(say(f"  P1にとってのゲームの値: {v:+.4f}{frac}", f"  value of the game for P1: {v:+.4f}{frac}"))
    else:
        out.append(say(f"  不完全情報: 局面 {r.positions:,}、情報集合 {r.information_sets:,}、CFR+ {r.iterations:,}回、{r.seconds:.1f}秒",
                       f"  imperfect information: {r.positions:,} positions, {r.information_sets:,} information sets, "
                       f"CFR+ {r.iterations:,} iterations, {r.seconds:.1f} s"))
        d = _decimals(r.high - r.low)
        out.append(say(f"  P1にとってのゲームの値: {v:+.4f}{frac}(真の値は {r.low:+.{d}f} から {r.high:+.{d}f} の間)",
                       f"  value of the game for P1: {v:+.4f}{frac} (the exact value lies between {r.low:+.{d}f} "
                       f"and {r.high:+.{d}f})"))
    out.append("  " + _advantage(r, say))
    if r.opening:
        out.append(say("  最善の初手:", "  optimal opening:"))
        for row in r.opening[:12]:
            out.append("    " + _opening_row(row, r, say))
        if len(r.opening) > 12:
            out.append(say(f"    ほか {len(r.opening) - 12} 通り(--json に全部)", f"    and {len(r.opening) - 12} more (all in --json)"))
    if r.agents:
        out.append(say("  各エージェントの隙(最善の応手がそのエージェントから1ゲームあたり勝ち取る量。0が最善):",
                       "  exploitability (what a best reply wins from each agent, a game; 0 is optimal play):"))
        for a in r.agents:
            how = say("厳密", "exact") if a["exact"] else _estimate(a["estimate"], say)
            out.append(f"    {a['agent']:<12} {a['exploitability']:+.4f}  "
                       + say(f"(席1で {a['seat_1']:+.4f}、席2で {a['seat_2']:+.4f})  {how}",
                             f"(in seat 1 {a['seat_1']:+.4f}, in seat 2 {a['seat_2']:+.4f})  {how}"))
    return "\n".join(out)


def _decimals(gap: float) -> int:
    """Enough decimals to show two bounds `gap` apart as different numbers (4 at least, 8 at most)."""
    d = 4
    while d < 8 and gap < 10 ** -d:
        d += 1
    return d


def _fraction(r) -> str:
    from ..analyses.solve import fraction
    f = fraction(r.value, r.low, r.high)
    return "" if not f else f" = {f}" if r.information == "perfect" else f" ≈ {f}"


def _advantage(r, say) -> str:
    v, tol = r.value, max(r.high - r.low, 1e-9)
    if r.low <= 0 <= r.high and abs(v) <= tol:
        return say("最善を尽くせば互角: 先手にも後手にも有利はない" + ("(引き分け)" if r.reading == "win-loss" and r.information == "perfect" else ""),
                   "with perfect play neither side has the advantage" + (" (a draw)" if r.reading == "win-loss" and r.information == "perfect" else ""))
    side, other, amount = ("P1", "P2", v) if v > 0 else ("P2", "P1", -v)
    if r.reading == "win-loss" and r.information == "perfect" and abs(amount - 1) < 1e-12:
        return say(f"最善を尽くせば{side}が必ず勝つ", f"with perfect play {side} always wins")
    if r.reading == "win-loss":
        return say(f"最善を尽くすと{side}が有利: 勝率から負け率を引いて{amount:.4f}",
                   f"with perfect play {side} has the advantage: {amount:.4f} more wins than losses a game")
    return say(f"最善を尽くすと{side}が有利: 1ゲームあたり{other}から平均{amount:.4f}を得る",
               f"with perfect play {side} has the advantage: {side} wins {amount:.4f} a game from {other} on average")


def _opening_row(row, r, say) -> str:
    who = row["seen"] or f"P{row['player']}"
    if r.information == "perfect":
        worth: dict = {}
        for m in row["moves"]:
            worth.setdefault(m["value"], []).append(m["move"])
        best = max(worth) if row["player"] == 1 else min(worth)
        return f"{who}: " + say("。", "; ").join(
            say(f"値 {v:+.4g}{'(最善)' if v == best else ''}: ", f"worth {v:+.4g}{' (optimal)' if v == best else ''}: ")
            + say("、", ", ").join(ms) for v, ms in sorted(worth.items(), key=lambda kv: -kv[0] if row["player"] == 1 else kv[0]))
    moves = say("、", ", ").join(f"{m['move']} {m['probability']:.0%}" for m in row["moves"])
    chance = say(f"(確率 {row['probability']:.3g})", f" (chance {row['probability']:.3g})") if row["seen"] else ""
    return f"{who}: {moves}{chance}"


def _estimate(e, say) -> str:
    one = e["asked_at"] == 1
    where = {"positions": say("局面", "position" if one else "positions"),
             "information sets": say("情報集合", "information set" if one else "information sets")}[e["asked_at_kind"]]
    return say(f"推定: {e['asked_at']:,}の{where}でそれぞれ{e['samples']}回試した手から",
               f"estimate: from {e['samples']} tries at each of {e['asked_at']:,} {where}")
