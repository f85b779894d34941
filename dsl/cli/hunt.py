"""fuzz and explore: hunt for dead ends."""
from __future__ import annotations

import contextlib
import json
import math
import sys

import click

from .common import (main, players_option, _variant_option, _load_or_exit, _game_or_exit, _scale_options, pool_or_exit,
                     save_replay_or_exit, writable_or_exit)
from ..analyses.bounds import MAX_SECONDS, MAX_STATES
from .common import GAMES, RULE_FILE
from .options import alias, exit_if_crossed, fail_on_option, games_option, json_option, save_replays_option, seed_option


@main.command(help="""Hunt for dead ends: drive the game with Hypothesis and shrink each finding to a minimal game.

Every player choice and chance outcome is drawn from Hypothesis data, so a failing game
shrinks to the shortest one that still fails. Finds situations no rule covers, actors
with no legal move, draws from too small a zone, counters past their bounds, games that
do not end within the step bound, components that are not conserved, and the rules,
steps and branches never reached in the whole run.

\b
Examples:
  playtest fuzz games/GAME.rules --players 2 --max-time 30 --seed 1
  playtest fuzz games/GAME.rules -v variants/FIX.rules -p 4 -n 2000 --json
  playtest fuzz games/GAME.rules -p 3 --save-replays out/findings   (then: playtest replay FILE)
  playtest fuzz games/GAME.rules -p 4 -n 20000 --workers 4
  playtest fuzz games/GAME.rules -p 2 -n 500 --fail-on dead-ends,timeouts   (exit 3 on a finding)

With --workers or --scheduler the search for findings runs in batches of 100 games across
the workers (the same batches, so the same report), and two findings or more are shrunk
across the workers, a task each.""")
@click.argument("file", type=RULE_FILE)
@_variant_option
@players_option
@games_option(None, "Games to generate (default 1000 without --max-time).")
@alias("--max-examples", to="games", type=GAMES)
@click.option("--max-time", type=click.FloatRange(0.1), default=None, callback=lambda ctx, param, v: _finite(v), help="Seconds to spend, at most (the report gives the games run, to repeat it with -n).")
@seed_option("The same seed and -n give the same report.")
@json_option("Print the report as JSON.")
@save_replays_option("Folder for one minimal replay file per finding.")
@fail_on_option("dead-ends", "timeouts")
@_scale_options
def fuzz(file, variants, players, games, max_time, seed, as_json, save_replays, fail_on, workers, scheduler):
    from ..analyses.fuzz import fuzz as run_fuzz
    rules, _ = _load_or_exit(file, variants)
    game = _game_or_exit(rules, players)
    players = game.n
    if save_replays:
        writable_or_exit(save_replays, "--save-replays", folder=True)
    with _interrupted_exits("fuzz", "fewer games with -n, or --max-time"), pool_or_exit(workers, scheduler) as pool, \
            _progress(f"fuzzing {rules.game.name}") as progress:
        report = run_fuzz(game, max_examples=games, max_time=max_time, seed=seed, progress=progress,
                          pool=pool)
    saved = []
    if save_replays:
        for f in report.findings:
            saved.append(save_replay_or_exit(report.replay_of(f, rules=file, variants=list(variants)), game,
                                             save_replays, f"p{players}", f"seed{seed}", f.rule, f.kind))
    _print_report(report.to_json(), report.format_text(), saved, as_json)
    named = lambda found: found and (f"{len(found)} finding{'s' if len(found) != 1 else ''}: "
                                     + ", ".join(f"{f.kind} in {f.rule}" for f in found))
    from ..analyses.fuzz_findings import FOREVER
    endless = ("step limit", FOREVER)
    exit_if_crossed(fail_on, {"dead-ends": named([f for f in report.findings if f.kind not in endless]),
                              "timeouts": named([f for f in report.findings if f.kind in endless])})


@main.command(help="""Search every state of a small configuration: a finished run with no dead end is a proof.

States are deduplicated, every chance outcome is followed, and each dead end is reported
with its shortest game; a game that can return to a state it has been in, and so go on for
ever, is reported with the shortest history that does. Use it on small configurations (fewer dice, a smaller deck: set
them with a variant that changes parameters).

\b
Example:
  playtest explore games/GAME.rules --players 2
  playtest explore games/GAME.rules -v variants/SMALL.rules -p 2 --max-states 200000 --json""")
@click.argument("file", type=RULE_FILE)
@_variant_option
@players_option
@click.option("--max-states", type=click.IntRange(1, MAX_STATES), default=None, help="Stop after this many distinct states.")
@json_option("Print the report as JSON.")
@save_replays_option("Folder for the shortest game of each dead end, and for the shortest history that returns to a state already seen.")
def explore(file, variants, players, max_states, as_json, save_replays):
    from ..analyses import replay as replay_mod
    from ..analyses.explore import explore as run_explore
    rules, _ = _load_or_exit(file, variants)
    game = _game_or_exit(rules, players)
    players = game.n
    if save_replays:
        writable_or_exit(save_replays, "--save-replays", folder=True)
    with _interrupted_exits("explore", "a smaller configuration, or --max-states"), _progress(f"exploring {rules.game.name}") as progress:
        report = run_explore(game, max_states=max_states, progress=progress)
    data = report.to_json()
    saved = []
    if save_replays:
        for d in data["dead_ends"]:
            rep = replay_mod.Replay(file, list(variants), players, 0, 0, d["shortest"]["actions"],
                                    note=f"explore: {d['kind']} in {d['rule']} ({d['where']})")
            saved.append(save_replay_or_exit(rep, game, save_replays, f"p{players}", "explore", d["rule"], d["kind"]))
        f = data["forever"]
        if f is not None:
            rep = replay_mod.Replay(file, list(variants), players, 0, 0, f["actions"],
                                    note=f"explore: the game can go on forever (after {f['length']} actions "
                                         f"play is back in the state it was in after {f['returns_after']})")
            saved.append(save_replay_or_exit(rep, game, save_replays, f"p{players}", "explore", "forever"))
    _print_report(data, report.format_text(), saved, as_json)


@contextlib.contextmanager
def _interrupted_exits(command: str, shorter: str):
    """Ctrl-C ends the command with the shell's status for it (130, as the long runs stopped
    early), saying so, never as a finished run: every one is kept (batches.interrupts_kept),
    even one Python drops in a garbage collector's callback or Hypothesis catches. The search
    is not cut at a clean point, so there is no partial report."""
    from ..analyses.batches import interrupts_kept
    from .progress import STOPPED
    try:
        with interrupts_kept():
            yield
    except KeyboardInterrupt:
        click.echo(f"\nstopped (Ctrl-C): {command} was interrupted and reports nothing "
                   f"(for a shorter run: {shorter})", err=True)
        sys.exit(STOPPED)


def _finite(seconds):
    # nan passes FloatRange (every comparison with it is false) and would never stop the search
    if seconds is not None and not math.isfinite(seconds):
        raise click.BadParameter(f"{seconds} is not a number of seconds")
    if seconds is not None and seconds > MAX_SECONDS:
        raise click.BadParameter(f"{seconds:g} seconds is more than a week ({MAX_SECONDS:,} seconds)")
    return seconds


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
        self.phase = None

    def __enter__(self):
        return self.update if self.on else None

    def update(self, phase, done, total=None):
        import time
        now = time.monotonic()
        if now - self.last < 0.2 and phase == self.phase:
            return
        self.last, self.phase = now, phase
        of = f" of {total:,}" if total else ""
        click.echo(f"\r{self.label}: {phase} {done:,}{of}\033[K", nl=False, err=True)

    def __exit__(self, *exc):
        if self.on:
            click.echo("\r\033[K", nl=False, err=True)
        return False
