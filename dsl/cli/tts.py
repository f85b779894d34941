"""tts: the game as a Tabletop Simulator saved object."""
from __future__ import annotations

import os

import click

from .common import main, _fail, _variant_option, _load_or_exit, _game_or_exit, writable_or_exit
from .common import RULE_FILE
from .options import lang_option


_HELP = """Write the game for Tabletop Simulator: a saved object (GAME-LANG.json) and the
images it shows, into one folder. Every deck the rules define becomes a deck of cards
with the faces `playtest cards` prints (sheets of at most 10 x 7 cards, 69 a sheet); dice
become TTS dice, tokens round tokens and boards a board with their spaces numbered by
column and row; dice and tokens wait in a bag for each kind and owner. Every piece is
named as the rulebook names it, in --lang.

To load it, copy the JSON into TTS's Saved Objects folder (Documents/My Games/Tabletop
Simulator/Saves/Saved Objects) and pick it under Objects > Saved Objects. TTS reads the
images from where -o put them; to share the table, upload the PNGs and give the address
of their folder with --base-url.

\b
  playtest tts games/GAME.rules -o out/tts
  playtest tts games/GAME.rules --lang en --players 4 -o out/tts
  playtest tts games/GAME.rules -o out/tts --base-url https://example.org/GAME/"""


@main.command("tts", help=_HELP)
@click.argument("file", type=RULE_FILE)
@_variant_option
@lang_option("Language of the names and card faces: en or ja.")
@click.option("--players", "-p", type=int, default=None,
              help="Make the pieces for this many players (default: the most the game allows).")
@click.option("--output", "-o", "output", required=True, metavar="DIR",
              help="The folder to write the JSON and the images into (made if need be; all or nothing).")
@click.option("--base-url", metavar="URL", default=None,
              help="Where TTS finds the images: URL followed by each file's name. "
                   "Default: the files in -o, as file:/// addresses (this machine only).")
def tts(file, variants, lang, players, output, base_url):
    from ..engine import RuleError
    from ..io_guard import write_set
    from ..printing import tts as tts_mod
    writable_or_exit(output, "-o", folder=True)
    if base_url is not None and not base_url.strip():
        _fail("--base-url is empty: give the address the images are uploaded to, e.g. https://example.org/game/", 2)
    rules, _ = _load_or_exit(file, variants)
    if players is not None:
        _game_or_exit(rules, players)
    folder = os.path.abspath(output)

    def url(name: str) -> str:
        if base_url is not None:
            return base_url.rstrip("/") + "/" + name
        return "file:///" + os.path.join(folder, name).replace(os.sep, "/").lstrip("/")
    try:
        made = tts_mod.export(rules, lang, url, players)
    except RuleError as e:
        _fail(f"{file}: {e}")
    except Exception as e:      # typst reports its own errors; they would be ours, not the user's
        _fail(f"could not draw the pieces: {e}")
    save = os.path.join(output, f"{rules.game.name}-{lang}.json")
    files = [(os.path.join(output, n), data) for n, data in made.images] + [(save, tts_mod.save_text(made.save))]
    try:
        write_set(files)
    except OSError as e:
        _fail(f"{output}: cannot write the files ({e.strerror or e})")
    for note in made.notes:
        click.echo(f"note: {note}", err=True)
    click.echo(f"wrote {save} and {len(made.images)} image{'s' if len(made.images) != 1 else ''}", err=True)
