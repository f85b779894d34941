"""Notes and the questionnaire: what the people at the table say about the rules, kept in the
replay beside the moves they speak of.

A note is pinned to the moment it was written (the number of actions taken so far, the step a
replay opens at to show it), says who wrote it and may name a rule as the rulebook titles it.
Until the game ends a note is seen by its writer and the designer's link only: another seat
reading "no good choice here" learns something about the writer's hand. Once the game has
ended every page sees every note.

After the end each person may answer the common playtest questions (or skip them); the
answers are kept per seat. Text is plain and capped: it is drawn as text, never as markup.

May import: the table core (dsl/table), printing (the rulebook's titles).
"""
from __future__ import annotations

import unicodedata

MAX_TEXT = 500          # a note is a sentence or two, not an essay
# an answer is shorter: the four written answers go in one message, which the server caps at
# 4096 bytes (server.MAX_MESSAGE), and a character may take 4 bytes
MAX_ANSWER = 200
MAX_NOTES = 200         # per game: a page cannot grow the replay without bound

# (key, kind, en, ja): kind is "scale" (1 to 5), "length" (one of LENGTHS) or "text"
QUESTIONS = [
    ("length", "length", "How long did the game feel?", "ゲームの長さはどう感じましたか?"),
    ("close", "scale", "How close was it? (1 one-sided, 5 down to the wire)", "どれくらい接戦でしたか?(1 一方的 〜 5 最後まで分からない)"),
    ("lookups", "text", "Moments you went back to the rules", "ルールを見直した場面"),
    ("unclear", "text", "What was unclear?", "分かりにくかったところは?"),
    ("most_fun", "text", "The most fun moment", "いちばん楽しかった場面"),
    ("least_fun", "text", "The least fun moment", "いちばんつまらなかった場面"),
    ("again", "scale", "Would you play again? (1 no, 5 gladly)", "また遊びたいですか?(1 いいえ 〜 5 ぜひ)"),
    ("overall", "scale", "Overall (1 poor, 5 great)", "総合評価(1 悪い 〜 5 とても良い)"),
]
LENGTHS = {"too_short": ("Too short", "短すぎる"), "right": ("About right", "ちょうどよい"),
           "too_long": ("Too long", "長すぎる")}
SCALES = tuple(k for k, kind, _, _ in QUESTIONS if kind == "scale")
YES_NO = {"yes": ("Yes", "はい"), "no": ("No", "いいえ")}
# every written answer of one questionnaire shares this many characters (see MAX_ANSWER)
MAX_WRITTEN = MAX_ANSWER * sum(1 for _, kind, _, _ in QUESTIONS if kind == "text")


class NoteRefused(ValueError):
    """A one-line reason the note or the answers were not kept; nothing changed."""


def _state(table) -> tuple[list, dict]:
    d = table.__dict__
    return d.setdefault("notes", []), d.setdefault("answers", {})


def clean(text, what: str = "the note", cap: int = MAX_TEXT) -> str:
    """Plain text: control characters (but newlines) dropped, at most `cap` characters."""
    if not isinstance(text, str):
        raise NoteRefused(f"{what} must be text")
    out = "".join(c for c in text if c == "\n" or unicodedata.category(c)[0] != "C").strip()
    if len(out) > cap:
        raise NoteRefused(f"{what} is over {cap} characters: say it in fewer words")
    return out


def rule_titles(table, lang: str) -> list[dict]:
    """The rules a note may name, as the rulebook titles them: the steps of play first, then
    what the book's tables list (components, zones, numbers, markers, terms)."""
    cache = table.__dict__.setdefault("_rule_titles", {})
    key = (id(table.game), lang)
    if key not in cache:
        from ..printing.narrate import Narrator
        from ..printing.rulebook import contents
        out, seen = [], set()
        for (kind, name), title in Narrator(table.game, lang).own.items():
            if kind == "step" and title and name not in seen:
                seen.add(name)
                out.append({"name": name, "title": title})
        for sec in contents(table.game.rules, lang).sections:
            if sec.key == "glossary":
                continue
            for e in sec.entries:
                if e.name not in seen:
                    seen.add(e.name)
                    out.append({"name": e.name, "title": e.title})
        cache[key] = out
    return cache[key]


def asked(table) -> list[tuple]:
    """The designer's own questions (`ask` in the rule file), as QUESTIONS lists the common ones."""
    from ..constructs.ask import Ask, question_text
    return [(d.name, d.kind, question_text(d, "en"), question_text(d, "ja")) for d in table.game.rules.of(Ask)]


def answer_cap(table) -> int:
    """The characters a written answer may take: the designer's written questions share the
    common ones' room, since all the answers go in one message."""
    written = sum(1 for q in QUESTIONS + asked(table) if q[1] == "text")
    return MAX_WRITTEN // written


def answer(table, key, kind, v):
    """`v` as kept for the question `key` of `kind`, or NoteRefused saying what it takes."""
    if kind == "scale" and (isinstance(v, bool) or v not in (1, 2, 3, 4, 5)):
        raise NoteRefused(f"'{key}' is a whole number from 1 to 5")
    if kind == "length" and v not in LENGTHS:
        raise NoteRefused(f"'{key}' is one of {', '.join(LENGTHS)}")
    if kind == "yes_no" and v not in YES_NO:
        raise NoteRefused(f"'{key}' is yes or no")
    return clean(v, f"the answer to '{key}'", answer_cap(table)) if kind == "text" else v


def add_note(table, seat, text, rule=None) -> dict:
    """Keep a note from `seat` (None: the designer's link) at this moment of the game."""
    notes, _ = _state(table)
    body = clean(text)
    if not body:
        raise NoteRefused("the note is empty: write what you noticed")
    if len(notes) >= MAX_NOTES:
        raise NoteRefused(f"this game holds {MAX_NOTES} notes already")
    if rule in ("", None):
        rule = None
    elif not isinstance(rule, str) or rule not in {r["name"] for r in rule_titles(table, "en")}:
        raise NoteRefused("'rule' must be one of the rules the rulebook lists, or left out")
    note = {"step": len(table.actions), "seat": seat, "text": body, "rule": rule}
    notes.append(note)
    table._save()
    return note


def add_answers(table, seat, answers) -> dict:
    """Keep `seat`'s answers to the questionnaire (None: skipped); once the game has ended."""
    _, kept = _state(table)
    if seat is None:
        raise NoteRefused("the questionnaire is for the seats; the designer reads their answers")
    if not table.ended():
        raise NoteRefused("the questionnaire opens when the game has ended")
    if str(seat) in kept:
        raise NoteRefused("you have answered already")
    if answers is None:
        kept[str(seat)] = {"skipped": True}
    else:
        if not isinstance(answers, dict) or set(answers) - {k for k, _, _, _ in QUESTIONS} - {"asked"}:
            raise NoteRefused("'answers' must map the questions' keys to answers")
        out = {}
        for key, kind, _, _ in QUESTIONS:
            v = answers.get(key)
            if v not in (None, ""):
                out[key] = answer(table, key, kind, v)
        own = asked(table)
        given = answers.get("asked") or []
        # by position, in the order the rule file asks them: a page sends no names it could get wrong
        if not isinstance(given, list) or len(given) > len(own):
            raise NoteRefused(f"'asked' must list the answers to the designer's {len(own)} questions in order")
        mine = {key: answer(table, key, kind, v) for (key, kind, _, _), v in zip(own, given) if v not in (None, "")}
        if mine:
            out["asked"] = mine
        kept[str(seat)] = out
    table._save()
    return kept[str(seat)]


def seen_by(table, seat) -> list[dict]:
    """The notes `seat` may see now: its own until the end, every note after (the designer: all)."""
    notes, _ = _state(table)
    if seat is None or table.ended():
        return list(notes)
    return [n for n in notes if n["seat"] == seat]


def payload(table, seat, lang: str) -> dict:
    """What notes.js draws for this page: the rules to name, the notes it may see, and after the
    end the questionnaire for a seat that has not answered yet."""
    _, kept = _state(table)
    ja = lang == "ja"
    out = {"rules": rule_titles(table, lang), "notes": seen_by(table, seat), "max": MAX_TEXT, "max_answer": answer_cap(table)}
    if table.ended() and seat is not None and str(seat) not in kept:
        out["questions"] = [{"key": k, "kind": kind, "text": ja_t if ja else en, **({"asked": True} if own else {})}
                            for qs, own in ((QUESTIONS, False), (asked(table), True)) for k, kind, en, ja_t in qs]
        out["lengths"] = [{"key": k, "text": v[1] if ja else v[0]} for k, v in LENGTHS.items()]
        out["yes_no"] = [{"key": k, "text": v[1] if ja else v[0]} for k, v in YES_NO.items()]
    if seat is not None and str(seat) in kept:
        out["answered"] = True
    return out


def saved(table) -> dict:
    """What the replay file keeps of them."""
    notes, kept = _state(table)
    own = [{"key": k, "kind": kind, "en": en, "ja": ja} for k, kind, en, ja in asked(table)]
    # the designer's questions beside the answers, so that a replay read alone says what was asked
    return {"notes": list(notes), "answers": dict(kept), **({"asked": own} if own else {})}


def kept_notes(data, steps: int) -> list[dict]:
    """The notes a replay file keeps, as a replay shows them (the designer's view: all of them);
    what does not read as a note is left out."""
    out = []
    for n in (data.get("notes") if isinstance(data, dict) else None) or ():
        if isinstance(n, dict) and isinstance(n.get("step"), int) and 0 <= n["step"] <= steps \
                and isinstance(n.get("text"), str):
            seat = n.get("seat")
            out.append({"step": n["step"], "seat": seat if isinstance(seat, int) and not isinstance(seat, bool) else None,
                        "text": n["text"][:MAX_TEXT], "rule": n.get("rule") if isinstance(n.get("rule"), str) else None})
    return out


def restore(table, data: dict) -> None:
    """Notes and answers of a resumed game, as its replay file kept them (what does not read as
    a note is dropped: the moves are what must replay)."""
    notes, kept = _state(table)
    for n in data.get("notes") or ():
        if isinstance(n, dict) and isinstance(n.get("step"), int) and isinstance(n.get("text"), str):
            notes.append({"step": n["step"], "seat": n.get("seat"), "text": n["text"][:MAX_TEXT], "rule": n.get("rule")})
    a = data.get("answers")
    if isinstance(a, dict):
        kept.update({str(k): v for k, v in a.items() if isinstance(v, dict)})
