"""Calibration: do bots play a game the way people at the table do? The table's finished games
beside games bots play (random, IS-MCTS, a declared strategy), each figure with a 95% interval:
the game's length (decisions per game) and each seat's share of the wins. A figure where the
intervals do not overlap is flagged as a difference beyond chance; where they do, as agreement
(the games say no more than that).

`scripted` plays table games with "people" driven by a non-random policy (a declared strategy),
through the Table as a person's choices are, so a designer can see the comparison before real
people have played.

May import: the table core (dsl/table), agents, analyses.
"""
from __future__ import annotations

import math
import os

from ..agents.spec import parse_agent
from ..agents.strategy import ready
from ..analyses.simulate import game_rng, play_loop
from ..engine import CHANCE
from .game_table import HUMAN, Table
from .sessions import interval


def share(wins: float, games: int) -> dict:
    """A share with its 95% Wilson interval (sound for small counts and for 0 or all)."""
    if not games:
        return {"n": 0, "share": None, "low": None, "high": None}
    p, z = wins / games, 1.96
    mid = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return {"n": games, "share": round(p, 4), "low": round(max(0.0, mid - half), 4), "high": round(min(1.0, mid + half), 4)}


def figures(games: list) -> dict:
    """[(decisions, winners, players)] of finished games -> length and seat balance with intervals."""
    seats = {}
    if games:
        players = games[0][2]
        for p in range(players):
            seats[str(p + 1)] = share(sum(1 / len(w) for _, w, _ in games if p in w and w), len(games))
    return {"games": len(games), "length": interval([d for d, _, _ in games]), "win_share": seats}


def _finished(state, decisions: int, players: int):
    if not state.is_terminal() or state.dead_end is not None:
        return None
    return (decisions, [int(p) for p in state.outcome or ()], players)


def bot_games(game, spec: str, games: int, seed: int) -> dict:
    """`games` games with every seat played by `spec` (as `simulate` plays them)."""
    out = []
    for i in range(games):
        agents = None
        if spec != "random":
            agents = [parse_agent(spec) for _ in range(game.n)]
            ready(agents, game)
        played = play_loop(game, game_rng(seed, i), i, True, agents)
        f = _finished(played.state, sum(1 for a in played.actions if a[0] != CHANCE), game.n)
        if f:
            out.append(f)
    return figures(out)


def table_games(replays, game) -> dict:
    """The table's finished games (`stats.table_replays`' replays), as `figures` counts them."""
    from ..analyses import replay as replay_mod
    out = []
    for rep, seats, path in replays:
        try:
            state = replay_mod.run(game, rep.actions, log=False)
        except replay_mod.ReplayError:
            continue
        f = _finished(state, sum(1 for a in rep.actions if a[0] != CHANCE), game.n)
        if f:
            out.append(f)
    return figures(out)


def flags(table: dict, bots: dict) -> list[dict]:
    """For each bot and figure: 'agree' when the 95% intervals overlap, 'differ' when not."""
    out = []
    for name, b in bots.items():
        pairs = [("length", table["length"], b["length"], "low", "high")]
        pairs += [(f"P{s} win share", table["win_share"].get(s), b["win_share"].get(s), "low", "high")
                  for s in table["win_share"]]
        for what, t, o, lo, hi in pairs:
            if not t or not o or t[lo] is None or o[lo] is None:
                continue
            apart = t[hi] < o[lo] or o[hi] < t[lo]
            out.append({"bot": name, "figure": what, "verdict": "differ" if apart else "agree",
                        "table": [t[lo], t[hi]], "bot_interval": [o[lo], o[hi]]})
    return out


def scripted(rules, players: int, people: str, others: str, games: int, seed: int, folder: str) -> list[str]:
    """Play `games` table games in which seat 1 is a person whose choices a non-random policy
    (`people`, e.g. strategy:NAME) makes, the other seats `others`; the replays saved in `folder`."""
    from ..engine import Game
    policy = parse_agent(people)
    ready([policy], Game(rules, players))       # a strategy the game lacks: ValueError before any file
    ready([parse_agent(others)], Game(rules, players))
    os.makedirs(folder, exist_ok=True)
    paths = []
    for i in range(games):
        path = os.path.join(folder, f"scripted-{i:03d}.json")
        t = Table(rules, players, [HUMAN] + [others] * (players - 1), seed + i, path)
        ready([policy], t.game)
        t.advance()
        rng = game_rng(seed, i)
        while not t.ended() and t.humans_to_act():
            seat = t.humans_to_act()[0]
            moves = t.state.legal_moves(seat)
            move = policy.act(t.state, seat, rng, moves)
            t.act(seat, moves.index(move) + 1)
        paths.append(path)
    return paths
