"""Card sheets: every card and token the rules make, laid out three by three for cutting."""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field, replace
from typing import Optional

from ..language import syntax as S
from ..engine import compiled
from ..constructs.symbol import colour_hex
from .prose import Voice, plain, say, title_of
from .labels import CARD, PAPERS, label

# A card sheet is cut from the front: 63 x 88 mm cards, three by three, touching, the block
# centred on the page. Each card's print runs BLEED past its edges (a back's colour, so a cut a
# little off shows no white) and keeps its content SAFE inside them (so a cut a little off
# takes nothing away). Cut marks stand in the margin, clear of the bleed and inside the page.
BLEED = 3.0
SAFE = 3.0
MARK_GAP = 0.5          # between the bleed and a cut mark, and between a cut mark and the page edge
MARK_LENGTH = 6.0       # the longest cut mark; shorter where the margin is narrower (Letter's top)
TOKEN = 24.0            # a token disc's diameter
TOKEN_GAP = 3.0
TOKEN_MARGIN = 12.0


@dataclass
class Value:
    """A value as a card prints it: its title, and its mark and colour when a symbol declares them."""
    text: str
    mark: str = ""
    colour: str = ""        # '#rrggbb'; '' is the ink


@dataclass(frozen=True)
class Preset:
    """A size cards are printed at: the card's trim, the bleed around it and the safe margin inside it, mm."""
    card: tuple
    bleed: float
    safe: float


# home: the nine-up sheets above, cut at home. pod: poker size, one card a page at the bleed size,
# 1/8 in of bleed and of safe margin, as print-on-demand card printers take a file.
PRESETS = {"home": Preset(CARD, BLEED, SAFE), "pod": Preset((63.5, 88.9), 3.175, 3.175)}


@dataclass
class Card:
    deck: str
    name: str
    attrs: list             # (attribute title, value text) for every attribute the card has
    big: str = ""           # the main value, printed large: its mark if it has one, else its title
    big_size: int = 0       # pt
    corner: str = ""        # the main value in the corner indices ('' when too long to fit)
    suit: Optional[Value] = None
    rows: list = field(default_factory=list)    # (title, Value) for the deck's other columns
    x: float = 0.0          # the card's top-left corner on its page, mm (its trim, not its bleed)
    y: float = 0.0
    kind: str = ""          # the deck's name in the rule file


@dataclass
class Token:
    title: str
    owner: str              # the player a piece counted per player belongs to; '' for none
    kind: str = ""          # the token's name in the rule file
    x: float = 0.0          # the disc's top-left corner, mm
    y: float = 0.0


@dataclass
class Page:
    side: str               # 'front', 'back' (the fronts mirrored, for long-edge duplex) or 'tokens'
    cards: list = field(default_factory=list)
    tokens: list = field(default_factory=list)


@dataclass
class Sheets:
    game: str
    paper: tuple            # PAPERS entry
    players: int
    pages: list
    marks: list             # cut marks, (x1, y1, x2, y2) in mm, the same on every card page
    cuts: tuple             # (x positions, y positions) of the cut lines, mm


def is_named(label: str, values: dict) -> bool:
    """A `card NAME` line names its card; a table row's label only joins its values with '-'
    (and a variant's `change cards` may have changed the values since)."""
    return "-" not in label and label != "-".join(str(x) for x in values.values())


def _symbols(rules: S.RuleFile) -> dict:
    return {d.name: d for d in rules.of(S.Symbol)}


def _value(v: Voice, symbols: dict, x) -> Value:
    d = symbols.get(str(x))
    return Value(plain(v.name(str(x))), (d.mark or "") if d else "", (colour_hex(d.colour) or "") if d else "")


def _columns(c: S.Component) -> list[str]:
    """A deck's columns in the order its table writes them (a '-' cell leaves one out of its row)."""
    cols: list[str] = []
    for spec in c.cards:
        at = -1
        for a, _ in spec.attrs:
            if a in cols:
                at = cols.index(a)
            else:
                at += 1
                cols.insert(at, a)
    return cols


def _suit_column(c: S.Component, symbols: dict) -> Optional[str]:
    """The column a card shows as its colour and mark: the first whose values have a colour, else
    the last whose values have a mark (a rank lettered A, K... comes before the suit)."""
    cols = _columns(c)
    values = {a: {str(x) for spec in c.cards for b, x in spec.attrs if b == a} for a in cols}
    coloured = [a for a in cols if any(symbols[x].colour for x in values[a] if x in symbols)]
    marked = [a for a in cols if any(symbols[x].mark for x in values[a] if x in symbols)]
    return coloured[0] if coloured else (marked[-1] if marked else None)


def _ems(text: str) -> float:
    """About how wide a text is, in ems: a Japanese character is a whole em, a digit or letter about half."""
    return sum(1.0 if unicodedata.east_asian_width(ch) in "WF" else 0.6 for ch in text)


def _big_size(text: str) -> int:
    """The size that fits the main value on one line across the middle of the card (110 pt wide)."""
    return max(9, min(44, int(110 / max(_ems(text), 0.1))))


def card_rows(c: S.Component, v: Voice, lang: str) -> list[list[str]]:
    """A deck's table as the rule file writes it: one row per table line, `for each` values joined."""
    symbols = _symbols(v.rules)
    attrs = _columns(c)
    lines: dict = {}
    for spec in c.cards:
        lines.setdefault((spec.span, spec.span.line), []).append(spec)
    rows = [[plain(v.attribute(a)) for a in attrs] + [label(lang, "count")]]
    for specs in lines.values():
        row = []
        for a in attrs:
            values = []
            for spec in specs:
                x = dict(spec.attrs).get(a)
                if x is None:
                    text = "—"
                else:
                    value = _value(v, symbols, x)
                    text = f"{value.mark} {value.text}" if value.mark and value.mark != value.text else value.text
                if text not in values:
                    values.append(text)
            row.append(", ".join(values))
        row.append(plain(v.expr(specs[0].count)) if specs[0].count is not None else "1")
        rows.append(row)
    return rows


def cards(rules: S.RuleFile, lang: str, players: Optional[int] = None) -> tuple[list[Card], int]:
    """Every card the deck tables define, as many copies as the rules make at this player count."""
    v = Voice(rules, lang)
    symbols = _symbols(rules)
    n = players or rules.game.max_players
    g = compiled(rules, n)
    decks = {c.name: c for c in rules.of(S.Component) if c.kind == "deck"}
    columns = {name: _columns(c) for name, c in decks.items()}
    suits = {name: _suit_column(c, symbols) for name, c in decks.items()}
    out = []
    for i, kind in enumerate(g.kind_of):
        if kind not in decks:
            continue
        values = g.piece_attrs[i]
        attrs = [(plain(v.attribute(a)), plain(v.name(str(x)))) for a, x in values.items() if x is not None]
        named = is_named(g.piece_label[i], values)
        name = plain(v.name(g.piece_label[i])) if named else ""
        suit = suits[kind]
        main = next((a for a in columns[kind] if a != suit and values.get(a) is not None), None)
        card = Card(v.title(kind), name, attrs, kind=kind)
        shown_suit = _value(v, symbols, values[suit]) if suit is not None and values.get(suit) is not None else None
        if shown_suit is not None and (shown_suit.mark or shown_suit.colour):
            card.suit = shown_suit
        else:
            suit = None         # nothing to show as a colour or mark: the value goes with the others
        if main is not None:
            shown = _value(v, symbols, values[main])
            card.big = shown.mark or shown.text
            card.corner = card.big if _ems(card.big) <= 2 else ""
        else:
            card.big = name
        if card.big == name:
            card.name = ""          # printed large already
        card.big_size = _big_size(card.big)
        card.rows = [(plain(v.attribute(a)), _value(v, symbols, values[a]) if values.get(a) is not None else Value("—"))
                     for a in columns[kind] if a not in (main, suit)]
        out.append(card)
    return out, n


def tokens(rules: S.RuleFile, lang: str, n: int) -> list[Token]:
    """A disc for every token the rules make at this player count, with its owner if it has one."""
    v = Voice(rules, lang)
    g = compiled(rules, n)
    kinds = {c.name for c in rules.of(S.Component) if c.kind == "token"}
    return [Token(v.title(kind), say(lang, f"プレイヤー{int(owner) + 1}", f"player {int(owner) + 1}")
                  if (owner := g.piece_owner[i]) is not None else "", kind)
            for i, kind in enumerate(g.kind_of) if kind in kinds]


def card_sheets(rules: S.RuleFile, lang: str, paper: str = "a4", players: Optional[int] = None) -> Sheets:
    """The pages of a card sheet: each page of fronts followed by its backs, then the tokens."""
    page = PAPERS[paper]
    w, h = page[2], page[3]
    left, top = (w - 3 * CARD[0]) / 2, (h - 3 * CARD[1]) / 2
    xs = tuple(round(left + i * CARD[0], 2) for i in range(4))
    ys = tuple(round(top + j * CARD[1], 2) for j in range(4))

    def ends(lo: float, hi: float):
        """The marks at the two ends of a cut line crossing the block from lo to hi: clear of the
        bleed, inside the page, as long as the margin allows (Letter's top margin is narrow)."""
        length = min(MARK_LENGTH, lo - BLEED - 2 * MARK_GAP)
        near, far = lo - BLEED - MARK_GAP, hi + BLEED + MARK_GAP
        return ((round(near - length, 2), round(near, 2)), (round(far, 2), round(far + length, 2)))
    marks = [(x, a, x, b) for x in xs for a, b in ends(top, h - top)] + \
            [(a, y, b, y) for y in ys for a, b in ends(left, w - left)]
    deck, n = cards(rules, lang, players)
    pages = []
    for first in range(0, len(deck), 9):
        fronts, backs = Page("front"), Page("back")
        for k, c in enumerate(deck[first:first + 9]):
            col, row = k % 3, k // 3
            fronts.cards.append(replace(c, x=xs[col], y=ys[row]))
            backs.cards.append(replace(c, x=xs[2 - col], y=ys[row]))     # long-edge duplex turns the page over left-right
        pages += [fronts, backs]
    across = int((w - 2 * TOKEN_MARGIN + TOKEN_GAP) // (TOKEN + TOKEN_GAP))
    down = int((h - 2 * TOKEN_MARGIN + TOKEN_GAP) // (TOKEN + TOKEN_GAP))
    x0 = (w - (across * (TOKEN + TOKEN_GAP) - TOKEN_GAP)) / 2
    y0 = (h - (down * (TOKEN + TOKEN_GAP) - TOKEN_GAP)) / 2
    discs = tokens(rules, lang, n)
    for first in range(0, len(discs), across * down):
        sheet = Page("tokens")
        for k, t in enumerate(discs[first:first + across * down]):
            sheet.tokens.append(replace(t, x=round(x0 + (k % across) * (TOKEN + TOKEN_GAP), 2),
                                        y=round(y0 + (k // across) * (TOKEN + TOKEN_GAP), 2)))
        pages.append(sheet)
    title = title_of(rules.game.texts, lang) or rules.game.name
    return Sheets(title, page, n, pages, marks, (xs, ys))
