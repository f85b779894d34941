"""report, sweep and restrict: the balance report, parameter sweeps and restricted play."""
from __future__ import annotations

import json
import os

import click

from .common import main, players_option, _fail, _variant_option, _load_or_exit, _game_or_exit, _scale_options, pool_or_exit
from .common import GAMES, RULE_FILE, writable_or_exit
from .options import (agents_option, games_option, json_option, lang_option, output_option, pad, say, seed_option)
from .diff import p_value
from .progress import exit_stopped, followed, progress_option
from .simulate import _correct_flags, _play_options, agents_failing_exit, agents_or_exit, restriction_or_exit, simulate_or_exit


def _player_counts(rules, text):
    g = rules.game
    if not text:
        return list(range(g.min_players, g.max_players + 1))
    from ..analyses.sweep import SweepError, parse_values
    try:
        counts = parse_values(text)
    except SweepError as e:
        _fail(f"--players: {e}", 2)
    for n in counts:
        _game_or_exit(rules, n)          # names the allowed range
    return counts


def _scorer_or_exit(rules, score, players):
    """Check --score once, at the first player count, so a typo fails before any game is played."""
    from ..analyses.simulate import counter_score
    if not score:
        return None
    try:
        counter_score(_game_or_exit(rules, players[0]), score)
    except ValueError as e:
        _fail(f"--score: {e}", 2)
    return lambda game: counter_score(game, score)


_SUFFIXES = (".json", ".csv", ".html")


def _writable_set_or_exit(base):
    """Check the whole output set before any game is played."""
    for suffix in _SUFFIXES:
        writable_or_exit(base + suffix, "-o")


def _write(base, texts):
    """Write the .json, .csv and .html of an output set: all three, or none when one fails."""
    from ..io_guard import write_set
    files = [(base + suffix, text) for suffix, text in zip(_SUFFIXES, texts)]
    try:
        write_set(files)
    except OSError as e:
        _fail(f"{base}: cannot write the files ({e.strerror or e}); none was written")
    for path, _ in files:
        click.echo(f"wrote {path}", err=True)


def _base(output, default):
    out = output or default
    for suffix in _SUFFIXES:
        if out.endswith(suffix):
            return out[: -len(suffix)]
    return out


@main.command(help="""Write a balance report: one self-contained HTML file (charts inline, no
network) with JSON and CSV beside it. Every player count the game allows (or --players),
wins with 95% intervals, draws, dead ends with the shortest game of each narrated,
game length, choice and option use; with a score (the rule file's 'score' line, or
--score) the lead changes, comebacks, final margin and score over time; with --skill
how much an agent that tries to win gains over random players.

\b
Examples:
  playtest report games/GAME.rules -n 500 -o out/GAME          (out/GAME.html, .json, .csv)
  playtest report games/GAME.rules --players 3,4 --score COUNTER -n 300
  playtest report games/GAME.rules --skill flat:20 --skill-games 60
  playtest report games/GAME.rules -n 5000 --workers 4          (same files, 4 processes)

Ctrl-C stops at the next whole game: the files are written from the games played so far,
marked partial (its first summary line; "partial": true in the JSON); exit status 130.""")
@click.argument("file", type=RULE_FILE)
@_variant_option
@click.option("--players", "-p", "players_text", default=None, metavar="N[,N|..N]",
              help="Player counts (default: every count the game allows).")
@games_option(500, "Games per player count.")
@seed_option("Seed: the same seed gives the same games, so the same report.")
@output_option("Where to write, without suffix (default: GAME-report in the current folder).")
@click.option("--skill", "skill_spec", default=None, metavar="AGENT",
              help="Also measure skill: this agent (e.g. flat:20 or ismcts:50) in one seat, rotated, against "
                   "random players at each player count, as 'playtest match' does.")
@click.option("--skill-games", type=GAMES, default=60, show_default=True,
              help="Games per player count for --skill.")
@click.option("--strategies", "strategy_games", type=click.IntRange(0), default=0, show_default=True, metavar="N",
              help="Also play the strategies the rules declare (strategies/GAME.rules) side by side: each "
                   "against random seats and against each other, seats rotated, N games a pairing (0: not played).")
@click.option("--replays", "replays", type=click.Path(exists=True, file_okay=False), default=None, metavar="DIR",
              help="Add the games people played of these rules (the replays `play` and `serve` saved in DIR): "
                   "the table beside random play and ismcts with intervals, the ratings, notes and rulings, "
                   "as `table-stats DIR --html` shows them.")
@lang_option("Language of the page: its words, the summary, card names and the narrated dead ends (en or ja).")
@progress_option
@_play_options
@_scale_options
def report(file, variants, players_text, games, seed, output, skill_spec, skill_games, strategy_games, replays, lang,
           show_progress, score, agent_spec, bans, ban_seats, workers, scheduler):
    from ..agents import parse_agents
    from ..analyses import report as report_mod
    rules, _ = _load_or_exit(file, variants)
    base = _base(output, f"{rules.game.name}-report")
    _writable_set_or_exit(base)
    counts = _player_counts(rules, players_text)
    scorer = _scorer_or_exit(rules, score, counts)
    restriction = restriction_or_exit(bans, ban_seats, min(counts))
    agent_sets = None
    if agent_spec:
        for n in counts:
            agents_or_exit(agent_spec, n)        # a bad spec stops here, before any game
        # random play beside the named agents, so the report shows what skill changes
        agent_sets = [("random", lambda n: None), (agent_spec, lambda n: parse_agents(agent_spec, n))]
    if skill_spec:
        from .agents import _agent_or_exit
        _agent_or_exit(skill_spec, "--skill")        # a bad spec stops here, before any game
    total = games * len(counts) * len(agent_sets or [None]) + (skill_games * len(counts) if skill_spec else 0)
    if strategy_games:
        with agents_failing_exit():      # a strategies file with errors stops here, before any game
            total += strategy_games * report_mod.strategy_pairings(rules, counts)
    with pool_or_exit(workers, scheduler) as pool, followed(total, f"report {rules.game.name}", show_progress) as bar, \
            agents_failing_exit():
        data = report_mod.build(rules, counts, games, seed, agent_sets, score=score, scorer=scorer,
                                restriction=restriction, progress=bar,
                                skill=(skill_spec, skill_games) if skill_spec else None, pool=pool, lang=lang,
                                strategy_games=strategy_games)
    if data["strategies"]:
        from ..agents.strategy import rules_with_strategies
        from ..engine import compiled
        from .strategies import _readings
        data["strategy_readings"] = _readings(rules_with_strategies(compiled(rules, counts[0])), lang)
    for c in data["configs"]:
        _correct_flags(c["summary"]["metrics"]["outcomes"])
    data["lang"] = lang
    data["summary"] = report_mod.summary(data, lang)
    title = rules.game.name + "".join(f" + {os.path.basename(v.path)}" for v in rules.variants)
    section = ""
    if replays:
        section = _table_section(data, file, variants, replays, games, seed, lang)
    _write(base, [json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                  report_mod.render_csv(data), report_mod.render_html(data, title, lang, section)])
    if "partial" in data:
        exit_stopped("before the end: the report's figures are of the games played until then")


def _table_section(data, file, variants, folder, games, seed, lang) -> str:
    """The games played at the table of these rules and variants, into `data` and as the page's section."""
    from ..table.stats_page import section
    from .play import table_data

    def same(g):
        return os.path.abspath(g["rules"]) == os.path.abspath(file) and \
            [os.path.abspath(v) for v in g["variants"]] == [os.path.abspath(v) for v in variants]
    groups, sessions, _ = table_data(folder, games, seed, lang, ("random", "ismcts:20"), 20)
    data["table"] = {"groups": [g for g in groups if same(g)], "sessions": [s for s in sessions if same(s)]}
    if not data["table"]["groups"] and not data["table"]["sessions"]:
        return ""
    return section(data["table"]["groups"], data["table"]["sessions"], lang)


@main.command(help="""Sweep parameters: play every combination of values with common random
seeds and report each metric per combination (table, heatmaps), ranked against a target.

\b
Examples:
  playtest sweep games/GAME.rules --param A=2,3,4 --param B=1..3 --players 4 -n 200
  playtest sweep games/GAME.rules --param start_food=2..6 --players 3 \\
      --target-length 10-20 --target-balance 0.8 --target-dead-ends 0 -o out/sweep
  playtest sweep games/GAME.rules --param A=1..9 -p 4 -n 1000 --workers 4   (same output)

Ctrl-C stops at the next whole game: the rows played so far are written, the last one's
figures of the games it played, marked partial ("partial": true in the JSON); exit status 130.""")
@click.argument("file", type=RULE_FILE)
@_variant_option
@click.option("--param", "params", multiple=True, required=True, metavar="NAME=VALUES",
              help="A parameter and its values: 2,3,4 or 1..3 or 2..10..2 (repeatable).")
@click.option("--players", "-p", "players_text", default=None, metavar="N[,N|..N]",
              help="Player counts (default: every count the game allows).")
@games_option(200, "Games per combination and player count.")
@seed_option("Seed: every combination plays the same seeds.")
@click.option("--score", default=None, metavar="COUNTER[+COUNTER]", help="A per-player counter measuring standing (overrides the rule file's 'score' line).")
@click.option("--target-length", default=None, metavar="LO-HI", help="Wanted mean length (rounds; decisions with --length-in decisions).")
@click.option("--length-in", type=click.Choice(["rounds", "decisions"]), default="rounds", show_default=True,
              help="What --target-length counts.")
@click.option("--target-balance", type=click.FloatRange(0, 1), default=None, help="Wanted balance, at least.")
@click.option("--target-dead-ends", type=click.FloatRange(0, 1), default=None, help="Wanted share of dead-end games, at most.")
@output_option("Where to write, without suffix (default: GAME-sweep); without it a table is printed.")
@json_option("Print the JSON instead of a table.")
@lang_option()
@agents_option()
@progress_option
@_scale_options
def sweep(file, variants, params, players_text, games, seed, score, target_length, length_in, target_balance,
          target_dead_ends, output, as_json, lang, agent_spec, show_progress, workers, scheduler):
    from ..agents import parse_agents
    from ..analyses import sweep as sweep_mod
    rules, _ = _load_or_exit(file, variants)
    if output:
        _writable_set_or_exit(_base(output, ""))
    counts = _player_counts(rules, players_text)
    try:
        parsed = [sweep_mod.parse_param(p, rules) for p in params]
        if len({n for n, _ in parsed}) < len(parsed):
            raise sweep_mod.SweepError("a parameter is given twice")
        combos = sweep_mod.combinations(parsed)
        length = None
        if target_length:
            lo, _, hi = target_length.partition("-")
            try:
                length = (float(lo), float(hi))
            except ValueError:
                raise sweep_mod.SweepError(f"--target-length '{target_length}': write LO-HI, e.g. 10-20") from None
    except sweep_mod.SweepError as e:
        _fail(str(e), 2)
    target = None
    if length or target_balance is not None or target_dead_ends is not None:
        target = sweep_mod.Target(length, length_in, target_balance, target_dead_ends)
    scorer = _scorer_or_exit(rules, score, counts)
    for n in counts if agent_spec else ():
        agents_or_exit(agent_spec, n)
    try:
        with pool_or_exit(workers, scheduler) as pool, \
                followed(games * len(counts) * len(combos), f"sweep {rules.game.name}", show_progress) as bar:
            data = sweep_mod.run(rules, parsed, counts, games, seed, (score, scorer) if score else None, bar, target,
                                 agents=(lambda n: parse_agents(agent_spec, n)) if agent_spec else None, pool=pool)
    except sweep_mod.SweepError as e:
        _fail(str(e))
    if output:
        _write(_base(output, ""), [json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                                   sweep_mod.render_csv(data), sweep_mod.render_html(data, lang)])
    elif as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True))
    else:
        _print_sweep(rules.game.name, data, [n for n, _ in parsed], target, lang)
    if "partial" in data:
        exit_stopped(f"after {len(data['rows'])} of {data['rows_asked']} rows: the last row's figures are of "
                     f"the games it played")


def _print_sweep(name, data, names, target, lang):
    games, seed = data["games"], data["seed"]
    order = data["ranking"] if data["ranking"] is not None else range(len(data["rows"]))
    click.echo(say(lang, f"{name}: {games} games per combination, seed {seed} (the same seeds for every combination)",
                   f"{name}: 組み合わせごとに{games}ゲーム、シード{seed}（どの組み合わせも同じシード）"))
    if "partial" in data:
        from ..analyses.sweep import partial_line
        click.echo(partial_line(data, lang))
    columns = [("players", "人数", 8, lambda r: f"{r['players']}"),
               ("done", "完了", 8, lambda r: f"{r['figures']['completion']:.1%}"),
               ("dead ends", "行き止まり", 11, lambda r: f"{r['figures']['dead_ends']:.1%}"),
               ("balance", "均衡", 8, lambda r: f"{r['figures']['balance']:.3f}"),
               ("rounds", "ラウンド", 10, lambda r: f"{r['figures']['mean_rounds']:.1f}"),
               ("decisions", "判断数", 10, lambda r: f"{r['figures']['mean_decisions']:.1f}")]
    if not any(r["figures"]["mean_rounds"] for r in data["rows"]):
        columns = [c for c in columns if c[0] != "rounds"]       # a game without rounds has none to show
    head = "".join(f"{n:>8}" for n in names) + "".join(pad(say(lang, en, ja), w, right=True) for en, ja, w, _ in columns)
    click.echo(head + (say(lang, "  target", "  目標") if target else ""))
    for i in order:
        r = data["rows"][i]
        line = "".join(f"{r['values'][n]:>8}" for n in names) + "".join(f"{cell(r):>{w}}" for _, _, w, cell in columns)
        if target:
            line += "  " + (say(lang, "meets it", "達成") if not r["misses"] else "; ".join(target.misses(r["figures"], lang)))
        click.echo(line)


@main.command(help="""Restricted play: ban options (or cards) for some seats and show how the
win rates move against unrestricted play with the same seeds, with 95% intervals and
Fisher's exact test (Holm-Bonferroni across the figures). Without --ban, every option
seen in unrestricted play is banned in turn, for every seat, to find dominant or
useless options.

\b
Examples:
  playtest restrict games/GAME.rules --players 3 --ban 'voting: stake' --ban-seat 1
  playtest restrict games/GAME.rules --players 3 -n 300""")
@click.argument("file", type=RULE_FILE)
@_variant_option
@players_option
@games_option(500, "Games per trial.")
@seed_option("Seed: every trial plays the same seeds as unrestricted play.")
@click.option("--ban", "bans", multiple=True, metavar="OPTION", help="The option, option name or card to ban (repeatable).")
@click.option("--ban-seat", "ban_seats", multiple=True, type=int, help="The seat (from 1) the ban applies to (default every seat).")
@json_option()
@_scale_options
def restrict(file, variants, players, games, seed, bans, ban_seats, as_json, workers, scheduler):
    from ..analyses.simulate import Restriction
    from ..analyses import stats
    rules, _ = _load_or_exit(file, variants)
    game = _game_or_exit(rules, players)
    players = game.n
    with pool_or_exit(workers, scheduler) as pool:
        base = simulate_or_exit(game, games, seed, "unrestricted", pool=pool)
        seen = [o["option"] for o in base.to_json()["metrics"]["options"]]
        if bans:
            names = set(seen) | {s.split(": ", 1)[-1] for s in seen} | set(game.piece_label)
            unknown = [b for b in bans if b not in names]
            if unknown:
                from ..language.diagnostics import did_you_mean
                hint = did_you_mean(unknown[0], names)
                _fail(f"--ban {unknown[0]}: no such option or card in {games} games (options seen: "
                      f"{', '.join(seen)})" + (f"; {hint}" if hint else ""), 2)
            trials = [tuple(bans)]
        else:
            trials = [(o,) for o in seen]
        restriction_or_exit(("x",), ban_seats, players)
        rows = []
        for banned in trials:
            r = Restriction(banned, tuple(s - 1 for s in ban_seats))
            summary = simulate_or_exit(game, games, seed, f"banning {', '.join(banned)}", restriction=r,
                                       pool=pool)
            compared = stats.compare(stats.summary_metrics(base), stats.summary_metrics(summary))
            rows.append({"banned": list(banned), "seats": list(ban_seats) or "every seat",
                         "metrics": [c for c in compared if c["metric"].startswith(("win rate", "draws", "dead-end"))]})
    result = {"game": rules.game.name, "players": players, "games": games, "seed": seed, "trials": rows}
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True))
        return
    click.echo(f"{rules.game.name}: {games} games per trial, {players} players, seed {seed}; "
               f"banned for {'seat ' + ', '.join(map(str, ban_seats)) if ban_seats else 'every seat'}")
    click.echo("(* = significant at 5% after Holm-Bonferroni; an option nobody can avoid is still taken)")
    for t in rows:
        click.echo("")
        click.echo(f"  without {', '.join(t['banned'])}:")
        for m in t["metrics"]:
            mark = " *" if m["significant"] else ""
            click.echo(f"    {m['metric']:<28} {m['a']['value']:>7.3f} -> {m['b']['value']:<7.3f} "
                       f"({m['b']['ci95'][0]:.3f}-{m['b']['ci95'][1]:.3f})  p {p_value(m['p_value'])}{mark}")
