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

from ..engine import CHANCE, Game
from .batches import raise_if_interrupted
from .cycles import shortest_return
from .fuzz_findings import _actions_text, _n, block_count, never_reached
from ..engine.order import state_keyer
from ..engine.values import plain

FORMAT = "playtest-explore/2"
PROGRESS_EVERY = 1000
MAX_CHANCE_OUTCOMES = 1_000_000     # without max_states, a chance event with more outcomes stops the search


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
    transitions: int = 0            # actions followed: every action of every expanded state, counted once each
    distinct_edges: int = 0         # pairs (state, next state) of the graph: actions that lead to the same state count once
    unexpanded_states: int = 0      # found, but the search stopped before looking past them
    max_depth: int = 0              # the longest shortest path: the most actions any state needs to be reached
    longest_game: Optional[int] = None  # actions in the longest complete game (a finished, acyclic search)
    complete_games: Optional[int] = None
    cyclic: bool = False
    forever: Optional[dict] = None  # the shortest history that returns to a state already seen
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
            "unexpanded_states": self.unexpanded_states,
            "transitions": self.transitions,
            "distinct_edges": self.distinct_edges,
            "forever": self.forever,
            "longest_shortest_path": self.max_depth,
            "longest_game": self.longest_game,
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
        not_yet = f", not yet expanded {self.unexpanded_states:,}" if self.unexpanded_states else ""
        out.append(f"  states {self.states:,}  positions {self.positions:,}  "
                   f"(decisions {self.decision_states:,}, chance {self.chance_states:,}, "
                   f"ends {self.terminal_states:,}{not_yet})")
        longest = f", longest game {_n(self.longest_game, 'action')}" if self.longest_game is not None else ""
        out.append(f"  actions followed {self.transitions:,}, distinct edges {self.distinct_edges:,}; "
                   f"every state is reached within {_n(self.max_depth, 'action')}{longest}")
        if self.complete_games is not None:
            out.append(f"  complete games {self.complete_games:,}")
        elif self.cyclic:
            out.append("  complete games: unbounded (play can return to a state it has been in)")
        else:
            out.append("  complete games: unknown (the search did not finish)")
        if self.forever is not None:
            f = self.forever
            out.append(f"  the game can go on forever: after {_n(f['length'], 'action')} play is back in the state "
                       f"it was in after {_n(f['returns_after'], 'action')}, and can go round again")
            out.append(f"        shortest such history: {_actions_text(f['actions'])}")
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
        elif self.finished and self.forever is not None:
            out.append("  no dead ends: every game that ends, ends as the rules say (proof); but a game need not end")
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
                if j % PROGRESS_EVERY == 0:
                    raise_if_interrupted()      # a Ctrl-C Python dropped (batches.interrupts_kept)
                    if progress is not None:
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
    report.distinct_edges = sum(len(set(c)) for c in succ if c)
    report.max_depth = max(depth) if depth else 0
    expanded = [k for k in kinds if k is not None]
    report.chance_states = sum(1 for k in expanded if k == "chance")
    report.decision_states = sum(1 for k in expanded if k == "decision")
    report.terminal_states = sum(1 for k in expanded if isinstance(k, tuple))
    report.positions = report.decision_states + report.terminal_states
    report.unexpanded_states = n_states - len(expanded)

    counted = _count_paths(succ, kinds) if finished else None
    paths = counted[0] if counted is not None else None
    report.cyclic = finished and paths is None
    if paths is not None:
        report.complete_games = sum(paths[i] for i, k in enumerate(kinds) if isinstance(k, tuple))
        report.longest_game = max((counted[1][i] for i, k in enumerate(kinds) if isinstance(k, tuple)), default=0)

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
    loop = shortest_return(succ, depth)
    if loop is not None:
        report.forever = _forever(game, key, ids, parent, *loop)
    report.blocks = block_count(game)
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


def _forever(game, key, ids, parent, entry, loop) -> dict:
    """The history to `entry` and round its loop, as actions: the graph keeps only the ids of
    the next states, so the loop's actions are found again by playing it from the start."""
    wanted = set(loop)
    key_of = {i: k for k, i in ids.items() if i in wanted}
    to_entry = []
    i = entry
    while parent[i][0] >= 0:
        i, action = parent[i]
        to_entry.append(action)
    to_entry.reverse()
    s = game.new_initial_state()
    for actor, move in to_entry:
        game.apply(s, move, None if actor == CHANCE else actor, validate=False)
    actions = [_move_json(a, m) for a, m in to_entry]
    for target in loop:
        if game.is_chance(s):
            options = [(CHANCE, k) for k in range(game.chance_outcomes(s))]
        else:
            p, moves = game.decision(s)
            options = [(int(p), m) for m in moves]
        for actor, move in options:
            c = s.clone()
            game.apply(c, move, None if actor == CHANCE else actor, validate=False)
            if key(c) == key_of[target]:
                s = c
                actions.append(_move_json(actor, move))
                break
        else:
            raise AssertionError("a step of the loop is no action of its state")
    return {"length": len(actions), "returns_after": len(to_entry), "actions": actions}


def _count_paths(succ, kinds) -> Optional[tuple[list, list]]:
    """Number of distinct action sequences from the start to each state, and the most actions
    any of them takes (Kahn's order over the graph); None when the graph has a cycle."""
    n = len(succ)
    indeg = [0] * n
    for children in succ:
        for j in children or ():
            indeg[j] += 1
    paths = [0] * n
    paths[0] = 1
    longest = [0] * n
    order = deque(i for i in range(n) if indeg[i] == 0)
    done = 0
    while order:
        i = order.popleft()
        done += 1
        pi = paths[i]
        for j in succ[i] or ():
            paths[j] += pi
            longest[j] = max(longest[j], longest[i] + 1)
            indeg[j] -= 1
            if indeg[j] == 0:
                order.append(j)
    return (paths, longest) if done == n else None
