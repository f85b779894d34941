"""`a and b`, `a or b`, comparisons and arithmetic.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.errors import RuleError
from ..language import syntax as S
from ..language.constants import COMPARISONS
from ..language.kinds import BOOL, COLL, NUM, ZONE, unlike
from ..language.kinds import a as a_kind
from ..language.syntax import Expr
from ..printing import comparisons, idioms
from ..printing.runs import Runs, fill, join, say
from .registry import nothing, register


@dataclass(frozen=True)
class Binary(Expr):
    op: str          # and or + - * // % = != < <= > >=
    left: Expr
    right: Expr




# ---------------------------------------------------------------- grammar
def _chain(meta, c, op=None):
    result = c[0]
    i = 1
    while i < len(c):
        if op is None:
            o, rhs = str(c[i]), c[i + 1]
            i += 2
        else:
            o, rhs = op, c[i]
            i += 1
        result = Binary(S.Span(result.span.line, result.span.column, rhs.span.end_line, rhs.span.end_column, result.span.file), o, result, rhs)
    return result


def _or_expr(meta, c):
    return _chain(meta, c, "or")


def _and_expr(meta, c):
    return _chain(meta, c, "and")


GRAMMAR = {"or_expr": _or_expr, "and_expr": _and_expr, "comparison": _chain, "sum": _chain, "term": _chain}


# ---------------------------------------------------------------- checks
def check(ck, e, scope):
    if e.op in ("and", "or"):
        ck.expr(e.left, scope, want=BOOL)
        ck.expr(e.right, scope, want=BOOL)
        return BOOL
    if e.op in ("+", "-", "*", "//", "%"):
        ck.expr(e.left, scope, want=NUM)
        ck.expr(e.right, scope, want=NUM)
        if e.op in ("//", "%") and isinstance(e.right, S.Num) and e.right.value == 0:
            ck.error(e.right.span, f"'{e.op}' by zero has no value", "divide by a number other than 0")
        return NUM
    if isinstance(e.left, S.ListLit) and isinstance(e.right, S.ListLit):
        # `[count, face] > [bid_count, bid_face]`: pairs ranked by their first item, then the next
        if len(e.left.items) != len(e.right.items):
            ck.error(e.span, f"cannot compare {len(e.left.items)} values with {len(e.right.items)}",
                     "compare lists of the same length, item by item: [a, b] > [c, d]")
        for x, y in zip(e.left.items, e.right.items):
            check(ck, Binary(e.span, e.op, x, y), scope)
        return BOOL
    a = ck.expr(e.left, scope)
    b = ck.expr(e.right, scope)
    if e.op in ("<", "<=", ">", ">=") and (a in (ZONE, COLL, "family") or b in (ZONE, COLL, "family")):
        ck.error(e.span, f"cannot compare {a_kind(a)} with {a_kind(b)} by size", "compare counts, e.g. count(hand(p))")
    elif unlike(a, b):
        # `matching > bidder`: a number against a player is a mistake, not a question of size
        ck.error(e.span, f"cannot compare {a_kind(a)} with {a_kind(b)}",
                 "compare like with like: a count with a number, a player with a player (seat(p) gives a number)")
    return BOOL


# ---------------------------------------------------------------- compilation
def compile(c, e, env):
    a, b = c.expr(e.left, env), c.expr(e.right, env)
    op = e.op
    fast = fast_compare(c, e, env, op)
    if fast is not None:
        return fast
    if op == "and":
        return lambda s: a(s) and b(s)
    if op == "or":
        return lambda s: a(s) or b(s)
    if op == "+":
        return lambda s: a(s) + b(s)
    if op == "-":
        return lambda s: a(s) - b(s)
    if op == "*":
        return lambda s: a(s) * b(s)
    if op == "//":
        return lambda s: a(s) // b(s)
    if op == "%":
        return lambda s: a(s) % b(s)
    if op == "=":
        return lambda s: a(s) == b(s)
    if op == "!=":
        return lambda s: a(s) != b(s)
    if op == "<":
        return lambda s: a(s) < b(s)
    if op == "<=":
        return lambda s: a(s) <= b(s)
    if op == ">":
        return lambda s: a(s) > b(s)
    if op == ">=":
        return lambda s: a(s) >= b(s)
    raise RuleError("operator", f"unknown operator {op}", e.span)


_PYTHON_OPS = {"and": "and", "or": "or", "+": "+", "-": "-", "*": "*", "//": "//", "%": "%",
               "=": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


def generate(src, e, env):
    op = _PYTHON_OPS.get(e.op)
    if op is None:
        return None                 # the closure names the unknown operator
    left, right = src.sub(e.left, env), src.sub(e.right, env)
    return f"({left} {op} {right})"


def fast_compare(c, e, env, op):
    """Comparisons of a slot or variable with a number or another slot or variable
    are the inner loop of legal-move generation: read the fields directly."""
    if op not in ("=", "!=", "<", "<=", ">", ">="):
        return None

    def leaf(x):
        if isinstance(x, S.Num):
            return ("k", x.value)
        if isinstance(x, S.Attr) and x.name == "face" and isinstance(x.obj, S.Name) \
                and x.obj.id in env.locals:
            return ("f", env.locals[x.obj.id])
        if isinstance(x, S.Name):
            if x.id in env.locals:
                return ("l", env.locals[x.id])
            if x.id not in env.bound and x.id in c.var_slots:
                return ("v", c.var_slots[x.id])
        return None
    l, r = leaf(e.left), leaf(e.right)
    if l is None or r is None or (l[0] == "k" and r[0] == "k"):
        return None
    cmp = COMPARISONS[op]
    (lk, li), (rk, ri) = l, r
    if lk == "f" and rk == "v":
        return lambda s: cmp(s.face[s.loc_slots[li]], s.vars[ri])
    if lk == "f" and rk == "k":
        return lambda s: cmp(s.face[s.loc_slots[li]], ri)
    if lk == "f" or rk == "f":
        return None
    if lk == "l" and rk == "k":
        return lambda s: cmp(s.loc_slots[li], ri)
    if lk == "l" and rk == "v":
        return lambda s: cmp(s.loc_slots[li], s.vars[ri])
    if lk == "l" and rk == "l":
        return lambda s: cmp(s.loc_slots[li], s.loc_slots[ri])
    if lk == "v" and rk == "k":
        return lambda s: cmp(s.vars[li], ri)
    if lk == "v" and rk == "v":
        return lambda s: cmp(s.vars[li], s.vars[ri])
    if lk == "v" and rk == "l":
        return lambda s: cmp(s.vars[li], s.loc_slots[ri])
    if lk == "k" and rk == "l":
        return lambda s: cmp(li, s.loc_slots[ri])
    if lk == "k" and rk == "v":
        return lambda s: cmp(li, s.vars[ri])
    return None


# ---------------------------------------------------------------- reading
# Comparisons read as sentences; arithmetic keeps its symbols, which read the same in both.
_COMPARE = {
    "=": ("{a}が{b}", "{a} is {b}"),
    "!=": ("{a}が{b}ではない", "{a} is not {b}"),
    "<": ("{a}が{b}未満", "{a} is less than {b}"),
    "<=": ("{a}が{b}以下", "{a} is at most {b}"),
    ">": ("{a}が{b}より大きい", "{a} is more than {b}"),
    ">=": ("{a}が{b}以上", "{a} is at least {b}"),
    "and": ("{a}、かつ{b}", "{a} and {b}"),
    "or": ("{a}、または{b}", "{a} or {b}"),
    "+": ("{a} + {b}", "{a} + {b}"),
    "-": ("{a} − {b}", "{a} − {b}"),
    "*": ("{a} × {b}", "{a} × {b}"),
    "//": ("{a} ÷ {b}(端数切り捨て)", "{a} ÷ {b} (rounded down)"),
    "%": ("{a}を{b}で割った余り", "the remainder of {a} ÷ {b}"),
}


def _grouped(x: S.Expr, runs: Runs, op: str) -> Runs:
    """`a and (b or c)`: keep the grouping a reader needs."""
    if isinstance(x, Binary) and x.op in ("and", "or") and x.op != op:
        return [("", "(")] + runs + [("", ")")]
    return runs


_LEVEL = {"+": 1, "-": 1, "*": 2, "//": 2, "%": 2}


def _bracketed(x: S.Expr, runs: Runs, op: str, right: bool) -> Runs:
    """`2 * (a - b)` keeps its brackets, as does a number chosen by a condition inside a sum: a
    reader works the formula out as printed."""
    inner = _LEVEL.get(x.op) if isinstance(x, Binary) else None
    if isinstance(x, S.IfExpr) or inner is not None and (
            inner < _LEVEL[op] or right and op in ("-", "//", "%") and inner == _LEVEL[op]):
        return [("", "(")] + runs + [("", ")")]
    return runs


def _none_left(e) -> bool:
    """`count(X) <= 0` or `count(X) < 1`: none left, said as such."""
    return isinstance(e.left, S.Call) and e.left.fn == "count" and isinstance(e.right, S.Num) \
        and (e.op, e.right.value) in (("<=", 0), ("<", 1))


def _mark(v, e) -> Runs | None:
    """`ending = 1` where `ending` is a mark (prose._flags): the state itself, 'the end is triggered'."""
    if e.op not in ("=", "!=") or not (isinstance(e.left, S.Name) and e.left.id in v.flags
                                       and isinstance(e.right, S.Num) and e.right.value in (0, 1)):
        return None
    state = v.title(e.left.id)
    if (e.op == "=") == (e.right.value == 1):
        return [("", say(v.lang, f"「{state}」の印がある", state))]
    return [("", say(v.lang, f"「{state}」の印がない", f"not: {state}"))]


def read(v, e) -> Runs:
    mark = _mark(v, e)
    if mark is not None:
        return mark
    state = idioms.in_state(v, e)
    if state is not None:
        return idioms.read_state(v, *state)
    counted = idioms.state_count(v, e)
    if counted is not None:
        return idioms.read_state_count(v, *counted)
    found = idioms.any_of(v, e)
    if found is not None:
        return idioms.read_any_of(v, *found)
    reached = comparisons.someone_reaches(e)
    if reached is not None:
        return comparisons.read_someone_reaches(v, e, *reached)
    kind = comparisons.of_kind(v, e)
    if kind is not None:
        return comparisons.read_of_kind(v, *kind)
    if e.op == "and":
        merged = comparisons.same_attributes(idioms.parts_of(e, "and"))
        if any(isinstance(m, tuple) for m in merged):
            said = [comparisons.read_same_attributes(v, *m) if isinstance(m, tuple) else _grouped(m, v.expr(m), "and")
                    for m in merged]
            return join(said, say(v.lang, "、かつ", " and "))
    raise_ = idioms.raised(e)
    if raise_ is not None:
        return idioms.read_raise(v, *raise_)
    op = e.op
    if _none_left(e):
        op = "="            # a count is never below 0: 'at most 0' is 'is 0'
    ja, en = _COMPARE[op]
    template = say(v.lang, ja, en)
    a, b = v.expr(e.left), v.expr(e.right)
    if op != e.op:
        b = [("", "0")]
    if isinstance(e.left, S.ListLit) and isinstance(e.right, S.ListLit) and e.op not in ("and", "or"):
        a, b = [("", "(")] + a + [("", ")")], [("", "(")] + b + [("", ")")]
        template += say(v.lang, "(前から順に比べる)", ", compared item by item from the first")
    if e.op in ("=", "!=") and isinstance(e.right, S.Name) and e.right.id == "nobody":
        # 'nobody' is a person: a colour or a number that is not there is 'none'
        someone = v.is_someone(e.left)
        template = "{a}が" + (("いない" if someone else "ない") if e.op == "=" else ("いる" if someone else "ある"))
        if v.lang == "en":
            template = "{a} is " + ("" if e.op == "=" else "not ") + ("nobody" if someone else "none")
    if e.op in _LEVEL:
        a, b = _bracketed(e.left, a, e.op, False), _bracketed(e.right, b, e.op, True)
    if e.op in ("and", "or"):
        a = _grouped(e.left, a, e.op)
        b = _grouped(e.right, b, e.op)
    return fill(template.replace("{a}", "{0}").replace("{b}", "{1}"), [a, b])


# ---------------------------------------------------------------- analyses
def order(e, use):
    # comparing two collections with `=` compares them item by item, in order
    if e.op in ("=", "!="):
        use.reads_order(e.left)
        use.reads_order(e.right)


register(Binary, "expression", grammar=GRAMMAR, check=check, compile=compile, generate=generate, read=read, order=order, sources=nothing)
