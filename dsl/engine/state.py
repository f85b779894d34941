"""A game state: a plain value.

Everything that says where a game is, including its position in the turn structure
(instruction pointer and local slots), lives in these fields, so a state can be
copied, hashed, compared and written to JSON. No generator or closure holds progress.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Optional

from .values import Piece, plain


@dataclass(frozen=True)
class DeadEnd:
    """A situation the rules do not cover, named by the rule that leaves it open."""
    kind: str                   # no case applies | no legal move | empty zone | ...
    rule: str                   # the innermost named rule, step or trigger
    path: str
    line: int
    column: int
    message: str
    # the players an ending could not tell apart: the outcomes a ruling may give (not part of the value)
    contenders: tuple = field(default=(), compare=False)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    def to_json(self) -> dict:
        return {"kind": self.kind, "rule": self.rule, "where": self.where, "message": self.message}


class State:
    __slots__ = ("game", "n", "zones", "loc", "face", "revealed", "looked", "vars", "pvars", "alive",
                 "ip", "loc_slots", "latches", "playing", "outcome", "payoffs", "dead_end", "moves", "ticks", "rounds", "log", "fired",
                 "memo", "settling")

    def __init__(self, game, n: int):
        self.game = game
        self.n = n
        self.zones: list[list] = []
        self.loc: list[int] = []            # zone index of each piece
        self.face: list = []                # die face (None for other pieces)
        self.revealed: list[bool] = []      # shown to everyone since it last moved
        self.looked: dict = {}              # piece -> the players it was shown to since it last moved
        self.vars: list = []
        self.pvars: list[list] = []
        self.alive: list[bool] = []
        self.ip = 0
        self.loc_slots: list = []           # local variables of the turn structure
        self.latches: list = []             # triggers that have fired and not yet reset
        self.playing = False                # setup is over; triggers are live
        self.outcome: Optional[tuple] = None    # winners, once the game has ended
        self.payoffs: Optional[tuple] = None    # each seat's pay-off, when the game ended with pay-offs
        self.dead_end: Optional[DeadEnd] = None
        self.moves = 0                      # decisions taken so far
        self.ticks = 0                      # loop passes since the last decision (the loop bound)
        self.rounds = 0                     # passes of the outermost play loop (not part of the value)
        self.log: Optional[list] = None     # narration events, when someone listens
        self.fired: Optional[dict] = None   # coverage counts, when someone listens
        self.memo: dict = {}                # values computed since the last change (not part of the value)
        self.settling = False               # a trigger is running: its effects fire no trigger (not part of the value)

    # ------------------------------------------------------------ a plain value
    def clone(self) -> "State":
        c = State.__new__(State)
        c.game = self.game
        c.n = self.n
        c.zones = list(map(list, self.zones))       # map: no comprehension frame, in the hot path of every game
        c.loc = list(self.loc)
        c.face = list(self.face)
        c.revealed = list(self.revealed)
        c.looked = dict(self.looked)
        c.vars = list(self.vars)
        c.pvars = list(map(list, self.pvars))
        c.alive = list(self.alive)
        c.ip = self.ip
        c.loc_slots = list(self.loc_slots)
        c.latches = list(self.latches)
        c.playing = self.playing
        c.outcome = self.outcome
        c.payoffs = self.payoffs
        c.dead_end = self.dead_end
        c.moves = self.moves
        c.ticks = self.ticks
        c.rounds = self.rounds
        c.log = None
        c.fired = None
        c.memo = {}
        c.settling = False
        return c

    def key(self, order_free: frozenset = frozenset(), live_at: Optional[dict] = None,
            classes: Optional[tuple] = None) -> tuple:
        """What decides the rest of the game: two states with the same key are the same state.
        The move and loop counters, which only bound the game, do not count, nor does how an
        ended game got there. By default every zone's order and every local slot count;
        explore passes the zones whose order no rule reads (`order_free`, compared as sets)
        and the slots live at each paused instruction (`live_at`), engine/order.py. With
        `classes` (engine/order.py piece_classes), pieces of one class are interchangeable: a
        zone is the classes, faces and shown flags it holds, and a variable that holds a piece
        holds its place."""
        canon = _identity
        if classes is None:
            zones = tuple(tuple(sorted(z)) if i in order_free else tuple(z) for i, z in enumerate(self.zones))
            body = (zones, tuple(self.face), tuple(self.revealed), tuple(self.vars),
                    tuple(tuple(v) for v in self.pvars), tuple(self.alive))
            if self.looked:     # only where a private look happened, so other games' keys stay as they were
                body += (tuple(sorted(self.looked.items())),)
        else:
            face, shown = self.face, self.revealed
            place: dict = {}
            zones = []
            for i, z in enumerate(self.zones):
                items = sorted(z, key=lambda p: (classes[p], repr(face[p]), shown[p], p)) if i in order_free else z
                for at, p in enumerate(items):
                    place[p] = (i, at)
                zones.append(tuple((classes[p], face[p], shown[p]) for p in items))

            canon = partial(_placed, place=place)
            body = (tuple(zones), canon(tuple(self.vars)), canon(tuple(tuple(v) for v in self.pvars)),
                    tuple(self.alive))
            if self.looked:
                body += (tuple(sorted((place[p], who) for p, who in self.looked.items())),)
        if self.outcome is not None or self.dead_end is not None:
            d = self.dead_end
            return body + ("end", self.outcome, self.payoffs, (d.kind, d.rule, d.line, d.column) if d else None)
        L = self.loc_slots
        slots = L if live_at is None else [L[i] for i in live_at.get(self.ip, ())]
        return body + (self.ip, canon(tuple(freeze(x) for x in slots)), tuple(self.latches), self.playing)

    def __hash__(self) -> int:
        return hash(self.key())

    def __eq__(self, other) -> bool:
        return isinstance(other, State) and self.key() == other.key()

    def digest(self) -> str:
        """A stable hash across processes (Python's hash() of str is salted)."""
        import hashlib
        import json
        return hashlib.sha256(json.dumps(self.to_json(), sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]

    def to_json(self) -> dict:
        return {
            "players": self.n,
            "zones": {self.game.zone_names[i]: [int(p) for p in z] for i, z in enumerate(self.zones)},
            "faces": {str(i): f for i, f in enumerate(self.face) if f is not None},
            "revealed": [i for i, r in enumerate(self.revealed) if r],
            **({"looked": {str(int(p)): sorted(w) for p, w in sorted(self.looked.items())}} if self.looked else {}),
            "variables": {name: plain(self.vars[i]) for name, i in self.game.var_slots.items()},
            "player_variables": {name: plain(self.pvars[i]) for name, i in self.game.pvar_slots.items()},
            "alive": list(self.alive),
            "position": {"ip": self.ip, "locals": plain(freeze(self.loc_slots)), "latches": plain(self.latches), "playing": self.playing},
            "outcome": plain(self.outcome),
            **({"payoffs": list(self.payoffs)} if self.payoffs is not None else {}),
            "dead_end": self.dead_end.to_json() if self.dead_end else None,
            "moves": self.moves,
        }

    # ------------------------------------------------------------ OpenSpiel-like face
    def is_terminal(self) -> bool:
        return self.outcome is not None or self.dead_end is not None

    def current_actors(self) -> list:
        return self.game.current_actors(self)

    def is_chance(self) -> bool:
        return self.game.is_chance(self)

    def chance_outcomes(self) -> int:
        return self.game.chance_outcomes(self)

    def legal_moves(self, player=None) -> list:
        return self.game.legal_moves(self, player)

    def apply(self, move, player=None, validate: bool = True) -> None:
        self.game.apply(self, move, player, validate)

    def returns(self) -> list[float]:
        return self.game.returns(self)

    def observation(self, player) -> dict:
        return self.game.observation(self, player)


def _identity(v):
    return v


def _placed(v, place: dict):
    """A value with each piece in it named by where it lies, not by which piece it is."""
    if isinstance(v, Piece):
        return ("piece",) + place.get(v, (-1, int(v)))
    if isinstance(v, tuple):
        return tuple(_placed(x, place) for x in v)
    return v


def freeze(v):
    if isinstance(v, (list, tuple)):
        return tuple(freeze(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, freeze(x)) for k, x in v.items()))
    return v
