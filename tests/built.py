"""Every book and sheet of every game and variant, built now from the rule files (not read from
generated/), as the text a reader sees: the tests of what a book must never say read these."""
from __future__ import annotations

from functools import lru_cache

import pytest

from _util import ROOT
from dsl.loader import load
from dsl.printing.book import as_text, render

SOURCES = sorted(ROOT.glob("games/*.rules")) + sorted(ROOT.glob("variants/*.rules"))
LANGS = ("ja", "en")


def every(kinds=("book", "sheet")) -> list:
    return [pytest.param(p.relative_to(ROOT).as_posix(), k, lang, id=f"{p.stem}-{k}-{lang}")
            for p in SOURCES for k in kinds for lang in LANGS]


@lru_cache(maxsize=None)
def rules_of(path: str):
    return load(str(ROOT / path))[0]


@lru_cache(maxsize=None)
def page(path: str, kind: str, lang: str) -> str:
    """The HTML page of a book or sheet, as `playtest book`/`sheet` writes it."""
    return render(kind, "html", rules_of(path), lang)


def text(path: str, kind: str, lang: str) -> str:
    return as_text(page(path, kind, lang))
