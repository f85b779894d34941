"""replay: narrate a saved game."""
from __future__ import annotations


import click

from ..analyses import replay as replay_mod
from ..language.diagnostics import shown
from .common import main, _fail, _variant_option, _load_or_exit, _game_or_exit
from .serve import _address_options, serve_replay


@main.command(help="""Replay a saved game step by step, narrated in English or Japanese.

\b
Replay files are written by `simulate --save-dead-ends DIR` and `fuzz`/`explore --save-replays DIR`.
If the rules changed since the replay was saved, it says which parts changed, and exits 1
when the game no longer ends in the state it was saved with.""")
@click.argument("file", type=click.Path())
@click.option("--lang", type=click.Choice(["en", "ja"]), default="en", show_default=True)
@click.option("--rules", "rules_path", type=click.Path(), default=None,
              help="Rule file to use instead of the one named in the replay.")
@_variant_option
@click.option("--serve", is_flag=True, help="Show the game step by step in the browser (any seat's view or the designer's).")
@_address_options
def replay(file, lang, rules_path, variants, serve, host, port):
    from ..printing.narrate import Narrator
    try:
        rep = replay_mod.load(file)
    except replay_mod.ReplayError as e:
        _fail(str(e))
    rules, _ = _load_or_exit(rules_path or rep.rules, variants or rep.variants)
    if rep.fingerprint is None:
        click.echo(f"note: {file} was saved without a fingerprint of its rules (by an older playtest): "
                   "it cannot tell whether the rules changed since", err=True)
    elif rep.fingerprint != replay_mod.fingerprint(rules):
        _report_changes(file, rep, rules)
    game = _game_or_exit(rules, rep.players)
    try:
        state = replay_mod.run(game, rep.actions, log=True)
    except replay_mod.ReplayError as e:
        _fail(f"{file}: {e}")
    if serve:
        return serve_replay(file, rules, rep, lang, host, port)
    narrator = Narrator(game, lang)
    if rep.note:
        click.echo(f"# {shown(rep.note)}")
    for line in narrator.tell(state.log):
        click.echo(shown(line))
    if not state.is_terminal():
        click.echo("(the replay stops before the game ends)")
    click.echo(f"state {state.digest()}")
    if rep.final_state is not None and state.digest() != rep.final_state:
        _fail(f"{file}: the game ends in another state than when it was saved "
              f"(saved {rep.final_state}, now {state.digest()}): the rules changed")


def _report_changes(file, rep, rules):
    """What changed between the rules the replay was saved with and the ones it runs under."""
    from ..variants import diff
    click.echo(f"warning: the rules changed since {file} was saved", err=True)
    old = replay_mod.saved_rules(rep)
    if old is None:
        click.echo("  (the saved rule texts no longer read, so the parts that changed cannot be listed)", err=True)
        return
    for line in diff.format_text(old, rules, diff.diff(old, rules))[3:]:
        click.echo(f"  {line}" if line else "", err=True)
