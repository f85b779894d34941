"""A whole number.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language.building import span
from ..language.kinds import NUM
from ..language.syntax import Expr
from ..printing.runs import Runs
from .registry import nothing, register


@dataclass(frozen=True)
class Num(Expr):
    value: int


# ---------------------------------------------------------------- grammar
def _int_lit(meta, c):
    return Num(span(meta), int(c[0]))


GRAMMAR = {"int_lit": _int_lit}


# ---------------------------------------------------------------- checks
def check(ck, e, scope):
    return NUM


# ---------------------------------------------------------------- compilation
def compile(c, e, env):
    v = e.value
    return lambda s: v


def generate(src, e, env):
    return src.value(e.value)


# ---------------------------------------------------------------- reading
def read(v, e) -> Runs:
    return [("num", str(e.value))]


register(Num, "expression", grammar=GRAMMAR, check=check, compile=compile, generate=generate, read=read, order=nothing, sources=nothing)
