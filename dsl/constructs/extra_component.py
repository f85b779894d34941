"""`component NAME`: a physical component the seed lists that play does not model (a score track,
markers, race boards). The rulebook lists it with what a player unpacks; the engine never sees it.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..language.building import span
from ..language.syntax import Decl, Expr, Text
from ..printing.runs import Runs, say
from .component import count_runs
from .registry import register


@dataclass(frozen=True)
class ExtraComponent(Decl):
    keyword = "component"
    count: Optional[Expr] = None
    per: Optional[str] = None           # 'player' | 'team': the count is for each


# ---------------------------------------------------------------- grammar
def _count_line(meta, c):
    return ("count", (c[0], c[1]))


def _component(meta, c):
    texts, count, per = [], None, None
    for line in c[1:]:
        if isinstance(line, tuple) and line and isinstance(line[0], Text):
            texts.extend(line)
        else:
            count, per = line[1]
    return ExtraComponent(str(c[0]), tuple(texts), span(meta), count, per)


GRAMMAR = {"component_count_line": _count_line, "component": _component}


# ---------------------------------------------------------------- checks
def check(ck, d):
    # play never reads it, so it is not reported unused; its count must be known before play
    ck.used.add(d.name)
    if d.count is not None:
        ck.count(d.count, f"the count of '{d.name}'")


# ---------------------------------------------------------------- reading
def read(v, d, counts=()) -> Runs:
    size = v.rules.game.team_size if v.rules.game else 1
    per_team = lambda n: -(-n // size)      # noqa: E731  teams at n players: the last may be smaller
    out = count_runs(v, counts, d.per or "", per_team if d.per == "team" else (lambda n: n))
    return out + [("", (" — " if out else "") + say(v.lang, "ルールの処理では使わない", "not used by the rules of play"))]


register(ExtraComponent, "declaration", grammar=GRAMMAR, check=check, read=read)
