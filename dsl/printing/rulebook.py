"""The rulebook's contents: the rule set as plain data, sections of prose items and tables.

`contents()` turns a rule set into sections of prose items from prose.py, tables of components,
zones, numbers and terms, the open questions and which variant changed what; the templates lay
it out.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from typing import Optional

from ..variants import overlay
from ..language import syntax as S
from ..engine import Game, RuleError
from ..variants.diff import diff
from ..constructs.component import count_runs
from ..constructs.trigger import read_bound
from ..constructs.define import read_blocks
from ..constructs.game import TEAMS_STEP, team_step
from .runs import when
from .prose import (Item, Runs, Voice, describe, notes_of, open_question, plain, rule_item, say, title_of,
                    trigger_item, whenever)
from .labels import label
from .cards import card_rows
from .sheet import one_page
from .examples import example_item
from .figures import add_figures
from .glossary import glossary
from .learn import learn_entries
from .tracking import tracked

@dataclass
class Entry:
    """A declared thing in a table of the rulebook: a component, zone, number, marker or term."""
    title: str
    name: str
    detail: list = field(default_factory=list)     # runs
    notes: list = field(default_factory=list)
    flag: str = ""
    mark: str = ""
    rows: list = field(default_factory=list)       # a card table: header row first
    blocks: list = field(default_factory=list)     # Items set out under the detail (a long condition as a list)
    places: list = field(default_factory=list)     # an open question's (where, anchor), in book order


@dataclass
class Section:
    key: str
    title: str
    items: list = field(default_factory=list)      # prose Items
    entries: list = field(default_factory=list)    # Entries
    intro: str = ""
    part: str = ""       # the layer this section opens (Learn to Play, Rules Reference), printed above it


@dataclass
class Contents:
    lang: str
    title: str
    game: str
    facts: list
    notes: list
    source: str
    variants: list
    removed: list
    undecided: list
    sections: list
    sheet: dict
    marks: int
    parts: dict          # (namespace, name) -> the text that part puts in the book, as diff.parts keys it


class _Builder:
    def __init__(self, rules: S.RuleFile, base: Optional[S.RuleFile], lang: str):
        self.rules, self.lang = rules, lang
        self.v = Voice(rules, lang)
        changes = diff(base, rules) if base is not None else []
        # (namespace, name) -> the file of each part a variant added or changed
        self.changed = {(overlay.family(c.kind), c.name): c.b.where.rsplit(":", 2)[0] for c in changes if c.b}
        removed = [c.name for c in changes if c.change == "removed"]
        self.removed = [Voice(base, lang).title(n) for n in removed] if removed else []
        self.parts: dict = {}
        self.marks = 0
        self.variant_titles = {vr.path: (title_of(overlay.head(vr).texts, lang) or overlay.head(vr).name)
                               for vr in rules.variants}
        self.questions = rules.of(S.Question)
        self.question_of = {q.name: q for q in self.questions}
        self.places: dict[str, list[tuple[str, str]]] = {}    # question -> (where, anchor), in book order
        assumed = {b.name for b in S.walk_rules(rules) if isinstance(b, S.Block) and b.kind == "assume"}
        # how the engine forms teams (by seat) is the provisional answer to a question about them
        formed = {q.name for q in self.questions if q.about == TEAMS_STEP}
        # a question whose own text says how this book plays it ("Here ...") has that for its
        # provisional answer: telling the table there is none would contradict the line above it
        stated = {q.name for q in self.questions if states_answer(q.texts)}
        self.unanswered = {q.name for q in self.questions} - assumed - formed - stated
        self.settled_by = settling_variants(rules, lang)
        self.named_cases = {st.span: st.name for d in rules.decls if isinstance(d, (S.Flow, S.Rule, S.Trigger))
                            for st in S.statements(d.body) if isinstance(st, S.Cases) and st.name}

    def mark_of(self, kind: str, name: str) -> str:
        path = self.changed.get((overlay.family(kind), name))
        if not path:
            return ""
        # a part of the game that a variant changed inside (a step added to a phase) is the variants'
        # doing, whichever file declares it: named by their titles, never by a file
        return self.variant_titles.get(path) or say(self.lang, "、", ", ").join(self.variant_titles.values())

    def mark_items(self, items: list[Item], where: tuple[str, ...]) -> None:
        """Mark the steps and phases a variant changed; put each open question where it applies.

        `where` is the section and the step or rule the items stand in, for the index of questions.
        """
        for it in items:
            here = where
            if it.kind in ("step", "phase", "rule"):
                it.mark = it.mark or self.mark_of(it.kind, it.name)
                self.marks += bool(it.mark)
                here = where[:1] + ((f"{it.number} " if it.number else "") + plain(it.runs),)
            named = it.name if it.kind in ("step", "phase", "rule") else self.named_cases.get(it.span)
            if named:
                # a question answered by an `assume` inside this part is printed there instead
                assumed = {a.name for a in _walk(it.children) if a.kind == "assume"}
                it.children[:0] = [open_question(self.v, q) for q in self.questions
                                   if q.about == named and q.name not in assumed]
            if it.kind in ("assume", "question"):
                self.place(it, here)
            self.mark_items(it.children, here)

    def place(self, it: Item, where: tuple[str, ...]) -> None:
        """An open question printed here: its text only the first time, an anchor for the index every time."""
        q = self.question_of.get(it.name)
        if q is None:
            return
        places = self.places.setdefault(q.name, [])
        # Item has no anchor of its own; a question's or assume's number is otherwise unused
        it.number = f"q{self.questions.index(q) + 1}" + (f"-{len(places) + 1}" if places else "")
        text = " ".join(t for _, t in notes_of(q.texts, self.lang))
        if it.kind == "question":
            it.texts = [(k, t) for k, t in it.texts if t != text]
        if not places and text:
            it.texts.append(("text", text))
        if not places and it.kind == "question":
            it.texts += self.at_the_table(q.name)
        places.append((" › ".join(where), it.number))

    def at_the_table(self, question: str) -> list[tuple[str, str]]:
        """What the table does about an open question the rules give no provisional answer to,
        and which variants settle it, by their titles."""
        if question not in self.unanswered:
            return []
        out = [("table", label(self.lang, "no_answer"))]
        if self.settled_by.get(question):
            quoted = say(self.lang, "、", ", ").join(say(self.lang, f"「{t}」", f"“{t}”") for t in self.settled_by[question])
            out.append(("table", label(self.lang, "settled_by", titles=quoted)))
        return out

    def entry(self, d: S.Decl, detail=(), flag="", rows=()) -> Entry:
        e = Entry(self.v.title(d.name), d.name, list(detail), notes_of(d.texts, self.lang), flag,
                  self.mark_of(S.kind_of(d), d.name), list(rows))
        self.marks += bool(e.mark)
        self.parts[(overlay.family(S.kind_of(d)), d.name)] = " ".join(
            [e.title, plain(e.detail), e.flag] + [t for _, t in e.notes] + [" | ".join(r) for r in e.rows])
        return e

    def part(self, kind: str, name: str, items: list[Item]) -> None:
        """Record a rule, trigger, flow, step or phase's own text; nested steps are parts of their own."""
        def own(it: Item, top: bool) -> str:
            if not top and it.kind in ("step", "phase"):
                self.part(it.kind, it.name, [it])
                return "[" + plain(it.runs) + "]"
            return " ".join([plain(it.runs), it.flag] + [t for _, t in it.texts] +
                            [own(c, False) for c in it.children])
        self.parts[(overlay.family(kind), name)] = " ".join(own(it, kind not in ("setup", "play")) for it in items)


def states_answer(texts) -> bool:
    """Whether a question's designer text gives the handling the rules use meanwhile, in either language."""
    return any(re.search(r"ここでは|\bhere\b", t.text, re.I) for t in texts if t.kind != "title")


def settling_variants(rules: S.RuleFile, lang: str) -> dict[str, list[str]]:
    """question -> the titles of the variants beside the game (its folder's ../variants/, as
    `playtest variants` looks) that remove it: each answers it. Those this book applies are left
    out: their answer is the book's."""
    folder = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(rules.path))), "variants")
    out: dict[str, list[str]] = {}
    for _, vr in overlay.other_variants(rules, folder):
        h = overlay.head(vr)
        for p in vr.of(S.Patch):
            if p.op == "remove" and p.kind == "question":
                out.setdefault(p.name, []).append(title_of(h.texts, lang) or h.name)
    return out


def _walk(items: list[Item]):
    for it in items:
        yield it
        yield from _walk(it.children)


# An `assume` holding more lines than this (or any step) is flagged by a line, not boxed: a box
# would hold most of a turn and could not be kept on one page.
FRAME_LINES = 10


def _frame_assumes(items: list[Item]) -> None:
    for it in _walk(items):
        if it.kind == "assume":
            inside = list(_walk(it.children))
            if len(inside) > FRAME_LINES or any(c.kind in ("step", "phase") for c in inside):
                it.kind = "assume-frame"


def _in_order(it: Item, lang: str) -> None:
    """A rule made of three or more steps, with no line of its own, says their order first: the
    steps stand pages apart, unnumbered, and a table needs the whole turn at a glance."""
    steps = [plain(c.runs) for c in it.children if c.kind == "step"]
    if len(steps) >= 3 and not any(k == "text" for k, _ in it.texts):
        it.texts.append(("text", say(lang, "次の順に行う: " + " → ".join(steps) + "。",
                                     "In this order: " + " → ".join(steps) + ".")))


def _number(items: list[Item], prefix: str = "") -> None:
    n = 0

    def walk(items):
        nonlocal n
        for it in items:
            if it.kind in ("step", "phase"):
                n += 1
                it.number = f"{prefix}{n}"
                _number(it.children, f"{it.number}.")
            else:
                walk(it.children)
    walk(items)


def _piece_counts(rules: S.RuleFile) -> dict[str, list[tuple[int, int]]]:
    """How many pieces of each component the rules imply, at each player count; for a component
    play does not model, what its count line says."""
    game = rules.game
    out: dict[str, list[tuple[int, int]]] = {}
    for n in range(game.min_players, game.max_players + 1):
        try:
            g = Game.laid_out(rules, n)
        except RuleError:
            continue
        for kind in {c.name for c in rules.of(S.Component)}:
            out.setdefault(kind, []).append((n, len(g.kind_pieces.get(kind, ()))))
        for d in rules.of(S.ExtraComponent):
            if d.count is not None:
                each = {"player": n, "team": len(g.teams)}.get(d.per, 1)
                out.setdefault(d.name, []).append((n, g.const(d.count, f"the count of '{d.name}'") * each))
    return out


def _parts(c: S.Decl, parts: list[S.Component], counts: dict, v: Voice, lang: str) -> Runs:
    """What is printed on a component (a tile's spaces): how many on each, where the rules say."""
    out: Runs = []
    for part in parts:
        whole, pieces = dict(counts.get(c.name, [])), dict(counts.get(part.name, []))
        each = {pieces[n] // whole[n] for n in whole if n in pieces and whole[n] and pieces[n] % whole[n] == 0}
        name = v.title(part.name)
        if len(each) == 1 and len(whole) == len(pieces):
            k = each.pop()
            out.append(("", say(lang, f" — 1つにつき{name}が{k}つ", f" — {k} × {name} on each")))
        else:
            out += [("", say(lang, f" — {name}: ", f" — {name}: "))] + count_runs(v, counts.get(part.name, []))
    return out


def contents(rules: S.RuleFile, lang: str, base: Optional[S.RuleFile] = None) -> Contents:
    b = _Builder(rules, base, lang)
    v = b.v
    game = rules.game
    sections: list[Section] = []

    # components, with the counts the rules imply
    counts = _piece_counts(rules)
    comps = []
    for c in [d for d in rules.decls if isinstance(d, (S.Component, S.ExtraComponent))]:
        if isinstance(c, S.Component) and c.part_of:
            continue        # printed on another component: listed there, not as something to unpack
        parts = [p for p in rules.of(S.Component) if p.part_of == c.name]
        comps.append(b.entry(c, describe(v, c, counts.get(c.name, [])) + _parts(c, parts, counts, v, lang),
                             rows=card_rows(c, v, lang) if getattr(c, "cards", ()) else []))
    parts_of = {c.name for c in rules.of(S.Component) if c.part_of}
    for c in rules.of(S.Component):
        if c.name in parts_of:
            b.entry(c, describe(v, c, counts.get(c.name, [])))      # still a part a variant may change
    sections.append(Section("components", label(lang, "components"), entries=comps))
    zones = [b.entry(d, describe(v, d)) for d in rules.of(S.Zone) + rules.of(S.Board)]
    sections.append(Section("zones", label(lang, "zones"), entries=zones))
    numbers = [b.entry(p, describe(v, p), flag=label(lang, "provisional") if p.provisional else "")
               for p in rules.of(S.Parameter)]
    sections.append(Section("numbers", label(lang, "numbers"), entries=numbers))
    # what players keep track of is what they touch: a value the rules only work out in passing
    # stands among the terms, a word the rules use, not something to remember
    kept = tracked(rules)
    markers = [b.entry(c, describe(v, c)) for c in rules.of(S.Counter) if c.name in kept]
    passing = [b.entry(c, describe(v, c)) for c in rules.of(S.Counter) if c.name not in kept]
    for d in rules.of(S.Cooperative) + rules.of(S.Score):
        e = b.entry(d, describe(v, d))
        if d.name not in v.titles:
            e.title = label(lang, d.name)      # its name is the keyword, not a word to print
        markers.append(e)
    sections.append(Section("markers", label(lang, "markers"), entries=markers))
    terms = passing
    for d in rules.of(S.Define) + rules.of(S.Order):
        listed = read_blocks(v, d) if isinstance(d, S.Define) else []
        terms.append(b.entry(d, [] if listed else describe(v, d)))
        terms[-1].blocks = listed
    sections.append(Section("terms", label(lang, "terms"), entries=terms))

    for flow in rules.of(S.Flow):
        items = v.body(flow.body)
        if flow.name == "setup" and rules.game is not None and rules.game.team_size > 1:
            items.insert(0, team_step(v, rules.game))
        _number(items)
        b.mark_items(items, (label(lang, flow.name),))
        _frame_assumes(items)
        b.part(flow.name, flow.name, items)
        sections.append(Section(flow.name, label(lang, flow.name), items=items))

    for key, kind, decls, read in (("rules", "rule", rules.of(S.Rule), rule_item),
                                   ("triggers", "trigger", rules.of(S.Trigger), trigger_item)):
        items = []
        for d in decls:
            it = read(v, d)
            _in_order(it, lang)
            it.mark = b.mark_of(kind, d.name)
            b.mark_items([it], (label(lang, key),))
            _frame_assumes([it])
            b.part(kind, d.name, [it])
            items.append(it)
            worked = example_item(v, rules, d.name) if kind == "rule" else None
            if worked is not None:
                items.append(worked)        # beside the rule, not in it: a variant's diff compares the rule alone
        sections.append(Section(key, label(lang, key), items=items))

    ending = _endings(rules, v, lang)
    sections.append(Section("ending", label(lang, "ending"), items=ending))

    # The index of what is not yet decided: each question is printed where it applies (its text
    # once), so the index only says where; a question that applies nowhere in particular keeps its text.
    index = []
    for q in rules.of(S.Question):
        e = b.entry(q, flag=label(lang, "not_decided"))
        e.places = b.places.get(q.name, [])
        if e.places:
            e.notes = []
        else:
            e.notes += b.at_the_table(q.name)
        index.append(e)
    for e in numbers:
        if e.flag:
            index.append(replace(e, notes=[], detail=[], mark="",
                                 places=[(label(lang, "numbers"), f"numbers-{e.name}")]))
    undecided = index
    words = [Entry(word, "glossary-" + name, detail) for name, word, detail in glossary(rules, v)]
    sections.append(Section("glossary", label(lang, "glossary"), entries=words))
    sections.append(Section("questions", label(lang, "questions"), entries=index, intro=label(lang, "undecided_intro")))

    add_figures(v, rules, sections)
    sections = [s for s in sections if s.items or s.entries]
    # two layers from one source: the game in plain sentences first, then the exact rules
    if sections:
        sections[0].part = label(lang, "reference")
    learn = Section("learn", label(lang, "learn"), part=label(lang, "learn"),
                    entries=learn_entries(rules, v, lang, label(lang, "ending")))
    sections.insert(0, learn)
    title = title_of(game.texts, lang) or game.name
    facts = [label(lang, "players_exactly", n=game.min_players) if game.min_players == game.max_players
             else label(lang, "players", lo=game.min_players, hi=game.max_players)]
    if game.team_size > 1:
        facts.append(label(lang, "teams", n=game.team_size))
    if game.min_players != game.max_players or game.max_players > 2:
        facts.append(label(lang, "seating")[game.seating])
    variants = []
    for vr in rules.variants:
        h = overlay.head(vr)
        variants.append({"title": b.variant_titles[vr.path],
                         "why": [t for _, t in notes_of(h.texts, lang)]})
    sheet = one_page(rules, v, sections, lang)
    # the game's line is Learn to Play's goal: said there, not also above the contents
    notes = [n for n in notes_of(game.texts, lang) if not (n[0] == "text" and any(e.name == "learn-goal" for e in learn.entries))]
    return Contents(lang, title, game.name, facts, notes, rules.path, variants,
                    b.removed, undecided, sections, sheet, b.marks, b.parts)


def _endings(rules: S.RuleFile, v: Voice, lang: str) -> list[Item]:
    """Every place the game can end, with the step or trigger it stands in."""
    out = []
    for d in rules.decls:
        if not isinstance(d, (S.Flow, S.Rule, S.Trigger)):
            continue
        where = [v.title(d.name)] if not isinstance(d, S.Flow) else []

        def walk(node, where, conds):
            if isinstance(node, S.EndGame):
                it = v.stmt(node)
                # out of its place, an ending says when it happens and of whom: 'that player' is
                # the player of the loop it stands in, the one the condition picks out
                for c in reversed(conds):
                    it.runs = (when(c) + [("", "、")] if lang == "ja" else [("", "When ")] + c + [("", ": ")]) + it.runs
                if isinstance(d, S.Trigger):
                    it.runs = [("", whenever(v, d) + " ")] + it.runs
                if where:
                    it.texts.append(("where", label(lang, "in_place", w=("」・「" if lang == "ja" else "”, “").join(where))))
                out.append(it)
                return
            if isinstance(node, S.Block) and node.kind != "assume":
                where = where + [v.title(node.name)]
            if isinstance(node, S.ForEach):
                with v.bound(node.var, v.noun(node.coll)):
                    for st in node.body:
                        walk(st, where, conds)
                return
            if isinstance(node, S.If):
                for cond, body in node.branches:
                    for st in body:
                        walk(st, where, conds + [v.expr(cond)])
                for st in node.otherwise or ():
                    walk(st, where, conds)
                return
            for child in S.children(node):
                walk(child, where, conds)
        if isinstance(d, S.Trigger):
            read_bound(v, d, lambda: [walk(st, where, []) for st in d.body])
        else:
            for st in d.body:
                walk(st, where, [])
    return out
