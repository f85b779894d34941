"""CFR+ and best responses on an explicit game tree (solve_tree.Tree).

A strategy is one array over the tree's slots: for each information set, a probability for
each of its moves, side by side from the set's offset. CFR+ (Tammelin 2014: regret matching
with regrets floored at zero, alternating updates, the average strategy weighted by the
iteration) runs on numpy arrays a level of the tree at a time, so a pass over a small poker
game's tree is a few dozen array operations, not a Python loop over its nodes.

A best response is exact: the move that does best against the other strategy at each of the
responder's information sets, found from the deepest sets up (perfect recall makes that an
order). The value of the game lies between what each player's best response wins against
the other's average strategy, so the solver states its own error.

May import numpy and solve_tree.
"""
from __future__ import annotations

from typing import Callable, Optional

import numpy as np

from .solve_tree import DECISION, END, Tree


class Arrays:
    """The tree as numpy arrays, and its levels (breadth-first order keeps each contiguous)."""

    def __init__(self, tree: Tree):
        self.tree = tree
        n = tree.size
        self.parent = np.array(tree.parent, dtype=np.int64)
        self.slot = np.array(tree.slot, dtype=np.int64)
        self.prob = np.array(tree.prob, dtype=np.float64)
        self.util = np.array(tree.util, dtype=np.float64)
        player = np.array(tree.player, dtype=np.int64)
        self.mover = np.full(n, -1, dtype=np.int64)          # who chose the move into each node (-1: chance)
        self.mover[1:] = player[self.parent[1:]]
        self.is_move = self.slot >= 0
        self.safe_slot = np.where(self.is_move, self.slot, 0)
        depth = tree.depth
        self.levels = []
        lo = 0
        for i in range(1, n + 1):
            if i == n or depth[i] != depth[lo]:
                self.levels.append((lo, i))
                lo = i
        infosets = tree.infosets
        self.offsets = np.array([I.offset for I in infosets], dtype=np.int64)
        sizes = np.array([len(I.moves) for I in infosets], dtype=np.int64)
        self.sizes = sizes
        self.per_slot = np.repeat(sizes, sizes).astype(np.float64)
        self.slot_player = np.repeat(np.array([I.player for I in infosets], dtype=np.int64), sizes)
        self.rep = np.array([I.nodes[0] for I in infosets], dtype=np.int64)
        self.into = [np.nonzero(self.mover == p)[0] for p in range(2)]      # nodes a move of p leads to

    def uniform(self) -> np.ndarray:
        return 1.0 / self.per_slot

    def normalised(self, weights: np.ndarray) -> np.ndarray:
        """Each set's weights as probabilities (uniform where they are all zero)."""
        if not len(weights):
            return weights
        total = np.repeat(np.add.reduceat(weights, self.offsets), self.sizes)
        return np.where(total > 0, weights / np.where(total > 0, total, 1.0), 1.0 / self.per_slot)

    def edge_weights(self, sigma: np.ndarray) -> np.ndarray:
        """The probability of each node given its parent: chance's or the mover's strategy."""
        return np.where(self.is_move, sigma[self.safe_slot] if len(sigma) else 1.0, self.prob)

    def reaches(self, w: np.ndarray, p: int):
        """Each node's chance of being reached: p's own part, and everyone else's (chance's too)."""
        own_w = np.where(self.mover == p, w, 1.0)
        other_w = np.where(self.mover == p, 1.0, w)
        own = np.ones(len(w))
        other = np.ones(len(w))
        for lo, hi in self.levels[1:]:
            par = self.parent[lo:hi]
            own[lo:hi] = own[par] * own_w[lo:hi]
            other[lo:hi] = other[par] * other_w[lo:hi]
        return own, other

    def values(self, w: np.ndarray) -> np.ndarray:
        """Each node's value to the first player when everyone plays by `w` (edge_weights)."""
        v = self.util.copy()
        levels = self.levels
        for k in range(len(levels) - 1, 0, -1):
            lo, hi = levels[k]
            plo, phi = levels[k - 1]
            v[plo:phi] += np.bincount(self.parent[lo:hi] - plo, weights=w[lo:hi] * v[lo:hi], minlength=phi - plo)
        return v

    def value(self, sigma: np.ndarray) -> float:
        return float(self.values(self.edge_weights(sigma))[0])


def cfr_plus(a: Arrays, iterations: int, tolerance: float = 0.0, first_check: int = 25,
             progress: Optional[Callable[[str, int, Optional[int]], None]] = None):
    """CFR+ for up to `iterations` iterations, stopping early once the bounds on the value are
    `tolerance` apart (looked at after `first_check` iterations, then after twice as many each
    time, and at the end: a look costs two best responses). Every average strategy bounds the
    value, so the bounds are the tightest of those looked at. Returns (average strategy,
    iterations run, low, high)."""
    n_slots = a.tree.slots
    regret = np.zeros(n_slots)
    total = np.zeros(n_slots)
    done = 0
    check = first_check
    low, high = -np.inf, np.inf
    for t in range(1, iterations + 1):
        for p in range(2):
            sigma = a.normalised(regret)
            w = a.edge_weights(sigma)
            own, other = a.reaches(w, p)
            v = a.values(w)
            sign = 1.0 if p == 0 else -1.0
            j = a.into[p]
            par = a.parent[j]
            gain = other[par] * sign * (v[j] - v[par])
            regret += np.bincount(a.slot[j], weights=gain, minlength=n_slots)
            np.maximum(regret, 0.0, out=regret)
            mine = a.slot_player == p
            total[mine] += (t * np.repeat(own[a.rep], a.sizes) * sigma)[mine]
        done = t
        if progress is not None and t % 10 == 0:
            progress("solve", t, iterations)
        if t == check or t == iterations:
            check *= 2
            lo, hi = bounds(a, a.normalised(total))
            low, high = max(low, lo), min(high, hi)
            if high - low <= tolerance:
                break
    return a.normalised(total), done, low, high


def best_response(a: Arrays, sigma: np.ndarray, p: int):
    """What player `p` wins (their own pay-off) by the best reply to `sigma`'s moves for the
    other player, and the move index it takes at each of p's information sets (None elsewhere)."""
    tree = a.tree
    n = tree.size
    kind, player, infoset, first, count = tree.kind, tree.player, tree.infoset, tree.first, tree.count
    w = a.edge_weights(sigma).tolist()
    _, other = a.reaches(a.edge_weights(sigma), p)
    other = other.tolist()
    level = [0] * n                 # p's own moves on the way to each node
    for i in range(1, n):
        j = tree.parent[i]
        level[i] = level[j] + (1 if player[j] == p else 0)
    sign = 1.0 if p == 0 else -1.0
    val = [0.0] * n
    choice: list = [None] * len(tree.infosets)
    for i in sorted(range(n), key=lambda i: (-level[i], -i)):
        k = kind[i]
        if k == END:
            val[i] = sign * tree.util[i]
        elif k == DECISION and player[i] == p:
            at = infoset[i]
            if choice[at] is None:
                info = tree.infosets[at]
                q = [0.0] * len(info.moves)
                for h in info.nodes:
                    r = other[h]
                    for m in range(len(q)):
                        q[m] += r * val[first[h] + m]
                choice[at] = max(range(len(q)), key=lambda m: (q[m], -m))
            val[i] = val[first[i] + choice[at]]
        else:
            f = first[i]
            val[i] = sum(w[c] * val[c] for c in range(f, f + count[i]))
    return val[0], choice


def bounds(a: Arrays, sigma: np.ndarray) -> tuple[float, float]:
    """The first player's value lies between these: what P1 keeps when P2 replies best to
    sigma, and what P1 wins replying best to sigma."""
    low = -best_response(a, sigma, 1)[0]
    high = best_response(a, sigma, 0)[0]
    return low, high


def exploitability(a: Arrays, sigma: np.ndarray) -> tuple[float, float, float]:
    """What a best reply wins against `sigma` sitting in seat 1, against it in seat 2, and the
    mean of the two: 0 for optimal play (the game's value cancels over the two seats)."""
    low, high = bounds(a, sigma)
    return -low, high, (high - low) / 2


def reached_policy(a: Arrays, seat: int, decide: Callable[[int], list]) -> np.ndarray:
    """A strategy for `seat` asked only where play can reach it when the other player may do
    anything: `decide(information set)` gives its move probabilities there (uniform elsewhere,
    which no reachable position reads)."""
    tree = a.tree
    sigma = a.uniform()
    asked = [False] * len(tree.infosets)
    live = [False] * tree.size
    live[0] = True
    kind, player, infoset, first, count = tree.kind, tree.player, tree.infoset, tree.first, tree.count
    for i in range(tree.size):
        if not live[i] or kind[i] == END:
            continue
        f = first[i]
        if kind[i] == DECISION and player[i] == seat:
            at = infoset[i]
            off = tree.infosets[at].offset
            if not asked[at]:
                asked[at] = True
                sigma[off:off + count[i]] = decide(at)
            for m in range(count[i]):
                if sigma[off + m] > 0:
                    live[f + m] = True
        else:
            for c in range(f, f + count[i]):
                live[c] = True
    return sigma
