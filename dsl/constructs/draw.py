"""`draw N from A to B`: pieces taken at random from a pile, a chance event at the moment of
the draw.

Each of the N pieces is equally likely to be any piece still in A (drawn one after another,
so the event has n x (n - 1) x ... outcomes), as a card is drawn from a shuffled face-down
deck: no order of the undrawn pieces exists until they are drawn, so `explore` and `solve`
follow only the pieces that leave the pile (the histories OpenSpiel counts for a
card game that deals this way), where `shuffle` then `move` fixes the order of the whole pile at once. Drawn pieces
land on top of B (`at bottom`: underneath), hidden again as B's `seen by` says, as `move`
puts them.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.errors import RuleError
from ..engine.values import ZoneId
from ..language import syntax as S
from ..language.building import span
from ..language.kinds import NUM, ZONE
from ..language.syntax import Expr, Stmt
from ..printing.runs import Item, say, sentence
from .registry import nothing, register


@dataclass(frozen=True)
class Draw(Stmt):
    count: Expr
    zone: Expr                  # the pile drawn from
    dest: Expr
    place: str                  # 'top' | 'bottom'


# ---------------------------------------------------------------- grammar
def _draw(meta, c):
    return Draw(span(meta), c[0], c[1], c[2], c[3] or "top")


GRAMMAR = {"draw": _draw}


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    ck.expr(st.count, scope, want=NUM)
    ck.expr(st.zone, scope, want=ZONE)
    ck.expr(st.dest, scope, want=ZONE)
    if t:
        ck.error(st.span, "a trigger cannot draw at random", "chance happens in the turn structure: 'move' takes the top pieces")


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    amount = c.expr(st.count, env)
    source = c.expr(st.zone, env)
    dest = c.expr(st.dest, env)
    where = st.span
    to_top = st.place == "top"
    names = c.zone_names

    def outcomes(game, items, k) -> int:
        if k < 0:
            raise RuleError("negative amount", f"asked to draw {k} pieces", where)
        if k > len(items):
            raise RuleError("empty zone", f"asked to draw {k}, and the pile holds {len(items)}", where)
        total = 1
        for left in range(len(items), len(items) - k, -1):
            total *= left
        return total

    def settle(game, s, zone, items, outcome):
        pool = list(items)
        drawn = []
        for _ in range(amount(s)):
            outcome, j = divmod(outcome, len(pool))
            drawn.append(pool.pop(j))
        d = dest(s)
        src = s.zones[zone]
        for p in drawn:
            src.remove(p)
            s.loc[p] = d
            s.revealed[p] = False
            if s.looked:
                s.looked.pop(p, None)
        if to_top:
            s.zones[d].extend(drawn)
        else:
            s.zones[d][0:0] = drawn
        if s.log is not None and drawn:
            s.log.append({"event": "draw", "pieces": [int(p) for p in drawn], "from": names[zone], "to": names[d]})

    def pile(s):
        """The zone drawn from, once both ends are known to be zones: a draw that cannot be
        worked out is a dead end at the draw, before any piece is drawn."""
        z, d = source(s), dest(s)
        for end, what in ((z, "from"), (d, "into")):
            if type(end) is not ZoneId:
                raise RuleError("evaluation failed", f"a draw takes pieces {what} a zone, and {'nobody' if end is None else repr(end)} is not one", where)
        return z

    c.chance_stmt(st, env, owner, outcomes, settle, amount=amount, zone=pile)


# ---------------------------------------------------------------- reading
def read(v, st) -> Item:
    src, dest, n = v.expr(st.zone), v.expr(st.dest), v.expr(st.count)
    if isinstance(st.count, (S.IfExpr, S.Binary)):
        n = [("", "(")] + n + [("", ")")]
    place = say(v.lang, "の一番下", " at the bottom") if st.place == "bottom" else ""
    at_ja = [("", place)] if place and v.lang == "ja" else []
    at_en = [("", place)] if place and v.lang == "en" else []
    many = [("", v.counter(st.zone))] if isinstance(st.count, S.Num) else [("", "だけ")]
    return sentence(v, st, src + [("", "から無作為に")] + n + many + [("", "引き、")] + dest + at_ja + [("", "に移す。")],
                    [("", "Draw ")] + n + [("", " at random from ")] + src + [("", " to ")] + dest + at_en + [("", ".")])


# ---------------------------------------------------------------- narration
def _narrate(n, ev) -> str:
    pieces = ev["pieces"]
    k = len(pieces)
    what = n.say("、".join(n.card(p) for p in pieces), ", ".join(n.card(p) for p in pieces)) if k <= 2 else \
        n.say(f"{k}{n.counter(pieces)}", f"{k} pieces")
    src, dst = n.zone(ev["from"]), n.zone(ev["to"])
    return n.say(f"   {src}から{what}を引いて{dst}へ", f"   draw {what} from {src} to {dst}")


# ---------------------------------------------------------------- analyses
# order: a draw takes any piece of the pile alike, so it reads no order; the drawn pieces land
# on top of the destination as a `move` of one piece does, which marks nothing either
register(Draw, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read, events={"draw": _narrate}, order=nothing)
