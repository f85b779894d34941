"""`board NAME`: a grid of spaces, each a zone.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.errors import RuleError
from ..language import syntax as S
from ..language.building import span
from ..language.syntax import Decl
from ..printing.runs import Runs, plain
from .registry import register


@dataclass(frozen=True)
class Board(Decl):
    keyword = "board"
    width: "int | str"          # a number, or the name of a parameter that gives it
    height: "int | str"
    adjacency: str


# ---------------------------------------------------------------- grammar
def _grid_line(meta, c):
    def size(tok):
        return int(tok) if tok.type == "INT" else str(tok)
    return ("grid", (size(c[0]), size(c[1])))


def _adjacency_line(meta, c):
    return ("adjacency", c[0])


def _board(meta, c):
    props = {"grid": (1, 1), "adjacency": "orthogonal"}
    texts = []
    for line in c[1:]:
        if isinstance(line, tuple) and line and isinstance(line[0], S.Text):
            texts.extend(line)
        else:
            props[line[0]] = line[1]
    w, h = props["grid"]
    return Board(str(c[0]), tuple(texts), span(meta), w, h, props["adjacency"])


GRAMMAR = {"grid_line": _grid_line, "adjacency_line": _adjacency_line, "board": _board}


# ---------------------------------------------------------------- checks
def check(ck, d):
    for size in dict.fromkeys((d.width, d.height)):
        if isinstance(size, str):
            p = ck.declared.get(size)
            if not isinstance(p, S.Parameter):
                ck.error(d.span, f"the board's size '{size}' is not a parameter",
                         "write a number, or the name of a parameter (`parameter size = 4`)")
            else:
                ck.used.add(size)
        elif size < 1:
            ck.error(d.span, "a board needs at least one space")


def size_of(tables, size) -> int:
    """A board side as a number: as written, or the parameter's value at this player count."""
    if isinstance(size, int):
        return size
    n = tables.const(S.Name(S.NOWHERE, size), f"the board size '{size}'")
    if not isinstance(n, int) or n < 1:
        raise RuleError("board", f"the board size '{size}' is {n}: a board needs at least one space", S.NOWHERE)
    return n


# ---------------------------------------------------------------- reading
def read(v, b, counts=()) -> Runs:
    w, h = (plain(v.name(x)) if isinstance(x, str) else str(x) for x in (b.width, b.height))
    return [("num", f"{w} × {h}")]


register(Board, "declaration", grammar=GRAMMAR, check=check, read=read)
