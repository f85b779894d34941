"""The questionnaire at the terminal, after the game: each person at the keyboard in turn may
answer the common playtest questions and the designer's own (`ask` in the rule file), or skip
them; the answers are kept in the replay by notes.py, exactly as the browser's are.

A line at a time, so that a pipe drives it as a keyboard does: Enter leaves a question
unanswered, a wrong answer is told and asked again, the end of input stops asking and keeps
nothing for the person who was answering.

May import: the table core (dsl/table).
"""
from __future__ import annotations

from rich.text import Text

from . import notes


def questionnaire(term) -> None:
    """Asks each person at `term` (a Terminal) who has not answered yet."""
    t = term.table
    kept = notes.saved(t)["answers"]
    for seat in term.humans:
        if str(seat) in kept:
            continue
        if len(term.humans) > 1:
            term.console.print(Text(term.say(f"P{seat + 1} に代わってください。", f"Hand over to P{seat + 1}."), style="bold"))
        term.console.print(Text(term.say(
            f"P{seat + 1} さん、ゲームについていくつか質問に答えますか?(y で答える、Enter で答えない): ",
            f"P{seat + 1}, answer a few questions about the game? (y to answer, Enter to skip): "), style="bold"), end="")
        line = term.read()
        if line is None:
            return
        if line.strip().lower() not in ("y", "yes", "はい"):
            notes.add_answers(t, seat, None)
            continue
        given = _answers(term)
        if given is None:
            return
        notes.add_answers(t, seat, given)
        term.console.print(Text(term.say("ありがとうございました。回答はゲームと一緒に保存されました。",
                                         "Thank you: your answers are kept with the game."), style="green"))


def _answers(term) -> dict | None:
    """The answers typed, as add_answers takes them; None when the input ended."""
    t = term.table
    out: dict = {}
    own = notes.asked(t)
    mine = [None] * len(own)
    for i, (key, kind, en, ja) in enumerate(notes.QUESTIONS + own):
        v = _ask(term, key, kind, term.say(ja, en))
        if v is _ENDED:
            return None
        if i >= len(notes.QUESTIONS):
            mine[i - len(notes.QUESTIONS)] = v
        elif v is not None:
            out[key] = v
    if any(v is not None for v in mine):
        out["asked"] = mine
    return out


_ENDED = object()


def _ask(term, key, kind, text):
    choices = _choices(term, kind)
    if choices:
        hint = " / ".join(f"{k} {w}" for k, (_, w) in enumerate(choices, 1))
    else:
        hint = term.say("1〜5", "1-5") if kind == "scale" else term.say("ひとこと", "a few words")
    while True:
        term.console.print(Text(f"{text} ({hint}; " + term.say("Enter でとばす", "Enter to leave it") + "): ",
                                style="bold"), end="")
        line = term.read()
        if line is None:
            return _ENDED
        line = line.strip()
        if not line:
            return None
        if kind == "scale" or choices:
            n = len(choices) or 5
            k = int(line) if line in tuple(str(i) for i in range(1, n + 1)) else None
            if k is None:
                term.console.print(Text(term.say(f"1〜{n} の番号を入力してください", f"type a number from 1 to {n}"),
                                        style="red"))
                continue
            return choices[k - 1][0] if choices else k
        try:
            return notes.answer(term.table, key, kind, line)
        except notes.NoteRefused as e:
            term.console.print(Text(str(e), style="red"))


def _choices(term, kind) -> list:
    words = {"length": notes.LENGTHS, "yes_no": notes.YES_NO}.get(kind)
    return [(k, term.say(ja, en)) for k, (en, ja) in words.items()] if words else []
