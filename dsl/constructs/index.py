"""`hand(p)[3]`: the k-th item of a zone or collection, counted from 1 in its order.

A zone's order is the order `first` and `top` read: item 1 is its first (the bottom, or the card
held longest), its last is its top. Asking for an item a zone does not hold is a dead end at the
expression (`out of range`); a number written in the rules that no zone of the game can reach is
an error before play.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.errors import RuleError
from ..engine.program import items_of
from ..engine.values import ZoneId
from ..language.building import span
from ..language.kinds import ANY, COLL, FAMILY, NUM, PIECE, ZONE, element_kind
from ..language.kinds import a as a_kind
from ..language import syntax as S
from ..language.syntax import Expr
from ..printing.runs import Runs
from .registry import nothing, register


@dataclass(frozen=True)
class Index(Expr):
    coll: Expr
    k: Expr


# ---------------------------------------------------------------- grammar
def _index(meta, c):
    return Index(span(meta), c[0], c[1])


GRAMMAR = {"index": _index}


# ---------------------------------------------------------------- checks
def check(ck, e, scope):
    kind = ck.expr(e.coll, scope)
    if kind not in (ZONE, COLL, ANY):
        ck.error(e.coll.span, f"'[k]' picks an item of a zone or a collection, and this is {a_kind(kind)}",
                 "e.g. `hand(p)[3]`, the third card in p's hand" if kind == FAMILY else "e.g. `hand(p)[3]`")
    ck.expr(e.k, scope, want=NUM)
    k = _written(e.k)
    if k is not None and k < 1:
        ck.error(e.k.span, f"there is no item {k}: items are counted from 1",
                 "the first item is `[1]`; the last of a zone is `top(...)`")
    elif k is not None and kind == ZONE:
        most = _most_pieces(ck)
        if most is not None and k > most:
            ck.error(e.k.span, f"no zone can hold {k} pieces: the game has {most}",
                     f"count from 1 up to {most}")
    return PIECE if kind == ZONE else element_kind(e.coll)


def _written(e):
    """k where it is written as a whole number (`3`, `-1`), else None."""
    if isinstance(e, S.Num) and isinstance(e.value, int):
        return e.value
    if isinstance(e, S.Unary) and e.op == "-" and isinstance(e.operand, S.Num) and isinstance(e.operand.value, int):
        return -e.operand.value
    return None


def _most_pieces(ck):
    """Every piece of the game, the most one zone can ever hold, where each count is written as
    a number (a count given by a parameter leaves it unknown: None)."""
    g = ck.game
    total = 0
    for d in ck.of(S.Component):
        if d.cards:
            for spec in d.cards:
                if spec.count is None:
                    total += 1
                elif isinstance(spec.count, S.Num) and isinstance(spec.count.value, int):
                    total += spec.count.value
                else:
                    return None
        elif isinstance(d.count, S.Num) and isinstance(d.count.value, int) and (g is not None or not d.count_per_player):
            total += d.count.value * (g.max_players if d.count_per_player else 1)
        else:
            return None
    return total


# ---------------------------------------------------------------- compilation
def compile(c, e, env):
    coll = c.expr(e.coll, env)
    k = c.expr(e.k, env)
    names = c.zone_names

    def item(s):
        v, at = coll(s), k(s)
        items = items_of(s, v)
        if type(at) is not int or not 1 <= at <= len(items):
            what = names[v] if isinstance(v, ZoneId) else "the collection"
            raise RuleError("out of range", f"asked for item {at!r} of {what}, which holds {len(items)}", e.span)
        return items[at - 1]
    return item


# ---------------------------------------------------------------- reading
def read(v, e) -> Runs:
    coll = v.expr(e.coll)
    k = _written(e.k)
    if k is not None:
        return coll + [("", f"の{k}番目")] if v.lang == "ja" else [("", f"the {_ordinal(k)} item in ")] + coll
    at = v.expr(e.k)
    return coll + [("", "の")] + at + [("", "番目")] if v.lang == "ja" else [("", "item number ")] + at + [("", " in ")] + coll


def _ordinal(k: int) -> str:
    if 10 <= k % 100 <= 20:
        return f"{k}th"
    return f"{k}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


# ---------------------------------------------------------------- analyses
def order(e, use):
    use.reads_order(e.coll)     # which item is k-th depends on the zone's order


# its value is one item, not a collection whose order could come from a zone
register(Index, "expression", grammar=GRAMMAR, check=check, compile=compile,
         generate=lambda src, e, env: None, read=read, order=order, sources=nothing)
