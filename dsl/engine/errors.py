"""Errors the engine raises: a move the rules do not allow, and a problem in the rules.

May import: the syntax base classes only (a leaf, so constructs can raise these).
"""
from __future__ import annotations

from typing import Optional

from ..language.syntax import Span


class IllegalMove(ValueError):
    """apply() was given an action the rules do not allow here. The state is unchanged."""


class RuleError(Exception):
    """A problem in the rules found while playing; becomes a DeadEnd."""

    def __init__(self, kind: str, message: str, span: Optional[Span] = None, contenders: tuple = ()):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.span = span
        self.contenders = contenders    # the players an ending could not tell apart (a tie)


# What evaluating an expression the checker let through can still raise during play.
EVALUATION_ERRORS = (TypeError, KeyError, IndexError, ValueError, ZeroDivisionError, AttributeError, OverflowError)

# What the machine turns into a dead end; each carries the instruction it came from (`ip`)
# when it leaves a fused statement (engine/fused.py).
CARRIED = (RuleError, RecursionError) + EVALUATION_ERRORS

# What working out a choice's moves turns into a dead end at the choice (Machine.listing_failed).
LISTING_ERRORS = (RuleError,) + EVALUATION_ERRORS


def plain_error(err: Exception) -> str:
    """A designer's reading of what went wrong, instead of Python's name for it."""
    if isinstance(err, ZeroDivisionError):
        return "a number was divided by zero ('//' or '%' by 0)"
    if isinstance(err, IndexError):
        return "it asks for an item past the end of a list or zone"
    if isinstance(err, KeyError):
        return f"a card or piece has no value called {err.args[0]!r}" if err.args else "a value is missing"
    if isinstance(err, AttributeError):
        return "it asks a value for something it does not have (an attribute of a player or a number?)"
    if isinstance(err, OverflowError):
        return "a number grew too large"
    return "a value is not of the kind this needs (a number where a collection is wanted, or the other way round)"


class WatcherFailed(Exception):
    """A play-out's watcher failed: its error (the cause) is not the game's, so no dead end
    (RandomPlay.play_out raises the cause)."""


def counts_moves(watch) -> bool:
    """Whether the watcher of a play-out asks only how many moves a decision offers: then it
    may be shown their number in place of the moves, where drawing a move has counted them and
    listing them would cost more than the decision itself (simulate's default figures)."""
    return getattr(watch, "counts_moves", False)
