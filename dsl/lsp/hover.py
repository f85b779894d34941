"""Hover: what the thing under the cursor means, read aloud in Japanese or English.

A declared name shows its kind, title, what the rulebook prints for it (a parameter's
value, a zone's owner and who sees it...), its notes and where it is declared; a builtin
shows its signature and reading; any other statement or expression shows its reading,
the same sentences the rulebook prints (dsl.printing.prose).

Imports: dsl.language.syntax, dsl.engine.builtins, dsl.printing.prose, this package.
"""
from __future__ import annotations

import os
import re

from ..engine.builtins import BUILTINS, worded
from ..language import syntax as S
from ..printing import prose as P
from .resolve import Analysis
from .tokens import span_contains

_KINDS = {  # how each kind of declaration is called, (ja, en)
    "game": ("ゲーム", "game"), "parameter": ("パラメータ", "parameter"), "counter": ("カウンター", "counter"),
    "variable": ("変数", "variable"), "dice": ("さいころ", "dice"), "deck": ("カードの山", "deck"),
    "token": ("コマ", "token"), "board": ("盤", "board"), "zone": ("置き場", "zone"), "order": ("順位", "order"),
    "value": ("値", "value"), "rule": ("ルール", "rule"), "trigger": ("常時ルール", "trigger"),
    "question": ("未決の問題", "open question"), "step": ("手順", "step"), "phase": ("フェーズ", "phase"),
    "cases": ("場合分け", "cases"), "variant": ("バリアント", "variant"),
}

# What Markdown reads as markup: links and images ([ ] !), HTML and autolinks (< > &), emphasis,
# code, headings, tables and strikethrough. The designer's text is shown as text, never as these.
_MARKUP = re.compile(r"([\\`*_\[\]<>&#|~!])")


def escaped(s: str) -> str:
    """Text from the rule file (or read aloud from it) as Markdown that shows it literally."""
    return _MARKUP.sub(r"\\\1", s)


# The declarations the rulebook describes beside their titles (prose.describe).
_DESCRIBED = {S.Component, S.Zone, S.Board, S.Parameter, S.Counter, S.Define, S.Order, S.Question}


def hover(a: Analysis, line0: int, char: int, lang: str) -> str | None:
    """Markdown for the position, or None when there is nothing to say."""
    voice = P.Voice(a.rules, lang)
    name = a.index.name_at(a.path, line0, char)
    if name is not None:
        text = _about_name(a, voice, name)
        if text:
            return text
    node = a.index.innermost(a.path, line0, char)
    if node is not None:
        return _reading(voice, node)
    for d in a.tree.decls:
        if span_contains(d.span, line0, char) and type(d) in _DESCRIBED:
            return _about_decl(a, voice, d)
    return None


def _about_name(a: Analysis, v: P.Voice, name: str) -> str | None:
    decl = next((d for d in a.rules.decls if getattr(d, "name", None) == name
                 and not isinstance(d, (S.Flow, S.Patch))), None)
    if decl is not None:
        return _about_decl(a, v, decl)
    locs = a.index.declarations(name)
    if locs:                    # a step, phase or named cases (declared inside a body)
        node = locs[-1].node
        head = _head(v, locs[-1].kind, name, getattr(node, "texts", ()))
        return "\n\n".join([head] + _notes(v, getattr(node, "texts", ())) + [_where(a, v, locs[-1].path, locs[-1].line + 1)])
    b = BUILTINS.get(name)
    if b is not None:
        sig, args = signature(name)
        reading = worded(P.say(v.lang, b.ja, b.en)).format(*args, *[""] * 9)
        what = P.say(v.lang, "組み込み関数", "builtin")
        return f"**{what}** `{sig}`\n\n{reading}"
    return None


def signature(name: str) -> tuple[str, list[str]]:
    """A builtin's call as written, `count(a)`, `max(a, ...)`, and its argument names."""
    lo, hi = BUILTINS[name].arity
    args = [chr(ord("a") + i) for i in range(hi if hi < 9 else lo)]
    return f"{name}({', '.join(args)}{', ...' if hi >= 9 else ''})", args


def _about_decl(a: Analysis, v: P.Voice, d: S.Decl) -> str:
    kind = S.kind_of(d)
    parts = [_head(v, kind, d.name, d.texts)]
    if type(d) in _DESCRIBED:
        said = _plain(P.describe(v, d))
        if said:
            parts.append(escaped(said))
    if isinstance(d, S.Parameter) and d.provisional:
        parts.append(P.say(v.lang, "仮の値(", "provisional (") + P.say(v.lang, *P.UNDECIDED) + ")")
    if isinstance(d, (S.Rule, S.Define)) and d.params:
        parts.append(P.say(v.lang, "受け取るもの: ", "takes: ") + ", ".join(f"`{p}`" for p in d.params))
    if isinstance(d, S.Trigger):
        parts.append(escaped(P.whenever(v, d)))
    parts += _notes(v, d.texts)
    parts.append(_where(a, v, d.span.file or a.rules.path, d.span.line))
    return "\n\n".join(parts)


def _head(v: P.Voice, kind: str, name: str, texts) -> str:
    ja, en = _KINDS.get(kind, (kind, kind))
    title = P.title_of(texts, v.lang)
    return f"**{P.say(v.lang, ja, en)}** `{name}`" + (f" — {escaped(title)}" if title else "")


def _notes(v: P.Voice, texts) -> list[str]:
    return [escaped(note) for _, note in P.notes_of(texts, v.lang)]


def _where(a: Analysis, v: P.Voice, path: str, line: int) -> str:
    if path != a.path:
        return f"*{escaped(os.path.basename(path))}:{line}*"
    return "*" + P.say(v.lang, f"{line}行目", f"line {line}") + "*"


def _reading(v: P.Voice, node) -> str | None:
    try:
        if isinstance(node, S.Expr):
            return escaped(_plain(v.expr(node)))
        return "\n".join(_lines(v.stmt(node), 0, [12]))
    except (IndexError, KeyError, AttributeError, TypeError):
        return None             # a construct the checker rejects may have no reading


def _lines(item: P.Item, depth: int, budget: list[int]):
    """An item and what hangs under it, indented, at most a dozen lines."""
    text = _plain(item.runs)
    if text and budget[0] > 0:
        budget[0] -= 1
        yield "  " * depth + ("- " if depth else "") + escaped(text)
        depth += 1
    for child in item.children:
        yield from _lines(child, depth, budget)


def _plain(runs) -> str:
    return P.plain(runs).strip()
