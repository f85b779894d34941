"""`repeat until C`, `repeat while C`, `repeat N times`: loops, bounded between decisions
so a loop that never asks anyone ends in a 'step limit' dead end.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.program import Label
from ..language.building import not_texts, span
from ..language.kinds import BOOL, NUM
from ..language import syntax as S
from ..language.syntax import Expr, Stmt
from ..printing import idioms
from ..printing.runs import Item, plain, say
from .registry import Absent, nothing, register


@dataclass(frozen=True)
class Repeat(Stmt):
    kind: str                   # 'until' | 'while' | 'times'
    expr: Expr
    body: tuple[Stmt, ...]


# ---------------------------------------------------------------- grammar
def _repeat_until(meta, c):
    return Repeat(span(meta), "until", c[0], tuple(not_texts(c[1])))


def _repeat_while(meta, c):
    return Repeat(span(meta), "while", c[0], tuple(not_texts(c[1])))


def _repeat_times(meta, c):
    return Repeat(span(meta), "times", c[0], tuple(not_texts(c[1])))


GRAMMAR = {"repeat_until": _repeat_until, "repeat_while": _repeat_while, "repeat_times": _repeat_times}


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    ck.expr(st.expr, scope, want=NUM if st.kind == "times" else BOOL)
    ck.block(st.body, scope, t)


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    top = len(c.code)
    end = Label()
    if st.kind == "times":
        slot = env.new_slot(None)
        times = c.expr(st.expr, env)

        def init(s, ip=top):
            s.loc_slots[slot] = times(s)
            return ip + 1
        c.emit(init, owner, st.span)
        head = len(c.code)

        def test(s, ip=head):
            if s.loc_slots[slot] <= 0:
                return end.ip
            s.loc_slots[slot] -= 1
            return ip + 1
        c.emit(c.counting_rounds(st, test, head + 1), owner, st.span)
        c.block(st.body, env, owner)
        back = c.emit(c.loop_back(st, head), owner, st.span)
        end.ip = len(c.code)
        c.slot_scopes[slot] = (top, end.ip)

        def fused_times(f, resume=None):
            passes = (["while True:", f"    at = {head!r}", f"    if L[{slot}] <= 0:", "        break",
                       f"    L[{slot}] -= 1"] + f.indented(f.rounds(st) + f.body(head + 1, back) + _passed(f, back)))
            if resume is not None:
                return f.resume_body(head + 1, back, resume) + _passed(f, back) + passes
            return [f"at = {top!r}", f"L[{slot}] = {f.of(times)}"] + passes
        c.fuse(top, fused_times)
        return
    cond = c.expr(st.expr, env)
    until = st.kind == "until"

    def test(s, ip=top):
        return end.ip if bool(cond(s)) == until else ip + 1
    c.emit(c.counting_rounds(st, test, top + 1), owner, st.expr.span)
    c.block(st.body, env, owner)
    back = c.emit(c.loop_back(st, top), owner, st.span)
    end.ip = len(c.code)

    def fused(f, resume=None):
        passes = (["while True:", f"    at = {top!r}", f"    if {'' if until else 'not '}{f.of(cond)}:",
                   "        break"] + f.indented(f.rounds(st) + f.body(top + 1, back) + _passed(f, back)))
        if resume is not None:
            return f.resume_body(top + 1, back, resume) + _passed(f, back) + passes
        return passes
    c.fuse(top, fused)


def _passed(f, back) -> list:
    """The jump back to the top, which counts the pass towards the loop bound (Compiler.loop_back:
    the pass that reaches the bound is counted by the jump itself, which ends the game)."""
    jump = f.c.code[back]
    return [f"at = {back!r}", f"if s.ticks >= {jump.limit - 1!r}:", f"    {f.name(jump)}(s)", "else:", "    s.ticks += 1"]


# ---------------------------------------------------------------- reading
def _forever(st) -> bool:
    """`repeat while true` or `repeat until false`: only the end of the game stops it."""
    return isinstance(st.expr, S.Name) and (st.kind, st.expr.id) in (("while", "true"), ("until", "false"))


def read(v, st) -> Item:
    if _forever(st):
        return Item("loop", say(v.lang, [("", "ゲームが終わるまで、次をくり返す:")], [("", "Repeat until the game ends:")]),
                    v.body(st.body), span=st.span)
    x = v.expr(st.expr)
    q = [("", "「")] + x + [("", "」")] if "、" in plain(x) else x
    during = "間" if plain(x).endswith(("い", "る")) else "の間"
    until = "まで" if plain(x).endswith("る") else "になるまで"       # 「埋まるまで」, 「空になるまで」
    if v.lang == "ja" and st.kind == "until" and idioms.any_of(v, st.expr) is not None and x[-1][1].endswith(("がいる", "がある")):
        # 「…ものが出るまで」, not 「…ものがいるまで」
        x, until = x[:-1] + [(x[-1][0], x[-1][1][:-3])], "が出るまで"
        q = [("", "「")] + x + [("", "」")] if "、" in plain(x) else x
    head = {"until": say(v.lang, q + [("", until + "、次をくり返す:")], [("", "Repeat until ")] + x + [("", ":")]),
            "while": say(v.lang, q + [("", during + "、次をくり返す:")], [("", "Repeat while ")] + x + [("", ":")]),
            "times": say(v.lang, [("", "次を")] + x + [("", "回行う:")], [("", "Do this ")] + x + [("", " times:")])}[st.kind]
    return Item("loop", head, v.body(st.body), span=st.span)


register(Repeat, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read, events=Absent("each pass shows in what its statements do"), order=nothing)
