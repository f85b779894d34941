"""The kinds of value the checker tells apart, and how it names them in messages.

May import: nothing from dsl at module level (a leaf, so constructs can use it).
"""
from __future__ import annotations

from dataclasses import dataclass, field

NUM, BOOL, PLAYER, PIECE, ZONE, COLL, TEXT, ANY = "number", "truth", "player", "piece", "zone", "collection", "text", "any"
TEAM = "team"
FAMILY = "family"               # a zone kept per player, team or piece, named without saying whose
WHO = (PLAYER, TEAM)            # who can choose, be eliminated or win: a player or a team


def a(kind) -> str:
    return {"number": "a number", "truth": "a truth value", "player": "a player", "team": "a team", "piece": "a piece",
            "zone": "a zone", "collection": "a collection", "text": "a text", "any": "a value",
            "family": "a zone kept per player (say whose)", "nobody": "nobody"}.get(kind, kind)


_ALIKE = {"family": ZONE, "players": COLL}


def unlike(a, b) -> bool:
    """Two kinds that can never be equal: a number and a player, a zone and a team.
    `nobody` is the absence of any value, so it is like everything."""
    a, b = _ALIKE.get(a, a), _ALIKE.get(b, b)
    return a != b and ANY not in (a, b) and "nobody" not in (a, b)


def element_kind(coll) -> str:
    """What the items of a collection are, where the checker can tell: players or teams, or
    the numbers of a range."""
    from . import syntax as S
    if isinstance(coll, S.Comprehension) and coll.item is None:     # `x in C where W`: some items of C
        return element_kind(coll.coll)
    if isinstance(coll, S.Name) and coll.id in ("players", "teams"):
        return PLAYER if coll.id == "players" else TEAM
    if isinstance(coll, S.Call) and coll.fn in ("alive_players", "members"):
        return PLAYER
    if isinstance(coll, S.Call) and coll.fn == "alive_teams":
        return TEAM
    if isinstance(coll, S.Range):
        return NUM
    return ANY


@dataclass
class Scope:
    """The checker's names in scope: local name -> kind."""
    names: dict = field(default_factory=dict)

    def child(self, **more) -> "Scope":
        d = dict(self.names)
        d.update(more)
        return Scope(d)
