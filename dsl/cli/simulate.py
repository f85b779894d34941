"""simulate: play many games and summarise them."""
from __future__ import annotations

import json
import sys

import click

from ..analyses import replay as replay_mod
from ..analyses.simulate import Restriction, scoring as score_of, simulate as run_simulation
from .common import (main, players_option, _fail, _variant_option, _load_or_exit, _game_or_exit, _scale_options, pool_or_exit,
                     save_replay_or_exit, writable_or_exit)
from .common import GAMES, RULE_FILE, SEED, within_budget_or_exit


def _play_options(f):
    """--score, --ban and --ban-seat, shared by simulate, report and sweep."""
    f = click.option("--ban-seat", "ban_seats", multiple=True, type=int,
                     help="The seat (from 1) the bans apply to (repeatable; default every seat).")(f)
    f = click.option("--ban", "bans", multiple=True, metavar="OPTION",
                     help="Restricted play: never take this option ('rule: option', an option name or a card) "
                          "while another move is legal (repeatable).")(f)
    f = click.option("--agents", "agent_spec", default=None, metavar="SPEC[,SPEC...]",
                     help="Who plays each seat: random (the default), flat:N or ismcts:N, one spec for "
                          "every seat or one per seat, e.g. ismcts:500,random,random.")(f)
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
  playtest simulate games/GAME.rules --players 4 -n 20000 --workers 4   (same output, 4 processes)""")
@click.argument("file", type=RULE_FILE)
@_variant_option
@players_option
@click.option("-n", "games", type=GAMES, default=1000, show_default=True, help="Games to play.")
@click.option("--seed", type=SEED, default=1, show_default=True, help="Seed: the same seed gives the same games.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
@click.option("--save-dead-ends", type=click.Path(file_okay=False), default=None,
              help="Folder to save the shortest game of each distinct dead end, as replay files.")
@_play_options
@_scale_options
def simulate(file, variants, players, games, seed, as_json, save_dead_ends, score, agent_spec, bans, ban_seats,
             workers, scheduler):
    rules, _ = _load_or_exit(file, variants)
    game = _game_or_exit(rules, players)
    players = game.n
    if save_dead_ends:
        writable_or_exit(save_dead_ends, "--save-dead-ends", folder=True)
    agents = agents_or_exit(agent_spec, players)
    restriction = restriction_or_exit(bans, ban_seats, players)
    with pool_or_exit(workers, scheduler) as pool:
        summary = simulate_or_exit(game, games, seed, f"simulating {rules.game.name}", score=score,
                                   agents=agents, restriction=restriction, pool=pool)
    saved = []
    if save_dead_ends:
        for key, played in sorted(summary.examples.items()):
            rule, kind = key.split("|", 1)
            rep = replay_mod.Replay(file, list(variants), players, seed, played.index, played.actions,
                                    note=f"dead end: {kind} in {rule}")
            saved.append(save_replay_or_exit(rep, game, save_dead_ends, f"p{players}", f"seed{seed}",
                                             f"game{played.index}", rule))
    result = summary.to_json()
    if saved:
        result["saved"] = saved
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True))
        return
    _print_summary(rules.game.name, result)


def simulate_or_exit(game, games, seed, label, agents=None, score=None, restriction=None, pool=None):
    """Run a simulation with a progress bar on a terminal; a bad --score exits cleanly."""
    try:
        scoring = score_of(game, score)
    except ValueError as e:
        _fail(f"--score: {e}", 2)
    kw = dict(agents=agents, score=scoring, restriction=restriction, pool=pool)
    if sys.stderr.isatty() and games >= 200:
        with click.progressbar(length=games, label=label, file=sys.stderr) as bar:
            return run_simulation(game, games, seed, progress=bar.update, **kw)
    return run_simulation(game, games, seed, **kw)


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


def _print_summary(name, r):
    m = r["metrics"]
    out = m["outcomes"]
    agents = sorted(set(r["agents"]))
    click.echo(f"{name}: {r['games']} games, {r['players']} players, seed {r['seed']}, "
               f"{'/'.join(agents)} play")
    click.echo("")
    paid = r.get("mean_payoff_by_seat")
    click.echo(f"  {out['by']:>5}    wins  win rate  95% interval" + ("  mean pay-off" if paid else ""))
    for w in out["wins"]:
        side = ",".join(str(s) for s in w["seats"])
        bar = "#" * round(w["value"] * 40)
        flag = (f"  {w['flag']} the fair share: {w['share_of_decided']['value']:.1%} of the games won "
                f"(fair {out['fair_share']:.1%})") if w["flag"] else ""
        mean = f"  {paid[side]:>+12.3f}" if paid and side in paid else ""
        click.echo(f"  {side:>5}  {w['count']:>6}  {_pct(w)}{mean}  {bar}{flag}")
    click.echo("")
    for label, key in (("draws: the game ended and nobody won", "nobody"),
                       (f"draws: a win shared across {out['by']}s", "shared"),
                       ("games past the step limit", "step_limit")):
        click.echo(f"  {label:<38} {out[key]['count']:>6}  {_pct(out[key])}")
    click.echo("")
    d, rd = m["decisions"], m["rounds"]
    click.echo(f"  decisions per game: mean {d['mean']}, median {d['median']}, max {d['max']}")
    click.echo(f"  rounds per game:    mean {rd['mean']}, median {rd['median']}, max {rd['max']}")
    if "score" in m:
        sc = m["score"]
        click.echo(f"  score ({r['score_by']}): lead changes per game {sc['lead_changes']['value']}, "
                   f"comebacks {sc['comebacks']['value']:.1%}, final margin {sc['final_margin']['value']}")
    click.echo("")
    dead = [d for d in r["dead_ends"] if d["kind"] != "step limit"]
    if dead:
        total = sum(d["count"] for d in dead)
        click.echo(click.style(f"  dead ends: {total} of {r['games']} games ({total / r['games']:.1%})", fg="yellow"))
        for d in dead:
            click.echo(f"    {d['count']:>6}  {d['rule']}: {d['kind']}  ({d['where']})")
            click.echo(f"            {d['message']}")
    else:
        click.echo(click.style("  no dead ends", fg="green"))
    for path in r.get("saved", []):
        click.echo(f"  saved {path}")
