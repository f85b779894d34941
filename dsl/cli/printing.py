"""book, sheet and cards: print the game."""
from __future__ import annotations

import os

import click

from .common import main, _fail, _variant_option, _load_or_exit, _game_or_exit, writable_or_exit, write_or_exit
from .common import RULE_FILE
from .options import lang_option, output_option


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
63 x 88 mm, nine to a page, each page of fronts followed by its backs (mirrored for
long-edge duplex), with bleed and cut marks; then discs for the game's tokens. Cards
print their values by the titles, marks and colours of the file's `symbol`s.

\b
  playtest cards games/GAME.rules --players 4 --format pdf -o GAME-cards.pdf""",
}


def _printed(kind: str):
    def command(file, variants, lang, fmt, output, paper, players=None):
        from ..engine import RuleError
        from ..language.syntax import Component
        from ..printing import book
        fmt = fmt or (os.path.splitext(output)[1].lstrip(".").lower() if output else "html")
        if fmt not in book.FORMATS:
            _fail(f"cannot tell the format from '{output}': use --format html, pdf or typ")
        if fmt == "pdf" and not output:
            _fail("a PDF needs a file: add -o PATH")
        if output:
            writable_or_exit(output, "-o")
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
            write_or_exit(output, data)
            click.echo(f"wrote {output}", err=True)
        else:
            click.echo(data, nl=False)

    command.__name__ = kind
    command = click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
                           help="Page size.")(command)
    command = output_option("Write here (all or nothing). Without it, HTML or Typst goes to the terminal.")(command)
    command = click.option("--format", "fmt", type=click.Choice(["html", "pdf", "typ"]), default=None,
                           help="html (print CSS), pdf (typeset with typst) or typ (the Typst source). "
                                "Default: from -o's extension, else html.")(command)
    command = lang_option("Language of the printed text: en or ja.")(command)
    if kind == "cards":
        command = click.option("--players", "-p", type=int, default=None,
                               help="Print the cards for this many players (default: the most the game allows).")(command)
    command = _variant_option(command)
    command = click.argument("file", type=RULE_FILE)(command)
    return main.command(kind, help=_PRINTED[kind])(command)


for _kind in _PRINTED:
    _printed(_kind)

