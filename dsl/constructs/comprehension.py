"""`x in C where W` and `V for x in C where W`: the items of a collection that pass a test,
or a value for each.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..engine.source import hoisted, reads_slots, slots_as_locals
from ..language.building import span
from ..language.kinds import BOOL, COLL, element_kind
from ..language import syntax as S
from ..language.syntax import Expr
from ..printing import idioms
from ..printing.runs import Runs, bare, say, that
from .registry import Absent, register
from .zone import one_of_family, one_per_piece


@dataclass(frozen=True)
class Comprehension(Expr):
    """`x in coll where cond` (item is None) or `item for x in coll where cond`."""
    var: str
    coll: Expr
    cond: Optional[Expr]
    item: Optional[Expr]


# ---------------------------------------------------------------- grammar
def _filter_arg(meta, c):
    return Comprehension(span(meta), str(c[0]), c[1], c[2], None)


def _map_arg(meta, c):
    return Comprehension(span(meta), str(c[1]), c[2], c[3], c[0])


GRAMMAR = {"filter_arg": _filter_arg, "map_arg": _map_arg}


# ---------------------------------------------------------------- checks
def check(ck, e, scope):
    ck.expr(e.coll, scope, want=COLL)
    inner = scope.child(**{e.var: element_kind(e.coll)})
    if e.cond is not None:
        ck.expr(e.cond, inner, want=BOOL)
    if e.item is not None:
        ck.expr(e.item, inner)
    return COLL


# ---------------------------------------------------------------- compilation
def compile(c, e, env, result=None):
    """The loop as one generated function, its condition and item inline (a part without a
    generator is called as its closure), giving the items' values. With a `result` of "count",
    it gives how many items there are, gathering none; of "ranked", the items and their values
    side by side, `(items, keys)`, as the built-ins that rank (`highest`, `lowest`,
    `nth_highest`) take them: every value worked out before any is compared."""
    slot = env.new_slot(e.var)
    src = c.new_source()
    looped = result == "ranked" or e.item is not None or e.cond is not None    # else the items as they are
    # one zone of a family is read in place: its code, compiled once, where the collection is
    one_zone = src.sub(e.coll, env) if looped and (one_of_family(c, e.coll) or one_per_piece(c, e.coll)) else None
    coll = c.collection(e.coll, env) if one_zone is None else None
    if not looped:
        return (lambda s: len(tuple(coll(s)))) if result == "count" else lambda s: tuple(coll(s))
    zones = getattr(coll, "zones", None)
    # the items of zones are pieces
    inner = env.with_local(e.var, slot, piece=zones is not None or one_zone is not None)
    # the loop's variable x holds what the slot does: the code reads x
    cond = slots_as_locals(src.sub(e.cond, inner), {slot: "x"}) if e.cond is not None else None
    value = slots_as_locals(src.sub(e.item, inner), {slot: "x"}) if e.item is not None else "x"
    # fixed zones, or one zone of a family, are read in place instead of gathered first
    if zones is not None:
        loop = [f"for z in {src.value(zones)}:", "    for x in s.zones[z]:"]
    elif one_zone is not None:
        loop = [f"for x in s.zones[{one_zone}]:"]
    else:
        loop = [f"for x in {src.value(coll)}(s):"]
    # the loop reads again and again what it cannot change: read once, before the collection
    if cond is None:
        ahead, (value,) = hoisted([value], (slot,), src.names, before=loop)
    else:
        ahead, (value, cond) = hoisted([value, cond], (slot,), src.names, before=loop)
    pad = "    " * len(loop)
    v = src.value
    if result == "count":
        start, gather, end = ["out = 0"], ["out += 1"], ["return out"]
    elif result == "ranked":
        start, gather, end = ["out = []", "keys = []"], [f"keys.append({value})", "out.append(x)"], ["return out, keys"]
    else:
        start, gather, end = ["out = []"], [f"out.append({value})"], [f"return {v(tuple)}(out)"]
    body = ([pad + f"if {cond}:"] + [pad + "    " + g for g in gather]) if cond is not None else [pad + g for g in gather]
    if reads_slots(value, (slot,)) or cond is not None and reads_slots(cond, (slot,)):
        body = [pad + f"L[{slot!r}] = x"] + body
    else:
        # nothing reads the slot while the loop runs: it is left holding the last item, as it would be
        loop, body = [f"x = L[{slot!r}]", "try:"] + ["    " + line for line in loop], ["    " + line for line in body] + [
            "finally:", f"    L[{slot!r}] = x"]
    return src.function("s", "\n".join("    " + x for x in [*start, "L = s.loc_slots", *ahead, *loop, *body, *end]) + "\n",
                        statements=True)


# ---------------------------------------------------------------- reading
def read(v, e) -> Runs:
    face = idioms.wild_count(e)
    if face is not None:
        return idioms.read_wild_count(v, e, face)
    coll = v.expr(e.coll)
    noun = v.noun(e.coll)
    with v.bound(e.var, noun, subject=True):
        cond = v.expr(e.cond) if e.cond is not None else None
        state = idioms.in_state(v, e.cond) if e.item is None else None
        if state is not None and isinstance(state[0], S.Name) and state[0].id == e.var:
            # 'every player still in the game', 「ゲームに残っているプレイヤー」
            everyone = isinstance(e.coll, S.Name) and e.coll.id in ("players", "teams")
            return say(v.lang, cond + [("", noun[0])] if everyone else coll + [("", "のうち、")] + that(cond) + [("", "もの")],
                       coll + [("", " ")] + cond)
        if e.item is None:
            if cond is None:
                return coll
            return say(v.lang, coll + [("", "のうち、")] + that(cond) + [("", "もの")],
                       coll + [("", " where ")] + cond)
        item = v.expr(e.item)
        if cond is None and isinstance(e.coll, S.Name) and e.coll.id in ("players", "teams"):
            # 「全員の部族点」, 'every player's tribe points'
            return say(v.lang, coll + [("", "の")] + item, coll + [("", "'s ")] + item)
        where = [] if cond is None else say(v.lang, [("", "(")] + that(cond) + [("", "もの)")], [("", " where ")] + cond)
        return say(v.lang, coll + where + [("", "それぞれの")] + item,
                   item + [("", " of each of ")] + coll + where)


def ranked(v, e, most: tuple[str, str]) -> Runs:
    """`highest(key for x in coll where c)`: those of the collection with the largest key."""
    if idioms.settled_ranking(e):
        return read(v, Comprehension(e.span, e.var, e.coll, e.cond, None))
    coll = v.expr(e.coll)
    with v.bound(e.var, v.noun(e.coll), subject=True):
        cond = v.expr(e.cond) if e.cond is not None else None
        key = v.expr(e.item)
    if v.lang == "ja":
        return coll + [("", "のうち、")] + (that(cond) + [("", "もので、")] if cond else []) + key + [("", f"が{most[0]}もの")]
    # the ranking first, then where from: 'those with the highest number among the cards played where ...'
    return [("", f"those with the {most[1]} ")] + bare(key) + [("", " among ")] + coll + ([("", " where ")] + cond if cond else [])


# ---------------------------------------------------------------- analyses
def order(e, use):
    use.iterates(e.var, e.coll)


def sources(e, use):
    use.mark(e.coll)


register(Comprehension, "expression", grammar=GRAMMAR, check=check, compile=compile,
         generate=Absent("a loop that binds its variable item by item: its closure runs it, with its "
                         "condition and item generated"), read=read, order=order, sources=sources)
