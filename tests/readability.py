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


# 'each X' as the one who acts or wins, where the rule names one X: a loop's item read outside its
# loop (「各プレイヤーはゲームから脱落する」, "each player wins"). A loop's head (「各プレイヤーについて:」,
# "For each player:") and a thing kept per player (「各プレイヤーに一つ」) are not this.
EACH_ONE = {"ja": re.compile(r"各(プレイヤー|チーム|メンバー|カード|もの)(は|が)"),
            "en": re.compile(r"\b[Ee]ach (player|team|member|card|item) (is|wins|loses|becomes|takes|moves|scores)\b")}


def each_one(sentence: str, lang: str) -> bool:
    return bool(EACH_ONE[lang].search(sentence))


def undefined_terms(page: str) -> set[str]:
    """Terms the page uses that it never names in a heading, a table row or an option's title."""
    def shown(t: str) -> str:
        t = re.sub(r'<span class="(mark|badge|number)">.*?</span>', "", t)
        t = html.unescape(re.sub(r"<[^>]+>", "", t)).strip().strip("「」“”\"")
        return re.sub(r"^(the|a|an) ", "", t, flags=re.I).casefold()     # 'The highest cards' at a sentence's start
    used = {shown(t) for t in re.findall(r'<b class="term">(.*?)</b>', page)}
    named = {shown(t) for tag in ("th", "dt", "h2", "h3", "h4")
             for t in re.findall(rf"<{tag}\b[^>]*>(.*?)</{tag}>", page, flags=re.S)}
    named |= {shown(t) for t in re.findall(r'<div class="option"><p><b class="term">(.*?)</b>', page)}
    named |= {part for t in named for part in re.split(r"、|, ", t)}      # a glossary line for several values
    named |= {t[len("your "):] for t in named if t.startswith("your ")}   # 'your tokens' read as 'that player's tokens'
    # a thing kept for each player or team is read as its owner's: 「そのチームの向き」 names 「チームの向き」
    # a title that says 「…がいる」 or 「…がある」 is read negated as 「…がいない」, its term the part before が
    return {t for t in used - named
            if not any(n.endswith(("の" + t, "'s " + t)) or n.startswith(t + "が") for n in named)}


def measure(path: Path) -> dict:
    lang = path.stem.rsplit("-", 1)[1]
    page = path.read_text(encoding="utf-8")
    said = sentences(as_text(page), lang)
    # the designer's own sentences ('each team lays two cards') are theirs: only what is read from the rules
    generated = sentences(as_text(re.sub(r'<p class="(teach|note[^"]*)">.*?</p>|<span class="stepnote">.*?</span>', "", page, flags=re.S)), lang)
    return {"lang": lang, "sentences": said,
            "longest": max(said, key=lambda s: length(s, lang)),
            "length": max(length(s, lang) for s in said),
            "deepest": max(said, key=depth), "depth": max(depth(s) for s in said),
            "each one": [s for s in generated if each_one(s, lang)],
            "undefined": sorted(undefined_terms(page))}


def pages() -> list[Path]:
    return [p for p in sorted(GENERATED.glob("*/*.html")) if re.search(r"-(book|sheet)-(en|ja)\.html$", p.name)]


if __name__ == "__main__":
    for p in pages():
        m = measure(p)
        print(f"{p.relative_to(GENERATED)}: length {m['length']}, depth {m['depth']}, undefined {len(m['undefined'])}")
        print(f"    longest: {m['longest'][:160]}")
        print(f"    deepest: {m['deepest'][:160]}")
        if m["each one"]:
            print(f"    each X for one: {m['each one'][0][:160]}")
        if m["undefined"]:
            print(f"    undefined: {', '.join(m['undefined'][:8])}")
