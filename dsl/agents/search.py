"""The agents: uniform random, determinized flat Monte Carlo, and information-set MCTS.

Every agent answers `act(state, player, rng, moves=None)` with one of the moves
`game.legal_moves(state, player)` lists, never changes `state`, and draws all its
randomness from `rng`, so a seed gives the same decisions. The searching agents only look
at the true state through a `Determinizer` (what the player observes), so they cannot
peek; their playouts are uniformly random moves and uniform chance outcomes.

ISMCTS is single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012): one
tree of the acting player's information sets, a fresh determinization each iteration,
UCB with availability counts, and each node's statistics kept for the player who moved
into it (multiplayer returns, one share per winner). At a simultaneous choice the tree is
decoupled (DUCT): each chooser picks by UCB over their own statistics, blind to the
others' picks. After a chance outcome the tree branches on what the searching player sees
of it, and merges what they do not.

May import the engine and .infoset.
"""
from __future__ import annotations

import math
import random
import time

from ..engine.errors import CARRIED
from ..engine.program import CHANCE
from .infoset import Determinizer, simultaneous_pause, visible_zones


class RandomAgent:
    """Uniform over the legal moves: `rng.choice(moves)`, exactly as random play draws."""
    name = "random"

    def act(self, state, player, rng: random.Random, moves=None):
        if moves is None:
            moves = state.game.legal_moves(state.clone(), player)
        return rng.choice(moves)


class _Budget:
    """Iterations, and optionally seconds (a time budget makes the agent nondeterministic)."""

    def __init__(self, iterations: int, seconds):
        self.iterations = iterations
        self.seconds = seconds

    def runs(self):
        if self.seconds is None:
            yield from range(self.iterations)
            return
        end = time.perf_counter() + self.seconds
        for i in range(self.iterations):
            if i and time.perf_counter() >= end:
                return
            yield i


def utility(game, s) -> list:
    """What a finished game is worth to each player, what the agents play for: its pay-offs
    when it ends with them (chips, not only the win), else its share of the win; a rollout cut
    at its horizon, the standing on the score."""
    if s.outcome is None and s.dead_end is None:
        return standing(game, s)
    return game.returns(s) if s.payoffs is not None else win_share(game, s)


def win_share(game, s) -> list:
    """Each player's share of the win: winners share 1; a game that ends with nobody winning
    is a draw, 1/n each; a dead end (a gap in the rules) is worth 0 to all."""
    if s.outcome is not None and not s.outcome and not game.cooperative:
        return [1.0 / game.n] * game.n
    return game.win_shares(s)


def _rollout(game, s, rng, depth=None, policy=None) -> None:
    """Random moves and uniform chance to the end (the same draws as random play), played out
    in generated code where the game has it (RandomPlay.play_out); with a `policy` (a strategy),
    every decision is its move instead. With a `depth`, in a game with a `score`, it stops at
    the first decision after `depth` actions (decisions and chance outcomes), and `utility`
    values the state by the standing."""
    if depth is not None and game.score_of is None:
        depth = None
    if policy is None:
        if depth is None:
            if game.play_out(s, rng, None):
                return
        else:
            try:
                if game.play_out(s, rng, _Horizon(depth)):
                    return
            except _Reached:
                return
    taken = 0
    while s.outcome is None and s.dead_end is None:
        taken += 1
        if game.is_chance(s):
            game.apply(s, rng.randrange(game.chance_outcomes(s)), validate=False)
            continue
        if depth is not None and taken > depth:
            return
        decision = game.decision(s)
        if decision is None:
            return
        player, moves = decision
        move = rng.choice(moves) if policy is None else policy.rollout(game, s, player, moves, rng)
        game.apply(s, move, player, validate=False)


class _Reached(BaseException):
    """A rollout's horizon reached; a BaseException, so that no handler of the game's errors in
    the generated play-out takes it for a dead end."""


class _Horizon(list):
    """The play-out's record of actions, used as a counter: the play-out records a decision
    before it takes it (a chance outcome once drawn), so it stops at a decision, with all that
    comes before it done, once `depth` actions are taken."""
    __slots__ = ("depth", "taken")

    def __init__(self, depth: int):
        super().__init__()
        self.depth = depth
        self.taken = 0

    def append(self, action) -> None:
        if self.taken >= self.depth and action[0] != CHANCE:
            raise _Reached()
        self.taken += 1


def standing(game, s) -> list:
    """What a game cut short at a rollout's horizon is worth: the players ahead on the rule
    file's `score` share the win, as if it ended there."""
    if game.score_of is None:
        return [0.0] * game.n      # a rollout that stopped with the game unfinished: as a dead end
    try:
        scores = game.scores(s)
    except CARRIED:
        return [0.0] * game.n      # a score that cannot be worked out here: as a dead end
    top = max(scores)
    leaders = [i for i, v in enumerate(scores) if v == top]
    return [1.0 / len(leaders) if i in leaders else 0.0 for i in range(game.n)]


class _Searcher:
    """What the searching agents share: the root moves, and no search for a forced move."""
    determinizer = Determinizer         # what the agent may know: the tests swap in the true state
    recalls = True                      # the play loop keeps the game's log, which the Determinizer's Recall follows

    def act(self, state, player, rng: random.Random, moves=None):
        moves = list(moves) if moves is not None else state.game.legal_moves(state.clone(), player)
        return moves[0] if len(moves) == 1 else self.choose(state, player, moves, rng)


class FlatAgent(_Searcher):
    """Determinized flat Monte Carlo: each iteration deals the hidden information again,
    tries the next root move in turn, and plays randomly to the end; the move with the best
    mean return wins (ties to the earlier listed move)."""

    def __init__(self, iterations: int, seconds=None):
        self.budget = _Budget(iterations, seconds)
        self.name = f"flat:{iterations}" + (f":time={seconds}" if seconds is not None else "")

    def choose(self, state, player, moves, rng):
        game = state.game
        det = self.determinizer(game, state, player)
        total = [0.0] * len(moves)
        tries = [0] * len(moves)
        for i in self.budget.runs():
            k = i % len(moves)
            s = det.sample(rng)
            game.apply(s, moves[k], player, validate=False)
            _rollout(game, s, rng)
            total[k] += utility(game, s)[player]
            tries[k] += 1
        best = max(range(len(moves)), key=lambda k: (total[k] / tries[k] if tries[k] else -1.0, -k))
        return moves[best]


class _Edge:
    """A move out of an information set: its statistics for the player who takes it, and
    the information set it leads to."""
    __slots__ = ("visits", "avail", "reward", "node")

    def __init__(self):
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.node = None


class _Node:
    __slots__ = ("edges", "joint", "chance")

    def __init__(self):
        self.edges = {}          # (actor, move) -> _Edge; at a simultaneous choice one dict serves all choosers
        self.joint = {}          # a simultaneous choice: the chosen moves, in order -> _Node
        self.chance = {}         # what the searcher sees of a chance outcome -> _Node


class ISMCTSAgent(_Searcher):
    """Single-observer information-set MCTS with `iterations` iterations and exploration `c`;
    with a `depth`, rollouts of at most that many actions, valued by the standing on the score."""

    def __init__(self, iterations: int, c: float = 0.7, seconds=None, depth=None, rollout=None):
        self.budget = _Budget(iterations, seconds)
        self.c = c
        self.depth = depth
        self.rollout = rollout          # a strategy that plays the imagined games out, or None: random moves
        self.name = f"ismcts:{iterations}" + (f":c={c}" if c != 0.7 else "") \
            + (f":depth={depth}" if depth is not None else "") + (f":time={seconds}" if seconds is not None else "") \
            + (f"/{rollout.strategy}" if rollout is not None else "")

    def choose(self, state, player, moves, rng):
        # rollouts played by declared strategies may also say which moves are worth searching:
        # a bid's fifty counts are then a handful, each searched well rather than all barely
        narrow = getattr(self.rollout, "candidates", None)
        only = narrow(state.game, self.determinizer(state.game, state, player), player, moves, rng) if narrow else None
        root = self.search(state, player, rng, only)
        best, most = moves[0], -1
        for m in moves:
            e = root.edges.get((player, m))
            if e is not None and e.visits > most:
                best, most = m, e.visits
        return best

    def search(self, state, player, rng: random.Random, only=None) -> _Node:
        game = state.game
        det = self.determinizer(game, state, player)
        visible = visible_zones(game, player)
        root = _Node()
        c = self.c
        for _ in self.budget.runs():
            s = det.sample(rng)
            node = root
            path = []                     # (edge, actor)
            expanded = False
            while s.outcome is None and s.dead_end is None and not expanded:
                if game.is_chance(s):
                    game.apply(s, rng.randrange(game.chance_outcomes(s)), validate=False)
                    node = _child(node.chance, _seen(s, visible, player))
                    continue
                if simultaneous_pause(game, s) is not None:
                    actors = game.current_actors(s)
                    chosen = []
                    for a in actors:
                        ms = game.legal_moves(s, a)
                        if not ms:
                            break
                        m, edge, new = _select(node, a, ms, rng, c)
                        expanded |= new
                        chosen.append((a, m))
                        path.append((edge, a))
                    else:
                        for a, m in chosen:
                            game.apply(s, m, a, validate=False)
                        node = _child(node.joint, tuple(chosen))
                        continue
                    game.decision(s)      # someone cannot move: the engine ends the game in a dead end
                    break
                decision = game.decision(s)
                if decision is None:
                    break
                a, ms = decision
                if only and node is root:
                    ms = [x for x in ms if x in only] or ms
                m, edge, expanded = _select(node, a, ms, rng, c)
                path.append((edge, a))
                game.apply(s, m, a, validate=False)
                if only:
                    # the tree stops at the root: below it every seat plays as the strategies do,
                    # not by moves tried at random, which would make a reckless bid look safe
                    break
                if edge.node is None:
                    edge.node = _Node()
                node = edge.node
            _rollout(game, s, rng, self.depth, self.rollout)
            returns = utility(game, s)
            for edge, a in path:
                edge.visits += 1
                edge.reward += returns[a]
        return root


def _child(table, key) -> _Node:
    n = table.get(key)
    if n is None:
        n = table[key] = _Node()
    return n


def _select(node, actor, moves, rng, c):
    """(move, edge, whether it is new): an untried move at random, else the best UCB with
    availability counts. Every listed move's availability counts this visit."""
    edges = node.edges
    untried = []
    known = []
    for m in moves:
        e = edges.get((actor, m))
        if e is None:
            untried.append(m)
        else:
            e.avail += 1
            known.append((m, e))
    if untried:
        m = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
        e = edges[(actor, m)] = _Edge()
        e.avail = 1
        return m, e, True
    best, best_e, best_v = None, None, -math.inf      # pay-offs may be below -1
    for m, e in known:
        v = e.reward / e.visits + c * math.sqrt(math.log(e.avail) / e.visits) if e.visits else math.inf
        if v > best_v:
            best, best_e, best_v = m, e, v
    return best, best_e, False


def _seen(s, visible, player) -> tuple:
    """What the searching player sees of the whole table: the key of a chance outcome."""
    face, revealed, looked = s.face, s.revealed, s.looked
    return tuple(tuple((p, face[p]) for p in z) if visible[i]
                 else tuple((p, face[p]) if revealed[p] or player in looked.get(p, ()) else -1 for p in z)
                 for i, z in enumerate(s.zones))
