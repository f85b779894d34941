"""match and skill: agents that play to win, measured against each other."""
from __future__ import annotations

import contextlib
import json
import sys

import click

from .common import main, players_option, _fail, _variant_option, _load_or_exit, _game_or_exit, _scale_options, pool_or_exit
from .options import HiddenArgument, agents_option, games_option, json_option, lang_option, say, seed_option
from .common import RULE_FILE, within_budget_or_exit
from .progress import exit_stopped, followed, progress_option
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
    """`strategies`' progress bar, on a terminal only."""
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
  playtest match games/GAME.rules -p 4 --agents ismcts:1000,random -n 400 --workers 4   (same result)

Ctrl-C stops at the next whole game: the figures of the games played so far are printed,
marked partial ("partial": true in the JSON), and the exit status is 130.""")
@click.argument("file", type=RULE_FILE)
@click.argument("old_agents", nargs=-1, cls=HiddenArgument)     # `match FILE A B`, the first spelling
@_variant_option
@players_option
@agents_option("The two agents, A then B, e.g. ismcts:200,random.", metavar="A,B")
@games_option(100, "Games to play.")
@seed_option()
@json_option()
@lang_option("Language of the summary and the figures: en or ja.")
@progress_option
@_scale_options
def match(file, old_agents, variants, players, agent_spec, games, seed, as_json, lang, show_progress, workers, scheduler):
    from ..agents.match import match as run_match
    specs = agent_spec.split(",") if agent_spec else list(old_agents)
    if len(specs) != 2 or (agent_spec and old_agents):
        raise click.UsageError("name the two agents: --agents A,B (e.g. --agents ismcts:200,random)")
    a, b = _agent_or_exit(specs[0], "agent A"), _agent_or_exit(specs[1], "agent B")
    rules, _ = _load_or_exit(file, variants)
    game = _game_or_exit(rules, players)
    with pool_or_exit(workers, scheduler) as pool, followed(games, f"{a.name} against {b.name}", show_progress) as progress, \
            agents_failing_exit(game, [a, b]):
        result = run_match(game, a, b, games, seed, progress, pool)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True))
    else:
        click.echo(format_match(rules.game.name, result, lang))
    if "partial" in result:
        exit_stopped(f"after {result['games']} of {games} games: the figures are of those games")


def format_match(name, r, lang: str = "en") -> str:
    """The summary sentence first, then the figures it comes from."""
    from ..analyses.verdicts import match_sentence
    lo, hi = r["ci95"]
    ends = [(r["wins"], "wins", "勝ち"), (r["shared_wins"], "shared wins", "分けた勝ち"), (r["draws"], "draws", "引き分け"),
            (r["losses"], "losses", "負け"), (r["dead_end_games"], "dead-end games", "行き止まり")]
    a, b = r["a"], r["b"]
    return "\n".join([
        say(lang, f"{name}: {a} in one seat against {b}, {r['players']} players, {r['games']} games, seed {r['seed']}",
            f"{name}: {a}が1席、他の席は{b}、{r['players']}人、{r['games']}ゲーム、シード{r['seed']}"),
        *([say(lang, f"  partial: stopped by Ctrl-C after {r['games']} of {r['games_asked']} games",
               f"  途中まで: {r['games_asked']}ゲーム中{r['games']}ゲームでCtrl-Cにより停止")] if "partial" in r else []),
        "  " + match_sentence(r, lang),
        say(lang, f"  score of {a}: {r['score']:.1%}  (95% interval {lo:.1%} to {hi:.1%}; equal agents {r['fair_share']:.1%})",
            f"  {a}の得点: {r['score']:.1%}（95%区間 {lo:.1%}〜{hi:.1%}、互角なら{r['fair_share']:.1%}）"),
        "  " + say(lang, ", ", "、").join(say(lang, f"{en} {k}", f"{ja}{k}") for k, en, ja in ends if k or en in ("wins", "losses"))
        + say(lang, f", decisions per game {r['mean_turns']}", f"、1ゲームの判断数{r['mean_turns']}"),
        say(lang, f"  advantage of {a} over a {b} seat: {r['advantage']:+.3f} a game "
                  f"(95% interval {r['advantage_ci95'][0]:+.3f} to {r['advantage_ci95'][1]:+.3f})",
            f"  {b}の席に対する{a}の優位: 1ゲームあたり{r['advantage']:+.3f}"
            f"（95%区間 {r['advantage_ci95'][0]:+.3f}〜{r['advantage_ci95'][1]:+.3f}）"),
        say(lang, f"  score of {a} by seat: ", f"  {a}の席ごとの得点: ") + say(lang, ", ", "、").join(say(lang, f"seat {k} {v:.1%}", f"席{k} {v:.1%}")
                                    for k, v in r["score_by_seat"].items() if v is not None)])


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
  playtest skill games/GAME.rules -p 3 -n 400 --workers 4                  (same result)

Ctrl-C stops at the next whole game: the levels played so far are printed, the last one's
figures of the games it played, marked partial ("partial": true in the JSON); exit status 130.""")
@click.argument("file", type=RULE_FILE)
@_variant_option
@players_option
@click.option("--levels", default=DEFAULT_LEVELS, show_default=True, help="Agents from weakest to strongest, comma-separated.")
@games_option(100, "Games per level.")
@seed_option()
@json_option()
@lang_option("Language of the summary and the table: en or ja.")
@progress_option
@_scale_options
def skill(file, variants, players, levels, games, seed, as_json, lang, show_progress, workers, scheduler):
    from ..agents import RandomAgent
    from ..agents.match import skill as run_skill
    agents = [_agent_or_exit(spec, "--levels") for spec in levels.split(",")]
    rules, _ = _load_or_exit(file, variants)
    game = _game_or_exit(rules, players)
    with pool_or_exit(workers, scheduler) as pool, \
            followed(games * len(agents), f"skill of {rules.game.name}", show_progress) as progress, \
            agents_failing_exit(game, agents):
        result = run_skill(game, agents, RandomAgent(), games, seed, progress, pool)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True))
    else:
        click.echo(format_skill(rules.game.name, result, lang))
    if "partial" in result:
        exit_stopped(f"after {len(result['curve'])} of {len(agents)} levels: the figures are of the games played")


def format_skill(name, r, lang: str = "en") -> str:
    """The summary sentence first, then the curve it comes from."""
    from ..analyses.verdicts import skill_sentence
    from .options import pad
    dead = any(c["dead_end_games"] for c in r["curve"])      # a column that does not apply is left out
    columns = [("agent", "エージェント", 22), ("score", "得点", 8), ("95% interval", "95%区間", 19), ("advantage", "優位", 11)]
    columns += [("dead ends", "行き止まり", 11)] if dead else []
    team = all("team_score" in c for c in r["curve"])      # cooperative, scored: what each level adds to the team's score
    columns += [("team gain", "チームの改善", 12)] if team else []
    lines = [say(lang, f"{name}: skill against random seats, {r['players']} players, {r['games_per_level']} games a level, "
                       f"seed {r['seed']} (equal agents score {r['fair_share']:.1%})",
                 f"{name}: ランダムの席を相手にした技量、{r['players']}人、段階ごとに{r['games_per_level']}ゲーム、"
                 f"シード{r['seed']}（互角なら得点{r['fair_share']:.1%}）"),
             *([_stopped_levels(r, lang)] if "partial" in r else []),
             "  " + skill_sentence(r, lang), "",
             "  " + "".join(pad(say(lang, en, ja), w, right=i > 0) for i, (en, ja, w) in enumerate(columns))]
    for c in r["curve"]:
        lo, hi = c["ci95"]
        line = f"  {c['agent']:<22}{c['score']:>8.1%}{f'{lo:.1%} – {hi:.1%}':>19}{c['advantage']:>+11.3f}"
        line += f"{c['dead_end_games']:>11}" if dead else ""
        line += f"{c['team_score']['gain']:>+12.2f}" if team else ""
        lines.append(line + "  " + "#" * round(c["score"] * 40))
    lines += ["", say(lang, f"  skill room {r['skill_room']:.2f} (its interval's low end: {r['skill_room_ci_low']:.2f}); "
                            f"best agent {r['best']}",
                      f"  技量の余地 {r['skill_room']:.2f}（区間の下端 {r['skill_room_ci_low']:.2f}）、最も強いのは{r['best']}"),
              say(lang, "  (0: trying to win does not pay against random play; 1: the best agent always wins)",
                  "  （0: ランダム相手に勝とうとしても得にならない、1: 最も強いエージェントが必ず勝つ）")]
    return "\n".join(lines)


def _stopped_levels(r, lang: str) -> str:
    """Where Ctrl-C stopped a skill curve: in a level (its games so far shown), or between two."""
    last = r["curve"][-1]
    if "partial" in last:
        return say(lang, f"  partial: stopped by Ctrl-C in {last['agent']} after {last['games']} of {r['games_per_level']} "
                         f"games; the levels after it were not played",
                   f"  途中まで: {last['agent']}の{r['games_per_level']}ゲーム中{last['games']}ゲームでCtrl-Cにより停止。"
                   f"それより後の段階は遊んでいない")
    return say(lang, f"  partial: stopped by Ctrl-C after {last['agent']}; the levels after it were not played",
               f"  途中まで: {last['agent']}の後でCtrl-Cにより停止。それより後の段階は遊んでいない")
