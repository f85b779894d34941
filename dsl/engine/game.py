"""The engine: a checked rule file, compiled for one player count, played as a state machine.

The turn structure is compiled to a flat list of instructions with jumps (each one a
small closure over the rule tree). A state holds only the index of the next
instruction and the values of the local slots, so a game's progress is plain data.
Running stops at a decision (a player's choice, or a chance outcome) or at the end.
Anything the rules do not cover ends the game with a DeadEnd, never an exception.
"""
from __future__ import annotations

import itertools
import math
import operator
from dataclasses import dataclass
from typing import Callable, Optional

from ..language import syntax as S
from .builtins import BUILTINS
from .state import DeadEnd, State
from .values import Piece, Player, Team, ZoneId, plain

_CMP = {"=": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
        ">": operator.gt, ">=": operator.ge}
_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod}
CHANCE = -1                     # the actor of a chance outcome
DEFAULT_MAX_MOVES = 5000
LOOP_PASSES_PER_STEP = 10       # loop passes allowed between two decisions, per unit of `max steps`
_TRIGGER_ROUNDS = 64


class IllegalMove(ValueError):
    """apply() was given an action the rules do not allow here. The state is unchanged."""


class RuleError(Exception):
    """A problem in the rules found while playing; becomes a DeadEnd."""

    def __init__(self, kind: str, message: str, span: Optional[S.Span] = None):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.span = span


class _Label:
    __slots__ = ("ip",)

    def __init__(self):
        self.ip = -1


@dataclass
class _Choice:
    """What a paused CHOOSE instruction offers."""
    actor: Optional[Callable]
    options: list                      # (name, available, params, where_fn, bounds, body label, option syntax)
    simultaneous: bool
    actors_slot: int = -1
    pending_slot: int = -1
    span: S.Span = S.NOWHERE
    owner: str = ""


@dataclass
class _Chance:
    kind: str                          # 'roll' | 'shuffle'
    zone: Callable
    span: S.Span
    owner: str


class Game:
    """One rule file compiled for one player count. Shared by all its states."""

    def __init__(self, rules: S.RuleFile, n_players: int):
        self.rules = rules
        self.path = rules.path
        self.n = n_players
        game = rules.game
        self.name = game.name
        self.direction = 1 if game.seating == "clockwise" else -1
        self._players = tuple(Player(i) for i in range(n_players))
        size = max(game.team_size, 1)
        # `teams of N`: seats in order make the teams; a remainder makes one smaller team
        self.teams = tuple(Team(k) for k in range((n_players + size - 1) // size))
        self.team_members = tuple(self._players[k * size:(k + 1) * size] for k in range(len(self.teams)))
        self.team_of = tuple(self.teams[i // size] for i in range(n_players))
        self.code: list[Callable] = []
        self.owner: list[str] = []
        self.spans: list[S.Span] = []
        self.pauses: dict[int, object] = {}
        self.block_names: list[tuple[str, str, S.Span]] = []    # (kind, name, span) per coverage id
        self.n_slots = 0                # local slots, allocated while compiling
        self.slot_scopes: dict[int, tuple[int, int]] = {}   # slot -> [first, end) instructions where it is live
        self._value_fns: dict = {}
        self._inlining: list[str] = []  # rules being compiled (a rule cannot `do` itself)
        try:
            self._build_tables()
            self._compile_all()
        except RuleError:
            raise
        except RecursionError:
            raise RuleError("rules", "the rules are nested too deeply to compile", None)
        except Exception as err:        # anything the checker missed: an error, never a traceback
            raise RuleError("rules", f"the rules cannot be compiled ({type(err).__name__}: {err})", None)
        self.live_at: dict[int, tuple[int, ...]] = {
            ip: tuple(sl for sl, (a, b) in sorted(self.slot_scopes.items()) if a <= ip < b) for ip in self.pauses}

    # ------------------------------------------------------------ tables
    def players_of(self, n):
        return self._players

    def _build_tables(self):
        r = self.rules
        self.params: dict[str, object] = {}
        self.defines = {d.name: d for d in r.of(S.Define)}
        self.rule_decls = {d.name: d for d in r.of(S.Rule)}
        self.questions = {d.name: d for d in r.of(S.Question)}
        for p in r.of(S.Parameter):
            if p.by_players:
                table = dict(p.by_players)
                expr = table.get(self.n, p.otherwise)
                if expr is None:
                    raise RuleError("parameter", f"parameter '{p.name}' has no value for {self.n} players", p.span)
            else:
                expr = p.value
            self.params[p.name] = self._const(expr, f"parameter '{p.name}'")
        # zones
        self.zone_names: list[str] = []
        self.zone_owner: list = []
        self.zone_seen: list[str] = []
        self.zone_kind: list[str] = []
        self.zones: dict[str, object] = {}      # name -> ZoneId or tuple of ZoneId per player/team/piece
        self.family_index: dict[str, dict] = {}     # per-piece zones: piece -> position in the family
        by_piece = [z for z in r.of(S.Zone) if z.per not in (None, "player", "team")]
        for z in r.of(S.Zone):
            if z.per in ("player", "team"):
                keys = self._players if z.per == "player" else self.teams
                self.zones[z.name] = tuple(self._new_zone(f"{z.name}({int(p) + 1})", p, z.seen_by, z.kind)
                                           for p in keys)
            elif z.per is None:             # zones per piece are made once the pieces exist, below
                self.zones[z.name] = self._new_zone(z.name, None, z.seen_by, z.kind)
        for b in r.of(S.Board):
            cells = []
            for y in range(1, b.height + 1):
                for x in range(1, b.width + 1):
                    cells.append(ZoneId(len(self.zone_names)))
                    self.zone_names.append(f"{b.name}({x},{y})")
                    self.zone_owner.append(None)
                    self.zone_seen.append("everyone")
                    self.zone_kind.append("space")
            self.zones[b.name] = tuple(cells)
        # pieces
        self.kind_of: list[str] = []
        self.piece_attrs: list[dict] = []
        self.piece_label: list[str] = []
        self.initial_zone: list[int] = []
        self.initial_face: list = []
        self.wild_face: dict[str, object] = {}
        self.faces: dict[str, tuple] = {}
        self.piece_owner: list = []
        for c in r.of(S.Component):
            home = self.zones.get(c.home) if c.home else None
            own_homes = isinstance(home, tuple) and c.count_per_player and not c.cards \
                and len(home) == self.n and c.home not in self.family_index
            if home is None or (isinstance(home, tuple) and not own_homes):
                raise RuleError("component", f"'{c.name}' needs a shared zone to start in ('in ZONE'), "
                                             f"or a zone per player when it is counted per player", c.span)
            if c.kind == "dice":
                self.faces[c.name] = tuple(c.faces)
                self.wild_face[c.name] = c.wild
            specs = c.cards or (S.CardSpec(c.name, (), c.count, c.span),)
            for spec in specs:
                count = self._const(spec.count, f"the count of '{c.name}'") if spec.count is not None else 1
                if count < 0:
                    raise RuleError("component", f"'{c.name}' cannot have {count} pieces", spec.count.span)
                owners = self._players if c.count_per_player and not c.cards else (None,)
                # pieces counted per player belong to a player: `x.owner`, and their zone if it is per player
                for owner in owners:
                    for _ in range(int(count)):
                        self.kind_of.append(c.name)
                        attrs = dict(spec.attrs)
                        self.piece_attrs.append(attrs)
                        self.piece_label.append(spec.name if c.cards else c.name)
                        self.piece_owner.append(owner)
                        self.initial_zone.append(home[owner] if own_homes else home)
                        self.initial_face.append(c.faces[0] if c.kind == "dice" and c.faces else None)
        self.pieces = tuple(Piece(i) for i in range(len(self.kind_of)))
        self.kind_pieces: dict[str, tuple] = {}
        for p in self.pieces:
            self.kind_pieces.setdefault(self.kind_of[p], []).append(p)
        self.kind_pieces = {k: tuple(v) for k, v in self.kind_pieces.items()}
        for z in by_piece:
            of = self.kind_pieces.get(z.per)
            if of is None:
                raise RuleError("zone", f"zone '{z.name}' is kept per '{z.per}', which is not a component", z.span)
            # the piece owns its zone, so holder(x) of what lies there is that piece (a space, say)
            self.zones[z.name] = tuple(self._new_zone(f"{z.name}(#{int(piece)})", piece, z.seen_by, z.kind)
                                       for piece in of)
            self.family_index[z.name] = {piece: k for k, piece in enumerate(of)}
        # orders: value -> strength (higher is stronger)
        self.orders: dict[str, tuple[str, dict]] = {}
        for o in r.of(S.Order):
            strength = {}
            for i, group in enumerate(o.ranks):
                for v in group:
                    strength[v] = len(o.ranks) - i
            self.orders[o.name] = (o.attribute, strength)
        # variables
        self.var_slots: dict[str, int] = {}
        self.pvar_slots: dict[str, int] = {}        # kept per player or per team
        self.var_decls: dict[str, S.Counter] = {}
        for v in r.of(S.Counter):
            self.var_decls[v.name] = v
            if v.per:
                self.pvar_slots[v.name] = len(self.pvar_slots)
            else:
                self.var_slots[v.name] = len(self.var_slots)
        self.symbols = set()
        for attrs in self.piece_attrs:
            for v in attrs.values():
                if isinstance(v, str):
                    self.symbols.add(v)
        for c in r.of(S.Component):
            for f in c.faces:
                if isinstance(f, str):
                    self.symbols.add(f)
        for o in r.of(S.Order):
            for g in o.ranks:
                for v in g:
                    if isinstance(v, str):
                        self.symbols.add(v)
        mx = self.rules.game.max_steps if self.rules.game else None
        self.max_moves = self._const(mx, "max steps") if mx is not None else DEFAULT_MAX_MOVES
        if self.max_moves < 1:
            raise RuleError("game", f"max steps must be at least 1, not {self.max_moves}", mx.span)
        self.max_moves_from = (f"max steps ({self.rules.path_of(mx.span)}:{mx.span.line}:{mx.span.column})" if mx is not None
                               else "default")
        self.max_passes = LOOP_PASSES_PER_STEP * self.max_moves

    def _new_zone(self, name, owner, seen, kind) -> ZoneId:
        self.zone_names.append(name)
        self.zone_owner.append(owner)
        self.zone_seen.append(seen)
        self.zone_kind.append(kind)
        return ZoneId(len(self.zone_names) - 1)

    def _const(self, expr, what="this value"):
        """A whole number worked out before play: numbers, earlier parameters, player_count,
        arithmetic, comparisons, `if then else`, max, min and abs. Anything else is a RuleError."""
        try:
            v = self._const_eval(expr, what)
        except RuleError:
            raise
        except (TypeError, ValueError, ZeroDivisionError, ArithmeticError) as err:
            raise RuleError("constant", f"{what} cannot be worked out ({err})", expr.span)
        if isinstance(v, bool) or not isinstance(v, int):
            raise RuleError("constant", f"{what} must be a whole number, not {plain(v)!r}", expr.span)
        return v

    def _const_eval(self, e, what):
        if isinstance(e, S.Num):
            return e.value
        if isinstance(e, S.Name):
            if e.id == "player_count":
                return self.n
            if e.id in self.params:
                return self.params[e.id]
            if e.id in ("true", "false"):
                return e.id == "true"
        elif isinstance(e, S.Unary):
            v = self._const_eval(e.operand, what)
            return (not v) if e.op == "not" else -v
        elif isinstance(e, S.Binary):
            a = self._const_eval(e.left, what)
            if e.op == "and":
                return a and self._const_eval(e.right, what)
            if e.op == "or":
                return a or self._const_eval(e.right, what)
            b = self._const_eval(e.right, what)
            if e.op in _CMP:
                return _CMP[e.op](a, b)
            if e.op in _ARITH and not isinstance(a, bool) and not isinstance(b, bool) \
                    and isinstance(a, int) and isinstance(b, int):
                return _ARITH[e.op](a, b)
        elif isinstance(e, S.IfExpr):
            return self._const_eval(e.then if self._const_eval(e.cond, what) else e.other, what)
        elif isinstance(e, S.Call) and e.fn in ("max", "min", "abs") and e.args \
                and not any(isinstance(a, S.Comprehension) for a in e.args):
            args = [self._const_eval(a, what) for a in e.args]
            return {"max": max, "min": min, "abs": lambda *a: abs(a[0])}[e.fn](*args)
        raise RuleError("constant", f"{what} must be worked out from numbers, earlier parameters and "
                                    f"player_count; '{_describe(e)}' cannot be used here", e.span)

    # ------------------------------------------------------------ expressions
    def _expr(self, e: S.Expr, env: "_Env") -> Callable:
        m = getattr(self, "_x_" + type(e).__name__)
        return m(e, env)

    def _x_Num(self, e, env):
        v = e.value
        return lambda s: v

    def _x_Str(self, e, env):
        v = e.value
        return lambda s: v

    def _x_ListLit(self, e, env):
        fs = [self._expr(i, env) for i in e.items]
        return lambda s: tuple(f(s) for f in fs)

    def _x_Name(self, e, env):
        n = e.id
        if n in env.locals:
            i = env.locals[n]
            return lambda s: s.loc_slots[i]
        if n in env.bound:
            return env.bound[n]
        if n == "players":
            ps = self._players
            return lambda s: ps
        if n == "teams":
            ts = self.teams
            return lambda s: ts
        if n == "player_count":
            k = self.n
            return lambda s: k
        if n == "nobody":
            return lambda s: None
        if n in ("true", "false"):
            v = n == "true"
            return lambda s: v
        if n in self.params:
            v = self.params[n]
            return lambda s: v
        if n in self.var_slots:
            i = self.var_slots[n]
            return lambda s: s.vars[i]
        if n in self.defines:
            d = self.defines[n]
            if d.params:
                raise RuleError("name", f"'{n}' needs {len(d.params)} argument(s)", e.span)
            return self._memo_value(n, d)
        if n in self.zones:
            z = self.zones[n]
            return lambda s: z
        if n in self.kind_pieces:
            ps = self.kind_pieces[n]
            return lambda s: ps
        if n in self.symbols:
            return lambda s: n
        raise RuleError("name", f"unknown name '{n}'", e.span)

    def _x_Attr(self, e, env):
        obj = self._expr(e.obj, env)
        name = e.name
        if name == "face":
            return lambda s: s.face[obj(s)]
        if name == "kind":
            kinds = self.kind_of
            return lambda s: kinds[obj(s)]
        if name == "seat":
            return lambda s: int(obj(s)) + 1
        if name == "owner":
            owners, piece_owner = self.zone_owner, self.piece_owner
            return lambda s: piece_owner[v] if isinstance(v := obj(s), Piece) else owners[v]
        attrs = self.piece_attrs

        def get(s):
            return attrs[obj(s)].get(name)
        return get

    def _x_Unary(self, e, env):
        f = self._expr(e.operand, env)
        if e.op == "not":
            return lambda s: not f(s)
        return lambda s: -f(s)

    def _x_IfExpr(self, e, env):
        c, a, b = self._expr(e.cond, env), self._expr(e.then, env), self._expr(e.other, env)
        return lambda s: a(s) if c(s) else b(s)

    def _x_Binary(self, e, env):
        a, b = self._expr(e.left, env), self._expr(e.right, env)
        op = e.op
        fast = self._fast_compare(e, env, op)
        if fast is not None:
            return fast
        if op == "and":
            return lambda s: a(s) and b(s)
        if op == "or":
            return lambda s: a(s) or b(s)
        if op == "+":
            return lambda s: a(s) + b(s)
        if op == "-":
            return lambda s: a(s) - b(s)
        if op == "*":
            return lambda s: a(s) * b(s)
        if op == "//":
            return lambda s: a(s) // b(s)
        if op == "%":
            return lambda s: a(s) % b(s)
        if op == "=":
            return lambda s: a(s) == b(s)
        if op == "!=":
            return lambda s: a(s) != b(s)
        if op == "<":
            return lambda s: a(s) < b(s)
        if op == "<=":
            return lambda s: a(s) <= b(s)
        if op == ">":
            return lambda s: a(s) > b(s)
        if op == ">=":
            return lambda s: a(s) >= b(s)
        raise RuleError("operator", f"unknown operator {op}", e.span)

    def _memo_value(self, name, d):
        """A value without arguments is computed once until the state next changes."""
        if name in self._value_fns:
            return self._value_fns[name]
        f = self._expr(d.expr, _Env(self, {}))

        def value(s):
            memo = s.memo
            if name in memo:
                return memo[name]
            v = memo[name] = f(s)
            return v
        self._value_fns[name] = value
        return value

    def _fast_count(self, arg, env):
        """count() of a zone, of every zone of a family, or of the players still in."""
        if isinstance(arg, S.Call) and arg.fn == "alive_players" and not arg.args:
            return lambda s: sum(s.alive)
        if isinstance(arg, S.Call) and arg.fn == "all" and len(arg.args) == 1 \
                and isinstance(arg.args[0], S.Name) and isinstance(self.zones.get(arg.args[0].id), tuple):
            fam = self.zones[arg.args[0].id]
            return lambda s: sum([len(s.zones[z]) for z in fam])
        if isinstance(arg, S.Call) and isinstance(self.zones.get(arg.fn), tuple) and len(arg.args) == 1 \
                and arg.fn not in self._board_names():
            zone = self._family_member(arg, env)
            return lambda s: len(s.zones[zone(s)])
        if isinstance(arg, S.Comprehension) and arg.item is None:
            comp = self._x_Comprehension(arg, env)
            return lambda s: len(comp(s))
        return None

    def _fast_compare(self, e, env, op):
        """Comparisons of a slot or variable with a number or another slot or variable
        are the inner loop of legal-move generation: read the fields directly."""
        if op not in ("=", "!=", "<", "<=", ">", ">="):
            return None

        def leaf(x):
            if isinstance(x, S.Num):
                return ("k", x.value)
            if isinstance(x, S.Attr) and x.name == "face" and isinstance(x.obj, S.Name) \
                    and x.obj.id in env.locals:
                return ("f", env.locals[x.obj.id])
            if isinstance(x, S.Name):
                if x.id in env.locals:
                    return ("l", env.locals[x.id])
                if x.id not in env.bound and x.id in self.var_slots:
                    return ("v", self.var_slots[x.id])
            return None
        l, r = leaf(e.left), leaf(e.right)
        if l is None or r is None or (l[0] == "k" and r[0] == "k"):
            return None
        cmp = _CMP[op]
        (lk, li), (rk, ri) = l, r
        if lk == "f" and rk == "v":
            return lambda s: cmp(s.face[s.loc_slots[li]], s.vars[ri])
        if lk == "f" and rk == "k":
            return lambda s: cmp(s.face[s.loc_slots[li]], ri)
        if lk == "f" or rk == "f":
            return None
        if lk == "l" and rk == "k":
            return lambda s: cmp(s.loc_slots[li], ri)
        if lk == "l" and rk == "v":
            return lambda s: cmp(s.loc_slots[li], s.vars[ri])
        if lk == "l" and rk == "l":
            return lambda s: cmp(s.loc_slots[li], s.loc_slots[ri])
        if lk == "v" and rk == "k":
            return lambda s: cmp(s.vars[li], ri)
        if lk == "v" and rk == "v":
            return lambda s: cmp(s.vars[li], s.vars[ri])
        if lk == "v" and rk == "l":
            return lambda s: cmp(s.vars[li], s.loc_slots[ri])
        if lk == "k" and rk == "l":
            return lambda s: cmp(li, s.loc_slots[ri])
        if lk == "k" and rk == "v":
            return lambda s: cmp(li, s.vars[ri])
        return None

    def _collection(self, e, env):
        """A comprehension's source as a function giving a sequence of items."""
        f = self._expr(e, env)

        def items(s):
            v = f(s)
            if isinstance(v, ZoneId):
                return s.zones[v]
            if isinstance(v, tuple) and v and isinstance(v[0], ZoneId):
                out = []
                for z in v:
                    out.extend(s.zones[z])
                return out
            return v
        return items

    def _x_Comprehension(self, e, env, pairs=False):
        slot = env.new_slot(e.var)
        inner = env.with_local(e.var, slot)
        coll = self._collection(e.coll, env)
        cond = self._expr(e.cond, inner) if e.cond is not None else None
        item = self._expr(e.item, inner) if e.item is not None else None

        if pairs:
            def run(s):
                out = []
                L = s.loc_slots
                for x in coll(s):
                    L[slot] = x
                    if cond is None or cond(s):
                        out.append((x, item(s) if item else x))
                return tuple(out)
            return run
        if item is None and cond is None:
            return lambda s: tuple(coll(s))

        def run(s):
            out = []
            L = s.loc_slots
            for x in coll(s):
                L[slot] = x
                if cond is None or cond(s):
                    out.append(item(s) if item else x)
            return tuple(out)
        return run

    def _board_names(self) -> set:
        return {b.name for b in self.rules.of(S.Board)}

    def _family_member(self, e, env):
        """`NAME(key)` of a zone kept per player, per team or per piece: one zone."""
        fam, fn = self.zones[e.fn], e.fn
        a = self._expr(e.args[0], env)
        index = self.family_index.get(fn)
        if index is None:
            return lambda s: fam[a(s)]
        span = e.span

        def member(s):
            k = index.get(a(s))
            if k is None:
                raise RuleError("evaluation failed", f"'{fn}' is kept per piece, and {plain(a(s))!r} is not one", span)
            return fam[k]
        return member

    def _x_Call(self, e, env):
        fn = e.fn
        if fn in self.zones and isinstance(self.zones[fn], tuple) and len(e.args) == 1:
            return self._family_member(e, env)
        if fn in self.zones and isinstance(self.zones[fn], tuple) and len(e.args) == 2:
            board = next(b for b in self.rules.of(S.Board) if b.name == fn)
            cells, w, h = self.zones[fn], board.width, board.height
            ax, ay = self._expr(e.args[0], env), self._expr(e.args[1], env)
            span = e.span

            def space(s):
                x, y = ax(s), ay(s)
                if not (1 <= x <= w and 1 <= y <= h):
                    raise RuleError("off the board", f"there is no space {fn}({x}, {y}) on a {w} by {h} board", span)
                return cells[(y - 1) * w + x - 1]
            return space
        if fn in self.pvar_slots:
            i = self.pvar_slots[fn]
            a = self._expr(e.args[0], env)
            return lambda s: s.pvars[i][a(s)]
        if fn in self.orders:
            attr, strength = self.orders[fn]
            a = self._expr(e.args[0], env)
            attrs = self.piece_attrs
            return lambda s: strength.get(attrs[a(s)].get(attr), 0)
        if fn in self.defines:
            d = self.defines[fn]
            args = [self._expr(x, env) for x in e.args]
            return self._expr(d.expr, _Env(self, {}, bound=dict(zip(d.params, args))))
        b = BUILTINS.get(fn)
        if b is None:
            raise RuleError("name", f"unknown function '{fn}'", e.span)
        if fn == "wild" and len(e.args) == 1 and isinstance(e.args[0], S.Name) and e.args[0].id in env.locals:
            wild_of = [self.wild_face.get(k) for k in self.kind_of]
            li = env.locals[e.args[0].id]

            def wild(s):
                p = s.loc_slots[li]
                w = wild_of[p]
                return w is not None and s.face[p] == w
            return wild
        if fn == "count" and len(e.args) == 1:
            fast = self._fast_count(e.args[0], env)
            if fast is not None:
                return fast
        impl = b.impl
        args = []
        for k, x in enumerate(e.args):
            last = k == len(e.args) - 1
            if isinstance(x, S.Comprehension):
                args.append(self._x_Comprehension(x, env, pairs=b.pairs and last))
            elif b.pairs and last:
                coll = self._collection(x, env)
                args.append(lambda s, coll=coll: tuple((i, i) for i in coll(s)))
            else:
                args.append(self._expr(x, env))
        if len(args) == 0:
            return lambda s: impl(s)
        if len(args) == 1:
            a0 = args[0]
            return lambda s: impl(s, a0(s))
        if len(args) == 2:
            a0, a1 = args
            return lambda s: impl(s, a0(s), a1(s))
        return lambda s: impl(s, *[a(s) for a in args])

    # ------------------------------------------------------------ statements
    def _emit(self, fn, owner, span) -> int:
        self.code.append(fn)
        self.owner.append(owner)
        self.spans.append(span)
        return len(self.code) - 1

    def _compile_all(self):
        self.trigger_reads = set()
        for t in self.rules.of(S.Trigger):
            self.trigger_reads |= self._names_read(t.cond)
            if t.coll is not None:
                self.trigger_reads |= self._names_read(t.coll)
        env = _Env(self, {})
        setup = [f for f in self.rules.of(S.Flow) if f.name == "setup"]
        play = [f for f in self.rules.of(S.Flow) if f.name == "play"]
        self.round_loop = next((x for f in play for x in _outermost_loops(f.body)), None)
        for flow in setup:
            self._block(flow.body, env, flow.name)

        def start_play(s, ip=len(self.code)):
            s.playing = True
            self.fire_triggers(s)
            return ip + 1
        self._emit(start_play, "play", play[0].span if play else S.NOWHERE)
        for flow in play:
            self._block(flow.body, env, flow.name)
        end_span = play[-1].span if play else S.NOWHERE
        self._emit(self._dead("play ran out", "the turn structure ended without ending the game", end_span, "play"),
                   "play", end_span)
        self.triggers = []
        for t in self.rules.of(S.Trigger):
            tenv = _Env(self, {})
            start = len(self.code)
            slot = tenv.new_slot(t.var) if t.var else -1
            inner = tenv.with_local(t.var, slot) if t.var else tenv
            coll = self._collection(t.coll, tenv) if t.coll is not None else None
            cond = self._expr(t.cond, inner)
            self._block(t.body, inner, t.name)
            self._emit(lambda s: -1, t.name, t.span)
            self.triggers.append((t, slot, coll, cond, start))
        self.has_triggers = bool(self.triggers)
        self.trigger_reads = set()
        for t, *_ in self.triggers:
            self.trigger_reads |= self._names_read(t.cond)
            if t.coll is not None:
                self.trigger_reads |= self._names_read(t.coll)
        self.triggers_read_faces = bool(self.trigger_reads & {"face", "wild", "top", "first"})

    def _names_read(self, e, seen=None) -> set:
        """Every variable, zone and function a trigger's condition can read (through values too)."""
        seen = set() if seen is None else seen
        out = set()
        if isinstance(e, S.Name):
            out.add(e.id)
            d = self.defines.get(e.id)
            if d is not None and e.id not in seen:
                seen.add(e.id)
                out |= self._names_read(d.expr, seen)
        elif isinstance(e, S.Attr):
            out.add(e.name)
        elif isinstance(e, S.Call):
            out.add(e.fn)
            d = self.defines.get(e.fn)
            if d is not None and e.fn not in seen:
                seen.add(e.fn)
                out |= self._names_read(d.expr, seen)
        if isinstance(e, S.Expr):
            for v in vars(e).values():
                if isinstance(v, S.Expr):
                    out |= self._names_read(v, seen)
                elif isinstance(v, tuple):
                    for x in v:
                        if isinstance(x, S.Expr):
                            out |= self._names_read(x, seen)
        return out

    def _block(self, stmts, env, owner):
        for st in stmts:
            self._stmt(st, env, owner)

    def _stmt(self, st, env, owner):
        getattr(self, "_s_" + type(st).__name__)(st, env, owner)

    def _dead(self, kind, message, span, owner):
        path = self.rules.path_of(span)

        def dead(s):
            s.dead_end = DeadEnd(kind, owner, path, span.line, span.column, message)
            if s.log is not None:
                s.log.append({"event": "dead_end", **s.dead_end.to_json()})
            return -1
        return dead

    def _after_effect(self, s):
        if self.has_triggers and s.playing:
            self.fire_triggers(s)

    def _s_Pass(self, st, env, owner):
        pass

    def _s_Unhandled(self, st, env, owner):
        self._emit(self._dead("unhandled", "the rules stop here on purpose", st.span, owner), owner, st.span)

    def _s_Block(self, st, env, owner):
        cov = len(self.block_names)
        self.block_names.append((st.kind, st.name, st.span))
        name = st.name if st.kind != "assume" else owner

        def enter(s, ip=len(self.code), cov=cov, kind=st.kind, bname=st.name):
            if s.fired is not None:
                s.fired[cov] = s.fired.get(cov, 0) + 1
            if s.log is not None:
                s.log.append({"event": kind, "name": bname})
            return ip + 1
        self._emit(enter, name, st.span)
        self._block(st.body, env, name)

    def _s_Move(self, st, env, owner):
        dest = self._expr(st.dest, env)
        span = st.span
        to_top = st.place == "top"
        game = self

        def put(s, piece, d):
            src = s.zones[s.loc[piece]]
            src.remove(piece)
            if to_top:
                s.zones[d].append(piece)
            else:
                s.zones[d].insert(0, piece)
            s.loc[piece] = d
            s.revealed[piece] = False

        if st.amount == "item":
            item = self._expr(st.count, env)

            def move_item(s, ip=len(self.code)):
                p = item(s)
                if p is None:
                    raise RuleError("empty zone", "there is nothing to move", span)
                d = dest(s)
                s.memo.clear()
                put(s, p, d)
                if s.log is not None:
                    s.log.append({"event": "move", "pieces": [int(p)], "to": game.zone_names[d]})
                game._after_effect(s)
                return ip + 1
            self._emit(move_item, owner, span)
            return
        source = self._expr(st.source, env)
        count = self._expr(st.count, env) if st.count is not None else None
        kind = st.amount

        def move(s, ip=len(self.code)):
            src_id = source(s)
            d = dest(s)
            src = s.zones[src_id]
            if kind == "all":
                k = len(src)
            else:
                k = count(s)
                if k < 0:
                    raise RuleError("negative amount", f"asked to move {k} pieces", span)
                if k > len(src):
                    if kind == "exactly":
                        raise RuleError("empty zone",
                                        f"asked to move {k} from {game.zone_names[src_id]}, which holds {len(src)}",
                                        span)
                    k = len(src)
            s.memo.clear()
            if k:
                moved = src[len(src) - k:]
                del src[len(src) - k:]
                dst = s.zones[d]
                if to_top:
                    dst.extend(moved)
                else:
                    dst[0:0] = moved
                for p in moved:
                    s.loc[p] = d
                    s.revealed[p] = False
                if s.log is not None:
                    s.log.append({"event": "move", "pieces": [int(p) for p in moved],
                                  "from": game.zone_names[src_id], "to": game.zone_names[d]})
            game._after_effect(s)
            return ip + 1
        self._emit(move, owner, span)

    def _chance_stmt(self, st, env, owner, kind):
        zone = self._expr(st.zone, env)
        ip = len(self.code)
        self.pauses[ip] = _Chance(kind, zone, st.span, owner)

        def pause(s, ip=ip):
            s.ip = ip
            return -1
        self._emit(pause, owner, st.span)

    def _s_Roll(self, st, env, owner):
        self._chance_stmt(st, env, owner, "roll")

    def _s_Shuffle(self, st, env, owner):
        self._chance_stmt(st, env, owner, "shuffle")

    def _s_Assign(self, st, env, owner):
        t = st.target
        value = self._expr(st.value, env)
        op = st.op
        decl = self.var_decls.get(t.name)
        lo = self._const(decl.minimum, f"the minimum of '{t.name}'") \
            if decl is not None and decl.minimum is not None else None
        hi = self._const(decl.maximum, f"the maximum of '{t.name}'") \
            if decl is not None and decl.maximum is not None else None
        span = st.span
        game = self
        name = t.name

        def check(v):
            if lo is not None and v < lo:
                raise RuleError("below minimum", f"'{name}' would become {v}, below its minimum {lo}", span)
            if hi is not None and v > hi:
                raise RuleError("above maximum", f"'{name}' would become {v}, above its maximum {hi}", span)

        if t.player is None:
            if t.name in env.locals:
                i = env.locals[t.name]

                def assign(s, ip=len(self.code)):
                    s.loc_slots[i] = _combine(op, s.loc_slots[i], value(s))
                    return ip + 1
                self._emit(assign, owner, span)
                return
            i = self.var_slots[t.name]
            if op == "set" and lo is None and hi is None and name not in self.trigger_reads:
                # the common case, kept lean: it runs several times per decision
                def plain_set(s, nxt=len(self.code) + 1):
                    v = s.vars[i] = value(s)
                    if s.memo:
                        s.memo.clear()
                    if s.log is not None:
                        s.log.append({"event": "set", "name": name, "value": v})
                    return nxt
                self._emit(plain_set, owner, span)
                return

            def assign(s, ip=len(self.code)):
                v = _combine(op, s.vars[i], value(s))
                check(v)
                s.vars[i] = v
                s.memo.clear()
                if s.log is not None:
                    s.log.append({"event": "set", "name": name, "value": v})
                if name in game.trigger_reads:
                    game._after_effect(s)
                return ip + 1
            self._emit(assign, owner, span)
            return
        i = self.pvar_slots[t.name]
        who = self._expr(t.player, env)

        def assign_p(s, ip=len(self.code)):
            p = who(s)
            v = _combine(op, s.pvars[i][p], value(s))
            check(v)
            s.pvars[i][p] = v
            s.memo.clear()
            if s.log is not None:
                s.log.append({"event": "set", "name": name, ("team" if isinstance(p, Team) else "player"): int(p),
                              "value": v})
            if name in game.trigger_reads:
                game._after_effect(s)
            return ip + 1
        self._emit(assign_p, owner, span)

    def _s_Eliminate(self, st, env, owner):
        who = self._expr(st.player, env)
        game = self

        def eliminate(s, ip=len(self.code)):
            for p in game.players_in(who(s)):
                if s.alive[p]:
                    s.alive[p] = False
                    s.memo.clear()
                    if s.log is not None:
                        s.log.append({"event": "eliminate", "player": int(p)})
                    game._after_effect(s)
            return ip + 1
        self._emit(eliminate, owner, st.span)

    def _s_Reveal(self, st, env, owner):
        zone = self._collection(st.zone, env)
        game = self
        zexpr = self._expr(st.zone, env)

        def reveal(s, ip=len(self.code)):
            items = zone(s)
            s.memo.clear()
            for p in items:
                s.revealed[p] = True
            if s.log is not None:
                z = zexpr(s)
                s.log.append({"event": "reveal", "zone": game.zone_names[z] if isinstance(z, ZoneId) else None,
                              "pieces": [int(p) for p in items],
                              "shown": [s.face[p] if s.face[p] is not None else game.piece_label[p] for p in items]})
            return ip + 1
        self._emit(reveal, owner, st.span)

    def _s_Do(self, st, env, owner):
        rule = self.rule_decls.get(st.rule)
        if rule is None:
            raise RuleError("name", f"unknown rule '{st.rule}'", st.span)
        if rule.name in self._inlining:
            raise RuleError("recursion", f"rule '{rule.name}' runs itself through 'do'", st.span)
        first = len(self.code)
        slots = []
        inner = env
        for pname, arg in zip(rule.params, st.args):
            slot = env.new_slot(pname)
            value = self._expr(arg, env)

            def bind(s, ip=len(self.code), slot=slot, value=value):
                s.loc_slots[slot] = value(s)
                return ip + 1
            self._emit(bind, owner, st.span)
            inner = inner.with_local(pname, slot)
            slots.append(slot)
        cov = len(self.block_names)
        self.block_names.append(("rule", rule.name, rule.span))

        def enter(s, ip=len(self.code), cov=cov, name=rule.name):
            if s.fired is not None:
                s.fired[cov] = s.fired.get(cov, 0) + 1
            if s.log is not None:
                s.log.append({"event": "rule", "name": name})
            return ip + 1
        self._emit(enter, rule.name, rule.span)
        self._inlining.append(rule.name)
        self._block(rule.body, inner, rule.name)
        self._inlining.pop()
        for sl in slots:
            self.slot_scopes[sl] = (first, len(self.code))

    def _s_EndGame(self, st, env, owner):
        game = self
        span = st.span
        if st.winners is not None:
            winners = self._collection(st.winners, env)

            def end(s):
                w = tuple(sorted({p for x in winners(s) for p in game.players_in(x)}))
                s.outcome = w
                if s.log is not None:
                    s.log.append({"event": "end", "winners": [int(p) for p in w]})
                return -1
            self._emit(end, owner, span)
            return
        if st.keys:
            slot = env.new_slot(st.var)
            inner = env.with_local(st.var, slot)
            coll = self._collection(st.coll, env)
            keys = [(k.direction, self._expr(k.expr, inner)) for k in st.keys]
            share = st.ties_share

            def end_ranked(s):
                cands = list(coll(s))
                for direction, key in keys:
                    scored = []
                    for p in cands:
                        s.loc_slots[slot] = p
                        scored.append((key(s), p))
                    best = (max if direction == "highest" else min)(v for v, _ in scored) if scored else None
                    cands = [p for v, p in scored if v == best]
                    if len(cands) <= 1:
                        break
                if len(cands) > 1 and not share:
                    raise RuleError("tie not covered",
                                    f"{len(cands)} players tie for the win and the rules do not break the tie", span)
                s.outcome = tuple(sorted(cands))
                if s.log is not None:
                    s.log.append({"event": "end", "winners": [int(p) for p in s.outcome]})
                return -1
            self._emit(end_ranked, owner, span)
            return
        self._emit(lambda s: (setattr(s, "outcome", ()) or -1), owner, span)

    def _s_If(self, st, env, owner):
        end = _Label()
        src = self.rules.source_of(st.span)
        first = _source(src, st.branches[0][0].span)
        base = len(self.block_names)        # coverage ids: one per branch, then the else side
        for k, (cond_e, body) in enumerate(st.branches):
            self.block_names.append(("branch", f"{owner}: {'else if' if k else 'if'} {_source(src, cond_e.span)}",
                                     cond_e.span))
        self.block_names.append(("else", f"{owner}: else of if {first}" if st.otherwise else
                                 f"{owner}: if {first} is false", st.span))
        else_cov = base + len(st.branches)
        for k, (cond_e, body) in enumerate(st.branches):
            cond = self._expr(cond_e, env)
            nxt = _Label()
            cov = base + k
            last = else_cov if k == len(st.branches) - 1 else None

            def test(s, cond=cond, nxt=nxt, ip=len(self.code), cov=cov, last=last):
                if cond(s):
                    if s.fired is not None:
                        s.fired[cov] = s.fired.get(cov, 0) + 1
                    return ip + 1
                if last is not None and s.fired is not None:
                    s.fired[last] = s.fired.get(last, 0) + 1
                return nxt.ip
            self._emit(test, owner, cond_e.span)
            self._block(body, env, owner)
            self._emit(lambda s, end=end: end.ip, owner, st.span)
            nxt.ip = len(self.code)
        if st.otherwise:
            self._block(st.otherwise, env, owner)
        end.ip = len(self.code)

    def _s_Cases(self, st, env, owner):
        end = _Label()
        name = st.name or owner
        for case in st.cases:
            cond = self._expr(case.cond, env)
            nxt = _Label()
            cov = len(self.block_names)
            self.block_names.append(("case", f"{name}: when {_source(self.rules.source_of(case.cond.span), case.cond.span)}", case.span))

            def test(s, cond=cond, nxt=nxt, ip=len(self.code), cov=cov):
                if cond(s):
                    if s.fired is not None:
                        s.fired[cov] = s.fired.get(cov, 0) + 1
                    return ip + 1
                return nxt.ip
            self._emit(test, name, case.span)
            self._block(case.body, env, name)
            self._emit(lambda s, end=end: end.ip, name, case.span)
            nxt.ip = len(self.code)
        self._emit(self._dead("no case applies", "none of the cases applies to this situation", st.span, name),
                   name, st.span)
        end.ip = len(self.code)

    def _loop_back(self, st, head):
        """The jump back to the top of a `repeat`. It counts the passes made since the last
        decision: past the bound, the game ends in a `step limit` dead end naming this loop."""
        limit = self.max_passes
        what = _first_line(self.rules.source_of(st.span), st.span) or "repeat"
        span = st.span

        def back(s):
            t = s.ticks = s.ticks + 1
            if t >= limit:
                raise RuleError("step limit", f"the loop '{what}' ran {limit} times without a decision "
                                              f"(bound: {LOOP_PASSES_PER_STEP} x max steps)", span)
            return head
        return back

    def _counting_rounds(self, st, test, body):
        """The loop test of the outermost play loop also counts its passes (rounds) on the
        state; every other loop's test is left as it is."""
        if st is not self.round_loop:
            return test

        def counted(s):
            nxt = test(s)
            if nxt == body:
                s.rounds += 1
            return nxt
        return counted

    def _s_Repeat(self, st, env, owner):
        top = len(self.code)
        end = _Label()
        if st.kind == "times":
            slot = env.new_slot(None)
            times = self._expr(st.expr, env)

            def init(s, ip=top):
                s.loc_slots[slot] = times(s)
                return ip + 1
            self._emit(init, owner, st.span)
            head = len(self.code)

            def test(s, ip=head):
                if s.loc_slots[slot] <= 0:
                    return end.ip
                s.loc_slots[slot] -= 1
                return ip + 1
            self._emit(self._counting_rounds(st, test, head + 1), owner, st.span)
            self._block(st.body, env, owner)
            self._emit(self._loop_back(st, head), owner, st.span)
            end.ip = len(self.code)
            self.slot_scopes[slot] = (top, end.ip)
            return
        cond = self._expr(st.expr, env)
        until = st.kind == "until"

        def test(s, ip=top):
            return end.ip if bool(cond(s)) == until else ip + 1
        self._emit(self._counting_rounds(st, test, top + 1), owner, st.expr.span)
        self._block(st.body, env, owner)
        self._emit(self._loop_back(st, top), owner, st.span)
        end.ip = len(self.code)

    def _s_ForEach(self, st, env, owner):
        coll = self._collection(st.coll, env)
        items_slot = env.new_slot(None)
        idx_slot = env.new_slot(None)
        var_slot = env.new_slot(st.var)
        inner = env.with_local(st.var, var_slot)
        cond = self._expr(st.cond, inner) if st.cond is not None else None
        end = _Label()

        first = len(self.code)

        def init(s, ip=first):
            s.loc_slots[items_slot] = tuple(coll(s))
            s.loc_slots[idx_slot] = 0
            return ip + 1
        self._emit(init, owner, st.span)
        head = len(self.code)

        def step(s, ip=head):
            L = s.loc_slots
            items = L[items_slot]
            while L[idx_slot] < len(items):
                L[var_slot] = items[L[idx_slot]]
                L[idx_slot] += 1
                if cond is None or cond(s):
                    return ip + 1
            return end.ip
        self._emit(self._counting_rounds(st, step, head + 1), owner, st.span)
        self._block(st.body, inner, owner)
        self._emit(lambda s: head, owner, st.span)
        end.ip = len(self.code)
        for sl in (items_slot, idx_slot, var_slot):
            self.slot_scopes[sl] = (first, end.ip)

    def _s_Choose(self, st, env, owner):
        ip = len(self.code)
        end = _Label()
        simultaneous = st.actor is None
        choice = _Choice(None, [], simultaneous, span=st.span, owner=owner)
        self.pauses[ip] = choice
        if simultaneous:
            each_slot = env.new_slot(st.each_var)
            env_opt = env.with_local(st.each_var, each_slot)
            choice.actors_slot = env.new_slot(None)
            choice.pending_slot = env.new_slot(None)
            coll = self._collection(st.each_coll, env)
            choice.actor = coll
            choice.each_slot = each_slot
        else:
            env_opt = env
            choice.actor = self._expr(st.actor, env)
        self._emit(None, owner, st.span)        # placeholder, set below
        next_ip = ip + 1
        if simultaneous:
            self._emit(None, owner, st.span)    # the reveal loop
        bodies = []
        for opt in st.options:
            slots = [env_opt.new_slot(p.name) for p in opt.params]
            inner = env_opt
            for p, sl in zip(opt.params, slots):
                inner = inner.with_local(p.name, sl)
            params = []
            scope = env_opt
            for p, sl in zip(opt.params, slots):
                lo = self._expr(p.low, scope)
                hi = self._expr(p.high, scope) if p.high is not None else None
                params.append((p.name, sl, lo, hi))
                scope = scope.with_local(p.name, sl)
            where = opt.where
            bounds, rest = _split_bounds(where, [p.name for p in opt.params if p.high is not None])
            bound_fns = {}
            for pname, op, bexpr in bounds:
                bound_fns.setdefault(pname, []).append((op, self._expr(bexpr, env_opt)))
            rest_fn = self._expr(rest, inner) if rest is not None else None
            avail = self._expr(opt.available, env_opt) if opt.available is not None else None
            label = _Label()
            cov = len(self.block_names)
            self.block_names.append(("option", opt.name if opt.name != "choose" else owner, opt.span))
            names = {p.name for p in opt.params}
            independent = not any(_mentions(p.low, names) or (p.high is not None and _mentions(p.high, names))
                                  for p in opt.params)
            choice.options.append((opt.name, avail, params, rest_fn, bound_fns, label,
                                   _OptionInfo(opt, independent), cov))
            bodies.append((opt, inner, label))
        for (opt, inner, label), option in zip(bodies, choice.options):
            label.ip = len(self.code)
            self._block(opt.body, inner, owner)
            self._emit(lambda s, end=end: end.ip, owner, opt.span)
            for _, sl, _, _ in option[2]:
                self.slot_scopes[sl] = (label.ip, len(self.code))
        end.ip = len(self.code)
        if simultaneous:
            reveal_ip = next_ip
            loop_back = len(self.code)
            # each option body jumps to `end`; for a simultaneous choice `end` runs the next pending body
            self._emit(lambda s: reveal_ip, owner, st.span)
            after = len(self.code)
            end.ip = loop_back
            game = self

            def pause_simul(s, ip=ip):
                s.loc_slots[choice.actors_slot] = tuple(x for x in choice.actor(s)
                                                        if game.acting_player(s, x) is not None)
                s.loc_slots[choice.pending_slot] = ()
                s.ip = ip
                return -1 if s.loc_slots[choice.actors_slot] else reveal_ip

            def reveal_next(s):
                pending = s.loc_slots[choice.pending_slot]
                if not pending:
                    return after
                (player, move), rest = pending[0], pending[1:]
                s.loc_slots[choice.pending_slot] = rest
                s.loc_slots[choice.each_slot] = player
                return game._bind_move(s, choice, move)
            self.code[ip] = pause_simul
            self.code[reveal_ip] = reveal_next
            choice.after_ip = reveal_ip
            self.slot_scopes[choice.actors_slot] = self.slot_scopes[choice.pending_slot] = (ip, after)
            self.slot_scopes[each_slot] = (reveal_ip, after)
        else:
            def pause(s, ip=ip):
                s.ip = ip
                actor = self.acting_player(s, choice.actor(s))
                if actor is None or not s.alive[actor]:
                    raise RuleError("no actor", "the player who should choose here is nobody, or is out",
                                    choice.span)
                return -1
            self.code[ip] = pause

    # ------------------------------------------------------------ teams
    def players_in(self, x) -> tuple:
        """A player, or every member of a team; nobody is no one."""
        if x is None:
            return ()
        if isinstance(x, Team):
            return self.team_members[x]
        return (x,)

    def owned_by(self, zone, player) -> bool:
        """Whether a zone belongs to this player: their own, or their team's."""
        owner = self.zone_owner[zone]
        if isinstance(owner, Team):
            return player in self.team_members[owner]
        return isinstance(owner, Player) and owner == player

    def acting_player(self, s, x):
        """Who takes a decision for x: x itself, or for a team its first member still in."""
        if isinstance(x, Team):
            return next((p for p in self.team_members[x] if s.alive[p]), None)
        return x

    # ------------------------------------------------------------ choices
    def _bind_move(self, s, choice, move):
        for name, avail, params, rest, bounds, label, opt, cov in choice.options:
            if name == move[0]:
                for (pname, slot, lo, hi), v in zip(params, move[1:]):
                    s.loc_slots[slot] = v
                if s.fired is not None:
                    s.fired[cov] = s.fired.get(cov, 0) + 1
                return label.ip
        raise RuleError("illegal move", f"no option named {move[0]!r}", choice.span)

    def _chooser(self, s, choice, player):
        """In a simultaneous choice, the player or team that `player` decides for."""
        for x in s.loc_slots[choice.actors_slot]:
            if self.acting_player(s, x) == player:
                return x
        return Player(player)

    def _enumerate(self, s, choice) -> list:
        moves = []
        L = s.loc_slots
        for name, avail, params, rest, bounds, label, opt, cov in choice.options:
            if avail is not None and not avail(s):
                continue
            if not params:
                if rest is None or rest(s):
                    moves.append((name,))
            elif opt.independent:
                doms = [self._domain(s, p, bounds) for p in params]
                if len(params) == 1:
                    s0 = params[0][1]
                    for v in doms[0]:
                        L[s0] = v
                        if rest is None or rest(s):
                            moves.append((name, v))
                elif len(params) == 2:
                    s0, s1 = params[0][1], params[1][1]
                    d1 = doms[1]
                    for v0 in doms[0]:
                        L[s0] = v0
                        if rest is None:
                            moves.extend([(name, v0, v1) for v1 in d1])
                            continue
                        for v1 in d1:
                            L[s1] = v1
                            if rest(s):
                                moves.append((name, v0, v1))
                else:
                    for combo in itertools.product(*doms):
                        for (_, slot, _, _), v in zip(params, combo):
                            L[slot] = v
                        if rest is None or rest(s):
                            moves.append((name, *combo))
            else:
                self._product(s, L, params, 0, bounds, rest, [name], moves)
        return moves

    def _domain(self, s, param, bounds):
        pname, slot, lo, hi = param
        if hi is None:
            coll = lo(s)
            return list(s.zones[coll] if isinstance(coll, ZoneId) else coll)
        a, b = lo(s), hi(s)
        for op, f in bounds.get(pname, ()):
            v = f(s)
            if op == ">=":
                a = max(a, v)
            elif op == ">":
                a = max(a, v + 1)
            elif op == "<=":
                b = min(b, v)
            elif op == "<":
                b = min(b, v - 1)
            else:
                a, b = max(a, v), min(b, v)
        return range(a, b + 1)

    def _product(self, s, L, params, k, bounds, rest, prefix, out):
        if k == len(params):
            if rest is None or rest(s):
                out.append(tuple(prefix))
            return
        slot = params[k][1]
        for v in self._domain(s, params[k], bounds):
            L[slot] = v
            prefix.append(v)
            self._product(s, L, params, k + 1, bounds, rest, prefix, out)
            prefix.pop()

    # ------------------------------------------------------------ the state machine
    def new_initial_state(self, log: bool = False, coverage: bool = False) -> State:
        """The state after setup: the first decision or chance outcome of the game."""
        s = self.blank_state()
        if log:
            s.log = []
        if coverage:
            s.fired = {}
        self._run(s, 0)
        return s

    def blank_state(self) -> State:
        """Components in their starting zones, variables at their initial values, before setup."""
        s = State(self, self.n)
        s.zones = [[] for _ in self.zone_names]
        for p in self.pieces:
            s.zones[self.initial_zone[p]].append(p)
        s.loc = list(self.initial_zone)
        s.face = list(self.initial_face)
        s.revealed = [False] * len(self.pieces)
        s.vars = [None] * len(self.var_slots)
        s.pvars = [[None] * self.n for _ in self.pvar_slots]
        s.alive = [True] * self.n
        s.loc_slots = [None] * max(self.n_slots, 1)
        s.latches = [False] * sum(self.n if t[2] is not None else 1 for t in self.triggers)
        s.ip = 0
        self._init_vars(s)
        return s

    def _init_vars(self, s):
        cs = s
        for name, i in self.var_slots.items():
            s.vars[i] = self._expr(self.var_decls[name].initial, _Env(self, {}))(cs)
        for name, i in self.pvar_slots.items():
            f = self._expr(self.var_decls[name].initial, _Env(self, {}))
            s.pvars[i] = [f(cs) for _ in range(len(self.teams) if self.var_decls[name].per == "team" else self.n)]

    def _run(self, s, ip):
        code = self.code
        try:
            while ip >= 0 and s.outcome is None and s.dead_end is None:
                ip = code[ip](s)
        except RuleError as err:
            self._fail(s, err.kind, err.message, err.span, getattr(err, "ip", ip))
        except (TypeError, KeyError, IndexError, ValueError, ZeroDivisionError, AttributeError) as err:
            self._fail(s, "evaluation failed", f"{type(err).__name__}: {err}", None, ip)
        except RecursionError:
            self._fail(s, "evaluation failed", "the rules recurse without end", None, ip)
        if s.outcome is None and s.dead_end is None and s.moves > self.max_moves:
            self._fail(s, "step limit", f"the game took more than {self.max_moves} decisions", None)

    def _fail(self, s, kind, message, span, at=None):
        ip = at if at is not None and 0 <= at < len(self.code) else (s.ip if 0 <= s.ip < len(self.code) else 0)
        owner = self.owner[ip] if self.owner else "play"
        span = span or (self.spans[ip] if self.spans else S.NOWHERE)
        s.dead_end = DeadEnd(kind, owner, self.rules.path_of(span), span.line, span.column, message)
        if s.log is not None:
            s.log.append({"event": "dead_end", **s.dead_end.to_json()})

    def fire_triggers(self, s):
        if s.outcome is not None or s.dead_end is not None or not self.has_triggers:
            return
        for _ in range(_TRIGGER_ROUNDS):
            fired = False
            latch = 0
            for t, slot, coll, cond, start in self.triggers:
                targets = coll(s) if coll is not None else (None,)
                if coll is not None:
                    items = list(targets)
                    for p in self._players:
                        on = False
                        if p in items:
                            s.loc_slots[slot] = p
                            on = bool(cond(s))
                        li = latch + int(p)
                        if on and not s.latches[li]:
                            s.latches[li] = True
                            self._run_trigger(s, t, start)
                            fired = True
                        elif not on:
                            s.latches[li] = False
                        if s.outcome is not None or s.dead_end is not None:
                            return
                    latch += self.n
                else:
                    on = bool(cond(s))
                    if on and not s.latches[latch]:
                        s.latches[latch] = True
                        self._run_trigger(s, t, start)
                        fired = True
                    elif not on:
                        s.latches[latch] = False
                    latch += 1
                    if s.outcome is not None or s.dead_end is not None:
                        return
            if not fired:
                return
        raise RuleError("trigger loop", "triggers keep firing each other without end")

    def _run_trigger(self, s, t, start):
        if s.log is not None:
            s.log.append({"event": "trigger", "name": t.name})
        if s.fired is not None:
            key = ("trigger", t.name)
            s.fired[key] = s.fired.get(key, 0) + 1
        saved = self.has_triggers
        self.has_triggers = False      # a trigger's own effects are settled by the outer loop
        ip = start
        try:
            code = self.code
            while ip >= 0:
                ip = code[ip](s)
        except RuleError as err:
            if not hasattr(err, "ip"):
                err.ip = ip
            raise
        finally:
            self.has_triggers = saved

    def current_actors(self, s) -> list:
        if s.is_terminal():
            return []
        pause = self.pauses.get(s.ip)
        if isinstance(pause, _Chance):
            return [CHANCE]
        if isinstance(pause, _Choice):
            if pause.simultaneous:
                done = {x for x, _ in s.loc_slots[pause.pending_slot]}
                return [self.acting_player(s, x) for x in s.loc_slots[pause.actors_slot] if x not in done]
            return [self.acting_player(s, pause.actor(s))]
        return []

    def is_chance(self, s) -> bool:
        return not s.is_terminal() and isinstance(self.pauses.get(s.ip), _Chance)

    def chance_outcomes(self, s) -> int:
        pause = self.pauses[s.ip]
        items = self._chance_items(s, pause)
        if pause.kind == "roll":
            total = 1
            for p in items:
                total *= len(self.faces.get(self.kind_of[p], (None,)))
            return total
        return math.factorial(len(items))

    def _chance_items(self, s, pause):
        z = pause.zone(s)
        if isinstance(z, ZoneId):
            return s.zones[z]
        if isinstance(z, tuple) and z and isinstance(z[0], ZoneId):
            out = []
            for zz in z:
                out.extend(s.zones[zz])
            return out
        if isinstance(z, Piece):
            return [z]
        return list(z)

    def legal_moves(self, s, player=None) -> list:
        if s.is_terminal():
            return []
        pause = self.pauses.get(s.ip)
        if isinstance(pause, _Chance):
            return list(range(self.chance_outcomes(s)))
        if not isinstance(pause, _Choice):
            return []
        saved = list(s.loc_slots)     # enumeration uses the slots as scratch; asking must not change the state
        try:
            if pause.simultaneous:
                actors = self.current_actors(s)
                if player is None:
                    player = actors[0] if actors else None
                if player not in actors:
                    return []
                s.loc_slots[pause.each_slot] = self._chooser(s, pause, player)
            return self._enumerate(s, pause)
        except RuleError as err:
            s.loc_slots[:] = saved
            self._fail(s, err.kind, err.message, err.span or pause.span, s.ip)
            return []
        except (TypeError, KeyError, IndexError, ValueError, ZeroDivisionError, AttributeError) as err:
            s.loc_slots[:] = saved
            self._fail(s, "evaluation failed", f"{type(err).__name__}: {err}", pause.span, s.ip)
            return []
        finally:
            if s.dead_end is None:
                s.loc_slots[:] = saved

    def apply(self, s, move, player=None, validate: bool = True) -> None:
        """Take one action: a chance outcome (an int; `player` None or CHANCE) or a player's
        move (a tuple as listed by legal_moves). An action the rules do not allow here raises
        IllegalMove and leaves the state unchanged. `validate=False` skips that check for
        callers that pass a move straight from legal_moves (random play)."""
        if s.is_terminal():
            raise IllegalMove("the game has already ended")
        pause = self.pauses.get(s.ip)
        if isinstance(pause, _Chance):
            if validate:
                if player is not None and player != CHANCE:
                    raise IllegalMove(f"the game waits for a chance outcome, not for P{int(player) + 1}")
                if isinstance(move, bool) or not isinstance(move, int):
                    raise IllegalMove(f"a chance outcome is a whole number, not {move!r}")
                n = self.chance_outcomes(s)
                if not 0 <= move < n:
                    raise IllegalMove(f"chance outcome {move} is out of range (0 to {n - 1})")
            self._apply_chance(s, pause, int(move))
            self._run(s, s.ip + 1)
            return
        if not isinstance(pause, _Choice):
            raise IllegalMove("the game is not waiting for a decision")
        if validate and player == CHANCE:
            raise IllegalMove("the game waits for a player's decision, not a chance outcome")
        if pause.simultaneous:
            actors = self.current_actors(s)
            if player is None:
                player = actors[0]
            if player not in actors:
                raise IllegalMove(f"it is not P{int(player) + 1}'s decision" if isinstance(player, int)
                                  else f"{player!r} is not a player")
            if validate:
                move = self._checked_move(s, pause, move, player)
            move = tuple(move)
            s.moves += 1
            s.ticks = 0
            chooser = self._chooser(s, pause, player)
            if s.log is not None:
                s.log.append({"event": "choose", "player": int(player), "move": _plain_move(move),
                              "params": _param_names(pause, move[0]), "hidden": True,
                              **({"team": int(chooser)} if isinstance(chooser, Team) else {})})
            pending = tuple(sorted(s.loc_slots[pause.pending_slot] + ((chooser, move),),
                                   key=lambda pm: int(pm[0])))
            s.loc_slots[pause.pending_slot] = pending
            if len(pending) == len(s.loc_slots[pause.actors_slot]):
                self._run(s, pause.after_ip)
            return
        chooser = pause.actor(s)
        actor = self.acting_player(s, chooser)
        if validate:
            if player is not None and player != actor:
                raise IllegalMove(f"it is not P{int(player) + 1}'s decision" if isinstance(player, int)
                                  else f"{player!r} is not a player")
            move = self._checked_move(s, pause, move, actor)
        move = tuple(move)
        s.moves += 1
        s.ticks = 0
        if s.log is not None:
            s.log.append({"event": "choose", "player": int(actor), "move": _plain_move(move),
                          "params": _param_names(pause, move[0]),
                          **({"team": int(chooser)} if isinstance(chooser, Team) else {})})
        try:
            ip = self._bind_move(s, pause, move)
        except RuleError as err:
            raise IllegalMove(err.message)
        self._run(s, ip)

    def _checked_move(self, s, choice, move, player) -> tuple:
        """The move as legal_moves would list it, or IllegalMove. Checks one move without
        enumerating the others: the option is offered, every value is in its range or
        collection (ranges may depend on earlier values), and `where` holds."""
        try:
            move = tuple(move)
        except TypeError:
            raise IllegalMove(f"{move!r} is not a move (a move is a list: option name, then values)")
        bad = IllegalMove(f"{_plain_move(move)} is not a legal move for P{int(player) + 1}")
        if not move or not isinstance(move[0], str):
            raise bad
        L = s.loc_slots
        saved = list(L)
        try:
            if choice.simultaneous:
                L[choice.each_slot] = self._chooser(s, choice, player)
            for name, avail, params, rest, bounds, label, opt, cov in choice.options:
                if name != move[0]:
                    continue
                if len(move) != 1 + len(params) or (avail is not None and not avail(s)):
                    raise bad
                out = [name]
                for param, v in zip(params, move[1:]):
                    dom = self._domain(s, param, bounds)
                    if param[3] is not None:
                        if isinstance(v, bool) or not isinstance(v, int) or v not in dom:
                            raise bad
                    else:
                        try:
                            v = dom[dom.index(v)]       # the item itself (a piece, a player), not its number
                        except ValueError:
                            raise bad
                    L[param[1]] = v
                    out.append(v)
                if rest is not None and not rest(s):
                    raise bad
                return tuple(out)
            raise bad
        except IllegalMove:
            raise
        except (RuleError, TypeError, KeyError, IndexError, ValueError, ZeroDivisionError, AttributeError):
            raise bad
        finally:
            L[:] = saved

    def decision(self, s):
        """Who decides now and their legal moves, as (player, moves); None when nobody can,
        after ending the game in a dead end (`no actor` or `no legal move`). The one place
        drivers (simulate, fuzz, explore, replay) learn whether the game can go on."""
        actors = self.current_actors(s)
        if not actors:
            self._fail(s, "no actor", "the game waits for nobody", self._pause_span(s))
            return None
        p = actors[0]
        moves = self.legal_moves(s, p)
        if not moves:
            if s.dead_end is None:      # working the moves out may have failed: that dead end stands
                self._fail(s, "no legal move", f"P{int(p) + 1} has no legal move", self._pause_span(s))
            return None
        return p, moves

    def _pause_span(self, s):
        return getattr(self.pauses.get(s.ip), "span", None)

    def stuck(self, s) -> bool:
        """True when the game has ended, or waits for a decision nobody can take (then it ends
        in a dead end here)."""
        if s.is_terminal() or self.is_chance(s):
            return s.is_terminal()
        return self.decision(s) is None

    def _apply_chance(self, s, pause, outcome):
        items = list(self._chance_items(s, pause))
        s.memo.clear()
        if pause.kind == "roll":
            faces_log = []
            for p in items:
                faces = self.faces.get(self.kind_of[p])
                if faces is None:       # only dice roll; other pieces in the zone stay as they are
                    continue
                outcome, k = divmod(outcome, len(faces))
                s.face[p] = faces[k]
                s.revealed[p] = False       # a die rolled again is hidden again
                faces_log.append(faces[k])
            if s.log is not None:
                s.log.append({"event": "roll", "pieces": [int(p) for p in items], "faces": faces_log})
        else:
            zid = pause.zone(s)
            pool = list(items)
            order = []
            for i in range(len(pool), 0, -1):
                outcome, k = divmod(outcome, i)
                order.append(pool.pop(k))
            if isinstance(zid, ZoneId):
                s.zones[zid][:] = order
            if s.log is not None:
                s.log.append({"event": "shuffle", "zone": self.zone_names[zid] if isinstance(zid, ZoneId) else None})
        if self.has_triggers and s.playing and self.triggers_read_faces:
            try:
                self.fire_triggers(s)
            except RuleError as err:
                self._fail(s, err.kind, err.message, err.span)

    def returns(self, s) -> list[float]:
        if s.outcome is None:
            return [0.0] * self.n
        w = set(int(p) for p in s.outcome)
        return [1.0 / len(w) if i in w else 0.0 for i in range(self.n)]

    def observation(self, s, player) -> dict:
        zones = {}
        for i, name in enumerate(self.zone_names):
            seen = self.zone_seen[i]
            visible = seen == "everyone" or (seen == "owner" and self.owned_by(i, player))
            content = []
            for p in s.zones[i]:
                if visible or s.revealed[p]:
                    content.append({"piece": int(p), "label": self.piece_label[p],
                                    **({"face": s.face[p]} if s.face[p] is not None else {})})
                else:
                    content.append(None)
            zones[name] = content
        return {"player": int(player), "zones": zones,
                "variables": {n: plain(s.vars[i]) for n, i in self.var_slots.items()},
                "alive": list(s.alive)}


def _outermost_loops(stmts):
    """The loops of a flow not inside another loop, looking into steps, phases and assumptions."""
    for st in stmts:
        if isinstance(st, (S.Repeat, S.ForEach)):
            yield st
        elif isinstance(st, S.Block):
            yield from _outermost_loops(st.body)


def _param_names(choice, option):
    for o in choice.options:
        if o[0] == option:
            return [p[0] for p in o[2]]
    return []


def _plain_move(move):
    return [plain(x) for x in move]


def _combine(op, old, v):
    if op == "set":
        return v
    if op == "add":
        return old + v
    return old - v


def _describe(e) -> str:
    if isinstance(e, S.Name):
        return e.id
    if isinstance(e, S.Call):
        return f"{e.fn}(...)"
    if isinstance(e, S.Attr):
        return f"{_describe(e.obj)}.{e.name}"
    return type(e).__name__.lower()


def _first_line(text: str, span: S.Span) -> str:
    lines = text.splitlines()
    if 0 < span.line <= len(lines):
        return lines[span.line - 1][max(span.column - 1, 0):].strip()
    return ""


def _source(text: str, span: S.Span) -> str:
    lines = text.splitlines()
    if span.line == span.end_line and 0 < span.line <= len(lines):
        return lines[span.line - 1][span.column - 1:span.end_column - 1]
    return "..."


def _split_bounds(where, range_params):
    """Split `where` into simple bounds on range parameters (used to narrow the ranges)
    and the rest, which is tested for every combination."""
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
    params = set(range_params)
    for c in conj:
        if isinstance(c, S.Binary) and c.op in flip:
            if isinstance(c.left, S.Name) and c.left.id in params and not _mentions(c.right, params):
                bounds.append((c.left.id, c.op, c.right))
                continue
            if isinstance(c.right, S.Name) and c.right.id in params and not _mentions(c.left, params):
                bounds.append((c.right.id, flip[c.op], c.left))
                continue
        rest.append(c)
    rest_expr = None
    for c in rest:
        rest_expr = c if rest_expr is None else S.Binary(c.span, "and", rest_expr, c)
    return bounds, rest_expr


def _mentions(e, names) -> bool:
    if isinstance(e, S.Name):
        return e.id in names
    for v in vars(e).values():
        if isinstance(v, S.Expr) and _mentions(v, names):
            return True
        if isinstance(v, tuple):
            for x in v:
                if isinstance(x, S.Expr) and _mentions(x, names):
                    return True
    return False


@dataclass(frozen=True)
class _OptionInfo:
    syntax: S.Option
    independent: bool           # no parameter's range depends on another's value


class _Env:
    """Compile-time scope: names of local slots, and names bound to argument closures."""

    def __init__(self, game, locals_, bound=None):
        self.game = game
        self.locals = locals_
        self.bound = bound or {}

    def new_slot(self, name) -> int:
        i = self.game.n_slots
        self.game.n_slots += 1
        return i

    def with_local(self, name, slot) -> "_Env":
        loc = dict(self.locals)
        loc[name] = slot
        return _Env(self.game, loc, self.bound)
