"""The printed game: rulebook, one-page sheet and card sheets, built from the rules the engine runs.

`rulebook.contents()` turns a rule set into plain data, `sheet` picks the one-page sheet from it,
`cards` lays out the card sheets; the templates in templates/ lay that data out as HTML (print
CSS) or Typst markup, and `typeset()` makes the PDF with the typst package and a bundled OFL
Japanese font. This module is what the commands call.
"""
from __future__ import annotations

import hashlib
import html
import os
import re
from functools import lru_cache
from typing import Optional

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from ..language import syntax as S
from ..constructs.symbol import colour_hex  # noqa: F401  (the card templates' tests read colours through here)
from .labels import CARD, FORMATS, KINDS, PAPERS, label  # noqa: F401
from .rulebook import contents
from .sheet import reachable_rules  # noqa: F401
from .cards import BLEED, SAFE, TOKEN, Value, card_sheets, cards  # noqa: F401

_TYPST_SPECIAL = set("\\#*_`$<>@[]~/-+=.'\":()")


def typst_escape(value) -> Markup:
    """Anything printed into Typst markup is text, never markup: escape every symbol it could read."""
    if isinstance(value, Markup):
        return value
    text = re.sub(r"\s+", " ", str(value))     # one line; the spaces between runs stay
    return Markup("".join("\\" + ch if ch in _TYPST_SPECIAL else ch for ch in text))


@lru_cache(maxsize=2)
def _env(kind: str) -> Environment:
    folder = os.path.join(os.path.dirname(__file__), "templates")
    if kind == "html":
        env = Environment(loader=FileSystemLoader(folder), autoescape=select_autoescape(["html", "j2"]),
                          keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    else:
        env = Environment(loader=FileSystemLoader(folder), autoescape=False, finalize=typst_escape,
                          keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    env.globals["label"] = label
    env.globals["raw"] = Markup
    return env


def render(kind: str, fmt: str, rules: S.RuleFile, lang: str, base: Optional[S.RuleFile] = None,
           paper: str = "a4", players: Optional[int] = None) -> str:
    """The HTML or Typst source of a book, sheet or card sheet."""
    engine = "html" if fmt == "html" else "typ"
    doc = contents(rules, lang, base)
    sheets = card_sheets(rules, lang, paper, players) if kind == "cards" else None
    page = PAPERS[paper]
    hashed = version(rules)
    # the table reads the game and its version; which files made it is the designer's business
    stamp = doc.title + " · " + label(lang, "version", v=hashed)
    def fill(env: str, size: float) -> str:
        return _env(env).get_template(f"{kind}.{env}.j2").render(
            doc=doc, lang=lang, page=page, sheets=sheets, card=CARD, bleed=BLEED, safe=SAFE, token=TOKEN,
            stamp=stamp, version=hashed, size=size)
    size = SHEET_SIZES[0]
    if kind == "sheet":
        # the sheet is one page: the largest type that keeps it there (the HTML follows the PDF's choice)
        for size in SHEET_SIZES:
            if _last_page(fill("typ", size)) == 1:
                break
    return fill(engine, size)


# Type sizes (pt) the one-page sheet tries, largest first; below the last it would no longer be legible.
SHEET_SIZES = (9.4, 9.0, 8.6, 8.2, 7.8, 7.4, 7.0, 6.6, 6.2)


@lru_cache(maxsize=64)
def _last_page(source: str) -> int:
    """The page the sheet's last line lands on, read from the metadata the sheet template leaves there."""
    import json
    import typst
    found = json.loads(typst.query(source.encode("utf-8"), "<sheet-last-page>", font_paths=[font_dir()],
                                   ignore_system_fonts=True))
    return found[0]["value"] if found else 1


def as_text(page: str) -> str:
    """A rendered HTML page as a reader sees it: one paragraph, item or cell a line, no markup."""
    page = re.sub(r"<(style|script)\b.*?</\1>", "", page, flags=re.S)
    page = re.sub(r"<(p|li|h\d|tr|th|td|dt|dd|div|section|header|footer|caption|figcaption|text)\b", "\n\\g<0>", page)   # a drawing's labels read one by one
    page = html.unescape(re.sub(r"<[^>]+>", "", page))
    return "\n".join(line.strip() for line in page.split("\n") if line.strip())


def version(rules: S.RuleFile) -> str:
    """What the printout was made from: a hash of the rule file's text and its variants' texts, in order.

    Not a date, so the same rules always print the same bytes, and two printouts of different
    rules always say so. Line endings are normalised so a checkout's settings do not change it.
    """
    h = hashlib.sha256()
    for text in [rules.source] + [vr.source for vr in rules.variants]:
        h.update(text.replace("\r\n", "\n").encode("utf-8") + b"\0")
    # digits, not hex: a Japanese printout shows no Latin letters the game does not print
    return f"{int(h.hexdigest()[:8], 16):010d}"


def make(kind: str, fmt: str, rules: S.RuleFile, lang: str, base: Optional[S.RuleFile] = None,
         paper: str = "a4", players: Optional[int] = None) -> str | bytes:
    """The finished output: HTML or Typst text, or PDF bytes."""
    source = render(kind, "html" if fmt == "html" else "typ", rules, lang, base, paper, players)
    return typeset(source) if fmt == "pdf" else source


def font_dir() -> str:
    """The OFL Noto Sans JP that the justmytype-intl-cjk wheel carries."""
    import importlib.util
    spec = importlib.util.find_spec("justmytype_intl_cjk")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the Japanese font package is missing: pip install justmytype-intl-cjk")
    return os.path.join(list(spec.submodule_search_locations)[0], "fonts", "ofl", "notosansjp")


def typeset(source: str) -> bytes:
    """Typst markup -> PDF bytes, with only the bundled fonts (no system font can change the result)."""
    import typst
    return typst.compile(source.encode("utf-8"), font_paths=[font_dir()], ignore_system_fonts=True, format="pdf")
