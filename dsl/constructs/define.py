"""`value NAME(params) = EXPR`: a named value, worked out when it is read.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language import chains
from ..language import syntax as S
from ..language.building import span
from ..language.kinds import ANY, Scope
from ..language.syntax import Decl, Expr
from ..printing.runs import Item, Runs, say
from ..printing.blocks import condition, conditions, is_long
from .registry import register


@dataclass(frozen=True)
class Define(Decl):
    keyword = "value"
    params: tuple[str, ...]
    expr: Expr


# ---------------------------------------------------------------- grammar
def _define(meta, c):
    params = tuple(str(p) for p in c[1:-2] if p is not None)
    return Define(str(c[0]), c[-1], span(meta), params, c[-2])


GRAMMAR = {"define": _define}


# ---------------------------------------------------------------- checks
def check(ck, d):
    scope = Scope({p: ANY for p in d.params})
    ck.expr(d.expr, scope)
    cycle = ck.once("value cycles", lambda: _cycles(ck)).get(d.name)
    if cycle:
        ck.error(d.span, f"value '{d.name}' is worked out from itself: {' -> '.join(cycle)}",
                 "a value cannot use itself; keep a running total in a counter and 'set' it")


# A value in a cycle is told the shortest way round it; in a cycle of more values than this,
# the others are told nothing more (each search reads the whole cycle)
_CYCLES_SHOWN = 20


def _cycles(ck) -> dict:
    """Value name -> the shortest path of values from it back to itself, for the values that
    are worked out from themselves (the compiler would never finish inlining them)."""
    graph = reads(ck.of(Define))
    out = {}
    for members in chains.cycles(graph):
        within = set(members)
        for name in members[:_CYCLES_SHOWN]:
            out[name] = chains.shortest_cycle(graph, name, within)
    return out


def reads(defines) -> dict:
    """Value name -> the values its expression reads, by name (a parameter hides a value)."""
    defs = {x.name: x for x in defines}
    return {name: sorted(n for n in _names(x.expr) if n in defs and n not in x.params) for name, x in defs.items()}


def _names(e) -> set:
    """Every name and function name in an expression (its depth is bounded by the parser)."""
    import dataclasses
    out, stack = set(), [e]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        elif dataclasses.is_dataclass(x):
            if isinstance(x, S.Name):
                out.add(x.id)
            elif isinstance(x, S.Call):
                out.add(x.fn)
            stack.extend(getattr(x, f.name) for f in dataclasses.fields(x) if f.name != "span")
    return out


# ---------------------------------------------------------------- reading
def read(v, d, counts=()) -> Runs:
    from .rule import params_bound
    return params_bound(v, d, lambda nouns: v.expr(d.expr))


def read_blocks(v, d) -> list:
    """A value that is a long condition, or one number when a long condition holds and another when
    not (a bonus), set out as a list (blocks.py) where the Terms table defines it."""
    from .rule import params_bound
    e = d.expr
    if is_long(e):
        return params_bound(v, d, lambda nouns: [conditions(v, e)])
    if isinstance(e, S.IfExpr) and is_long(e.cond) and not isinstance(e.other, S.IfExpr):
        def read(nouns):
            then, other = v.expr(e.then), v.expr(e.other)
            head = say(v.lang, [("", "下の条件を満たせば")] + then + [("", "、そうでなければ")] + other,
                       then + [("", " if the conditions below hold, otherwise ")] + other)
            return [Item("sentence", head, [conditions(v, e.cond)])]
        return params_bound(v, d, read)
    if isinstance(e, S.IfExpr) and isinstance(e.other, S.IfExpr):
        return params_bound(v, d, lambda nouns: [_cases(v, e)])
    return []


def _cases(v, e) -> Item:
    """`if a then x else if b then y else z`: a table of cases, one a line, the first that applies
    counting, never one sentence of 'otherwise … otherwise'."""
    kids = []
    while isinstance(e, S.IfExpr):
        cond, listed = condition(v, e.cond)
        then = v.expr(e.then)
        kids.append(Item("branch", say(v.lang, cond + [("", "を満たせば" if listed else "なら")] + then,
                                       then + [("", " if ")] + cond + [("", " hold" if listed else "")]), listed))
        e = e.other
    kids.append(Item("branch", say(v.lang, [("", "そうでなければ")] + v.expr(e), [("", "otherwise ")] + v.expr(e))))
    return Item("sentence", [("", say(v.lang, "次のうち最初に当てはまるもの:", "the first of these that applies:"))], kids)


register(Define, "declaration", grammar=GRAMMAR, check=check, read=read)
