"""Games played at the table beside random play: the same figures for both, so a designer
sees how people play differently from random moves.

For each game (rule file, variants, player count) among the table replays: how many games,
how many finished, decisions per finished game, wins by seat, the share won by people's
seats, the options taken (by people at the table; by everyone in random play) and the dead
ends met, and the rulings the table made (a dead end settled by a variant, or let stand); random play's figures come from `games` random games from `seed`, as `simulate`
plays them. The figures are counts and shares only: a handful of table games says little,
and the count is always printed beside them.
"""
from __future__ import annotations

import glob
import json
import os
import statistics
from collections import Counter

from ..analyses import replay as replay_mod
from ..analyses.simulate import game_rng, option_key, play_loop
from ..engine import CHANCE

HUMAN = "human"


def table_replays(folder: str) -> tuple[dict, list]:
    """{(rules, variants, players): [(replay, seats)]} of the replays with a person's seat
    in `folder` (and below), and [(file, why it was left out)]."""
    groups: dict = {}
    skipped = []
    for path in sorted(glob.glob(os.path.join(glob.escape(folder), "**", "*.json"), recursive=True)):
        try:
            rep = replay_mod.load(path)
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
            seats, made = data.get("seats"), data.get("rulings", [])
        except replay_mod.ReplayError as e:
            skipped.append((path, str(e).removeprefix(path + ": ")))
            continue
        if not isinstance(seats, list) or HUMAN not in seats:
            skipped.append((path, "no person played in it (not a table's game)"))
            continue
        rep.rulings = [r for r in made if isinstance(r, dict)] if isinstance(made, list) else []
        groups.setdefault((rep.rules, tuple(rep.variants), rep.players), []).append((rep, seats, path))
    return groups, skipped


class _Figures:
    """Counts over games of one game and player count."""

    def __init__(self, n: int):
        self.n = n
        self.games = self.finished = 0
        self.decisions: list = []
        self.wins = [0.0] * n
        self.people_won = 0.0
        self.people_seats = 0
        self.at_table = False
        self.options: Counter = Counter()
        self.dead_ends: Counter = Counter()
        self.rulings: Counter = Counter()     # at the table: 'question: what was chosen'

    def add(self, state, decisions: int, seats=None) -> None:
        self.games += 1
        if not state.is_terminal():
            return
        self.finished += 1
        self.decisions.append(decisions)
        if state.dead_end is not None:
            d = state.dead_end
            self.dead_ends[f"{d.kind} in {d.rule}"] += 1
        winners = [int(p) for p in state.outcome or ()]
        for p in winners:
            self.wins[p] += 1 / len(winners)
        if seats is not None:
            self.at_table = True
            people = [i for i, s in enumerate(seats) if s == HUMAN]
            self.people_seats += len(people)
            self.people_won += sum(1 / len(winners) for p in winners if p in people)

    def to_json(self) -> dict:
        done = self.finished
        ds = sorted(self.decisions)
        taken = sum(self.options.values())
        return {"games": self.games, "finished": done,
                "decisions_per_game": {"mean": round(sum(ds) / len(ds), 2) if ds else None,
                                       "median": statistics.median(ds) if ds else None},
                "win_share_by_seat": {str(i + 1): round(w / done, 4) if done else None for i, w in enumerate(self.wins)},
                **({"people_win_share": round(self.people_won / done, 4) if done else None,
                    "people_fair_share": round(self.people_seats / done / self.n, 4) if done else None}
                   if self.at_table else {}),
                "dead_ends": dict(sorted(self.dead_ends.items())),
                **({"rulings": dict(sorted(self.rulings.items()))} if self.at_table else {}),
                "options_taken": {k: round(v / taken, 4) for k, v in self.options.most_common(8)},
                "decisions_counted": taken}


def table_games(groups: dict, skipped: list):
    """(key, game, replays) for each group of `table_replays` whose rules load and are for its
    player count. The replays of a group whose rules cannot be used (edited since, moved,
    deleted) are added to `skipped`, each with why, as a file that is no replay is: one game
    that cannot be read leaves the figures of the others."""
    from ..engine import RuleError, compiled
    from ..language.diagnostics import RuleFileError
    from ..loader import load
    for key, replays in sorted(groups.items()):
        rules_path, variants, players = key
        try:
            rules, _ = load(rules_path, list(variants))
            if not rules.game.min_players <= players <= rules.game.max_players:
                raise ValueError(f"the game is for {rules.game.min_players} to {rules.game.max_players} players, "
                                 f"not {players}")
            game = compiled(rules, players)
        except RuleFileError as e:
            first = next((d for d in e.diagnostics if d.severity == "error"), None)
            why = (f"{first.path}:{first.span.line}:{first.span.column}: {first.message}" if first
                   else str(e).splitlines()[0])
            skipped.extend((path, f"its rules cannot be loaded ({why})") for _, _, path in replays)
            continue
        except (RuleError, ValueError) as e:
            skipped.extend((path, f"its rules cannot be played ({getattr(e, 'message', e)})") for _, _, path in replays)
            continue
        yield key, game, replays


def table_figures(game, replays, skipped: list) -> dict:
    """The table's figures: options counted over people's decisions only. A replay that no
    longer replays on these rules is added to `skipped` instead."""
    fig = _Figures(game.n)
    for rep, seats, path in replays:
        ips = []
        try:
            state = replay_mod.run(game, rep.actions, log=False, on_state=lambda s: ips.append(s.ip))
        except replay_mod.ReplayError as e:
            skipped.append((path, str(e).removeprefix(path + ": ")))
            continue
        decisions = 0
        for (actor, move), ip in zip(rep.actions, ips):
            if actor == CHANCE:
                continue
            decisions += 1
            if seats[actor] == HUMAN:
                owner = getattr(game.pauses.get(ip), "owner", None)
                fig.options[f"{owner}: {move[0]}" if owner else str(move[0])] += 1
        fig.add(state, decisions, seats)
        for r in getattr(rep, "rulings", ()):
            fig.rulings[f"{r.get('question') or r.get('rule')}: {r.get('title') or r.get('chosen')}"] += 1
    return fig.to_json()


def random_figures(game, games: int, seed: int) -> dict:
    fig = _Figures(game.n)
    for i in range(games):
        def watch(s, seat, moves, move):
            fig.options[option_key(game, s, move)] += 1
        played = play_loop(game, game_rng(seed, i), i, True, watch=watch)
        fig.add(played.state, sum(1 for a in played.actions if a[0] != CHANCE))
    return fig.to_json()
