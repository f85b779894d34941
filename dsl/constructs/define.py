"""`value NAME(params) = EXPR`: a named value, worked out when it is read.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language.building import span
from ..language.kinds import ANY, Scope
from ..language.syntax import Decl, Expr
from ..printing.runs import Runs
from .registry import register


@dataclass(frozen=True)
class Define(Decl):
    keyword = "value"
    params: tuple[str, ...]
    expr: Expr


# ---------------------------------------------------------------- grammar
def _define(meta, c):
    params = tuple(str(p) for p in c[1:-2] if p is not None)
    return Define(str(c[0]), c[-1], span(meta), params, c[-2])


GRAMMAR = {"define": _define}


# ---------------------------------------------------------------- checks
def check(ck, d):
    scope = Scope({p: ANY for p in d.params})
    ck.expr(d.expr, scope)


# ---------------------------------------------------------------- reading
def read(v, d, counts=()) -> Runs:
    from .rule import params_bound
    return params_bound(v, d, lambda nouns: v.expr(d.expr))


register(Define, "declaration", grammar=GRAMMAR, check=check, read=read)
