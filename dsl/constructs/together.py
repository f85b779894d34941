"""`together`: a block whose effects count as happening at once. What the rules check at any
time (triggers, an ending among them) is checked when the whole block is done, not between
two players' parts of it: a payment everyone makes at once cannot end the game half-way.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language.building import not_texts, span
from ..language.syntax import Stmt
from ..printing.runs import Item, say
from .registry import Absent, nothing, register


@dataclass(frozen=True)
class Together(Stmt):
    body: tuple[Stmt, ...]


# ---------------------------------------------------------------- grammar
def _together(meta, c):
    return Together(span(meta), tuple(not_texts(c[0])))


GRAMMAR = {"together": _together}


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    if t:
        ck.error(st.span, "a trigger's effects already happen at once",
                 "`together` belongs in the turn structure or a rule")
    ck.together = getattr(ck, "together", 0) + 1      # no 'ending half-way' warning inside
    try:
        ck.block(st.body, scope, t)
    finally:
        ck.together -= 1


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    start = len(c.code)

    def enter(s, ip=start):
        # the machine marks where it is only at a pause: until the block's first one, the effects
        # before it would be taken for the statement play last paused at, outside the block
        s.ip = ip
        return ip + 1
    c.emit(enter, owner, st.span)
    c.block(st.body, env, owner)
    end = len(c.code)
    # triggers wait while play is anywhere inside, and are checked once it is all done
    c.together.append((start, end))

    def done(s, ip=end):
        s.ip = ip               # past the block: the triggers are no longer held
        c.fire_triggers(s)
        return ip + 1 if s.outcome is None and s.dead_end is None else -1
    c.emit(done, owner, st.span)
    c.fuse(start, lambda f, resume=None: ([f"s.ip = {start!r}"] + f.body(start + 1, end) if resume is None
                                          else f.resume_body(start + 1, end, resume)) + f.call(end))


# ---------------------------------------------------------------- reading
def read(v, st) -> Item:
    return Item("together", say(v.lang, [("", "次を全員同時に行う(すべて終えてから、ゲームの終わりなどを確かめる):")],
                                [("", "All at once (what ends the game is checked only when all of this is done):")]),
                v.body(st.body), span=st.span)


register(Together, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read,
         events=Absent("what happens together shows in what its statements do"), order=nothing)
