"""What a seat's options are made of, for a page to pick them value by value: each option's
parameter values in words (in the order the rule file declares the parameters), and each
option's reading, the rulebook's first line for it and its text.

It names only what the seat's options already name (its own legal moves, the pieces it sees),
so it adds nothing a seat may not know.
"""
from __future__ import annotations

from ..constructs.choose import option_head
from ..engine.program import param_names
from ..printing.prose import Voice, notes_of, plain
from . import view as V


def payload(table, seat, lang: str) -> dict | None:
    """{"values": per option (numbered as the options are) its [{param, title, value}],
    "readings": option name -> the rulebook's words}; None when the seat has nothing to choose."""
    if seat is None:
        return None
    moves = table._moves(seat)
    if not moves:
        return None
    w = table.words(lang)
    s = table.state
    pause = table.game.pauses.get(s.ip)
    known = V.visible_pieces(table.game, s, seat)
    values = []
    for m in moves:
        names = param_names(pause, m[0]) or [""] * (len(m) - 1)
        values.append([{"param": n, "title": w.narrator.name(n) if n else "", "value": w.value(v, known)}
                       for n, v in zip(names, m[1:])])
    return {"values": values, "readings": _readings(table, pause, lang)}


def _readings(table, pause, lang: str) -> dict:
    cache = table.__dict__.setdefault("_readings", {})
    key = (id(table.game), pause.span, lang)
    if key not in cache:
        v = Voice(table.game.rules, lang)
        syntax = [getattr(o[6], "syntax", o[6]) for o in pause.options if len(o) > 6 and o[6] is not None]
        single = len(syntax) == 1 and syntax[0].name == "choose"
        out = {}
        for o in syntax:
            try:
                head = plain(option_head(v, o, single))
            except Exception:       # a reading is a help beside the option, never a reason to refuse it
                head = ""
            notes = " ".join(t for _, t in notes_of(o.texts, lang))
            if head and notes and not head.endswith((".", "。", ":", "：")):
                head += "。" if lang == "ja" else "."
            out[o.name] = " ".join(x for x in (head, notes) if x)
        cache[key] = out
    return cache[key]
