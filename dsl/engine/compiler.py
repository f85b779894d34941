"""The compiler: the checked rule tree to a flat list of instructions with jumps, each a small
closure; local slots and their live ranges; the values of expressions.

May import: the language, the constructs' registry, engine values, errors and program parts.
"""
from __future__ import annotations

import operator
from typing import Callable

from ..language import syntax as S
from .builtins import BUILTINS
from .errors import RuleError
from .program import (Chance, Choice, Env, Label, OptionInfo, combine, first_line, mentions, source,
                      split_bounds)
from .tables import LOOP_PASSES_PER_STEP
from .values import Piece, Team, ZoneId, plain
from .state import DeadEnd

_CMP = {"=": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
        ">": operator.gt, ">=": operator.ge}


class Compiler:
    """The part of a Game that compiles the rule tree into `code`."""

    def expr(self, e: S.Expr, env: "Env") -> Callable:
        m = getattr(self, "_x_" + type(e).__name__)
        return m(e, env)

    def _x_Num(self, e, env):
        v = e.value
        return lambda s: v

    def _x_Str(self, e, env):
        v = e.value
        return lambda s: v

    def _x_ListLit(self, e, env):
        fs = [self.expr(i, env) for i in e.items]
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
            return self.memo_value(n, d)
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
        obj = self.expr(e.obj, env)
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
        f = self.expr(e.operand, env)
        if e.op == "not":
            return lambda s: not f(s)
        return lambda s: -f(s)

    def _x_IfExpr(self, e, env):
        c, a, b = self.expr(e.cond, env), self.expr(e.then, env), self.expr(e.other, env)
        return lambda s: a(s) if c(s) else b(s)

    def _x_Binary(self, e, env):
        a, b = self.expr(e.left, env), self.expr(e.right, env)
        op = e.op
        fast = self.fast_compare(e, env, op)
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

    def memo_value(self, name, d):
        """A value without arguments is computed once until the state next changes."""
        if name in self.value_fns:
            return self.value_fns[name]
        f = self.expr(d.expr, Env(self, {}))

        def value(s):
            memo = s.memo
            if name in memo:
                return memo[name]
            v = memo[name] = f(s)
            return v
        self.value_fns[name] = value
        return value

    def fast_count(self, arg, env):
        """count() of a zone, of every zone of a family, or of the players still in."""
        if isinstance(arg, S.Call) and arg.fn == "alive_players" and not arg.args:
            return lambda s: sum(s.alive)
        if isinstance(arg, S.Call) and arg.fn == "all" and len(arg.args) == 1 \
                and isinstance(arg.args[0], S.Name) and isinstance(self.zones.get(arg.args[0].id), tuple):
            fam = self.zones[arg.args[0].id]
            return lambda s: sum([len(s.zones[z]) for z in fam])
        if isinstance(arg, S.Call) and isinstance(self.zones.get(arg.fn), tuple) and len(arg.args) == 1 \
                and arg.fn not in self.board_names():
            zone = self.family_member(arg, env)
            return lambda s: len(s.zones[zone(s)])
        if isinstance(arg, S.Comprehension) and arg.item is None:
            comp = self._x_Comprehension(arg, env)
            return lambda s: len(comp(s))
        return None

    def fast_compare(self, e, env, op):
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

    def collection(self, e, env):
        """A comprehension's source as a function giving a sequence of items."""
        f = self.expr(e, env)

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
        coll = self.collection(e.coll, env)
        cond = self.expr(e.cond, inner) if e.cond is not None else None
        item = self.expr(e.item, inner) if e.item is not None else None

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

    def board_names(self) -> set:
        return {b.name for b in self.rules.of(S.Board)}

    def family_member(self, e, env):
        """`NAME(key)` of a zone kept per player, per team or per piece: one zone."""
        fam, fn = self.zones[e.fn], e.fn
        a = self.expr(e.args[0], env)
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
            return self.family_member(e, env)
        if fn in self.zones and isinstance(self.zones[fn], tuple) and len(e.args) == 2:
            board = next(b for b in self.rules.of(S.Board) if b.name == fn)
            cells, w, h = self.zones[fn], board.width, board.height
            ax, ay = self.expr(e.args[0], env), self.expr(e.args[1], env)
            span = e.span

            def space(s):
                x, y = ax(s), ay(s)
                if not (1 <= x <= w and 1 <= y <= h):
                    raise RuleError("off the board", f"there is no space {fn}({x}, {y}) on a {w} by {h} board", span)
                return cells[(y - 1) * w + x - 1]
            return space
        if fn in self.pvar_slots:
            i = self.pvar_slots[fn]
            a = self.expr(e.args[0], env)
            return lambda s: s.pvars[i][a(s)]
        if fn in self.orders:
            attr, strength = self.orders[fn]
            a = self.expr(e.args[0], env)
            attrs = self.piece_attrs
            return lambda s: strength.get(attrs[a(s)].get(attr), 0)
        if fn in self.defines:
            d = self.defines[fn]
            args = [self.expr(x, env) for x in e.args]
            return self.expr(d.expr, Env(self, {}, bound=dict(zip(d.params, args))))
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
            fast = self.fast_count(e.args[0], env)
            if fast is not None:
                return fast
        impl = b.impl
        args = []
        for k, x in enumerate(e.args):
            last = k == len(e.args) - 1
            if isinstance(x, S.Comprehension):
                args.append(self._x_Comprehension(x, env, pairs=b.pairs and last))
            elif b.pairs and last:
                coll = self.collection(x, env)
                args.append(lambda s, coll=coll: tuple((i, i) for i in coll(s)))
            else:
                args.append(self.expr(x, env))
        if len(args) == 0:
            return lambda s: impl(s)
        if len(args) == 1:
            a0 = args[0]
            return lambda s: impl(s, a0(s))
        if len(args) == 2:
            a0, a1 = args
            return lambda s: impl(s, a0(s), a1(s))
        return lambda s: impl(s, *[a(s) for a in args])

    def emit(self, fn, owner, span) -> int:
        self.code.append(fn)
        self.owner.append(owner)
        self.spans.append(span)
        return len(self.code) - 1

    def compile_all(self):
        self.trigger_reads = set()
        for t in self.rules.of(S.Trigger):
            self.trigger_reads |= self.names_read(t.cond)
            if t.coll is not None:
                self.trigger_reads |= self.names_read(t.coll)
        env = Env(self, {})
        setup = [f for f in self.rules.of(S.Flow) if f.name == "setup"]
        play = [f for f in self.rules.of(S.Flow) if f.name == "play"]
        for flow in setup:
            self.block(flow.body, env, flow.name)

        def start_play(s, ip=len(self.code)):
            s.playing = True
            self.fire_triggers(s)
            return ip + 1
        self.emit(start_play, "play", play[0].span if play else S.NOWHERE)
        for flow in play:
            self.block(flow.body, env, flow.name)
        end_span = play[-1].span if play else S.NOWHERE
        self.emit(self.dead("play ran out", "the turn structure ended without ending the game", end_span, "play"),
                   "play", end_span)
        self.triggers = []
        for t in self.rules.of(S.Trigger):
            tenv = Env(self, {})
            start = len(self.code)
            slot = tenv.new_slot(t.var) if t.var else -1
            inner = tenv.with_local(t.var, slot) if t.var else tenv
            coll = self.collection(t.coll, tenv) if t.coll is not None else None
            cond = self.expr(t.cond, inner)
            self.block(t.body, inner, t.name)
            self.emit(lambda s: -1, t.name, t.span)
            self.triggers.append((t, slot, coll, cond, start))
        self.has_triggers = bool(self.triggers)
        self.trigger_reads = set()
        for t, *_ in self.triggers:
            self.trigger_reads |= self.names_read(t.cond)
            if t.coll is not None:
                self.trigger_reads |= self.names_read(t.coll)
        self.triggers_read_faces = bool(self.trigger_reads & {"face", "wild", "top", "first"})

    def names_read(self, e, seen=None) -> set:
        """Every variable, zone and function a trigger's condition can read (through values too)."""
        seen = set() if seen is None else seen
        out = set()
        if isinstance(e, S.Name):
            out.add(e.id)
            d = self.defines.get(e.id)
            if d is not None and e.id not in seen:
                seen.add(e.id)
                out |= self.names_read(d.expr, seen)
        elif isinstance(e, S.Attr):
            out.add(e.name)
        elif isinstance(e, S.Call):
            out.add(e.fn)
            d = self.defines.get(e.fn)
            if d is not None and e.fn not in seen:
                seen.add(e.fn)
                out |= self.names_read(d.expr, seen)
        if isinstance(e, S.Expr):
            for v in vars(e).values():
                if isinstance(v, S.Expr):
                    out |= self.names_read(v, seen)
                elif isinstance(v, tuple):
                    for x in v:
                        if isinstance(x, S.Expr):
                            out |= self.names_read(x, seen)
        return out

    def block(self, stmts, env, owner):
        for st in stmts:
            self.stmt(st, env, owner)

    def stmt(self, st, env, owner):
        getattr(self, "_s_" + type(st).__name__)(st, env, owner)

    def dead(self, kind, message, span, owner):
        path = self.rules.path_of(span)

        def dead(s):
            s.dead_end = DeadEnd(kind, owner, path, span.line, span.column, message)
            if s.log is not None:
                s.log.append({"event": "dead_end", **s.dead_end.to_json()})
            return -1
        return dead

    def _s_Pass(self, st, env, owner):
        pass

    def _s_Unhandled(self, st, env, owner):
        self.emit(self.dead("unhandled", "the rules stop here on purpose", st.span, owner), owner, st.span)

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
        self.emit(enter, name, st.span)
        self.block(st.body, env, name)

    def _s_Move(self, st, env, owner):
        dest = self.expr(st.dest, env)
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
            item = self.expr(st.count, env)

            def move_item(s, ip=len(self.code)):
                p = item(s)
                if p is None:
                    raise RuleError("empty zone", "there is nothing to move", span)
                d = dest(s)
                s.memo.clear()
                put(s, p, d)
                if s.log is not None:
                    s.log.append({"event": "move", "pieces": [int(p)], "to": game.zone_names[d]})
                game.after_effect(s)
                return ip + 1
            self.emit(move_item, owner, span)
            return
        source = self.expr(st.source, env)
        count = self.expr(st.count, env) if st.count is not None else None
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
            game.after_effect(s)
            return ip + 1
        self.emit(move, owner, span)

    def chance_stmt(self, st, env, owner, kind):
        zone = self.expr(st.zone, env)
        ip = len(self.code)
        self.pauses[ip] = Chance(kind, zone, st.span, owner)

        def pause(s, ip=ip):
            s.ip = ip
            return -1
        self.emit(pause, owner, st.span)

    def _s_Roll(self, st, env, owner):
        self.chance_stmt(st, env, owner, "roll")

    def _s_Shuffle(self, st, env, owner):
        self.chance_stmt(st, env, owner, "shuffle")

    def _s_Assign(self, st, env, owner):
        t = st.target
        value = self.expr(st.value, env)
        op = st.op
        decl = self.var_decls.get(t.name)
        lo = self.const(decl.minimum, f"the minimum of '{t.name}'") \
            if decl is not None and decl.minimum is not None else None
        hi = self.const(decl.maximum, f"the maximum of '{t.name}'") \
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
                    s.loc_slots[i] = combine(op, s.loc_slots[i], value(s))
                    return ip + 1
                self.emit(assign, owner, span)
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
                self.emit(plain_set, owner, span)
                return

            def assign(s, ip=len(self.code)):
                v = combine(op, s.vars[i], value(s))
                check(v)
                s.vars[i] = v
                s.memo.clear()
                if s.log is not None:
                    s.log.append({"event": "set", "name": name, "value": v})
                if name in game.trigger_reads:
                    game.after_effect(s)
                return ip + 1
            self.emit(assign, owner, span)
            return
        i = self.pvar_slots[t.name]
        who = self.expr(t.player, env)

        def assign_p(s, ip=len(self.code)):
            p = who(s)
            v = combine(op, s.pvars[i][p], value(s))
            check(v)
            s.pvars[i][p] = v
            s.memo.clear()
            if s.log is not None:
                s.log.append({"event": "set", "name": name, ("team" if isinstance(p, Team) else "player"): int(p),
                              "value": v})
            if name in game.trigger_reads:
                game.after_effect(s)
            return ip + 1
        self.emit(assign_p, owner, span)

    def _s_Eliminate(self, st, env, owner):
        who = self.expr(st.player, env)
        game = self

        def eliminate(s, ip=len(self.code)):
            for p in game.players_in(who(s)):
                if s.alive[p]:
                    s.alive[p] = False
                    s.memo.clear()
                    if s.log is not None:
                        s.log.append({"event": "eliminate", "player": int(p)})
                    game.after_effect(s)
            return ip + 1
        self.emit(eliminate, owner, st.span)

    def _s_Reveal(self, st, env, owner):
        zone = self.collection(st.zone, env)
        game = self
        zexpr = self.expr(st.zone, env)

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
        self.emit(reveal, owner, st.span)

    def _s_Do(self, st, env, owner):
        rule = self.rule_decls.get(st.rule)
        if rule is None:
            raise RuleError("name", f"unknown rule '{st.rule}'", st.span)
        if rule.name in self.inlining:
            raise RuleError("recursion", f"rule '{rule.name}' runs itself through 'do'", st.span)
        first = len(self.code)
        slots = []
        inner = env
        for pname, arg in zip(rule.params, st.args):
            slot = env.new_slot(pname)
            value = self.expr(arg, env)

            def bind(s, ip=len(self.code), slot=slot, value=value):
                s.loc_slots[slot] = value(s)
                return ip + 1
            self.emit(bind, owner, st.span)
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
        self.emit(enter, rule.name, rule.span)
        self.inlining.append(rule.name)
        self.block(rule.body, inner, rule.name)
        self.inlining.pop()
        for sl in slots:
            self.slot_scopes[sl] = (first, len(self.code))

    def _s_EndGame(self, st, env, owner):
        game = self
        span = st.span
        if st.winners is not None:
            winners = self.collection(st.winners, env)

            def end(s):
                w = tuple(sorted({p for x in winners(s) for p in game.players_in(x)}))
                s.outcome = w
                if s.log is not None:
                    s.log.append({"event": "end", "winners": [int(p) for p in w]})
                return -1
            self.emit(end, owner, span)
            return
        if st.keys:
            slot = env.new_slot(st.var)
            inner = env.with_local(st.var, slot)
            coll = self.collection(st.coll, env)
            keys = [(k.direction, self.expr(k.expr, inner)) for k in st.keys]
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
            self.emit(end_ranked, owner, span)
            return
        self.emit(lambda s: (setattr(s, "outcome", ()) or -1), owner, span)

    def _s_If(self, st, env, owner):
        end = Label()
        src = self.rules.source_of(st.span)
        first = source(src, st.branches[0][0].span)
        base = len(self.block_names)        # coverage ids: one per branch, then the else side
        for k, (cond_e, body) in enumerate(st.branches):
            self.block_names.append(("branch", f"{owner}: {'else if' if k else 'if'} {source(src, cond_e.span)}",
                                     cond_e.span))
        self.block_names.append(("else", f"{owner}: else of if {first}" if st.otherwise else
                                 f"{owner}: if {first} is false", st.span))
        else_cov = base + len(st.branches)
        for k, (cond_e, body) in enumerate(st.branches):
            cond = self.expr(cond_e, env)
            nxt = Label()
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
            self.emit(test, owner, cond_e.span)
            self.block(body, env, owner)
            self.emit(lambda s, end=end: end.ip, owner, st.span)
            nxt.ip = len(self.code)
        if st.otherwise:
            self.block(st.otherwise, env, owner)
        end.ip = len(self.code)

    def _s_Cases(self, st, env, owner):
        end = Label()
        name = st.name or owner
        for case in st.cases:
            cond = self.expr(case.cond, env)
            nxt = Label()
            cov = len(self.block_names)
            self.block_names.append(("case", f"{name}: when {source(self.rules.source_of(case.cond.span), case.cond.span)}", case.span))

            def test(s, cond=cond, nxt=nxt, ip=len(self.code), cov=cov):
                if cond(s):
                    if s.fired is not None:
                        s.fired[cov] = s.fired.get(cov, 0) + 1
                    return ip + 1
                return nxt.ip
            self.emit(test, name, case.span)
            self.block(case.body, env, name)
            self.emit(lambda s, end=end: end.ip, name, case.span)
            nxt.ip = len(self.code)
        self.emit(self.dead("no case applies", "none of the cases applies to this situation", st.span, name),
                   name, st.span)
        end.ip = len(self.code)

    def loop_back(self, st, head):
        """The jump back to the top of a `repeat`. It counts the passes made since the last
        decision: past the bound, the game ends in a `step limit` dead end naming this loop."""
        limit = self.max_passes
        what = first_line(self.rules.source_of(st.span), st.span) or "repeat"
        span = st.span

        def back(s):
            t = s.ticks = s.ticks + 1
            if t >= limit:
                raise RuleError("step limit", f"the loop '{what}' ran {limit} times without a decision "
                                              f"(bound: {LOOP_PASSES_PER_STEP} x max steps)", span)
            return head
        return back

    def _s_Repeat(self, st, env, owner):
        top = len(self.code)
        end = Label()
        if st.kind == "times":
            slot = env.new_slot(None)
            times = self.expr(st.expr, env)

            def init(s, ip=top):
                s.loc_slots[slot] = times(s)
                return ip + 1
            self.emit(init, owner, st.span)
            head = len(self.code)

            def test(s, ip=head):
                if s.loc_slots[slot] <= 0:
                    return end.ip
                s.loc_slots[slot] -= 1
                return ip + 1
            self.emit(test, owner, st.span)
            self.block(st.body, env, owner)
            self.emit(self.loop_back(st, head), owner, st.span)
            end.ip = len(self.code)
            self.slot_scopes[slot] = (top, end.ip)
            return
        cond = self.expr(st.expr, env)
        until = st.kind == "until"

        def test(s, ip=top):
            return end.ip if bool(cond(s)) == until else ip + 1
        self.emit(test, owner, st.expr.span)
        self.block(st.body, env, owner)
        self.emit(self.loop_back(st, top), owner, st.span)
        end.ip = len(self.code)

    def _s_ForEach(self, st, env, owner):
        coll = self.collection(st.coll, env)
        items_slot = env.new_slot(None)
        idx_slot = env.new_slot(None)
        var_slot = env.new_slot(st.var)
        inner = env.with_local(st.var, var_slot)
        cond = self.expr(st.cond, inner) if st.cond is not None else None
        end = Label()

        first = len(self.code)

        def init(s, ip=first):
            s.loc_slots[items_slot] = tuple(coll(s))
            s.loc_slots[idx_slot] = 0
            return ip + 1
        self.emit(init, owner, st.span)
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
        self.emit(step, owner, st.span)
        self.block(st.body, inner, owner)
        self.emit(lambda s: head, owner, st.span)
        end.ip = len(self.code)
        for sl in (items_slot, idx_slot, var_slot):
            self.slot_scopes[sl] = (first, end.ip)

    def _s_Choose(self, st, env, owner):
        ip = len(self.code)
        end = Label()
        simultaneous = st.actor is None
        choice = Choice(None, [], simultaneous, span=st.span, owner=owner)
        self.pauses[ip] = choice
        if simultaneous:
            each_slot = env.new_slot(st.each_var)
            env_opt = env.with_local(st.each_var, each_slot)
            choice.actors_slot = env.new_slot(None)
            choice.pending_slot = env.new_slot(None)
            coll = self.collection(st.each_coll, env)
            choice.actor = coll
            choice.each_slot = each_slot
        else:
            env_opt = env
            choice.actor = self.expr(st.actor, env)
        self.emit(None, owner, st.span)        # placeholder, set below
        next_ip = ip + 1
        if simultaneous:
            self.emit(None, owner, st.span)    # the reveal loop
        bodies = []
        for opt in st.options:
            slots = [env_opt.new_slot(p.name) for p in opt.params]
            inner = env_opt
            for p, sl in zip(opt.params, slots):
                inner = inner.with_local(p.name, sl)
            params = []
            scope = env_opt
            for p, sl in zip(opt.params, slots):
                lo = self.expr(p.low, scope)
                hi = self.expr(p.high, scope) if p.high is not None else None
                params.append((p.name, sl, lo, hi))
                scope = scope.with_local(p.name, sl)
            where = opt.where
            bounds, rest = split_bounds(where, [p.name for p in opt.params if p.high is not None])
            bound_fns = {}
            for pname, op, bexpr in bounds:
                bound_fns.setdefault(pname, []).append((op, self.expr(bexpr, env_opt)))
            rest_fn = self.expr(rest, inner) if rest is not None else None
            avail = self.expr(opt.available, env_opt) if opt.available is not None else None
            label = Label()
            cov = len(self.block_names)
            self.block_names.append(("option", opt.name if opt.name != "choose" else owner, opt.span))
            names = {p.name for p in opt.params}
            independent = not any(mentions(p.low, names) or (p.high is not None and mentions(p.high, names))
                                  for p in opt.params)
            choice.options.append((opt.name, avail, params, rest_fn, bound_fns, label,
                                   OptionInfo(opt, independent), cov))
            bodies.append((opt, inner, label))
        for (opt, inner, label), option in zip(bodies, choice.options):
            label.ip = len(self.code)
            self.block(opt.body, inner, owner)
            self.emit(lambda s, end=end: end.ip, owner, opt.span)
            for _, sl, _, _ in option[2]:
                self.slot_scopes[sl] = (label.ip, len(self.code))
        end.ip = len(self.code)
        if simultaneous:
            reveal_ip = next_ip
            loop_back = len(self.code)
            # each option body jumps to `end`; for a simultaneous choice `end` runs the next pending body
            self.emit(lambda s: reveal_ip, owner, st.span)
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
                return game.bind_move(s, choice, move)
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
