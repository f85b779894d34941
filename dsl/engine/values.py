"""Runtime values that are more than numbers, text and truth.

Players, pieces (dice, cards, tokens) and zones are small int subclasses: they hash,
compare and serialize as numbers, yet the narrator can tell them apart.
"""
from __future__ import annotations


class Player(int):
    """A seat, 0-based inside the engine and shown 1-based to people."""
    __slots__ = ()

    def __repr__(self) -> str:
        return f"P{int(self) + 1}"


class Team(int):
    """A team of players (`teams of N`), 0-based inside the engine and shown 1-based."""
    __slots__ = ()

    def __repr__(self) -> str:
        return f"T{int(self) + 1}"


class Piece(int):
    """One physical component: a die, a card or a token."""
    __slots__ = ()

    def __repr__(self) -> str:
        return f"#{int(self)}"


class ZoneId(int):
    """One zone instance, e.g. the cup of player 2."""
    __slots__ = ()

    def __repr__(self) -> str:
        return f"Z{int(self)}"


class Unwitnessed(tuple):
    """The players a piece was shown to where nobody else saw the look (`show X to p secretly`):
    a seat outside it must not learn even who knows the piece."""
    __slots__ = ()


class Spaces(tuple):
    """Spaces of a board as a collection: its items are the spaces themselves, where a tuple of
    zones (a family, `hand`) stands for every piece in them."""
    __slots__ = ()


def plain(value):
    """A JSON-friendly form of a runtime value."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (Player, Team, Piece, ZoneId)):
        return int(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    return str(value)
