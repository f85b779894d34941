"""Runs and items: the shapes readings are made of, and the helpers every reading uses.

A reading is a list of runs, `(style, text)`, that the rulebook templates place in HTML or
Typst: style is "" (plain), "term" (a titled name), "code" (a name as written) or "num".
A statement reads as an Item: one line of the rulebook with what hangs under it.

May import: the syntax base classes only (a leaf, so constructs can use it).
"""
from __future__ import annotations

import re

from ..language.syntax import NOWHERE, Span, text_of

Runs = list[tuple[str, str]]

UNDECIDED = ("未決", "not yet decided")     # the flag on everything the rules leave open
# an English title that brings its own article ("the call made", "a vandal appears") takes no other
ARTICLE = re.compile(r"(the|a|an) ", re.I)


def plain(runs: Runs) -> str:
    """Runs as plain text."""
    return "".join(t for _, t in runs)


_FULL_WIDTH = str.maketrans({":": ":", "(": "(", ")": ")"})


def say(lang: str, ja, en):
    """The one place that picks a language: every reading passes both.

    Japanese comes out with full-width punctuation, whatever the reading wrote; the
    designer's own titles and texts (styled runs) are printed as written.
    """
    if lang != "ja":
        return en
    if isinstance(ja, str):
        return ja.translate(_FULL_WIDTH)
    if isinstance(ja, list):
        return [(style, text.translate(_FULL_WIDTH) if style == "" else text) for style, text in ja]
    return ja


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


def tidy(runs: Runs) -> Runs:
    """English: a title's 'the' dropped where the sentence already has one ('the player's the cup')."""
    out: Runs = []
    for style, text in runs:
        if style == "" and text == "the " and out and out[-1][1].endswith(("'s ", "the ", "The ", "every player's ")):
            continue
        out.append((style, text))
    return out


def capital(runs: Runs) -> Runs:
    """An English sentence starts with a capital, whatever its first part is."""
    for i, (style, text) in enumerate(runs):
        if text:
            if style != "code":
                runs = runs[:i] + [(style, text[0].upper() + text[1:])] + runs[i + 1:]
            return runs
    return runs


def sentence(v, st, ja: Runs, en: Runs, children=()) -> Item:
    return Item("sentence", ja if v.lang == "ja" else capital(en), children, span=st.span)


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


def that(runs: Runs) -> Runs:
    """A Japanese condition made to describe a noun: 「ワイルドである」もの, 「大きい」もの."""
    text = plain(runs)
    tail = "" if text.endswith(("い", "る", "た", "ない")) else "である"
    return runs + ([("", tail)] if tail else [])


def negate(runs: Runs) -> Runs:
    """A Japanese condition said the other way round: ライフがある -> ライフがない."""
    text = plain(runs)
    if "、" in text or "「" in text:
        return [("", "「")] + runs + [("", "」ではない")]
    for tail, opposite in (("がある", "がない"), ("がいる", "がいない"), ("ている", "ていない"), ("が空", "が空ではない")):
        if text.endswith(tail):
            return _retail(runs, len(tail), opposite)
    return runs + [("", "ではない")]


def _retail(runs: Runs, cut: int, tail: str) -> Runs:
    out = list(runs)
    while cut and out:
        style, text = out.pop()
        if len(text) > cut:
            out.append((style, text[:-cut]))
            cut = 0
        else:
            cut -= len(text)
    return out + [("", tail)]


def when(runs: Runs) -> Runs:
    """「…のとき」 for a noun-ending condition, 「…とき」 for a verb or adjective."""
    return that(runs) + [("", "とき")] if plain(runs).endswith(("い", "る", "た")) else runs + [("", "のとき")]


def bare(runs: Runs) -> Runs:
    """An English noun phrase after 'the highest': 'the highest number of ...', not 'the highest
    the number of ...' nor 'the highest its number'."""
    for lead in ("its ", "the "):
        if runs and runs[0][1].startswith(lead):
            return ([(runs[0][0], runs[0][1][len(lead):])] if runs[0][1] != lead else []) + runs[1:]
    return runs


def possessive(lang: str, owner: Runs, title: Runs) -> Runs:
    """'that team's cards'; a title that already says whose (チームの手持ちカード, 'team's cards')
    is not said twice (そのチームのチームの手持ちカード, 'the team concerned's team's cards')."""
    if lang != "ja":
        for article in ("your ", "the "):
            if title and title[0][1].startswith(article):
                # a title from its owner's side, or with its article: "that player's tokens", not
                # "that player's your tokens"; "that member's card presented", not "that member's the card"
                return owner + [("", "'s "), (title[0][0], title[0][1][len(article):])] + title[1:]
        head, _, rest = plain(title).partition("'s ")
        if rest and (plain(owner).endswith(head) or " " not in head and head in plain(owner).split(" ")):
            return owner + [("", "'s "), (title[0][0] if title else "", rest)]
        return owner + [("", "'s ")] + title
    head, _, rest = plain(title).partition("の")
    if rest and plain(owner).endswith(head):
        return owner + [("", "の"), (title[0][0] if title else "", rest)]
    return owner + [("", "の")] + title


def join(parts: list[Runs], sep: str) -> Runs:
    out: Runs = []
    for i, p in enumerate(parts):
        if i:
            out.append(("", sep))
        out += p
    return out
