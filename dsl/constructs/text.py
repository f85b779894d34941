"""A quoted text, `"..."`.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language.building import span, unquote
from ..language.kinds import TEXT
from ..language.syntax import Expr
from ..printing.runs import Runs
from .registry import nothing, register


@dataclass(frozen=True)
class Str(Expr):
    value: str


# ---------------------------------------------------------------- grammar
def _str_lit(meta, c):
    return Str(span(meta), unquote(c[0]))


GRAMMAR = {"str_lit": _str_lit}


# ---------------------------------------------------------------- checks
def check(ck, e, scope):
    return TEXT


# ---------------------------------------------------------------- compilation
def compile(c, e, env):
    v = e.value
    return lambda s: v


def generate(src, e, env):
    return src.value(e.value)       # a literal through repr: the text stays text


# ---------------------------------------------------------------- reading
def read(v, e) -> Runs:
    return v.name(e.value)


register(Str, "expression", grammar=GRAMMAR, check=check, compile=compile, generate=generate, read=read, order=nothing, sources=nothing)
