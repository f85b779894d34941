"""The engine: a checked rule file compiled for one player count and played as a state machine.

May import the language (syntax) and the constructs; nothing from analyses, printing or the CLI.
"""
from .game import CHANCE, Game, IllegalMove, RuleError
from .state import DeadEnd, State

__all__ = ["CHANCE", "DeadEnd", "Game", "IllegalMove", "RuleError", "State"]
