"""Learn to Play: the book's first layer, the game in the order of play, each part in one plain sentence.

The sentences are the designer's own (a rule's, step's or the game's `text`) and the titles the
rules give; a rule that carries no text has no plain reading here, so the page names its entry in
the Rules Reference instead of printing a formula, and `playtest check` warns the designer
(`formula_warnings`) that the book will send the reader there.

May import: the language and printing/runs.py, prose.py, labels.py, sheet.py.
"""
from __future__ import annotations

import re

from ..language import syntax as S
from ..language.diagnostics import Diagnostic
from .labels import label
from .prose import Voice, notes_of, title_of
from .runs import say
from .sheet import reachable_rules


# Arithmetic, a query over players or code: a line that reads as computation, not as a sentence.
FORMULA = re.compile(r"\bmod\b|[×−÷]|[^\s\d(〜~-]\s?[-+]\s?\d|\S\s[+\-]\s\S|\bthe number of every\b|\bevery player where\b|`")


def _said(texts, lang: str) -> str:
    """The designer's first line about a thing, if it reads as a plain sentence; else nothing."""
    line = next((t for k, t in notes_of(texts, lang) if k == "text"), "")
    return "" if FORMULA.search(line) else line


def _steps(node, depth: int = 0):
    """Every step and phase of a flow, in the order of play, with how deep it stands."""
    for c in S.children(node):
        if isinstance(c, S.Block) and c.kind in ("step", "phase"):
            yield c, depth
            yield from _steps(c, depth + 1)
        elif isinstance(c, S.Node):
            yield from _steps(c, depth)


def _refer(lang: str, title: str) -> str:
    return say(lang, f"ルール詳細の「{title}」を参照。", f"See “{title}” in the Rules Reference.")


def _actions(rules: S.RuleFile) -> list[S.Rule]:
    """The rules a turn carries out, in the order a player first meets them in play (a rule's own
    rules right after it), then any play never reaches, as declared."""
    first = reachable_rules(rules)
    return first + [r for r in rules.of(S.Rule) if r not in first]


def learn_entries(rules: S.RuleFile, v: Voice, lang: str, ending_title: str) -> list:
    """The entries of Learn to Play: goal, components, setup, a turn, the actions, scoring, the end."""
    from .rulebook import Entry       # one data shape for every entry of the book
    out = []
    game = rules.game
    goal = _said(game.texts, lang)
    words = _words(rules, v, lang)
    if words:
        # before the first sentence that could use them: a word of the game is defined where first met
        out.append(Entry(say(lang, "この本の言葉", "Words to know"), "learn-words", [], notes=words))
    # a goal the designer has not put in words is where the game ends; a sheet names its own heading
    out.append(Entry(say(lang, "目的", "The goal"), "learn-goal" if goal else "learn-goal-see",
                     [("", goal or _refer(lang, ending_title))]))
    comps = [v.title(c.name) for c in rules.decls if isinstance(c, (S.Component, S.ExtraComponent))
             and not getattr(c, "part_of", None)]
    if comps:
        out.append(Entry(say(lang, "使うもの", "What you need"), "learn-components",
                         [("", say(lang, "、".join(comps) + "。", (", ".join(comps) + ".")[:1].upper() + (", ".join(comps) + ".")[1:]))]))
    for flow in rules.of(S.Flow):
        key = "setup" if flow.name == "setup" else "turn"
        lines = []
        for block, depth in _steps(flow):
            title = title_of(block.texts, lang) or v.title(block.name)
            text = _said(block.texts, lang)
            lines.append(("  " * depth) + title + (say(lang, ": ", ": ") + text if text else ""))
        if not lines:
            continue
        head = say(lang, "準備", "Setup") if key == "setup" else say(lang, "ゲームの進め方", "How a game goes")
        intro = say(lang, "次の順に行う。", "In this order:")
        out.append(Entry(head, "learn-" + key, [("", intro)], notes=[("text", ln) for ln in lines]))
    acts = []
    for r in _actions(rules):
        text = _said(r.texts, lang)
        acts.append(("text", v.title(r.name) + ": " + (text or _refer(lang, v.title(r.name)))))
    if acts:
        out.append(Entry(say(lang, "行うこと", "The actions"), "learn-actions",
                         [("", say(lang, "ゲーム中に行うことは次のとおり。", "What players do during the game:"))],
                         notes=acts))
    scores = rules.of(S.Score)
    lines = [("text", (label(lang, "score") if d.name not in v.titles else v.title(d.name)) + ": " +
              (_said(d.texts, lang) or _refer(lang, label(lang, "markers")))) for d in scores]
    if lines:
        out.append(Entry(say(lang, "得点", "Scoring"), "learn-scoring", [], notes=lines))
    out.append(Entry(say(lang, "ゲームの終わり", "The end"), "learn-end", [("", _refer(lang, ending_title))]))
    return out


def _words(rules: S.RuleFile, v: Voice, lang: str) -> list[tuple[str, str]]:
    """The game's own words a reader meets in Learn to Play, each with the designer's line about it:
    the places, the things kept track of, the named values, the designer's own words and the book's
    words for seats and turns; a word another's line uses is listed too, and before it."""
    from .glossary import glossary
    from .runs import plain
    shown = " ".join([_said(rules.game.texts, lang)] + [_said(d.texts, lang) for d in S.walk_rules(rules)
                                                        if isinstance(d, (S.Block, S.Rule)) and hasattr(d, "texts")]
                     + [title_of(d.texts, lang) or "" for d in S.walk_rules(rules) if isinstance(d, S.Block)])
    known: dict[str, str] = {}
    for d in rules.of(S.Zone) + rules.of(S.Counter) + rules.of(S.Define):
        word, line = v.title(d.name), _said(d.texts, lang)
        if line:
            known.setdefault(word, line)
    for _, word, detail in glossary(rules, v):
        if not FORMULA.search(plain(detail)):
            known.setdefault(word, plain(detail))
    # the words the sentences use, and those the lines about them use in turn
    def uses(text: str, u: str) -> bool:
        return u in text if lang == "ja" else _whole(u, text)
    met = [w for w in known if uses(shown, w) or w in shown]
    for w in met:
        met += [u for u in known if u not in met and u != w and uses(known[w], u)]
    # each word after the words its own line uses (a word first met in another's line comes first)
    ordered: list[str] = []

    def place(w: str, path: tuple = ()) -> None:
        if w in ordered or w in path:
            return
        for u in met:
            if u != w and uses(known[w], u):
                place(u, path + (w,))
        ordered.append(w)
    for w in [w for w in known if w in met]:
        place(w)
    return [("text", f"{w}: {known[w]}") for w in ordered]


def _whole(word: str, text: str) -> bool:
    return re.search(r"\b" + re.escape(word) + r"\b", text) is not None


def formula_warnings(rules: S.RuleFile) -> list[Diagnostic]:
    """A rule with no designer text: Learn to Play can only send the reader to its formula."""
    out = []
    if rules.game is None:
        return out
    for r in rules.of(S.Rule):
        if not _said(r.texts, "en") or not _said(r.texts, "ja"):
            where = rules.path_of(r.span)       # a variant's rule is its own file's
            out.append(Diagnostic(
                "warning", where, r.span,
                f"the rulebook's Learn to Play has no plain sentence for rule '{r.name}': it will send the "
                "reader to the formula in the Rules Reference",
                f"give '{r.name}' a line of designer text without arithmetic, in both languages: "
                "text ja \"...\" en \"...\""))
    return out
