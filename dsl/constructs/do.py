"""`do RULE(args)`: carry out a named rule, its parameters bound to the arguments.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.errors import RuleError
from ..engine.values import Piece, Player
from ..language import syntax as S
from ..language.building import span
from ..language.syntax import Expr, Stmt
from ..printing.blocks import formula, is_arithmetic
from ..printing import idioms
from ..printing.runs import Item, Runs, join, say, sentence, title_of
from .registry import register


@dataclass(frozen=True)
class Do(Stmt):
    rule: str
    args: tuple[Expr, ...]


# ---------------------------------------------------------------- grammar
def _do_stmt(meta, c):
    return Do(span(meta), str(c[0]), tuple(a for a in c[1:] if a is not None))


GRAMMAR = {"do_stmt": _do_stmt}


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    d = ck.declared.get(st.rule)
    ck.used.add(st.rule)
    if not isinstance(d, S.Rule):
        ck.error(st.span, f"unknown rule '{st.rule}'",
                   ck.did_you_mean(st.rule, lambda: [r.name for r in ck.of(S.Rule)]))
    elif len(d.params) != len(st.args):
        ck.error(st.span, f"rule '{st.rule}' takes {len(d.params)} argument(s), not {len(st.args)}")
    for a in st.args:
        ck.expr(a, scope)


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    rule = c.rule_decls.get(st.rule)
    if rule is None:
        raise RuleError("name", f"unknown rule '{st.rule}'", st.span)
    if rule.name in c.inlining:
        raise RuleError("recursion", f"rule '{rule.name}' runs itself through 'do'", st.span)
    first = len(c.code)
    slots = []
    values = []
    inner = env
    for pname, arg in zip(rule.params, st.args):
        slot = env.new_slot(pname)
        value = c.expr(arg, env)
        values.append(value)

        def bind(s, ip=len(c.code), slot=slot, value=value):
            s.loc_slots[slot] = value(s)
            return ip + 1
        c.emit(bind, owner, st.span)
        inner = inner.with_local(pname, slot)
        slots.append(slot)
    cov = len(c.block_names)
    c.block_names.append(("rule", rule.name, rule.span))

    # whom the rule is carried out for and the piece that names them (`holder(first(best))`):
    # the table's outcome sentence says "P2 takes the trick with ♠K" from them
    by = [c.expr(a.args[0], env) if isinstance(a, S.Call) and a.fn == "holder" and len(a.args) == 1 else None
          for a in st.args]

    def enter(s, ip=len(c.code), cov=cov, name=rule.name):
        if s.fired is not None:
            s.fired[cov] = s.fired.get(cov, 0) + 1
        if s.log is not None:
            s.log.append({"event": "rule", "name": name, **_whom(s, slots, by)})
        return ip + 1
    entry = c.emit(enter, rule.name, rule.span)
    c.inlining.append(rule.name)
    c.block(rule.body, inner, rule.name)
    c.inlining.pop()
    end = len(c.code)
    for sl in slots:
        c.slot_scopes[sl] = (first, end)

    def fused(f, resume=None):
        if resume is not None:
            return f.resume_body(entry + 1, end, resume)
        lines = []
        for k, (slot, value) in enumerate(zip(slots, values)):
            lines += [f"at = {first + k!r}", f"L[{slot!r}] = {f.of(value)}"]
        return lines + f.entered(entry) + f.body(entry + 1, end)
    c.fuse(first, fused)


def _whom(s, slots, by) -> dict:
    """The first player the rule is given (and as which parameter), and the piece found to name
    them, for the log."""
    for k, (slot, found) in enumerate(zip(slots, by)):
        v = s.loc_slots[slot]
        if type(v) is Player:
            out = {"player": int(v), "param": k}
            kept = list(s.loc_slots)        # the piece's own working slots: the state stays as unlogged play leaves it
            piece = found(s) if found is not None else None
            s.loc_slots[:] = kept
            if type(piece) is Piece:
                out["piece"] = int(piece)
            return out
    return {}


# ---------------------------------------------------------------- reading
def passed(v, rule, args) -> tuple[list[Runs], list[Item]]:
    """What a call passes, as the rule's parameters read: arithmetic is worked out on a line of
    its own ('the number = …'), named by what the rule takes it as."""
    nouns = [v.param_nouns.get((rule.name, i), ("数", "number")) for i in range(len(args))]
    worked = [formula(v, [("", say(v.lang, ja, "the " + en))], a)
              for a, (ja, en) in zip(args, nouns) if is_arithmetic(a)]
    named = [say(v.lang, [("", "下の" + ja)], [("", f"the {en} below")])
             if is_arithmetic(a) else v.expr(a) for a, (ja, en) in zip(args, nouns)]
    return named, worked


def read(v, st) -> Item:
    rule = v.kinds.get(st.rule)
    # by the rule's own title: a step may share the rule's name
    name = [("term", title_of(rule.texts, v.lang) or v.title(st.rule))] if isinstance(rule, S.Rule) else v.name(st.rule)
    if isinstance(rule, S.Rule) and st.args:
        args = [v.expr(a) for a in st.args]
        named, worked = passed(v, rule, st.args)
        with v.given(rule.params, named):
            inner = v.stmt(rule.body[0]) if len(rule.body) == 1 else None
        if inner is None and idioms.single_call(v, rule.name) is st:
            args = []       # the rule, carried out from here only, says them in these words
        if inner is not None and not inner.children:
            # a one-sentence rule reads in place, with what the call passes where the rule has its parameters
            return Item("sentence", [("", "「")] + name + [("", say(v.lang, "」: ", "”: "))] + inner.runs,
                        worked, span=st.span) if v.lang == "ja" else \
                Item("sentence", [("", "“")] + name + [("", "”: ")] + inner.runs, worked, span=st.span)
        if len(args) == 1 and v.is_someone(st.args[0]):
            # who carries it out, as a sentence says it: 'the player holding the highest trump carries out …';
            # a rule that does something only when its condition holds says so, lest 「チームの敗北」を
            # 行う read as the team being defeated
            only = _only_if(rule)
            return sentence(v, st, args[0] + [("", "が「")] + name + [("", "」を行う" + ("(条件を満たすときだけ)" if only else "") + "。")],
                            args[0] + [("", " carries out “")] + name + [("", "”" + (" (only when its condition holds)" if only else "") + ".")])
        given = given_values(v, rule.params, st.args, args)
        return sentence(v, st, [("", "「")] + name + [("", "」")] + given + [("", "を行う。")],
                         [("", "Carry out “")] + name + [("", "”")] + given + [("", ".")])
    return sentence(v, st, [("", "「")] + name + [("", "」を行う。")],
                     [("", "Carry out “")] + name + [("", "”.")])


def given_values(v, params, exprs, args: list) -> Runs:
    """What a call passes (`exprs`, read as `args`): whom it is for, and each value a titled parameter
    names by that title (「(手番のプレイヤーについて、適性のない地形でのフード: 0)」), not a bare number."""
    if not args:
        return []
    whom = [a for p, a in zip(params, args) if not v.named_param(p)]
    # a value passed on under its own name goes without saying: 「(適性のない地形でのフード: その適性の…)」
    named = [[("", v.named_param(p) + ": ")] + a for p, x, a in zip(params, exprs, args)
             if v.named_param(p) and not (isinstance(x, S.Name) and x.id == p)]
    if v.lang == "ja":
        return [("", "(")] + (join(whom, "、") + [("", "について")] if whom else []) + \
            ([("", "、")] if whom and named else []) + join(named, "、") + [("", ")")]
    return ([("", " for ")] + join(whom, " and ") if whom else []) + \
        ([("", " (")] + join(named, ", ") + [("", ")")] if named else [])


def _only_if(rule: S.Rule) -> bool:
    """A rule whose whole body is one `if` with no `else`: carrying it out may do nothing."""
    return len(rule.body) == 1 and type(rule.body[0]).__name__ == "If" and rule.body[0].otherwise is None


# ---------------------------------------------------------------- narration
def _narrate(n, ev) -> str:
    return f"-- {n.name(ev['name'])}"


# ---------------------------------------------------------------- analyses
def order(st, use):
    use.passes_to_rule(st.rule, st.args)


register(Do, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read, events={"rule": _narrate}, order=order)
