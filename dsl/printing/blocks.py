"""Blocks of the page beyond the sentence: a list of conditions that must all hold (or one of
which must) and a displayed formula. A reading returns them as Items of kinds 'all', 'any' and
'formula', the sentences they belong to as their parents; the HTML and Typst templates each set
them out (a bulleted list, a formula on a line of its own), so both show the same document.
Two more kinds are made whole elsewhere: 'example', a worked example from real play
(examples.py: a heading, then parts of lines), and 'figure', a drawing (figures.py: the caption
as its runs, the SVG as its one text), which the HTML puts in the page and Typst decodes.

May import: the syntax, runs.py and the idiom leaves (idioms.py, comparisons.py): the constructs' readings use it.
"""
from __future__ import annotations

from ..language import syntax as S
from .comparisons import read_same_attributes, same_attributes
from .idioms import parts_of, raised
from .runs import Item, Runs, say

# A condition of this many parts, or with `and` and `or` mixed, is set out as a list: read as one
# sentence it needs parentheses («A、かつB、かつ(CまたはD)») that a reader has to count.
LONG = 3

ARITHMETIC = ("+", "-", "*", "//")


def is_long(e) -> bool:
    if not (isinstance(e, S.Binary) and e.op in ("and", "or")):
        return False
    if raised(e):
        return False            # said in one phrase: 'neither goes down and at least one goes up'
    parts = parts_of(e, e.op)
    if e.op == "and":
        parts = same_attributes(parts)      # 'X has the same a and b as Y' is one condition
    return len(parts) >= LONG or any(isinstance(p, S.Binary) and p.op in ("and", "or") for p in parts)


def conditions(v, e) -> Item:
    """`e` as a list: 'all of these hold' or 'at least one of these holds', one condition a line."""
    head = {"and": say(v.lang, "次のすべてを満たす:", "all of these hold:"),
            "or": say(v.lang, "次のどれか一つ以上を満たす:", "at least one of these holds:")}[e.op]
    parts = parts_of(e, e.op)
    lines = [Item("condition", read_same_attributes(v, *p)) if isinstance(p, tuple)
             else conditions(v, p) if isinstance(p, S.Binary) and p.op in ("and", "or") else Item("condition", v.expr(p))
             for p in (same_attributes(parts) if e.op == "and" else parts)]
    return Item("all" if e.op == "and" else "any", [("", head)], lines)


def condition(v, e) -> tuple[Runs, list[Item]]:
    """A condition where a sentence needs one: inline when short; when long, a pointer the
    sentence can hold ('the conditions below') and the list to hang under it."""
    if not is_long(e):
        return v.expr(e), []
    return [("", say(v.lang, "下の条件", "the conditions below"))], [conditions(v, e)]


def is_arithmetic(e) -> bool:
    return isinstance(e, S.Binary) and e.op in ARITHMETIC


def formula(v, name: Runs, e) -> Item:
    """A quantity worked out at the table, on a line of its own: 'name = a − b'."""
    return Item("formula", name + [("", " = ")] + v.expr(e))
