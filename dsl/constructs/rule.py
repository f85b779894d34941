"""`rule NAME(params)`: a named block of statements that `do` carries out.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language.building import body_of, span
from ..language.kinds import ANY, Scope
from ..language.syntax import Decl, Stmt
from ..printing.runs import Item, notes_of, say
from .registry import register


@dataclass(frozen=True)
class Rule(Decl):
    keyword = "rule"
    params: tuple[str, ...]
    body: tuple[Stmt, ...]


# ---------------------------------------------------------------- grammar
def _rule(meta, c):
    params = tuple(str(p) for p in c[1:-1] if p is not None)
    texts, body = body_of(c[-1])
    return Rule(str(c[0]), texts, span(meta), params, body)


GRAMMAR = {"rule": _rule}


# ---------------------------------------------------------------- checks
def check(ck, d):
    ck.block(d.body, Scope({p: ANY for p in d.params}), in_trigger=False)


# ---------------------------------------------------------------- reading
def rule_item(v, r) -> Item:
    it = Item("rule", [("term", v.title(r.name))], v.body(r.body), notes_of(r.texts, v.lang), r.name, span=r.span)
    if r.params:
        p = ", ".join(r.params)
        it.texts.insert(0, ("params", say(v.lang, f"受け取るもの: {p}", f"takes: {p}")))
    return it


register(Rule, "declaration", grammar=GRAMMAR, check=check, read=rule_item)
