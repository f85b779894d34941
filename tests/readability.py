"""Measures of a printed page's sentences, for the readability test and `python tests/readability.py`
(which prints the worst sentences of every book and sheet, as docs/printing.md quotes them).

A sentence is a line of the page (a paragraph, item or cell) cut at 。 and at '. ' / ': '.
Length counts characters in Japanese and words in English; depth counts brackets open at once
(() () 「」 “”), what a reader has to hold while reading; an undefined term is one the page sets
as a term (class="term") that no heading or table row of the same page names.
"""
from __future__ import annotations

import html
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from printed import GENERATED, as_text  # noqa: E402

OPEN, CLOSE = "((「“", "))」”"


def sentences(page_text: str, lang: str) -> list[str]:
    out = []
    for line in page_text.split("\n"):
        parts = re.split(r"(?<=。)" if lang == "ja" else r"(?<=[.:;])\s+(?=[A-Z“\"(])", line)
        out += [p.strip() for p in parts if p.strip()]
    return out


def length(sentence: str, lang: str) -> int:
    return len(re.sub(r"\s+", "", sentence)) if lang == "ja" else len(sentence.split())


def depth(sentence: str) -> int:
    deepest = now = 0
    for ch in sentence:
        if ch in OPEN:
            now += 1
            deepest = max(deepest, now)
        elif ch in CLOSE:
            now = max(0, now - 1)
    return deepest


def undefined_terms(page: str) -> set[str]:
    """Terms the page uses that it never names in a heading, a table row or an option's title."""
    def shown(t: str) -> str:
        t = re.sub(r'<span class="(mark|badge|number)">.*?</span>', "", t)
        return html.unescape(re.sub(r"<[^>]+>", "", t)).strip()
    used = {shown(t) for t in re.findall(r'<b class="term">(.*?)</b>', page)}
    named = {shown(t) for tag in ("th", "dt", "h2", "h3", "h4")
             for t in re.findall(rf"<{tag}\b[^>]*>(.*?)</{tag}>", page, flags=re.S)}
    named |= {shown(t) for t in re.findall(r'<div class="option"><p><b class="term">(.*?)</b>', page)}
    return used - named


def measure(path: Path) -> dict:
    lang = path.stem.rsplit("-", 1)[1]
    page = path.read_text(encoding="utf-8")
    said = sentences(as_text(page), lang)
    return {"lang": lang, "sentences": said,
            "longest": max(said, key=lambda s: length(s, lang)),
            "length": max(length(s, lang) for s in said),
            "deepest": max(said, key=depth), "depth": max(depth(s) for s in said),
            "undefined": sorted(undefined_terms(page))}


def pages() -> list[Path]:
    return [p for p in sorted(GENERATED.glob("*/*.html")) if re.search(r"-(book|sheet)-(en|ja)\.html$", p.name)]


if __name__ == "__main__":
    for p in pages():
        m = measure(p)
        print(f"{p.relative_to(GENERATED)}: length {m['length']}, depth {m['depth']}, undefined {len(m['undefined'])}")
        print(f"    longest: {m['longest'][:160]}")
        print(f"    deepest: {m['deepest'][:160]}")
        if m["undefined"]:
            print(f"    undefined: {', '.join(m['undefined'][:8])}")
