"""`variant NAME of GAME`: the head of an overlay file (see dsl/variants/overlay.py).

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language import syntax as S
from ..language.building import span
from ..language.syntax import Decl
from .registry import Absent, register


@dataclass(frozen=True)
class Variant(Decl):
    keyword = "variant"
    """The head of an overlay file: which game it patches and which variants it builds on."""
    game: str
    builds_on: tuple[str, ...]


# ---------------------------------------------------------------- grammar
def _variant(meta, c):
    texts, builds_on = [], []
    for line in c[2:]:
        if isinstance(line, tuple) and line and isinstance(line[0], S.Text):
            texts.extend(line)
        else:
            builds_on.extend(line)
    return Variant(str(c[0]), tuple(texts), span(meta), str(c[1]), tuple(builds_on))


def _builds_on_line(meta, c):
    return [str(n) for n in c]


GRAMMAR = {"variant": _variant, "builds_on_line": _builds_on_line}


# ---------------------------------------------------------------- checks
def check(ck, d):
    """The overlay reads a variant's head before the game is checked: one the checker meets
    stands in a file joined to a game (a file of strategies)."""
    ck.error(d.span, f"'variant {d.name} of {d.game}' begins a variant file, not a file of strategies",
             "put the variant in a file of its own in variants/")


register(Variant, "declaration", grammar=GRAMMAR, check=check, read=Absent("a variant book lists its variants from their titles"))
