"""variants: list the variants of a game."""
from __future__ import annotations

import json
import os

import click

from .common import main, _fail, _echo_errors
from .common import RULE_FILE
from .options import json_option, lang_option


@main.command(name="variants", help="""List the variants that apply to a game, with why each exists.

\b
Looks in the variants/ folder beside the game's folder (or --folder).
  playtest variants games/GAME.rules""")
@click.argument("file", type=RULE_FILE)
@click.option("--folder", type=click.Path(file_okay=False), default=None, help="Where the variant files are.")
@lang_option("Language of the titles and reasons: en or ja.")
@json_option("Print JSON instead of a list.")
def list_variants(file, folder, lang, as_json):
    from ..language.diagnostics import RuleFileError
    from ..variants import overlay
    from ..language.parser import parse_file
    from ..language.syntax import text_of
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
