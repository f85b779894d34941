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

With --preset pod, write the files a print-on-demand card printer takes instead: one
PDF a deck (GAME-DECK.pdf in the folder -o names), poker size 63.5 x 88.9 mm, one card
a page at its bleed size (1/8 in more on every side), each card's front then its back,
the text kept 1/8 in inside the cut.

\b
  playtest cards games/GAME.rules --players 4 --format pdf -o GAME-cards.pdf
  playtest cards games/GAME.rules --preset pod -o out/pod""",
}


def _pod(file, variants, lang, fmt, output, players):
    """--preset pod: a PDF a deck, written together into a folder."""
    from ..engine import RuleError
    from ..io_guard import write_set
    from ..language.syntax import Component
    from ..printing import pod
    if fmt not in (None, "pdf"):
        _fail(f"--preset pod writes PDF files, not {fmt}: leave out --format")
    if not output:
        _fail("--preset pod writes a PDF a deck: add -o FOLDER")
    writable_or_exit(output, "-o", folder=True)
    rules, _ = _load_or_exit(file, variants)
    if not any(c.kind == "deck" for c in rules.of(Component)):
        _fail(f"{file} defines no deck, so it has no cards to print")
    if players is not None:
        _game_or_exit(rules, players)
    try:
        files = pod.deck_files(rules, lang, players)
    except RuleError as e:
        _fail(f"{file}: {e}")
    except Exception as e:      # typst reports its own errors; they would be ours, not the user's
        _fail(f"could not typeset the cards: {e}")
    try:
        write_set([(os.path.join(output, name), data) for name, data in files])
    except OSError as e:
        _fail(f"{output}: cannot write the files ({e.strerror or e})")
    for name, _ in files:
        click.echo(f"wrote {os.path.join(output, name)}", err=True)


def _printed(kind: str):
    def command(file, variants, lang, fmt, output, paper, players=None, preset="home"):
        from ..engine import RuleError
        from ..language.syntax import Component
        from ..printing import book
        if preset == "pod":
            return _pod(file, variants, lang, fmt, output, players)
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
    if kind == "cards":     # a folder, for --preset pod
        command = click.option("--output", "-o", type=click.Path(), default=None,
                               help="Write here (all or nothing): a file, or with --preset pod a folder. "
                                    "Without it, HTML or Typst goes to the terminal.")(command)
    else:
        command = output_option("Write here (all or nothing). Without it, HTML or Typst goes to the terminal.")(command)
    command = click.option("--format", "fmt", type=click.Choice(["html", "pdf", "typ"]), default=None,
                           help="html (print CSS), pdf (typeset with typst) or typ (the Typst source). "
                                "Default: from -o's extension, else html.")(command)
    command = lang_option("Language of the printed text: en or ja.")(command)
    if kind == "cards":
        command = click.option("--players", "-p", type=int, default=None,
                               help="Print the cards for this many players (default: the most the game allows).")(command)
        command = click.option("--preset", type=click.Choice(["home", "pod"]), default="home", show_default=True,
                               help="home: nine to a page with cut marks, to cut yourself. pod: one PDF a deck "
                                    "for a print-on-demand printer, poker size with 1/8 in bleed, one card a "
                                    "page, front then back (-o is a folder; --paper does not apply).")(command)
    command = _variant_option(command)
    command = click.argument("file", type=RULE_FILE)(command)
    return main.command(kind, help=_PRINTED[kind])(command)


for _kind in _PRINTED:
    _printed(_kind)

