"""The explicit game tree of a small two-player game, with its information sets, for `solve`.

Every chance outcome and every decision is followed from the state after setup, as `explore`
follows them, but into a tree: what a player knows depends on how play got somewhere, not
only on where it is. Chance outcomes that leave the same state (explore's key: identical
pieces interchangeable, unread orders ignored) are one child, their probabilities added, so
a shuffle of two J, two Q and two K is 90 deals, not 720.

An information set is what the acting player has observed, with perfect recall: after every
action each player notes what they saw of it and what they see of the table afterwards.

- their own move, in full;
- another player's move, as its option and values, with every piece they could not see
  left unnamed; at a simultaneous choice nothing of it (only what it does to the table);
- a chance outcome, only through the table afterwards;
- the table: what `Game.observation` shows them (their zones, everyone's, revealed pieces),
  the counters and variables, who is still in. Pieces no rule can tell apart (explore's
  piece classes) are named by their class, so a J is a J whichever of the two it is.

The acting player also sees where the rules stand (the paused instruction) and the moves they
are offered. Two nodes with the same note are one information set; their moves then agree.

May import the engine and explore's keys.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from ..engine import CHANCE
from ..engine.order import order_free_zones, piece_classes, state_keyer
from ..engine.values import Piece

END, CHANCE_NODE, DECISION = 0, 1, 2
PROGRESS_EVERY = 5000


class Unsolvable(Exception):
    """Why a game is not solved: its text says so plainly; `size` the states found, when the
    reason is size."""

    def __init__(self, message: str, size: Optional[int] = None):
        super().__init__(message)
        self.size = size


def first_player_utility(s) -> float:
    """What an ended game is worth to the first player in a two-player zero-sum reading: its
    pay-off when it ends with pay-offs (they must sum to zero), else +1 for a win, -1 for a
    loss and 0 for a draw or a shared win. A dead end has no worth: the rules are not done."""
    if s.dead_end is not None:
        d = s.dead_end
        raise Unsolvable(f"a game ends in a dead end ({d.kind} in '{d.rule}' at {d.where}: {d.message}): "
                         "solving needs rules that say how every game ends; `playtest explore` lists them")
    if s.payoffs is not None:
        a, b = (float(x) for x in s.payoffs)
        if abs(a + b) > 1e-9:
            raise Unsolvable(f"the game is not zero-sum: one game pays P1 {a:+g} and P2 {b:+g}; "
                             "solving is offered for two-player zero-sum games only (pay-offs that sum to zero, "
                             "or a win, a loss or a draw)")
        return a
    winners = {int(p) for p in s.outcome}
    return 1.0 if winners == {0} else -1.0 if winners == {1} else 0.0


@dataclass
class InfoSet:
    player: int
    key: tuple
    moves: list                 # the engine's moves, as listed at the first node found
    labels: tuple               # what the player calls each move (pieces by their class)
    offset: int                 # the first slot of its moves in the strategy arrays
    state: object = None        # one of its positions: any will do for an agent, which cannot tell them apart
    nodes: list = field(default_factory=list)


@dataclass
class Tree:
    """Nodes in breadth-first order (a parent before its children, a node's children side by
    side). `slot[j]` is the strategy slot of the move into j (-1 after chance); `prob[j]` the
    chance of the outcome into j (1.0 after a move)."""
    kind: list = field(default_factory=list)
    player: list = field(default_factory=list)
    infoset: list = field(default_factory=list)
    parent: list = field(default_factory=list)
    first: list = field(default_factory=list)
    count: list = field(default_factory=list)
    depth: list = field(default_factory=list)
    slot: list = field(default_factory=list)
    prob: list = field(default_factory=list)
    util: list = field(default_factory=list)
    infosets: list = field(default_factory=list)
    slots: int = 0
    paid: bool = False          # some game ends with pay-offs (else every game ends with winners)

    @property
    def size(self) -> int:
        return len(self.kind)

    def children(self, i) -> range:
        return range(self.first[i], self.first[i] + self.count[i])


class _Seen:
    """What each player notes of the game (the module's docstring), as small canonical tuples."""

    def __init__(self, game):
        self.game = game
        self.classes = piece_classes(game)
        self.free = order_free_zones(game)
        self.visible = [[game.zone_visible(z, p) for z in range(len(game.zone_seen))]
                        for p in range(game.n)]
        # the values each player may not see (a counter's `seen by`): left out of what they note
        unseen = [game.unseen_values(p) for p in range(game.n)]
        self.unseen_vars = set(unseen[0][0])
        self.unseen_kept = [set(kept) for _, kept in unseen]

    def piece(self, s, p, viewer=None):
        if viewer is not None and not self.visible[viewer][s.loc[p]] and not s.revealed[p] \
                and viewer not in s.looked.get(p, ()):
            return ("piece", None)
        return ("piece", self.classes[p], s.loc[p], s.face[p])

    def value(self, s, v, viewer=None):
        if type(v) is Piece:
            return self.piece(s, v, viewer)
        if isinstance(v, tuple):
            return tuple(self.value(s, x, viewer) for x in v)
        return v

    def table(self, s, p) -> tuple:
        vis = self.visible[p]
        classes, face, shown, looked = self.classes, s.face, s.revealed, s.looked
        zones = []
        for z, pieces in enumerate(s.zones):
            seen = [(classes[x], face[x]) if vis[z] or shown[x] or p in looked.get(x, ()) else None for x in pieces]
            if z in self.free:
                seen.sort(key=repr)
            zones.append(tuple(seen))
        values, kept = tuple(s.vars), tuple(tuple(r) for r in s.pvars)
        if self.unseen_vars:
            values = tuple(None if i in self.unseen_vars else v for i, v in enumerate(values))
        if self.unseen_kept[p]:
            unseen = self.unseen_kept[p]
            kept = tuple(tuple(None if (i, k) in unseen else v for k, v in enumerate(r)) for i, r in enumerate(kept))
        return (tuple(zones), self.value(s, values), self.value(s, kept), tuple(s.alive))

    def labels(self, s, moves) -> tuple:
        out, seen = [], {}
        for m in moves:
            lab = self.value(s, tuple(m))
            k = seen[lab] = seen.get(lab, -1) + 1         # two moves of interchangeable pieces stay two
            out.append((lab, k))
        return tuple(out)


def build_tree(game, max_nodes: int, progress: Optional[Callable[[str, int, Optional[int]], None]] = None) -> Tree:
    """The whole tree of `game`, or Unsolvable when it has more than `max_nodes` nodes."""
    if game.n != 2:
        raise Unsolvable(not_two_player(game.n))
    seen = _Seen(game)
    key = state_keyer(game)
    tree = Tree()
    notes: dict = {}                    # (earlier note, what was seen) -> note id: a history as one number

    def note(before, what) -> int:
        k = (before, what)
        i = notes.get(k)
        if i is None:
            i = notes[k] = len(notes)
        return i

    def add(parent, state, hist, depth, slot, prob):
        i = len(tree.kind)
        if i >= max_nodes:
            raise Unsolvable(f"the game tree has more than {max_nodes:,} positions", i)
        tree.kind.append(None)
        tree.player.append(-1)
        tree.infoset.append(-1)
        tree.parent.append(parent)
        tree.first.append(0)
        tree.count.append(0)
        tree.depth.append(depth)
        tree.slot.append(slot)
        tree.prob.append(prob)
        tree.util.append(0.0)
        queue.append((i, state, hist))
        if progress is not None and i % PROGRESS_EVERY == 0 and i:
            progress("tree", i, max_nodes)

    start = game.new_initial_state()
    queue: list = []                # depth first, so only a path's worth of states waits; renumbered at the end
    add(-1, start, tuple(note(-1, ("start", seen.table(start, p))) for p in range(2)), 0, -1, 1.0)
    index: dict = {}
    while queue:
        i, s, hist = queue.pop()
        decision = None if s.is_terminal() or game.is_chance(s) else game.decision(s)
        if s.is_terminal():             # decision None: nobody could decide, a dead end now
            tree.kind[i] = END
            tree.util[i] = first_player_utility(s)
            tree.paid |= s.payoffs is not None
            continue
        tree.first[i] = len(tree.kind)     # its children come next, side by side
        if game.is_chance(s):
            tree.kind[i] = CHANCE_NODE
            n = game.chance_outcomes(s)
            if n > max_nodes:
                raise Unsolvable(f"a chance event has {n:,} outcomes, more than the {max_nodes:,} positions allowed")
            outcomes: dict = {}
            for k in range(n):
                c = s.clone()
                game.apply(c, k, CHANCE, validate=False)
                ck = key(c)
                if ck in outcomes:
                    outcomes[ck][1] += 1
                else:
                    outcomes[ck] = [c, 1]
            for c, times in outcomes.values():
                h = tuple(note(hist[p], ("chance", seen.table(c, p))) for p in range(2))
                add(i, c, h, tree.depth[i] + 1, -1, times / n)
            tree.count[i] = len(outcomes)
            continue
        p, moves = decision
        p = int(p)
        labels = seen.labels(s, moves)
        simultaneous = getattr(game.pauses.get(s.ip), "simultaneous", False)
        ik = (p, hist[p], s.ip, labels)
        at = index.get(ik)
        if at is None:
            at = index[ik] = len(tree.infosets)
            tree.infosets.append(InfoSet(p, ik, list(moves), labels, tree.slots, s))
            tree.slots += len(moves)
        info = tree.infosets[at]
        info.nodes.append(i)
        tree.kind[i] = DECISION
        tree.player[i] = p
        tree.infoset[i] = at
        for a, m in enumerate(moves):
            c = s.clone()
            game.apply(c, m, p, validate=False)
            h = []
            for q in range(2):
                if q == p:
                    did = ("own", labels[a])
                elif simultaneous:
                    did = ("unseen",)
                else:
                    did = ("other", seen.value(s, tuple(m), q))
                h.append(note(hist[q], (did, seen.table(c, q))))
            add(i, c, tuple(h), tree.depth[i] + 1, info.offset + a, 1.0)
        tree.count[i] = len(moves)
    if progress is not None:
        progress("tree", len(tree.kind), max_nodes)
    return _breadth_first(tree)


def _breadth_first(tree: Tree) -> Tree:
    """The same tree numbered breadth first: each level side by side, as the solver reads it
    (a node's children stay side by side)."""
    order = [0]
    for i in order:
        order.extend(range(tree.first[i], tree.first[i] + tree.count[i]))
    new = [0] * len(order)
    for k, i in enumerate(order):
        new[i] = k
    out = Tree(infosets=tree.infosets, slots=tree.slots, paid=tree.paid)
    for name in ("kind", "player", "infoset", "count", "depth", "slot", "prob", "util"):
        old = getattr(tree, name)
        setattr(out, name, [old[i] for i in order])
    out.parent = [new[tree.parent[i]] if i else -1 for i in order]
    out.first = [new[tree.first[i]] if tree.count[i] else 0 for i in order]
    for info in tree.infosets:
        info.nodes = sorted(new[i] for i in info.nodes)
    return out


def not_two_player(n: int) -> str:
    return (f"solving is offered for two-player zero-sum games only, and this is a {n}-player game: "
            "with more players an 'optimal' strategy depends on what the others do, so no single value exists")
