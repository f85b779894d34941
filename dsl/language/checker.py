"""The checker: one pass over the syntax tree that resolves every name, checks arity and
simple types, and reports every problem it finds (errors and warnings) in one run."""
from __future__ import annotations

from dataclasses import dataclass, field

from . import syntax as S
from ..engine.builtins import BUILTINS
from .diagnostics import Diagnostic, did_you_mean

NUM, BOOL, PLAYER, PIECE, ZONE, COLL, TEXT, ANY = "number", "truth", "player", "piece", "zone", "collection", "text", "any"
TEAM = "team"
WHO = (PLAYER, TEAM)            # who can choose, be eliminated or win: a player or a team
_BUILTIN_TYPES = {
    "count": NUM, "sum": NUM, "max": NUM, "min": NUM, "highest": COLL, "lowest": COLL, "nth_highest": COLL,
    "alive_players": COLL, "next_player": PLAYER, "previous_player": PLAYER, "all": COLL, "wild": BOOL,
    "alive": BOOL, "contains": BOOL, "empty": BOOL, "seat": NUM, "holder": PLAYER, "zone_of": ZONE,
    "abs": NUM, "size": NUM, "first": ANY, "top": ANY, "team_of": TEAM, "members": COLL, "alive_teams": COLL,
}


@dataclass
class _Scope:
    names: dict = field(default_factory=dict)       # local name -> type

    def child(self, **more) -> "_Scope":
        d = dict(self.names)
        d.update(more)
        return _Scope(d)


class Checker:
    def __init__(self, rules: S.RuleFile):
        self.rules = rules
        self.path = rules.path
        self.diags: list[Diagnostic] = []
        self.used: set[str] = set()
        self.declared: dict[str, S.Decl] = {}

    # ------------------------------------------------------------ reporting
    def error(self, span, message, hint=None):
        self.diags.append(Diagnostic("error", self.path, span, message, hint))

    def warning(self, span, message, hint=None):
        self.diags.append(Diagnostic("warning", self.path, span, message, hint))

    # ------------------------------------------------------------ the pass
    def run(self) -> list[Diagnostic]:
        r = self.rules
        games = r.of(S.Game)
        if not games:
            self.error(S.Span(1, 1, 1, 2), "no 'game' declaration", "a rule file starts with 'game NAME'")
        for g in games[1:]:
            self.error(g.span, "a rule file describes one game; this is a second 'game'")
        for g in games[:1]:
            if g.min_players < 1 or g.min_players > g.max_players:
                self.error(g.span, f"players {g.min_players} to {g.max_players} is not a range of player counts")
        for d in r.decls:
            if isinstance(d, (S.Game, S.Flow)):
                continue
            if d.name in self.declared:
                first = self.declared[d.name]
                self.error(d.span, f"'{d.name}' is already declared at line {first.span.line}",
                           "every rule, zone, value and component needs its own name")
            elif d.name in BUILTINS or d.name in ("players", "teams", "nobody", "true", "false", "player_count"):
                self.error(d.span, f"'{d.name}' is a built-in name", "choose another name")
            else:
                self.declared[d.name] = d
        self.symbols = set()
        for c in r.of(S.Component):
            for spec in c.cards:
                for _, v in spec.attrs:
                    if isinstance(v, str):
                        self.symbols.add(v)
            for f in c.faces:
                if isinstance(f, str):
                    self.symbols.add(f)
        for o in r.of(S.Order):
            for g in o.ranks:
                self.symbols.update(v for v in g if isinstance(v, str))
        for d in r.decls:
            getattr(self, "_d_" + type(d).__name__)(d)
        flows = [f.name for f in r.of(S.Flow)]
        if "play" not in flows and games:
            self.error(games[0].span, "the game has no 'play' section", "add 'play' with the turn structure")
        self._step_names()
        self._recursion()
        self._unused()
        assumed = self._assumed()
        for q in r.of(S.Question):
            title = S.text_of(q.texts, "title", "en") or S.text_of(q.texts, "title", "ja") or q.name
            if q.name in assumed:
                hint = f"play uses the provisional answer marked 'assume {q.name}'"
            elif q.about:
                hint = f"left unhandled: play ends in a dead end in '{q.about}' when it comes up"
            else:
                hint = "the seed does not say"
            self.warning(q.span, f"open question '{q.name}': {title}", hint)
        for p in r.of(S.Parameter):
            if p.provisional:
                self.warning(p.span, f"parameter '{p.name}' is provisional", "the seed leaves its value open")
        self.diags.sort(key=lambda d: (d.span.line, d.span.column, d.severity))
        return self.diags

    # ------------------------------------------------------------ declarations
    def _d_Game(self, d):
        if d.max_steps is not None:
            self._const(d.max_steps, "max steps")

    def _d_Parameter(self, d):
        params = [p.name for p in self.rules.of(S.Parameter)]
        above = set(params[:params.index(d.name)]) if d.name in params else set()
        what = f"parameter '{d.name}'"
        if d.value is not None:
            self._const(d.value, what, above)
        for _, e in d.by_players:
            self._const(e, what, above)
        if d.otherwise is not None:
            self._const(d.otherwise, what, above)
        g = self.rules.game
        if g and d.by_players and d.otherwise is None:
            missing = [n for n in range(g.min_players, g.max_players + 1) if n not in dict(d.by_players)]
            if missing:
                self.error(d.span, f"parameter '{d.name}' has no value for {', '.join(map(str, missing))} players",
                           "add those counts or an 'otherwise' value")

    def _d_Counter(self, d):
        if d.per == "team":
            self._needs_teams(d.span)
        self._expr(d.initial, _Scope())
        for b, which in ((d.minimum, "minimum"), (d.maximum, "maximum")):
            if b is not None:
                self._const(b, f"the {which} of '{d.name}'")

    def _d_Component(self, d):
        if d.home is None:
            self.error(d.span, f"'{d.name}' does not say where it starts", "add 'in ZONE' naming a shared zone")
        else:
            self.used.add(d.home)
            z = self.declared.get(d.home)
            if not isinstance(z, S.Zone):
                self.error(d.span, f"'{d.name}' starts in '{d.home}', which is not a zone",
                           did_you_mean(d.home, [x.name for x in self.rules.of(S.Zone)]))
            elif z.per == "player" and not (d.count_per_player and not d.cards):
                self.error(d.span, f"'{d.name}' starts in '{d.home}', which belongs to each player",
                           "components start in a shared zone, or in a zone per player when counted per player")
            elif z.per not in (None, "player"):
                self.error(d.span, f"'{d.name}' starts in '{d.home}', which is kept per {z.per}",
                           "components start in a shared zone; deal them in setup")
        if d.kind == "dice":
            if not d.faces:
                self.error(d.span, f"dice '{d.name}' has no faces", "add 'faces 1, 2, 3, 4, 5, 6'")
            if d.wild is not None and d.wild not in d.faces:
                self.error(d.span, f"the wild face {d.wild!r} is not one of the faces")
        if d.kind == "deck" and not d.cards:
            self.error(d.span, f"deck '{d.name}' has no cards", "add 'card NAME with ...' lines or a 'cards' table")
        if d.count is not None:
            self._const(d.count, f"the count of '{d.name}'")
        elif d.kind != "deck":
            self.error(d.span, f"'{d.name}' does not say how many there are", "add 'count N' or 'count N per player'")
        for spec in d.cards:
            if spec.count is not None:
                self._const(spec.count, f"the count of '{spec.name}'")

    def _d_Board(self, d):
        if d.width < 1 or d.height < 1:
            self.error(d.span, "a board needs at least one space")

    def _d_Zone(self, d):
        if d.per == "team":
            self._needs_teams(d.span)
        elif d.per not in (None, "player"):
            c = self.declared.get(d.per)
            if not isinstance(c, S.Component):
                self.error(d.span, f"zone '{d.name}' is kept per '{d.per}', which is not a component",
                           did_you_mean(d.per, [x.name for x in self.rules.of(S.Component)]) or
                           "write 'per player', 'per team' or 'per' and the name of a deck, dice or token")
            else:
                self.used.add(d.per)

    def _needs_teams(self, span):
        g = self.rules.game
        if g is not None and g.team_size <= 1:
            self.warning(span, "the game has no 'teams of N' line, so every team is one player",
                         "add 'teams of 2' (or the team size) to the game")

    def _d_Order(self, d):
        pass

    def _d_Question(self, d):
        if d.about is not None:
            self.used.add(d.name)
            if d.about not in self.declared and d.about not in self._all_step_names():
                self.error(d.span, f"question '{d.name}' is about '{d.about}', which is not a rule, step or named cases",
                           did_you_mean(d.about, list(self.declared) + list(self._all_step_names())))

    def _blocks(self, kinds) -> set:
        """Names of the steps, phases or assume blocks anywhere in the rules."""
        bodies = [d.body for d in self.rules.decls if isinstance(d, (S.Rule, S.Trigger, S.Flow))]
        return {st.name for body in bodies for st in S.statements(body)
                if isinstance(st, S.Block) and st.kind in kinds}

    def _assumed(self) -> set:
        return self._blocks(("assume",))

    def _all_step_names(self) -> set:
        """Steps, phases and named `cases`: every name a dead end can be reported under."""
        bodies = [d.body for d in self.rules.decls if isinstance(d, (S.Rule, S.Trigger, S.Flow))]
        named = {st.name for body in bodies for st in S.statements(body) if isinstance(st, S.Cases) and st.name}
        return self._blocks(("step", "phase")) | named

    def _const(self, e, what, params=None):
        """A number worked out before play: numbers, parameters (those above, for a parameter),
        player_count, arithmetic, comparisons, if-then-else, max, min, abs."""
        kind = self._expr(e, _Scope())
        hint = ("it is worked out before play, from numbers, " +
                ("the parameters declared above it" if params is not None else "parameters") +
                ", player_count, arithmetic, if-then-else, max, min and abs")
        bad = self._not_const(e, params)
        if bad is not None:
            node, why = bad
            self.error(node.span, f"{what} must be a number, but {why}", hint)
        elif kind not in (NUM, ANY):
            self.error(e.span, f"{what} must be a number, but this is {_a(kind)}", hint)

    def _not_const(self, e, params):
        """The first part of e that is not known before play, and why; None if all is."""
        if isinstance(e, S.Num):
            return None
        if isinstance(e, S.Str):
            return e, f'"{e.value}" is a text'
        if isinstance(e, S.Name):
            n = e.id
            if n == "player_count":
                return None
            if n in ("nobody", "players", "true", "false"):
                return e, f"'{n}' is not a number"
            d = self.declared.get(n)
            if isinstance(d, S.Parameter):
                if params is None or n in params:
                    return None
                return e, f"'{n}' is not declared above it (line {d.span.line}); a parameter can use only those above"
            if isinstance(d, (S.Counter, S.Define)):
                return e, f"'{n}' is {_decl_kind(d)}, which changes during play"
            if d is not None:
                return e, f"'{n}' is {_decl_kind(d)}"
            if n in self.symbols:
                return e, f"'{n}' is a card or die value, not a number"
            return None             # an unknown name: already reported
        if isinstance(e, S.Unary):
            return self._not_const(e.operand, params)
        if isinstance(e, S.Binary):
            return self._not_const(e.left, params) or self._not_const(e.right, params)
        if isinstance(e, S.IfExpr):
            return self._not_const(e.cond, params) or self._not_const(e.then, params) \
                or self._not_const(e.other, params)
        if isinstance(e, S.Call) and e.fn in ("max", "min", "abs") \
                and not any(isinstance(a, S.Comprehension) for a in e.args):
            for a in e.args:
                bad = self._not_const(a, params)
                if bad:
                    return bad
            return None
        if isinstance(e, S.Call):
            return e, f"{e.fn}(...) depends on the state of play"
        return e, "this depends on the state of play"

    def _recursion(self):
        """A rule that runs itself through `do` (directly or through other rules) cannot be played."""
        calls = {}
        for r in self.rules.of(S.Rule):
            calls[r.name] = [st for st in S.statements(r.body) if isinstance(st, S.Do)]
        reported = set()

        def visit(name, path):
            for st in calls.get(name, ()):
                if st.rule in path:
                    cycle = path[path.index(st.rule):] + [st.rule]
                    key = frozenset(cycle)
                    if key not in reported:
                        reported.add(key)
                        self.error(st.span, f"rule '{st.rule}' runs itself: {' -> '.join(cycle)}",
                                   "a rule cannot call itself; use 'repeat' for a rule that goes round")
                elif st.rule in calls:
                    visit(st.rule, path + [st.rule])
        for name in calls:
            visit(name, [name])

    def _d_Define(self, d):
        scope = _Scope({p: ANY for p in d.params})
        self._expr(d.expr, scope)

    def _d_Rule(self, d):
        self._block(d.body, _Scope({p: ANY for p in d.params}), in_trigger=False)

    def _d_Trigger(self, d):
        scope = _Scope()
        if d.var:
            self._expr(d.coll, scope, want=COLL)
            scope = scope.child(**{d.var: _element_kind(d.coll)})
        self._expr(d.cond, scope)
        self._block(d.body, scope, in_trigger=True)

    def _d_Flow(self, d):
        self._block(d.body, _Scope(), in_trigger=False)

    # ------------------------------------------------------------ statements
    def _block(self, stmts, scope, in_trigger):
        ended = False
        for st in stmts:
            if ended:
                self.warning(st.span, "this can never happen: the block has already ended the game above",
                             "remove it or move it before the end")
                ended = False
            self._stmt(st, scope, in_trigger)
            if isinstance(st, (S.EndGame, S.Unhandled)):
                ended = True

    def _stmt(self, st, scope, in_trigger):
        getattr(self, "_s_" + type(st).__name__)(st, scope, in_trigger)

    def _s_Pass(self, st, scope, t):
        pass

    def _s_Unhandled(self, st, scope, t):
        pass

    def _s_Block(self, st, scope, t):
        if st.kind == "assume":
            q = self.declared.get(st.name)
            self.used.add(st.name)
            if not isinstance(q, S.Question):
                self.error(st.span, f"'assume {st.name}' names no open question",
                           did_you_mean(st.name, [x.name for x in self.rules.of(S.Question)])
                           or "declare it with 'question NAME'")
        self._block(st.body, scope, t)

    def _s_Move(self, st, scope, t):
        if st.amount == "item":
            self._expr(st.count, scope, want=PIECE)
        else:
            if st.count is not None:
                self._expr(st.count, scope, want=NUM)
            self._expr(st.source, scope, want=ZONE)
        self._expr(st.dest, scope, want=ZONE)

    def _s_Shuffle(self, st, scope, t):
        self._expr(st.zone, scope, want=ZONE)
        if t:
            self.error(st.span, "a trigger cannot shuffle", "chance happens in the turn structure")

    def _s_Roll(self, st, scope, t):
        self._expr(st.zone, scope)
        if t:
            self.error(st.span, "a trigger cannot roll dice", "chance happens in the turn structure")

    def _s_Assign(self, st, scope, t):
        tg = st.target
        d0 = self.declared.get(tg.name) if tg.name not in scope.names else None
        is_counter = isinstance(d0, S.Counter) and d0.kind == "counter"
        self._expr(st.value, scope, want=NUM if (st.op != "set" or is_counter) else None)
        if tg.name in scope.names and tg.player is None:
            return
        d = self.declared.get(tg.name)
        if isinstance(d, S.Parameter):
            self.error(tg.span, f"'{tg.name}' is a parameter and cannot change during play",
                       "declare a 'counter' or 'variable' for a value that changes")
            return
        if not isinstance(d, S.Counter):
            names = [c.name for c in self.rules.of(S.Counter)]
            self.error(tg.span, f"unknown counter or variable '{tg.name}'",
                       did_you_mean(tg.name, names) or f"declare it with 'counter {tg.name} = 0'")
            return
        self.used.add(tg.name)
        per = d.per
        if per and tg.player is None:
            self.error(tg.span, f"'{tg.name}' is kept per {per}: say whose, e.g. {tg.name}({per[0]})")
        if not per and tg.player is not None:
            self.error(tg.span, f"'{tg.name}' is one value for the whole game, not per player")
        if tg.player is not None:
            self._expr(tg.player, scope, want=TEAM if d.per == "team" else PLAYER)
        if st.op != "set" and d.kind == "variable":
            self.warning(tg.span, f"'{tg.name}' is a variable; adding to it assumes it holds a number")

    def _s_Eliminate(self, st, scope, t):
        self._expr(st.player, scope, want=WHO)

    def _s_Reveal(self, st, scope, t):
        self._expr(st.zone, scope)

    def _s_Do(self, st, scope, t):
        d = self.declared.get(st.rule)
        self.used.add(st.rule)
        if not isinstance(d, S.Rule):
            self.error(st.span, f"unknown rule '{st.rule}'",
                       did_you_mean(st.rule, [r.name for r in self.rules.of(S.Rule)]))
        elif len(d.params) != len(st.args):
            self.error(st.span, f"rule '{st.rule}' takes {len(d.params)} argument(s), not {len(st.args)}")
        for a in st.args:
            self._expr(a, scope)

    def _s_EndGame(self, st, scope, t):
        if st.winners is not None:
            self._expr(st.winners, scope, want=COLL)
        if st.keys:
            self._expr(st.coll, scope, want=COLL)
            inner = scope.child(**{st.var: PLAYER})
            for k in st.keys:
                self._expr(k.expr, inner, want=NUM)

    def _s_If(self, st, scope, t):
        for cond, body in st.branches:
            self._expr(cond, scope)
            self._block(body, scope, t)
        if st.otherwise:
            self._block(st.otherwise, scope, t)

    def _s_Cases(self, st, scope, t):
        for c in st.cases:
            self._expr(c.cond, scope)
            self._block(c.body, scope, t)

    def _s_Repeat(self, st, scope, t):
        self._expr(st.expr, scope, want=NUM if st.kind == "times" else None)
        self._block(st.body, scope, t)

    def _s_ForEach(self, st, scope, t):
        self._expr(st.coll, scope, want=COLL)
        inner = scope.child(**{st.var: _element_kind(st.coll)})
        if st.cond is not None:
            self._expr(st.cond, inner)
        self._block(st.body, inner, t)

    def _s_Choose(self, st, scope, t):
        if t:
            self.error(st.span, "a trigger cannot ask a player to choose",
                       "triggers act at once; put choices in the turn structure")
        if st.actor is not None:
            self._expr(st.actor, scope, want=WHO)
            inner = scope
        else:
            self._expr(st.each_coll, scope, want=COLL)
            inner = scope.child(**{st.each_var: _element_kind(st.each_coll)})
        seen = set()
        for opt in st.options:
            if opt.name in seen:
                self.error(opt.span, f"two options are named '{opt.name}'")
            seen.add(opt.name)
            o_scope = inner
            for p in opt.params:
                self._expr(p.low, o_scope, want=NUM if p.high is not None else COLL)
                if p.high is not None:
                    self._expr(p.high, o_scope, want=NUM)
                o_scope = o_scope.child(**{p.name: NUM if p.high is not None else ANY})
            if opt.where is not None:
                self._expr(opt.where, o_scope)
            if opt.available is not None:
                self._expr(opt.available, inner)
            self._block(opt.body, o_scope, t)

    # ------------------------------------------------------------ expressions
    def _expr(self, e, scope, want=None) -> str:
        kind = getattr(self, "_x_" + type(e).__name__)(e, scope)
        wants = want if isinstance(want, tuple) else (want,)
        if want is not None and kind not in (ANY, "players") + wants:
            ok = (COLL in wants and kind in (ZONE, "family")) or \
                 ((PLAYER in wants or TEAM in wants) and kind == "nobody")
            if not ok:
                self.error(e.span, f"expected {' or '.join(_a(w) for w in wants)} here, but this is {_a(kind)}")
        return "collection" if kind == "players" else kind

    def _x_Num(self, e, scope):
        return NUM

    def _x_Str(self, e, scope):
        return TEXT

    def _x_ListLit(self, e, scope):
        for i in e.items:
            self._expr(i, scope)
        return COLL

    def _x_Name(self, e, scope):
        n = e.id
        if n in scope.names:
            return scope.names[n]
        if n == "players":
            return "players"
        if n == "teams":
            return COLL
        if n == "nobody":
            return "nobody"
        if n in ("true", "false"):
            return BOOL
        if n == "player_count":
            return NUM
        d = self.declared.get(n)
        if d is not None:
            self.used.add(n)
            if isinstance(d, S.Parameter):
                return NUM
            if isinstance(d, S.Counter):
                if d.per:
                    self.error(e.span, f"'{n}' is kept per {d.per}: say whose, e.g. {n}(...)")
                return NUM if d.kind == "counter" else ANY
            if isinstance(d, S.Define):
                if d.params:
                    self.error(e.span, f"'{n}' takes {len(d.params)} argument(s)")
                return ANY
            if isinstance(d, S.Zone):
                return "family" if d.per else ZONE
            if isinstance(d, S.Board):
                return "family"
            if isinstance(d, S.Component):
                return COLL
            self.error(e.span, f"'{n}' is a {type(d).__name__.lower()}, not a value")
            return ANY
        if n in self.symbols:
            return TEXT
        if n in BUILTINS:
            self.error(e.span, f"'{n}' is a function: call it as {n}(...)")
            return ANY
        candidates = list(scope.names) + list(self.declared) + ["players", "nobody", "true", "false"] + list(self.symbols)
        self.error(e.span, f"unknown name '{n}'", did_you_mean(n, candidates))
        return ANY

    def _x_Attr(self, e, scope):
        self._expr(e.obj, scope)
        if e.name in ("face", "seat"):
            return NUM
        if e.name == "owner":
            return PLAYER
        return ANY

    def _x_Unary(self, e, scope):
        if e.op == "not":
            self._expr(e.operand, scope)
            return BOOL
        self._expr(e.operand, scope, want=NUM)
        return NUM

    def _x_IfExpr(self, e, scope):
        self._expr(e.cond, scope)
        a = self._expr(e.then, scope)
        self._expr(e.other, scope)
        return a

    def _x_Binary(self, e, scope):
        if e.op in ("and", "or"):
            self._expr(e.left, scope)
            self._expr(e.right, scope)
            return BOOL
        if e.op in ("+", "-", "*", "//", "%"):
            self._expr(e.left, scope, want=NUM)
            self._expr(e.right, scope, want=NUM)
            return NUM
        a = self._expr(e.left, scope)
        b = self._expr(e.right, scope)
        if e.op in ("<", "<=", ">", ">=") and (a in (ZONE, COLL, "family") or b in (ZONE, COLL, "family")):
            self.error(e.span, f"cannot compare {_a(a)} with {_a(b)} by size", "compare counts, e.g. count(hand(p))")
        return BOOL

    def _x_Comprehension(self, e, scope):
        self._expr(e.coll, scope, want=COLL)
        inner = scope.child(**{e.var: ANY})
        if e.cond is not None:
            self._expr(e.cond, inner)
        if e.item is not None:
            self._expr(e.item, inner)
        return COLL

    def _whose(self, e, d, scope, unkeyed: str, want):
        """NAME(x) of a zone or counter: one key when it is kept per something, none otherwise."""
        if not d.per:
            self.error(e.span, f"'{e.fn}' is {unkeyed}; use it without (...)")
        elif len(e.args) != 1:
            self.error(e.span, f"'{e.fn}' is kept per {d.per}: say whose, e.g. {e.fn}(x)")
        for a in e.args:
            self._expr(a, scope, want=want)

    def _x_Call(self, e, scope):
        fn = e.fn
        d = self.declared.get(fn)
        args = e.args
        if d is not None:
            self.used.add(fn)
            if isinstance(d, S.Zone):
                self._whose(e, d, scope, "one shared zone", {"player": PLAYER, "team": TEAM}.get(d.per))
                return ZONE
            if isinstance(d, S.Board):
                if len(args) != 2:
                    self.error(e.span, f"'{fn}' needs a column and a row: {fn}(x, y)")
                for a in args:
                    self._expr(a, scope, want=NUM)
                return ZONE
            if isinstance(d, S.Counter):
                self._whose(e, d, scope, "one value for the whole game", TEAM if d.per == "team" else PLAYER)
                return NUM if d.kind == "counter" else ANY
            if isinstance(d, S.Order):
                if len(args) != 1:
                    self.error(e.span, f"order '{fn}' ranks one card: {fn}(card)")
                for a in args:
                    self._expr(a, scope)
                return NUM
            if isinstance(d, S.Define):
                if len(args) != len(d.params):
                    self.error(e.span, f"'{fn}' takes {len(d.params)} argument(s), not {len(args)}")
                for a in args:
                    self._expr(a, scope)
                return ANY
            self.error(e.span, f"'{fn}' is a {type(d).__name__.lower()} and cannot be called")
            return ANY
        b = BUILTINS.get(fn)
        if b is None:
            candidates = list(BUILTINS) + [x.name for x in self.rules.decls if isinstance(x, (S.Zone, S.Define, S.Order, S.Counter))]
            self.error(e.span, f"unknown function '{fn}'", did_you_mean(fn, candidates))
            for a in args:
                self._expr(a, scope)
            return ANY
        lo, hi = b.arity
        if not lo <= len(args) <= hi:
            want = f"{lo}" if lo == hi else f"{lo} to {hi}"
            self.error(e.span, f"'{fn}' takes {want} argument(s), not {len(args)}")
        for a in args:
            self._expr(a, scope)
        return _BUILTIN_TYPES.get(fn, ANY)

    # ------------------------------------------------------------ whole-file checks
    def _step_names(self):
        seen: dict[str, S.Span] = {}

        def walk(stmts):
            for st in stmts:
                if isinstance(st, S.Block) and st.kind in ("step", "phase"):
                    if st.name in seen:
                        self.error(st.span, f"another step or phase is already named '{st.name}' (line {seen[st.name].line})",
                                   "names are how variants find a step: make them unique")
                    seen[st.name] = st.span
                for v in vars(st).values():
                    if isinstance(v, tuple):
                        for x in v:
                            if isinstance(x, S.Stmt):
                                walk([x])
                            elif isinstance(x, (S.Option, S.Case)):
                                walk(x.body)
                            elif isinstance(x, tuple) and len(x) == 2 and isinstance(x[1], tuple):
                                walk([y for y in x[1] if isinstance(y, S.Stmt)])
        for d in self.rules.decls:
            if isinstance(d, (S.Flow, S.Rule, S.Trigger)):
                walk(d.body)

    def _unused(self):
        for d in self.rules.decls:
            if d.name in self.used:
                continue
            if isinstance(d, S.Component):
                continue
            if isinstance(d, S.Zone):
                self.warning(d.span, f"zone '{d.name}' is never used")
            elif isinstance(d, S.Parameter):
                self.warning(d.span, f"parameter '{d.name}' is never used")
            elif isinstance(d, S.Rule):
                self.warning(d.span, f"rule '{d.name}' is never used", "call it with 'do " + d.name + "'")
            elif isinstance(d, S.Define):
                self.warning(d.span, f"value '{d.name}' is never used")
            elif isinstance(d, S.Counter):
                self.warning(d.span, f"'{d.name}' is never used")
            elif isinstance(d, S.Question):
                self.warning(d.span, f"open question '{d.name}' is not attached to any rule",
                             "mark the provisional answer with 'assume " + d.name + "'")
        for c in self.rules.of(S.Component):
            if c.name not in self.used and c.home and not self._zone_moves_from(c.home):
                self.warning(c.span, f"component '{c.name}' never leaves '{c.home}' and is never used")

    def _zone_moves_from(self, zone) -> bool:
        return zone in self.used and sum(1 for _ in self._mentions(zone)) > 0

    def _mentions(self, name):
        import re
        texts = [text for _, text in self.rules.sources] or [self.rules.source]
        return (m for text in texts for m in re.finditer(r"\b" + re.escape(name) + r"\b", text))


def _decl_kind(d) -> str:
    if isinstance(d, S.Zone):
        return "a zone"
    if isinstance(d, S.Counter):
        return f"a {d.kind}"
    if isinstance(d, S.Component):
        return "a component"
    if isinstance(d, S.Define):
        return "a value"
    return {"Rule": "a rule", "Trigger": "a trigger", "Question": "a question", "Order": "an order",
            "Board": "a board"}.get(type(d).__name__, "a declaration")


def _element_kind(coll) -> str:
    """What the items of a collection are, where the checker can tell: players or teams."""
    if isinstance(coll, S.Name) and coll.id in ("players", "teams"):
        return PLAYER if coll.id == "players" else TEAM
    if isinstance(coll, S.Call) and coll.fn in ("alive_players", "members"):
        return PLAYER
    if isinstance(coll, S.Call) and coll.fn == "alive_teams":
        return TEAM
    return ANY


def _a(kind) -> str:
    return {"number": "a number", "truth": "a truth value", "player": "a player", "team": "a team", "piece": "a piece",
            "zone": "a zone", "collection": "a collection", "text": "a text", "any": "a value",
            "family": "a zone kept per player (say whose)", "nobody": "nobody"}.get(kind, kind)


def check(rules: S.RuleFile) -> list[Diagnostic]:
    return Checker(rules).run()
