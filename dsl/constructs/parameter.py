"""`parameter NAME = V` (or `by players`): a number fixed before play, perhaps provisional.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..language.building import span
from ..language.syntax import Decl, Expr
from ..printing.runs import Runs, say
from ..language.limits import MAX_PLAYERS
from .registry import register


@dataclass(frozen=True)
class Parameter(Decl):
    keyword = "parameter"
    value: Optional[Expr]
    by_players: tuple[tuple[int, Expr], ...]
    otherwise: Optional[Expr]
    provisional: bool


# ---------------------------------------------------------------- grammar
def _parameter(meta, c):
    return Parameter(str(c[0]), c[3], span(meta), c[1], (), None, bool(c[2]))


def _player_entry(meta, c):
    return (int(c[0]), c[1])


def _by_players(meta, c):
    entries = tuple(e for e in c if isinstance(e, tuple))
    otherwise = c[-1] if not isinstance(c[-1], tuple) else None
    return entries, otherwise


def _parameter_by_players(meta, c):
    entries, otherwise = c[1]
    return Parameter(str(c[0]), c[3], span(meta), None, entries, otherwise, bool(c[2]))


GRAMMAR = {"parameter": _parameter, "player_entry": _player_entry, "by_players": _by_players, "parameter_by_players": _parameter_by_players}


# ---------------------------------------------------------------- checks
def check(ck, d):
    order = ck.once("parameter order", lambda: {p.name: i for i, p in reversed(list(enumerate(ck.of(Parameter))))})
    above = ParametersAbove(order, order[d.name]) if d.name in order else set()
    what = f"parameter '{d.name}'"
    if d.value is not None:
        ck.const(d.value, what, above)
    for _, e in d.by_players:
        ck.const(e, what, above)
    if d.otherwise is not None:
        ck.const(d.otherwise, what, above)
    g = ck.game
    if g and d.by_players and d.otherwise is None and g.max_players <= MAX_PLAYERS:
        missing = [n for n in range(g.min_players, g.max_players + 1) if n not in dict(d.by_players)]
        if missing:
            ck.error(d.span, f"parameter '{d.name}' has no value for {_counts(missing)} players",
                       "add those counts or an 'otherwise' value")


class ParametersAbove:
    """The parameters declared before the one at `index`, asked of by name without listing
    them (a list per parameter would grow with the square of their number)."""

    def __init__(self, order: dict, index: int):
        self.order, self.index = order, index

    def __contains__(self, name) -> bool:
        return self.order.get(name, self.index) < self.index


def _counts(ns) -> str:
    """3, 5 to 9, 12: runs of player counts, so a long list stays one short line."""
    runs = []
    for n in ns:
        if runs and runs[-1][1] == n - 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}, {b}" if b == a + 1 else f"{a} to {b}" for a, b in runs)


# ---------------------------------------------------------------- reading
def read(v, p, counts=()) -> Runs:
    if p.value is not None:
        return v.expr(p.value)
    out: Runs = []
    for i, (n, x) in enumerate(p.by_players):
        out += ([("", " · ")] if i else []) + [("", say(v.lang, f"{n}人: ", f"{n} players: "))] + v.expr(x)
    if p.otherwise is not None:
        out += [("", " · " + say(v.lang, "それ以外: ", "otherwise: "))] + v.expr(p.otherwise)
    return out


register(Parameter, "declaration", grammar=GRAMMAR, check=check, read=read)
