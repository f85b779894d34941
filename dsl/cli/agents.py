"""match and skill: agents that play to win, measured against each other."""
from __future__ import annotations

import contextlib
import json
import sys

import click

from .common import main, players_option, _fail, _variant_option, _load_or_exit, _game_or_exit, _scale_options, pool_or_exit
from .options import HiddenArgument, agents_option, games_option, json_option, seed_option
from .common import RULE_FILE, within_budget_or_exit
from .simulate import agents_failing_exit

_AGENT_HELP = ("random | flat:N | ismcts:N | ismcts:N:c=X, with N iterations a decision "
               "(add :time=S for a time budget in seconds, which makes the run nondeterministic) | "
               "strategy:NAME, a strategy the game declares | ismcts:N/NAME, its imagined games played by one")
DEFAULT_LEVELS = "random,flat:100,ismcts:100,ismcts:400"


def _agent_or_exit(spec, what):
    from ..agents import parse_agent
    try:
        return within_budget_or_exit([parse_agent(spec)], what)[0]
    except ValueError as e:
        _fail(f"{what}: {e}", 2)


@contextlib.contextmanager
def _bar(total, label):
    if sys.stderr.isatty():
        with click.progressbar(length=total, label=label, file=sys.stderr) as bar:
            yield bar.update
    else:
        yield None


@main.command(help=f"""Play agent A against agent B, seats rotated, and say which is stronger.

--agents A,B names them. A sits in one seat (seat 1 in game 1, seat 2 in game 2, ...) and B in every other. A's
score is its mean utility (a win 1, a win shared by k players 1/k, a draw 1/players,
a loss or dead end 0)
with a 95% interval; equal agents score 1/players. A is called stronger when its
advantage (its utility minus the mean of B's seats, per game) is above 0 with 95%
confidence, so games that end in dead ends (0 to everyone) do not count against it.

Agents: {_AGENT_HELP}.

\b
Examples:
  playtest match games/GAME.rules --players 2 --agents ismcts:200,random -n 200 --seed 1
  playtest match games/GAME.rules -p 4 --agents ismcts:1000,flat:200 -n 100 --json
  playtest match games/GAME.rules -p 4 --agents ismcts:1000,random -n 400 --workers 4   (same result)""")
@click.argument("file", type=RULE_FILE)
@click.argument("old_agents", nargs=-1, cls=HiddenArgument)     # `match FILE A B`, the first spelling
@_variant_option
@players_option
@agents_option("The two agents, A then B, e.g. ismcts:200,random.", metavar="A,B")
@games_option(100, "Games to play.")
@seed_option()
@json_option()
@_scale_options
def match(file, old_agents, variants, players, agent_spec, games, seed, as_json, workers, scheduler):
    from ..agents.match import match as run_match
    specs = agent_spec.split(",") if agent_spec else list(old_agents)
    if len(specs) != 2 or (agent_spec and old_agents):
        raise click.UsageError("name the two agents: --agents A,B (e.g. --agents ismcts:200,random)")
    a, b = _agent_or_exit(specs[0], "agent A"), _agent_or_exit(specs[1], "agent B")
    rules, _ = _load_or_exit(file, variants)
    game = _game_or_exit(rules, players)
    with pool_or_exit(workers, scheduler) as pool, _bar(games, f"{a.name} against {b.name}") as progress, \
            agents_failing_exit(game, [a, b]):
        result = run_match(game, a, b, games, seed, progress, pool)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True))
        return
    click.echo(format_match(rules.game.name, result))


def format_match(name, r) -> str:
    lo, hi = r["ci95"]
    return "\n".join([
        f"{name}: {r['a']} in one seat against {r['b']}, {r['players']} players, {r['games']} games, seed {r['seed']}",
        f"  score of {r['a']}: {r['score']:.1%}  (95% interval {lo:.1%} to {hi:.1%}; "
        f"equal agents {r['fair_share']:.1%})",
        f"  wins {r['wins']}, shared wins {r['shared_wins']}, draws {r['draws']}, losses {r['losses']}, "
        f"dead-end games {r['dead_end_games']}, decisions per game {r['mean_turns']}",
        f"  advantage of {r['a']} over a {r['b']} seat: {r['advantage']:+.3f} a game "
        f"(95% interval {r['advantage_ci95'][0]:+.3f} to {r['advantage_ci95'][1]:+.3f})",
        "  by seat: " + ", ".join(f"seat {k} {v:.1%}" for k, v in r["score_by_seat"].items() if v is not None),
        f"  {r['verdict']}"])


@main.command(help=f"""Skill versus luck: stronger and stronger agents against random seats.

Each level plays a seat-rotated match against random players. The curve shows how much
trying to win pays; the skill room is the best level's advantage (its result minus a
random seat's, per game): 0 when no agent beats random play, 1 when the best one always
wins. With a winner in every game it is (best score - 1/players) / (1 - 1/players).

Levels: a comma list of agents ({_AGENT_HELP}).

\b
Examples:
  playtest skill games/GAME.rules --players 2 -n 100 --seed 1
  playtest skill games/GAME.rules -p 4 --levels random,flat:50,ismcts:50,ismcts:200 --json
  playtest skill games/GAME.rules -p 3 -n 400 --workers 4                  (same result)""")
@click.argument("file", type=RULE_FILE)
@_variant_option
@players_option
@click.option("--levels", default=DEFAULT_LEVELS, show_default=True, help="Agents from weakest to strongest, comma-separated.")
@games_option(100, "Games per level.")
@seed_option()
@json_option()
@_scale_options
def skill(file, variants, players, levels, games, seed, as_json, workers, scheduler):
    from ..agents import RandomAgent
    from ..agents.match import skill as run_skill
    agents = [_agent_or_exit(spec, "--levels") for spec in levels.split(",")]
    rules, _ = _load_or_exit(file, variants)
    game = _game_or_exit(rules, players)
    with pool_or_exit(workers, scheduler) as pool, _bar(games * len(agents), f"skill of {rules.game.name}") as progress, \
            agents_failing_exit(game, agents):
        result = run_skill(game, agents, RandomAgent(), games, seed, progress, pool)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True))
        return
    click.echo(format_skill(rules.game.name, result))


def format_skill(name, r) -> str:
    lines = [f"{name}: skill against random seats, {r['players']} players, {r['games_per_level']} games a level, "
             f"seed {r['seed']} (equal agents score {r['fair_share']:.1%})", "",
             "  agent                 score   95% interval     advantage    dead ends"]
    for c in r["curve"]:
        lo, hi = c["ci95"]
        lines.append(f"  {c['agent']:<20}  {c['score']:6.1%}   {lo:6.1%} to {hi:6.1%}   {c['advantage']:+.3f}  "
                     f"{c['dead_end_games']:>8}  " + "#" * round(c["score"] * 40))
    lines += ["", f"  skill room {r['skill_room']:.2f} (its interval's low end: {r['skill_room_ci_low']:.2f}); "
                  f"best agent {r['best']}",
              "  (0: trying to win does not pay against random play; 1: the best agent always wins)"]
    return "\n".join(lines)
