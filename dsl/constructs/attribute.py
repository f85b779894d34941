"""`x.face`, `x.kind`, `x.seat`, `x.owner`, `x.COLUMN`: what a piece, player or zone carries.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.values import Piece
from ..language.building import span
from ..language.kinds import ANY, NUM, PLAYER
from ..language import syntax as S
from ..language.syntax import Expr
from ..printing.runs import Runs
from .registry import nothing, register


@dataclass(frozen=True)
class Attr(Expr):
    obj: Expr
    name: str


# ---------------------------------------------------------------- grammar
def _attr(meta, c):
    return Attr(span(meta), c[0], str(c[1]))


GRAMMAR = {"attr": _attr}


# ---------------------------------------------------------------- checks
def check(ck, e, scope):
    ck.expr(e.obj, scope)        # not its kind: holder(x) is a player or, in a zone kept per piece, that piece
    if e.name in ("face", "seat"):
        return NUM
    if e.name == "owner":
        return PLAYER
    known = ck.once("attributes", lambda: _BUILT_IN | {name for c in ck.rules.decls
                                                      for spec in getattr(c, "cards", ()) for name, _ in spec.attrs})
    if e.name not in known:     # at run time it would read as nothing, silently
        ck.error(e.span, f"no card or piece has a value called '{e.name}'",
                 ck.did_you_mean(e.name, known) or "the values are the columns of the deck tables")
    return ANY


_BUILT_IN = {"face", "seat", "owner", "kind"}


# ---------------------------------------------------------------- compilation
def compile(c, e, env):
    obj = c.expr(e.obj, env)
    name = e.name
    if name == "face":
        return lambda s: s.face[obj(s)]
    if name == "kind":
        kinds = c.kind_of
        return lambda s: kinds[obj(s)]
    if name == "seat":
        return lambda s: int(obj(s)) + 1
    if name == "owner":
        owners, piece_owner = c.zone_owner, c.piece_owner
        return lambda s: piece_owner[v] if isinstance(v := obj(s), Piece) else owners[v]
    column = c.attribute_column(name)
    return lambda s: column[obj(s)]


def generate(src, e, env):
    name = e.name
    if name == "owner":
        # it tells a piece from a zone, reading the thing twice: in place only for a local's
        # slot, decided before any part is generated; else left to the closure, which reads it once
        if not (isinstance(e.obj, S.Name) and e.obj.id in env.locals):
            return None
        obj, v = src.sub(e.obj, env), src.value
        if env.holds_piece(e.obj.id):
            return f"{v(src.c.piece_owner)}[{obj}]"
        return f"({v(src.c.piece_owner)}[{obj}] if {v(type)}({obj}) is {v(Piece)} else {v(src.c.zone_owner)}[{obj}])"
    obj = src.sub(e.obj, env)
    if name == "face":
        return f"s.face[{obj}]"
    if name == "kind":
        return f"{src.value(src.c.kind_of)}[{obj}]"
    if name == "seat":
        return f"({src.value(int)}({obj}) + 1)"
    return f"{src.value(src.c.attribute_column(name))}[{obj}]"


# ---------------------------------------------------------------- reading
def read(v, e) -> Runs:
    if v.subject(e.obj):
        return v.attribute(e.name) if v.lang == "ja" else [("", "its ")] + v.attribute(e.name)
    return v.expr(e.obj) + [("", "の")] + v.attribute(e.name) if v.lang == "ja" else \
        [("", "the ")] + v.attribute(e.name) + [("", " of ")] + v.expr(e.obj)


register(Attr, "expression", grammar=GRAMMAR, check=check, compile=compile, generate=generate, read=read, order=nothing, sources=nothing)
