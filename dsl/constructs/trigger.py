"""`trigger NAME when C`: statements that run as soon as a condition becomes true.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..language.building import body_of, span
from ..language.kinds import BOOL, COLL, Scope, element_kind
from ..language.syntax import Decl, Expr, Stmt
from ..printing.runs import Item, notes_of, say
from ..printing.runs import plain as plain_text
from .registry import register


@dataclass(frozen=True)
class Trigger(Decl):
    keyword = "trigger"
    var: Optional[str]
    coll: Optional[Expr]
    cond: Expr
    body: tuple[Stmt, ...]


# ---------------------------------------------------------------- grammar
def _trigger(meta, c):
    texts, body = body_of(c[4])
    return Trigger(str(c[0]), texts, span(meta), str(c[1]) if c[1] is not None else None, c[2], c[3], body)


GRAMMAR = {"trigger": _trigger}


# ---------------------------------------------------------------- checks
def check(ck, d):
    scope = Scope()
    if d.var:
        ck.expr(d.coll, scope, want=COLL)
        scope = scope.child(**{d.var: element_kind(d.coll)})
    ck.expr(d.cond, scope, want=BOOL)
    ck.block(d.body, scope, in_trigger=True)


# ---------------------------------------------------------------- reading
def read_bound(v, t, read):
    """Read something of trigger `t` with its `for each` name bound: the one the condition picks out
    ('that player'), never 'each player', wherever the reading is printed (the sheet, the endings)."""
    if not t.var or v.local(t.var) is not None:
        return read()
    with v.bound(t.var, v.noun(t.coll)):
        return read()


def whenever(v, t) -> str:
    def read():
        c = plain_text(v.expr(t.cond))
        if t.var:
            who = plain_text(v.expr(t.coll))
            return say(v.lang, f"{who}のだれかについて「{c}」になったら、すぐに:", f"As soon as, for one of {who}, {c}:")
        return say(v.lang, f"「{c}」になったら、すぐに:", f"As soon as {c}:")
    return read_bound(v, t, read)


def trigger_item(v, t) -> Item:
    def read():
        it = Item("rule", [("term", v.title(t.name))], v.body(t.body), notes_of(t.texts, v.lang), t.name, span=t.span)
        it.texts.insert(0, ("when", whenever(v, t)))
        return it
    return read_bound(v, t, read)


# ---------------------------------------------------------------- narration
def _narrate(n, ev) -> str:
    return f"!! {n.name(ev['name'])}"


register(Trigger, "declaration", grammar=GRAMMAR, check=check, read=trigger_item, events={"trigger": _narrate})
