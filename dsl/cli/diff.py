"""diff: what changed between two rule sets, in the rules and in play."""
from __future__ import annotations

import json

import click

from ..language.diagnostics import RuleFileError
from .common import (main, _fail, _load_or_exit, _game_or_exit, _echo_errors, _scale_options, pool_or_exit,
                     writable_or_exit, write_or_exit)
from .common import GAMES, RULE_FILE, SEED
from .simulate import agents_or_exit, simulate_or_exit


@main.command(help="""Show what changed between two rule sets: in the rules, and (with --simulate) in play.

\b
Each side is a game with its variants. B may be a variant file: it is taken with its own game.
  playtest diff games/GAME.rules variants/VARIANT.rules
  playtest diff variants/VARIANT.rules                      (the variant against its game)
  playtest diff games/GAME.rules --a-variant variants/X.rules --b-variant variants/Y.rules
  playtest diff games/GAME.rules variants/V.rules --simulate 2000 --players 4 --seed 1
  playtest diff games/GAME.rules variants/V.rules --format html -o diff.html

\b
With --simulate N both sides play N random games with the same seed; each figure that
`simulate` reports is shown on both sides with a 95% confidence interval, a test of the
difference (Fisher's exact test for rates, Welch's t-test for means) and whether it is
significant at 5% after the Holm-Bonferroni correction across all figures.""")
@click.argument("a", type=RULE_FILE)
@click.argument("b", type=RULE_FILE, required=False)
@click.option("--a-variant", "a_variants", multiple=True, type=RULE_FILE, help="A variant for side A (repeatable).")
@click.option("--b-variant", "b_variants", multiple=True, type=RULE_FILE, help="A variant for side B (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["text", "html", "json"]), default="text", show_default=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, help="Write to this file instead of the terminal.")
@click.option("--simulate", "n_games", type=GAMES, default=None, help="Also compare N random games per side.")
@click.option("--players", "-p", type=int, default=None, help="Players for --simulate (may be left out when the game is for one number only).")
@click.option("--seed", type=SEED, default=1, show_default=True, help="Seed for --simulate.")
@click.option("--agents", "agent_spec", default=None, metavar="SPEC[,SPEC...]",
              help="Who plays each seat in --simulate (default random): flat:N or ismcts:N, one spec or one per seat.")
@_scale_options
def diff(a, b, a_variants, b_variants, fmt, output, n_games, players, seed, agent_spec, workers, scheduler):
    from ..variants import diff as diff_mod, overlay
    from ..analyses import stats
    from ..language.parser import parse_file
    if output:
        writable_or_exit(output, "-o")
    if b is None and not b_variants:
        try:
            only = parse_file(a)
        except RuleFileError as e:
            _echo_errors(e)
        if overlay.head(only) is None:
            _fail("give a second side: a game or variant file B, or --b-variant V")
        left, _ = _load_or_exit(overlay.find_base(only), a_variants)
        right, _ = _load_or_exit(a, b_variants)
    else:
        left, _ = _load_or_exit(a, a_variants)
        right, _ = _load_or_exit(b or a, b_variants)
    changes = diff_mod.diff(left, right)
    behaviour = None
    if n_games:
        first = _game_or_exit(left, players)
        players = first.n
        games = [first, _game_or_exit(right, players)]
        agents = agents_or_exit(agent_spec, players)
        with pool_or_exit(workers, scheduler) as pool:
            summaries = [simulate_or_exit(game, n_games, seed, f"simulating {side}", agents=agents, pool=pool)
                         for side, game in zip("AB", games)]
        behaviour = {"games": n_games, "players": players, "seed": seed,
                     "metrics": stats.compare(*(stats.summary_metrics(s) for s in summaries))}
    if fmt == "json":
        result = diff_mod.to_json(left, right, changes)
        if behaviour:
            result["behaviour"] = behaviour
        text = json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    elif fmt == "html":
        text = diff_mod.format_html(left, right, changes, behaviour)
    else:
        style = click.style if output is None else (lambda s, **k: s)
        lines = diff_mod.format_text(left, right, changes, style)
        if behaviour:
            lines += [""] + _behaviour_lines(behaviour)
        text = "\n".join(lines) + "\n"
    if output:
        write_or_exit(output, text)
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo(text, nl=False)


def _behaviour_lines(b) -> list[str]:
    lines = [f"In play: {b['games']} random games per side, {b['players']} players, seed {b['seed']}",
             "(95% intervals; Fisher's exact test for rates, Welch's t-test for means; * = significant at 5% after Holm-Bonferroni)",
             "", f"  {'metric':<44} {'A':>8} {'A 95% CI':>17} {'B':>8} {'B 95% CI':>17} {'p':>9}"]
    for r in b["metrics"]:
        ci = lambda s: f"{s['ci95'][0]:.3f}-{s['ci95'][1]:.3f}"
        mark = " *" if r["significant"] else ""
        lines.append(f"  {r['metric'][:44]:<44} {r['a']['value']:>8} {ci(r['a']):>17} {r['b']['value']:>8} {ci(r['b']):>17} {r['p_value']:>9}{mark}")
    return lines
