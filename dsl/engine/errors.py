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

    def __init__(self, kind: str, message: str, span: Optional[Span] = None):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.span = span
