"""The rule language read aloud: the Voice that reads one rule set in one language.

Every construct's Japanese and English live in its own module (dsl/constructs/); the Voice
reads names through the rule file's own titles (`title ja "..." en "..."`) and dispatches
each expression, statement and declaration to its construct's reading. A name without a
title is shown as written, in code style. The output is runs and items (printing/runs.py).

May import: the language, the constructs and printing/runs.py.
"""
from __future__ import annotations

from ..constructs.registry import Absent, hook, loaded
from ..constructs.choose import choice_summary, option_head
from ..constructs.question import open_question
from ..constructs.rule import rule_item
from ..constructs.trigger import trigger_item, whenever
from ..language import syntax as S
from .runs import UNDECIDED, Item, Runs, notes_of, plain, say, title_of

__all__ = ["UNDECIDED", "Item", "Runs", "Voice", "choice_summary", "describe", "notes_of", "open_question",
           "option_head", "plain", "readable", "rule_item", "say", "title_of", "trigger_item", "whenever"]


class Voice:
    """Reads expressions and statements of one rule set in one language."""

    def __init__(self, rules: S.RuleFile, lang: str):
        self.lang = lang
        self.rules = rules
        self.titles: dict[str, str] = {}
        self.kinds: dict[str, S.Decl] = {}
        for d in rules.decls:
            self.kinds.setdefault(d.name, d)
            self._title(d.name, d.texts)
            if isinstance(d, (S.Rule, S.Trigger, S.Flow)):
                for st in S.statements(d.body):
                    if isinstance(st, S.Block):
                        self._title(st.name, st.texts)
                    elif isinstance(st, S.Choose):
                        for o in st.options:
                            self._title(o.name, o.texts)

    def _title(self, name: str, texts) -> None:
        t = title_of(texts, self.lang)
        if t:
            self.titles.setdefault(name, t)

    # ------------------------------------------------------------ names
    def name(self, n: str) -> Runs:
        if n in self.titles:
            return [("term", self.titles[n])]
        constant = {"players": say(self.lang, "全員", "every player"), "teams": say(self.lang, "全チーム", "every team"),
                    "nobody": say(self.lang, "なし", "nobody"),
                    "true": say(self.lang, "はい", "yes"), "false": say(self.lang, "いいえ", "no")}
        if n in constant:
            return [("", constant[n])]
        return [("code", n)]

    def title(self, n: str) -> str:
        return self.titles.get(n, n)

    # ------------------------------------------------------------ expressions
    def expr(self, e: S.Expr) -> Runs:
        return hook(e, "read")(self, e)

    def exprs(self, items, sep: str | None = None) -> Runs:
        out: Runs = []
        for i, x in enumerate(items):
            if i:
                out.append(("", sep if sep is not None else say(self.lang, "、", ", ")))
            out += self.expr(x)
        return out

    # ------------------------------------------------------------ statements
    def stmt(self, st: S.Stmt) -> Item:
        return hook(st, "read")(self, st)

    def body(self, stmts) -> list[Item]:
        return [self.stmt(st) for st in stmts]


def describe(v: Voice, d: S.Decl, counts=()) -> Runs:
    """A declared thing, as the rulebook's tables print it beside its title."""
    return hook(d, "read")(v, d, counts)


def readable() -> set[type]:
    """Every syntax class that has a reading (a test checks none is missing)."""
    return {node for node, c in loaded().items() if not isinstance(c.hooks.get("read", Absent("")), Absent)}
