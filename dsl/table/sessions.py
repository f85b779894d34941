"""Sessions across versions of the rules: the table's replays grouped by the rules they were
played under (the rule file's fingerprint and its variants, as each replay records them), with
the questionnaire's ratings (mean and a 95% interval), the notes by rule and by decision, each
with the command that opens the replay at its step, and the rulings made at the table.

A fingerprint changes whenever the rules' text does, so a session of last week's rules never
mixes with today's: the designer sees whether the edit moved the ratings beyond chance.

May import: the table core (dsl/table), analyses.replay.
"""
from __future__ import annotations

import glob
import json
import math
import os
import shlex

from .notes import QUESTIONS, SCALES

HUMAN = "human"
# Student's t at 97.5% for 1..30 degrees of freedom: a handful of answers gives a wide interval
_T = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
      2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
      2.045, 2.042]


def interval(values: list) -> dict:
    """Mean and a 95% interval (Student's t); with one value there is no interval."""
    n = len(values)
    if not n:
        return {"n": 0, "mean": None, "low": None, "high": None}
    mean = sum(values) / n
    if n == 1:
        return {"n": 1, "mean": round(mean, 3), "low": None, "high": None}
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = (_T[n - 2] if n - 1 <= len(_T) else 1.96) * sd / math.sqrt(n)
    return {"n": n, "mean": round(mean, 3), "low": round(mean - half, 3), "high": round(mean + half, 3)}


def open_at(path: str, step: int) -> str:
    """The command that shows the replay in the browser at `step`."""
    return f"playtest replay {shlex.quote(path)} --serve --step {step}"


def sessions(folder: str) -> list[dict]:
    """One entry per version of the rules played at the table in `folder` (and below)."""
    groups: dict = {}
    for path in sorted(glob.glob(os.path.join(glob.escape(folder), "**", "*.json"), recursive=True)):
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError):
            continue        # table-stats says why it skips a file; a session only reads what loads
        if not isinstance(data, dict) or not isinstance(data.get("seats"), list) or HUMAN not in data["seats"]:
            continue
        key = (str(data.get("rules")), str(data.get("fingerprint")), tuple(map(str, data.get("variants") or ())))
        groups.setdefault(key, []).append((path, data))
    return [_session(key, games) for key, games in sorted(groups.items())]


def _session(key, games) -> dict:
    rules, fingerprint, variants = key
    ratings = {k: [] for k in SCALES}
    lengths: dict = {}
    texts: dict = {k: [] for k, kind, _, _ in QUESTIONS if kind == "text"}
    by_rule: dict = {}
    by_step: list = []
    rulings = []
    own: dict = {}          # the designer's questions: key -> (kind, en, ja, answers)
    people = answered = skipped = 0
    for path, data in games:
        people += sum(1 for s in data["seats"] if s == HUMAN)
        for q in data.get("asked") or ():
            if isinstance(q, dict) and isinstance(q.get("key"), str) and q.get("kind") in ("scale", "yes_no", "text"):
                own.setdefault(q["key"], (q["kind"], str(q.get("en", "")), str(q.get("ja", "")), []))
        for seat, a in sorted((data.get("answers") or {}).items()):
            if not isinstance(a, dict):
                continue
            if a.get("skipped"):
                skipped += 1
                continue
            answered += 1
            for k in SCALES:
                if isinstance(a.get(k), int) and not isinstance(a.get(k), bool):
                    ratings[k].append(a[k])
            if isinstance(a.get("length"), str):
                lengths[a["length"]] = lengths.get(a["length"], 0) + 1
            for k in texts:
                if isinstance(a.get(k), str):
                    texts[k].append({"file": path, "seat": _seat(seat), "text": a[k]})
            for k, v in (a.get("asked") if isinstance(a.get("asked"), dict) else {}).items():
                if k in own:
                    own[k][3].append((path, _seat(seat), v))
        for n in data.get("notes") or ():
            if not isinstance(n, dict) or not isinstance(n.get("step"), int):
                continue
            item = {"file": path, "step": n["step"], "seat": n.get("seat"), "text": str(n.get("text", "")),
                    "rule": n.get("rule"), "open": open_at(path, n["step"])}
            by_rule.setdefault(n.get("rule") or "", []).append(item)
            by_step.append(item)
        for r in data.get("rulings") or ():
            if isinstance(r, dict):
                rulings.append({"file": path, "step": r.get("step"), "rule": r.get("rule"),
                                "question": r.get("question"), "chosen": r.get("chosen"), "title": r.get("title"),
                                "open": open_at(path, r["step"]) if isinstance(r.get("step"), int) else None})
    return {"rules": rules, "fingerprint": fingerprint, "variants": list(variants), "games": len(games),
            "people": people, "answered": answered, "skipped": skipped,
            "ratings": {k: interval(v) for k, v in ratings.items()}, "length_felt": dict(sorted(lengths.items())),
            "answers": {k: v for k, v in texts.items() if v},
            "notes_by_rule": dict(sorted(by_rule.items())),
            "notes_by_step": sorted(by_step, key=lambda i: (i["file"], i["step"])),
            "rulings": rulings, "asked": {k: _asked(*q) for k, q in own.items()}}


def _asked(kind, en, ja, given) -> dict:
    """One of the designer's questions summed up as its kind allows."""
    out = {"kind": kind, "en": en, "ja": ja}
    if kind == "scale":
        out["rating"] = interval([v for _, _, v in given if isinstance(v, int) and not isinstance(v, bool)])
    elif kind == "yes_no":
        out["yes"], out["no"] = (sum(1 for _, _, v in given if v == w) for w in ("yes", "no"))
    else:
        out["answers"] = [{"file": f, "seat": seat, "text": v} for f, seat, v in given if isinstance(v, str)]
    return out


def _seat(s):
    return int(s) if isinstance(s, str) and s.isdigit() else s


def lines(s: dict, titles: dict) -> list[str]:
    """The session as text; `titles` names the rules as the rulebook does."""
    def who(seat):
        return "the designer" if seat is None else f"P{int(seat) + 1}" if isinstance(seat, int) else str(seat)
    name = " + ".join([s["rules"], *s["variants"]])
    out = [f"{name} (rules {s['fingerprint'][:12]}): {s['games']} games, {s['people']} people, "
           f"{s['answered']} answered the questions, {s['skipped']} skipped them"]
    for k, r in s["ratings"].items():
        if r["n"]:
            span = f" (95% interval {r['low']:.2f} to {r['high']:.2f})" if r["low"] is not None else " (one answer: no interval)"
            out.append(f"  {k}: mean {r['mean']:.2f} of {r['n']}{span}")
    if s["length_felt"]:
        out.append("  the length felt: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in s["length_felt"].items()))
    for k, items in s["answers"].items():
        out.append(f"  {k.replace('_', ' ')}:")
        out.extend(f"    {who(i['seat'])}: {_one_line(i['text'])}" for i in items)
    for k, q in s.get("asked", {}).items():
        head = f"  the designer's question {k} ({_one_line(q['en'] or q['ja'])})"
        r = q.get("rating")
        if r is not None:
            span = f" (95% interval {r['low']:.2f} to {r['high']:.2f})" if r["low"] is not None else \
                " (one answer: no interval)" if r["n"] else ""
            out.append(f"{head}: " + (f"mean {r['mean']:.2f} of {r['n']}{span}" if r["n"] else "no answer"))
        elif "yes" in q:
            out.append(f"{head}: yes {q['yes']}, no {q['no']}")
        else:
            out.append(f"{head}:")
            out.extend(f"    {who(i['seat'])}: {_one_line(i['text'])}" for i in q["answers"])
    if s["notes_by_rule"]:
        out.append("  notes by rule:")
        for rule, items in s["notes_by_rule"].items():
            out.append(f"    {titles.get(rule, rule) if rule else '(no rule named)'}:")
            for i in items:
                out.append(f"      at action {i['step']}, {who(i['seat'])}: {_one_line(i['text'])}")
                out.append(f"        {i['open']}")
        out.append("  notes by decision:")
        for i in s["notes_by_step"]:
            out.append(f"    {os.path.basename(i['file'])} at action {i['step']}, {who(i['seat'])}: {_one_line(i['text'])}")
    for r in s["rulings"]:
        out.append(f"  ruling at action {r['step']}: {r['question'] or r['rule']}: {r['title'] or r['chosen']}")
        if r["open"]:
            out.append(f"    {r['open']}")
    return out


def _one_line(text: str) -> str:
    # a note is plain text from a page: on a terminal, no line breaks and no control characters
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


def titles_of(data_path: str, lang: str = "en") -> dict:
    """{rule name: its title in the rulebook, in `lang`} for the rules a replay carries; {} if they do not load."""
    from types import SimpleNamespace
    from ..analyses import replay as replay_mod
    from ..engine import Game
    from .notes import rule_titles
    try:
        rep = replay_mod.load(data_path)
        game = Game(replay_mod.embedded(rep)[0], rep.players)
        return {r["name"]: r["title"] for r in rule_titles(SimpleNamespace(game=game), lang)}
    except Exception:       # the names stand in for titles: a session is still worth reading
        return {}
