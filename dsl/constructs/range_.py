"""`A..B`: the whole numbers from A to B, both ends included, as a collection: what a list of
numbers written out is (`[2, 3, ..., 12]`), wherever one may stand (`for each`, `chooses x
from`, `contains`, `count`, a filter). A range from above its end is empty.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.errors import RuleError
from ..language.building import span
from ..language.kinds import COLL, NUM
from ..language.limits import MAX_OPTIONS
from ..language.syntax import Expr
from ..printing.runs import Runs
from .registry import nothing, register


@dataclass(frozen=True)
class Range(Expr):
    low: Expr
    high: Expr


# ---------------------------------------------------------------- grammar
def _range_lit(meta, c):
    return Range(span(meta), c[0], c[1])


GRAMMAR = {"range_lit": _range_lit}


# ---------------------------------------------------------------- checks
def check(ck, e, scope):
    ck.expr(e.low, scope, want=NUM)
    ck.expr(e.high, scope, want=NUM)
    return COLL


# ---------------------------------------------------------------- compilation
def numbers(low, high, where=None) -> tuple:
    """The numbers low..high; one worked out during play may not be long past what any
    decision can offer (the engine's bound on a decision's moves)."""
    if type(low) is not int or type(high) is not int:
        raise RuleError("evaluation failed", f"a range runs between whole numbers, not {low!r} and {high!r}", where)
    if high - low >= MAX_OPTIONS:
        raise RuleError("evaluation failed", f"the range {low}..{high} holds {high - low + 1:,} numbers, "
                        f"more than the {MAX_OPTIONS:,} a decision may offer", where)
    return tuple(range(low, high + 1))


def compile(c, e, env):
    low, high, where = c.expr(e.low, env), c.expr(e.high, env), e.span
    return lambda s: numbers(low(s), high(s), where)


def generate(src, e, env):
    return f"{src.value(numbers)}({src.sub(e.low, env)}, {src.sub(e.high, env)}, {src.value(e.span)})"


# ---------------------------------------------------------------- reading
def read(v, e) -> Runs:
    """'the numbers from 2 to 12' / 「2〜12の数」; a choice from one reads as a choice `from 2 to
    12` does (choose.py)."""
    low, high = v.expr(e.low), v.expr(e.high)
    if v.lang == "ja":
        return low + [("", "〜")] + high + [("", "の数")]
    return [("", "the numbers from ")] + low + [("", " to ")] + high


# ---------------------------------------------------------------- analyses
# order and sources: the numbers always come in rising order, from no zone
register(Range, "expression", grammar=GRAMMAR, check=check, compile=compile, generate=generate, read=read,
         order=nothing, sources=nothing)
