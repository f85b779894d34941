"""simulate: play many games and summarise them."""
from __future__ import annotations

import json
import os

import click

from ..analyses import replay as replay_mod
from .common import main, _variant_option, _load_or_exit, _game_or_exit, _run_simulation


@main.command(help="""Play many games with random legal moves and report balance:
win rate per seat, draws, dead ends counted by the rule that leaves them open,
and turns (decisions) per game.

\b
Example:
  playtest simulate games/GAME.rules --players 4 -n 2000 --seed 1 --json""")
@click.argument("file", type=click.Path())
@_variant_option
@click.option("--players", "-p", type=int, required=True, help="Number of players.")
@click.option("-n", "games", type=click.IntRange(1), default=1000, show_default=True, help="Games to play.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed: the same seed gives the same games.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
@click.option("--save-dead-ends", type=click.Path(file_okay=False), default=None,
              help="Folder to save the shortest game of each distinct dead end, as replay files.")
def simulate(file, variants, players, games, seed, as_json, save_dead_ends):
    rules, _ = _load_or_exit(file, variants)
    game = _game_or_exit(rules, players)
    summary = _run_simulation(game, games, seed, f"simulating {rules.game.name}")
    saved = []
    if save_dead_ends:
        for key, played in sorted(summary.examples.items()):
            rule, kind = key.split("|", 1)
            name = f"{rules.game.name}-p{players}-seed{seed}-game{played.index}-{rule}.json".replace(" ", "_")
            path = os.path.join(save_dead_ends, name)
            replay_mod.save(replay_mod.Replay(file, list(variants), players, seed, played.index, played.actions,
                                              note=f"dead end: {kind} in {rule}"), path)
            saved.append(path)
    result = summary.to_json()
    if saved:
        result["saved"] = saved
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True))
        return
    _print_summary(rules.game.name, result)


def _print_summary(name, r):
    click.echo(f"{name}: {r['games']} games, {r['players']} players, seed {r['seed']}")
    click.echo("")
    click.echo("  seat  wins   win rate")
    for seat, wins in r["wins_by_seat"].items():
        rate = r["win_rate_by_seat"][seat]
        bar = "#" * round(rate * 40)
        click.echo(f"  {seat:>4}  {wins:>5}  {rate:7.1%}  {bar}")
    teams = r.get("wins_by_team", {})
    if teams:
        click.echo("")
        click.echo("  team  wins   win rate")
        for team, wins in teams.items():
            rate = wins / r["games"]
            click.echo(f"  {team:>4}  {wins:>5}  {rate:7.1%}  {'#' * round(rate * 40)}")
    shared = r["draws"] - sum(teams.values())
    click.echo(f"  draws {shared}" + (" (wins shared by players of different teams)" if teams else ""))
    click.echo("")
    click.echo(f"  turns per game: mean {r['mean_turns']}, median {r['median_turns']}, max {r['max_turns']}")
    click.echo("")
    if r["dead_ends"]:
        total = r["dead_end_games"]
        click.echo(click.style(f"  dead ends: {total} of {r['games']} games ({total / r['games']:.1%})", fg="yellow"))
        for d in r["dead_ends"]:
            click.echo(f"    {d['count']:>6}  {d['rule']}: {d['kind']}  ({d['where']})")
            click.echo(f"            {d['message']}")
    else:
        click.echo(click.style("  no dead ends", fg="green"))
    for path in r.get("saved", []):
        click.echo(f"  saved {path}")
