"""`pass`: a statement that does nothing, where a block needs one.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language.building import span
from ..language.syntax import Stmt
from ..printing.runs import Item, sentence
from .registry import Absent, nothing, register


@dataclass(frozen=True)
class Pass(Stmt):
    pass


# ---------------------------------------------------------------- grammar
def _pass_stmt(meta, c):
    return Pass(span(meta))


GRAMMAR = {"pass_stmt": _pass_stmt}


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    pass


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    pass


# ---------------------------------------------------------------- reading
def read(v, st) -> Item:
    return sentence(v, st, [("", "何もしない。")], [("", "Nothing happens.")])


register(Pass, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read, events=Absent("it changes nothing, so there is nothing to tell"), order=nothing)
