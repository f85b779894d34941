"""`rule NAME(params)`: a named block of statements that `do` carries out.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass

from ..language.building import body_of, span
from ..language.kinds import ANY, Scope
from ..language.syntax import Decl, Stmt
from ..printing import idioms
from ..printing.runs import Item, notes_of, say, title_of
from . import do
from .registry import register


@dataclass(frozen=True)
class Rule(Decl):
    keyword = "rule"
    params: tuple[str, ...]
    body: tuple[Stmt, ...]


# ---------------------------------------------------------------- grammar
def _rule(meta, c):
    params = tuple(str(p) for p in c[1:-1] if p is not None)
    texts, body = body_of(c[-1])
    return Rule(str(c[0]), texts, span(meta), params, body)


GRAMMAR = {"rule": _rule}


# ---------------------------------------------------------------- checks
def check(ck, d):
    ck.block(d.body, Scope({p: ANY for p in d.params}), in_trigger=False)


# ---------------------------------------------------------------- reading
def params_bound(v, d, read):
    """Read a rule or value with its parameters named by what its callers pass ('that team')."""
    nouns = [v.param_nouns.get((d.name, i), ("もの", "item")) for i in range(len(d.params))]
    with ExitStack() as bound:
        for name, noun in zip(d.params, nouns):
            bound.enter_context(v.bound(name, noun, role="param alone" if nouns.count(noun) == 1 else "param"))
        return read(nouns)


def _for_whom(v, params, nouns) -> str:
    ja, en, seen = [], [], {}
    for p, n in zip(params, nouns):
        seen[n] = seen.get(n, 0) + 1
        if v.named_param(p):            # a value the call names: 'the food on unsuitable terrain'
            ja.append(v.named_param(p))
            en.append("the " + v.named_param(p))
            continue
        ja.append(n[0] if seen[n] == 1 else "もう一つの" + n[0])
        en.append(("a " if seen[n] == 1 else "another ") + n[1])
    return say(v.lang, "対象: " + "と".join(ja), "For " + " and ".join(en) + ".")


def rule_item(v, r) -> Item:
    call = idioms.single_call(v, r.name)
    if call is not None:
        # carried out from one place: its parameters in the caller's words ('the challenger')
        named, worked = do.passed(v, r, call.args)
        with v.given(r.params, named):
            return Item("rule", [("term", title_of(r.texts, v.lang) or v.title(r.name))], worked + v.body(r.body), notes_of(r.texts, v.lang),
                        r.name, span=r.span)
    caller = idioms.one_caller(v, r.name)
    if caller is not None and r.params and len(r.body) == 1 \
            and not params_bound(v, r, lambda nouns: v.stmt(r.body[0])).children:
        # read in place at each of its calls, in the caller's words: said there, not again here
        where = v.title(caller) if caller in v.titles else ""
        it = Item("rule", [("term", title_of(r.texts, v.lang) or v.title(r.name))], [], notes_of(r.texts, v.lang), r.name, span=r.span)
        it.texts.insert(0, ("params", say(v.lang, f"「{where}」の中で行う。だれについて行うかは、そこに書いてある。",
                                          f"Carried out within “{where}”, which says for whom.")))
        return it
    acted = idioms.acted_by(v, r)
    if acted is not None:
        # carried out by whoever the caller names: said once, then 'the acting player' throughout
        noun = v.param_nouns.get((r.name, 0), ("プレイヤー", "player"))
        with v.given(r.params, [idioms.acting(v, noun)]):
            it = Item("rule", [("term", title_of(r.texts, v.lang) or v.title(r.name))], v.body(r.body),
                      notes_of(r.texts, v.lang), r.name, span=r.span)
        it.texts.insert(0, ("params", idioms.read_acted_by(v, v.title(caller), acted, noun)))
        return it

    def read(nouns):
        it = Item("rule", [("term", title_of(r.texts, v.lang) or v.title(r.name))], v.body(r.body), notes_of(r.texts, v.lang), r.name, span=r.span)
        if r.params:
            it.texts.insert(0, ("params", _for_whom(v, r.params, nouns)))
        return it
    return params_bound(v, r, read)


register(Rule, "declaration", grammar=GRAMMAR, check=check, read=rule_item)
