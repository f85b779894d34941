"""What every command shares: the group, loading with clear errors, progress."""
from __future__ import annotations

import os
import sys
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING, Optional

import click

# Only what every command's options need is imported here: `playtest --help` and `check` start
# without the engine, the analyses, the printing and the table, each command importing its own.
from ..analyses.bounds import MAX_GAMES, MAX_ITERATIONS, MAX_SECONDS, MAX_SEED, MAX_WORKERS, MIN_SEED
from ..language.limits import MAX_FILE_CHARS

if TYPE_CHECKING:
    from ..engine import Game
    from ..language.diagnostics import RuleFileError

GAMES = click.IntRange(1, MAX_GAMES)        # every -n: a slip such as 10**20 is refused before any work
SEED = click.IntRange(MIN_SEED, MAX_SEED)
MAX_RULE_BYTES = 4 * MAX_FILE_CHARS + 3     # UTF-8 takes at most 4 bytes a character, and a BOM 3

_HELP = """playtest: find what is broken in a game's rules before your friends do.

\b
A game is one rule file (see games/*.rules, docs/language.md and docs/tutorial.md).
  playtest new my-game                             a commented starter game to grow yours from
  playtest check games/GAME.rules                  report mistakes and open questions
  playtest simulate games/GAME.rules --players 4   play random games, show balance
  playtest replay out/dead-ends/x.json --lang ja    narrate a saved game

\b
Variants (variants/*.rules) patch a game; stack them with --variant:
  playtest variants games/GAME.rules               list the variants of a game
  playtest simulate games/GAME.rules -v variants/FIX.rules -p 4
  playtest diff games/GAME.rules variants/FIX.rules -n 2000 -p 4

\b
Hunting dead ends:
  playtest fuzz games/GAME.rules --players 2 --max-time 30   search, shrink, save replays
  playtest explore games/GAME.rules --players 2              every state of a small game

\b
Balance, skill and the best parameter values:
  playtest report games/GAME.rules -o out/report           HTML report with charts
  playtest sweep games/GAME.rules --param A=1..3 -p 4      every combination, ranked
  playtest match games/GAME.rules -p 2 --agents ismcts:200,random   which is stronger
  playtest skill games/GAME.rules -p 3                     does skill matter?
  playtest strategies games/GAME.rules -p 2                the declared strategies side by side

\b
Printing (ja/en, HTML or PDF) and the editor:
  playtest book games/GAME.rules --lang ja -o book.pdf     the rulebook
  playtest sheet games/GAME.rules -o sheet.pdf             one page to play from
  playtest cards games/GAME.rules --players 4 -o cards.pdf print-and-play cards
  playtest cards games/GAME.rules --preset pod -o out/pod  a PDF a deck for a card printer
  playtest tts games/GAME.rules -o out/tts                 the game for Tabletop Simulator
  playtest lsp                                             the language server
"""


def _fail(message: str, code: int = 1):
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def writable_or_exit(path: str, option: str, folder: bool = False):
    """Refuse an output that cannot be written before any work is done, not after it: a folder
    that takes no new file, and a name where a symbolic link, FIFO, device or folder stands."""
    from .. import io_guard
    try:
        if folder:
            io_guard.check_folder(path)
        else:
            io_guard.check_output(path)
    except io_guard.Refused as e:
        _fail(f"{option} {path}: {e.strerror}", 2)
    except OSError as e:
        _fail(f"{option} {path}: cannot write there ({e.strerror or e})", 2)


class RulePath(click.Path):
    """A rule file named on the command line: what is not a regular file of a rule file's size
    (a device such as /dev/zero, a FIFO) is refused before anything reads it."""
    name = "rule file"

    def convert(self, value, param, ctx):
        value = super().convert(value, param, ctx)
        if os.path.isdir(value):
            return value            # the reader says so, with the position every rule file error has
        from .. import io_guard
        try:
            io_guard.check_input(value, MAX_RULE_BYTES, "rule file")
        except io_guard.Refused as e:
            self.fail(str(e), param, ctx)
        return value


RULE_FILE = RulePath()


def write_or_exit(path: str, data) -> None:
    """Write a whole output file, or say why it could not be written (nothing is left behind)."""
    from ..analyses.replay import write_atomic
    try:
        write_atomic(path, data)
    except OSError as e:
        _fail(f"{path}: cannot write the file ({e.strerror or e})")


def save_replay_or_exit(replay, game, folder: str, *parts) -> str:
    """Save a replay stamped with its rules and final state under a name no other run takes."""
    from ..analyses import replay as replay_mod
    try:
        return replay_mod.save_new(replay_mod.stamped(replay, game), folder,
                                   replay_mod.file_name(replay.rules, replay.variants, *parts))
    except OSError as e:
        _fail(f"{folder}: cannot save the replay ({e.strerror or e})")


def within_budget_or_exit(agents: list, option: str) -> list:
    """An agent's budget is a number on the command line too, bounded as the others are."""
    for agent in agents:
        budget = getattr(agent, "budget", None)
        if budget is not None and budget.iterations > MAX_ITERATIONS:
            _fail(f"{option}: {budget.iterations:,} iterations a decision is more than {MAX_ITERATIONS:,}", 2)
        if budget is not None and budget.seconds is not None and budget.seconds > MAX_SECONDS:
            _fail(f"{option}: {budget.seconds:g} seconds a decision is more than a week", 2)
    return agents


def _variant_option(f):
    return click.option("--variant", "-v", "variants", multiple=True, type=RULE_FILE,
                        help="A variant file to apply (repeat to stack them, in order).")(f)


class _Workers(click.ParamType):
    """A number of processes, or 'auto' (None)."""
    name = "workers"

    def convert(self, value, param, ctx):
        if value is None or isinstance(value, int):
            return value
        if str(value).strip().lower() == "auto":
            return None
        try:
            n = int(value)
        except ValueError:
            n = 0
        if n < 1:
            self.fail(f"'{value}' is neither a number of processes (1 or more) nor 'auto'", param, ctx)
        if n > MAX_WORKERS:
            self.fail(f"{n:,} processes is more than the {MAX_WORKERS} playtest starts on one machine "
                      "(for more, use a cluster: --scheduler)", param, ctx)
        return n


def _force_workers(ctx, param, value):
    ctx.meta["force_workers"] = value


def _within_cores(workers: Optional[int], scheduler) -> Optional[int]:
    """--workers past this machine's cores only slows the games (each process waits for a core),
    so it is capped at them unless --force-workers says otherwise."""
    from ..analyses.batches import usable_cores
    cores = usable_cores()
    ctx = click.get_current_context(silent=True)
    forced = ctx is not None and ctx.meta.get("force_workers")
    if workers is None or scheduler or forced or workers <= cores:
        return workers
    click.echo(f"note: --workers {workers}: this machine has {cores} core{'s' if cores != 1 else ''}, so the games "
               f"are played in {cores} processes (--force-workers starts {workers})", err=True)
    return cores


def _scale_options(f):
    """--workers and --scheduler: where the games are played (the output is the same anywhere)."""
    f = click.option("--force-workers", is_flag=True, is_eager=True, expose_value=False, callback=_force_workers,
                     help=f"Start every process --workers asks for, even past this machine's cores "
                          f"(at most {MAX_WORKERS}).")(f)
    f = click.option("--scheduler", metavar="ADDRESS", default=None,
                     help="Play the games on the Dask cluster whose scheduler is at ADDRESS, e.g. "
                          "tcp://HOST:8786 (start it with 'dask scheduler', and 'dask worker ADDRESS' on "
                          "machines with this playtest installed), in batches of 2 s to a minute of play "
                          "(a game is timed here first; fuzz: 100 games). "
                          "See docs/scale.md.")(f)
    return click.option("--workers", type=_Workers(), default="auto", show_default=True, metavar="N|auto",
                        help="Processes on this machine to play the games in (a cluster's own with "
                             "--scheduler). auto: this one, and a process per core once a run has "
                             "taken a second with more than two seconds of games left. Games are split "
                             "by their index and merged in order, so the output is byte-identical for "
                             "any number.")(f)


@contextmanager
def pool_or_exit(workers: Optional[int], scheduler):
    """The worker processes or cluster connection for one command; a bad address exits cleanly.
    Ctrl-C, an error or SIGTERM (`kill`) ends the workers with the command, not after their
    batches (Pool.__exit__); SIGTERM then ends the command as it would have."""
    from ..analyses.batches import Pool, PoolError
    from ..analyses.replay import ended_by_sigterm
    pool = Pool(_within_cores(workers, scheduler), scheduler)
    try:
        pool.__enter__()
    except PoolError as e:
        _fail(f"--scheduler: {e}", 2)
    with ended_by_sigterm(), ExitStack() as entered:
        entered.push(pool)          # its __exit__, with the exception that ends the block
        yield pool


def _load_or_exit(path: str, variants=()):
    from ..language.diagnostics import RuleFileError
    from ..loader import load
    try:
        return load(path, variants)
    except RuleFileError as e:
        _echo_errors(e, path + "".join(f" + {v}" for v in variants))


def players_option(f):
    """--players: optional where the game is for one number of players only."""
    return click.option("--players", "-p", type=int, default=None,
                        help="Number of players (may be left out when the game is for one number only).")(f)


def _game_or_exit(rules, players: Optional[int]) -> Game:
    """The game for `players` players, or for the one number the game allows when None."""
    from ..engine import RuleError, compiled
    g = rules.game
    if players is None:
        if g.min_players != g.max_players:
            _fail(f"{g.name} is for {g.min_players} to {g.max_players} players: say how many with --players N,"
                  f" e.g. --players {g.min_players}", 2)
        players = g.min_players
    if not g.min_players <= players <= g.max_players:
        _fail(f"{g.name} is for {g.min_players} to {g.max_players} players, not {players}"
              f" (use --players {g.min_players}..{g.max_players})", 2)
    try:
        return compiled(rules, players)
    except RuleError as e:
        span = e.span
        where = f"{rules.path}:{span.line}:{span.column}: " if span else f"{rules.path}: "
        _fail(f"{where}{e.message}")


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
