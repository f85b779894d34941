"""Comparisons players say in words, each a shape of the rule tree with its reading:

- a piece of a kind: `x.kind = "worker"` is "that piece is a worker", 「そのコマがワーカーポーン」;
- the largest of everyone's value reaching a number (`max(f(p) for p in players) >= n`): "some
  player's f is at least n", 「だれかのfがn以上」;
- two things alike in several attributes (`X.low = Y.low and X.high = Y.high`): "X has the same
  lower number and higher number as Y", 「Xの小さい数字・大きい数字がYと同じ」.

May import: the syntax and runs.py only (a leaf, as idioms.py is: the constructs' readings use it).
"""
from __future__ import annotations

from ..language import syntax as S
from .runs import Runs, bare


def of_kind(v, e) -> tuple[S.Expr, str, bool] | None:
    """`x.kind = "worker"`, where a component is named: (x, the component, whether it is one)."""
    if isinstance(e, S.Binary) and e.op in ("=", "!=") and isinstance(e.left, S.Attr) and e.left.name == "kind" \
            and type(e.right).__name__ == "Str" and isinstance(v.kinds.get(e.right.value), S.Component) \
            and e.right.value in v.titles:
        return e.left.obj, e.right.value, e.op == "="
    return None


def read_of_kind(v, piece, component: str, holds: bool) -> Runs:
    """'that piece is a worker', 「そのコマがワーカーポーン」; of a filter's item, 「種類がワーカーポーン」."""
    title = v.titles[component]
    if v.lang == "ja":
        said = [("term", title)] + ([] if holds else [("", "ではない")])
        return ([("", "種類が")] if v.subject(piece) else v.expr(piece) + [("", "が")]) + said
    article = "an " if title[:1] in "aeiou" else "a "
    return v.expr(piece) + [("", (" is " if holds else " is not ") + article), ("term", title)]


def someone_reaches(e) -> tuple[S.Comprehension, str] | None:
    """`max(f(p) for p in players) >= n` (or `>`): some player's f reaches n. The largest of everyone's
    is a reckoning players do not make; they ask whether anyone has got there."""
    if isinstance(e, S.Binary) and e.op in (">=", ">") and isinstance(e.left, S.Call) and e.left.fn == "max" \
            and len(e.left.args) == 1 and isinstance(e.left.args[0], S.Comprehension):
        c = e.left.args[0]
        if c.item is not None and c.cond is None and isinstance(c.coll, S.Name) and c.coll.id in ("players", "teams"):
            return c, e.op
    return None


def read_someone_reaches(v, e, c: S.Comprehension, op: str) -> Runs:
    """「だれかの部族点が5以上」, 'some player's tribe points is at least 5'."""
    noun = v.noun(c.coll)
    with v.bound(c.var, noun, subject=True):
        value = v.expr(c.item)
    bound = v.expr(e.right)
    if v.lang == "ja":
        who = "どれかのチームの" if c.coll.id == "teams" else "だれかの"
        return [("", who)] + value + [("", "が")] + bound + [("", "以上" if op == ">=" else "より大きい")]
    who = "some team's " if c.coll.id == "teams" else "some player's "
    return [("", who)] + bare(value) + [("", " is at least " if op == ">=" else " is more than ")] + bound


def same_attributes(parts: list) -> list:
    """The parts of an `and`, with runs of `X.a = Y.a and X.b = Y.b` (the same X and Y) made one
    (X, Y, [a, b]): 'X has the same a and b as Y'. A lone equality stays as written."""
    out: list = []
    for p in parts:
        pair = _attr_pair(p)
        last = out[-1] if out and isinstance(out[-1], list) else None
        if pair and last and S.same(last[0], pair[0]) and S.same(last[1], pair[1]):
            last[2].append(pair[2])
            last[3].append(p)
        else:
            out.append([pair[0], pair[1], [pair[2]], [p]] if pair else p)
    return [m if not isinstance(m, list) else (m[0], m[1], m[2]) if len(m[2]) > 1 else m[3][0] for m in out]


def _attr_pair(e):
    if isinstance(e, S.Binary) and e.op == "=" and isinstance(e.left, S.Attr) and isinstance(e.right, S.Attr) \
            and e.left.name == e.right.name:
        return e.left.obj, e.right.obj, e.left.name
    return None


def read_same_attributes(v, x, y, names: list) -> Runs:
    """「それがある場所の小さい数字・大きい数字がそのエリアタイルと同じ」, 'it has the same lower number and
    higher number as that area tile'."""
    titles = [v.title(n) for n in names]
    if v.lang == "ja":
        return ([] if v.subject(x) else v.expr(x) + [("", "の")]) + [("", "・".join(titles) + "が")] + v.expr(y) + [("", "と同じ")]
    said = " and ".join(titles)
    return v.expr(x) + [("", f" has the same {said} as ")] + v.expr(y)
