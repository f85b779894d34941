"""Exhaustive search of one configuration (a rule file and a player count).

Every decision and every chance outcome is followed, breadth first, from the state after
setup. States that agree on everything that decides the future are one state, so the
search walks a graph, not a tree:

- zones whose order no rule can observe are compared as sets (see `order_free_zones`);
- local slots are compared only where they are live (Game.live_at), so a value left over
  from an earlier turn does not split a position in two;
- the decision counter and the loop counter are not part of a state (as in State.key).

From the graph come the counts a designer can trust: distinct states and positions, the
number of complete games (distinct sequences of actions from the start to an end, summed
over the graph with memoisation, never enumerated), the end states by outcome, every dead
end with a shortest game that reaches it, and the blocks of the rules no game can reach.
A search that finishes without a dead end is a proof that the rules cover every case for
this player count.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..language import syntax as S
from ..engine import CHANCE, Game
from .fuzz import _n, never_reached
from ..engine.state import _freeze
from ..engine.values import plain

FORMAT = "playtest-explore/1"
PROGRESS_EVERY = 1000
MAX_CHANCE_OUTCOMES = 1_000_000     # without max_states, a chance event with more outcomes stops the search


# ---------------------------------------------------------------------------- zone order

_ORDERED_RESULT = {"highest", "lowest", "nth_highest"}     # give items back in collection order
_READS_ORDER = {"top", "first"}


class _OrderUse:
    """Which zones' order can make a difference to play.

    A zone's order matters when a rule reads it: `top`/`first` of it, `move N` or
    `move up to N` from it (they take the top pieces), `for each` over it (the body runs
    in that order), a collection built from it that is compared with `=`, or `move all`
    from it into a zone whose order matters. Collections flow through values, variables,
    rule and value arguments; a zone the analysis cannot name (`zone_of`, a name it cannot
    trace) makes every zone ordered. Choosing from a zone, counting, summing, rolling,
    shuffling and revealing do not depend on its order.
    """

    def __init__(self, rules: S.RuleFile):
        self.rules = rules
        self.zone_names = {z.name for z in rules.of(S.Zone)} | {b.name for b in rules.of(S.Board)}
        self.defines = {d.name: d for d in rules.of(S.Define)}
        self.variables = {c.name: c for c in rules.of(S.Counter)}
        self.assigned: dict[str, list] = {}          # variable -> expressions assigned to it
        self.local_sources: dict[str, list] = {}     # local name -> expressions it can hold (arguments)
        self.element_of: dict[str, list] = {}        # local name -> collections it iterates
        self.known_locals: set[str] = set()
        self.move_all: list = []                     # (source, destination)
        self.ordered: set[str] = set()
        self.everything = False
        self._marking: set = set()
        self._collect()
        self._consumers()
        self._propagate()

    # -- pass 1: where values come from
    def _collect(self):
        r = self.rules
        rules_by_name = {x.name: x for x in r.of(S.Rule)}
        for c in r.of(S.Counter):
            self.assigned.setdefault(c.name, []).append(c.initial)
        for d in r.of(S.Define):
            self.known_locals.update(d.params)
        for x in r.of(S.Rule):
            self.known_locals.update(x.params)
        for t in r.of(S.Trigger):
            if t.var:
                self.known_locals.add(t.var)
        for e in self._all_exprs():
            for sub in _walk_expr(e):
                if isinstance(sub, S.Comprehension):
                    self.known_locals.add(sub.var)
                    self.element_of.setdefault(sub.var, []).append(sub.coll)
                elif isinstance(sub, S.Call) and sub.fn in self.defines:
                    for pname, arg in zip(self.defines[sub.fn].params, sub.args):
                        self.local_sources.setdefault(pname, []).append(arg)
        for st in self._all_stmts():
            if isinstance(st, S.Assign) and st.target.name in self.variables:
                self.assigned.setdefault(st.target.name, []).append(st.value)
            elif isinstance(st, S.Assign):
                self.local_sources.setdefault(st.target.name, []).append(st.value)
            elif isinstance(st, S.Do) and st.rule in rules_by_name:
                for pname, arg in zip(rules_by_name[st.rule].params, st.args):
                    self.local_sources.setdefault(pname, []).append(arg)
            elif isinstance(st, S.ForEach):
                self.known_locals.add(st.var)
                self.element_of.setdefault(st.var, []).append(st.coll)
            elif isinstance(st, S.Choose):
                if st.actor is None:
                    self.known_locals.add(st.each_var)
                    self.element_of.setdefault(st.each_var, []).append(st.each_coll)
                for opt in st.options:
                    for p in opt.params:
                        self.known_locals.add(p.name)
                        if p.high is None:
                            self.element_of.setdefault(p.name, []).append(p.low)
            elif isinstance(st, S.EndGame) and st.var:
                self.known_locals.add(st.var)

    # -- pass 2: where order is read
    def _consumers(self):
        for e in self._all_exprs():
            for sub in _walk_expr(e):
                if isinstance(sub, S.Call) and sub.fn in _READS_ORDER and sub.args:
                    self.mark(sub.args[0])
                elif isinstance(sub, S.Call) and sub.fn == "zone_of":
                    self.everything = True          # a zone known only during play
                elif isinstance(sub, S.Binary) and sub.op in ("=", "!="):
                    self.mark(sub.left)
                    self.mark(sub.right)
        for st in self._all_stmts():
            if isinstance(st, S.Move):
                if st.amount in ("exactly", "up to"):
                    self.mark(st.source)
                elif st.amount == "all":
                    self.move_all.append((st.source, st.dest))
            elif isinstance(st, S.ForEach):
                self.mark(st.coll)

    def _propagate(self):
        changed = True
        while changed and not self.everything:
            changed = False
            for src, dest in self.move_all:
                names = _zone_names_of(dest, self.zone_names)
                if names is None or names & self.ordered:
                    before = (len(self.ordered), self.everything)
                    self.mark(src)
                    changed = changed or (len(self.ordered), self.everything) != before

    def mark(self, e):
        """The order of the collection e gives back can matter: every zone it comes from is ordered."""
        if self.everything or e is None:
            return
        key = id(e)
        if key in self._marking:
            return
        self._marking.add(key)
        if isinstance(e, S.Name):
            n = e.id
            if n in self.zone_names:
                self.ordered.add(n)
            elif n in self.defines and not self.defines[n].params:
                self.mark(self.defines[n].expr)
            elif n in self.variables:
                for v in self.assigned.get(n, ()):
                    self.mark(v)
            elif n in self.known_locals:
                for v in self.local_sources.get(n, ()):
                    self.mark(v)
                for coll in self.element_of.get(n, ()):
                    if isinstance(coll, S.ListLit):     # an item of a list of zones is a zone
                        for item in coll.items:
                            self.mark(item)
        elif isinstance(e, S.Call):
            if e.fn in self.zone_names:
                self.ordered.add(e.fn)
            elif e.fn == "all" and e.args:
                self.mark(e.args[0])
            elif e.fn in _ORDERED_RESULT and e.args:
                self.mark(e.args[-1])
            elif e.fn in self.defines:
                self.mark(self.defines[e.fn].expr)
            elif e.fn == "zone_of":
                self.everything = True
        elif isinstance(e, S.Comprehension):
            self.mark(e.coll)
        elif isinstance(e, S.IfExpr):
            self.mark(e.then)
            self.mark(e.other)
        elif isinstance(e, S.ListLit):
            for item in e.items:
                self.mark(item)

    # -- the rule file, flattened
    def _all_stmts(self):
        for d in self.rules.decls:
            body = getattr(d, "body", None)
            if isinstance(body, tuple):
                yield from S.statements(body)

    def _all_exprs(self):
        for d in self.rules.decls:
            for v in vars(d).values():
                yield from _exprs_in(v)
        for st in self._all_stmts():
            for name, v in vars(st).items():
                if name == "body" or (isinstance(st, S.If) and name in ("branches", "otherwise")) \
                        or (isinstance(st, S.Cases) and name == "cases") \
                        or (isinstance(st, S.Choose) and name == "options"):
                    continue
                yield from _exprs_in(v)
            if isinstance(st, S.If):
                for cond, _ in st.branches:
                    yield cond
            elif isinstance(st, S.Cases):
                for c in st.cases:
                    yield c.cond
            elif isinstance(st, S.Choose):
                for opt in st.options:
                    for p in opt.params:
                        yield p.low
                        if p.high is not None:
                            yield p.high
                    if opt.where is not None:
                        yield opt.where
                    if opt.available is not None:
                        yield opt.available


def _exprs_in(v):
    if isinstance(v, S.Expr):
        yield v
    elif isinstance(v, S.Target):
        if v.player is not None:
            yield v.player
    elif isinstance(v, S.RankKey):
        yield v.expr
    elif isinstance(v, tuple):
        for x in v:
            if isinstance(x, (S.Expr, S.Target, S.RankKey)):
                yield from _exprs_in(x)
            elif isinstance(x, tuple) and len(x) == 2 and isinstance(x[1], S.Expr):
                yield x[1]                      # parameter values by player count


def _walk_expr(e):
    yield e
    for v in vars(e).values():
        if isinstance(v, S.Expr):
            yield from _walk_expr(v)
        elif isinstance(v, tuple):
            for x in v:
                if isinstance(x, S.Expr):
                    yield from _walk_expr(x)


def _zone_names_of(e, zone_names) -> Optional[set]:
    """The zone declarations e can name, or None when that is not known before play."""
    if isinstance(e, S.Name) and e.id in zone_names:
        return {e.id}
    if isinstance(e, S.Call) and e.fn in zone_names:
        return {e.fn}
    return None


def order_free_zones(game: Game) -> frozenset:
    """Indices of the zones (in game.zone_names) whose order no rule can observe."""
    use = _OrderUse(game.rules)
    if use.everything:
        return frozenset()
    free = set()
    for name, z in game.zones.items():
        if name in use.ordered:
            continue
        free.update(int(i) for i in (z if isinstance(z, tuple) else (z,)))
    return frozenset(free)


def state_keyer(game: Game) -> Callable:
    """A function giving each state the key explore compares states by."""
    free = order_free_zones(game)
    live_at = game.live_at

    def key(s):
        zones = tuple(tuple(sorted(z)) if i in free else tuple(z) for i, z in enumerate(s.zones))
        body = (zones, tuple(s.face), tuple(s.revealed), tuple(s.vars), tuple(tuple(v) for v in s.pvars),
                tuple(s.alive))
        if s.outcome is not None or s.dead_end is not None:
            d = s.dead_end
            return body + ("end", s.outcome, (d.kind, d.rule, d.line, d.column) if d else None)
        L = s.loc_slots
        return body + (s.ip, tuple(_freeze(L[i]) for i in live_at.get(s.ip, ())), tuple(s.latches), s.playing)
    return key


# ---------------------------------------------------------------------------- the report

@dataclass
class ExploreReport:
    game: str
    rules: str
    players: int
    max_states: Optional[int]
    finished: bool = False
    stopped_because: str = ""
    states: int = 0                 # distinct states reached (decisions, chance, ends)
    positions: int = 0              # distinct states where a player decides or the game has ended
    decision_states: int = 0
    chance_states: int = 0
    terminal_states: int = 0
    transitions: int = 0            # actions followed (edges of the graph)
    max_depth: int = 0              # actions on the longest shortest path to a state
    complete_games: Optional[int] = None
    cyclic: bool = False
    outcomes: list = field(default_factory=list)
    dead_ends: list = field(default_factory=list)
    never_reached: list = field(default_factory=list)
    blocks: int = 0

    @property
    def proof(self) -> bool:
        """The whole space was searched and no game ends in a dead end."""
        return self.finished and not self.dead_ends

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "game": self.game,
            "rules": self.rules,
            "players": self.players,
            "max_states": self.max_states,
            "finished": self.finished,
            "stopped_because": self.stopped_because,
            "proof": self.proof,
            "states": self.states,
            "positions": self.positions,
            "decision_states": self.decision_states,
            "chance_states": self.chance_states,
            "terminal_states": self.terminal_states,
            "transitions": self.transitions,
            "max_depth": self.max_depth,
            "complete_games": self.complete_games,
            "cyclic": self.cyclic,
            "outcomes": self.outcomes,
            "dead_ends": self.dead_ends,
            "coverage": {"blocks": self.blocks, "never_reached": self.never_reached},
        }

    def format_text(self) -> str:
        out = [f"{self.game}: exhaustive search, {self.players} players"]
        if self.finished:
            out.append("  searched everything")
        else:
            out.append(f"  stopped early: {self.stopped_because}")
        out.append(f"  states {self.states:,}  positions {self.positions:,}  "
                   f"(decisions {self.decision_states:,}, chance {self.chance_states:,}, "
                   f"ends {self.terminal_states:,})")
        out.append(f"  transitions {self.transitions:,}, longest shortest path {_n(self.max_depth, 'action')}")
        if self.complete_games is not None:
            out.append(f"  complete games {self.complete_games:,}")
        elif self.cyclic:
            out.append("  complete games: unbounded (play can return to a state it has been in)")
        else:
            out.append("  complete games: unknown (the search did not finish)")
        if self.outcomes:
            out.append("  outcomes:")
            for o in self.outcomes:
                games = f"{o['games']:,} games" if o["games"] is not None else "games unknown"
                out.append(f"    {o['outcome']:<24} {o['terminal_states']:>9,} end states  {games}")
        if self.dead_ends:
            out.append(f"  dead ends: {len(self.dead_ends)}")
            for d in self.dead_ends:
                games = f", {d['games']:,} games" if d["games"] is not None else ""
                out.append(f"    {d['rule']}: {d['kind']}  ({d['where']})  {d['states']:,} states{games}")
                out.append(f"        {d['message']}")
                out.append(f"        shortest: {_n(d['shortest']['length'], 'action')}")
        elif self.finished:
            out.append("  no dead ends: every game this configuration allows ends as the rules say (proof)")
        else:
            out.append("  no dead ends found so far")
        if self.finished and self.never_reached:
            out.append(f"  never reached in any game ({len(self.never_reached)} of {self.blocks} blocks):")
            for b in self.never_reached:
                out.append(f"    {b['kind']} {b['name']}  ({b['where']})")
        return "\n".join(out)


def _outcome_label(outcome) -> str:
    if not outcome:
        return "no winner"
    if len(outcome) == 1:
        return f"P{int(outcome[0]) + 1} wins"
    return "shared: " + ", ".join(f"P{int(p) + 1}" for p in outcome)


def _move_json(actor, move):
    return [actor, move if actor == CHANCE else [plain(x) for x in move]]


def explore(game: Game, *, max_states: Optional[int] = None,
            progress: Optional[Callable[[str, int, Optional[int]], None]] = None) -> ExploreReport:
    """Search every line of play of `game`, breadth first, up to `max_states` distinct states
    (None: no limit). `progress("search", states_so_far, max_states)` is called every
    PROGRESS_EVERY new states and once at the end."""
    report = ExploreReport(game.name, game.path, game.n, max_states)
    key = state_keyer(game)
    start = game.new_initial_state(coverage=True)
    reached = set(start.fired or {})
    ids = {key(start): 0}
    pending: list = [start]             # the state of each id until it is expanded
    parent: list = [(-1, None)]
    depth: list = [0]
    succ: list = [None]
    kinds: list = [None]                # 'decision' | 'chance' | 'end'
    queue = deque([0])
    transitions = 0
    limit = max_states
    stopped = ""

    while queue:
        i = queue.popleft()
        s = pending[i]
        pending[i] = None
        moves = None
        if not s.is_terminal() and not game.is_chance(s):
            decision = game.decision(s)     # None: a dead end here
            if decision is not None:
                p, moves = int(decision[0]), decision[1]
        if s.is_terminal():
            kinds[i] = ("end", s.outcome, s.dead_end)
            succ[i] = ()
            continue
        if game.is_chance(s):
            n = game.chance_outcomes(s)
            kinds[i] = "chance"
            if n > (limit if limit is not None else MAX_CHANCE_OUTCOMES):
                stopped = f"a chance event has {n:,} outcomes, too many to follow one by one"
                pending[i] = s
                queue.appendleft(i)
                break
            actions = [(CHANCE, k) for k in range(n)]
        else:
            kinds[i] = "decision"
            actions = [(p, m) for m in moves]
        children = []
        for actor, move in actions:
            c = s.clone()
            c.fired = {}
            game.apply(c, move, None if actor == CHANCE else actor, validate=False)
            reached.update(c.fired)
            c.fired = None
            k = key(c)
            j = ids.get(k)
            if j is None:
                j = len(pending)
                ids[k] = j
                pending.append(c)
                parent.append((i, (actor, move)))
                depth.append(depth[i] + 1)
                succ.append(None)
                kinds.append(None)
                queue.append(j)
                if progress is not None and j % PROGRESS_EVERY == 0:
                    progress("search", j, limit)
            children.append(j)
        transitions += len(children)
        succ[i] = children
        if limit is not None and len(pending) >= limit and queue:
            stopped = f"reached max_states ({limit:,})"
            break

    finished = not queue and not stopped
    n_states = len(pending)
    if progress is not None:
        progress("search", n_states, limit)
    report.finished = finished
    report.stopped_because = stopped
    report.states = n_states
    report.transitions = transitions
    report.max_depth = max(depth) if depth else 0
    expanded = [k for k in kinds if k is not None]
    report.chance_states = sum(1 for k in expanded if k == "chance")
    report.decision_states = sum(1 for k in expanded if k == "decision")
    report.terminal_states = sum(1 for k in expanded if isinstance(k, tuple))
    report.positions = report.decision_states + report.terminal_states

    paths = _count_paths(succ, kinds) if finished else None
    report.cyclic = finished and paths is None
    if paths is not None:
        report.complete_games = sum(paths[i] for i, k in enumerate(kinds) if isinstance(k, tuple))

    outcomes: dict = {}
    dead: dict = {}
    for i, k in enumerate(kinds):
        if not isinstance(k, tuple):
            continue
        _, outcome, d = k
        g = paths[i] if paths is not None else None
        if d is None:
            label = _outcome_label(outcome)
            o = outcomes.setdefault(label, {"outcome": label, "winners": [int(p) + 1 for p in outcome],
                                            "terminal_states": 0, "games": 0 if paths is not None else None})
            o["terminal_states"] += 1
            if g is not None:
                o["games"] += g
        else:
            dk = (d.rule, d.kind)
            e = dead.get(dk)
            if e is None:       # breadth first: the first one found has a shortest path
                e = dead[dk] = {"rule": d.rule, "kind": d.kind, "where": d.where, "message": d.message,
                                "states": 0, "games": 0 if paths is not None else None,
                                "shortest": {"length": depth[i], "actions": _path(parent, i)}}
            e["states"] += 1
            if g is not None:
                e["games"] += g
    report.outcomes = sorted(outcomes.values(), key=lambda o: (len(o["winners"]) == 0, o["winners"]))
    report.dead_ends = sorted(dead.values(), key=lambda d: (d["rule"], d["kind"]))
    report.blocks = len(game.block_names) + len(game.triggers)
    if finished:
        report.never_reached = never_reached(game, reached)
    return report


def _path(parent, i) -> list:
    out = []
    while parent[i][0] >= 0:
        j, (actor, move) = parent[i]
        out.append(_move_json(actor, move))
        i = j
    out.reverse()
    return out


def _count_paths(succ, kinds) -> Optional[list]:
    """Number of distinct action sequences from the start to each state (Kahn's order over
    the graph); None when the graph has a cycle."""
    n = len(succ)
    indeg = [0] * n
    for children in succ:
        for j in children or ():
            indeg[j] += 1
    paths = [0] * n
    paths[0] = 1
    order = deque(i for i in range(n) if indeg[i] == 0)
    done = 0
    while order:
        i = order.popleft()
        done += 1
        pi = paths[i]
        for j in succ[i] or ():
            paths[j] += pi
            indeg[j] -= 1
            if indeg[j] == 0:
                order.append(j)
    return paths if done == n else None
