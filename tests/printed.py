"""Every book and sheet of every game and variant, read back as text, for the tests that read them all.

They read the committed generated/ pages: test_book's currency test fails when those are not what
the rules print now, so reading them is reading the printer, without typesetting every sheet again.
"""
from __future__ import annotations

import html
import re
from functools import lru_cache

import pytest

from _util import ROOT

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


def as_text(page: str) -> str:
    """A rendered HTML page as a reader sees it: one paragraph, item or cell a line, no markup."""
    page = re.sub(r"<(style|script)\b.*?</\1>", "", page, flags=re.S)
    page = re.sub(r"<(p|li|h\d|tr|th|td|dt|dd|div|section|header|footer|caption|figcaption|text)\b", "\n\\g<0>", page)   # a drawing's labels read one by one
    page = html.unescape(re.sub(r"<[^>]+>", "", page))
    return "\n".join(line.strip() for line in page.split("\n") if line.strip())


@lru_cache(maxsize=None)
def text(name: str, kind: str, lang: str) -> str:
    return as_text((GENERATED / f"{name}-{kind}-{lang}.html").read_text(encoding="utf-8"))
