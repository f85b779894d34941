"""Who wins with perfect play: the exact value of a small two-player zero-sum game.

A game of perfect information is solved on its graph of states by minimax, chance averaged
(solve_graph); any other by CFR+ over the information sets the rule file's visibility makes
(solve_tree, cfr), which states its own error: the value lies between what each side's best
reply wins against the other's solution. A game is read as zero-sum from its pay-offs (they
must sum to zero in every game) or from its winners (+1 a win, -1 a loss, 0 a draw).

Beside the value: the first player's advantage, the optimal opening in the narrator's words,
and how far each agent is from optimal play: what a best reply wins against it, exactly for
`random` (uniform at every decision), estimated for the searching agents from the moves they
pick in a number of tries at every position play can bring them to.

May import the engine, the agents, the narrator and the solvers beside it.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Optional

from ..engine.program import chosen_seats, param_names, plain_move
from . import cfr
from .solve_graph import build_graph, reached, values
from .solve_tree import CHANCE_NODE, DECISION, Unsolvable, build_tree

FORMAT = "playtest-solve/1"
DEFAULT_MAX_STATES = 2_000_000
DEFAULT_ITERATIONS = 2000
DEFAULT_SAMPLES = 20
OPENING_ROWS = 12


@dataclass
class SolveReport:
    game: str
    rules: str
    players: int
    solved: bool = False
    refused: str = ""               # why the game was not solved, in plain words
    size: Optional[int] = None      # the states or positions found before a size limit stopped the search
    information: str = ""           # perfect | imperfect
    reading: str = ""               # payoffs | win-loss
    positions: int = 0
    information_sets: Optional[int] = None
    iterations: Optional[int] = None
    value: float = 0.0
    low: float = 0.0
    high: float = 0.0
    opening: list = field(default_factory=list)
    agents: list = field(default_factory=list)
    seconds: float = 0.0            # solving, not measuring the agents; the text's alone: the JSON stays byte-identical

    def to_json(self) -> dict:
        out = {"format": FORMAT, "game": self.game, "rules": self.rules, "players": self.players,
               "solved": self.solved}
        if not self.solved:
            return {**out, "refused": self.refused, "size": self.size}
        return {**out, "information": self.information, "reading": self.reading, "positions": self.positions,
                "information_sets": self.information_sets, "iterations": self.iterations,
                "value": _r(self.value), "value_fraction": fraction(self.value, self.low, self.high),
                "value_bounds": [_r(self.low), _r(self.high)], "opening": self.opening, "agents": self.agents}


def _r(x: float) -> float:
    return round(x, 6) + 0.0


def fraction(value: float, low: float, high: float) -> Optional[str]:
    """The value as a simple fraction, when the bounds pin one down: no other fraction of a
    denominator as small comes near them (they are far closer than 1/d² apart)."""
    f = Fraction(value).limit_denominator(100)
    d = f.denominator
    if d == 1 or not low - 1e-9 <= float(f) <= high + 1e-9 or (high - low) * d * d >= 0.05:
        return None
    return f"{f.numerator}/{d}"


def solve(game, *, agents=(), max_states: int = DEFAULT_MAX_STATES, iterations: int = DEFAULT_ITERATIONS,
          samples: int = DEFAULT_SAMPLES, seed: int = 1, lang: str = "en",
          progress: Optional[Callable[[str, int, Optional[int]], None]] = None) -> SolveReport:
    """Solve `game` (two players, zero-sum) and measure each agent against the solution."""
    report = SolveReport(game.name, game.path, game.n)
    report.seconds = time.perf_counter()        # until solved (_solved)
    try:
        graph = build_graph(game, max_states, progress)
        if graph is not None:
            _perfect(report, game, graph, agents, samples, seed, lang, progress)
        else:
            tree = build_tree(game, max_states, progress)
            _imperfect(report, game, tree, agents, iterations, samples, seed, lang, progress)
    except Unsolvable as e:
        report.refused = str(e)
        report.size = e.size
        return report
    report.solved = True
    return report


def _solved(report) -> None:
    report.seconds = time.perf_counter() - report.seconds


# ------------------------------------------------------------------ perfect information

def _perfect(report, game, g, agents, samples, seed, lang, progress):
    report.information = "perfect"
    report.reading = _reading(g.paid)
    report.positions = g.size
    v = values(g)
    report.value = report.low = report.high = v[0]
    _solved(report)
    words = _Words(game, lang)
    opening = _first_decisions(g.kind, g.succ.__getitem__)
    shown = words.differences([g.states[i] for i in opening], g.player[opening[0]] if opening else 0)
    for i, seen in zip(opening, shown):
        moves = game.decision(g.states[i].clone())[1]
        best = max(v[j] for j in g.succ[i]) if g.player[i] == 0 else min(v[j] for j in g.succ[i])
        report.opening.append({"player": g.player[i] + 1, "seen": seen,
                               "moves": [{"move": words.move(g.states[i], g.player[i], m), "value": _r(v[j]),
                                          "optimal": abs(v[j] - best) < 1e-12} for m, j in zip(moves, g.succ[i])]})
    for agent in agents:
        ask = _Asked(game, agent, samples, seed, g.states.__getitem__, progress)
        seat1 = -values(g, reached(g, 0, ask), responder=1)[0]
        seat2 = values(g, reached(g, 1, ask), responder=0)[0]
        report.agents.append(_agent_row(agent, ask, seat1, seat2, samples, "positions"))


def _first_decisions(kind, succ) -> list:
    """The game's first decisions: the nodes where a player decides that chance alone leads to."""
    out, todo, seen = [], [0], {0}
    for i in todo:
        if kind[i] == DECISION:
            out.append(i)
        elif kind[i] == CHANCE_NODE:
            for j in succ(i):
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
    return out


# ------------------------------------------------------------------ imperfect information

def _imperfect(report, game, tree, agents, iterations, samples, seed, lang, progress):
    report.information = "imperfect"
    report.reading = _reading(tree.paid)
    report.positions = tree.size
    report.information_sets = len(tree.infosets)
    a = cfr.Arrays(tree)
    scale = max((abs(u) for u in tree.util), default=1.0) or 1.0
    sigma, report.iterations, report.low, report.high = cfr.cfr_plus(a, iterations, tolerance=1e-5 * scale,
                                                                     progress=progress)
    report.value = min(max(a.value(sigma), report.low), report.high)
    _solved(report)
    words = _Words(game, lang)
    opening = list(dict.fromkeys(tree.infoset[i] for i in _first_decisions(tree.kind, tree.children)))
    w = a.edge_weights(sigma)
    _, other = a.reaches(w, tree.infosets[opening[0]].player if opening else 0)
    shown = words.differences([tree.infosets[k].state for k in opening],
                              tree.infosets[opening[0]].player if opening else 0)
    for k, seen in zip(opening, shown):
        info = tree.infosets[k]
        chance = sum(float(other[h]) for h in info.nodes)
        report.opening.append({"player": info.player + 1, "seen": seen, "probability": _r(chance),
                               "moves": [{"move": words.move(info.state, info.player, m),
                                          "probability": _r(float(sigma[info.offset + x]))}
                                         for x, m in enumerate(info.moves)]})
    for agent in agents:
        ask = _Asked(game, agent, samples, seed, lambda at: tree.infosets[at].state, progress)
        seat1 = cfr.best_response(a, cfr.reached_policy(a, 0, ask), 1)[0]
        seat2 = cfr.best_response(a, cfr.reached_policy(a, 1, ask), 0)[0]
        report.agents.append(_agent_row(agent, ask, seat1, seat2, samples, "information sets"))


# ------------------------------------------------------------------ shared

def _reading(paid: bool) -> str:
    return "payoffs" if paid else "win-loss"


class _Asked:
    """An agent's move probabilities where play asks it, uniform for random (exact), else the
    share of `samples` tries that picked each move, with the count of places it was asked."""

    def __init__(self, game, agent, samples, seed, state_of, progress):
        self.game, self.agent, self.samples, self.seed = game, agent, samples, seed
        self.state_of = state_of
        from ..agents.search import RandomAgent
        self.exact = isinstance(agent, RandomAgent)
        self.asked = 0
        self.progress = progress

    def __call__(self, key) -> list:
        s = self.state_of(key)         # any position of the set will do: the agent cannot tell them apart
        player, moves = self.game.decision(s.clone())
        if self.exact:
            return [1.0 / len(moves)] * len(moves)
        self.asked += 1
        if self.progress is not None:
            self.progress(f"agent {self.agent.name}", self.asked, None)
        counts = [0] * len(moves)
        for k in range(self.samples):
            rng = random.Random(self.seed * 1_000_003 + key * 1_009 + k)
            counts[moves.index(self.agent.act(s.clone(), player, rng, list(moves)))] += 1
        return [c / self.samples for c in counts]


def _agent_row(agent, ask, seat1, seat2, samples, where) -> dict:
    row = {"agent": agent.name, "exact": ask.exact, "seat_1": _r(seat1), "seat_2": _r(seat2),
           "exploitability": _r((seat1 + seat2) / 2)}
    if not ask.exact:
        row["estimate"] = {"samples": samples, "asked_at": ask.asked, "asked_at_kind": where}
    return row


class _Words:
    """Moves and what a player sees, in the narrator's words."""

    def __init__(self, game, lang):
        from ..printing.narrate import Narrator
        self.game = game
        self.n = Narrator(game, lang)

    def move(self, s, player, move) -> str:
        pause = self.game.pauses[s.ip]
        said = self.n.event({"event": "choose", "player": player, "move": plain_move(move),
                             "params": param_names(pause, move[0]), **chosen_seats(move)})
        return said.split(": ", 1)[1] if ": " in said else said

    def _apart(self) -> list:
        """For each piece, what tells it from the pieces that print alike ('3' and '3'): the
        attributes whose values differ among them, 'weight 2'; '' when none does."""
        g, n = self.game, self.n
        alike: dict = {}
        for x in range(len(g.piece_attrs)):
            alike.setdefault(n.card(x), []).append(x)
        out = [""] * len(g.piece_attrs)
        for xs in alike.values():
            names = sorted({a for x in xs for a in g.piece_attrs[x]})
            differ = [a for a in names if len({str(g.piece_attrs[x].get(a)) for x in xs}) > 1]
            for x in xs if differ else ():
                told = [f"{n.name(a)}{n.say('', ' ')}{n.value(g.piece_attrs[x].get(a))}" for a in differ]
                out[x] = n.say("(", " (") + n.say("、", ", ").join(told) + ")"
        return out

    def differences(self, states, player) -> list:
        """For each state, what `player` sees that is not the same in all of them: the zones
        they see, named with their pieces ('P1's hand: K')."""
        if len(states) < 2:
            return [None] * len(states)
        g, n = self.game, self.n
        visible = [z for z in range(len(g.zone_seen)) if g.zone_visible(z, player)]
        apart = self._apart()
        def named(st, x):
            return n.card(x) + apart[x] + (f"({st.face[x]})" if st.face[x] is not None else "")
        differ = [z for z in visible if len({tuple(named(st, x) for x in st.zones[z]) for st in states}) > 1]
        out = []
        for st in states:
            parts = [f"{n.zone(g.zone_names[z])}: " + (n.say("、", ", ").join(named(st, x) for x in st.zones[z])
                                                      or n.say("なし", "nothing")) for z in differ]
            out.append(n.say("、", "; ").join(parts) or None)
        return out
