"""`cases NAME: when C: ...`: the first case that applies is followed; when none does, play ends
in a 'no case applies' dead end named after the cases.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..engine.program import Label, source
from ..engine.values import plain
from ..language.constants import COMPARISONS
from ..language import syntax as S
from ..language.building import body_of, span
from ..language.kinds import BOOL
from ..language.syntax import Expr, Node, Span, Stmt, Text
from ..printing import idioms
from ..printing.blocks import condition
from ..printing.runs import Item, notes_of, say, when
from .registry import Absent, nothing, register


@dataclass(frozen=True)
class Case(Node):
    cond: Expr
    texts: tuple[Text, ...]
    body: tuple[Stmt, ...]
    span: Span


@dataclass(frozen=True)
class Cases(Stmt):
    name: Optional[str]
    cases: tuple[Case, ...]


# ---------------------------------------------------------------- grammar
def _cases(meta, c):
    return Cases(span(meta), str(c[0]) if c[0] is not None else None, tuple(c[1:]))


def _case(meta, c):
    texts, body = body_of(c[1])
    return Case(c[0], texts, body, span(meta))


GRAMMAR = {"cases": _cases, "case": _case}


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    for c in st.cases:
        ck.expr(c.cond, scope, want=BOOL)
        ck.block(c.body, scope, t)


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    end = Label()
    name = st.name or owner
    tests = []                      # (test instruction, condition, coverage id, body's first, body's end)
    for case in st.cases:
        cond = c.expr(case.cond, env)
        nxt = Label()
        cov = len(c.block_names)
        test_ip = len(c.code)
        c.block_names.append(("case", f"{name}: when {source(c.rules.source_of(case.cond.span), case.cond.span)}", case.span))

        def test(s, cond=cond, nxt=nxt, ip=len(c.code), cov=cov):
            if cond(s):
                if s.fired is not None:
                    s.fired[cov] = s.fired.get(cov, 0) + 1
                return ip + 1
            return nxt.ip
        c.emit(test, name, case.span)
        _told(c, name, len(tests), case.cond, env)
        c.block(case.body, env, name)
        tests.append((test_ip, cond, cov, test_ip + 1, c.jump(end, name, case.span)))
        nxt.ip = len(c.code)
    none_applies = c.emit(c.dead("no case applies", "none of the cases applies to this situation", st.span, name),
                          name, st.span)
    end.ip = len(c.code)

    def fused(f, resume=None):
        if resume is not None:
            return f.resume_branch([t[3:] for t in tests], resume)
        return f.branches(tests, f.call(none_applies))
    c.fuse(tests[0][0], fused)


def _told(c, name, k, cond, env):
    """An instruction that logs the case taken and what it compared (`matching < bid_count`:
    8 and 9), with the pieces the compared values were counted from, so a seat is told a
    number only where it saw every piece behind it. Nothing is computed when no log is kept."""
    compared = [(e.op, c.expr(e.left, env), c.expr(e.right, env), _zones_read(c.rules, e))
                for e in _comparisons(cond)]

    def tell(s, ip=len(c.code)):
        if s.log is not None:
            kept = list(s.loc_slots)        # the values' own working slots: the state stays as unlogged play leaves it
            said = []
            for op, left, right, (families, secret) in compared:
                zones = [z for z, zn in enumerate(s.game.zone_names) if zn.partition("(")[0] in families]
                said.append({"op": op, "values": [plain(left(s)), plain(right(s))], "secret": secret,
                             "pieces": sorted(int(p) for z in zones for p in s.zones[z])})
            s.loc_slots[:] = kept
            s.log.append({"event": "case", "rule": name, "case": k, "compared": said})
        return ip + 1
    ip = c.emit(tell, name, cond.span)
    c.fragment(ip, lambda f, resume=None: None if resume is not None else
               [f"at = {ip!r}", "if s.log is not None:", f"    {f.name(tell)}(s)"])


def _comparisons(cond) -> list:
    """The comparisons a condition makes, through its `and`s (an `or` names no one reason)."""
    if isinstance(cond, S.Binary) and cond.op == "and":
        return _comparisons(cond.left) + _comparisons(cond.right)
    return [cond] if isinstance(cond, S.Binary) and cond.op in COMPARISONS else []


def _zones_read(rules, e) -> tuple[set, bool]:
    """The zones an expression reads pieces from (through the values it names) and whether it
    reads a counter not everyone sees."""
    zones, secret, seen = set(), False, set()
    todo = [e]
    decls = {d.name: d for d in rules.decls}
    while todo:
        for n in S.walk(todo.pop()):
            named = n.id if isinstance(n, S.Name) else n.fn if isinstance(n, S.Call) else None
            if named is None or named in seen:
                continue
            seen.add(named)
            d = decls.get(named)
            if isinstance(d, S.Zone):
                zones.add(d.name)
            elif isinstance(d, S.Define):
                todo.append(d.expr)
            elif getattr(d, "seen_by", "everyone") != "everyone":
                secret = True
    return zones, secret


# ---------------------------------------------------------------- narration
def _narrate(n, ev) -> str:
    """The case taken, with what it compared: '   Settle the challenge: 8 < 9'."""
    shown = "; ".join(f"{x['values'][0]} {x['op']} {x['values'][1]}" for x in ev["compared"])
    return f"   {n.name(ev['rule'])}: {shown}" if shown else f"   {n.name(ev['rule'])}"


# ---------------------------------------------------------------- reading
def read(v, st) -> Item:
    kids = []
    for c in st.cases:
        cond, listed = condition(v, c.cond)
        head = say(v.lang, (cond + [("", "を満たすとき")] if listed else when(cond)) + [("", ":")],
                   [("", "When ")] + cond + [("", " hold:" if listed else ":")])
        with v.only(idioms.only_one(c.cond)):
            body = v.body(c.body)
        if len(c.body) == 1 and type(c.body[0]).__name__ == "Pass":
            # a case that changes nothing lets play go on, as a table says it: not "nothing happens"
            body = [Item("sentence", [("", say(v.lang, "そのまま続ける。", "Play on."))], span=c.body[0].span)]
        kids.append(Item("branch", head, listed + body, notes_of(c.texts, v.lang), span=c.span))
    # play takes the first case that holds: where two hold at once, the one above wins
    return Item("sentence", [("", say(v.lang, "上から順に見て、最初に当てはまる場合だけに従う。",
                                      "Follow only the first case that applies, from the top:"))],
                kids, span=st.span)


register(Cases, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read, events={"case": _narrate}, order=nothing)
