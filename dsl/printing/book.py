"""The printed game: rulebook, one-page sheet and card sheets, built from the rules the engine runs.

`contents()` turns a rule set into plain data (sections of prose items from dsl/prose.py,
tables of components, the open questions, which variant changed what); the templates in
dsl/templates/ lay that data out as HTML (print CSS) or Typst markup, and `typeset()`
makes the PDF with the typst package and a bundled OFL Japanese font.
"""
from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Optional

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from ..variants import overlay
from ..language import syntax as S
from ..engine import Game, RuleError
from ..variants.diff import diff
from ..constructs.component import count_runs
from ..constructs.symbol import colour_hex
from .runs import when
from .prose import (UNDECIDED, Item, Runs, Voice, choice_summary, describe, notes_of, open_question, option_head, plain,
                    rule_item, say, title_of, trigger_item, whenever)

KINDS = ("book", "sheet", "cards")
FORMATS = ("html", "pdf", "typ")
# name for CSS, name for Typst, width and height in mm
PAPERS = {"a4": ("A4", "a4", 210.0, 297.0), "letter": ("letter", "us-letter", 215.9, 279.4)}
CARD = (63, 88)

# The rulebook's own headings and labels; what the rules say comes from prose.py.
LABELS = {
    "contents": ("目次", "Contents"),
    "players": ("{lo}〜{hi}人", "{lo} to {hi} players"),
    "seating": ({"clockwise": "時計回り", "counterclockwise": "反時計回り"},
                {"clockwise": "play goes clockwise", "counterclockwise": "play goes counterclockwise"}),
    "variants": ("このルールブックに入っているバリエーション", "Variants in this rulebook"),
    "variant_mark": ("変更", "changed by"),
    "removed": ("取り除かれたもの", "Removed"),
    "undecided": ("未決の点", "Not yet decided"),
    "undecided_intro": ("次の点はまだ決まっていない。テストプレイでは、それぞれの箇所に示した仮の扱いで遊ぶ。",
                        "These points are not decided yet. Playtests use the provisional answer printed where each applies."),
    "provisional": ("仮の値", "provisional value"),
    "not_decided": UNDECIDED,
    "components": ("内容物", "Components"),
    "count": ("枚数", "copies"),
    "zones": ("置き場", "Where things go"),
    "teams": ("{n}人ずつのチーム", "teams of {n}"),
    "numbers": ("数値", "Numbers"),
    "markers": ("記録するもの", "What to keep track of"),
    "score": ("得点", "Score"),
    "terms": ("用語", "Terms"),
    "setup": ("準備", "Setup"),
    "play": ("ゲームの流れ", "How to play"),
    "rules": ("ルールの詳細", "Rules in detail"),
    "triggers": ("いつでも適用されるルール", "Rules that apply at any time"),
    "ending": ("ゲームの終わりと勝敗", "End of the game and winning"),
    "in_place": ("場所: {w}", "in: {w}"),
    "questions": ("未決の問題", "Open questions"),
    "turn": ("手順", "Turn by turn"),
    "you_may": ("できること", "What you may do"),
    "how_it_ends": ("ゲームの終わり", "How it ends"),
    "scoring": ("得点", "Scoring"),
    "see_book": ("未決の点が{n}つある。詳しくはルールブックを参照。", "{n} points are not yet decided: see the rulebook."),
    "generated": ("このルールブックはルールファイルから生成された。", "Generated from the rule file."),
    "version": ("版 {v}", "version {v}"),
    "page_ref": ("{n}ページ", "p. {n}"),
    "undecided_line": ("未決の点が{n}つある。それぞれ当てはまる箇所に印を付け、「{list}」にまとめた。",
                       "{n} points are not yet decided. Each is flagged where it applies and listed under “{list}”."),
    "where": ("該当箇所", "where"),
    "example": ("例", "Example"),
    "exact": ("正確なルール", "The exact rule"),
}


def label(lang: str, key: str, **fill):
    ja, en = LABELS[key]
    text = say(lang, ja, en)
    return text.format(**fill) if fill and isinstance(text, str) else text


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
    places: list = field(default_factory=list)     # an open question's (where, anchor), in book order


@dataclass
class Section:
    key: str
    title: str
    items: list = field(default_factory=list)      # prose Items
    entries: list = field(default_factory=list)    # Entries
    intro: str = ""


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
        places.append((" › ".join(where), it.number))

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
            g = Game(rules, n)
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
                             rows=_card_rows(c, v, lang) if getattr(c, "cards", ()) else []))
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
    markers = [b.entry(c, describe(v, c)) for c in rules.of(S.Counter)]
    for d in rules.of(S.Score):
        e = b.entry(d, describe(v, d))
        if d.name not in v.titles:
            e.title = label(lang, "score")      # its name is the keyword, not a word to print
        markers.append(e)
    sections.append(Section("markers", label(lang, "markers"), entries=markers))
    terms = [b.entry(d, describe(v, d)) for d in rules.of(S.Define) + rules.of(S.Order)]
    sections.append(Section("terms", label(lang, "terms"), entries=terms))

    for flow in rules.of(S.Flow):
        items = v.body(flow.body)
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
            it.mark = b.mark_of(kind, d.name)
            b.mark_items([it], (label(lang, key),))
            _frame_assumes([it])
            b.part(kind, d.name, [it])
            items.append(it)
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
        index.append(e)
    for e in numbers:
        if e.flag:
            index.append(replace(e, notes=[], detail=[], mark="",
                                 places=[(label(lang, "numbers"), f"numbers-{e.name}")]))
    undecided = index
    sections.append(Section("questions", label(lang, "questions"), entries=index, intro=label(lang, "undecided_intro")))

    sections = [s for s in sections if s.items or s.entries]
    title = title_of(game.texts, lang) or game.name
    facts = [label(lang, "players", lo=game.min_players, hi=game.max_players)]
    if game.team_size > 1:
        facts.append(label(lang, "teams", n=game.team_size))
    if game.min_players != game.max_players or game.max_players > 2:
        facts.append(label(lang, "seating")[game.seating])
    variants = []
    for vr in rules.variants:
        h = overlay.head(vr)
        variants.append({"title": b.variant_titles[vr.path],
                         "why": [t for _, t in notes_of(h.texts, lang)]})
    sheet = _sheet(rules, v, sections, lang)
    return Contents(lang, title, game.name, facts, notes_of(game.texts, lang), rules.path, variants,
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
                    it.texts.append(("where", label(lang, "in_place", w=" / ".join(where))))
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
        for st in d.body:
            walk(st, where, [])
    return out


def reachable_rules(rules: S.RuleFile) -> list[S.Rule]:
    """The rules play can reach: those `do` names from setup, play and triggers, and those they name, in
    the order they are first reached."""
    by_name = {r.name: r for r in rules.of(S.Rule)}
    out: list[S.Rule] = []

    def visit(body):
        for st in S.statements(body):
            if isinstance(st, S.Do) and st.rule in by_name and by_name[st.rule] not in out:
                out.append(by_name[st.rule])
                visit(by_name[st.rule].body)
    for d in rules.of(S.Flow) + rules.of(S.Trigger):
        visit(d.body)
    return out


def _texts(texts, lang: str) -> list[str]:
    return [t for k, t in notes_of(texts, lang) if k == "text"]


def _sheet(rules: S.RuleFile, v: Voice, sections: list[Section], lang: str) -> dict:
    """The one-page sheet, enough to play: setup and the turn as outlines, every choice by its options'
    titles, every rule play reaches and every trigger with its designer text, the scoring and the end."""
    def outline(items, depth=0):
        rows = []
        for it in items:
            if it.kind in ("step", "phase"):
                first_note = next((t for k, t in it.texts if k == "text"), "")
                rows.append((depth, it.number, plain(it.runs), it.mark, first_note))
                rows += outline(it.children, depth + 1)
            elif it.kind == "loop":
                rows.append((depth, "", plain(it.runs), "", ""))
                rows += outline(it.children, depth + 1)
            else:
                rows += outline(it.children, depth)
        return rows

    def option_line(o, single: bool) -> tuple[str, str]:
        # the option's own title (a name can also be a deck's or a counter's, whose title the Voice would give)
        own = title_of(o.texts, lang)
        text = " ".join(_texts(o.texts, lang))
        if single:
            return "", text or plain(option_head(v, o, True))
        if not own:
            # no title written: say what the option does rather than print its identifier
            first = v.body(o.body)[:1]
            own = plain(first[0].runs).rstrip("。.") if first and first[0].runs else ""
        rest = option_head(v, o, False)[1:]
        return own, text or plain(rest).lstrip(":： ,、")

    def explained(d, items) -> list[tuple[int, str]]:
        """A rule's or trigger's designer text, its steps, and the text of each case it settles."""
        lines = [(0, t) for t in _texts(d.texts, lang)]
        for st in S.statements(d.body):
            if isinstance(st, S.Block) and st.kind in ("step", "phase"):
                lines.append((0, " ".join([own_title(st.name, st.texts) + say(lang, ":", ":")] + _texts(st.texts, lang)[:1])))
            elif isinstance(st, S.Cases):
                lines += [(1, t) for c in st.cases for t in _texts(c.texts, lang)]
        if not lines:
            # nothing written by the designer: the rule's own first sentence
            lines = [(0, plain(it.runs)) for it in items[:1]]
        return lines

    def own_title(name: str, texts) -> str:
        # a step's own title: its name may also be a component's or a counter's, whose title the Voice gives
        return title_of(texts, lang) or v.title(name)

    choices = []

    def find_choices(node, where: str) -> None:
        if isinstance(node, S.Block) and node.kind in ("step", "phase"):
            where = own_title(node.name, node.texts)
        if isinstance(node, S.Choose):
            who, _ = choice_summary(v, node)
            single = len(node.options) == 1 and node.options[0].name == "choose"
            choices.append((where, who, [option_line(o, single) for o in node.options]))
        for child in S.children(node):
            find_choices(child, where)

    by_key = {s.key: s for s in sections}
    for d in rules.decls:
        if isinstance(d, (S.Flow, S.Rule, S.Trigger)):
            where = label(lang, d.name) if isinstance(d, S.Flow) else v.title(d.name)
            for st in d.body:
                find_choices(st, where)
    rule_items = {it.name: it for it in by_key["rules"].items} if "rules" in by_key else {}
    reached = [{"title": v.title(r.name), "lines": explained(r, rule_items[r.name].children)}
               for r in reachable_rules(rules)]
    triggers = [{"title": v.title(t.name), "lines": explained(t, v.body(t.body)) or [(0, whenever(v, t))]}
                for t in rules.of(S.Trigger)]
    return {
        "setup": outline(by_key["setup"].items) if "setup" in by_key else [],
        "turn": outline(by_key["play"].items) if "play" in by_key else [],
        "choices": choices,
        "rules": reached,
        "triggers": triggers,
        "scoring": _scoring(rules, v, lang),
        "ending": [plain(it.runs) for it in by_key["ending"].items] if "ending" in by_key else [],
    }


def _scoring(rules: S.RuleFile, v: Voice, lang: str) -> list[tuple[str, str]]:
    """The values the end of the game ranks or names the winners by, with their designer text or reading."""
    values = {d.name: d for d in rules.of(S.Define)}
    out, seen = [], set()
    for node in S.walk_rules(rules):
        if isinstance(node, S.EndGame):
            for n in S.walk(node):
                name = getattr(n, "fn", None) or getattr(n, "id", None)
                if name in values and name not in seen:
                    seen.add(name)
                    d = values[name]
                    out.append((v.title(name), " ".join(_texts(d.texts, lang)) or plain(describe(v, d))))
    return out


# ================================================================ cards

# A card sheet is cut from the front: 63 x 88 mm cards, three by three, touching, the block
# centred on the page. Each card's print runs BLEED past its edges (a back's colour, so a cut a
# little off shows no white) and keeps its content SAFE inside them (so a cut a little off
# takes nothing away). Cut marks stand in the margin, clear of the bleed and inside the page.
BLEED = 3.0
SAFE = 3.0
MARK_GAP = 0.5          # between the bleed and a cut mark, and between a cut mark and the page edge
MARK_LENGTH = 6.0       # the longest cut mark; shorter where the margin is narrower (Letter's top)
TOKEN = 24.0            # a token disc's diameter
TOKEN_GAP = 3.0
TOKEN_MARGIN = 12.0


@dataclass
class Value:
    """A value as a card prints it: its title, and its mark and colour when a symbol declares them."""
    text: str
    mark: str = ""
    colour: str = ""        # '#rrggbb'; '' is the ink


@dataclass
class Card:
    deck: str
    name: str
    attrs: list             # (attribute title, value text) for every attribute the card has
    big: str = ""           # the main value, printed large: its mark if it has one, else its title
    big_size: int = 0       # pt
    corner: str = ""        # the main value in the corner indices ('' when too long to fit)
    suit: Optional[Value] = None
    rows: list = field(default_factory=list)    # (title, Value) for the deck's other columns
    x: float = 0.0          # the card's top-left corner on its page, mm (its trim, not its bleed)
    y: float = 0.0


@dataclass
class Token:
    title: str
    owner: str              # the player a piece counted per player belongs to; '' for none
    x: float = 0.0          # the disc's top-left corner, mm
    y: float = 0.0


@dataclass
class Page:
    side: str               # 'front', 'back' (the fronts mirrored, for long-edge duplex) or 'tokens'
    cards: list = field(default_factory=list)
    tokens: list = field(default_factory=list)


@dataclass
class Sheets:
    game: str
    paper: tuple            # PAPERS entry
    players: int
    pages: list
    marks: list             # cut marks, (x1, y1, x2, y2) in mm, the same on every card page
    cuts: tuple             # (x positions, y positions) of the cut lines, mm


def is_named(label: str, values: dict) -> bool:
    """A `card NAME` line names its card; a table row's label only joins its values with '-'
    (and a variant's `change cards` may have changed the values since)."""
    return "-" not in label and label != "-".join(str(x) for x in values.values())


def _symbols(rules: S.RuleFile) -> dict:
    return {d.name: d for d in rules.of(S.Symbol)}


def _value(v: Voice, symbols: dict, x) -> Value:
    d = symbols.get(str(x))
    return Value(plain(v.name(str(x))), (d.mark or "") if d else "", (colour_hex(d.colour) or "") if d else "")


def _columns(c: S.Component) -> list[str]:
    """A deck's columns in the order its table writes them (a '-' cell leaves one out of its row)."""
    cols: list[str] = []
    for spec in c.cards:
        at = -1
        for a, _ in spec.attrs:
            if a in cols:
                at = cols.index(a)
            else:
                at += 1
                cols.insert(at, a)
    return cols


def _suit_column(c: S.Component, symbols: dict) -> Optional[str]:
    """The column a card shows as its colour and mark: the first whose values have a colour, else
    the last whose values have a mark (a rank lettered A, K... comes before the suit)."""
    cols = _columns(c)
    values = {a: {str(x) for spec in c.cards for b, x in spec.attrs if b == a} for a in cols}
    coloured = [a for a in cols if any(symbols[x].colour for x in values[a] if x in symbols)]
    marked = [a for a in cols if any(symbols[x].mark for x in values[a] if x in symbols)]
    return coloured[0] if coloured else (marked[-1] if marked else None)


def _ems(text: str) -> float:
    """About how wide a text is, in ems: a Japanese character is a whole em, a digit or letter about half."""
    return sum(1.0 if unicodedata.east_asian_width(ch) in "WF" else 0.6 for ch in text)


def _big_size(text: str) -> int:
    """The size that fits the main value on one line across the middle of the card (110 pt wide)."""
    return max(9, min(44, int(110 / max(_ems(text), 0.1))))


def _card_rows(c: S.Component, v: Voice, lang: str) -> list[list[str]]:
    """A deck's table as the rule file writes it: one row per table line, `for each` values joined."""
    symbols = _symbols(v.rules)
    attrs = _columns(c)
    lines: dict = {}
    for spec in c.cards:
        lines.setdefault((spec.span, spec.span.line), []).append(spec)
    rows = [[plain(v.attribute(a)) for a in attrs] + [label(lang, "count")]]
    for specs in lines.values():
        row = []
        for a in attrs:
            values = []
            for spec in specs:
                x = dict(spec.attrs).get(a)
                if x is None:
                    text = "—"
                else:
                    value = _value(v, symbols, x)
                    text = f"{value.mark} {value.text}" if value.mark and value.mark != value.text else value.text
                if text not in values:
                    values.append(text)
            row.append(", ".join(values))
        row.append(plain(v.expr(specs[0].count)) if specs[0].count is not None else "1")
        rows.append(row)
    return rows


def cards(rules: S.RuleFile, lang: str, players: Optional[int] = None) -> tuple[list[Card], int]:
    """Every card the deck tables define, as many copies as the rules make at this player count."""
    v = Voice(rules, lang)
    symbols = _symbols(rules)
    n = players or rules.game.max_players
    g = Game(rules, n)
    decks = {c.name: c for c in rules.of(S.Component) if c.kind == "deck"}
    columns = {name: _columns(c) for name, c in decks.items()}
    suits = {name: _suit_column(c, symbols) for name, c in decks.items()}
    out = []
    for i, kind in enumerate(g.kind_of):
        if kind not in decks:
            continue
        values = g.piece_attrs[i]
        attrs = [(plain(v.attribute(a)), plain(v.name(str(x)))) for a, x in values.items() if x is not None]
        named = is_named(g.piece_label[i], values)
        name = plain(v.name(g.piece_label[i])) if named else ""
        suit = suits[kind]
        main = next((a for a in columns[kind] if a != suit and values.get(a) is not None), None)
        card = Card(v.title(kind), name, attrs)
        shown_suit = _value(v, symbols, values[suit]) if suit is not None and values.get(suit) is not None else None
        if shown_suit is not None and (shown_suit.mark or shown_suit.colour):
            card.suit = shown_suit
        else:
            suit = None         # nothing to show as a colour or mark: the value goes with the others
        if main is not None:
            shown = _value(v, symbols, values[main])
            card.big = shown.mark or shown.text
            card.corner = card.big if _ems(card.big) <= 2 else ""
        else:
            card.big = name
        if card.big == name:
            card.name = ""          # printed large already
        card.big_size = _big_size(card.big)
        card.rows = [(plain(v.attribute(a)), _value(v, symbols, values[a]) if values.get(a) is not None else Value("—"))
                     for a in columns[kind] if a not in (main, suit)]
        out.append(card)
    return out, n


def _tokens(rules: S.RuleFile, lang: str, n: int) -> list[Token]:
    """A disc for every token the rules make at this player count, with its owner if it has one."""
    v = Voice(rules, lang)
    g = Game(rules, n)
    tokens = {c.name for c in rules.of(S.Component) if c.kind == "token"}
    return [Token(v.title(kind), say(lang, f"プレイヤー{int(owner) + 1}", f"player {int(owner) + 1}")
                  if (owner := g.piece_owner[i]) is not None else "")
            for i, kind in enumerate(g.kind_of) if kind in tokens]


def card_sheets(rules: S.RuleFile, lang: str, paper: str = "a4", players: Optional[int] = None) -> Sheets:
    """The pages of a card sheet: each page of fronts followed by its backs, then the tokens."""
    page = PAPERS[paper]
    w, h = page[2], page[3]
    left, top = (w - 3 * CARD[0]) / 2, (h - 3 * CARD[1]) / 2
    xs = tuple(round(left + i * CARD[0], 2) for i in range(4))
    ys = tuple(round(top + j * CARD[1], 2) for j in range(4))

    def ends(lo: float, hi: float):
        """The marks at the two ends of a cut line crossing the block from lo to hi: clear of the
        bleed, inside the page, as long as the margin allows (Letter's top margin is narrow)."""
        length = min(MARK_LENGTH, lo - BLEED - 2 * MARK_GAP)
        near, far = lo - BLEED - MARK_GAP, hi + BLEED + MARK_GAP
        return ((round(near - length, 2), round(near, 2)), (round(far, 2), round(far + length, 2)))
    marks = [(x, a, x, b) for x in xs for a, b in ends(top, h - top)] + \
            [(a, y, b, y) for y in ys for a, b in ends(left, w - left)]
    deck, n = cards(rules, lang, players)
    pages = []
    for first in range(0, len(deck), 9):
        fronts, backs = Page("front"), Page("back")
        for k, c in enumerate(deck[first:first + 9]):
            col, row = k % 3, k // 3
            fronts.cards.append(replace(c, x=xs[col], y=ys[row]))
            backs.cards.append(replace(c, x=xs[2 - col], y=ys[row]))     # long-edge duplex turns the page over left-right
        pages += [fronts, backs]
    across = int((w - 2 * TOKEN_MARGIN + TOKEN_GAP) // (TOKEN + TOKEN_GAP))
    down = int((h - 2 * TOKEN_MARGIN + TOKEN_GAP) // (TOKEN + TOKEN_GAP))
    x0 = (w - (across * (TOKEN + TOKEN_GAP) - TOKEN_GAP)) / 2
    y0 = (h - (down * (TOKEN + TOKEN_GAP) - TOKEN_GAP)) / 2
    tokens = _tokens(rules, lang, n)
    for first in range(0, len(tokens), across * down):
        sheet = Page("tokens")
        for k, t in enumerate(tokens[first:first + across * down]):
            sheet.tokens.append(replace(t, x=round(x0 + (k % across) * (TOKEN + TOKEN_GAP), 2),
                                        y=round(y0 + (k // across) * (TOKEN + TOKEN_GAP), 2)))
        pages.append(sheet)
    title = title_of(rules.game.texts, lang) or rules.game.name
    return Sheets(title, page, n, pages, marks, (xs, ys))


# ================================================================ output

_TYPST_SPECIAL = set("\\#*_`$<>@[]~/-+=.'\":()")


def typst_escape(value) -> Markup:
    """Anything printed into Typst markup is text, never markup: escape every symbol it could read."""
    if isinstance(value, Markup):
        return value
    text = re.sub(r"\s+", " ", str(value))     # one line; the spaces between runs stay
    return Markup("".join("\\" + ch if ch in _TYPST_SPECIAL else ch for ch in text))


@lru_cache(maxsize=2)
def _env(kind: str) -> Environment:
    folder = os.path.join(os.path.dirname(__file__), "templates")
    if kind == "html":
        env = Environment(loader=FileSystemLoader(folder), autoescape=select_autoescape(["html", "j2"]),
                          keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    else:
        env = Environment(loader=FileSystemLoader(folder), autoescape=False, finalize=typst_escape,
                          keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    env.globals["label"] = label
    env.globals["raw"] = Markup
    return env


def render(kind: str, fmt: str, rules: S.RuleFile, lang: str, base: Optional[S.RuleFile] = None,
           paper: str = "a4", players: Optional[int] = None) -> str:
    """The HTML or Typst source of a book, sheet or card sheet."""
    engine = "html" if fmt == "html" else "typ"
    doc = contents(rules, lang, base)
    sheets = card_sheets(rules, lang, paper, players) if kind == "cards" else None
    page = PAPERS[paper]
    hashed = version(rules)
    # the table reads the game and its version; which files made it is the designer's business
    stamp = doc.title + " · " + label(lang, "version", v=hashed)
    def fill(env: str, size: float) -> str:
        return _env(env).get_template(f"{kind}.{env}.j2").render(
            doc=doc, lang=lang, page=page, sheets=sheets, card=CARD, bleed=BLEED, safe=SAFE, token=TOKEN,
            stamp=stamp, version=hashed, size=size)
    size = SHEET_SIZES[0]
    if kind == "sheet":
        # the sheet is one page: the largest type that keeps it there (the HTML follows the PDF's choice)
        for size in SHEET_SIZES:
            if _last_page(fill("typ", size)) == 1:
                break
    return fill(engine, size)


# Type sizes (pt) the one-page sheet tries, largest first; below the last it would no longer be legible.
SHEET_SIZES = (9.4, 9.0, 8.6, 8.2, 7.8, 7.4, 7.0, 6.6, 6.2)


@lru_cache(maxsize=64)
def _last_page(source: str) -> int:
    """The page the sheet's last line lands on, read from the metadata the sheet template leaves there."""
    import json
    import typst
    found = json.loads(typst.query(source.encode("utf-8"), "<sheet-last-page>", font_paths=[font_dir()],
                                   ignore_system_fonts=True))
    return found[0]["value"] if found else 1


def version(rules: S.RuleFile) -> str:
    """What the printout was made from: a hash of the rule file's text and its variants' texts, in order.

    Not a date, so the same rules always print the same bytes, and two printouts of different
    rules always say so. Line endings are normalised so a checkout's settings do not change it.
    """
    h = hashlib.sha256()
    for text in [rules.source] + [vr.source for vr in rules.variants]:
        h.update(text.replace("\r\n", "\n").encode("utf-8") + b"\0")
    # digits, not hex: a Japanese printout shows no Latin letters the game does not print
    return f"{int(h.hexdigest()[:8], 16):010d}"


def make(kind: str, fmt: str, rules: S.RuleFile, lang: str, base: Optional[S.RuleFile] = None,
         paper: str = "a4", players: Optional[int] = None) -> str | bytes:
    """The finished output: HTML or Typst text, or PDF bytes."""
    source = render(kind, "html" if fmt == "html" else "typ", rules, lang, base, paper, players)
    return typeset(source) if fmt == "pdf" else source


def font_dir() -> str:
    """The OFL Noto Sans JP that the justmytype-intl-cjk wheel carries."""
    import importlib.util
    spec = importlib.util.find_spec("justmytype_intl_cjk")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the Japanese font package is missing: pip install justmytype-intl-cjk")
    return os.path.join(list(spec.submodule_search_locations)[0], "fonts", "ofl", "notosansjp")


def typeset(source: str) -> bytes:
    """Typst markup -> PDF bytes, with only the bundled fonts (no system font can change the result)."""
    import typst
    return typst.compile(source.encode("utf-8"), font_paths=[font_dir()], ignore_system_fonts=True, format="pdf")
