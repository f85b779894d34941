"""`shuffle ZONE`: a chance event that puts a zone's pieces in a random order.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..engine.values import ZoneId
from ..language.building import span
from ..language.kinds import ZONE
from ..language.syntax import Expr, Stmt
from ..printing.runs import Item, sentence
from .registry import nothing, register


@dataclass(frozen=True)
class Shuffle(Stmt):
    zone: Expr


# ---------------------------------------------------------------- grammar
def _shuffle(meta, c):
    return Shuffle(span(meta), c[0])


GRAMMAR = {"shuffle": _shuffle}


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    ck.expr(st.zone, scope, want=ZONE)
    if t:
        ck.error(st.span, "a trigger cannot shuffle", "chance happens in the turn structure")


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    c.chance_stmt(st, env, owner, _outcomes, _settle)


def _outcomes(game, items) -> int:
    return math.factorial(len(items))


def _settle(game, s, zone, items, outcome):
    pool = list(items)
    order = []
    for i in range(len(pool), 0, -1):
        outcome, k = divmod(outcome, i)
        order.append(pool.pop(k))
    if isinstance(zone, ZoneId):
        s.zones[zone][:] = order
    if s.log is not None:
        s.log.append({"event": "shuffle", "zone": game.zone_names[zone] if isinstance(zone, ZoneId) else None})


# ---------------------------------------------------------------- reading
def read(v, st) -> Item:
    z = v.expr(st.zone)
    return sentence(v, st, z + [("", "をよく混ぜる。")], [("", "Shuffle ")] + z + [("", ".")])


# ---------------------------------------------------------------- narration
def _narrate(n, ev) -> str:
    z = n.zone(ev["zone"])
    return n.say(f"   {z}をシャッフル", f"   shuffle {z}")


register(Shuffle, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read, events={"shuffle": _narrate}, order=nothing)
