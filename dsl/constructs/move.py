"""`move N from A to B`, `move up to N ...`, `move all ...`, `move X to B`: pieces change zones.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..engine.errors import RuleError
from ..language.building import span
from ..language.kinds import NUM, PIECE, ZONE
from ..language import syntax as S
from ..language.syntax import Expr, Stmt
from ..printing.runs import Item, plain as plain_text, say, sentence
from .registry import register


@dataclass(frozen=True)
class Move(Stmt):
    amount: str                 # 'exactly' | 'up to' | 'all' | 'item'
    count: Optional[Expr]       # how many, or the item itself for 'item'
    source: Optional[Expr]
    dest: Expr
    place: str                  # 'top' | 'bottom'


# ---------------------------------------------------------------- grammar
def _move_amount(meta, c):
    kind, count = c[0]
    return Move(span(meta), kind, count, c[1], c[2], c[3] or "top")


def _move_item(meta, c):
    return Move(span(meta), "item", c[0], None, c[1], c[2] or "top")


def _amount_all(meta, c):
    return ("all", None)


def _amount_up_to(meta, c):
    return ("up to", c[0])


def _amount_exactly(meta, c):
    return ("exactly", c[0])


GRAMMAR = {"move_amount": _move_amount, "move_item": _move_item, "amount_all": _amount_all, "amount_up_to": _amount_up_to, "amount_exactly": _amount_exactly}


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    if st.amount == "item":
        ck.expr(st.count, scope, want=PIECE)
    else:
        if st.count is not None:
            ck.expr(st.count, scope, want=NUM)
        ck.expr(st.source, scope, want=ZONE)
    ck.expr(st.dest, scope, want=ZONE)


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    dest = c.expr(st.dest, env)
    span = st.span
    to_top = st.place == "top"
    game = c
    fires = c.has_triggers          # without triggers, a move sets nothing off
    first = len(c.code)

    def empty():
        return RuleError("empty zone", "there is nothing to move", span)

    def negative(k):
        return RuleError("negative amount", f"asked to move {k} pieces", span)

    def short(src_id, k, held):
        return RuleError("empty zone", f"asked to move {k} from {game.zone_names[src_id]}, which holds {held}", span)

    def logged(s, moved, src_id, d):
        s.log.append({"event": "move", "pieces": [int(p) for p in moved],
                      **({"from": game.zone_names[src_id]} if src_id is not None else {}), "to": game.zone_names[d]})

    def after(f) -> list:
        """A move sets off triggers, which may end the game."""
        return [f"{f.name(game.after_effect)}(s)", "if s.outcome is not None or s.dead_end is not None:",
                "    return -1"] if fires else []

    if st.amount == "item":
        item = c.expr(st.count, env)

        def move_item(s, ip=first):
            p = item(s)
            if p is None:
                raise empty()
            d = dest(s)
            if s.memo:
                s.memo.clear()
            src = s.zones[s.loc[p]]
            src.remove(p)
            if to_top:
                s.zones[d].append(p)
            else:
                s.zones[d].insert(0, p)
            s.loc[p] = d
            s.revealed[p] = False
            if s.looked:
                s.looked.pop(p, None)
            if s.log is not None:
                logged(s, (p,), None, d)
            if fires:
                game.after_effect(s)
            return ip + 1
        c.emit(move_item, owner, span)

        def fused_item(f, resume=None):
            put = "s.zones[md].append(mp)" if to_top else "s.zones[md].insert(0, mp)"
            return ([f"at = {first!r}", f"mp = {f.of(item)}", "if mp is None:", f"    raise {f.name(empty)}()",
                     f"md = {f.of(dest)}", "if s.memo:", "    s.memo.clear()", "s.zones[s.loc[mp]].remove(mp)", put,
                     "s.loc[mp] = md", "s.revealed[mp] = False", "if s.looked:", "    s.looked.pop(mp, None)",
                     "if s.log is not None:",
                     f"    {f.name(logged)}(s, (mp,), None, md)"] + after(f))
        c.fuse(first, fused_item)
        return
    source = c.expr(st.source, env)
    count = c.expr(st.count, env) if st.count is not None else None
    kind = st.amount

    def move(s, ip=first):
        src_id = source(s)
        d = dest(s)
        src = s.zones[src_id]
        if kind == "all":
            k = len(src)
        else:
            k = count(s)
            if k < 0:
                raise negative(k)
            if k > len(src):
                if kind == "exactly":
                    raise short(src_id, k, len(src))
                k = len(src)
        if s.memo:
            s.memo.clear()
        if k:
            moved = src[len(src) - k:]
            del src[len(src) - k:]
            dst = s.zones[d]
            if to_top:
                dst.extend(moved)
            else:
                dst[0:0] = moved
            for p in moved:
                s.loc[p] = d
                s.revealed[p] = False
                if s.looked:
                    s.looked.pop(p, None)
            if s.log is not None:
                logged(s, moved, src_id, d)
        if fires:
            game.after_effect(s)
        return ip + 1
    c.emit(move, owner, span)

    def fused(f, resume=None):
        n = f.name(len)
        lines = [f"at = {first!r}", f"mz = {f.of(source)}", f"md = {f.of(dest)}", "ms = s.zones[mz]"]
        if kind == "all":
            # everything: the whole list, without counting it
            take = ["if ms:", "    mm = ms[:]", "    ms.clear()"]
        else:
            lines += [f"mk = {f.of(count)}", "if mk < 0:", f"    raise {f.name(negative)}(mk)", f"mn = {n}(ms)", "if mk > mn:",
                      f"    raise {f.name(short)}(mz, mk, mn)" if kind == "exactly" else "    mk = mn"]
            take = ["if mk:", "    mm = ms[mn - mk:]", "    del ms[mn - mk:]"]
        put = "s.zones[md].extend(mm)" if to_top else "s.zones[md][0:0] = mm"
        return (lines + ["if s.memo:", "    s.memo.clear()"] + take + [f"    {put}", "    ml = s.loc", "    mr = s.revealed", "    for mp in mm:",
                                "        ml[mp] = md", "        mr[mp] = False", "        if s.looked:",
                                "            s.looked.pop(mp, None)",
                                "    if s.log is not None:", f"        {f.name(logged)}(s, mm, mz, md)"] + after(f))
    c.fuse(first, fused)


# ---------------------------------------------------------------- reading
def read(v, st) -> Item:
    dest = v.expr(st.dest)
    # on top is how pieces are always placed; only the exception is worth saying
    place = say(v.lang, "の一番下", " at the bottom") if st.place == "bottom" else ""
    at_ja = [("", place)] if place and v.lang == "ja" else []
    at_en = [("", place)] if place and v.lang == "en" else []
    if st.amount == "item":
        return sentence(v, st, v.expr(st.count) + [("", "を")] + dest + at_ja + [("", "に移す。")],
                         [("", "Move ")] + v.expr(st.count) + [("", " to ")] + dest + at_en + [("", ".")])
    src = v.expr(st.source)
    if st.amount == "all":
        return sentence(v, st, src + [("", "を全て")] + dest + at_ja + [("", "に移す。")],
                         [("", "Move everything in ")] + src + [("", " to ")] + dest + at_en + [("", ".")])
    n = v.expr(st.count)
    if isinstance(st.count, (S.IfExpr, S.Binary)):
        n = [("", "(")] + n + [("", ")")]
    up_ja, up_en = ([("", "最大で")], [("", "up to ")]) if st.amount == "up to" else ([], [])
    # a number takes its counter (5個, 2枚); a named amount is 'as many as' it says
    counted = isinstance(st.count, S.Num) or n and n[0][0] == "num" and len(n) == 1
    many = [("", v.counter(st.source) + "を")] if counted else [("", "だけ")]
    # and in English its noun: 'Move 7 cards from the deck'
    noun = v.noun(st.source)[1] if counted and v.lang == "en" else "item"
    what = [] if noun == "item" else [("", " " + (noun if plain_text(n) == "1" else plural(noun)))]
    return sentence(v, st, src + [("", "から")] + up_ja + n + many + dest + at_ja + [("", "に移す。")],
                     [("", "Move ")] + up_en + n + what + [("", " from ")] + src + [("", " to ")] + dest + at_en + [("", ".")])


def plural(noun: str) -> str:
    """'cards', 'tokens', 'boxes'; a noun already plural ('dice') stays."""
    if noun.endswith(("s", "ce")):
        return noun
    if noun.split(" ")[-1] == "die":
        return noun[:-len("die")] + "dice"
    return noun + ("es" if noun.endswith(("x", "ch", "sh")) else "s")


# ---------------------------------------------------------------- narration
def _narrate(n, ev) -> str:
    pieces = ev["pieces"]
    k = len(pieces)
    src = n.zone(ev.get("from")) if ev.get("from") else None
    dst = n.zone(ev["to"])
    # a few pieces by name (the designer sees every card); many by their count
    what = n.say("、".join(n.card(p) for p in pieces), ", ".join(n.card(p) for p in pieces)) if 0 < k <= 2 else \
        n.say(f"{k}{n.counter(pieces)}", f"{k} {'piece' if k == 1 else 'pieces'}")
    return n.say(f"   {what}を{src + 'から' if src else ''}{dst}へ",
                 f"   move {what}{' from ' + src if src else ''} to {dst}")


# ---------------------------------------------------------------- analyses
def order(st, use):
    # `move N` and `move up to N` take the top pieces; `move all` keeps their order
    if st.amount in ("exactly", "up to"):
        use.reads_order(st.source)
    elif st.amount == "all":
        use.moves_all(st.source, st.dest)


register(Move, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read, events={"move": _narrate}, order=order)
