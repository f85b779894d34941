"""`question NAME`: an open question the seed leaves, perhaps about a named rule or step.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..language.building import span
from ..language.syntax import Decl
from ..printing.runs import UNDECIDED, Item, Runs, notes_of, say
from .registry import register


@dataclass(frozen=True)
class Question(Decl):
    keyword = "question"
    about: Optional[str] = None     # the rule or step the question concerns; `teams`: how teams are formed


# ---------------------------------------------------------------- grammar
def _question(meta, c):
    return Question(str(c[0]), c[2], span(meta), str(c[1]) if c[1] is not None else None)


GRAMMAR = {"question": _question}


# ---------------------------------------------------------------- checks
def check(ck, d):
    if d.about is not None:
        ck.used.add(d.name)
        if d.about == "teams" and ck.game is not None and ck.game.team_size > 1:
            return                  # how teams are formed: the setup step the book prints for `teams of N`
        if d.about not in ck.declared and d.about not in ck.all_step_names():
            ck.error(d.span, f"question '{d.name}' is about '{d.about}', which is not a rule, step or named cases",
                       ck.did_you_mean(d.about, lambda: list(ck.declared) + list(ck.all_step_names())))


# ---------------------------------------------------------------- reading
def open_question(v, q) -> Item:
    text = " ".join(t for _, t in notes_of(q.texts, v.lang))
    return Item("question", say(v.lang, [("", "未決の問題「")] + v.name(q.name) + [("", "」")],
                                [("", "Not yet decided: “")] + v.name(q.name) + [("", "”")]),
                texts=[("text", text)] if text else [], name=q.name, flag=say(v.lang, *UNDECIDED), span=q.span)


def read(v, q, counts=()) -> Runs:
    if not q.about:
        return []
    return [("", say(v.lang, f"関係するルール: {v.title(q.about)}", f"concerns: {v.title(q.about)}"))]


register(Question, "declaration", grammar=GRAMMAR, check=check, read=read)
