"""`component NAME`: a physical component the seed lists that play does not model (a score track,
markers, race boards). The rulebook lists it with what a player unpacks; the engine never sees it.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..language.building import span
from ..language import syntax as S
from ..language.syntax import Decl, Expr, Text
from ..printing.runs import Runs, say
from .component import count_runs
from .registry import register


@dataclass(frozen=True)
class ExtraComponent(Decl):
    keyword = "component"
    count: Optional[Expr] = None
    per: Optional[str] = None           # 'player' | 'team': the count is for each
    kept_as: tuple[str, ...] = ()       # the counters it stands for at the table (chips kept as a number)


# ---------------------------------------------------------------- grammar
def _count_line(meta, c):
    return ("count", (c[0], c[1]))


def _kept_line(meta, c):
    return ("kept", tuple(str(n) for n in c))


def _component(meta, c):
    texts, count, per, kept = [], None, None, ()
    for line in c[1:]:
        if isinstance(line, tuple) and line and isinstance(line[0], Text):
            texts.extend(line)
        elif line[0] == "kept":
            kept += line[1]
        else:
            count, per = line[1]
    return ExtraComponent(str(c[0]), tuple(texts), span(meta), count, per, kept)


GRAMMAR = {"component_count_line": _count_line, "component_kept_line": _kept_line, "component": _component}


# ---------------------------------------------------------------- checks
def check(ck, d):
    # play never reads it, so it is not reported unused; its count must be known before play
    ck.used.add(d.name)
    if d.count is not None:
        ck.count(d.count, f"the count of '{d.name}'")
    counters = lambda: [c.name for c in ck.of(S.Counter)]     # noqa: E731
    for n in d.kept_as:
        if not isinstance(ck.declared.get(n), S.Counter):
            ck.error(d.span, f"component '{d.name}' is kept as '{n}', which is no counter or variable",
                     ck.did_you_mean(n, counters) or "name the counter that keeps it: 'kept as chips' for 'counter chips per player = 10'")


# ---------------------------------------------------------------- reading
def read(v, d, counts=()) -> Runs:
    size = v.rules.game.team_size if v.rules.game else 1
    per_team = lambda n: -(-n // size)      # noqa: E731  teams at n players: the last may be smaller
    out = count_runs(v, counts, d.per or "", per_team if d.per == "team" else (lambda n: n))
    lead = [("", " — ")] if out else []
    if d.kept_as:
        # the rules play it as numbers: what it shows, not that play does without it
        kept = []
        for k, n in enumerate(d.kept_as):
            kept += ([("", say(v.lang, "・", " and " if k == len(d.kept_as) - 1 else ", "))] if k else []) + v.name(n, article=False)
        return out + lead + say(v.lang, [("", "ルールでは")] + kept + [("", "として数える")],
                                [("", "the rules count it as ")] + kept)
    return out + lead + [("", say(v.lang, "ルールでは管理しない", "the rules do not track it"))]


register(ExtraComponent, "declaration", grammar=GRAMMAR, check=check, read=read)
