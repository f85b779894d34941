"""`if C: ... else if C: ... else: ...`: the first branch whose condition holds runs.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..engine.program import Label, source
from ..language.building import not_texts, span
from ..language.kinds import BOOL
from ..language.syntax import Expr, Stmt
from ..printing import idioms
from ..printing.blocks import condition
from ..printing.runs import Item, say
from .registry import Absent, nothing, register


@dataclass(frozen=True)
class If(Stmt):
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]
    otherwise: Optional[tuple[Stmt, ...]]


# ---------------------------------------------------------------- grammar
def _if_stmt(meta, c):
    branches = [(c[0], c[1])]
    otherwise = None
    for extra in c[2:]:
        if extra is None:
            continue
        if extra[0] == "elif":
            branches.append((extra[1], extra[2]))
        else:
            otherwise = extra[1]
    return If(span(meta), tuple((cond, tuple(not_texts(b))) for cond, b in branches),
                tuple(not_texts(otherwise)) if otherwise is not None else None)


def _else_if(meta, c):
    return ("elif", c[0], c[1])


def _else_(meta, c):
    return ("else", c[0])


GRAMMAR = {"if_stmt": _if_stmt, "else_if": _else_if, "else_": _else_}


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    for cond, body in st.branches:
        ck.expr(cond, scope, want=BOOL)
        ck.block(body, scope, t)
    if st.otherwise:
        ck.block(st.otherwise, scope, t)


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    end = Label()
    src = c.rules.source_of(st.span)
    first = source(src, st.branches[0][0].span)
    base = len(c.block_names)        # coverage ids: one per branch, then the else side
    for k, (cond_e, body) in enumerate(st.branches):
        c.block_names.append(("branch", f"{owner}: {'else if' if k else 'if'} {source(src, cond_e.span)}",
                                 cond_e.span))
    if len(st.branches) == 1:
        c.block_names.append(("else", f"{owner}: else of if {first}" if st.otherwise else
                                 f"{owner}: if {first} is false", st.span))
    else:
        # the else of a chain runs when its last test fails too: named and placed by that one
        last_e = st.branches[-1][0]
        last = source(src, last_e.span)
        c.block_names.append(("else", f"{owner}: else after else if {last}" if st.otherwise else
                                 f"{owner}: if {first} ... else if {last} are all false", last_e.span))
    else_cov = base + len(st.branches)
    tests = []                      # (test instruction, condition, coverage id, body's first, body's end)
    for k, (cond_e, body) in enumerate(st.branches):
        cond = c.expr(cond_e, env)
        nxt = Label()
        cov = base + k
        last = else_cov if k == len(st.branches) - 1 else None
        test_ip = len(c.code)

        def test(s, cond=cond, nxt=nxt, ip=len(c.code), cov=cov, last=last):
            if cond(s):
                if s.fired is not None:
                    s.fired[cov] = s.fired.get(cov, 0) + 1
                return ip + 1
            if last is not None and s.fired is not None:
                s.fired[last] = s.fired.get(last, 0) + 1
            return nxt.ip
        c.emit(test, owner, cond_e.span)
        c.block(body, env, owner)
        tests.append((test_ip, cond, cov, test_ip + 1, c.jump(end, owner, st.span)))
        nxt.ip = len(c.code)
    otherwise = len(c.code)
    if st.otherwise:
        c.block(st.otherwise, env, owner)
    end.ip = len(c.code)

    def fused(f, resume=None):
        if resume is not None:
            return f.resume_branch([t[3:] for t in tests] + [(otherwise, end.ip)], resume)
        return f.branches(tests, f.counted(else_cov) + f.body(otherwise, end.ip))
    c.fuse(tests[0][0], fused)


# ---------------------------------------------------------------- reading
def read(v, st) -> Item:
    kids = []
    for i, (cond, body) in enumerate(st.branches):
        c, listed = condition(v, cond)
        head = say(v.lang, ([("", "そうでなく、")] if i else []) + c + [("", "を満たすなら:" if listed else "なら:")],
                   [("", "Otherwise, if " if i else "If ")] + c + [("", " hold:" if listed else ":")])
        with v.only(idioms.only_one(cond)):
            kids.append(Item("branch", head, listed + v.body(body), span=cond.span))
    if st.otherwise is not None:
        kids.append(Item("branch", [("", say(v.lang, "そうでなければ:", "Otherwise:"))], v.body(st.otherwise)))
    if len(kids) == 1:
        return Item("sentence", kids[0].runs, kids[0].children, span=st.span)
    return Item("sentence", [], kids, span=st.span)


register(If, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read, events=Absent("a branch taken shows in what its statements do"), order=nothing)
