"""`counter` and `variable`: values that change during play, for the game or per player or team.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..language.building import span
from ..language.kinds import Scope
from ..language.syntax import Decl, Expr
from ..printing.runs import Runs, say
from .registry import register


@dataclass(frozen=True)
class Counter(Decl):
    kind: str                   # 'counter' (a number) | 'variable' (any value)
    per: Optional[str]          # 'player' or 'team': one value each, written NAME(x); None: one for the game
    initial: Expr
    minimum: Optional[Expr]
    maximum: Optional[Expr]


# ---------------------------------------------------------------- grammar
def _min_bound(meta, c):
    return ("min", c[0])


def _max_bound(meta, c):
    return ("max", c[0])


def _per_owner(meta, c):
    return str(c[-1])


def _counter(meta, c):
    kind, name, per, initial = c[0], str(c[1]), c[2], c[3]
    bounds = dict(b for b in c[4:-1] if isinstance(b, tuple) and len(b) == 2 and b[0] in ("min", "max"))
    return Counter(name, c[-1], span(meta), kind, per, initial, bounds.get("min"), bounds.get("max"))


GRAMMAR = {"min_bound": _min_bound, "max_bound": _max_bound, "per_owner": _per_owner, "counter": _counter}


# ---------------------------------------------------------------- checks
def check(ck, d):
    if d.per == "team":
        ck.needs_teams(d.span)
    ck.expr(d.initial, Scope())
    for b, which in ((d.minimum, "minimum"), (d.maximum, "maximum")):
        if b is not None:
            ck.const(b, f"the {which} of '{d.name}'")


# ---------------------------------------------------------------- reading
def kept_per(v, d) -> str:
    key = d.per
    if key is None:
        return say(v.lang, "共有", "shared")
    if key == "player":
        return say(v.lang, "各プレイヤー", "each player")
    if key == "team":
        return say(v.lang, "各チーム", "each team")
    return say(v.lang, f"{v.title(key)}ごと", f"one for each {v.title(key)}")


def read(v, c, counts=()) -> Runs:
    out: Runs = [("", kept_per(v, c) + " · ")] if c.per else []
    out += [("", say(v.lang, "開始時", "starts at") + " ")] + v.expr(c.initial)
    if c.minimum is not None:
        out += [("", ", " + say(v.lang, "最小", "at least") + " ")] + v.expr(c.minimum)
    if c.maximum is not None:
        out += [("", ", " + say(v.lang, "最大", "at most") + " ")] + v.expr(c.maximum)
    return out


register(Counter, "declaration", grammar=GRAMMAR, check=check, read=read)
