"""`reveal ZONE`: pieces are shown to everyone until they next move.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.values import ZoneId
from ..language.building import span
from ..language.syntax import Expr, Stmt
from ..printing.runs import Item, sentence
from .registry import nothing, register
from .zone import one_zone


@dataclass(frozen=True)
class Reveal(Stmt):
    zone: Expr


# ---------------------------------------------------------------- grammar
def _reveal(meta, c):
    return Reveal(span(meta), c[0])


GRAMMAR = {"reveal": _reveal}


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    ck.expr(st.zone, scope)


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    zone = c.collection(st.zone, env)
    game = c
    zexpr = c.expr(st.zone, env)

    first = len(c.code)

    def logged(s, items):
        z = zexpr(s)
        s.log.append({"event": "reveal", "zone": game.zone_names[z] if isinstance(z, ZoneId) else None,
                      "pieces": [int(p) for p in items],
                      "shown": [s.face[p] if s.face[p] is not None else game.piece_label[p] for p in items]})

    def reveal(s, ip=first):
        items = zone(s)
        if s.memo:
            s.memo.clear()
        for p in items:
            s.revealed[p] = True
        if s.log is not None:
            logged(s, items)
        return ip + 1
    c.emit(reveal, owner, st.span)
    # one zone's pieces are its own list, as items_of gives them
    items = (lambda f: f"s.zones[{f.of(zexpr)}]") if one_zone(c, st.zone, env) else lambda f: f.of(zone)
    c.fuse(first, lambda f, resume=None: [f"at = {first!r}", f"mm = {items(f)}", "if s.memo:", "    s.memo.clear()",
                                          "for mp in mm:", "    s.revealed[mp] = True", "if s.log is not None:",
                                          f"    {f.name(logged)}(s, mm)"])


# ---------------------------------------------------------------- reading
def read(v, st) -> Item:
    z = v.expr(st.zone)
    return sentence(v, st, z + [("", "を全員に公開する。")], [("", "Show everyone ")] + z + [("", ".")])


# ---------------------------------------------------------------- narration
def _narrate(n, ev) -> str:
    shown = ", ".join(str(n.name(f) if isinstance(f, str) else f) for f in ev.get("shown", [])) or "-"
    z = n.zone(ev["zone"])
    return n.say(f"   {z}を公開: {shown}", f"   reveal {z}: {shown}")


register(Reveal, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read, events={"reveal": _narrate}, order=nothing)
