"""`dice`, `deck` and `token`: the physical pieces, with faces, card tables and counts.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..language import syntax as S
from ..language.building import TableError, span
from ..language.limits import MAX_PIECES
from ..language.syntax import Decl, Expr, Node, Span, Text
from ..printing.runs import Runs, say
from .registry import register


@dataclass(frozen=True)
class CardSpec(Node):
    """One row of a card table: attribute values and how many copies."""
    name: str
    attrs: tuple[tuple[str, object], ...]
    count: Optional[Expr]
    span: Span


@dataclass(frozen=True)
class Component(Decl):
    """Dice, cards and tokens: physical pieces that live in zones and are conserved."""
    kind: str                                   # 'dice' | 'deck' | 'token'
    home: Optional[str]
    faces: tuple[object, ...] = ()
    wild: Optional[object] = None
    count: Optional[Expr] = None
    count_per_player: bool = False
    cards: tuple["CardSpec", ...] = ()
    part_of: Optional[str] = None               # printed on another component (a tile's spaces)


# ---------------------------------------------------------------- grammar
def _faces_line(meta, c):
    return ("faces", tuple(c))


def _wild_line(meta, c):
    return ("wild", c[0])


def _count_line(meta, c):
    return ("count", (c[0], bool(c[1])))


def _home_line(meta, c):
    return ("home", str(c[0]))


def _part_of_line(meta, c):
    return ("part_of", str(c[0]))


def _attr_value(meta, c):
    return (str(c[0]), c[1])


def _card_line(meta, c):
    attrs = tuple(a for a in c[1:] if isinstance(a, tuple))
    count = c[-1] if not isinstance(c[-1], tuple) else None
    return ("card", CardSpec(str(c[0]), attrs, count, span(meta)))


def _table_row(meta, c):
    return ("row", tuple(c), span(meta))


def _cards_table(meta, c):
    var = str(c[0]) if c[0] is not None else None
    values = [v for v in c[1:] if not (isinstance(v, tuple) and v and v[0] == "row")]
    rows = [r for r in c[1:] if isinstance(r, tuple) and r and r[0] == "row"]
    values = [v for v in values if v is not None]
    header, body = rows[0], rows[1:]
    columns = [str(h) for h in header[1]]
    specs = []
    for _, cells, row_span in body:
        if len(cells) != len(columns):
            raise TableError(row_span, f"this row has {len(cells)} cells but the header has {len(columns)}")
        attrs = []
        count = None
        for col, cell in zip(columns, cells):
            if col == "count":
                count = S.Num(row_span, cell) if isinstance(cell, int) else S.Name(row_span, str(cell))
            elif cell != "-":
                attrs.append((col, cell))
        for v in (values or [None]):
            row_attrs = tuple(attrs) + (((var, v),) if var else ())
            label = "-".join(str(x) for _, x in row_attrs)
            specs.append(CardSpec(label, row_attrs, count, row_span))
    return ("cards", tuple(specs))


def _cards_range_table(meta, c):
    """`cards for each index in 1..7`: the rows once for each number of the range."""
    low, high = int(c[1]), int(c[2])
    if high - low >= MAX_PIECES:
        raise TableError(span(meta), f"the range {low}..{high} makes {high - low + 1:,} copies of each row, "
                                     f"more than the {MAX_PIECES:,} pieces a game may hold")
    return _cards_table(meta, [c[0], *range(low, high + 1), *c[3:]])


def _component_of(kind):
    def build(meta, c):
        fields = {"home": None, "faces": (), "wild": None, "count": (None, False), "cards": [], "part_of": None}
        texts = []
        for line in c[1:]:
            if isinstance(line, tuple) and line and isinstance(line[0], Text):
                texts.extend(line)
            elif line[0] == "card":
                fields["cards"].append(line[1])
            elif line[0] == "cards":
                fields["cards"].extend(line[1])
            else:
                fields[line[0]] = line[1]
        count, per_player = fields["count"]
        return Component(str(c[0]), tuple(texts), span(meta), kind, fields["home"], fields["faces"],
                         fields["wild"], count, per_player, tuple(fields["cards"]), fields["part_of"])
    return build


GRAMMAR = {"part_of_line": _part_of_line, "faces_line": _faces_line, "wild_line": _wild_line, "count_line": _count_line, "home_line": _home_line, "attr_value": _attr_value, "card_line": _card_line, "table_row": _table_row, "cards_table": _cards_table, "cards_range_table": _cards_range_table, "dice": _component_of("dice"), "deck": _component_of("deck"), "token": _component_of("token")}


# ---------------------------------------------------------------- checks
def check(ck, d):
    if d.home is None:
        ck.error(d.span, f"'{d.name}' does not say where it starts", "add 'in ZONE' naming a shared zone")
    else:
        ck.used.add(d.home)
        z = ck.declared.get(d.home)
        if not isinstance(z, S.Zone):
            ck.error(d.span, f"'{d.name}' starts in '{d.home}', which is not a zone",
                       ck.did_you_mean(d.home, lambda: [x.name for x in ck.of(S.Zone)]))
        elif z.per == "player" and not (d.count_per_player and not d.cards):
            ck.error(d.span, f"'{d.name}' starts in '{d.home}', which belongs to each player",
                       "components start in a shared zone, or in a zone per player when counted per player")
        elif z.per not in (None, "player"):
            ck.error(d.span, f"'{d.name}' starts in '{d.home}', which is kept per {z.per}",
                       "components start in a shared zone; deal them in setup")
    if d.kind == "dice":
        if not d.faces:
            ck.error(d.span, f"dice '{d.name}' has no faces", "add 'faces 1, 2, 3, 4, 5, 6'")
        if d.wild is not None and d.wild not in d.faces:
            ck.error(d.span, f"the wild face {d.wild!r} is not one of the faces")
    if d.kind == "deck" and not d.cards:
        ck.error(d.span, f"deck '{d.name}' has no cards", "add 'card NAME with ...' lines or a 'cards' table")
    if d.count is not None:
        ck.count(d.count, f"the count of '{d.name}'")
    elif d.kind != "deck":
        ck.error(d.span, f"'{d.name}' does not say how many there are", "add 'count N' or 'count N per player'")
    for spec in d.cards:
        if spec.count is not None:
            ck.count(spec.count, f"the count of '{spec.name}'")
    if d.part_of is not None:
        whole = ck.declared.get(d.part_of)
        if d.part_of == d.name or not isinstance(whole, (S.Component, S.ExtraComponent)):
            ck.error(d.span, f"'{d.name}' is part of '{d.part_of}', which is not another component",
                     ck.did_you_mean(d.part_of, lambda: [x.name for x in ck.of(S.Component) if x.name != d.name]))


# ---------------------------------------------------------------- reading
def count_runs(v, counts, per: str = "", unit=lambda n: n) -> Runs:
    """How many there are at each player count, and how many per player (or team) where the rules
    count them that way: "5 per player (2 players: 10 · 3 players: 15 ...)"."""
    if not counts:
        return []
    out: Runs = []
    each = {k // unit(n) if unit(n) and k % unit(n) == 0 else None for n, k in counts}
    if per and len(each) == 1 and None not in each:
        k = str(each.pop())
        out += say(v.lang, [("", {"player": "1人あたり", "team": "1チームあたり"}[per]), ("num", k)],
                   [("num", k), ("", {"player": " per player", "team": " per team"}[per])])
    totals = {k for _, k in counts}
    if len(totals) == 1:
        if not out:
            out.append(("num", str(counts[0][1])))
        return out
    # runs of player counts with the same total read as one range
    groups: list[list] = []
    for n, k in counts:
        if groups and groups[-1][2] == k and groups[-1][1] == n - 1:
            groups[-1][1] = n
        else:
            groups.append([n, n, k])
    listed = " · ".join(say(v.lang, f"{a}人: {k}" if a == b else f"{a}〜{b}人: {k}",
                            f"{a} players: {k}" if a == b else f"{a}-{b} players: {k}") for a, b, k in groups)
    out.append(("num", f" ({listed})" if out else listed))
    return out


def read(v, c, counts=()) -> Runs:
    out: Runs = []
    if c.name not in v.titles:
        # without a title the name is printed as written; say what kind of piece it is
        kind = {"dice": ("さいころ", "dice"), "deck": ("カード", "cards"), "token": ("コマ", "tokens")}[c.kind]
        out.append(("", say(v.lang, *kind) + ": "))
    out += count_runs(v, counts, "player" if c.count_per_player and not c.cards else "")
    if c.faces:
        faces = [S.Num(S.NOWHERE, f) if isinstance(f, int) else S.Name(S.NOWHERE, str(f)) for f in c.faces]
        out += [("", " — " + say(v.lang, "目", "faces") + " ")] + v.exprs(faces)
    if c.wild is not None:
        out.append(("", say(v.lang, f"(ワイルドは{c.wild})", f", wild {c.wild}")))
    return out


register(Component, "declaration", grammar=GRAMMAR, check=check, read=read)
