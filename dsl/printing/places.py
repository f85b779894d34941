"""Places where pieces lie, read as players name them.

- a zone kept per piece of a component (`zone spot is space, per space`) is that piece's place: its
  title names the component ("the pieces on a space", 「マスの上」), and the owner is read in that word's
  place ("the pieces on that space", 「そのマスの上」; every one: "on every space", 「全てのマスの上」);
- what holds a piece: a player where every zone kept for someone that can hold it is kept per player,
  otherwise the place it lies in (「そのコマがある場所」), never "the player holding" a piece on a space.

May import: the syntax and runs.py only (a leaf, like idioms.py: the constructs' readings use it).
"""
from __future__ import annotations

from ..language import syntax as S
from .runs import Runs, say

_ARTICLES_EN = ("a ", "an ", "the ")


def per_piece(v, zone: str):
    """The component a zone is kept one per piece of, if it is (`per space`), else None."""
    d = v.kinds.get(zone)
    c = v.kinds.get(d.per) if isinstance(d, S.Zone) and d.per not in (None, "player", "team") else None
    return c if isinstance(c, S.Component) else None


def owned_place(v, zone: str, owner: Runs) -> Runs | None:
    """`spot(sp)` as 'on that space' / 「そのマスの上」: the owner read where the title names the
    component; None when the title does not name it (the caller reads "that space's ...")."""
    c = per_piece(v, zone)
    if c is None or zone not in v.titles or c.name not in v.titles:
        return None
    title, piece = v.titles[zone], v.titles[c.name]
    if v.lang == "ja":
        at = title.find(piece)
        return None if at < 0 else [("", title[:at])] + owner + [("", title[at + len(piece):])]
    for article in _ARTICLES_EN:
        at = title.find(article + piece)
        if at >= 0 and (at == 0 or title[at - 1] == " "):
            return [("", title[:at])] + owner + [("", title[at + len(article) + len(piece):])]
    return None


def every_place(v, zone: str) -> Runs | None:
    """`all(spot)`: 'on every space' / 「全てのマスの上」."""
    c = per_piece(v, zone)
    if c is None or c.name not in v.titles:
        return None
    return owned_place(v, zone, [("", say(v.lang, "全ての", "every ") + v.titles[c.name])])


def read_holder(v, e, arg: Runs) -> Runs | None:
    """`holder(x)` of a piece that may lie in a place of its own: 'the place that piece is in'."""
    if v.holder(e) is not None:
        return None
    return arg + [("", "がある場所")] if v.lang == "ja" else [("", "the place ")] + arg + [("", " is in")]
