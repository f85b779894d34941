"""`score NAME [+ NAME ...]`: what measures a player's standing, for the analyses.

Each NAME is a counter kept per player or a value with one parameter, the player; the score
is their sum. It changes no rule of play (winners are still what `end game` says): the
analyses (`simulate`, `report`, `sweep`) read it before every decision and at the end for
lead changes, comebacks, the final margin and the score over time, and the engine gives it
at the end as the players' pay-offs (`Game.scores`).

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language.building import span
from ..language.syntax import Decl
from ..printing.runs import Runs, say
from .registry import register


@dataclass(frozen=True)
class Score(Decl):
    keyword = "score"
    parts: tuple[str, ...]      # counters per player or one-parameter values, added up
    better: str = "higher"      # 'lower': a golf-like score, where the least leads


# ---------------------------------------------------------------- grammar
def _score(meta, c):
    parts = tuple(str(x) for x in c[:-2])
    # The declaration's own name is its keyword: a file has one score, and the names it adds
    # up stay the counters' and values' own.
    return Score("score", c[-1], span(meta), parts, c[-2] or "higher")


def _better(meta, c):
    return str(c[0])


GRAMMAR = {"score": _score, "better": _better}


# ---------------------------------------------------------------- checks
def usable(ck) -> list[str]:
    """The names a score can add up: counters kept per player and one-parameter values."""
    from ..language import syntax as S
    out = [c.name for c in ck.of(S.Counter) if c.per == "player" and c.per2 is None and c.kind == "counter"]
    return out + [d.name for d in ck.of(S.Define) if len(d.params) == 1]


def check(ck, d):
    from ..language import syntax as S
    if ck.of(S.Cooperative):
        ck.error(d.span, "in a cooperative game the players score together, and this score is kept for each player",
                 "write the team's score on the cooperative line: 'cooperative score NAME'")
    first = ck.of(S.Score)[0]
    if first is not d:
        ck.error(d.span, f"a rule file has one score; this is a second (the first is at line {first.span.line})",
                 "add the parts up in one line: 'score a + b'")
        return
    seen = set()
    for n in d.parts:
        ck.used.add(n)
        found = ck.declared.get(n)
        where = f"score '{n}'"
        if n in seen:
            ck.error(d.span, f"{where} is counted twice", "name each part once")
        seen.add(n)
        if isinstance(found, S.Counter):
            if found.per != "player" or found.per2 is not None:
                kept = f"for each {found.per} and each {found.per2}" if found.per2 else \
                    {"team": "for each team", None: "once for the whole game"}.get(found.per, f"for each {found.per}")
                ck.error(d.span, f"{where}: the counter is kept {kept}, and a score needs one number per player",
                         f"declare it 'counter {n} per player', or name a value with the player as parameter")
            elif found.kind != "counter":
                ck.error(d.span, f"{where} is a variable, which may hold any value; a score is a number",
                         f"declare it 'counter {n} per player'")
        elif isinstance(found, S.Define):
            if len(found.params) != 1:
                ck.error(d.span, f"{where}: the value takes {len(found.params)} parameters; a score's value takes one, "
                                 "the player", f"write 'value {n}(p) = ...'")
        else:
            what = f"is a {S.kind_of(found)}, not" if found is not None else "is not"
            ck.error(d.span, f"{where} {what} a counter kept per player or a value of a player",
                     ck.did_you_mean(n, lambda: usable(ck)) or "declare 'counter NAME per player = 0' and name it here")


# ---------------------------------------------------------------- compiling
def compile(c, d):
    """The score as a function (state, seat) -> number, for the analyses and the pay-offs."""
    from ..engine.program import CounterScore, Env
    if all(n in c.pvar_slots for n in d.parts):
        return CounterScore(tuple(c.pvar_slots[n] for n in d.parts))
    first = c.n_slots
    reads = []
    for n in d.parts:
        if n in c.pvar_slots:
            reads.append(lambda s, p, i=c.pvar_slots[n]: s.pvars[i][p] or 0)
        else:
            v = c.defines[n]
            # compiled once per seat, so the value reads its player as a constant
            per_seat = [c.expr(v.expr, Env(c, {}, bound={v.params[0]: (lambda s, who=who: who)}))
                        for who in c._players]
            reads.append(lambda s, p, f=per_seat: f[p](s) or 0)
    # The locals a value's comprehensions need are lent for the reading and taken back, so a
    # state keeps its size and contents (its hash, what an agent's determinization sees) whether
    # or not the analyses read the score.
    end, c.n_slots = c.n_slots, first
    if end == first:
        if len(reads) == 1:         # the analyses read it before every decision: no generator for one part
            return lambda s, p, r=reads[0]: 0 + r(s, p)     # 0 + x is what sum([x]) gives
        return lambda s, p: sum(r(s, p) for r in reads)

    def score(s, p):
        L = s.loc_slots
        kept = L[first:]
        L.extend([None] * (end - len(L)))
        try:
            return sum(r(s, p) for r in reads)
        finally:
            L[first:] = kept
    return score


# ---------------------------------------------------------------- reading
def read(v, d, counts=()) -> Runs:
    names = [v.title(n) for n in d.parts]
    lower = d.better == "lower"
    return [("", say(v.lang, "各プレイヤーの" + "と".join(names) + ("の合計" if len(names) > 1 else "")
                     + ("(低いほど良い)" if lower else ""),
                     "each player's " + " plus ".join(names) + (" (lower is better)" if lower else "")))]


register(Score, "declaration", grammar=GRAMMAR, check=check, compile=compile, read=read)
