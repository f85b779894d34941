"""`step`, `phase` and `assume`: named blocks of statements (an `assume` holds the provisional
answer to an open question).

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language import syntax as S
from ..language.building import body_of, span
from ..language.syntax import Stmt, Text
from ..printing.runs import UNDECIDED, Item, notes_of, say
from .registry import nothing, register


@dataclass(frozen=True)
class Block(Stmt):
    """A named container of statements: step, phase or assume (answer to a question)."""
    kind: str                   # 'step' | 'phase' | 'assume'
    name: str
    texts: tuple[Text, ...]
    body: tuple[Stmt, ...]


# ---------------------------------------------------------------- grammar
def _named_block(kind):
    def build(meta, c):
        texts, stmts = body_of(c[1])
        return Block(span(meta), kind, str(c[0]), texts, stmts)
    return build


GRAMMAR = {"step": _named_block("step"), "phase": _named_block("phase"), "assume": _named_block("assume")}


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    if st.kind == "assume":
        q = ck.declared.get(st.name)
        ck.used.add(st.name)
        if not isinstance(q, S.Question):
            ck.error(st.span, f"'assume {st.name}' names no open question",
                       ck.did_you_mean(st.name, lambda: [x.name for x in ck.of(S.Question)])
                       or "declare it with 'question NAME'")
    ck.block(st.body, scope, t)


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    cov = len(c.block_names)
    c.block_names.append((st.kind, st.name, st.span))
    name = st.name if st.kind != "assume" else owner

    def enter(s, ip=len(c.code), cov=cov, kind=st.kind, bname=st.name):
        if s.fired is not None:
            s.fired[cov] = s.fired.get(cov, 0) + 1
        if s.log is not None:
            s.log.append({"event": kind, "name": bname})
        return ip + 1
    first = c.emit(enter, name, st.span)
    c.block(st.body, env, name)
    end = len(c.code)
    c.fuse(first, lambda f, resume=None: f.entered(first) + f.body(first + 1, end) if resume is None
           else f.resume_body(first + 1, end, resume))


# ---------------------------------------------------------------- reading
def read(v, st) -> Item:
    texts = notes_of(st.texts, v.lang)
    if st.kind == "assume":
        question = v.name(st.name)
        item = Item("assume", say(v.lang, [("", "未決の問題「")] + question + [("", "」: 決まるまでの仮の扱い:")],
                                  [("", "Not yet decided: “")] + question + [("", "”. Until it is, play this way:")]),
                    v.body(st.body), texts, st.name, say(v.lang, *UNDECIDED), st.span)
        return item
    return Item(st.kind, [("term", v.title(st.name))], v.body(st.body), texts, st.name, span=st.span)


# ---------------------------------------------------------------- narration
def _heading(n, ev) -> str:
    return f"== {n.step(ev['name'])}"


def _assumed(n, ev) -> str:
    q = n.name(ev["name"])
    return n.say(f"   (未決の問題「{q}」: 仮の答えを使う)", f"   (open question '{q}': using the provisional answer)")


register(Block, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read, events={"step": _heading, "phase": _heading, "assume": _assumed}, order=nothing)
