"""The `playtest` command line."""
from __future__ import annotations

import json
import os
import sys

import click

from .language.diagnostics import RuleFileError
from .engine import Game, RuleError
from .loader import load
from .language.syntax import Component
from .analyses import replay as replay_mod
from .analyses.simulate import simulate as run_simulation

_HELP = """playtest: find what is broken in a game's rules before your friends do.

\b
A game is one rule file (see games/*.rules and docs/language.md).
  playtest check games/GAME.rules                  report mistakes and open questions
  playtest simulate games/GAME.rules --players 4   play random games, show balance
  playtest replay out/dead-ends/x.json --lang ja    narrate a saved game

\b
Variants (variants/*.rules) patch a game; stack them with --variant:
  playtest variants games/GAME.rules               list the variants of a game
  playtest simulate games/GAME.rules -v variants/FIX.rules -p 4
  playtest diff games/GAME.rules variants/FIX.rules --simulate 2000 -p 4

\b
Hunting dead ends:
  playtest fuzz games/GAME.rules --players 2 --max-time 30   search, shrink, save replays
  playtest explore games/GAME.rules --players 2              every state of a small game
"""


def _fail(message: str, code: int = 1):
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def _variant_option(f):
    return click.option("--variant", "-v", "variants", multiple=True, type=click.Path(),
                        help="A variant file to apply (repeat to stack them, in order).")(f)


def _load_or_exit(path: str, variants=()):
    try:
        return load(path, variants)
    except RuleFileError as e:
        _echo_errors(e, path + "".join(f" + {v}" for v in variants))


def _game_or_exit(rules, players: int) -> Game:
    g = rules.game
    if not g.min_players <= players <= g.max_players:
        _fail(f"{g.name} is for {g.min_players} to {g.max_players} players, not {players}"
              f" (use --players {g.min_players}..{g.max_players})", 2)
    try:
        return Game(rules, players)
    except RuleError as e:
        span = e.span
        where = f"{rules.path}:{span.line}:{span.column}: " if span else f"{rules.path}: "
        _fail(f"{where}{e.message}")


def _run_simulation(game, games, seed, label):
    if sys.stderr.isatty() and games >= 200:
        with click.progressbar(length=games, label=label, file=sys.stderr) as bar:
            return run_simulation(game, games, seed, progress=bar.update)
    return run_simulation(game, games, seed)


def _echo_errors(e: RuleFileError, label: str = ""):
    """Print every diagnostic with its source line, then a count for `label`, and exit 1."""
    for d in e.diagnostics:
        click.echo(d.format(e.source_for(d.path)), err=True)
    if label:
        errors = sum(1 for d in e.diagnostics if d.severity == "error")
        click.echo(f"{label}: {errors} error{'s' if errors != 1 else ''}", err=True)
    sys.exit(1)


@click.group(help=_HELP)
@click.version_option(package_name="playtest")
def main():
    pass


@main.command(help="""Check rule files: errors (exit 1), warnings, and the open questions the rules leave.

\b
A variant file is checked applied to its game:
  playtest check variants/VARIANT.rules
  playtest check games/GAME.rules --variant variants/A.rules --variant variants/B.rules""")
@click.argument("files", nargs=-1, required=True, type=click.Path())
@_variant_option
@click.option("--json", "as_json", is_flag=True, help="Print the diagnostics as JSON.")
def check(files, variants, as_json):
    status = 0
    report = []
    for path in files:
        try:
            rules, diags = load(path, variants)
            source = lambda d, rules=rules: rules.source_of(d.span)
        except RuleFileError as e:
            diags, source = e.diagnostics, lambda d, e=e: e.source_for(d.path)
        errors = [d for d in diags if d.severity == "error"]
        warnings = [d for d in diags if d.severity == "warning"]
        if errors:
            status = 1
        if as_json:
            report.append({"file": path, "errors": len(errors), "warnings": len(warnings),
                           "diagnostics": [d.to_json() for d in diags]})
            continue
        for d in diags:
            click.echo(d.format(source(d)), err=bool(errors))
        verdict = click.style("ok", fg="green") if not errors else click.style("failed", fg="red")
        click.echo(f"{path}: {verdict} ({len(errors)} error{'s' if len(errors) != 1 else ''}, "
                   f"{len(warnings)} warning{'s' if len(warnings) != 1 else ''})", err=bool(errors))
    if as_json:
        click.echo(json.dumps(report, ensure_ascii=False, indent=1))
    sys.exit(status)


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


@main.command(help="""Replay a saved game step by step, narrated in English or Japanese.

\b
Replay files are written by `simulate --save-dead-ends DIR`.""")
@click.argument("file", type=click.Path())
@click.option("--lang", type=click.Choice(["en", "ja"]), default="en", show_default=True)
@click.option("--rules", "rules_path", type=click.Path(), default=None,
              help="Rule file to use instead of the one named in the replay.")
@_variant_option
def replay(file, lang, rules_path, variants):
    from .printing.narrate import Narrator
    try:
        rep = replay_mod.load(file)
    except replay_mod.ReplayError as e:
        _fail(str(e))
    rules, _ = _load_or_exit(rules_path or rep.rules, variants or rep.variants)
    game = _game_or_exit(rules, rep.players)
    try:
        state = replay_mod.run(game, rep.actions, log=True)
    except replay_mod.ReplayError as e:
        _fail(f"{file}: {e}")
    narrator = Narrator(game, lang)
    if rep.note:
        click.echo(f"# {rep.note}")
    for line in narrator.tell(state.log):
        click.echo(line)
    if not state.is_terminal():
        click.echo("(the replay stops before the game ends)")
    click.echo(f"state {state.digest()}")


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
@click.argument("a", type=click.Path())
@click.argument("b", type=click.Path(), required=False)
@click.option("--a-variant", "a_variants", multiple=True, type=click.Path(), help="A variant for side A (repeatable).")
@click.option("--b-variant", "b_variants", multiple=True, type=click.Path(), help="A variant for side B (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["text", "html", "json"]), default="text", show_default=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, help="Write to this file instead of the terminal.")
@click.option("--simulate", "n_games", type=click.IntRange(1), default=None, help="Also compare N random games per side.")
@click.option("--players", "-p", type=int, default=None, help="Players for --simulate.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed for --simulate.")
def diff(a, b, a_variants, b_variants, fmt, output, n_games, players, seed):
    from .variants import diff as diff_mod, overlay
    from .analyses import stats
    from .language.parser import parse_file
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
        if players is None:
            _fail("--simulate needs --players", 2)
        summaries = []
        for side, rules in (("A", left), ("B", right)):
            game = _game_or_exit(rules, players)
            summaries.append(_run_simulation(game, n_games, seed, f"simulating {side}"))
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
        replay_mod.write_atomic(output, text)
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


@main.command(help="""Hunt for dead ends: drive the game with Hypothesis and shrink each finding to a minimal game.

Every player choice and chance outcome is drawn from Hypothesis data, so a failing game
shrinks to the shortest one that still fails. Finds situations no rule covers, actors
with no legal move, draws from too small a zone, counters past their bounds, games that
do not end within the step bound, components that are not conserved, and the rules,
steps and branches never reached in the whole run.

\b
Examples:
  playtest fuzz games/GAME.rules --players 2 --max-time 30 --seed 1
  playtest fuzz games/GAME.rules -v variants/FIX.rules -p 4 --max-examples 2000 --json
  playtest fuzz games/GAME.rules -p 3 --save-replays out/findings   (then: playtest replay FILE)""")
@click.argument("file", type=click.Path())
@_variant_option
@click.option("--players", "-p", type=int, required=True, help="Number of players.")
@click.option("--max-examples", type=click.IntRange(1), default=None, help="Games to generate (default 1000 if no --max-time).")
@click.option("--max-time", type=click.FloatRange(0.1), default=None, help="Seconds to spend, at most (the report gives the games run, to repeat it with --max-examples).")
@click.option("--seed", type=int, default=1, show_default=True, help="The same seed and --max-examples give the same report.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--save-replays", type=click.Path(file_okay=False), default=None, help="Folder for one minimal replay file per finding.")
def fuzz(file, variants, players, max_examples, max_time, seed, as_json, save_replays):
    from .analyses.fuzz import fuzz as run_fuzz
    rules, _ = _load_or_exit(file, variants)
    game = _game_or_exit(rules, players)
    with _progress(f"fuzzing {rules.game.name}") as progress:
        report = run_fuzz(game, max_examples=max_examples, max_time=max_time, seed=seed, progress=progress)
    saved = []
    if save_replays:
        for f in report.findings:
            name = f"{rules.game.name}-p{players}-seed{seed}-{f.rule}-{f.kind}.json".replace(" ", "_")
            path = os.path.join(save_replays, name)
            replay_mod.save(report.replay_of(f, variants=list(variants)), path)
            saved.append(path)
    _print_report(report.to_json(), report.format_text(), saved, as_json)


@main.command(help="""Search every state of a small configuration: a finished run with no dead end is a proof.

States are deduplicated, every chance outcome is followed, and each dead end is reported
with its shortest game. Use it on small configurations (fewer dice, a smaller deck: set
them with a variant that changes parameters).

\b
Example:
  playtest explore games/GAME.rules --players 2
  playtest explore games/GAME.rules -v variants/SMALL.rules -p 2 --max-states 200000 --json""")
@click.argument("file", type=click.Path())
@_variant_option
@click.option("--players", "-p", type=int, required=True, help="Number of players.")
@click.option("--max-states", type=click.IntRange(1), default=None, help="Stop after this many distinct states.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--save-replays", type=click.Path(file_okay=False), default=None, help="Folder for the shortest game of each dead end.")
def explore(file, variants, players, max_states, as_json, save_replays):
    from .analyses.explore import explore as run_explore
    rules, _ = _load_or_exit(file, variants)
    game = _game_or_exit(rules, players)
    with _progress(f"exploring {rules.game.name}") as progress:
        report = run_explore(game, max_states=max_states, progress=progress)
    data = report.to_json()
    saved = []
    if save_replays:
        for d in data["dead_ends"]:
            name = f"{rules.game.name}-p{players}-explore-{d['rule']}-{d['kind']}.json".replace(" ", "_")
            path = os.path.join(save_replays, name)
            replay_mod.save(replay_mod.Replay(file, list(variants), players, 0, 0, d["shortest"]["actions"],
                                              note=f"explore: {d['kind']} in {d['rule']} ({d['where']})"), path)
            saved.append(path)
    _print_report(data, report.format_text(), saved, as_json)


def _print_report(data: dict, text: str, saved: list, as_json: bool):
    if as_json:
        if saved:
            data["saved"] = saved
        click.echo(json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True))
        return
    click.echo(text)
    for path in saved:
        click.echo(f"  saved {path}   (playtest replay {path})")


class _progress:
    """A one-line progress report on a terminal (phase and count); nothing when piped."""

    def __init__(self, label):
        self.label = label
        self.on = sys.stderr.isatty()
        self.last = 0.0

    def __enter__(self):
        return self.update if self.on else None

    def update(self, phase, done, total=None):
        import time
        now = time.monotonic()
        if now - self.last < 0.2:
            return
        self.last = now
        of = f" of {total:,}" if total else ""
        click.echo(f"\r{self.label}: {phase} {done:,}{of}\033[K", nl=False, err=True)

    def __exit__(self, *exc):
        if self.on:
            click.echo("\r\033[K", nl=False, err=True)
        return False


@main.command(name="variants", help="""List the variants that apply to a game, with why each exists.

\b
Looks in the variants/ folder beside the game's folder (or --folder).
  playtest variants games/GAME.rules""")
@click.argument("file", type=click.Path())
@click.option("--folder", type=click.Path(file_okay=False), default=None, help="Where the variant files are.")
@click.option("--lang", type=click.Choice(["en", "ja"]), default="en", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a list.")
def list_variants(file, folder, lang, as_json):
    from .variants import overlay
    from .language.parser import parse_file
    from .language.syntax import text_of
    try:
        game = parse_file(file)
    except RuleFileError as e:
        _echo_errors(e)
    if game.game is None:
        _fail(f"{file}: not a game file (it has no 'game' line)")
    folder = folder or os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(file))), "variants")
    found = []
    for path in overlay.variant_files(folder):
        try:
            v = parse_file(path)
        except RuleFileError:
            found.append({"file": os.path.relpath(path), "name": None, "error": "does not parse (run playtest check on it)"})
            continue
        h = overlay.head(v)
        if h is None or h.game != game.game.name:
            continue
        found.append({"file": os.path.relpath(path), "name": h.name,
                      "title": {l: text_of(h.texts, "title", l) for l in ("en", "ja")},
                      "why": {l: text_of(h.texts, "why", l) for l in ("en", "ja")},
                      "builds_on": list(h.builds_on)})
    if as_json:
        click.echo(json.dumps(found, ensure_ascii=False, indent=1))
        return
    if not found:
        click.echo(f"no variants of {game.game.name} in {os.path.relpath(folder)}/")
        return
    click.echo(f"variants of {game.game.name} in {os.path.relpath(folder)}/:")
    for f in found:
        if f["name"] is None:
            click.echo(f"  {f['file']}: {f['error']}")
            continue
        title = f["title"][lang] or f["title"]["en"] or f["name"]
        click.echo("")
        click.echo(f"  {click.style(title, bold=True)}  {f['file']}")
        why = f["why"][lang] or f["why"]["en"]
        if why:
            click.echo(f"    {why}")
        if f["builds_on"]:
            click.echo(f"    builds on: {', '.join(f['builds_on'])}")


_PRINTED = {
    "book": """Write the rulebook of a game: overview, components with the counts the rules imply,
setup and play as numbered steps, every choice, the rules in detail, how the game ends,
and what is not yet decided (open questions and provisional numbers, flagged).

\b
With --variant, the first page lists the variants and every changed part is marked.
  playtest book games/GAME.rules --lang ja --format pdf -o GAME-ja.pdf
  playtest book games/GAME.rules -v variants/VARIANT.rules -o VARIANT.html""",
    "sheet": """Write a one-page how-to-play summary: the turn as steps, what each player may
choose, how the game ends, and how many points are not yet decided.

\b
  playtest sheet games/GAME.rules --lang ja --format pdf -o GAME-sheet.pdf""",
    "cards": """Write print-and-play sheets of every card the game's deck tables define:
63 x 88 mm, nine to a page, with cut marks, showing each card's attributes.

\b
  playtest cards games/GAME.rules --players 4 --format pdf -o GAME-cards.pdf""",
}


def _printed(kind: str):
    def command(file, variants, lang, fmt, output, paper, players=None):
        from .printing import book
        from .analyses.replay import write_atomic
        fmt = fmt or (os.path.splitext(output)[1].lstrip(".").lower() if output else "html")
        if fmt not in book.FORMATS:
            _fail(f"cannot tell the format from '{output}': use --format html, pdf or typ")
        if fmt == "pdf" and not output:
            _fail("a PDF needs a file: add -o PATH")
        rules, _ = _load_or_exit(file, variants)
        base = _load_or_exit(rules.path)[0] if rules.variants else None
        if kind == "cards":
            if not any(c.kind == "deck" for c in rules.of(Component)):
                _fail(f"{file} defines no deck, so it has no cards to print")
            if players is not None:
                _game_or_exit(rules, players)
        try:
            data = book.make(kind, fmt, rules, lang, base, paper, players)
        except RuleError as e:
            _fail(f"{file}: {e}")
        except Exception as e:      # typst reports its own errors; they would be ours, not the user's
            _fail(f"could not typeset the {kind}: {e}")
        if output:
            write_atomic(output, data)
            click.echo(f"wrote {output}", err=True)
        else:
            click.echo(data, nl=False)

    command.__name__ = kind
    command = click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
                           help="Page size.")(command)
    command = click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
                           help="Write here (all or nothing). Without it, HTML or Typst goes to the terminal.")(command)
    command = click.option("--format", "fmt", type=click.Choice(["html", "pdf", "typ"]), default=None,
                           help="html (print CSS), pdf (typeset with typst) or typ (the Typst source). "
                                "Default: from -o's extension, else html.")(command)
    command = click.option("--lang", type=click.Choice(["en", "ja"]), default="en", show_default=True)(command)
    if kind == "cards":
        command = click.option("--players", "-p", type=int, default=None,
                               help="Print the cards for this many players (default: the most the game allows).")(command)
    command = _variant_option(command)
    command = click.argument("file", type=click.Path())(command)
    return main.command(kind, help=_PRINTED[kind])(command)


for _kind in _PRINTED:
    _printed(_kind)


if __name__ == "__main__":
    main()
