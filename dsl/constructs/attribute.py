"""`x.face`, `x.kind`, `x.seat`, `x.owner`, `x.COLUMN`: what a piece, player or zone carries.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.values import Piece
from ..language.building import span
from ..language.kinds import ANY, BOOL, COLL, FAMILY, NUM, PIECE, PLAYER, TEAM, TEXT, ZONE
from ..language.kinds import a as a_kind
from ..language import syntax as S
from ..language.syntax import Expr
from ..printing.runs import Runs, say
from ..printing.runs import plain as plain_text
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
    # holder(x) is a player or, in a zone kept per piece, that piece: a kind the checker cannot
    # tell passes; one it can tell and that never has the value fails every game that reads it
    kind = ck.expr(e.obj, scope)
    if kind in _NEVER.get(e.name, _NEVER[None]):
        ck.error(e.obj.span, f"'.{e.name}' is read from {_READ_FROM.get(e.name, 'one piece')}, and this is {_of(ck, e.obj, kind)}",
                 _hint(e, kind))
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

_VALUES = {NUM, BOOL, TEXT}
_NEVER = {"seat": _VALUES | {COLL, ZONE, FAMILY, PIECE},       # a player or team
          "owner": _VALUES | {COLL, FAMILY, PLAYER, TEAM},     # a piece or zone
          None: _VALUES | {COLL, ZONE, FAMILY, PLAYER, TEAM}}   # face, kind, a column: a piece
_READ_FROM = {"seat": "a player or a team", "owner": "one piece or one zone"}


def _of(ck, obj, kind) -> str:
    """What the object is, in the words of the file: a component's name is all its pieces."""
    d = ck.declared.get(obj.id) if isinstance(obj, S.Name) else None
    if isinstance(d, S.Component):
        return f"{d.kind} '{d.name}': all its pieces together, not one of them"
    return a_kind(kind)


def _hint(e, kind) -> str:
    named = e.obj.id if isinstance(e.obj, S.Name) else "..."
    if kind in (COLL, ZONE, FAMILY) and e.name != "seat":
        total = f", or add them all up: `sum(d.{e.name} for d in {named})`" if e.name != "owner" else ""
        return f"read one piece, e.g. `first({named}).{e.name}`{total}"
    if e.name == "seat":
        return "a seat is a player's or team's: for a piece's, `x.owner.seat`"
    return "read it from one piece: a loop's item, what a player chose, first(...) or top(...)"


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
    obj, name = v.expr(e.obj), v.attribute(e.name)
    # a title that already names its owner is not said twice: 「そのマスの番号」, 'the number of that space'
    x = v.local(e.obj.id) if isinstance(e.obj, S.Name) else None
    head = say(v.lang, x.noun[0] + "の", x.noun[1] + " ") if x is not None else None
    if head and len(name) == 1 and name[0][1].startswith(head) and plain_text(obj).endswith(head[:-1]):
        name = [(name[0][0], name[0][1][len(head):])]
    return obj + [("", "の")] + name if v.lang == "ja" else [("", "the ")] + name + [("", " of ")] + obj


register(Attr, "expression", grammar=GRAMMAR, check=check, compile=compile, generate=generate, read=read, order=nothing, sources=nothing)
