"""The options several commands share, spelt the same everywhere, and the old spellings.

One flag means one thing in every command: `-n` the number of games, `-p` the players, `--seed`,
`--json`, `--lang`, `-o` the output, `--agents` who plays, `--save-replays` where replay files go.
A spelling an earlier playtest used stays accepted as a hidden alias (`alias`), so scripts and
CI jobs written against it keep working; tests/test_cli_options.py holds the vocabulary.
"""
from __future__ import annotations

import functools
import sys
import unicodedata

import click

from .common import GAMES, SEED

# the exit status when a finding named by --fail-on is found (docs/ci-for-designers.md):
# 1 is already an error in the rules, 2 a bad command line
FAILED = 3


def games_option(default, help):
    return click.option("-n", "--games", "games", type=GAMES, default=default,
                        show_default=default is not None, help=help)


def seed_option(help="Seed: the same seed gives the same games."):
    return click.option("--seed", type=SEED, default=1, show_default=True, help=help)


def json_option(help="Print one JSON object instead of text."):
    return click.option("--json", "as_json", is_flag=True, help=help)


def lang_option(help="Language of the words printed: en or ja."):
    return click.option("--lang", type=click.Choice(["en", "ja"]), default="en", show_default=True, help=help)


def output_option(help):
    return click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, help=help)


def agents_option(help="Who plays each seat: random (the default), flat:N, ismcts:N, a declared strategy:NAME "
                       "or ismcts:N/NAME (its imagined games played by that strategy), one spec for every "
                       "seat or one per seat, e.g. ismcts:500,random,random.", metavar="SPEC[,SPEC...]"):
    return click.option("--agents", "agent_spec", default=None, metavar=metavar, help=help)


def save_replays_option(help):
    return click.option("--save-replays", type=click.Path(file_okay=False), default=None, help=help)


_MEANING = {"dead-ends": "a game ends in a dead end",
            "timeouts": "a game passes the step limit",
            "unbalanced": "a seat's win rate misses the fair share (corrected for the number of seats)"}


def fail_on_option(*findings):
    """--fail-on: the findings that make the command exit FAILED, so a CI job can gate on them."""
    def check(ctx, param, value):
        named = tuple(w.strip() for w in (value or "").split(",") if w.strip())
        unknown = [w for w in named if w not in findings]
        if unknown or (value is not None and not named):
            raise click.BadParameter(f"'{value}': name one or more of {', '.join(findings)}, comma-separated")
        return named
    return click.option(
        "--fail-on", "fail_on", default=None, metavar=",".join(findings), callback=check,
        help=f"Exit with status {FAILED} after the report when one of these is found: "
             + "; ".join(f"{f} ({_MEANING[f]})" for f in findings) + ". A line on stderr names what was found.")


def exit_if_crossed(fail_on, crossed: dict) -> None:
    """After the report: exit FAILED when a finding named by --fail-on was found. `crossed` maps
    each finding to the sentence saying what crossed, or to None when it did not."""
    named = [f"--fail-on {name}: {crossed[name]}" for name in fail_on if crossed.get(name)]
    if named:
        for line in named:
            click.echo(line, err=True)
        sys.exit(FAILED)


def alias(*decls, to, **attrs):
    """An old spelling of option `to`, hidden from --help, that still works: its value stands in
    for `to`'s. Both at once is a usage error, not a silent choice."""
    hidden_name = "_alias_" + decls[0].lstrip("-").replace("-", "_")

    def decorate(f):
        @functools.wraps(f)
        def command(*args, **kwargs):
            old = kwargs.pop(hidden_name)
            ctx = click.get_current_context()
            if old is not None:
                if ctx.get_parameter_source(to) not in (None, click.core.ParameterSource.DEFAULT):
                    new = next(p for p in ctx.command.params if p.name == to)
                    raise click.UsageError(f"{decls[0]} is the old spelling of {'/'.join(new.opts)}: give one of them")
                kwargs[to] = old
            return f(*args, **kwargs)
        return click.option(*decls, hidden_name, hidden=True, default=None, **attrs)(command)
    return decorate


class HiddenArgument(click.Argument):
    """An argument an old spelling took, kept working but left out of the usage line."""

    def get_usage_pieces(self, ctx):
        return []


def say(lang: str, en: str, ja: str) -> str:
    """The words of a printed line in the language asked for."""
    return ja if lang == "ja" else en


def pad(text: str, width: int, right: bool = False) -> str:
    """`text` aligned in `width` terminal columns (a Japanese character takes two)."""
    used = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    room = " " * max(0, width - used)
    return room + text if right else text + room
