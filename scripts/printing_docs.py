"""The passages the printing docs quote from the books, rebuilt from what the rules print now.

Each quoted passage stands under a mark that says where it is cut from, and the block under the
mark is the text of that part of the page (one paragraph, item or cell a line, as a reader sees
it), so the docs cannot drift from the books:

    <!-- printed: book ja rule-settle -->        a rule, step or phase of the Japanese book, whole
    <!-- printed: book en step-deal 0:6 -->      its first six lines
    <!-- printed: sheet en sheet-open 1: -->     a sheet's part, all but its first line
    <!-- printed: bluff-reversed book en ending -->   another rule set's (games/ or variants/)

(the part is named by the id the HTML page gives it: `step-NAME`, `phase-NAME`, `rule-NAME`,
`example-NAME`, `terms-NAME`, `glossary`, the sheet's `sheet-rules`, `sheet-triggers`, ...; the
lines are a Python slice; a page of docs/printing/ quotes its own game unless the mark names
another). Only the block under a mark is rewritten; the words around it, and the "before"
passages kept from older books, are the docs'.

    python scripts/printing_docs.py            rewrite the passages of docs/printing.md and docs/printing/*.md
    python scripts/printing_docs.py --check    change nothing; exit 1 naming each stale page
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from functools import lru_cache

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from dsl.loader import load  # noqa: E402
from dsl.printing import book  # noqa: E402

PAGES = os.path.join(ROOT, "docs", "printing")
MARK = re.compile(r"(<!-- printed: (?:([\w-]+) )?(book|sheet) (en|ja) ([\w-]+)(?: (-?\d*):(-?\d*))? -->\n```text\n)"
                  r"(.*?)(```\n)", re.S)


@lru_cache(maxsize=None)
def page(game: str, kind: str, lang: str) -> str:
    """The HTML book or sheet of games/GAME.rules or variants/GAME.rules (with its game's book as
    the base a variant's book marks its changes against), rendered once."""
    path = os.path.join(ROOT, "games", game + ".rules")
    if not os.path.exists(path):
        path = os.path.join(ROOT, "variants", game + ".rules")
    rules, _ = load(path)
    base = load(rules.path)[0] if rules.variants else None
    return book.render(kind, "html", rules, lang, base)


def element(html: str, anchor: str) -> str:
    """The HTML element whose id is `anchor`, with everything inside it."""
    at = html.find(f'id="{anchor}"')
    if at < 0:
        raise KeyError(anchor)
    start = html.rfind("<", 0, at)
    tag = re.match(r"<(\w+)", html[start:])[1]
    depth = 0
    for m in re.compile(rf"<(/?){tag}\b[^>]*>").finditer(html, start):
        depth += -1 if m[1] else 1
        if depth == 0:
            return html[start:m.end()]
    return html[start:]


def passage(game: str, kind: str, lang: str, anchor: str, first: str = "", last: str = "") -> str:
    lines = book.as_text(element(page(game, kind, lang), anchor)).split("\n")
    cut = lines[int(first) if first else None:int(last) if last else None]
    return "\n".join(cut) + "\n"


def rebuild(text: str, game: str, where: str = "") -> str:
    """The page with every marked passage cut again from the books: of the rule set the mark
    names, else of `game` (a page of docs/printing/ is named after its game)."""
    def fill(m: re.Match) -> str:
        named, kind, lang, anchor, first, last = m.group(2, 3, 4, 5, 6, 7)
        source = named or game
        try:
            return m[1] + passage(source, kind, lang, anchor, first or "", last or "") + m[9]
        except KeyError:
            raise SystemExit(f"{where or game}: the {lang} {kind} of {source} has no part '{anchor}' (hint: the ids "
                             "are the HTML page's: step-NAME, rule-NAME, example-NAME, sheet-rules)") from None
    return MARK.sub(fill, text)


def pages() -> list[str]:
    """docs/printing.md and the game pages beside it."""
    return [os.path.join(ROOT, "docs", "printing.md")] + \
        sorted(os.path.join(PAGES, f) for f in os.listdir(PAGES) if f.endswith(".md"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if a passage is stale")
    args = ap.parse_args(argv)
    stale = []
    for path in pages():
        game = os.path.basename(path)[:-3]
        with open(path, encoding="utf-8") as f:
            text = f.read()
        new = rebuild(text, game, os.path.relpath(path, ROOT))
        if new != text:
            stale.append(os.path.relpath(path, ROOT))
            if not args.check:
                with open(path + ".tmp", "w", encoding="utf-8") as f:
                    f.write(new)
                os.replace(path + ".tmp", path)
    for p in stale:
        print(("stale: " if args.check else "rewrote: ") + p)
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
