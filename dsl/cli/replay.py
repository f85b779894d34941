"""replay: narrate a saved game."""
from __future__ import annotations


import click

from ..analyses import replay as replay_mod
from .common import main, _fail, _variant_option, _load_or_exit, _game_or_exit


@main.command(help="""Replay a saved game step by step, narrated in English or Japanese.

\b
Replay files are written by `simulate --save-dead-ends DIR`.""")
@click.argument("file", type=click.Path())
@click.option("--lang", type=click.Choice(["en", "ja"]), default="en", show_default=True)
@click.option("--rules", "rules_path", type=click.Path(), default=None,
              help="Rule file to use instead of the one named in the replay.")
@_variant_option
def replay(file, lang, rules_path, variants):
    from ..printing.narrate import Narrator
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
