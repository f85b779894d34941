"""`a if C else b`: one of two values.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language.building import span
from ..language.kinds import BOOL
from ..language.syntax import Expr
from ..printing.runs import Runs, say
from .registry import nothing, register


@dataclass(frozen=True)
class IfExpr(Expr):
    cond: Expr
    then: Expr
    other: Expr


# ---------------------------------------------------------------- grammar
def _if_expr(meta, c):
    return IfExpr(span(meta), c[0], c[1], c[2])


GRAMMAR = {"if_expr": _if_expr}


# ---------------------------------------------------------------- checks
def check(ck, e, scope):
    ck.expr(e.cond, scope, want=BOOL)
    a = ck.expr(e.then, scope)
    ck.expr(e.other, scope)
    return a


# ---------------------------------------------------------------- compilation
def compile(c, e, env):
    c, a, b = c.expr(e.cond, env), c.expr(e.then, env), c.expr(e.other, env)
    return lambda s: a(s) if c(s) else b(s)


def generate(src, e, env):
    cond, then, other = src.sub(e.cond, env), src.sub(e.then, env), src.sub(e.other, env)
    return f"({then} if {cond} else {other})"


# ---------------------------------------------------------------- reading
def read(v, e) -> Runs:
    c, a, b = v.expr(e.cond), v.expr(e.then), v.expr(e.other)
    return say(v.lang, c + [("", "なら")] + a + [("", "、そうでなければ")] + b,
               a + [("", " if ")] + c + [("", ", otherwise ")] + b)


# ---------------------------------------------------------------- analyses
def sources(e, use):
    use.mark(e.then)
    use.mark(e.other)


register(IfExpr, "expression", grammar=GRAMMAR, check=check, compile=compile, generate=generate, read=read, order=nothing, sources=sources)
