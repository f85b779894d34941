"""`set X to V`, `add V to X`, `subtract V from X`: counters and variables change,
for the game or for one player or team (`X(p)`).

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..engine.errors import RuleError
from ..engine.program import combine
from ..engine.values import Piece, Player, Team, ZoneId, plain
from ..language import syntax as S
from ..language.building import span
from ..language.kinds import NUM, PLAYER, TEAM, ZONE, unlike
from ..language.kinds import a as a_kind
from ..language.syntax import Expr, Node, Span, Stmt
from ..printing import idioms
from ..printing.runs import ARTICLE, Item, Runs, possessive, say, sentence
from .call import check_pair
from .counter import piece_position
from .registry import register


@dataclass(frozen=True)
class Target(Node):
    name: str
    player: Optional[Expr]
    span: Span
    key2: Optional[Expr] = None     # the second key of a value kept per two keys: NAME(x, y)


@dataclass(frozen=True)
class Assign(Stmt):
    op: str                     # 'set' | 'add' | 'subtract'
    target: Target
    value: Expr


# ---------------------------------------------------------------- grammar
def _var_target(meta, c):
    return Target(str(c[0]), None, span(meta))


def _player_target(meta, c):
    return Target(str(c[0]), c[1], span(meta))


def _pair_target(meta, c):
    return Target(str(c[0]), c[1], span(meta), c[2])


def _set_stmt(meta, c):
    return Assign(span(meta), "set", c[0], c[1])


def _add_stmt(meta, c):
    return Assign(span(meta), "add", c[1], c[0])


def _subtract_stmt(meta, c):
    return Assign(span(meta), "subtract", c[1], c[0])


GRAMMAR = {"var_target": _var_target, "player_target": _player_target, "pair_target": _pair_target, "set_stmt": _set_stmt, "add_stmt": _add_stmt, "subtract_stmt": _subtract_stmt}


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    tg = st.target
    d0 = ck.declared.get(tg.name) if tg.name not in scope.names else None
    is_counter = isinstance(d0, S.Counter) and d0.kind == "counter"
    ck.expr(st.value, scope, want=NUM if (st.op != "set" or is_counter) else None)
    if tg.name in scope.names and tg.player is None:
        return
    d = ck.declared.get(tg.name)
    if isinstance(d, S.Parameter):
        ck.error(tg.span, f"'{tg.name}' is a parameter and cannot change during play",
                   "declare a 'counter' or 'variable' for a value that changes")
        return
    if not isinstance(d, S.Counter):
        ck.error(tg.span, f"unknown counter or variable '{tg.name}'",
                   ck.did_you_mean(tg.name, lambda: [c.name for c in ck.of(S.Counter)]) or f"declare it with 'counter {tg.name} = 0'")
        return
    ck.used.add(tg.name)
    if d.per2 is not None or tg.key2 is not None:
        if d.per2 is None:
            ck.error(tg.span, f"'{tg.name}' is kept " + (f"per {d.per}: one key, e.g. {tg.name}({d.per[0]})" if d.per
                                                         else "for the whole game, not per player"))
        else:
            check_pair(ck, tg.span, d, tuple(x for x in (tg.player, tg.key2) if x is not None), scope)
    else:
        _check_key(ck, tg, d, scope)
    if st.op == "set" and d.kind == "variable":
        _holds_one_kind(ck, st, d)
    if st.op != "set" and d.kind == "variable":
        ck.warning(tg.span, f"'{tg.name}' is a variable; adding to it assumes it holds a number")


def _check_key(ck, tg, d, scope):
    """NAME or NAME(x): a key where the value is kept per something, none otherwise."""
    per = d.per
    if per and tg.player is None:
        ck.error(tg.span, f"'{tg.name}' is kept per {per}: say whose, e.g. {tg.name}({per[0]})")
    if not per and tg.player is not None:
        ck.error(tg.span, f"'{tg.name}' is one value for the whole game, not per player")
    if tg.player is not None:
        ck.expr(tg.player, scope, want={"player": PLAYER, "team": TEAM}.get(d.per) or
                (ZONE if isinstance(ck.declared.get(d.per), S.Zone) and ck.declared[d.per].per else None))  # per zone of a family


def _holds_one_kind(ck, st, d):
    """A variable set to a player in one place and to a number in another is a slip in one of them."""
    kinds = ck.variable_kinds(d.name)
    if not kinds:
        return
    first, where = kinds[0]
    here = next((k for k, span in kinds if span == st.value.span), None)
    if here is not None and unlike(first, here):
        what = "starts as" if where == d.initial.span else "is set to"
        ck.error(st.value.span, f"'{d.name}' {what} {a_kind(first)} (line {where.line}), but here it is set to {a_kind(here)}",
                 "a variable holds one kind of value: use another variable for the other")


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    t = st.target
    value = c.expr(st.value, env)
    op = st.op
    decl = c.var_decls.get(t.name)
    lo = c.const(decl.minimum, f"the minimum of '{t.name}'") \
        if decl is not None and decl.minimum is not None else None
    hi = c.const(decl.maximum, f"the maximum of '{t.name}'") \
        if decl is not None and decl.maximum is not None else None
    span = st.span
    game = c
    name = t.name

    def check(v):
        if lo is not None and v < lo:
            raise RuleError("below minimum", f"'{name}' would become {v}, below its minimum {lo}", span)
        if hi is not None and v > hi:
            raise RuleError("above maximum", f"'{name}' would become {v}, above its maximum {hi}", span)

    if t.player is None:
        if t.name in env.locals:
            i = env.locals[t.name]

            first = len(c.code)

            def assign(s, ip=first):
                s.loc_slots[i] = combine(op, s.loc_slots[i], value(s))
                return ip + 1
            c.emit(assign, owner, span)
            c.fuse(first, lambda f, resume=None: [f"at = {first!r}", f"L[{i!r}] = " + (
                f.of(value) if op == "set" else f"L[{i!r}] {'+' if op == 'add' else '-'} {f.of(value)}")])
            return
        i = c.var_slots[t.name]
        if op == "set" and lo is None and hi is None and name not in c.trigger_reads:
            # the common case, kept lean: it runs several times per decision
            first = len(c.code)
            stale = tuple(c.memo_key(n) for n in c.readers(name))   # the values worked out before that this changes

            def logged(s, v):
                s.log.append({"event": "set", "name": name, "value": v})

            def forget(s):
                for key in stale:
                    s.memo.pop(key, None)

            def plain_set(s, nxt=first + 1):
                v = s.vars[i] = value(s)
                if s.memo:
                    forget(s)
                if s.log is not None:
                    logged(s, v)
                return nxt
            c.emit(plain_set, owner, span)
            c.fuse(first, lambda f, resume=None: [f"at = {first!r}", f"sv = s.vars[{i!r}] = {f.of(value)}"] + (
                ["if s.memo:"] + [f"    s.memo.pop({key!r}, None)" for key in stale] if stale else []) + [
                "if s.log is not None:", f"    {f.name(logged)}(s, sv)"])
            return

        def assign(s, ip=len(c.code)):
            v = combine(op, s.vars[i], value(s))
            check(v)
            s.vars[i] = v
            s.memo.clear()
            if s.log is not None:
                s.log.append({"event": "set", "name": name, "value": v})
            if name in game.trigger_reads:
                game.after_effect(s)
            return ip + 1
        c.emit(assign, owner, span)
        return
    i = c.pvar_slots[t.name]
    who = c.expr(t.player, env)
    at = piece_position(c, name, span)
    if t.key2 is not None:
        who = _pair(who, c.expr(t.key2, env))

    def assign_p(s, ip=len(c.code)):
        p = who(s)
        k = p if at is None else at(p)
        v = combine(op, s.pvars[i][k], value(s))
        check(v)
        s.pvars[i][k] = v
        s.memo.clear()
        if s.log is not None:
            s.log.append({"event": "set", "name": name, **_whose(game, p, at is not None), "value": v})
        if name in game.trigger_reads:
            game.after_effect(s)
        return ip + 1
    c.emit(assign_p, owner, span)


def _pair(first, second):
    return lambda s: (first(s), second(s))


def _whose(game, key, keyed: bool) -> dict:
    """Whose value a `set` changed, for the log: a player, a team, a piece, a zone of a family
    (by name) or a card attribute's value; for a value kept per two keys, both (`keys`)."""
    if not keyed or type(key) in (Player, Team):
        return {"team": int(key)} if isinstance(key, Team) else {"player": int(key)}
    if type(key) is tuple:
        return {"keys": [_whose(game, k, True) for k in key]}
    if type(key) is Piece:
        return {"piece": int(key)}
    return {"zone": game.zone_names[key]} if type(key) is ZoneId else {"key": plain(key)}


# ---------------------------------------------------------------- reading
def _target(v, t) -> Runs:
    if t.player is None:
        return v.name(t.name)
    if t.key2 is not None:
        return idioms.kept_for(v, v.expr(t.player), v.expr(t.key2), v.name(t.name, article=False))
    return possessive(v.lang, v.expr(t.player), v.name(t.name, article=False))


def _who_holds(v, t) -> bool:
    """A variable that names a player or team: 'who bid last', 'whose turn it is'."""
    d = v.kinds.get(t.name)
    return isinstance(d, S.Counter) and d.kind == "variable"


def read(v, st) -> Item:
    t, x = _target(v, st.target), v.expr(st.value)
    if st.op == "set" and _who_holds(v, st.target):
        if st.target.player is None and idioms.passes_turn(v, st):
            return Item("sentence", idioms.read_pass_turn(v, st), span=st.span)
        if isinstance(st.value, S.Name) and st.value.id == "nobody":
            if st.target.player is not None:
                return sentence(v, st, t + [("", "はまだいない。")],
                                v.expr(st.target.player) + [("", " has no ")] + v.name(st.target.name, article=False) + [("", " yet.")])
            title = v.title(st.target.name)
            bare = title[ARTICLE.match(title).end():] if ARTICLE.match(title) else title
            return sentence(v, st, t + [("", "はまだいない。")],
                            [("", "There is no "), ("term", bare), ("", " yet.")] if v.lang == "en" and bare != title
                            else [("", "There is no ")] + v.name(st.target.name, article=False) + [("", " yet.")])
        if isinstance(st.value, S.Call) and st.value.fn == "next_player" and st.target.player is None \
                and isinstance(st.value.args[0], S.Name) and st.value.args[0].id == st.target.name:
            still = say(v.lang, "、まだ残っている", " still in") if v.eliminates else ""
            return sentence(v, st, t + [("", f"は次の{still}プレイヤーに移る。")],
                            [("", "The ")] + t + [("", f" passes to the next player{still}.")])
        the = [] if st.target.player is not None or ARTICLE.match(v.title(st.target.name)) else [("", "the ")]
        return sentence(v, st, x + [("", "が")] + t + [("", "になる。")], x + [("", " becomes ")] + the + t + [("", ".")])
    if st.op == "set" and st.target.player is not None and st.target.name in v.states \
            and isinstance(st.value, S.Num) and st.value.value in (0, 1):
        said = idioms.read_set_state(v, st.target.player, st.target.name, bool(st.value.value))
        return sentence(v, st, said, said)
    if st.op == "set" and st.target.player is None and st.target.name in v.flags:
        state = v.title(st.target.name)
        if st.value.value:
            return sentence(v, st, [("", f"「{state}」の印を付ける。")], [("", f"Mark that {state}.")])
        return sentence(v, st, [("", f"「{state}」の印を外す。")], [("", f"Clear the mark that {state}.")])
    if st.op == "set":
        return sentence(v, st, t + [("", "を")] + x + [("", "にする。")],
                         [("", "Set ")] + t + [("", " to ")] + x + [("", ".")])
    if st.op == "add":
        return sentence(v, st, t + [("", "に")] + x + [("", "を加える。")],
                         [("", "Add ")] + x + [("", " to ")] + t + [("", ".")])
    return sentence(v, st, t + [("", "から")] + x + [("", "を引く。")],
                     [("", "Subtract ")] + x + [("", " from ")] + t + [("", ".")])


# ---------------------------------------------------------------- narration
def _key_said(n, ev) -> str:
    return n.player(ev["player"]) if "player" in ev else f"T{ev['team'] + 1}" if "team" in ev \
        else n.piece(ev["piece"]) if "piece" in ev else n.zone(ev["zone"]) if "zone" in ev \
        else n.value(ev["key"]) if "key" in ev else ""


def _narrate(n, ev) -> str:
    v = ev["value"]
    if "keys" in ev:        # kept per two keys: 'P1's progress for left'
        first, second = (_key_said(n, k) for k in ev["keys"])
        return n.say(f"   {first}の{second}の{n.name(ev['name'])} = {n.value(v)}",
                     f"   {first}'s {n.name(ev['name'])} for {second} = {n.value(v)}")
    key = _key_said(n, ev)
    who = n.say(f"{key}の", f"{key}'s ") if key else ""
    # a piece set as a value is told by name where the seat sees it, as a moved piece is
    return f"   {who}{n.name(ev['name'])} = {n.card(v) if type(v) is Piece else n.value(v)}"


# ---------------------------------------------------------------- analyses
def order(st, use):
    use.assigns(st.target.name, st.value)


register(Assign, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read, events={"set": _narrate}, order=order)
