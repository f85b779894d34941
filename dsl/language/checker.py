"""The checker: one pass over the syntax tree that resolves every name, checks arity and
simple types, and reports every problem it finds (errors and warnings) in one run."""
from __future__ import annotations


from . import chains, constants, inlined, limits
from . import syntax as S
from ..engine.builtins import BUILTINS
from ..constructs.registry import hook
from .diagnostics import Diagnostic, did_you_mean
from .kinds import ANY, COLL, NUM, PLAYER, TEAM, ZONE, Scope
from .kinds import a as a_kind


# The hooks the checker calls on the constructs it meets. It meets whatever a file can hold (a
# patch left in a game, behind a syntax error too), so every construct has them, none Absent.
HOOKS = ("check",)


class Checker:
    def __init__(self, rules: S.RuleFile):
        self.rules = rules
        self.path = rules.path
        self.diags: list[Diagnostic] = []
        self.used: set[str] = set()
        self.declared: dict[str, S.Decl] = {}
        self._once: dict = {}
        self._comparisons_left = limits.MAX_SUGGESTION_COMPARISONS

    # ------------------------------------------------------------ the file as a whole
    def once(self, key, compute):
        """What the hooks ask of the whole file, worked out once per check: asked again per
        node, it would make checking grow with the square of the file."""
        if key not in self._once:
            self._once[key] = compute()
        return self._once[key]

    @property
    def game(self):
        return self.once("game", lambda: self.rules.game)

    def of(self, cls) -> list:
        """The declarations of one kind."""
        return self.once(("of", cls), lambda: self.rules.of(cls))

    def did_you_mean(self, name: str, candidates) -> str | None:
        """A close name to suggest, while the file's allowance of comparisons lasts (a file of
        thousands of unknown names, each compared with thousands of declared ones, would take
        minutes). `candidates` may be a function giving them, so that none are gathered past it."""
        if self._comparisons_left <= 0:
            return None
        candidates = set(candidates() if callable(candidates) else candidates)
        self._comparisons_left -= len(candidates)
        return did_you_mean(name, candidates) if self._comparisons_left >= 0 else None

    # ------------------------------------------------------------ what a value is
    def quietly(self, e, scope) -> str:
        """The kind of an expression, found without reporting anything (it is checked where it stands)."""
        mark, used, allowance = len(self.diags), self.used, self._comparisons_left
        self.used = set()           # thrown away: copying the real one would cost its size each time
        self._comparisons_left = 0  # no suggestion for a message nobody reads
        try:
            return self.expr(e, scope)
        finally:
            del self.diags[mark:]
            self.used, self._comparisons_left = used, allowance

    def value_kind(self, d) -> str:
        """What a `value` without parameters gives (a number, a player...), from its expression."""
        memo = self.__dict__.setdefault("_value_kinds", {})
        if d.name not in memo:
            memo[d.name] = ANY          # a value defined through itself stays unknown
            memo[d.name] = self.quietly(d.expr, Scope({p: ANY for p in d.params}))
        return memo[d.name]

    def _value_kinds_in_order(self):
        """Every value's kind, each after the values it reads, so that finding one never goes
        down a chain of values (a long chain would overflow the stack). A value that reads
        itself, through others or not, stays unknown (its cycle is an error of its own)."""
        from ..constructs.define import reads
        graph = reads(d for d in self.declared.values() if isinstance(d, S.Define))
        memo = self.__dict__.setdefault("_value_kinds", {})
        for name in chains.postorder(graph):
            for read in graph[name]:
                memo.setdefault(read, ANY)      # not found yet: it closes a cycle
            self.value_kind(self.declared[name])

    def variable_kind(self, name: str) -> str:
        """What a variable holds, when its starting value and every `set` of it agree: a player,
        a team, a number."""
        kinds = {k for k, _ in self.variable_kinds(name)}
        return kinds.pop() if len(kinds) == 1 else ANY

    def variable_kinds(self, name: str) -> list:
        """(kind, span) of the starting value and of every `set` of a variable, where the kind is known."""
        memo = self.__dict__.setdefault("_variable_kinds", {})
        if name not in memo:
            memo[name] = []
            d = self.declared.get(name)
            values = [d.initial] if isinstance(d, S.Counter) else []
            values += self.once("set values", self._set_values).get(name, [])
            kinds = [(self.quietly(v, Scope({})), v.span) for v in values]
            memo[name] = [(k, span) for k, span in kinds if k not in (ANY, "nobody")]
        return memo[name]

    def _set_values(self) -> dict:
        """Variable name -> the values it is `set` to, in source order, from one walk."""
        out: dict[str, list] = {}
        for st in S.walk_rules(self.rules):
            if isinstance(st, S.Assign) and st.op == "set":
                out.setdefault(st.target.name, []).append(st.value)
        return out

    # ------------------------------------------------------------ reporting
    def error(self, span, message, hint=None):
        self.diags.append(Diagnostic("error", span.file or self.path, span, message, hint))

    def warning(self, span, message, hint=None):
        # a joined part (a patch, a file of strategies) keeps its own file in its spans
        self.diags.append(Diagnostic("warning", span.file or self.path, span, message, hint))

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
            if isinstance(d, (S.Game, S.Flow, S.Score, S.Cooperative)):      # named by their keyword, not by the designer
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
        self._value_kinds_in_order()
        for d in r.decls:
            hook(d, "check")(self, d)
        flows = [f.name for f in r.of(S.Flow)]
        if "play" not in flows and games:
            self.error(games[0].span, "the game has no 'play' section", "add 'play' with the turn structure")
        self._step_names()
        self._recursion()
        inlined.check(self)
        self._reserved_names()
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

    def needs_teams(self, span):
        g = self.game
        if g is not None and g.team_size <= 1:
            self.warning(span, "the game has no 'teams of N' line, so every team is one player",
                         "add 'teams of 2' (or the team size) to the game")

    def _blocks(self, kinds) -> set:
        """Names of the steps, phases or assume blocks anywhere in the rules."""
        bodies = [d.body for d in self.rules.decls if isinstance(d, (S.Rule, S.Trigger, S.Flow))]
        return {st.name for body in bodies for st in S.statements(body)
                if isinstance(st, S.Block) and st.kind in kinds}

    def _assumed(self) -> set:
        return self._blocks(("assume",))

    def all_step_names(self) -> set:
        """Steps, phases and named `cases`: every name a dead end can be reported under."""
        return self.once("step names", self._all_step_names)

    def _all_step_names(self) -> set:
        bodies = [d.body for d in self.rules.decls if isinstance(d, (S.Rule, S.Trigger, S.Flow))]
        named = {st.name for body in bodies for st in S.statements(body) if isinstance(st, S.Cases) and st.name}
        return self._blocks(("step", "phase")) | named

    def const(self, e, what, params=None):
        """A number worked out before play: numbers, parameters (those above, for a parameter),
        player_count, arithmetic, comparisons, if-then-else, max, min, abs."""
        kind = self.expr(e, Scope())
        hint = ("it is worked out before play, from numbers, " +
                ("the parameters declared above it" if params is not None else "parameters") +
                ", player_count, arithmetic, if-then-else, max, min and abs")
        bad = self._not_const(e, params)
        if bad is not None:
            node, why = bad
            self.error(node.span, f"{what} must be a number, but {why}", hint)
        elif kind not in (NUM, ANY):
            self.error(e.span, f"{what} must be a number, but this is {a_kind(kind)}", hint)

    def count(self, e, what):
        """A number of pieces: worked out before play, and never below 0 at any player count the
        game allows (play would stop at its start)."""
        self.const(e, what)
        g = self.game
        if g is None:
            return
        found = {}
        for n in range(max(g.min_players, 1), min(g.max_players, limits.MAX_PLAYERS) + 1):
            params = self.once(("parameters", n), lambda: constants.parameters_at(self.of(S.Parameter), n))
            try:
                found[n] = constants.evaluate(e, lambda name: n if name == "player_count" else params[name])
            except (constants.NotConstant, ArithmeticError, TypeError, ValueError, KeyError):
                return              # not a number known before play: reported by const
        negative = [(n, v) for n, v in found.items() if isinstance(v, int) and not isinstance(v, bool) and v < 0]
        if negative:
            n, v = negative[0]
            at = f" with {n} players" if len(set(found.values())) > 1 else ""
            self.error(e.span, f"{what} is {v}{at}: a count cannot be below 0",
                       "write how many there are, 0 or more" + (" at every player count the game allows" if at else ""))

    def _not_const(self, e, params):
        """The first part of e that is not known before play, and why; None if all is."""
        def why_not(name: S.Name):
            n = name.id
            if n == "player_count":
                return None
            if n in ("nobody", "players", "true", "false"):
                return f"'{n}' is not a number"
            d = self.declared.get(n)
            if isinstance(d, S.Parameter):
                if params is None or n in params:
                    return None
                return f"'{n}' is not declared above it (line {d.span.line}); a parameter can use only those above"
            if isinstance(d, (S.Counter, S.Define)):
                return f"'{n}' is {_decl_kind(d)}, which changes during play"
            if d is not None:
                return f"'{n}' is {_decl_kind(d)}"
            if n in self.symbols:
                return f"'{n}' is a card or die value, not a number"
            return None             # an unknown name: already reported
        return constants.first_not_constant(e, why_not)

    def _recursion(self):
        """A rule that runs itself through `do` (directly or through other rules) cannot be
        played: one error for each set of rules that run one another, at the `do` closing the
        shortest round from the first of them."""
        calls = {r.name: [st for st in S.statements(r.body) if isinstance(st, S.Do)] for r in self.of(S.Rule)}
        graph = {name: [st.rule for st in dos] for name, dos in calls.items()}
        for members in chains.cycles(graph):
            cycle = chains.shortest_cycle(graph, members[0], set(members))
            closing = next(st for st in calls[cycle[-2]] if st.rule == cycle[0])
            self.error(closing.span, f"rule '{cycle[0]}' runs itself: {' -> '.join(cycle)}",
                       "a rule cannot call itself; use 'repeat' for a rule that goes round")

    def _reserved_names(self):
        """A word of the language used as a name (an option called `pass`, a loop variable
        called `if`) reads as the word wherever the name is used."""
        for node in S.walk_rules(self.rules):
            if type(node).__name__ in _NOT_NAMING:
                continue
            named = [getattr(node, f, None) for f in ("name", "var", "each_var")] + list(getattr(node, "params", ()))
            for name in named:
                if isinstance(name, str) and name in RESERVED:
                    self.error(self._name_span(node.span, name),
                               f"'{name}' is a word of the rule language and cannot be used as a name",
                               f"choose another name, e.g. '{name}_{type(node).__name__.lower()}' or a word from the game")

    def _name_span(self, span, name):
        """Where `name` is written on the line `span` starts on (a node's span starts at its keyword)."""
        import re
        lines = self.once(("lines", span.file), lambda: self.rules.source_of(span).splitlines())
        line = lines[span.line - 1] if 0 < span.line <= len(lines) else ""
        m = re.compile(r"(?<!\w)" + re.escape(name) + r"(?!\w)").search(line, max(span.column - 1, 0))
        if m is None:
            return span
        return S.Span(span.line, m.start() + 1, span.line, m.end() + 1, span.file)

    # ------------------------------------------------------------ statements
    def block(self, stmts, scope, in_trigger):
        ended = False
        for st in stmts:
            if ended:
                self.warning(st.span, "this can never happen: the block has already ended the game above",
                             "remove it or move it before the end")
                ended = False
            self.stmt(st, scope, in_trigger)
            if isinstance(st, (S.EndGame, S.Unhandled)):
                ended = True

    def stmt(self, st, scope, in_trigger):
        hook(st, "check")(self, st, scope, in_trigger)

    # ------------------------------------------------------------ expressions
    def expr(self, e, scope, want=None) -> str:
        kind = hook(e, "check")(self, e, scope)
        wants = want if isinstance(want, tuple) else (want,)
        if want is not None and kind not in (ANY, "players") + wants:
            ok = (COLL in wants and kind in (ZONE, "family")) or \
                 ((PLAYER in wants or TEAM in wants) and kind == "nobody")
            if not ok:
                self.error(e.span, f"expected {' or '.join(a_kind(w) for w in wants)} here, but this is {a_kind(kind)}")
        return "collection" if kind == "players" else kind

    def whose(self, e, d, scope, unkeyed: str, want):
        """NAME(x) of a zone or counter: one key when it is kept per something, none otherwise."""
        if not d.per:
            self.error(e.span, f"'{e.fn}' is {unkeyed}; use it without (...)")
        elif len(e.args) != 1:
            self.error(e.span, f"'{e.fn}' is kept per {d.per}: say whose, e.g. {e.fn}(x)")
        for a in e.args:
            self.expr(a, scope, want=want)

    # ------------------------------------------------------------ whole-file checks
    def _step_names(self):
        seen: dict[str, S.Span] = {}
        for d in self.rules.decls:
            if isinstance(d, (S.Flow, S.Rule, S.Trigger)):
                for st in S.statements(d.body):
                    if isinstance(st, S.Block) and st.kind in ("step", "phase"):
                        if st.name in seen:
                            self.error(st.span, f"another step or phase is already named '{st.name}' "
                                                f"(line {seen[st.name].line})",
                                       "names are how variants find a step: make them unique")
                        seen[st.name] = st.span

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
        return zone in self.used and zone in self.once("words", self._words)

    def _words(self) -> set:
        """Every word written in the files, found in one reading of them."""
        import re
        texts = [text for _, text in self.rules.sources] or [self.rules.source]
        return {w for text in texts for w in re.findall(r"\w+", text)}


# Words that begin a statement or join its parts: a name spelt like one would read as it.
# (Words that only begin a declaration or one of its lines, such as `number` or `hand`, can
# still name things: the seed games do.)
RESERVED = frozenset("""add and assume cases chooses do each eliminate else end for if in move not option or otherwise
    pass phase repeat reveal roll set show shuffle simultaneously step subtract then times together unhandled until when
    where while""".split())
# Their names are read, not given; or, for a step or phase, given but only ever read after
# `step`, `phase`, `before` or `after`, where no statement can begin (a `step roll`)
_NOT_NAMING = {"Attr", "Flow", "Patch", "Score", "Cooperative", "Target", "CardSpec", "Block"}


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
            "Board": "a board", "Symbol": "a symbol, not a number"}.get(type(d).__name__, "a declaration")


def check(rules: S.RuleFile) -> list[Diagnostic]:
    return Checker(rules).run()
