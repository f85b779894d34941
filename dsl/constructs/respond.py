"""`in turn order after P, the first Q who chooses one of ...`: a claim any player may answer
(challenge, block), the first in turn order who does.

Each player still in after P in turn order (P left out), as Q, chooses between passing and
the options; the first who takes an option carries it out and nobody after them is asked.
It is a sequence of ordinary decisions, one seat at a time, so agents and information sets
treat each answer as any other choice; `pass` is the option each of them may always take.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.program import Label
from ..language.building import span
from ..language.kinds import PLAYER
from ..language.syntax import Expr, Stmt
from ..printing.runs import Item, say
from .registry import Absent, hook, register

DECLINE = "pass"    # the option every responder has; no written option can take the name (a reserved word)


@dataclass(frozen=True)
class Respond(Stmt):
    after: Expr                 # the player whose turn order it follows (left out)
    var: str                    # each responder in turn, in the options
    options: tuple = ()         # choose.Option: the responses


# ---------------------------------------------------------------- grammar
def _respond(meta, c):
    return Respond(span(meta), c[0], str(c[1]), tuple(c[2:]))


GRAMMAR = {"respond": _respond}


# a local no rule file can name (not a word): set by the pass, read after the choice
_PASSED = "passed?"


def _choice(st: Respond, compiled: bool = False):
    """The choice each responder is offered: passing, or one of the responses. Compiled, the
    pass also notes that it was taken."""
    from .assign import Assign, Target
    from .choose import Choose, Option
    from .name import Name
    from .number import Num
    from .pass_ import Pass
    noted = (Assign(st.span, "set", Target(_PASSED, None, st.span), Num(st.span, 1)),) if compiled else (Pass(st.span),)
    decline = Option(DECLINE, (), None, None, (), noted, st.span)
    return Choose(st.span, Name(st.span, st.var), (decline,) + st.options)


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    ck.expr(st.after, scope, want=PLAYER)
    choice = _choice(st)
    hook(choice, "check")(ck, choice, scope.child(**{st.var: PLAYER}), t)


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    after = c.expr(st.after, env)
    items_slot, idx_slot = env.new_slot(None), env.new_slot(None)
    var_slot, passed_slot = env.new_slot(st.var), env.new_slot(None)
    inner = env.with_local(st.var, var_slot).with_local(_PASSED, passed_slot)
    turn_after = c.turn_after[1]
    end = Label()
    first = len(c.code)

    def init(s, ip=first):
        p = after(s)
        # the players still in after p, in turn order, p left out (turn_after ends with p itself)
        s.loc_slots[items_slot] = tuple(q for q in turn_after[p] if q != p and s.alive[q])
        s.loc_slots[idx_slot] = 0
        return ip + 1
    c.emit(init, owner, st.span)
    head = len(c.code)

    def ask_next(s, ip=head):
        L = s.loc_slots
        items = L[items_slot]
        while L[idx_slot] < len(items):
            q = items[L[idx_slot]]
            L[idx_slot] += 1
            if s.alive[q]:          # a response before may have put this player out
                L[var_slot] = q
                L[passed_slot] = 0
                return ip + 1
        return end.ip
    c.emit(ask_next, owner, st.span)
    choice = _choice(st, compiled=True)
    hook(choice, "compile")(c, choice, inner, owner)
    here = len(c.code)

    def answered(s, ip=here):
        # a pass asks the next player; a response ends the round
        return head if s.loc_slots[passed_slot] else ip + 1
    c.emit(answered, owner, st.span)
    end.ip = len(c.code)
    for sl in (items_slot, idx_slot, var_slot, passed_slot):
        c.slot_scopes[sl] = (first, end.ip)


# ---------------------------------------------------------------- reading
def read(v, st) -> Item:
    from .choose import _option
    who = v.expr(st.after)
    with v.bound(st.var, ("プレイヤー", "player")):
        head = say(v.lang, [("", "手番の順に、")] + who + [("", "の次のプレイヤーから、残っている各プレイヤーは"
                                                    "パスするか、次のどれか一つを選ぶ。最初に選んだプレイヤーがそれを行い、"
                                                    "それより後のプレイヤーには聞かない:")],
                   [("", "In turn order from the player after ")] + who
                   + [("", ", each player still in may pass or choose one of the following; the first who chooses "
                           "does it, and nobody after them is asked:")])
        return Item("choice", head, [_option(v, o, False) for o in st.options], span=st.span)


# ---------------------------------------------------------------- analyses
def order(st, use):
    # the responders are taken in turn order, as `next_player` gives them
    use.binds_local(st.var)


register(Respond, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read,
         events=Absent("each answer is a choice, told as any other"), order=order)
