"""`not C` and `-N`.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language.building import span
from ..language.kinds import BOOL, NUM
from ..language.syntax import Expr
from ..printing.runs import Runs, negate
from .registry import nothing, register


@dataclass(frozen=True)
class Unary(Expr):
    op: str          # 'not' or '-'
    operand: Expr


# ---------------------------------------------------------------- grammar
def _not_expr(meta, c):
    return Unary(span(meta), "not", c[0])


def _neg(meta, c):
    return Unary(span(meta), "-", c[0])


GRAMMAR = {"not_expr": _not_expr, "neg": _neg}


# ---------------------------------------------------------------- checks
def check(ck, e, scope):
    if e.op == "not":
        ck.expr(e.operand, scope, want=BOOL)
        return BOOL
    ck.expr(e.operand, scope, want=NUM)
    return NUM


# ---------------------------------------------------------------- compilation
def compile(c, e, env):
    f = c.expr(e.operand, env)
    if e.op == "not":
        return lambda s: not f(s)
    return lambda s: -f(s)


def generate(src, e, env):
    return f"({'not ' if e.op == 'not' else '-'}{src.sub(e.operand, env)})"


# ---------------------------------------------------------------- reading
def read(v, e) -> Runs:
    if e.op == "not":
        inner = v.expr(e.operand)
        if v.lang == "ja":
            return negate(inner)
        return _negated_en(inner)
    return [("", "−")] + v.expr(e.operand)


def _negated_en(runs: Runs) -> Runs:
    """'that card is a joker' -> 'that card is not a joker'; 'has life' -> 'does not have life'."""
    text = "".join(t for _, t in runs)
    if " and " not in text and " or " not in text:
        for i, (style, t) in enumerate(runs):
            for word, neg in ((" is ", " is not "), (" has ", " does not have ")):
                if word in t and text.count(word.strip()) == 1:
                    return runs[:i] + [(style, t.replace(word, neg, 1))] + runs[i + 1:]
    return [("", "not (")] + runs + [("", ")")]


register(Unary, "expression", grammar=GRAMMAR, check=check, compile=compile, generate=generate, read=read, order=nothing, sources=nothing)
