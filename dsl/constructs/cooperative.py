"""`cooperative [score NAME [+ NAME ...] [lower|higher is better]]`: all players win or lose
together, with a team score.

The game still ends by `end game`: naming any winner is the team's win (every seat wins),
naming none its loss. Each NAME is a counter kept once for the whole game or a value without
parameters; the team's score is their sum. The analyses report the team's win rate and the
distribution of its score (with their intervals) in place of wins per seat; `check` judges a
player count by the team's results; agents play for the team's win, which is every seat's.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language.building import span
from ..language.syntax import Decl
from ..printing.runs import Runs, say
from .registry import register


@dataclass(frozen=True)
class Cooperative(Decl):
    keyword = "cooperative"
    parts: tuple[str, ...] = ()     # counters kept once or values without parameters, added up
    better: str = "higher"          # 'lower': the team does better with a lower score


# ---------------------------------------------------------------- grammar
def _cooperative(meta, c):
    parts, better = c[0] if c[0] is not None else ((), "higher")
    return Cooperative("cooperative", c[-1], span(meta), parts, better)


def _coop_score(meta, c):
    return tuple(str(x) for x in c[:-1]), c[-1] or "higher"


GRAMMAR = {"cooperative": _cooperative, "coop_score": _coop_score}


# ---------------------------------------------------------------- checks
def _usable(ck) -> list[str]:
    from ..language import syntax as S
    out = [c.name for c in ck.of(S.Counter) if c.per is None and c.kind == "counter"]
    return out + [d.name for d in ck.of(S.Define) if not d.params]


def check(ck, d):
    from ..language import syntax as S
    first = ck.of(Cooperative)[0]
    if first is not d:
        ck.error(d.span, f"the game is already declared cooperative at line {first.span.line}",
                 "keep one 'cooperative' line")
        return
    seen = set()
    for n in d.parts:
        ck.used.add(n)
        found = ck.declared.get(n)
        where = f"team score '{n}'"
        if n in seen:
            ck.error(d.span, f"{where} is counted twice", "name each part once")
        seen.add(n)
        if isinstance(found, S.Counter):
            if found.per is not None:
                ck.error(d.span, f"{where}: the counter is kept for each {found.per}, and the team has one score",
                         f"declare it 'counter {n} = 0', kept once for the whole game")
            elif found.kind != "counter":
                ck.error(d.span, f"{where} is a variable, which may hold any value; a score is a number",
                         f"declare it 'counter {n} = 0'")
        elif isinstance(found, S.Define):
            if found.params:
                ck.error(d.span, f"{where}: the value takes {len(found.params)} parameters; the team's score takes none",
                         f"write 'value {n} = ...'")
        else:
            what = f"is a {S.kind_of(found)}, not" if found is not None else "is not"
            ck.error(d.span, f"{where} {what} a counter kept once or a value without parameters",
                     ck.did_you_mean(n, lambda: _usable(ck)) or f"declare 'counter {n} = 0' and name it here")


# ---------------------------------------------------------------- compiling
def compile(c, d):
    """The team's score as a function state -> number, or None without one."""
    from ..engine.program import Env
    if not d.parts:
        return None
    reads = []
    for n in d.parts:
        if n in c.var_slots:
            reads.append(lambda s, i=c.var_slots[n]: s.vars[i] or 0)
        else:
            reads.append(c.expr(c.defines[n].expr, Env(c, {})))
    if len(reads) == 1:
        return lambda s, r=reads[0]: 0 + (r(s) or 0)
    return lambda s: sum(r(s) or 0 for r in reads)


# ---------------------------------------------------------------- reading
def read(v, d, counts=()) -> Runs:
    ja = "協力ゲーム: 全員が一緒に勝つか、一緒に負ける。"
    en = "A cooperative game: all players win or lose together."
    if d.parts:
        names = [v.title(n) for n in d.parts]
        lower = d.better == "lower"
        ja += ("チームの得点は" + "と".join(names) + ("の合計" if len(names) > 1 else "")
               + ("で、低いほど良い。" if lower else "で、高いほど良い。"))
        en += (" The team's score is " + " plus ".join(names)
               + ("; lower is better." if lower else "; higher is better."))
    return [("", say(v.lang, ja, en))]


register(Cooperative, "declaration", grammar=GRAMMAR, check=check, compile=compile, read=read)
