"""`order NAME by ATTRIBUTE`: a ranking of card values, strongest first.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language.building import span
from ..language.syntax import Decl
from ..printing.runs import Runs
from ..printing.runs import plain as plain_text
from .registry import register


@dataclass(frozen=True)
class Order(Decl):
    keyword = "order"
    attribute: str
    ranks: tuple[tuple[object, ...], ...]      # strongest first; equal values grouped


# ---------------------------------------------------------------- grammar
def _order_rank(meta, c):
    return tuple(c)


def _order(meta, c):
    ranks = tuple(r for r in c[2:-1])
    return Order(str(c[0]), c[-1], span(meta), str(c[1]), ranks)


GRAMMAR = {"order_rank": _order_rank, "order": _order}


# ---------------------------------------------------------------- checks
def check(ck, d):
    pass


# ---------------------------------------------------------------- reading
def read(v, o, counts=()) -> Runs:
    return [("", " > ".join(" = ".join(plain_text(v.name(str(x))) for x in group) for group in o.ranks))]


register(Order, "declaration", grammar=GRAMMAR, check=check, read=read)
