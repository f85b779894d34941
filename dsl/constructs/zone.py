"""`zone NAME is KIND`: where pieces lie: shared, per player, per team or per piece, and who sees it.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..engine.values import ZoneId
from ..language.building import span
from ..language import syntax as S
from ..language.syntax import Decl
from ..printing.runs import Runs, say
from .counter import check_per_piece, kept_per, piece_lookup
from .registry import register


@dataclass(frozen=True)
class Zone(Decl):
    keyword = "zone"
    kind: str
    per: Optional[str]          # one zone per 'player', per 'team' (its members are owners), or per
                                # piece of the component named here (`per space`); None: shared
    seen_by: str                # 'owner' | 'everyone' | 'others' (all but the owner) | 'nobody'


# ---------------------------------------------------------------- grammar
def _zone_per_player(meta, c):
    return ("per", "player")


def _zone_per_team(meta, c):
    return ("per", "team")


def _zone_per_piece(meta, c):
    return ("per", str(c[0]))


def _zone_shared(meta, c):
    return ("per", None)


def _zone_seen(meta, c):
    return ("seen_by", c[0])


def _zone(meta, c):
    attrs = dict(a for a in c[2:-1] if isinstance(a, tuple))
    return Zone(str(c[0]), c[-1], span(meta), str(c[1]), attrs.get("per"), attrs.get("seen_by", "everyone"))


GRAMMAR = {"zone_per_player": _zone_per_player, "zone_per_team": _zone_per_team, "zone_per_piece": _zone_per_piece, "zone_shared": _zone_shared, "zone_seen": _zone_seen, "zone": _zone}


# ---------------------------------------------------------------- checks
def check(ck, d):
    if d.per == "team":
        ck.needs_teams(d.span)
    elif d.per not in (None, "player"):
        check_per_piece(ck, d, "zone")
    if d.seen_by == "others" and d.per not in ("player", "team"):
        ck.error(d.span, f"zone '{d.name}' is seen by everyone but its owner, but it is not kept per player or per team",
                 "keep it 'per player' (cards held facing out), or write 'seen by everyone'")


# ---------------------------------------------------------------- compilation
def _member(c, e) -> bool:
    """Whether `e` names the zone of one key in a family (a board's spaces are not one)."""
    return isinstance(e, S.Call) and len(e.args) == 1 and e.fn not in c.board_sizes \
        and isinstance(c.zones.get(e.fn), tuple)


def one_of_family(c, e) -> bool:
    """Whether `e` is `hand(p)`: the zone a family kept per player or team has for one of them,
    which generated code reads from the family's table."""
    return _member(c, e) and c.family_index.get(e.fn) is None


def one_per_piece(c, e) -> bool:
    """Whether `e` is `spot(sp)`: the zone a family kept per piece has for one piece, which
    generated code finds through `zone_of_piece`."""
    return _member(c, e) and c.family_index.get(e.fn) is not None


def zone_of_piece(c, fn: str, span):
    """The function giving the zone of family `fn`, kept per piece, for a piece; for anything
    else a dead end naming the family, as for a counter kept per piece. It writes no local slot."""
    family, index = c.zones[fn], c.family_index[fn]
    kind = c.kind_of[c.zone_owner[family[0]]]        # each zone is owned by its piece
    member = piece_lookup({piece: family[k] for piece, k in index.items()}, fn, kind, span)
    member.keeps_slots = True
    return member


def one_zone(c, e, env) -> bool:
    """Whether `e` names one zone, as a name of the game's own or as one of a family's."""
    if isinstance(e, S.Name):
        n = e.id
        return isinstance(c.zones.get(n), ZoneId) and not any(
            n in names for names in (env.locals, env.bound, c.params, c.var_slots, c.defines))
    return one_of_family(c, e) or one_per_piece(c, e)


# ---------------------------------------------------------------- reading
def read(v, z, counts=()) -> Runs:
    seen = {"owner": ("持ち主だけが見る", "only its owner looks"), "everyone": ("全員が見る", "open to everyone"),
            "nobody": ("誰も見ない", "nobody looks"),
            "others": ("持ち主以外の全員が見る(持ち主は裏だけ見る)", "everyone but its owner looks (its owner sees the backs)")}[z.seen_by]
    return [("", f"{kept_per(v, z)} · {say(v.lang, *seen)}")]


register(Zone, "declaration", grammar=GRAMMAR, check=check, read=read)
