"""Rulings at the table: when play runs into a dead end, the table says which open question
it is (in the rulebook's words) and rules it by taking up a variant that settles it, by giving
the outcome an ending could not choose (a tie no rule breaks: who wins, all or nobody), or by
letting the game end there.

A variant is taken up mid-game by replaying every move so far under the rules with the variant
applied: that is the general way to keep the state, since a state belongs to the compiled
rules it was played under. The ruling is refused when the moves no longer replay, or replay
to a different story (the variant changes what was already played): the log up to the dead
end must come out the same. The replay file then names the variant among its variants and
plays from the start as the game was played; its `rulings` list says when and why.
"""
from __future__ import annotations

import os

from ..analyses import replay as replay_mod
from ..language import syntax as S
from ..printing.prose import Voice, notes_of, plain
from ..printing.prose import open_question as question_item
from ..variants import overlay

END = "end"         # the choice that lets the dead end stand: the game ends where it is
OUTCOME = "outcome"     # the choice of an outcome the ending allows, where it could not tell the players apart


def question_for(rules: S.RuleFile, rule: str):
    """The declared question about the rule play stopped in, if there is one."""
    return next((q for q in rules.of(S.Question) if q.about == rule), None)


def settling(rules: S.RuleFile, question, rule: str) -> list[tuple[str, S.Variant]]:
    """(file, head) of the variants beside the game (its folder's ../variants/) that settle
    `question` (they remove it) or, with no question, replace the rule that left play open."""
    # beside the game as its path names it: the replay keeps the variant's path as a label
    folder = os.path.normpath(os.path.join(os.path.dirname(os.path.dirname(rules.path)), "variants"))
    out = []
    for path, vr in overlay.other_variants(rules, folder):
        hit = any(p.op == "remove" and p.kind == "question" and p.name == question.name for p in vr.of(S.Patch)) \
            if question is not None else \
            any(p.op == "replace" and p.kind == "rule" and p.name == rule for p in vr.of(S.Patch))
        if hit:
            out.append((path, overlay.head(vr)))
    return out


def open_ruling(table, lang: str) -> dict | None:
    """What the table is asked to rule now, in words, or None: the question (its reading in the
    rulebook), the choices numbered from 1, and what a seat has proposed."""
    s = table.state
    if s.dead_end is None or table.rulings_closed:
        return None
    rules = table.game.rules
    d = s.dead_end
    q = question_for(rules, d.rule)
    v = Voice(rules, lang)
    ja = lang == "ja"
    choices = []
    key = (id(rules), d.rule)
    cache = table.__dict__.setdefault("_settling", {})
    if key not in cache:        # the variant files are read once a dead end, not at every page's view
        cache[key] = settling(rules, q, d.rule)
    for path, h in cache[key]:
        if not table.fits(path):        # it changes what was already played: not a ruling for now
            continue
        why = " ".join(t for k, t in notes_of(h.texts, lang) if k == "why")
        choices.append({"index": len(choices) + 1, "kind": "variant", "name": h.name,
                        "title": S.text_of(h.texts, "title", lang) or S.text_of(h.texts, "title", "en") or h.name,
                        "why": why})
    if not choices:         # no variant settles it: the outcomes the ending could not choose between
        choices = outcomes(d.contenders, ja)
    choices.append({"index": len(choices) + 1, "kind": END, "name": END,
                    "title": "ここでゲームを終える" if ja else "End the game here", "why": ""})
    out = {"rule": d.rule, "where": d.where, "kind": d.kind, "question": None, "choices": choices,
           "proposed": table.proposal}
    if q is not None:
        item = question_item(v, q)
        out["question"] = {"name": q.name, "title": plain(item.runs),
                           "text": " ".join(t for _, t in item.texts)}
    return out


def outcomes(contenders, ja: bool) -> list[dict]:
    """Each of the tied players winning alone, all of them sharing the win, and nobody winning:
    what an ending by ranking gives when a rule breaks the tie, shares it, or lets nobody win
    (the first choices of a ruling no variant settles)."""
    tied = tuple(map(int, contenders))
    if len(tied) < 2:
        return []
    everyone = ("・" if ja else " and ").join(f"P{p + 1}" for p in tied)
    ways = [((p,), f"P{p + 1}の勝ち" if ja else f"P{p + 1} wins") for p in tied]
    ways += [(tied, f"{everyone}が勝ちを分け合う" if ja else f"{everyone} share the win"),
             ((), "誰も勝たない" if ja else "Nobody wins")]
    return [{"index": i + 1, "kind": OUTCOME, "name": "win_" + "_".join(f"p{p + 1}" for p in seats) if seats
             else "nobody_wins", "title": title, "why": "", "outcome": list(seats)}
            for i, (seats, title) in enumerate(ways)]


def rule(table, index: int, lang: str = "en") -> dict:
    """Take choice `index` of the open ruling; returns the ruling as recorded. ValueError with a
    one-line reason when it cannot be taken (the table is unchanged)."""
    r = open_ruling(table, lang)
    if r is None:
        raise ValueError("there is nothing to rule on now")
    if isinstance(index, bool) or not isinstance(index, int) or not 1 <= index <= len(r["choices"]):
        raise ValueError(f"choose a ruling from 1 to {len(r['choices'])}")
    c = r["choices"][index - 1]
    made = {"step": len(table.actions), "rule": r["rule"], "where": r["where"],
            "question": (r["question"] or {}).get("name"), "chosen": c["name"], "title": c["title"]}
    if c["kind"] == END:
        return made
    if c["kind"] == OUTCOME:
        made["outcome"] = c["outcome"]
        replay_mod.ruled(table.state, [made], made["step"])
        return made
    path = next(p for p, h in settling(table.game.rules, question_for(table.game.rules, r["rule"]), r["rule"])
                if h.name == c["name"])
    made["variant"] = path
    table.take_up(path)
    return made
