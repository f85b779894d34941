"""`setup` and `play`: the top of the turn structure.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language.building import body_of, span
from ..language.kinds import Scope
from ..language.syntax import Decl, Stmt
from .registry import Absent, register


@dataclass(frozen=True)
class Flow(Decl):
    """`setup` or `play`: the top of the turn structure."""
    body: tuple[Stmt, ...]


# ---------------------------------------------------------------- grammar
def _setup(meta, c):
    texts, body = body_of(c[0])
    return Flow("setup", texts, span(meta), body)


def _play(meta, c):
    texts, body = body_of(c[0])
    return Flow("play", texts, span(meta), body)


GRAMMAR = {"setup": _setup, "play": _play}


# ---------------------------------------------------------------- checks
def check(ck, d):
    ck.block(d.body, Scope(), in_trigger=False)


register(Flow, "declaration", grammar=GRAMMAR, check=check, read=Absent("setup and play are read step by step, through their statements"))
