"""Cards one to a page: the files a print-on-demand card printer takes, and the faces TTS shows.

A printer cuts each page to the card's trim, so a page is the card plus its bleed on every side
and holds the card's front, then its back (the order DriveThruCards' card PDFs use; a printer
that takes one image a face, such as MakePlayingCards or The Game Crafter, takes the pages
apart). The faces are the card sheets' own (templates/_card.typ.j2): only the size differs.

May import: the language, the engine and printing's own modules.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

from ..language import syntax as S
from .cards import PRESETS, TOKEN, Card, Preset, cards
from .prose import title_of


def game_title(rules: S.RuleFile, lang: str) -> str:
    return title_of(rules.game.texts, lang) or rules.game.name


def by_deck(deck: list[Card]) -> dict[str, list[Card]]:
    """The cards of each deck, decks in the order the rule file declares them."""
    out: dict[str, list[Card]] = {}
    for c in deck:
        out.setdefault(c.kind, []).append(c)
    return out


def card_pages(rules: S.RuleFile, lang: str, faces: list, preset: Preset) -> str:
    """The Typst source of `faces`, each ('front' or 'back', Card) one page at the preset's size."""
    from .book import PAPERS, _env
    placed = [(side, replace(c, x=preset.bleed, y=preset.bleed)) for side, c in faces]
    return _env("typ").get_template("cards-single.typ.j2").render(
        game=game_title(rules, lang), lang=lang, page=PAPERS["a4"], stamp="", faces=placed,
        card=preset.card, bleed=preset.bleed, safe=preset.safe, token=TOKEN)


def deck_files(rules: S.RuleFile, lang: str, players: Optional[int] = None) -> list[tuple[str, bytes]]:
    """One PDF a deck, `GAME-DECK.pdf`: for each card its front, then its back, at poker size with bleed."""
    from .book import typeset
    deck, _ = cards(rules, lang, players)
    out = []
    for kind, group in by_deck(deck).items():
        faces = [(side, c) for c in group for side in ("front", "back")]
        out.append((f"{rules.game.name}-{kind}.pdf", typeset(card_pages(rules, lang, faces, PRESETS["pod"]))))
    return out
