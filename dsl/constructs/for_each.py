"""`for each X in C where W`: the body once for every item of a collection, in its order.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..engine.program import Label
from ..language.building import not_texts, span
from ..language.kinds import BOOL, COLL, PLAYER, TEAM, element_kind
from ..language import chains
from ..language import syntax as S
from ..language.syntax import Expr, Stmt
from ..printing import idioms
from ..printing.blocks import condition
from ..printing.runs import Item, say, that
from .registry import Absent, register


@dataclass(frozen=True)
class ForEach(Stmt):
    var: str
    coll: Expr
    cond: Optional[Expr]
    body: tuple[Stmt, ...]


# ---------------------------------------------------------------- grammar
def _for_each(meta, c):
    return ForEach(span(meta), str(c[0]), c[1], c[2], tuple(not_texts(c[3])))


GRAMMAR = {"for_each": _for_each}


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    ck.expr(st.coll, scope, want=COLL)
    inner = scope.child(**{st.var: element_kind(st.coll)})
    if st.cond is not None:
        ck.expr(st.cond, inner, want=BOOL)
    if not t and not getattr(ck, "together", 0):
        _ending_half_way(ck, st)
    ck.block(st.body, inner, t)


def _ending_half_way(ck, st) -> None:
    """A pass over the players or teams that asks each of them and changes what an ending
    trigger watches can end the game between two of them: say so, and how to make it one event."""
    if element_kind(st.coll) not in (PLAYER, TEAM):
        return
    chooses, written = _effects(st.body, ck.once("effects of rules", lambda: _effects_of_rules(ck)))
    if not chooses:
        return
    for trig, watched in ck.once("ending triggers", lambda: _ending_triggers(ck)):
        if watched & written:
            ck.warning(st.span, f"the game can end part-way through this 'for each': trigger '{trig.name}' "
                                f"watches what it changes, and is checked after each choice",
                       "if the rules settle this for everyone at once, write the loop inside `together`")
            return


def _ending_triggers(ck) -> list:
    """(trigger, the names it watches) of every trigger that can end the game."""
    return [(trig, _names(trig.cond) | (_names(trig.coll) if trig.coll is not None else set()))
            for trig in ck.of(S.Trigger) if any(isinstance(n, S.EndGame) for n in S.walk(trig))]


def _effects(stmts, of_rules: dict) -> tuple[bool, frozenset]:
    """Whether these statements, or the rules they carry out, ask a player to choose, and
    the names of what they change."""
    chooses, written = False, set()
    for st in stmts:
        for n in S.walk(st):
            if isinstance(n, S.Choose):
                chooses = True
            elif isinstance(n, S.Assign):
                written.add(n.target.name)
            elif (moved := S.transfer(n)) is not None:
                written |= _names(moved[0]) | _names(moved[1])
            elif isinstance(n, S.Eliminate):
                written.add("alive")
            elif isinstance(n, S.Do) and n.rule in of_rules:
                done_chooses, done_written = of_rules[n.rule]
                chooses = chooses or done_chooses
                written |= done_written
    return chooses, frozenset(written)


def _effects_of_rules(ck) -> dict:
    """Rule name -> _effects of its body, each rule after the rules it carries out (so that
    none is walked twice and no chain of `do` is followed by recursion)."""
    rules = {r.name: r for r in ck.of(S.Rule)}
    graph = {name: [st.rule for st in S.statements(r.body) if isinstance(st, S.Do)] for name, r in rules.items()}
    out: dict = {}
    for name in chains.postorder(graph):
        out[name] = _effects(rules[name].body, out)
    return out


def _names(e) -> set:
    if e is None:
        return set()
    out = set()
    for n in S.walk(e):
        if isinstance(n, S.Name):
            out.add(n.id)
        elif isinstance(n, S.Call):
            out.add("alive" if n.fn in ("alive_players", "alive_teams", "alive") else n.fn)
    return out


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    coll = c.collection(st.coll, env)
    items_slot = env.new_slot(None)
    idx_slot = env.new_slot(None)
    var_slot = env.new_slot(st.var)
    inner = env.with_local(st.var, var_slot)
    cond = c.expr(st.cond, inner) if st.cond is not None else None
    end = Label()

    first = len(c.code)

    def init(s, ip=first):
        s.loc_slots[items_slot] = tuple(coll(s))
        s.loc_slots[idx_slot] = 0
        return ip + 1
    c.emit(init, owner, st.span)
    head = len(c.code)

    def step(s, ip=head):
        L = s.loc_slots
        items = L[items_slot]
        while L[idx_slot] < len(items):
            L[var_slot] = items[L[idx_slot]]
            L[idx_slot] += 1
            if cond is None or cond(s):
                return ip + 1
        return end.ip
    c.emit(c.counting_rounds(st, step, head + 1), owner, st.span)
    c.block(st.body, inner, owner)
    back = c.jump(head, owner, st.span)
    end.ip = len(c.code)
    for sl in (items_slot, idx_slot, var_slot):
        c.slot_scopes[sl] = (first, end.ip)

    def fused(f, resume=None):
        items, i = f"items{items_slot}", f"L[{idx_slot}]"
        body = f.rounds(st) + f.body(head + 1, back)
        # the slots hold the pass's item and how many passes have begun, as the instructions keep them
        passes = (f.indented(body) if cond is None
                  else [f"    at = {head!r}", f"    if {f.of(cond)}:"] + f.indented(f.indented(body)))
        if resume is not None:      # in the pass that holds it; the passes after it as ever
            return [f"{items} = L[{items_slot}]"] + f.resume_body(head + 1, back, resume) + [
                f"for {i}, L[{var_slot}] in {f.name(enumerate)}({items}[{i}:], {i} + 1):"] + passes
        return [f"at = {first!r}", f"{items} = L[{items_slot}] = {f.name(tuple)}({f.of(coll)})", f"{i} = 0",
                f"for {i}, L[{var_slot}] in {f.name(enumerate)}({items}, 1):"] + passes
    c.fuse(first, fused)


# ---------------------------------------------------------------- reading
def read(v, st) -> Item:
    noun = v.noun(st.coll)
    state = idioms.state_filter(v, st.var, st.coll, st.cond)
    if state is None:
        coll, filtered = v.expr(st.coll), st.cond
        lead = [("", "For each of ")] + coll
    else:       # 'each player still in the game', 「ゲームに残っているプレイヤー」
        title, filtered = [("term", v.title(state[0]))], state[1]
        coll, lead = title + [("", noun[0])], [("", f"For each {noun[1]} ")] + title
    with v.bound(st.var, noun):
        # a long condition is a list under the head, as an option's `where` is (blocks.py)
        cond, listed = condition(v, filtered) if filtered is not None else (None, [])
        everyone = isinstance(st.coll, S.Name) and st.coll.id in ("players", "teams") and st.cond is None
        if everyone:
            head = [("", say(v.lang, f"各{noun[0]}について:", f"For each {noun[1]}:"))]
        elif v.lang == "ja":
            head = coll + ([("", "のうち、")] + (cond + [("", "を満たす")] if listed else that(cond)) + [("", "もの")]
                           if cond else []) + [("", "それぞれについて:")]
        else:
            head = lead + ([("", " where ")] + cond + [("", " hold" if listed else "")] if cond else []) + [("", ":")]
        return Item("each", head, listed + v.body(st.body), span=st.span)


# ---------------------------------------------------------------- analyses
def order(st, use):
    # the body runs in the collection's order
    use.iterates(st.var, st.coll)
    use.reads_order(st.coll)


register(ForEach, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read, events=Absent("each pass shows in what its statements do"), order=order)
