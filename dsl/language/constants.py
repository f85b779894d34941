"""What can be worked out before play: the one definition the checker and the engine share.

A constant is made of numbers, names the caller knows before play (parameters, player_count,
true and false), `not`, unary minus, arithmetic, comparisons, `and`, `or`, `if then else`,
and the builtins marked constant (max, min, abs) over plain arguments.

May import: the syntax module and the builtins table (both leaves here).
"""
from __future__ import annotations

import operator
from typing import Callable, Optional

from . import syntax as S

COMPARISONS = {"=": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
        ">": operator.gt, ">=": operator.ge}
_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod}
_CONSTANT_CALLS = {"max": max, "min": min, "abs": lambda *a: abs(a[0])}


def operands(e) -> Optional[tuple]:
    """The parts a constant form is made of; None when e is not a constant form. Names are
    constant forms whose value the caller decides."""
    if isinstance(e, (S.Num, S.Name)):
        return ()
    if isinstance(e, S.Unary):
        return (e.operand,)
    if isinstance(e, S.Binary):
        return (e.left, e.right)
    if isinstance(e, S.IfExpr):
        return (e.cond, e.then, e.other)
    if isinstance(e, S.Call) and _constant_call(e):
        return e.args
    return None


def _constant_call(e) -> bool:
    from ..engine.builtins import BUILTINS
    b = BUILTINS.get(e.fn)
    return b is not None and b.constant and bool(e.args) and not any(isinstance(a, S.Comprehension) for a in e.args)


def first_not_constant(e, why_not: Callable[[S.Name], Optional[str]]) -> Optional[tuple]:
    """The first part of e that is not known before play, and why; None if all of it is.
    `why_not(name)` says why a name is not known before play, or None when it is."""
    if isinstance(e, S.Name):
        why = why_not(e)
        return (e, why) if why else None
    parts = operands(e)
    if parts is None:
        if isinstance(e, S.Str):
            return e, f'"{e.value}" is a text'
        if isinstance(e, S.Call):
            return e, f"{e.fn}(...) depends on the state of play"
        return e, "this depends on the state of play"
    for p in parts:
        bad = first_not_constant(p, why_not)
        if bad:
            return bad
    return None


class NotConstant(Exception):
    def __init__(self, node):
        super().__init__(node)
        self.node = node


def evaluate(e, value_of: Callable[[str], object]):
    """The value of a constant. `value_of(name)` gives a name's value or raises KeyError;
    anything that is not a constant form raises NotConstant naming the part."""
    if operands(e) is None:
        raise NotConstant(e)
    if isinstance(e, S.Num):
        return e.value
    if isinstance(e, S.Name):
        try:
            return value_of(e.id)
        except KeyError:
            raise NotConstant(e) from None
    if isinstance(e, S.Unary):
        v = evaluate(e.operand, value_of)
        return (not v) if e.op == "not" else -v
    if isinstance(e, S.Binary):
        a = evaluate(e.left, value_of)
        if e.op == "and":
            return a and evaluate(e.right, value_of)
        if e.op == "or":
            return a or evaluate(e.right, value_of)
        b = evaluate(e.right, value_of)
        if e.op in COMPARISONS:
            return COMPARISONS[e.op](a, b)
        if e.op in _ARITH and not isinstance(a, bool) and not isinstance(b, bool) \
                and isinstance(a, int) and isinstance(b, int):
            return _ARITH[e.op](a, b)
        raise NotConstant(e)
    if isinstance(e, S.IfExpr):
        return evaluate(e.then if evaluate(e.cond, value_of) else e.other, value_of)
    return _CONSTANT_CALLS[e.fn](*[evaluate(a, value_of) for a in e.args])


def parameters_at(parameters, n: int) -> dict:
    """The value of each parameter with n players, as the engine works it out; one that cannot
    be worked out (an error the checker reports on its own) is left out."""
    values: dict = {}

    def value_of(name):
        if name == "player_count":
            return n
        if name in ("true", "false"):
            return name == "true"
        return values[name]
    for p in parameters:
        expr = dict(p.by_players).get(n, p.otherwise) if p.by_players else p.value
        try:
            values[p.name] = evaluate(expr, value_of) if expr is not None else None
        except (NotConstant, ArithmeticError, TypeError, ValueError, KeyError):
            continue
        if values[p.name] is None:
            del values[p.name]
    return values
