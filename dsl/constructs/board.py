"""`board NAME`: a grid of spaces, each a zone.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language import syntax as S
from ..language.building import span
from ..language.syntax import Decl
from ..printing.runs import Runs
from .registry import register


@dataclass(frozen=True)
class Board(Decl):
    keyword = "board"
    width: int
    height: int
    adjacency: str


# ---------------------------------------------------------------- grammar
def _grid_line(meta, c):
    return ("grid", (int(c[0]), int(c[1])))


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
    if d.width < 1 or d.height < 1:
        ck.error(d.span, "a board needs at least one space")


# ---------------------------------------------------------------- reading
def read(v, b, counts=()) -> Runs:
    return [("num", f"{b.width} × {b.height}")]


register(Board, "declaration", grammar=GRAMMAR, check=check, read=read)
