"""`roll ZONE`: a chance event that gives every die in a zone a random face.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.values import ZoneId
from ..language.building import span
from ..language.kinds import COLL, PIECE, ZONE
from ..language.syntax import Expr, Stmt
from ..printing.runs import Item, sentence
from .registry import nothing, register
from .zone import one_zone


@dataclass(frozen=True)
class Roll(Stmt):
    zone: Expr


# ---------------------------------------------------------------- grammar
def _roll(meta, c):
    return Roll(span(meta), c[0])


GRAMMAR = {"roll": _roll}


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    ck.expr(st.zone, scope, want=(ZONE, PIECE, COLL))
    if t:
        ck.error(st.span, "a trigger cannot roll dice", "chance happens in the turn structure")


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    c.chance_stmt(st, env, owner, _outcomes, _settle, lambda f: _in_place(c, f), one_zone=one_zone(c, st.zone, env))


def _in_place(c, f) -> list:
    """_outcomes, the draw and _settle as random play's own code, with the pieces in `ci`."""
    n = f.name
    faces = n(c.piece_faces)
    counts = n(c.piece_face_counts)
    return ["ct = 1", "for cp in ci:", f"    cn = {counts}[cp]", "    if cn is not None:", "        ct *= cn",
            "k = rng.randrange(ct)", "s.memo.clear()",
            "co = k", "cr = [] if s.log is not None else None",
            "for cp in ci:", f"    cf = {faces}[cp]", "    if cf is None:", "        continue",
            f"    co, cj = {n(divmod)}(co, {counts}[cp])", "    s.face[cp] = cf[cj]", "    s.revealed[cp] = False",
            "    if s.looked:", "        s.looked.pop(cp, None)",
            "    if cr is not None:", "        cr.append(cf[cj])",
            "if cr is not None:", f"    {n(_logged)}({n(c)}, s, cz, ci, cr)"]


def _outcomes(game, items) -> int:
    total = 1
    counts = game.piece_face_counts
    for p in items:
        k = counts[p]
        if k is not None:
            total *= k
    return total


def _settle(game, s, zone, items, outcome):
    faces_of, counts, face, shown = game.piece_faces, game.piece_face_counts, s.face, s.revealed
    rolled = [] if s.log is not None else None      # each face as it falls (a die named twice falls twice)
    for p in items:
        faces = faces_of[p]
        if faces is None:       # only dice roll; other pieces in the zone stay as they are
            continue
        outcome, k = divmod(outcome, counts[p])
        face[p] = faces[k]
        shown[p] = False        # a die rolled again is hidden again
        if s.looked:
            s.looked.pop(p, None)
        if rolled is not None:
            rolled.append(faces[k])
    if rolled is not None:
        _logged(game, s, zone, items, rolled)


def _logged(game, s, zone, items, rolled):
    s.log.append({"event": "roll", "pieces": [int(p) for p in items], "faces": rolled,
                  "zone": game.zone_names[zone] if isinstance(zone, ZoneId) else None})


# ---------------------------------------------------------------- reading
def read(v, st) -> Item:
    z = v.expr(st.zone)
    return sentence(v, st, z + [("", "を振る。")], [("", "Roll ")] + z + [("", ".")])


# ---------------------------------------------------------------- narration
def _narrate(n, ev) -> str:
    faces = ", ".join(str(f) for f in ev["faces"])
    where = n.zone(ev["zone"]) if ev.get("zone") else ""
    return n.say(f"   {where}を振った: {faces}" if where else f"   振った目: {faces}",
                 f"   rolled {where}: {faces}" if where else f"   rolled: {faces}")


register(Roll, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read, events={"roll": _narrate}, order=nothing)
