"""A walk over a syntax tree: every declaration, every use of a declared name, every construct.

`mentions(decls)` yields `Mention`s in source order: role 'def' where a name is declared
(rules, values, zones, questions, steps, phases, named cases...), 'ref' where a declared
name is used (locals such as a rule's parameters or `for each p` are skipped, since they
shadow nothing a file declares), and 'node' for every statement and expression (what
hover reads aloud). A variant's patches count as uses of what they patch.

Imports: dsl.language.syntax only. (The syntax module is getting a generic walk(); this
one can then shrink to the scoping and the roles.)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from ..language import syntax as S

# Names every rule file knows without declaring them.
CONSTANTS = ("players", "teams", "nobody", "true", "false", "player_count")


@dataclass(frozen=True)
class Mention:
    role: str                   # 'def' | 'ref' | 'node'
    name: str                   # the name declared or used ('' for a node)
    kind: str                   # def: what is declared; ref: what it should be ('rule', 'question', 'any'...)
    span: S.Span                # where to look for the name (from here on) or the node's extent
    node: object = None         # the declaration, statement or expression


def mentions(decls) -> Iterator[Mention]:
    for d in decls:
        yield from _decl(d)


def _decl(d) -> Iterator[Mention]:
    if isinstance(d, S.Patch):
        yield from _patch(d)
        return
    if not isinstance(d, (S.Flow, S.Score)):        # setup, play and score declare no name
        yield Mention("def", d.name, S.kind_of(d), d.span, d)
    if isinstance(d, S.Game) and d.max_steps is not None:
        yield from _expr(d.max_steps, frozenset())
    elif isinstance(d, S.Parameter):
        for e in (d.value, *(x for _, x in d.by_players), d.otherwise):
            yield from _expr(e, frozenset())
    elif isinstance(d, S.Counter):
        for e in (d.initial, d.minimum, d.maximum):
            yield from _expr(e, frozenset())
        for per in (d.per, d.per2):
            if per not in (None, "player", "team"):
                yield Mention("ref", per, "component", d.span, d)
    elif isinstance(d, S.Component):
        if d.home:
            yield Mention("ref", d.home, "zone", d.span, d)
        yield from _expr(d.count, frozenset())
        for c in d.cards:
            yield from _expr(c.count, frozenset())
    elif isinstance(d, S.Zone):
        if d.per not in (None, "player", "team"):
            yield Mention("ref", d.per, "component", d.span, d)
    elif isinstance(d, S.Question):
        if d.about:
            yield Mention("ref", d.about, "about", d.span, d)
    elif isinstance(d, S.Define):
        yield from _expr(d.expr, frozenset(d.params))
    elif isinstance(d, S.Score):
        for n in d.parts:
            yield Mention("ref", n, "any", d.span, d)
    elif isinstance(d, S.Rule):
        yield from _body(d.body, frozenset(d.params))
    elif isinstance(d, S.Trigger):
        local = frozenset([d.var] if d.var else [])
        yield from _expr(d.coll, frozenset())
        yield from _expr(d.cond, local)
        yield from _body(d.body, local)
    elif isinstance(d, S.Flow):
        yield from _body(d.body, frozenset())


def _patch(p: S.Patch) -> Iterator[Mention]:
    if p.op != "add":
        yield Mention("ref", p.name, p.kind, p.span, p)
    if p.anchor:
        yield Mention("ref", p.anchor[1], "step", p.span, p)
    if p.op == "replace inside":          # the statement found in the step, and what replaces it
        old, new = p.item
        yield from _body((old, *new), frozenset())
    elif isinstance(p.item, S.Block):
        yield from _stmt(p.item, frozenset())
    elif p.item is not None:
        yield from _decl(p.item)


def _body(stmts, local) -> Iterator[Mention]:
    for st in stmts:
        yield from _stmt(st, local)


def _stmt(st, local) -> Iterator[Mention]:
    yield Mention("node", "", type(st).__name__, st.span, st)
    if isinstance(st, S.Block):
        if st.kind == "assume":
            yield Mention("ref", st.name, "question", st.span, st)
        else:
            yield Mention("def", st.name, st.kind, st.span, st)
        yield from _body(st.body, local)
    elif isinstance(st, S.Move):
        for e in (st.count, st.source, st.dest):
            yield from _expr(e, local)
    elif isinstance(st, S.Draw):
        for e in (st.count, st.zone, st.dest):
            yield from _expr(e, local)
    elif isinstance(st, (S.Shuffle, S.Roll, S.Reveal)):
        yield from _expr(st.zone, local)
    elif isinstance(st, S.Eliminate):
        yield from _expr(st.player, local)
    elif isinstance(st, S.Assign):
        if not (st.target.name in local and st.target.player is None):
            yield Mention("ref", st.target.name, "counter", st.target.span, st)
        yield from _expr(st.target.player, local)
        yield from _expr(st.value, local)
    elif isinstance(st, S.Do):
        yield Mention("ref", st.rule, "rule", st.span, st)
        for a in st.args:
            yield from _expr(a, local)
    elif isinstance(st, S.EndGame):
        yield from _expr(st.winners, local)
        yield from _expr(st.coll, local)
        for k in st.keys:
            yield from _expr(k.expr, local | {st.var})
    elif isinstance(st, S.If):
        for cond, body in st.branches:
            yield from _expr(cond, local)
            yield from _body(body, local)
        yield from _body(st.otherwise or (), local)
    elif isinstance(st, S.Cases):
        if st.name:
            yield Mention("def", st.name, "cases", st.span, st)
        for c in st.cases:
            yield from _expr(c.cond, local)
            yield from _body(c.body, local)
    elif isinstance(st, S.Repeat):
        yield from _expr(st.expr, local)
        yield from _body(st.body, local)
    elif isinstance(st, S.ForEach):
        yield from _expr(st.coll, local)
        inner = local | {st.var}
        yield from _expr(st.cond, inner)
        yield from _body(st.body, inner)
    elif isinstance(st, S.Choose):
        yield from _expr(st.actor, local)
        yield from _expr(st.each_coll, local)
        inner = local | ({st.each_var} if st.each_var else set())
        for o in st.options:
            scope = inner
            for p in o.params:
                yield from _expr(p.low, scope)
                yield from _expr(p.high, scope)
                scope = scope | {p.name}
            yield from _expr(o.where, scope)
            yield from _expr(o.available, inner)
            yield from _body(o.body, scope)


def _expr(e, local) -> Iterator[Mention]:
    if e is None:
        return
    yield Mention("node", "", type(e).__name__, e.span, e)
    if isinstance(e, S.Name):
        if e.id not in local and e.id not in CONSTANTS:
            yield Mention("ref", e.id, "any", e.span, e)
    elif isinstance(e, S.Call):
        if e.fn not in local:
            yield Mention("ref", e.fn, "call", e.span, e)
        for a in e.args:
            yield from _expr(a, local)
    elif isinstance(e, S.Attr):
        yield from _expr(e.obj, local)
    elif isinstance(e, S.Unary):
        yield from _expr(e.operand, local)
    elif isinstance(e, S.Binary):
        yield from _expr(e.left, local)
        yield from _expr(e.right, local)
    elif isinstance(e, S.IfExpr):
        for x in (e.cond, e.then, e.other):
            yield from _expr(x, local)
    elif isinstance(e, S.ListLit):
        for x in e.items:
            yield from _expr(x, local)
    elif isinstance(e, S.Comprehension):
        yield from _expr(e.coll, local)
        inner = local | {e.var}
        yield from _expr(e.cond, inner)
        yield from _expr(e.item, inner)
