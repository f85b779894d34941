"""diff: what changed between two rule sets, in the rules and in play."""
from __future__ import annotations

import json

import click

from .common import (main, players_option, _fail, _load_or_exit, _game_or_exit, _echo_errors, _scale_options, pool_or_exit,
                     writable_or_exit, write_or_exit)
from .common import GAMES, RULE_FILE
from .options import (agents_option, alias, games_option, json_option, lang_option, output_option, pad, say,
                      seed_option)
from .progress import exit_stopped, progress_option, stoppable_run
from .simulate import agents_or_exit, simulate_or_exit


@main.command(help="""Show what changed between two rule sets: in the rules, and (with -n) in play.

\b
Each side is a game with its variants. B may be a variant file: it is taken with its own game.
  playtest diff games/GAME.rules variants/VARIANT.rules
  playtest diff variants/VARIANT.rules                      (the variant against its game)
  playtest diff games/GAME.rules --a-variant variants/X.rules --b-variant variants/Y.rules
  playtest diff games/GAME.rules variants/V.rules -n 2000 --players 4 --seed 1
  playtest diff games/GAME.rules variants/V.rules --format html -o diff.html

\b
With -n N both sides play N random games with the same seed; each figure that
`simulate` reports is shown on both sides with a 95% confidence interval, a test of the
difference (Fisher's exact test for rates, Welch's t-test for means) and whether it is
significant at 5% after the Holm-Bonferroni correction across all figures. Ctrl-C stops
the games at the next whole one: the figures compare the games each side played, marked
partial ("partial": true in the JSON); exit status 130.""")
@click.argument("a", type=RULE_FILE)
@click.argument("b", type=RULE_FILE, required=False)
@click.option("--a-variant", "a_variants", multiple=True, type=RULE_FILE, help="A variant for side A (repeatable).")
@click.option("--b-variant", "b_variants", multiple=True, type=RULE_FILE, help="A variant for side B (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["text", "html", "json"]), default="text", show_default=True,
              metavar="[text|html]", help="text for the terminal, or an html page (JSON: --json).")
@json_option("Print one JSON object instead of text.")
@alias("--simulate", to="games", type=GAMES)
@output_option("Write to this file instead of the terminal.")
@games_option(None, "Also play N random games per side and compare them.")
@players_option
@seed_option("Seed for the games of -n: both sides play the same seeds.")
@agents_option("Who plays each seat in the games of -n (default random): flat:N or ismcts:N, one spec or one per seat.")
@lang_option("Language of the text or the page: en or ja.")
@progress_option
@_scale_options
def diff(a, b, a_variants, b_variants, fmt, as_json, output, games, players, seed, agent_spec, lang, show_progress,
         workers, scheduler):
    from ..language.diagnostics import RuleFileError
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
    fmt = "json" if as_json else fmt
    if games:
        first = _game_or_exit(left, players)
        players = first.n
        sides = [first, _game_or_exit(right, players)]
        agents = agents_or_exit(agent_spec, players)
        from ..analyses.batches import until_stopped
        with pool_or_exit(workers, scheduler) as pool, stoppable_run():
            summaries, stopped = until_stopped(
                zip("AB", sides), lambda side: simulate_or_exit(side[1], games, seed, f"simulating {side[0]}",
                                                                agents=agents, pool=pool, show_progress=show_progress),
                lambda summary: summary.partial)
        behaviour = {"games": games, "players": players, "seed": seed,
                     "metrics": stats.compare(*(stats.summary_metrics(s) for s in summaries))
                     if len(summaries) == 2 else []}
        if stopped:
            played = [s.games for s in summaries] + [0]
            behaviour.update(partial=True, games_played={"A": played[0], "B": played[1]})
    if fmt == "json":
        result = diff_mod.to_json(left, right, changes)
        if behaviour:
            result["behaviour"] = behaviour
        text = json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    elif fmt == "html":
        text = diff_mod.format_html(left, right, changes, behaviour, lang)
    else:
        style = click.style if output is None else (lambda s, **k: s)
        lines = diff_mod.format_text(left, right, changes, style, lang)
        if behaviour:
            lines += [""] + _behaviour_lines(behaviour, lang)
        text = "\n".join(lines) + "\n"
    if output:
        write_or_exit(output, text)
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo(text, nl=False)
    if behaviour and "partial" in behaviour:
        exit_stopped("during the games: the figures compare the games each side played")


def _behaviour_lines(b, lang) -> list[str]:
    from ..variants.diff import metric_name, stopped_line
    lines = [say(lang, f"In play: {b['games']} random games per side, {b['players']} players, seed {b['seed']}",
                 f"プレイ: 各側{b['games']}ゲーム（ランダム）、{b['players']}人、シード{b['seed']}")]
    if "partial" in b:
        lines.append(stopped_line(b, lang))
    if not b["metrics"]:
        return lines
    lines += [say(lang, "(95% intervals; Fisher's exact test for rates, Welch's t-test for means; "
                        "* = significant at 5% after Holm-Bonferroni)",
                  "（95%区間。率はFisherの正確検定、平均はWelchのt検定。* = Holm-Bonferroni補正後に5%で有意）"),
              "", f"  {pad(say(lang, 'metric', '指標'), 44)} {'A':>8} {'A 95% CI':>17} {'B':>8} {'B 95% CI':>17} {'p':>9}"]
    for r in b["metrics"]:
        ci = lambda s: f"{s['ci95'][0]:.3f}-{s['ci95'][1]:.3f}"
        mark = " *" if r["significant"] else ""
        lines.append(f"  {pad(metric_name(r['metric'], lang)[:44], 44)} {r['a']['value']:>8} {ci(r['a']):>17} "
                     f"{r['b']['value']:>8} {ci(r['b']):>17} {p_value(r['p_value']):>9}{mark}")
    return lines


def p_value(p: float) -> str:
    """A p-value as a reader takes it: one that rounds to 0 is below the rounding, not zero."""
    return "< 0.001" if p < 0.001 else f"{p:.3f}"
