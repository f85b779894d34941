"""Every book and sheet of every game and variant, read back as text, for the tests that read them all.

They read the committed generated/ pages: test_book's currency test fails when those are not what
the rules print now, so reading them is reading the printer, without typesetting every sheet again.
"""
from __future__ import annotations

import re
from functools import lru_cache

import pytest

from _util import ROOT
from dsl.printing.book import as_text  # noqa: F401  (the tests read pages through here)

GENERATED = ROOT / "generated"


def pages(kinds=("book", "sheet")) -> list:
    """(name, kind, lang) of every committed book and sheet, as test parameters: name is the
    rule set's folder and file stem."""
    out = []
    for path in sorted(GENERATED.glob("*/*.html")):
        m = re.fullmatch(r"(.+)-(book|sheet|cards)-(en|ja)\.html", path.name)
        if m and m[2] in kinds:
            out.append(pytest.param(path.parent.name + "/" + m[1], m[2], m[3], id=f"{m[1]}-{m[2]}-{m[3]}"))
    return out


@lru_cache(maxsize=None)
def text(name: str, kind: str, lang: str) -> str:
    return as_text((GENERATED / f"{name}-{kind}-{lang}.html").read_text(encoding="utf-8"))
