"""`roll ZONE`: a chance event that gives every die in a zone a random face.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language.building import span
from ..language.syntax import Expr, Stmt
from ..printing.runs import Item, sentence
from .registry import nothing, register


@dataclass(frozen=True)
class Roll(Stmt):
    zone: Expr


# ---------------------------------------------------------------- grammar
def _roll(meta, c):
    return Roll(span(meta), c[0])


GRAMMAR = {"roll": _roll}


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    ck.expr(st.zone, scope)
    if t:
        ck.error(st.span, "a trigger cannot roll dice", "chance happens in the turn structure")


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    c.chance_stmt(st, env, owner, "roll")


# ---------------------------------------------------------------- reading
def read(v, st) -> Item:
    z = v.expr(st.zone)
    return sentence(v, st, z + [("", "を振る。")], [("", "Roll ")] + z + [("", ".")])


# ---------------------------------------------------------------- narration
def _narrate(n, ev) -> str:
    faces = ", ".join(str(f) for f in ev["faces"])
    return n.say(f"   振った目: {faces}", f"   rolled: {faces}")


register(Roll, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read, events={"roll": _narrate}, order=nothing)
