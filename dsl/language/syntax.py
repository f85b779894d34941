"""The syntax tree: frozen dataclasses, each carrying the span it came from.

The parser builds these; every later pass (checker, compiler, prose) reads them and
never changes them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
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


# ---------------------------------------------------------------- expressions

@dataclass(frozen=True)
class Expr:
    span: Span = field(compare=False)


@dataclass(frozen=True)
class Num(Expr):
    value: int


@dataclass(frozen=True)
class Str(Expr):
    value: str


@dataclass(frozen=True)
class Name(Expr):
    id: str


@dataclass(frozen=True)
class Call(Expr):
    fn: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Attr(Expr):
    obj: Expr
    name: str


@dataclass(frozen=True)
class Unary(Expr):
    op: str          # 'not' or '-'
    operand: Expr


@dataclass(frozen=True)
class Binary(Expr):
    op: str          # and or + - * // % = != < <= > >=
    left: Expr
    right: Expr


@dataclass(frozen=True)
class IfExpr(Expr):
    cond: Expr
    then: Expr
    other: Expr


@dataclass(frozen=True)
class ListLit(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True)
class Comprehension(Expr):
    """`x in coll where cond` (item is None) or `item for x in coll where cond`."""
    var: str
    coll: Expr
    cond: Optional[Expr]
    item: Optional[Expr]


# ---------------------------------------------------------------- statements

@dataclass(frozen=True)
class Stmt:
    span: Span = field(compare=False)


@dataclass(frozen=True)
class Move(Stmt):
    amount: str                 # 'exactly' | 'up to' | 'all' | 'item'
    count: Optional[Expr]       # how many, or the item itself for 'item'
    source: Optional[Expr]
    dest: Expr
    place: str                  # 'top' | 'bottom'


@dataclass(frozen=True)
class Shuffle(Stmt):
    zone: Expr


@dataclass(frozen=True)
class Roll(Stmt):
    zone: Expr


@dataclass(frozen=True)
class Target:
    name: str
    player: Optional[Expr]
    span: Span


@dataclass(frozen=True)
class Assign(Stmt):
    op: str                     # 'set' | 'add' | 'subtract'
    target: Target
    value: Expr


@dataclass(frozen=True)
class Eliminate(Stmt):
    player: Expr


@dataclass(frozen=True)
class Reveal(Stmt):
    zone: Expr


@dataclass(frozen=True)
class Do(Stmt):
    rule: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class RankKey:
    direction: str              # 'highest' | 'lowest'
    expr: Expr


@dataclass(frozen=True)
class EndGame(Stmt):
    winners: Optional[Expr]                 # a collection of players
    keys: tuple[RankKey, ...] = ()          # or: rank the players by keys
    var: str = ""
    coll: Optional[Expr] = None
    ties_share: bool = False


@dataclass(frozen=True)
class Unhandled(Stmt):
    pass


@dataclass(frozen=True)
class Pass(Stmt):
    pass


@dataclass(frozen=True)
class Block(Stmt):
    """A named container of statements: step, phase or assume (answer to a question)."""
    kind: str                   # 'step' | 'phase' | 'assume'
    name: str
    texts: tuple[Text, ...]
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class If(Stmt):
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]
    otherwise: Optional[tuple[Stmt, ...]]


@dataclass(frozen=True)
class Case:
    cond: Expr
    texts: tuple[Text, ...]
    body: tuple[Stmt, ...]
    span: Span


@dataclass(frozen=True)
class Cases(Stmt):
    name: Optional[str]
    cases: tuple[Case, ...]


@dataclass(frozen=True)
class Repeat(Stmt):
    kind: str                   # 'until' | 'while' | 'times'
    expr: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class ForEach(Stmt):
    var: str
    coll: Expr
    cond: Optional[Expr]
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Param:
    name: str
    low: Expr                   # a collection when high is None
    high: Optional[Expr]
    span: Span


@dataclass(frozen=True)
class Option:
    name: str
    params: tuple[Param, ...]
    where: Optional[Expr]
    available: Optional[Expr]
    texts: tuple[Text, ...]
    body: tuple[Stmt, ...]
    span: Span


@dataclass(frozen=True)
class Choose(Stmt):
    actor: Optional[Expr]       # None for a simultaneous choice
    options: tuple[Option, ...]
    each_var: str = ""          # simultaneous: each <var> in <coll> ...
    each_coll: Optional[Expr] = None


def statements(stmts):
    """Every statement in a block, nested ones included, in source order."""
    for st in stmts:
        yield st
        for v in vars(st).values():
            if isinstance(v, tuple):
                for x in v:
                    if isinstance(x, Stmt):
                        yield from statements([x])
                    elif isinstance(x, (Option, Case)):
                        yield from statements(x.body)
                    elif isinstance(x, tuple) and len(x) == 2 and isinstance(x[1], tuple):
                        yield from statements([y for y in x[1] if isinstance(y, Stmt)])


# ---------------------------------------------------------------- declarations

@dataclass(frozen=True)
class Decl:
    name: str
    texts: tuple[Text, ...]
    span: Span


@dataclass(frozen=True)
class Game(Decl):
    min_players: int
    max_players: int
    seating: str
    team_size: int
    max_steps: Optional[Expr]


@dataclass(frozen=True)
class Parameter(Decl):
    value: Optional[Expr]
    by_players: tuple[tuple[int, Expr], ...]
    otherwise: Optional[Expr]
    provisional: bool


@dataclass(frozen=True)
class Counter(Decl):
    kind: str                   # 'counter' (a number) | 'variable' (any value)
    per: Optional[str]          # 'player' or 'team': one value each, written NAME(x); None: one for the game
    initial: Expr
    minimum: Optional[Expr]
    maximum: Optional[Expr]


@dataclass(frozen=True)
class Component(Decl):
    """Dice, cards and tokens: physical pieces that live in zones and are conserved."""
    kind: str                                   # 'dice' | 'deck' | 'token'
    home: Optional[str]
    faces: tuple[object, ...] = ()
    wild: Optional[object] = None
    count: Optional[Expr] = None
    count_per_player: bool = False
    cards: tuple["CardSpec", ...] = ()


@dataclass(frozen=True)
class CardSpec:
    """One row of a card table: attribute values and how many copies."""
    name: str
    attrs: tuple[tuple[str, object], ...]
    count: Optional[Expr]
    span: Span


@dataclass(frozen=True)
class Board(Decl):
    width: int
    height: int
    adjacency: str


@dataclass(frozen=True)
class Zone(Decl):
    kind: str
    per: Optional[str]          # one zone per 'player', per 'team' (its members are owners), or per
                                # piece of the component named here (`per space`); None: shared
    seen_by: str                # 'owner' | 'everyone' | 'nobody'


@dataclass(frozen=True)
class Order(Decl):
    attribute: str
    ranks: tuple[tuple[object, ...], ...]      # strongest first; equal values grouped


@dataclass(frozen=True)
class Define(Decl):
    params: tuple[str, ...]
    expr: Expr


@dataclass(frozen=True)
class Rule(Decl):
    params: tuple[str, ...]
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Trigger(Decl):
    var: Optional[str]
    coll: Optional[Expr]
    cond: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Question(Decl):
    about: Optional[str] = None     # the rule or step the question concerns


@dataclass(frozen=True)
class Flow(Decl):
    """`setup` or `play`: the top of the turn structure."""
    body: tuple[Stmt, ...]


def kind_of(decl: Decl) -> str:
    """The keyword a declaration is written with (what a patch names it by)."""
    if isinstance(decl, (Counter, Component)):
        return decl.kind
    if isinstance(decl, Flow):
        return decl.name
    return {Game: "game", Parameter: "parameter", Board: "board", Zone: "zone", Order: "order",
            Define: "value", Rule: "rule", Trigger: "trigger", Question: "question",
            Variant: "variant", Patch: "patch"}[type(decl)]


@dataclass(frozen=True)
class Variant(Decl):
    """The head of an overlay file: which game it patches and which variants it builds on."""
    game: str
    builds_on: tuple[str, ...]


@dataclass(frozen=True)
class Patch(Decl):
    """One change an overlay makes. `name` is what it patches; `kind` says what that is.

    op: 'replace' | 'add' | 'remove' | 'change cards'
    kind: the kind of declaration ('rule', 'parameter', ...), or 'step' / 'phase'
    item: the new declaration (replace/add), or the new Block for a step or phase
    anchor: for a step or phase added 'before'/'after' another: (position, name)
    match/assign: for 'change cards': attribute values to match, then to set
    """
    op: str
    kind: str
    item: Optional[object] = None
    anchor: Optional[tuple[str, str]] = None
    match: tuple[tuple[str, object], ...] = ()
    assign: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True)
class RuleFile:
    path: str
    source: str
    decls: tuple[Decl, ...]
    variants: tuple["RuleFile", ...] = ()       # overlays applied, in order
    sources: tuple[tuple[str, str], ...] = ()   # (path, text) of every file that contributed

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
    def game(self) -> Optional[Game]:
        games = self.of(Game)
        return games[0] if games else None
