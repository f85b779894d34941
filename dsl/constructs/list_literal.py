"""`[a, b, c]`: a list of values.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language.building import span
from ..language.kinds import COLL
from ..language.syntax import Expr
from ..printing.runs import Runs
from .registry import nothing, register


@dataclass(frozen=True)
class ListLit(Expr):
    items: tuple[Expr, ...]


# ---------------------------------------------------------------- grammar
def _list_lit(meta, c):
    return ListLit(span(meta), tuple(a for a in c if a is not None))


GRAMMAR = {"list_lit": _list_lit}


# ---------------------------------------------------------------- checks
def check(ck, e, scope):
    for i in e.items:
        ck.expr(i, scope)
    return COLL


# ---------------------------------------------------------------- compilation
def compile(c, e, env):
    fs = [c.expr(i, env) for i in e.items]
    return lambda s: tuple(f(s) for f in fs)


def generate(src, e, env):
    return "(" + "".join(src.sub(i, env) + ", " for i in e.items) + ")"


# ---------------------------------------------------------------- reading
def read(v, e) -> Runs:
    if v.lang == "en" and len(e.items) > 1:
        return v.exprs(e.items[:-1]) + [("", " and ")] + v.expr(e.items[-1])
    return v.exprs(e.items)


# ---------------------------------------------------------------- analyses
def sources(e, use):
    for item in e.items:
        use.mark(item)


register(ListLit, "expression", grammar=GRAMMAR, check=check, compile=compile, generate=generate, read=read, order=nothing, sources=sources)
