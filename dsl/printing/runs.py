"""Runs and items: the shapes readings are made of, and the helpers every reading uses.

A reading is a list of runs, `(style, text)`, that the rulebook templates place in HTML or
Typst: style is "" (plain), "term" (a titled name), "code" (a name as written) or "num".
A statement reads as an Item: one line of the rulebook with what hangs under it.

May import: the syntax base classes only (a leaf, so constructs can use it).
"""
from __future__ import annotations

from ..language.syntax import NOWHERE, Span, text_of

Runs = list[tuple[str, str]]

UNDECIDED = ("未決", "not yet decided")     # the flag on everything the rules leave open


def plain(runs: Runs) -> str:
    """Runs as plain text."""
    return "".join(t for _, t in runs)


def say(lang: str, ja, en):
    """The one place that picks a language: every reading passes both."""
    return ja if lang == "ja" else en


class Item:
    """One line of the rulebook with what hangs under it.

    kind: 'step' and 'phase' get numbers and headings; 'assume' is an open question's
    provisional answer (flagged); everything else is a sentence.
    """
    __slots__ = ("kind", "name", "runs", "texts", "children", "flag", "mark", "number", "span")

    def __init__(self, kind: str, runs: Runs, children=(), texts=(), name: str = "", flag: str = "",
                 span: Span = NOWHERE):
        self.kind, self.runs, self.children, self.texts = kind, runs, list(children), list(texts)
        self.name, self.flag, self.mark, self.number, self.span = name, flag, "", "", span


def sentence(v, st, ja: Runs, en: Runs, children=()) -> Item:
    return Item("sentence", say(v.lang, ja, en), children, span=st.span)


def title_of(texts, lang: str) -> str | None:
    return text_of(texts, "title", lang) or text_of(texts, "title", "en" if lang == "ja" else "ja")


def notes_of(texts, lang: str) -> list[tuple[str, str]]:
    """Designer prose other than the title, in the chosen language (the other if only that exists)."""
    kinds = []
    for t in texts:
        if t.kind != "title" and t.kind not in kinds:
            kinds.append(t.kind)
    out = []
    for k in kinds:
        text = text_of(texts, k, lang) or text_of(texts, k, "en" if lang == "ja" else "ja")
        if text:
            out.append((k, text))
    return out


def fill(template: str, args: list[Runs]) -> Runs:
    """A reading with places for its parts, e.g. '{0}の数', with the parts put in."""
    out: Runs = []
    rest = template
    while "{" in rest:
        before, _, after = rest.partition("{")
        index, _, rest = after.partition("}")
        if before:
            out.append(("", before))
        out += args[int(index)] if int(index) < len(args) else []
    if rest:
        out.append(("", rest))
    return out


def join(parts: list[Runs], sep: str) -> Runs:
    out: Runs = []
    for i, p in enumerate(parts):
        if i:
            out.append(("", sep))
        out += p
    return out
