"""Code actions where the fix is certain: a misspelt name becomes the one the checker
suggests, and a place the rules may leave open (a `cases`, which ends in a dead end when no
`when` applies, or a `stop when unhandled`) with no open question about it gets a
`question ... about` stub above the declaration that holds it.

Imports: dsl.language (syntax, diagnostics), this package.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from ..language import syntax as S
from ..language.diagnostics import Diagnostic
from .resolve import Analysis
from .tokens import name_at
from .walk import mentions

_SUGGESTION = re.compile(r"did you mean '(\w+)'\?")


@dataclass(frozen=True)
class Edit:
    line: int           # 0-based; start and end characters on that line (an insertion when equal)
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Action:
    title: str
    edits: tuple[Edit, ...]
    diagnostic: Diagnostic | None = None


def actions(a: Analysis, first: int, last: int) -> list[Action]:
    """Fixes for the 0-based lines first..last."""
    out = [x for d in a.diagnostics if d.span.line - 1 <= last and d.span.end_line - 1 >= first
           for x in [_respell(a, d)] if x is not None]
    out += _question_stubs(a, first, last)
    return out


def _respell(a: Analysis, d: Diagnostic) -> Action | None:
    m = _SUGGESTION.search(d.hint or "")
    if m is None:
        return None
    right = m.group(1)
    quoted = [w for w in re.findall(r"'(\w+)'", d.message) if w != right]
    if not quoted:
        return None
    wrong = max(quoted, key=lambda w: difflib.SequenceMatcher(None, w, right).ratio())
    where = name_at(a.text, wrong, d.span.line, d.span.column, d.span.end_line)
    if where is None:
        return None
    return Action(f"Change '{wrong}' to '{right}'", (Edit(where[0], where[1], where[2], right),), d)


def _question_stubs(a: Analysis, first: int, last: int) -> list[Action]:
    asked = {d.about for d in a.rules.decls if isinstance(d, S.Question) and d.about}
    taken = {d.name for d in a.rules.decls if hasattr(d, "name")}
    containers = [m for m in mentions(a.tree.decls)
                  if m.role == "def" and m.kind in ("rule", "trigger", "step", "phase", "cases")]
    out = []
    for m in mentions(a.tree.decls):
        if not (m.role == "node" and isinstance(m.node, (S.Unhandled, S.Cases)) and first <= m.span.line - 1 <= last):
            continue
        around = [c for c in containers if _holds(c.span, m.span)]
        if not around:
            continue
        about = min(around, key=lambda c: (c.span.end_line - c.span.line, c.span.end_column - c.span.column)).name
        if about in asked:
            continue
        name = f"{about}_unhandled"
        n = 2
        while name in taken:
            name, n = f"{about}_unhandled_{n}", n + 1
        top = next(d for d in a.tree.decls if _holds(d.span, m.span))
        stub = (f"question {name} about {about}\n"
                f"  text en \"The rules do not say what happens here.\"\n\n")
        out.append(Action(f"Add an open question about '{about}'", (Edit(top.span.line - 1, 0, 0, stub),)))
    return out


def _holds(outer: S.Span, inner: S.Span) -> bool:
    return (outer.line, outer.column) <= (inner.line, inner.column) and \
        (inner.end_line, inner.end_column) <= (outer.end_line, outer.end_column)
