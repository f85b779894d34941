"""play: sit at the table in the terminal with people and bots; table-stats: games played by
people beside random play's figures."""
from __future__ import annotations

import os
import secrets

import click

from ..agents.spec import FORMS
from .common import main, _fail, _variant_option, _load_or_exit, _game_or_exit, players_option, writable_or_exit


@main.command(help="""Play a game in the terminal: people and bots at one table.

\b
Each person sees only what their seat may see, the log since their last turn, and their
options numbered in words; they type a number (u undo, q stop and keep the game, ? help).
Several people at one keyboard: the screen clears between two people's turns.
The game is saved after every move (--save; by default under out/tables/).

\b
Examples:
  playtest play games/bluff.rules -p 3                     you against two random bots
  playtest play games/bluff.rules --seats human,ismcts:200,random --lang ja
  playtest play games/tictactoe.rules --seats human,human  two people, one keyboard
  playtest play --resume out/tables/bluff.json             go on with a stopped game""")
@click.argument("file", type=click.Path(), required=False)
@_variant_option
@players_option
@click.option("--seats", default=None, metavar="SEAT,SEAT,...",
              help="Who sits in each seat, in order: human, or a bot as --agents takes it (random, flat:N, "
                   "ismcts:N). Default: one human and random bots.")
@click.option("--seed", type=int, default=None, help="Seed for the shuffles, dice and bots (default: a new one each game, kept in the save).")
@click.option("--lang", type=click.Choice(["en", "ja"]), default="en", show_default=True)
@click.option("--save", "save", type=click.Path(), default=None,
              help="Replay file written after every move (default: out/tables/GAME.json, numbered if taken).")
@click.option("--resume", type=click.Path(), default=None, help="Go on with a game saved by play.")
def play(file, variants, players, seats, seed, lang, save, resume):
    from ..analyses import replay as replay_mod
    from ..table import Table
    from ..table.terminal import Terminal
    if resume:
        if file or variants or players or seats or seed is not None or save:
            _fail("--resume goes on with the saved game as it was: give no game file, --variant, --players, "
                  "--seats, --seed or --save with it", 2)
        try:
            rep = replay_mod.load(resume)
        except replay_mod.ReplayError as e:
            _fail(str(e))
        rules, _ = _load_or_exit(rep.rules, rep.variants)
        if rep.fingerprint is not None and rep.fingerprint != replay_mod.fingerprint(rules):
            click.echo(f"warning: the rules changed since {resume} was saved", err=True)
        try:
            table = Table.resume(resume, rules)
        except replay_mod.ReplayError as e:
            _fail(str(e))
        save = resume
    else:
        if not file:
            _fail("name the game's rule file (e.g. playtest play games/bluff.rules), or --resume FILE", 2)
        rules, _ = _load_or_exit(file, variants)
        spec = [s.strip() for s in seats.split(",")] if seats else None
        game = _game_or_exit(rules, players if players is not None or spec is None else len(spec))
        spec = spec or ["human"] + ["random"] * (game.n - 1)
        if len(spec) != game.n:
            _fail(f"--seats names {len(spec)} seats for {game.n} players: give one per seat", 2)
        save = save or _free_name(os.path.join("out", "tables"), file, variants)
        writable_or_exit(save, "--save")
        try:
            table = Table(rules, game.n, spec, secrets.randbelow(2**31) if seed is None else seed, save,
                          list(variants))
        except ValueError as e:
            _fail(f"--seats: {e}" if "agent" not in str(e) else f"--seats: {e}".split("; valid forms")[0]
                  + "; a seat is human or one of " + ", ".join(FORMS), 2)
        except OSError as e:
            _fail(f"{save}: cannot write the game ({e.strerror or e})")
    try:
        Terminal(table, lang, saved_to=save).run()
    except KeyboardInterrupt:
        click.echo(f"\nStopped. Continue with: playtest play --resume {save}")
    except OSError as e:
        _fail(f"{save}: cannot write the game ({e.strerror or e})")


def _free_name(folder: str, rules_path: str, variants) -> str:
    """out/tables/GAME.json, or GAME-2.json... when a game already sits there."""
    from ..analyses.replay import file_name
    stem = file_name(rules_path, variants)[:-5]
    for k in range(1, 10_000):
        path = os.path.join(folder, stem + (f"-{k}" if k > 1 else "") + ".json")
        if not os.path.exists(path):
            return path
    _fail(f"{folder}: too many saved games named {stem}; give --save FILE")
