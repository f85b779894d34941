"""The syntax tree: frozen dataclasses, each carrying the span it came from.

The parser builds these; every later pass (checker, compiler, prose) reads them and
never changes them. This module holds what every node shares (spans, designer text, the
base classes, the generic walk over a tree) and the rule file itself; each kind of node is
defined with its construct in dsl/constructs/ and can be reached from here by name
(`syntax.Move`).

May import: nothing from dsl at module level (the node classes are looked up lazily).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Optional


@dataclass(frozen=True)
class Span:
    line: int
    column: int
    end_line: int
    end_column: int
    file: str = ""              # the file the text came from; a variant's patches keep their own

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


NOWHERE = Span(0, 0, 0, 0)


@dataclass(frozen=True)
class Text:
    """Designer prose: kind is title, text, example, flavour or note."""
    kind: str
    lang: str
    text: str


def text_of(texts: tuple[Text, ...], kind: str, lang: str) -> Optional[str]:
    for t in texts:
        if t.kind == kind and t.lang == lang:
            return t.text
    return None


# ---------------------------------------------------------------- base classes

class Node:
    """Anything in the tree the passes walk: expressions, statements, declarations and the
    parts they are made of (options, cases, card rows...). Designer text is not a node."""
    __slots__ = ()


@dataclass(frozen=True)
class Expr(Node):
    span: Span = field(compare=False)


@dataclass(frozen=True)
class Stmt(Node):
    span: Span = field(compare=False)


@dataclass(frozen=True)
class Decl(Node):
    name: str
    texts: tuple[Text, ...]
    span: Span

    keyword = None      # the word a declaration is written with, where one class has one word


def kind_of(decl: Decl) -> str:
    """The keyword a declaration is written with (what a patch names it by)."""
    if type(decl).keyword:
        return type(decl).keyword
    return getattr(decl, "kind", None) or decl.name      # counter/variable, dice/deck/token; setup/play


# ---------------------------------------------------------------- walking a tree

def children(node: Node):
    """The nodes directly inside a node, in source order."""
    for f in fields(node):
        if f.name != "span":
            yield from _nodes_in(getattr(node, f.name))


def _nodes_in(value):
    if isinstance(value, Node):
        yield value
    elif isinstance(value, tuple):
        for x in value:
            yield from _nodes_in(x)


def walk(node: Node):
    """A node and every node inside it, in source order."""
    yield node
    for c in children(node):
        yield from walk(c)


def same(a, b) -> bool:
    """Whether two parts of rules say the same, wherever each is written (spans aside)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, Span):
        return True
    if isinstance(a, tuple):
        return len(a) == len(b) and all(map(same, a, b))
    if is_dataclass(a):
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in fields(a))
    return a == b


def walk_rules(rules: "RuleFile"):
    """Every node of every declaration of a rule file, in source order."""
    for d in rules.decls:
        yield from walk(d)


def statements(stmts):
    """Every statement in a block, nested ones included, in source order."""
    for st in stmts:
        for n in walk(st):
            if isinstance(n, Stmt):
                yield n


def transfer(st: Node) -> Optional[tuple[Expr, Expr]]:
    """(what a statement takes pieces from, where it puts them), as written, or None for a
    statement that moves no piece. What it takes from is a zone, or for `move X to B` the
    piece X itself (`top(deck)`, a chosen card). `shuffle` and `pass ... to the left` take a
    zone's pieces and put them back in the same zones, in a new order or a new owner's."""
    from ..constructs.draw import Draw
    from ..constructs.move import Move
    from ..constructs.name import Name
    from ..constructs.pass_zones import PassZones
    from ..constructs.shuffle import Shuffle
    if isinstance(st, Move):
        return (st.count if st.amount == "item" else st.source), st.dest
    if isinstance(st, Draw):
        return st.zone, st.dest
    if isinstance(st, Shuffle):
        return st.zone, st.zone
    if isinstance(st, PassZones):
        zone = Name(st.span, st.zone)
        return zone, zone
    return None


def splice(stmts: tuple, fn) -> tuple:
    """A statement list rebuilt: fn(statement) gives a list of statements to put in its place,
    or None to keep it (with the statement lists inside it spliced the same way)."""
    out = []
    for st in stmts:
        got = fn(st)
        if got is not None:
            out.extend(got)
        else:
            out.append(_splice_inside(st, fn))
    return tuple(out)


def _splice_inside(node: Node, fn):
    changes = {}
    for f in fields(node):
        if f.name != "span":
            old = getattr(node, f.name)
            new = _splice_value(old, fn)
            if new is not old:
                changes[f.name] = new
    return replace(node, **changes) if changes else node


def _splice_value(value, fn):
    if isinstance(value, Node):
        return _splice_inside(value, fn)
    if isinstance(value, tuple):
        if value and all(isinstance(x, Stmt) for x in value):
            return splice(value, fn)
        items = tuple(_splice_value(x, fn) for x in value)
        return value if all(a is b for a, b in zip(items, value)) else items
    return value


def __getattr__(name: str):
    # The node classes live with their constructs (dsl/constructs/). Looking them up on first
    # use keeps `syntax.Move` working everywhere without an import cycle.
    if not name.startswith("__"):
        from ..constructs import NODES
        if name in NODES:
            globals()[name] = NODES[name]       # found once; later lookups are plain attributes
            return NODES[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class RuleFile:
    path: str
    source: str
    decls: tuple[Decl, ...]
    variants: tuple["RuleFile", ...] = ()       # overlays applied, in order
    sources: tuple[tuple[str, str], ...] = ()   # (path, text) of every file that contributed
    # (span, statements): a statement a variant replaced inside a step (`replace in step`), and
    # what stands there now, for the text of the step as patched (variants/diff.py)
    replaced: tuple = ()

    def source_of(self, span: "Span") -> str:
        """The text of the file a span points into."""
        if span.file and span.file != self.path:
            for path, text in self.sources:
                if path == span.file:
                    return text
        return self.source

    def path_of(self, span: "Span") -> str:
        return span.file or self.path

    def of(self, cls) -> list:
        return [d for d in self.decls if isinstance(d, cls)]

    @property
    def game(self):
        from ..constructs.game import Game
        games = self.of(Game)
        return games[0] if games else None
