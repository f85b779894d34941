"""`counter` and `variable`: values that change during play, for the game, or one per player, per
team or per piece of a component (a count of votes on each space), or one for each pair of two
such keys (`per player and per column`: each player's progress in each column).

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

from ..engine.errors import RuleError
from ..engine.values import Piece
from ..language import syntax as S
from ..language.building import span, texts
from ..language.kinds import Scope
from ..language.syntax import Decl, Expr
from ..printing import idioms
from ..printing.runs import Runs, say
from .registry import register


@dataclass(frozen=True)
class Counter(Decl):
    kind: str                   # 'counter' (a number) | 'variable' (any value)
    per: Optional[str]          # 'player', 'team' or a component: one value each (per piece), written
                                # NAME(x); None: one for the game
    initial: Expr
    minimum: Optional[Expr]
    maximum: Optional[Expr]
    seen_by: str = "everyone"   # 'everyone' | 'owner' (the player or team it is kept for) | 'others' (all but the owner) | 'nobody'
    per2: Optional[str] = None  # a second key (`per player and per column`), written NAME(x, y)
    tracked: Optional[bool] = None  # the designer's word: kept on the table (True), only worked out in
                                    # passing (False); None: the book reads it from the structure


# ---------------------------------------------------------------- grammar
def _min_bound(meta, c):
    return ("min", c[0])


def _max_bound(meta, c):
    return ("max", c[0])


def _per_owner(meta, c):
    return str(c[-1])


def _counter(meta, c):
    kind, name, per, per2, initial = c[0], str(c[1]), c[2], c[3], c[4]
    bounds = dict(b for b in c[5:-1] if isinstance(b, tuple) and len(b) == 2 and b[0] in ("min", "max"))
    tail = c[-1]
    seen = [x[1] for x in tail if isinstance(x, tuple) and len(x) == 2 and x[0] == "seen_by"]
    tracked = [x[1] for x in tail if isinstance(x, tuple) and len(x) == 2 and x[0] == "tracked"]
    return Counter(name, texts(tail), span(meta), kind, per, initial, bounds.get("min"), bounds.get("max"),
                   seen[-1] if seen else "everyone", per2, tracked[-1] if tracked else None)


def _counter_tail(meta, c):
    return list(c)


def _counter_seen(meta, c):
    return ("seen_by", str(c[0]))


def _counter_tracked(meta, c):
    return ("tracked", True)


def _counter_untracked(meta, c):
    return ("tracked", False)


def _per_piece(meta, c):
    return str(c[0])


GRAMMAR = {"min_bound": _min_bound, "max_bound": _max_bound, "per_owner": _per_owner, "per_piece": _per_piece,
           "counter": _counter, "counter_tail": _counter_tail, "counter_seen": _counter_seen,
           "counter_tracked": _counter_tracked, "counter_untracked": _counter_untracked}


# ---------------------------------------------------------------- checks
def check(ck, d):
    for per in (d.per, d.per2):
        if per == "team":
            ck.needs_teams(d.span)
        elif per not in (None, "player") and not _per_key(ck, per):
            check_per_piece(ck, replace(d, per=per), d.kind)
    if d.per2 is not None and d.per2 == d.per:
        ck.error(d.span, f"{d.kind} '{d.name}' is kept per {d.per} twice",
                 f"name two different keys: 'per {d.per} and per' another")
    if d.seen_by in ("owner", "others") and d.per not in ("player", "team"):
        whom = "its owner" if d.seen_by == "owner" else "everyone but its owner"
        first = " (its first key)" if d.per2 in ("player", "team") else ""
        ck.error(d.span, f"{d.kind} '{d.name}' is seen by {whom}, but it is not kept per player or per team{first}",
                 "write 'seen by nobody' or 'seen by everyone', or keep it 'per player'"
                 + (f": 'per {d.per2} and per {d.per}'" if first else ""))
    ck.expr(d.initial, Scope())
    for b, which in ((d.minimum, "minimum"), (d.maximum, "maximum")):
        if b is not None:
            ck.const(b, f"the {which} of '{d.name}'")


def _per_key(ck, per: str) -> bool:
    """Whether a counter's `per NAME` names a zone family (one value per zone) or a card
    attribute (one value per value it takes: `per suit`)."""
    z = ck.declared.get(per)
    if isinstance(z, S.Zone) and z.per is not None:
        ck.used.add(per)
        return True
    return (z is None or isinstance(z, S.Symbol)) and \
        any(name == per for c in ck.of(S.Component) for spec in c.cards for name, _ in spec.attrs)


def check_per_piece(ck, d, what: str) -> None:
    """`per NAME` of a zone or counter: NAME is a deck, dice or token, one for each of its pieces."""
    c = ck.declared.get(d.per)
    if not isinstance(c, S.Component):
        ck.error(d.span, f"{what} '{d.name}' is kept per '{d.per}', which is not a component",
                 ck.did_you_mean(d.per, lambda: [x.name for x in ck.of(S.Component)]) or
                 "write 'per player', 'per team' or 'per' and the name of a deck, dice or token"
                 + (", a card attribute or a zone kept per player, team or piece" if what != "zone" else ""))
    else:
        ck.used.add(d.per)


# ---------------------------------------------------------------- compilation
def piece_position(c, name: str, span):
    """For a counter kept per piece: a function from a piece to where its value is kept, with a
    dead end for anything else (a player is a number too, so it must not pass for a piece).
    None for a counter kept per player or team, whose key is the position already."""
    index = c.piece_index.get(name)
    if index is None:
        return None
    per = c.var_decls[name].per
    if c.var_decls[name].per2 is not None:
        return pair_lookup(index, name, f"{per} and per {c.var_decls[name].per2}", span)
    if any(type(k) is not Piece for k in index):
        return key_lookup(index, name, per, span)
    return piece_lookup(index, name, per, span)


def key_lookup(table: dict, name: str, per: str, span):
    """For a counter kept per zone of a family or per value of a card attribute: a function from
    the key to its value's position, with a dead end for anything else (a player is a number, so
    it must not pass for a rank: the key's own type is asked)."""
    types = {type(k) for k in table}

    def lookup(x):
        found = table.get(x) if type(x) in types else None
        if found is None:
            raise RuleError("evaluation failed", f"'{name}' is kept per {per}, and {x!r} is not one", span)
        return found
    return lookup


def pair_lookup(table: dict, name: str, per: str, span):
    """For a counter kept per two keys: a function from the pair (a, b) to its value's position,
    each key of its own type (a player is a number: it must not pass for a piece, a rank or a
    team), with a dead end naming the pair otherwise."""
    firsts, seconds = {type(a) for a, _ in table}, {type(b) for _, b in table}

    def lookup(pair):
        found = table.get(pair) if type(pair[0]) in firsts and type(pair[1]) in seconds else None
        if found is None:
            shown = ", ".join(f"piece {x!r}" if type(x) is Piece else repr(x) for x in pair)
            raise RuleError("evaluation failed", f"'{name}' is kept per {per}, and ({shown}) is not one", span)
        return found
    return lookup


def piece_lookup(table: dict, name: str, kind: str, span):
    """For `name`, kept per piece of `kind` (a counter, a zone): a function from a piece to what
    `table` holds for it, with a dead end for anything else."""
    def lookup(x):
        found = table.get(x) if type(x) is Piece else None
        if found is None:
            shown = f"piece {x!r}" if type(x) is Piece else repr(x)        # P1, piece #3, 'text'
            raise RuleError("evaluation failed", f"'{name}' is kept per {kind}, and {shown} is not one", span)
        return found
    return lookup


# ---------------------------------------------------------------- reading
def kept_per(v, d) -> str:
    if getattr(d, "per2", None) is not None:        # a zone has one key at most
        first, second = (kept_per(v, replace(d, per=k, per2=None)) for k in (d.per, d.per2))
        return say(v.lang, f"{first}の{second}", f"{first} and {second.removeprefix('one for ')}")
    key = d.per
    if key is None:
        return say(v.lang, "共有", "shared")
    if key == "player":
        return say(v.lang, "各プレイヤー", "each player")
    if key == "team":
        return say(v.lang, "各チーム", "each team")
    return say(v.lang, f"{v.title(key)}ごと", f"one for each {v.title(key)}")


def read(v, c, counts=()) -> Runs:
    out = idioms.kept(v, c, kept_per(v, c))
    if c.seen_by == "owner":
        out = out + [("", say(v.lang, "、持ち主だけが見る", ", seen only by its owner"))]
    elif c.seen_by == "others":
        out = out + [("", say(v.lang, "、持ち主以外の全員が見る", ", seen by everyone but its owner"))]
    elif c.seen_by == "nobody":
        out = out + [("", say(v.lang, "、誰にも見えない", ", seen by nobody"))]
    return out


register(Counter, "declaration", grammar=GRAMMAR, check=check, read=read)
