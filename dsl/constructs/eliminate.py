"""`eliminate P`: a player (or every member of a team) is out of the game; `eliminate P until
the next round`: out now (passed over as any player who is out), and back in as the next pass
of the outermost play loop, the next round, begins.

A player out for the round is kept as `alive` None (out, and not for good): every rule that
asks who is still in passes them over, and the state's value tells them from a player out
of the game.

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
    for_round: bool = False     # `until the next round`


# ---------------------------------------------------------------- grammar
def _eliminate(meta, c):
    return Eliminate(span(meta), c[0])


def _eliminate_round(meta, c):
    return Eliminate(span(meta), c[0], True)


GRAMMAR = {"eliminate": _eliminate, "eliminate_round": _eliminate_round}


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    ck.expr(st.player, scope, want=WHO)
    if st.for_round:
        from ..engine.compiler import _outermost_loops
        from ..language import syntax as S
        play = [f for f in ck.of(S.Flow) if f.name == "play"]
        if not any(True for f in play for _ in _outermost_loops(f.body)):
            ck.error(st.span, "'until the next round': the play has no round, a loop that repeats the turns",
                     "put the turns in a 'repeat' loop in 'play': each pass of it is a round")


def back_in(s) -> None:
    """A round begins: the players out until then are in again."""
    if None not in s.alive:
        return
    back = [i for i, a in enumerate(s.alive) if a is None]
    for i in back:
        s.alive[i] = True
    s.memo.clear()
    if s.log is not None:
        s.log.append({"event": "back", "players": back})


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    who = c.expr(st.player, env)
    game = c
    out = None if st.for_round else False

    def eliminate(s, ip=len(c.code)):
        for p in game.players_in(who(s)):
            if s.alive[p]:
                s.alive[p] = out
                s.memo.clear()
                if s.log is not None:
                    s.log.append({"event": "eliminate", "player": int(p), **({"until": "round"} if out is None else {})})
                game.after_effect(s)
        return ip + 1
    c.emit(eliminate, owner, st.span)


# ---------------------------------------------------------------- reading
def read(v, st) -> Item:
    p = v.expr(st.player)
    if st.for_round:
        return sentence(v, st, p + [("", "は次のラウンドまで抜ける(その間は手番が飛ばされる)。")],
                        p + [("", " is out until the next round (passed over until then).")])
    return sentence(v, st, p + [("", "はゲームから脱落する。")], p + [("", " is out of the game.")])


# ---------------------------------------------------------------- narration
def _narrate(n, ev) -> str:
    p = n.player(ev["player"])
    if ev.get("until") == "round":
        return n.say(f"   {p}は次のラウンドまで抜ける", f"   {p} is out until the next round")
    return n.say(f"   {p}が脱落", f"   {p} is out")


def _narrate_back(n, ev) -> str:
    ps = ", ".join(n.player(p) for p in ev["players"])
    return n.say(f"   {ps}が戻る", f"   {ps} {'is' if len(ev['players']) == 1 else 'are'} back in")


register(Eliminate, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read,
         events={"eliminate": _narrate, "back": _narrate_back}, order=nothing)
