"""The document outline: declarations, with the steps and phases nested as written.

Imports: dsl.language.syntax, this package's tokens.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..language import syntax as S
from .tokens import name_at


@dataclass
class Symbol:
    name: str
    kind: str                           # the keyword it is written with: 'rule', 'step', 'question'...
    detail: str                         # its English title (or Japanese), if any
    span: S.Span                        # all of it
    selection: tuple[int, int, int]     # the name: 0-based line, start, end
    children: list["Symbol"] = field(default_factory=list)


def outline(rules: S.RuleFile) -> list[Symbol]:
    out = []
    for d in rules.decls:
        if isinstance(d, S.Patch):
            item = d.item
            label = f"{d.op} {d.kind} {d.name}"
            out.append(_symbol(rules.source, label, d.name, "patch", d, getattr(item, "texts", ()),
                               _steps(rules.source, getattr(item, "body", ()) if not isinstance(item, S.Block) else (item,))))
        else:
            out.append(_symbol(rules.source, d.name, d.name, S.kind_of(d), d, d.texts,
                               _steps(rules.source, getattr(d, "body", ()))))
    return out


def _steps(source: str, stmts) -> list[Symbol]:
    """The steps and phases in a body, each holding those inside it."""
    out = []
    for st in stmts:
        if isinstance(st, S.Block) and st.kind in ("step", "phase"):
            out.append(_symbol(source, st.name, st.name, st.kind, st, st.texts, _steps(source, st.body)))
        else:
            out += _steps(source, _inner(st))
    return out


def _inner(st) -> list:
    """The statements directly inside a compound statement."""
    if isinstance(st, S.Block | S.Repeat | S.ForEach):
        return list(st.body)
    if isinstance(st, S.If):
        return [x for _, body in st.branches for x in body] + list(st.otherwise or ())
    if isinstance(st, S.Cases):
        return [x for c in st.cases for x in c.body]
    if isinstance(st, S.Choose):
        return [x for o in st.options for x in o.body]
    return []


def _symbol(source, label, name, kind, node, texts, children) -> Symbol:
    span = node.span
    where = name_at(source, name, span.line, span.column, span.end_line) if name else None
    selection = where or (max(span.line - 1, 0), max(span.column - 1, 0), max(span.column - 1, 0))
    detail = S.text_of(texts, "title", "en") or S.text_of(texts, "title", "ja") or ""
    return Symbol(label, kind, detail, span, selection, children)
