"""The one-page sheet: enough to play, drawn from the rulebook's sections and the rules play reaches,
down to each point not yet decided with the answer a table plays by."""
from __future__ import annotations

import re

from ..language import syntax as S
from .prose import Voice, choice_summary, describe, notes_of, option_head, plain, say, title_of, trigger_item, whenever
from .labels import label

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


def one_page(rules: S.RuleFile, v: Voice, sections: list, lang: str) -> dict:
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
    def trigger_lines(t):
        lines = explained(t, trigger_item(v, t).children)
        if _texts(t.texts, lang):
            return lines
        # no designer text: when it fires, then what it does, so 'that player' has its antecedent
        return [(0, " ".join([whenever(v, t)] + [line for _, line in lines[:1]]))]
    triggers = [{"title": v.title(t.name), "lines": trigger_lines(t)} for t in rules.of(S.Trigger)]
    comps = by_key["components"].entries if "components" in by_key else []
    scoring = _scoring(rules, v, lang)
    return {
        # what a player must know before the first roll: how many of each piece, and what a
        # component's own rule says (a wild face)
        "components": [(e.title, " · ".join([plain(_per_player(e.detail))] + [t for k, t in e.notes if k == "text"][:1]))
                       for e in comps],
        "terms": [t for t in _values(rules, v, lang, reachable_rules(rules) + rules.of(S.Trigger), params=False) if t not in scoring],
        "setup": outline(by_key["setup"].items) if "setup" in by_key else [],
        "turn": outline(by_key["play"].items) if "play" in by_key else [],
        "choices": choices,
        "rules": reached,
        "triggers": triggers,
        "scoring": scoring,
        "ending": [plain(it.runs) for it in by_key["ending"].items] if "ending" in by_key else [],
        "open": open_points(rules, v, by_key["numbers"].entries if "numbers" in by_key else [], lang),
    }


def open_points(rules: S.RuleFile, v: Voice, numbers: list, lang: str) -> dict:
    """Each point not yet decided, as a table needs it in play: the title and provisional answer of
    each question the rules answer for now (`assume`), the titles of those where play stops for a
    ruling, and each provisional number with the value it has for now."""
    assumed = {b.name for b in S.walk_rules(rules) if isinstance(b, S.Block) and b.kind == "assume"}
    answered, stops = [], []
    for q in rules.of(S.Question):
        if q.name in assumed:
            answered.append((v.title(q.name), provisional_answer(" ".join(_texts(q.texts, lang)), lang)))
        else:
            stops.append(v.title(q.name))
    values = [(e.title, plain(e.detail)) for e in numbers if e.flag]
    n = len(answered) + len(stops) + len(values)
    return {"heading": say(lang, f"未決の点({n}点)と仮の扱い", f"Not yet decided ({n}), and how to play meanwhile"),
            "answered": answered, "stops": stops, "numbers": values,
            "stop_head": say(lang, "仮の扱いなし(この場面になったら手を止め、全員で扱いを決めて続ける)",
                             "No provisional answer (play stops: agree a ruling, then play on)"),
            "value_head": say(lang, "仮の値", "Provisional numbers")}


# The sentence of an open question's text that begins what the rules do meanwhile ('Here seat 1
# is the parent.'); what comes before it says what the source leaves open, which the book prints.
_HERE = {"ja": re.compile(r"ここでは"), "en": re.compile(r"\bhere\b", re.I)}


def provisional_answer(text: str, lang: str) -> str:
    """An open question's provisional answer, from its text: from the sentence that says what is done
    here to the end; the whole text where no sentence says so."""
    sentences = re.findall(r"[^。]*。|[^。]+$", text) if lang == "ja" else re.split(r"(?<=[.!?])\s+", text)
    for i, sentence in enumerate(sentences):
        if _HERE[lang].search(sentence):
            return ("" if lang == "ja" else " ").join(sentences[i:]).strip()
    return text


def _scoring(rules: S.RuleFile, v: Voice, lang: str) -> list[tuple[str, str]]:
    """The values the end of the game ranks or names the winners by, with their designer text or reading."""
    return _values(rules, v, lang, [n for n in S.walk_rules(rules) if isinstance(n, S.EndGame)])


def _per_player(detail):
    """A component's count as the sheet gives it: '5 per player', without the total at each player
    count that the rulebook lists in parentheses (count_runs)."""
    return [r for r in detail if not (r[0] == "num" and r[1].startswith(" ("))]


def _values(rules: S.RuleFile, v: Voice, lang: str, nodes, params=True) -> list[tuple[str, str]]:
    """The values `nodes` read (what counts for a bid, a score), with their designer text or reading;
    without `params`, only the values that take none (a quantity of the table, not a test of a thing)."""
    values = {d.name: d for d in rules.of(S.Define) if params or not d.params}
    out, seen = [], set()
    for node in nodes:
        for n in S.walk(node):
            name = getattr(n, "fn", None) or getattr(n, "id", None)
            if name in values and name not in seen:
                seen.add(name)
                d = values[name]
                out.append((v.title(name), " ".join(_texts(d.texts, lang)) or plain(describe(v, d))))
    return out
