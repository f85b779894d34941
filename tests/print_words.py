"""What a printed rulebook must not show a playtester: the rule file's own words.

Shared by the print-language tests and usable from the command line while working on the
readings: `python tests/print_words.py` renders every game and variant's book and sheet HTML
in both languages and prints each leftover it finds.
"""
from __future__ import annotations

import html
import re
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_WORD = re.compile(r"[A-Za-z_]+")
# English words a sentence may hold that are also one letter
_ONE_LETTER_WORDS = {"a", "A", "I"}


def rule_files(rules) -> list[Path]:
    """The files a loaded rule set came from: its game, then its variants."""
    return [Path(rules.path)] + [Path(v.path) for v in rules.variants]


def identifiers(files: list[Path]) -> set[str]:
    """Every name the rule files write outside strings and comments."""
    out: set[str] = set()
    for f in files:
        for line in f.read_text(encoding="utf-8").splitlines():
            code = _STRING.sub(" ", line.split("#", 1)[0] if '"' not in line.split("#", 1)[0] else line)
            code = code.split("#", 1)[0]
            out.update(_WORD.findall(code))
    return out


def designer_words(files: list[Path], lang: str) -> set[str]:
    """ASCII words the game itself prints: a declared mark, or a word in a title of that
    language (VP, the S mark). English prose may use any word its titles and texts use."""
    out: set[str] = set()
    for f in files:
        for line in f.read_text(encoding="utf-8").splitlines():
            where = r"\btitle\s+(?:ja\s+\"(?:[^\"\\]|\\.)*\"\s+)?" if lang == "ja" else r"\b"
            for m in re.finditer(where + rf'{lang}\s+("(?:[^"\\]|\\.)*")', line):
                out.update(re.findall(r"[A-Za-z_]+", m.group(1)))
            for m in re.finditer(r'\bmark\s+("(?:[^"\\]|\\.)*")', line):
                out.update(re.findall(r"[A-Za-z_]+", m.group(1)))
    return out


def visible_text(page: str) -> str:
    page = re.sub(r"<(style|script)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(page)


def leftovers(text: str, lang: str, files: list[Path], names: set[str] | None = None) -> list[str]:
    """Each rule-file word, variable letter or (in Japanese) English word the text shows."""
    names = identifiers(files) if names is None else names
    allowed = designer_words(files, lang)
    text = text.replace("'s", "").replace("’s", "")
    text = re.sub(r"\bp\.\s*\d", " ", text)       # a page reference: (p. 3), a line break maybe after "p."
    found = []
    for word in re.findall(r"[A-Za-z_]+", text):
        if word in allowed:
            continue
        if lang == "ja":
            found.append(word)
        elif "_" in word or (len(word) == 1 and word not in _ONE_LETTER_WORDS):
            found.append(word)
        elif word in names and word not in allowed and word.lower() != word and len(word) <= 2:
            found.append(word)
    if lang == "ja":
        found += re.findall(r"種(?!\s*[類族])", text)
    return found


def code_runs(page: str) -> list[str]:
    """Names printed as written (code style): a reading that fell back to the identifier."""
    return [html.unescape(c) for c in re.findall(r"<code>(.*?)</code>", page, re.S)]


@lru_cache(maxsize=None)
def pdf_pages(path: str, first: int | None = None) -> tuple[str, ...]:
    """The text of each page (or the first few) of a committed PDF, read once per test run:
    pypdf is slow, and a card sheet's pages all come from one template."""
    from pypdf import PdfReader
    return tuple(page.extract_text() or "" for page in PdfReader(path).pages[:first])


def every_rule_file() -> list[Path]:
    return sorted((ROOT / "games").glob("*.rules")) + sorted((ROOT / "variants").glob("*.rules"))


if __name__ == "__main__":
    import sys
    from collections import Counter
    from dsl.printing.book import render
    from dsl.loader import load
    wanted = sys.argv[1:]
    total = Counter()
    for path in every_rule_file():
        if wanted and not any(w in path.name for w in wanted):
            continue
        rules, _ = load(str(path))
        base = load(rules.path)[0] if rules.variants else None
        files = rule_files(rules)
        for kind in ("book", "sheet"):
            for lang in ("ja", "en"):
                page = render(kind, "html", rules, lang, base)
                bad = leftovers(visible_text(page), lang, files) + [f"<code>{c}</code>" for c in code_runs(page)]
                total[(kind, lang)] += len(bad)
                if bad:
                    print(f"{path.name} {kind} {lang}: {len(bad)}: {' '.join(sorted(set(bad)))[:400]}")
    print(dict(total))
