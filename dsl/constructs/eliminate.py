"""`eliminate P`: a player (or every member of a team) is out of the game.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language.building import span
from ..language.kinds import WHO
from ..language.syntax import Expr, Stmt
from ..printing.runs import Item, sentence
from .registry import nothing, register


@dataclass(frozen=True)
class Eliminate(Stmt):
    player: Expr


# ---------------------------------------------------------------- grammar
def _eliminate(meta, c):
    return Eliminate(span(meta), c[0])


GRAMMAR = {"eliminate": _eliminate}


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    ck.expr(st.player, scope, want=WHO)


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    who = c.expr(st.player, env)
    game = c

    def eliminate(s, ip=len(c.code)):
        for p in game.players_in(who(s)):
            if s.alive[p]:
                s.alive[p] = False
                s.memo.clear()
                if s.log is not None:
                    s.log.append({"event": "eliminate", "player": int(p)})
                game.after_effect(s)
        return ip + 1
    c.emit(eliminate, owner, st.span)


# ---------------------------------------------------------------- reading
def read(v, st) -> Item:
    p = v.expr(st.player)
    return sentence(v, st, p + [("", "はゲームから脱落する。")], p + [("", " is out of the game.")])


# ---------------------------------------------------------------- narration
def _narrate(n, ev) -> str:
    p = n.player(ev["player"])
    return n.say(f"   {p}が脱落", f"   {p} is out")


register(Eliminate, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read, events={"eliminate": _narrate}, order=nothing)
