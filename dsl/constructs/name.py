"""A name: a local, parameter, counter, value, zone, component, symbol or constant
(`players`, `teams`, `player_count`, `nobody`, `true`, `false`).

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.builtins import BUILTINS
from ..engine.errors import RuleError
from ..engine.source import SLOT_FREE, called
from ..language import syntax as S
from ..language.building import span
from ..language.kinds import ANY, BOOL, COLL, NUM, TEXT, ZONE
from ..language.syntax import Expr
from ..printing.runs import Runs
from .registry import nothing, register

# The longest argument code written where a value's parameter is read (a slot, a column of it)
_INLINED_ARGUMENT = 60


@dataclass(frozen=True)
class Name(Expr):
    id: str


# ---------------------------------------------------------------- grammar
def _name(meta, c):
    return Name(span(meta), str(c[0]))


GRAMMAR = {"name": _name}


# ---------------------------------------------------------------- checks
def check(ck, e, scope):
    n = e.id
    if n in scope.names:
        return scope.names[n]
    if n == "players":
        return "players"
    if n == "teams":
        return COLL
    if n == "nobody":
        return "nobody"
    if n in ("true", "false"):
        return BOOL
    if n == "player_count":
        return NUM
    d = ck.declared.get(n)
    if d is not None:
        ck.used.add(n)
        if isinstance(d, S.Parameter):
            return NUM
        if isinstance(d, S.Counter):
            if d.per:
                ck.error(e.span, f"'{n}' is kept per {d.per}: say whose, e.g. {n}(...)")
            return NUM if d.kind == "counter" else ck.variable_kind(n)
        if isinstance(d, S.Define):
            if d.params:
                ck.error(e.span, f"'{n}' takes {len(d.params)} argument(s)")
            return ck.value_kind(d)
        if isinstance(d, S.Zone):
            return "family" if d.per else ZONE
        if isinstance(d, S.Board):
            return "family"
        if isinstance(d, S.Component):
            return COLL
        if isinstance(d, S.Symbol) and n in ck.symbols:
            return TEXT         # a card or die value with a title: the declaration changes only its print
        ck.error(e.span, f"'{n}' is a {S.kind_of(d)}, not a value")
        return ANY
    if n in ck.symbols:
        return TEXT
    if n in BUILTINS:
        ck.error(e.span, f"'{n}' is a function: call it as {n}(...)")
        return ANY
    candidates = lambda: list(scope.names) + list(ck.declared) + ["players", "nobody", "true", "false"] + list(ck.symbols)  # noqa: E731
    ck.error(e.span, f"unknown name '{n}'", ck.did_you_mean(n, candidates))
    return ANY


# ---------------------------------------------------------------- compilation
def compile(c, e, env):
    n = e.id
    if n in env.locals:
        i = env.locals[n]
        return lambda s: s.loc_slots[i]
    if n in env.bound:
        return env.bound[n]
    if n == "players":
        ps = c._players
        return lambda s: ps
    if n == "teams":
        ts = c.teams
        return lambda s: ts
    if n == "player_count":
        k = c.n
        return lambda s: k
    if n == "nobody":
        return lambda s: None
    if n in ("true", "false"):
        v = n == "true"
        return lambda s: v
    if n in c.params:
        v = c.params[n]
        return lambda s: v
    if n in c.var_slots:
        i = c.var_slots[n]
        return lambda s: s.vars[i]
    if n in c.defines:
        d = c.defines[n]
        if d.params:
            raise RuleError("name", f"'{n}' needs {len(d.params)} argument(s)", e.span)
        return c.memo_value(n, d)
    if n in c.zones:
        z = c.zones[n]
        return lambda s: z
    if n in c.kind_pieces:
        ps = c.kind_pieces[n]
        return lambda s: ps
    if n in c.symbols:
        return lambda s: n
    raise RuleError("name", f"unknown name '{n}'", e.span)


def generate(src, e, env):
    """The same cases as `compile`, as code: a slot or variable by its index, a constant by value."""
    c, n = src.c, e.id
    if n in env.locals:
        return f"s.loc_slots[{env.locals[n]}]"
    if n in env.bound:
        # an argument is worked out where its parameter is read, as the closures do: in place
        # when its code is short and calls no function but Python's own (min, len), so a value
        # passing its parameter on to another cannot make the code grow with each link; else by
        # calling its function
        code = getattr(env.bound[n], "code", None)
        if code is not None and len(code[0]) <= _INLINED_ARGUMENT and all(f in SLOT_FREE for f in called(*code)):
            return src.of(env.bound[n])
        return src.call(env.bound[n])
    if n in ("players", "teams", "player_count", "nobody", "true", "false") or n in c.params:
        return src.value(compile(c, e, env)(None))
    if n in c.var_slots:
        return f"s.vars[{c.var_slots[n]}]"
    if n in c.defines:
        if c.defines[n].params:
            return None
        value = compile(c, e, env)      # kept in the memo until the state changes: read there when it is,
        k = value.memo_key              # else worked out by its expression's function and kept
        return f"(s.memo[{k!r}] if {k!r} in s.memo else s.memo.setdefault({k!r}, {src.call(value.computed)}))"
    if n in c.zones or n in c.kind_pieces or n in c.symbols:
        return src.value(compile(c, e, env)(None))
    return None


# ---------------------------------------------------------------- reading
def read(v, e) -> Runs:
    return v.name(e.id)


# ---------------------------------------------------------------- analyses
def sources(e, use):
    use.name_sources(e.id)


register(Name, "expression", grammar=GRAMMAR, check=check, compile=compile, generate=generate, read=read, order=nothing,
         sources=sources)
