"""The compiled program's parts: jump labels, what a paused instruction waits for (a choice or
a chance outcome), compile-time scopes, and small helpers the compiler and constructs share.

May import: the syntax base classes and engine values (a leaf, so constructs can use it).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from ..language import syntax as S
from .values import Player, Spaces, Team, ZoneId, plain

CHANCE = -1                     # the actor of a chance outcome


class Label:
    __slots__ = ("ip",)

    def __init__(self):
        self.ip = -1


@dataclass
class Choice:
    """What a paused CHOOSE instruction offers."""
    actor: Optional[Callable]
    options: list                      # (name, available, params, where_fn, bounds, body label, option syntax)
    simultaneous: bool
    actors_slot: int = -1
    pending_slot: int = -1
    span: S.Span = S.NOWHERE
    owner: str = ""
    named: dict = field(default_factory=dict)    # option name -> (its parameters' slots, body label, coverage id)
    # the slots of the parameters taken from one zone (`card from hand(p)`, `from table`), whose
    # moves generated code reads from the zone's own list (Moves.domain_code)
    zone_params: frozenset = frozenset()
    # of a choice whose options have independent parameters and no `where`: state -> each offered
    # option's domains (Moves.option_parts), so that a move is drawn without listing the moves
    parts: Optional[Callable] = None
    drawn_from: Optional[tuple] = None  # (name, parameter) of such a choice's one option, always offered, of one collection parameter

    def naming_pieces(self) -> frozenset:
        """The options with a parameter taken from a collection: the only ones whose moves can
        name a piece (a number range never does)."""
        return frozenset(name for name, _, params, *_ in self.options if any(hi is None for *_, hi in params))


@dataclass(frozen=True)
class CounterScore:
    """A score that adds up counters kept per player: a declared one (`score tribe`) or one
    given on the command line (`--score vp+fp`). A class, not a closure, so that workers can
    get it."""
    slots: tuple

    def __call__(self, s, player: int):
        return sum(s.pvars[i][player] or 0 for i in self.slots)

    def every_seat(self, s) -> tuple:
        """Every seat's score at once: the analyses read it before every decision."""
        if len(self.slots) == 1:
            return tuple([0 + (v or 0) for v in s.pvars[self.slots[0]]])      # 0 + x is what sum([x]) gives
        return tuple([self(s, p) for p in range(s.n)])


@dataclass
class Chance:
    """A chance event: its construct says how many outcomes there are and what one does."""
    zone: Callable
    span: S.Span
    owner: str
    outcomes: Callable                 # (game, items) -> how many equally likely outcomes
    settle: Callable                   # (game, state, zone, items, outcome) -> None
    # how many of the pieces the event takes, worked out from the state (a draw): then
    # `outcomes(game, items, amount)`; None: the event falls on every piece (a shuffle, a roll)
    amount: Optional[Callable] = None
    moves: bool = False                # its outcome moves pieces: triggers look, whatever they read

    def count(self, game, s, items) -> int:
        """How many equally likely outcomes the event has in `s`, falling on `items`."""
        return self.outcomes(game, items) if self.amount is None else self.outcomes(game, items, self.amount(s))


@dataclass(frozen=True)
class OptionInfo:
    syntax: S.Option
    independent: bool           # no parameter's range depends on another's value
    fill: Optional[Callable] = None     # (state, moves) -> None: lists its moves (Moves.option_filler)
    alike: tuple = ()           # each set `a, b from Z`: its parameters' positions; alike pieces offered once


class Env:
    """Compile-time scope: names of local slots, names bound to argument closures, and the slots
    known to hold a piece (a loop's over the pieces in zones)."""

    def __init__(self, game, locals_, bound=None, pieces=frozenset()):
        self.game = game
        self.locals = locals_
        self.bound = bound or {}
        self.pieces = pieces

    def new_slot(self, name) -> int:
        i = self.game.n_slots
        self.game.n_slots += 1
        return i

    def with_local(self, name, slot, piece: bool = False) -> "Env":
        loc = dict(self.locals)
        loc[name] = slot
        return Env(self.game, loc, self.bound, self.pieces | {slot} if piece else self.pieces - {slot})

    def holds_piece(self, name: str) -> bool:
        """Whether the local `name` always holds a piece (never a zone, a player or nothing)."""
        return self.locals.get(name) in self.pieces


def param_names(choice, option):
    for o in choice.options:
        if o[0] == option:
            return [p[0] for p in o[2]]
    return []


def plain_move(move):
    return [plain(x) for x in move]


def chosen_seats(move) -> dict:
    """Which of a move's values (counted from 0 after the option's name) are players and which
    teams, for the log: in plain form they are numbers, which the narrator would otherwise read
    as the pieces of those numbers."""
    out: dict = {}
    for k, x in enumerate(move[1:]):
        if type(x) is Player:
            out.setdefault("players", []).append(k)
        elif type(x) is Team:
            out.setdefault("teams", []).append(k)
    return out


def combine(op, old, v):
    if op == "set":
        return v
    if op == "add":
        return old + v
    return old - v


def describe(e) -> str:
    if isinstance(e, S.Name):
        return e.id
    if isinstance(e, S.Call):
        return f"{e.fn}(...)"
    if isinstance(e, S.Attr):
        return f"{describe(e.obj)}.{e.name}"
    return type(e).__name__.lower()


def first_line(text: str, span: S.Span) -> str:
    lines = text.splitlines()
    if 0 < span.line <= len(lines):
        return lines[span.line - 1][max(span.column - 1, 0):].strip()
    return ""


def source(text: str, span: S.Span) -> str:
    lines = text.splitlines()
    if span.line == span.end_line and 0 < span.line <= len(lines):
        return lines[span.line - 1][span.column - 1:span.end_column - 1]
    return "..."


def split_bounds(where, range_params, all_params):
    """Split `where` into simple bounds on range parameters (used to narrow the ranges, so
    worked out before any parameter has a value: a bound that reads one of the option's
    parameters, `all_params`, is not one) and the rest, which is tested for every combination."""
    if where is None:
        return [], None
    conj = []

    def flatten(e):
        if isinstance(e, S.Binary) and e.op == "and":
            flatten(e.left)
            flatten(e.right)
        else:
            conj.append(e)
    flatten(where)
    bounds, rest = [], []
    flip = {">=": "<=", "<=": ">=", ">": "<", "<": ">", "=": "="}
    params, named = set(range_params), set(all_params)
    for c in conj:
        if isinstance(c, S.Binary) and c.op in flip:
            if isinstance(c.left, S.Name) and c.left.id in params and not mentions(c.right, named):
                bounds.append((c.left.id, c.op, c.right))
                continue
            if isinstance(c.right, S.Name) and c.right.id in params and not mentions(c.left, named):
                bounds.append((c.right.id, flip[c.op], c.left))
                continue
        rest.append(c)
    rest_expr = None
    for c in rest:
        rest_expr = c if rest_expr is None else S.Binary(c.span, "and", rest_expr, c)
    return bounds, rest_expr


def mentions(e, names) -> bool:
    return any(isinstance(x, S.Name) and x.id in names for x in S.walk(e))


def names_zones(v) -> bool:
    """A zone or a family of zones, whose pieces items_of gives."""
    return isinstance(v, ZoneId) or isinstance(v, tuple) and bool(v) and isinstance(v[0], ZoneId) and not isinstance(v, Spaces)


def items_of(s, v):
    """The pieces of a zone or of every zone of a family; any other collection as it is."""
    if isinstance(v, ZoneId):
        return s.zones[v]
    if isinstance(v, tuple) and v and isinstance(v[0], ZoneId) and not isinstance(v, Spaces):    # names_zones, inline
        out = []
        for z in v:
            out.extend(s.zones[z])
        return out
    return v
