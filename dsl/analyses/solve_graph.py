"""The state graph of a small two-player game of perfect information, for `solve`.

When every player sees everything (no hidden piece that matters, no simultaneous choice),
a position is all a player needs to know, so the game is solved on explore's graph of
distinct states: the value of a position is the best of its moves for the player to move
(minimax) and the average over a chance event's outcomes (expectimax), each position worked
out once. Hidden identical tokens do not count as hidden: a box of one kind of token holds
nothing a player does not know.

May import the engine and solve_tree's utility.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..engine import CHANCE
from ..engine.order import piece_classes, state_keyer
from .solve_tree import CHANCE_NODE, DECISION, END, Unsolvable, first_player_utility, not_two_player

PROGRESS_EVERY = 5000


@dataclass
class Graph:
    """Distinct states, the first one the start. `succ[i]` its successors (a decision's in the
    order of its moves), `prob[i]` a chance event's probability of each."""
    kind: list = field(default_factory=list)
    player: list = field(default_factory=list)
    succ: list = field(default_factory=list)
    prob: list = field(default_factory=list)
    util: list = field(default_factory=list)
    states: dict = field(default_factory=dict)      # decision node -> its state
    order: list = field(default_factory=list)       # every node after all that lead to it
    paid: bool = False                              # some game ends with pay-offs (else every game ends with winners)

    @property
    def size(self) -> int:
        return len(self.kind)


class _Sight:
    """Whether a state hides anything from anyone that could make a difference."""

    def __init__(self, game):
        self.game = game
        self.classes = piece_classes(game)
        self.hidden = [[z for z in range(len(game.zone_seen)) if not game.zone_visible(z, p)]
                       for p in range(game.n)]

    def all_seen(self, s) -> bool:
        pause = self.game.pauses.get(s.ip)
        if getattr(pause, "simultaneous", False) and not s.is_terminal():
            return False
        faces, kind_of, classes = self.game.faces, self.game.kind_of, self.classes
        for zones in self.hidden:
            where: dict = {}            # a class hidden in one zone, alone there: nothing to know
            for z in zones:
                inside = {classes[x] for x in s.zones[z] if not s.revealed[x]}
                if len(inside) > 1 or any(kind_of[x] in faces for x in s.zones[z] if not s.revealed[x]):
                    return False
                for c in inside:
                    if where.setdefault(c, z) != z:
                        return False
        return True


def build_graph(game, max_states: int, progress: Optional[Callable] = None) -> Optional[Graph]:
    """The graph of `game`, or None as soon as a state hides something that matters (the game
    is then one of imperfect information). Unsolvable when it is too large or cyclic."""
    if game.n != 2:
        raise Unsolvable(not_two_player(game.n))
    sight = _Sight(game)
    key = state_keyer(game)
    g = Graph()
    start = game.new_initial_state()
    ids = {key(start): 0}
    pending = [start]
    _grow(g)
    queue = deque([0])
    while queue:
        i = queue.popleft()
        s = pending[i]
        pending[i] = None
        if not sight.all_seen(s):
            return None
        decision = None if s.is_terminal() or game.is_chance(s) else game.decision(s)
        if s.is_terminal():
            g.kind[i] = END
            g.util[i] = first_player_utility(s)
            g.paid |= s.payoffs is not None
            continue
        if game.is_chance(s):
            n = game.chance_outcomes(s)
            if n > max_states:
                raise Unsolvable(f"a chance event has {n:,} outcomes, more than the {max_states:,} states allowed")
            actions = [(CHANCE, k) for k in range(n)]
            g.kind[i] = CHANCE_NODE
        else:
            p, moves = decision
            actions = [(p, m) for m in moves]
            g.kind[i] = DECISION
            g.player[i] = int(p)
            g.states[i] = s
        succ, weight = [], {}
        for actor, move in actions:
            c = s.clone()
            game.apply(c, move, actor, validate=False)
            k = key(c)
            j = ids.get(k)
            if j is None:
                j = ids[k] = len(pending)
                if j >= max_states:
                    raise Unsolvable(f"the game has more than {max_states:,} states", j)
                pending.append(c)
                _grow(g)
                queue.append(j)
                if progress is not None and j % PROGRESS_EVERY == 0:
                    progress("states", j, max_states)
            if g.kind[i] == CHANCE_NODE:
                if j not in weight:
                    succ.append(j)
                weight[j] = weight.get(j, 0) + 1
            else:
                succ.append(j)
        g.succ[i] = succ
        g.prob[i] = [weight[j] / len(actions) for j in succ] if g.kind[i] == CHANCE_NODE else None
    g.order = _topological(g)
    return g


def _grow(g: Graph) -> None:
    g.kind.append(None)
    g.player.append(-1)
    g.succ.append(())
    g.prob.append(None)
    g.util.append(0.0)


def _topological(g: Graph) -> list:
    indeg = [0] * g.size
    for s in g.succ:
        for j in s:
            indeg[j] += 1
    order, ready = [], deque([0])
    while ready:
        i = ready.popleft()
        order.append(i)
        for j in g.succ[i]:
            indeg[j] -= 1
            if indeg[j] == 0:
                ready.append(j)
    if len(order) != g.size:
        raise Unsolvable("play can come back to a position it has been in, so a game need not end; "
                         "solving is offered for games where every line of play ends")
    return order


def values(g: Graph, policy: Optional[dict] = None, responder: Optional[int] = None) -> list:
    """Each state's value to the first player: both players playing their best (minimax), or,
    with `policy` (decision node -> probabilities of its moves), the other player replying
    best to it (`responder`). Chance averages its outcomes."""
    v = [0.0] * g.size
    for i in reversed(g.order):
        k = g.kind[i]
        if k == END:
            v[i] = g.util[i]
        elif k == CHANCE_NODE:
            v[i] = sum(p * v[j] for p, j in zip(g.prob[i], g.succ[i]))
        elif policy is not None and g.player[i] != responder:
            probs = policy.get(i)
            v[i] = sum(p * v[j] for p, j in zip(probs, g.succ[i]) if p) if probs is not None else 0.0
        else:
            vals = [v[j] for j in g.succ[i]]
            v[i] = max(vals) if g.player[i] == 0 else min(vals)
    return v


def reached(g: Graph, seat: int, decide: Callable[[int], list]) -> dict:
    """The policy at every state of `seat` that play can reach when the other player may do
    anything and `seat` plays by `decide(node)` (its probabilities): states its moves never
    lead to are never asked about."""
    live = [False] * g.size
    live[0] = True
    policy = {}
    for i in g.order:
        if not live[i] or g.kind[i] == END:
            continue
        if g.kind[i] == DECISION and g.player[i] == seat:
            policy[i] = probs = decide(i)
            for p, j in zip(probs, g.succ[i]):
                if p:
                    live[j] = True
        else:
            for j in g.succ[i]:
                live[j] = True
    return policy
