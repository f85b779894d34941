"""A saved game shown step by step in the browser: the table after any number of its actions,
from any seat's view or the designer's, built by the same Table and view as a live game, so a
seat's view of a replay hides exactly what it hid at the table.

May import: the table core (dsl/table), analyses.replay.
"""
from __future__ import annotations

from collections import OrderedDict

from .game_table import HUMAN, Table


class ReplayBook:
    """The steps of one replay. Step k is the table after the first k actions; a game that ended
    in a dead end opens at its last step, where the rules ran out."""

    KEPT = 8        # tables kept: stepping back and forth rebuilds none of the nearby ones

    def __init__(self, rules, replay, seats=None):
        self.rules = rules
        self.replay = replay
        self.seats = list(seats) if seats else [""] * replay.players
        self.steps = len(replay.actions)
        self.note = replay.note
        self._tables: OrderedDict = OrderedDict()
        self.dead_end = self.table(self.steps).state.dead_end is not None
        self.start = self.steps if self.dead_end else 0

    def table(self, step: int) -> Table:
        if step in self._tables:
            self._tables.move_to_end(step)
            return self._tables[step]
        r = self.replay
        # every seat "human": nothing is played for anyone, the table only shows the saved actions
        t = Table(self.rules, r.players, [HUMAN] * r.players, r.seed, None, r.variants, r.actions[:step])
        self._tables[step] = t
        if len(self._tables) > self.KEPT:
            self._tables.popitem(last=False)
        return t

    def view(self, step: int, seat, lang: str) -> dict:
        v = self.table(step).view(seat, lang)
        v["seats"] = self.seats
        v["options"] = []           # a replay is looked at, not played
        v["turn"]["waiting_for_you"] = False
        return v

    def fresh(self, step: int, seat, lang: str) -> int:
        """How many lines at the end of the log this step's action told."""
        now = len(self.table(step).log(seat, lang))
        return now - len(self.table(step - 1).log(seat, lang)) if step > 0 else now
