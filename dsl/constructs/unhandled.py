"""`unhandled`: the rules stop here on purpose; play ends in a dead end (an open question).

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language.building import span
from ..language.syntax import Stmt
from ..printing.runs import UNDECIDED, Item, say, sentence
from .registry import Absent, nothing, register


@dataclass(frozen=True)
class Unhandled(Stmt):
    pass


# ---------------------------------------------------------------- grammar
def _unhandled(meta, c):
    return Unhandled(span(meta))


GRAMMAR = {"unhandled": _unhandled}


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    pass


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    c.emit(c.dead("unhandled", "the rules stop here on purpose", st.span, owner), owner, st.span)


# ---------------------------------------------------------------- reading
def read(v, st) -> Item:
    item = sentence(v, st, [("", "ここから先はルールに書かれていない。")],
                     [("", "The rules do not say what happens from here.")])
    item.flag = say(v.lang, *UNDECIDED)
    return item


register(Unhandled, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read, events=Absent("the dead end it makes is the machine's own event"), order=nothing)
