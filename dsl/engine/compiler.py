"""The compiler: the checked rule tree to a flat list of instructions with jumps, each a small
closure; local slots and their live ranges; the values of expressions.

May import: the language, the constructs' registry, and the engine's values, errors, program
parts, built-ins, tables, state, generated code and fused statements.
"""
from __future__ import annotations

from typing import Callable

from ..constructs.registry import hook
from ..language import syntax as S
from ..language.kinds import COLL, PLAYER, TEAM, element_kind
from .builtins import BUILTINS
from .errors import RuleError
from .fused import Fuser
from .program import CHANCE, Chance, Env, first_line, items_of, names_zones
from .source import Source, constant, expression, generated
from .tables import LOOP_PASSES_PER_STEP
from .state import DeadEnd
from .values import Piece


class Compiler:
    """The part of a Game that compiles the rule tree into `code`."""

    fusing = True           # pause-free statements run as generated code (tests compare with False)

    def expr(self, e: S.Expr, env: "Env") -> Callable:
        return expression(self, e, env)

    def expr_source(self, e: S.Expr, env: "Env") -> tuple:
        """(function, Source, code) of `e`, for generated code that embeds it (source.generated)."""
        return generated(self, e, env)

    def new_source(self) -> Source:
        """An empty Source, for a construct that generates a function of several expressions."""
        return Source(self)

    def memo_value(self, name, d):
        """A value without arguments is computed once until the state next changes, kept in the
        state's memo under a number (`memo_key`), which generated code can read in place."""
        if name in self.value_fns:
            return self.value_fns[name]
        f = self.expr(d.expr, Env(self, {}))
        key = self.memo_key(name)

        def value(s):
            memo = s.memo
            if key in memo:
                return memo[key]
            v = memo[key] = f(s)
            return v
        value.memo_key = key
        value.computed = f
        value.keeps_slots = getattr(f, "keeps_slots", False)
        self.value_fns[name] = value
        return value

    def memo_key(self, name) -> int:
        return self.memo_keys.setdefault(name, len(self.memo_keys))

    def readers(self, variable) -> tuple:
        """The values without arguments that read `variable` (through other values too): the
        ones a change of it leaves stale in a state's memo."""
        found = self.__dict__.setdefault("_readers", {})
        if variable not in found:
            found[variable] = tuple(n for n, d in self.defines.items()
                                    if not d.params and variable in self.names_read(d.expr))
        return found[variable]

    def collection(self, e, env):
        """A comprehension's source as a function giving a sequence of items. The function of
        a fixed zone, a fixed family of zones or all() of one says which zones (`zones`), for
        generated code that reads them in place."""
        if isinstance(e, S.Call) and e.fn == "all" and len(e.args) == 1 and e.fn not in self.defines \
                and isinstance(e.args[0], S.Name) and e.args[0].id not in env.locals and e.args[0].id not in env.bound \
                and names_zones(self.zones.get(e.args[0].id)):
            e = e.args[0]           # all() of a zone or a family of zones: their pieces, as the zones give them
        f = self.expr(e, env)
        fixed = constant(f)
        if fixed is not None and not names_zones(fixed[0]):
            items = lambda s: fixed[0]      # noqa: E731 (a function of the state, like any other)
            items.constant = fixed
            return items
        if fixed is None and self.never_zones(e, env):
            return f                # items_of would give it as it is
        if fixed is None and getattr(f, "code", None) is not None:
            # generated code gathers the items in place too (Source.of)
            src = self.new_source()
            text = f"{src.value(items_of)}(s, {src.of(f)})"
            items = src.function("s", text)
            items.code = (text, src.names)
            return items
        items = lambda s: items_of(s, f(s))     # noqa: E731
        if fixed is not None:
            items.zones = fixed[0] if isinstance(fixed[0], tuple) else (fixed[0],)
        return items

    def never_zones(self, e, env) -> bool:
        """Whether `e` is a collection of players or teams, never a zone or a family of zones,
        directly or as a value."""
        e = self.definition(e, env)
        return element_kind(e) in (PLAYER, TEAM) and self.calls_builtin(e)

    def never_one_zone(self, e, env) -> bool:
        """Whether `e` is never one zone (a comprehension, or a collection a built-in gives)."""
        e = self.definition(e, env)
        return isinstance(e, S.Comprehension) or self.calls_builtin(e) and BUILTINS[e.fn].returns == COLL

    def definition(self, e, env):
        """The expression that `e`, the name of a value without arguments, stands for (through
        other values); any other expression as it is. A loop's variable or a parameter of the
        same name hides the value; a value's own expression has neither."""
        hidden, seen = set(env.locals) | set(env.bound), set()
        while isinstance(e, S.Name) and e.id in self.defines and not self.defines[e.id].params \
                and e.id not in hidden and e.id not in seen:
            seen.add(e.id)
            hidden = set()
            e = self.defines[e.id].expr
        return e

    def calls_builtin(self, e) -> bool:
        """Whether `e` calls a built-in (no table of the game's has its name)."""
        return isinstance(e, S.Call) and e.fn in BUILTINS and not any(
            e.fn in names for names in (self.defines, self.zones, self.pvar_slots, self.orders, self.board_sizes))

    def emit(self, fn, owner, span) -> int:
        self.code.append(fn)
        self.owner.append(owner)
        self.spans.append(span)
        return len(self.code) - 1

    def jump(self, target, owner, span) -> int:
        """An unconditional jump to `target` (an instruction number, or a Label set later)."""
        ip = self.emit(None, owner, span)
        self.jumps[ip] = target
        return ip

    def thread_jumps(self):
        """Each jump runs its final target's instruction in its place. An instruction knows its
        own number (its next one and its pause are absolute), so running it from the jump's
        place is running it at its own: the same states, one dispatch fewer. `threaded` maps a
        jump to its target, so an error is still laid at the instruction that raised it."""
        for ip, target in self.jumps.items():
            seen = {ip}
            t = target if isinstance(target, int) else target.ip
            while t in self.jumps and t not in seen:
                seen.add(t)
                nxt = self.jumps[t]
                t = nxt if isinstance(nxt, int) else nxt.ip
            if t in self.jumps:             # a jump to itself: a loop without end, left to the step limit
                self.code[ip] = lambda s, t=t: t
                continue
            self.code[ip] = self.code[t]
            self.threaded[ip] = t

    def compile_all(self):
        self.jumps = {}
        self.threaded = {}
        self.fuser = Fuser(self)
        self.fuser_out = Fuser(self, pausing=True)
        self.builders = {}
        self.has_triggers = bool(self.rules.of(S.Trigger))
        self.trigger_reads = set()
        for t in self.rules.of(S.Trigger):
            self.trigger_reads |= self.names_read(t.cond)
            if t.coll is not None:
                self.trigger_reads |= self.names_read(t.coll)
        # a shuffle or a roll changes these without moving a piece ("[]": an item by its place, hand(p)[2])
        self.triggers_read_faces = bool(self.trigger_reads & {"face", "wild", "top", "first", "[]"})
        env = Env(self, {})
        setup = [f for f in self.rules.of(S.Flow) if f.name == "setup"]
        play = [f for f in self.rules.of(S.Flow) if f.name == "play"]
        self.round_loop = next((x for f in play for x in _outermost_loops(f.body)), None)
        # players put out until the next round (alive None) come back as each round begins
        self.rounds_return = any(isinstance(n, S.Eliminate) and n.for_round for f in play for n in S.walk(f))
        for flow in setup:
            self.block(flow.body, env, flow.name)

        def start_play(s, ip=len(self.code)):
            s.playing = True
            self.fire_triggers(s)
            return ip + 1
        self.instruction(start_play, "play", play[0].span if play else S.NOWHERE)
        for flow in play:
            self.block(flow.body, env, flow.name)
        end_span = play[-1].span if play else S.NOWHERE
        self.instruction(self.dead("play ran out", "the turn structure ended without ending the game", end_span, "play"),
                         "play", end_span)
        self.triggers = []
        self.trigger_start = len(self.code)
        self.fuser.closed = self.fuser_out.closed = True     # triggers' bodies are not fused
        self.fused = self.fuser.install(self.trigger_start) if self.fusing else 0
        self.played_out = {}        # pause -> its play-out function (RandomPlay.play_out), made on first use
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
        self.thread_jumps()
        if self.fusing and self.triggers:
            checked = self.triggers_checked()
            if checked is not None:
                self.fire_triggers = checked        # this game's own form of Machine.fire_triggers

    def names_read(self, e, seen=None) -> set:
        """Every variable, zone and function a trigger's condition can read (through values too)."""
        seen = set() if seen is None else seen
        out = set()
        for x in S.walk(e):
            name = x.id if isinstance(x, S.Name) else x.fn if isinstance(x, S.Call) else \
                x.name if isinstance(x, S.Attr) else "[]" if isinstance(x, S.Index) else None
            if name is None:
                continue
            out.add(name)
            d = self.defines.get(name) if not isinstance(x, S.Attr) else None
            if d is not None and name not in seen:
                seen.add(name)
                out |= self.names_read(d.expr, seen)
        return out

    def counting_rounds(self, st, test, body):
        """The loop test of the outermost play loop also counts its passes (rounds) on the
        state; every other loop's test is left as it is. No instruction is added, so every
        position and output stays as it was."""
        if st is not self.round_loop:
            return test

        if self.rounds_return:
            from ..constructs.eliminate import back_in

            def counted_returning(s):
                nxt = test(s)
                if nxt == body:
                    s.rounds += 1
                    back_in(s)
                return nxt
            return counted_returning

        def counted(s):
            nxt = test(s)
            if nxt == body:
                s.rounds += 1
            return nxt
        return counted

    def block(self, stmts, env, owner):
        for st in stmts:
            self.stmt(st, env, owner)

    def stmt(self, st, env, owner):
        first = len(self.code)
        hook(st, "compile")(self, st, env, owner)
        self.fragment(first, self.builders.pop(first, None))

    def instruction(self, fn, owner, span):
        """An instruction of the turn structure that stands as a statement of its own."""
        self.fragment(self.emit(fn, owner, span), None)

    def fragment(self, first, build):
        """The statement just compiled from instruction `first`, for fused code and play-outs."""
        for fuser in (self.fuser, self.fuser_out):
            fuser.add(first, len(self.code), build)

    def fuse(self, first, build):
        """How the statement being compiled from instruction `first` reads as generated code
        (engine/fused.py): `build(fuser)` gives its lines, or None to run its instructions;
        `build(fuser, resume)` gives them entered at the pause `resume` inside it, or None."""
        self.builders[first] = build

    def dead(self, kind, message, span, owner):
        path = self.rules.path_of(span)

        def dead(s):
            s.dead_end = DeadEnd(kind, owner, path, span.line, span.column, message)
            if s.log is not None:
                s.log.append({"event": "dead_end", **s.dead_end.to_json()})
            return -1
        return dead

    def chance_stmt(self, st, env, owner, outcomes, settle, in_place=None, one_zone=False, amount=None, zone=None):
        """Pause for a chance event; the construct gives its outcome count and effect, and may
        give `in_place(fuser)`: lines that, with the pieces in `ci` (and their zone `cz`), draw
        the outcome `k` as drawn_chance draws it and settle it as settle_chance does, for random
        play's own code; `one_zone` when the event's zone is always one zone. An event that
        takes some of the pieces (a draw) gives `amount`, how many (a function of the state),
        and `zone`, where they are taken from, in place of the statement's own zone."""
        zone = self.expr(st.zone, env) if zone is None else zone
        ip = len(self.code)
        self.pauses[ip] = Chance(zone, st.span, owner, outcomes, settle, amount, amount is not None)

        def pause(s, ip=ip):
            s.ip = ip
            return -1
        self.emit(pause, owner, st.span)

        def drawn(f, resume=None):
            if not f.pausing:
                return None
            n = f.name
            # chance_zone_items, and chance_settled where a trigger reads what chance changes
            drawn = [f"k = {n(self.drawn_chance)}(s, rng)"] if in_place is None else [
                f"cz = {f.of(zone)}", f"ci = {n(list)}(s.zones[cz])" if one_zone else
                f"ci = [cz] if {n(isinstance)}(cz, {n(Piece)}) else {n(list)}({n(items_of)}(s, cz))",
                *in_place(f), *([f"{n(self.chance_settled)}(s)"] if self.has_triggers and self.triggers_read_faces else [])]
            return f.stopped(ip, resume) + [f"at = {ip!r}", *drawn, "if actions is not None:",
                                            f"    actions.append([{CHANCE!r}, k])",
                                            "if s.outcome is not None or s.dead_end is not None:", "    return -1"]
        self.fuse(ip, drawn)

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
        back.limit = limit
        return back


def _outermost_loops(stmts):
    """The loops of a flow not inside another loop, looking into steps, phases and assumptions."""
    for st in stmts:
        if isinstance(st, (S.Repeat, S.ForEach)):
            yield st
        elif isinstance(st, S.Block):
            yield from _outermost_loops(st.body)
