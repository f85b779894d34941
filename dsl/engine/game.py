"""A game: one rule file compiled for one player count, played as a state machine.

The turn structure is compiled to a flat list of instructions with jumps (each one a
small closure over the rule tree). A state holds only the index of the next
instruction and the values of the local slots, so a game's progress is plain data.
Running stops at a decision (a player's choice, or a chance outcome) or at the end.
Anything the rules do not cover ends the game with a DeadEnd, never an exception.

The class is put together from its jobs: Tables (declarations), Compiler (the program),
Moves (legal moves) and Machine (play).

May import: the language, the constructs, and the rest of the engine.
"""
from __future__ import annotations

import hashlib
import pickle
from contextlib import contextmanager
from typing import Callable

from ..constructs.registry import hook
from ..language import syntax as S
from .compiler import Compiler
from .errors import IllegalMove, RuleError
from .machine import Machine
from .random_play import RandomPlay
from .moves import Moves
from .program import CHANCE, Chance
from .tables import Tables
from .values import Player, Team

__all__ = ["CHANCE", "Chance", "Game", "IllegalMove", "RuleError", "compiled"]


class Game(Tables, Compiler, Moves, Machine, RandomPlay):
    """One rule file compiled for one player count. Shared by all its states."""

    def __init__(self, rules: S.RuleFile, n_players: int):
        self._lay_out(rules, n_players)
        with _errors_as_rule_errors():
            self.compile_all()
            self.compile_starting_values()
            declared = self.rules.of(S.Score)
            # (state, seat) -> number, or None: what the rule file says measures standing
            self.score_of = hook(declared[0], "compile")(self, declared[0]) if declared else None
            coop = self.rules.of(S.Cooperative)
            # state -> the team's score, or None: a cooperative game's one number
            self.team_score = hook(coop[0], "compile")(self, coop[0]) if coop else None
        self.live_at: dict[int, tuple[int, ...]] = {
            ip: tuple(sl for sl, (a, b) in sorted(self.slot_scopes.items()) if a <= ip < b) for ip in self.pauses}
        self.blank_state()              # starting values are the same in every game: a bad one is found here, once

    @classmethod
    def laid_out(cls, rules: S.RuleFile, n_players: int) -> "Game":
        """The declarations at this player count (zones, pieces and their attributes,
        parameters), without the program: what counting pieces needs, at a fraction of a
        compile (the rulebook counts them at every player count). It cannot be played."""
        game = cls.__new__(cls)
        game._lay_out(rules, n_players)
        return game

    def _lay_out(self, rules: S.RuleFile, n_players: int):
        self.rules = rules
        self.path = rules.path
        self.n = n_players
        game = rules.game
        self.name = game.name
        coop = rules.of(S.Cooperative)
        # all seats win or lose together; `team_lower`: the team's score is better when lower
        self.cooperative = bool(coop)
        self.team_lower = bool(coop) and coop[0].better == "lower"
        scored = rules.of(S.Score)
        self.score_lower = bool(scored) and scored[0].better == "lower"
        self.direction = 1 if game.seating == "clockwise" else -1
        self._players = tuple(Player(i) for i in range(n_players))
        # next_player (step 1) and previous_player (-1): the players after each one in turn order, itself last
        self.turn_after = {step: {p: tuple(self._players[(p + self.direction * step * k) % n_players]
                                           for k in range(1, n_players + 1)) for p in self._players} for step in (1, -1)}
        size = max(game.team_size, 1)
        # `teams of N`: seats in order make the teams; a remainder makes one smaller team
        self.teams = tuple(Team(k) for k in range((n_players + size - 1) // size))
        self.team_members = tuple(self._players[k * size:(k + 1) * size] for k in range(len(self.teams)))
        self.team_of = tuple(self.teams[i // size] for i in range(n_players))
        self.code: list[Callable] = []
        self.owner: list[str] = []
        self.spans: list[S.Span] = []
        self.pauses: dict[int, object] = {}
        self.block_names: list[tuple[str, str, S.Span]] = []    # (kind, name, span) per coverage id
        self.together: list[tuple[int, int]] = []      # code ranges of `together` blocks: triggers wait
        self.n_slots = 0                # local slots, allocated while compiling
        self.slot_scopes: dict[int, tuple[int, int]] = {}   # slot -> [first, end) instructions where it is live
        self.value_fns: dict = {}
        self.memo_keys: dict[str, int] = {}     # value name -> its key in a state's memo
        self.inlining: list[str] = []  # rules being compiled (a rule cannot `do` itself)
        with _errors_as_rule_errors():
            self.build_tables()

    def scores(self, s):
        """Every seat's score in state `s` by the rule file's `score` declaration, or None
        without one. `returns` is not this: it is the pay-offs of a game that ends with them
        (`end game with payoff`), else the share of the win (1/winners), because the agents
        play for what the rules make the result, not for a measure of standing."""
        if self.score_of is None:
            return None
        return [self.score_of(s, p) for p in range(self.n)]


@contextmanager
def _errors_as_rule_errors():
    try:
        yield
    except RuleError:
        raise
    except RecursionError:
        raise RuleError("rules", "the rules are nested too deeply to compile", None)
    except Exception as err:        # anything the checker missed: an error, never a traceback
        raise RuleError("rules", f"the rules cannot be compiled ({type(err).__name__}: {err})", None)


# Compiled games of this process by the content of their rules: a command that asks again for
# the same rules at the same player count (the report's balance and skill runs, the card sheet's
# cards and tokens, the command's own check of the player count) compiles them once. Games share no state between plays, so one
# object serves every caller. Kept in memory only: nothing compiled is written or read back.
_COMPILED: dict = {}
_COMPILED_KEPT = 16         # a sweep asks for one game per combination; a few are reused


def compiled(rules: S.RuleFile, n_players: int) -> Game:
    """Game(rules, n_players), compiled once per process for rules of the same content: the
    parsed tree (after variants and parameter changes), which the key hashes whole."""
    key = (hashlib.sha256(pickle.dumps(rules, protocol=pickle.HIGHEST_PROTOCOL)).digest(), n_players, Game.fusing)
    game = _COMPILED.get(key)
    if game is None:
        if len(_COMPILED) >= _COMPILED_KEPT:
            _COMPILED.pop(next(iter(_COMPILED)))
        game = _COMPILED[key] = Game(rules, n_players)
    return game
