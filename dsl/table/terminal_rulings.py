"""Rulings at the terminal: when play runs into a dead end, the person at the keyboard is
offered what the browser's table offers (table/rulings.py), numbered, and picks one; the game
plays on under a variant, ends with the outcome chosen, or ends where it is."""
from __future__ import annotations

from rich.text import Text

from .game_table import Refused


def rule_here(term) -> bool:
    """Asks for a ruling when one is open; whether play goes on after it."""
    t, say = term.table, term.say
    r = t.ruling(term.lang)
    if r is None:
        return False
    c = term.console
    c.rule(say("裁定", "A ruling"))
    c.print(Text(t.result(term.lang), style="yellow"), soft_wrap=True)
    if r["question"] is not None:
        c.print(Text(r["question"]["title"], style="bold"), soft_wrap=True)
        if r["question"]["text"]:
            c.print(r["question"]["text"], soft_wrap=True, markup=False)
    for ch in r["choices"]:
        c.print(f"  {ch['index']}. {ch['title']}" + (f" — {ch['why']}" if ch["why"] else ""), markup=False,
                soft_wrap=True)
    from .terminal import _option_number        # terminal.py imports this module
    n = len(r["choices"])
    while True:
        c.print(Text(say(f"裁定を選んでください (1〜{n}、q 中断): ", f"Your ruling (1-{n}, q stop): "), style="bold"),
                end="")
        line = term.read()
        if line is None or line.lower() == "q":
            return False
        k = _option_number(line)
        if k is None or not 1 <= k <= n:
            c.print(Text(say(f"1〜{n} の番号を入力してください", f"type a number from 1 to {n}"), style="red"))
            continue
        try:
            t.rule(k, term.lang)
        except Refused as e:
            c.print(Text(str(e), style="red"))
            continue
        c.print(Text(f"→ {r['choices'][k - 1]['title']}", style="green"), soft_wrap=True)
        return not t.ended()
