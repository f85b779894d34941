"""Structural diff of two rule sets: which named parts were added, removed or changed.

The parts are the top-level declarations and every step and phase. A part changes when
its own content changes; a step that changes inside a rule is reported as that step, not
again as the rule around it. Positions are ignored, so moving text about is no change.
"""
from __future__ import annotations

import dataclasses
import difflib
from dataclasses import dataclass
from typing import Optional

from . import overlay
from ..language import syntax as S


@dataclass(frozen=True)
class Part:
    kind: str            # the keyword: rule, parameter, step, ...
    name: str
    shape: tuple         # its own content, nested steps and phases stubbed out
    where: str           # file:line:col
    text: str            # its source text


@dataclass(frozen=True)
class Change:
    change: str          # 'added' | 'removed' | 'changed'
    kind: str
    name: str
    a: Optional[Part]
    b: Optional[Part]

    def to_json(self) -> dict:
        side = lambda p: None if p is None else {"where": p.where, "text": p.text}
        return {"change": self.change, "kind": self.kind, "name": self.name, "a": side(self.a), "b": side(self.b)}


def _shape(x):
    """Content without positions; steps and phases inside are stubbed (they are parts of their own)."""
    if isinstance(x, S.Span):
        return None
    if isinstance(x, S.Block) and x.kind in ("step", "phase"):
        return ("block", x.kind, x.name)
    if dataclasses.is_dataclass(x):
        return (type(x).__name__,) + tuple(_shape(getattr(x, f.name)) for f in dataclasses.fields(x)
                                           if f.name != "span")
    if isinstance(x, (tuple, list)):
        return tuple(_shape(i) for i in x)
    return x


def _own_shape(x):
    if isinstance(x, S.Block):
        return ("Block", x.kind, x.name, _shape(x.texts), _shape(x.body))
    return _shape(x)


def source_text(rules: S.RuleFile, span: S.Span) -> str:
    """The text a span covers, dedented as if it stood at the top of a file; a statement a
    variant replaced inside it (`replace in step`) reads as what stands there now."""
    text = rules.source_of(span).splitlines()
    end = _last_line(text, span)
    for old, new in sorted(rules.replaced, key=lambda r: -r[0].line):     # from the bottom: lines above keep their numbers
        last = _last_line(text, old)
        if old.file == span.file and span.line < old.line and last <= end:
            put = [" " * (old.column - 1) + line for st in new for line in source_text(rules, st.span).splitlines()]
            text[old.line - 1:last] = put
            end += len(put) - (last - old.line + 1)
    lines = text[span.line - 1:end]
    if not lines:
        return ""
    base = len(lines[0]) - len(lines[0].lstrip())
    out = [lines[0][span.column - 1:]] + [l[base:] if not l[:base].strip() else l.lstrip() for l in lines[1:]]
    while out and (not out[-1].strip() or out[-1].lstrip().startswith("#")):
        out.pop()
    return "\n".join(out)


def _last_line(text, span) -> int:
    """The last line a span covers: it may stop at the start of the next item."""
    end = span.end_line
    if end > span.line and end <= len(text) and not text[end - 1][:span.end_column - 1].strip():
        end -= 1
    return end


def parts(rules: S.RuleFile) -> dict:
    """Every named part of a rule set, keyed by (namespace, name), in file order."""
    out = {}

    def add(kind, name, node, span):
        out[(overlay.family(kind), name)] = Part(kind, name, _own_shape(node),
                                                  f"{rules.path_of(span)}:{span.line}:{span.column}",
                                                  source_text(rules, span))

    for d in rules.decls:
        if isinstance(d, (S.Variant, S.Patch)):
            continue
        add(S.kind_of(d), d.name, d, d.span)
        if isinstance(d, (S.Rule, S.Trigger, S.Flow)):
            for b in overlay.named_blocks(d.body):
                add(b.kind, b.name, b, b.span)
    return out


def diff(a: S.RuleFile, b: S.RuleFile) -> list[Change]:
    pa, pb = parts(a), parts(b)
    changes = []
    for key, part in pa.items():
        other = pb.get(key)
        if other is None:
            changes.append(Change("removed", part.kind, part.name, part, None))
        elif other.shape != part.shape:
            changes.append(Change("changed", part.kind, part.name, part, other))
    for key, part in pb.items():
        if key not in pa:
            changes.append(Change("added", part.kind, part.name, None, part))
    return changes


def describe(rules: S.RuleFile) -> dict:
    return {"game": rules.path, "variants": [v.path for v in rules.variants]}


def to_json(a: S.RuleFile, b: S.RuleFile, changes: list[Change]) -> dict:
    counts = {k: sum(1 for c in changes if c.change == k) for k in ("added", "removed", "changed")}
    return {"a": describe(a), "b": describe(b), "summary": counts, "changes": [c.to_json() for c in changes]}


def label(rules: S.RuleFile) -> str:
    return " + ".join([rules.path] + [v.path for v in rules.variants])


# what a change is called in Japanese; the kinds and names stay the rule file's own words
_JA = {"added": "追加", "removed": "削除", "changed": "変更"}


def format_text(a: S.RuleFile, b: S.RuleFile, changes: list[Change], style=lambda s, **k: s,
                lang: str = "en") -> list[str]:
    said = (lambda k: _JA[k]) if lang == "ja" else (lambda k: k)
    lines = [f"A: {label(a)}", f"B: {label(b)}", ""]
    if not changes:
        return lines + ["ルールに違いなし" if lang == "ja" else "no difference in the rules"]
    colour = {"added": "green", "removed": "red", "changed": "yellow"}
    for c in changes:
        where = c.a.where if c.b is None else c.b.where if c.a is None else f"{c.a.where} -> {c.b.where}"
        lines.append(style(f"{said(c.change)} {c.kind} {c.name}", fg=colour[c.change], bold=True) + f"  ({where})")
        before = c.a.text.splitlines() if c.a else []
        after = c.b.text.splitlines() if c.b else []
        hunks = 0
        for line in difflib.unified_diff(before, after, lineterm="", n=2):
            if line.startswith(("---", "+++")):
                continue
            if line.startswith("@@"):
                hunks += 1
                if hunks > 1:
                    lines.append("    ...")
                continue
            fg = "green" if line.startswith("+") else "red" if line.startswith("-") else None
            lines.append("    " + (style(line, fg=fg) if fg else line))
        lines.append("")
    counts = {k: sum(1 for c in changes if c.change == k) for k in ("added", "removed", "changed")}
    lines.append("、".join(f"{said(k)}{n}" for k, n in counts.items()) if lang == "ja"
                 else ", ".join(f"{n} {k}" for k, n in counts.items()))
    return lines


def side_by_side(a_text: str, b_text: str) -> list[tuple[str, str, str]]:
    """Rows (tag, left, right) aligning two texts; tag is equal, delete, insert or replace."""
    left, right = a_text.splitlines(), b_text.splitlines()
    rows = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, left, right, autojunk=False).get_opcodes():
        l, r = left[i1:i2], right[j1:j2]
        for k in range(max(len(l), len(r))):
            rows.append((tag, l[k] if k < len(l) else "", r[k] if k < len(r) else ""))
    return rows


def format_html(a: S.RuleFile, b: S.RuleFile, changes: list[Change], behaviour: Optional[dict] = None,
                lang: str = "en") -> str:
    from jinja2 import Environment, FileSystemLoader, select_autoescape
    import os
    env = Environment(loader=FileSystemLoader(os.path.join(os.path.dirname(os.path.dirname(__file__)), "printing", "templates")),
                      autoescape=select_autoescape(["html", "j2"]), keep_trailing_newline=True)
    view = [dict(change=c.change, kind=c.kind, name=c.name, a=c.a, b=c.b,
                 rows=side_by_side(c.a.text if c.a else "", c.b.text if c.b else "")) for c in changes]
    summary = {k: sum(1 for c in changes if c.change == k) for k in ("added", "removed", "changed")}
    return env.get_template("diff.html.j2").render(a_label=label(a), b_label=label(b), changes=view,
                                                   summary=summary, behaviour=behaviour, lang=lang,
                                                   t=(lambda en, ja: ja) if lang == "ja" else (lambda en, ja: en),
                                                   said=(lambda k: _JA[k]) if lang == "ja" else (lambda k: k),
                                                   metric=lambda name: metric_name(name, lang),
                                                   stopped=stopped_line(behaviour, lang) if behaviour else None)


_METRIC_JA = (("win rate, seat ", "勝率、席"), ("draws: nobody won", "引き分け: 勝者なし"), ("draws", "引き分け"),
              ("dead-end games", "行き止まりのゲーム"), ("dead end: ", "行き止まり: "),
              ("decisions per game", "ゲームごとの判断数"), ("rounds per game", "ゲームごとのラウンド数"))


def metric_name(name: str, lang: str) -> str:
    """A figure compared in play (stats.compare's names), in `lang`."""
    if lang != "ja":
        return name
    for en, ja in _METRIC_JA:
        if name.startswith(en):
            return ja + name[len(en):]
    return name


def stopped_line(behaviour: dict, lang: str) -> Optional[str]:
    """Where Ctrl-C stopped the games of a comparison in play: the games each side played."""
    if "partial" not in behaviour:
        return None
    a, b = behaviour["games_played"]["A"], behaviour["games_played"]["B"]
    n = behaviour["games"]
    if lang == "ja":
        return (f"途中まで: Ctrl-Cで停止。各側{n}ゲームのうちAは{a}、Bは{b}ゲーム"
                + ("。Bは1ゲームも遊んでいないので比較はない" if not b else "。数値は遊んだゲームのもの"))
    return (f"Partial: stopped by Ctrl-C; of {n} games a side, A played {a} and B {b}"
            + ("; B played no game, so nothing is compared" if not b else "; the figures are of the games played"))
