"""Figures: the drawings a rulebook needs beside its words, made from the declarations.

- a board: its grid with the coordinates printed along both axes, the spaces next to one
  space shaded as the board's adjacency has them, and what setup puts on it;
- the setup: every zone that holds something once setup is done, shared ones and one seat's,
  with what each holds, counted by the engine from the state after setup;
- a card's anatomy: one card of each deck with a value table, drawn as the card sheets print it,
  each value it carries named beside it.

Each figure is SVG text (one line, every text from the rule file escaped) and a caption; the HTML
book puts the SVG in the page, the Typst book decodes the same bytes, so both show one drawing.

May import: the language, the engine and printing's own modules.
"""
from __future__ import annotations

from typing import Optional
from xml.sax.saxutils import escape

from ..engine import Game, RuleError
from ..engine import geometry
from ..language import syntax as S
from .runs import Item, Runs, say

CELL = 44               # a board space, px
PAD = 28                # room for the coordinates
FONT = "Noto Sans JP, Libertinus Serif, sans-serif"
INK, SOFT, ACCENT, SHADE, LINE = "#1d232b", "#5b6570", "#0b5f8a", "#d6e8f2", "#9aa5b1"


def _text(x: float, y: float, s: str, size: float = 11, fill: str = INK, anchor: str = "middle",
          weight: str = "normal") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-family="{FONT}" font-size="{size}" fill="{fill}" '
            f'text-anchor="{anchor}" font-weight="{weight}">{escape(str(s))}</text>')


def _svg(w: float, h: float, body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" viewBox="0 0 {w:.0f} {h:.0f}">'
            + "".join(body) + "</svg>")


def figure(name: str, svg: str, caption: Runs) -> Item:
    """A figure block: the caption as its runs, the SVG as its one text."""
    return Item("figure", caption, texts=[("svg", svg)], name=name)


def _set_up(rules: S.RuleFile) -> Optional[tuple[Game, object]]:
    """The state when setup is done, in the first seeded game the examples play: chance as drawn
    there, any choice setup asks for made at random (the caption says so)."""
    from ..analyses.simulate import game_rng
    from .examples import player_count
    try:
        game = Game(rules, player_count(rules))
        s = game.new_initial_state()
        rng = game_rng(1, 0)
        while not s.playing and s.outcome is None and s.dead_end is None:
            if game.is_chance(s):
                game.random_chance(s, rng)
                continue
            decision = game.decision(s)
            if decision is None:
                break
            player, moves = decision
            game.apply(s, rng.choice(moves), player)
        return game, s
    except RuleError:
        return None


def _held(game: Game, v, pieces) -> list[str]:
    """'5 × die': what a zone holds, by kind, in the order the kinds are declared."""
    counts: dict[str, int] = {}
    for p in pieces:
        counts[game.kind_of[p]] = counts.get(game.kind_of[p], 0) + 1
    return [say(v.lang, f"{v.title(k)} × {n}", f"{n} × {v.title(k)}") for k, n in counts.items()]


# ---------------------------------------------------------------- a board
def board_figure(v, game: Game, state, board: S.Board) -> Item:
    w, h = game.board_sizes[board.name]
    cx, cy = (w + 1) // 2, (h + 1) // 2
    near = set(geometry.neighbours(w, h, board.adjacency, cx, cy))
    spaces = game.zones[board.name]
    body = []
    for y in range(1, h + 1):
        for x in range(1, w + 1):
            left, top = PAD + (x - 1) * CELL, PAD + (y - 1) * CELL
            fill = ACCENT if (x, y) == (cx, cy) else SHADE if (x, y) in near else "#ffffff"
            body.append(f'<rect x="{left}" y="{top}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="{LINE}"/>')
            held = state.zones[spaces[(y - 1) * w + x - 1]]
            if held:
                body.append(_text(left + CELL / 2, top + CELL / 2 + 4, str(len(held)), 12,
                                  "#ffffff" if (x, y) == (cx, cy) else INK, weight="bold"))
    for x in range(1, w + 1):
        body.append(_text(PAD + (x - .5) * CELL, PAD - 9, str(x), 10, SOFT))
    for y in range(1, h + 1):
        body.append(_text(PAD - 10, PAD + (y - .5) * CELL + 4, str(y), 10, SOFT))
    # the axes by their words, not letters: a letter on the page reads as a variable
    body.append(_text(PAD + w * CELL + 6, PAD - 9, say(v.lang, "列 →", "column →"), 10, SOFT, "start"))
    body.append(_text(PAD - 10, PAD + h * CELL + 16, say(v.lang, "行 ↓", "row ↓"), 10, SOFT, "start"))
    title = v.title(board.name)
    ja = (f"{title}: {w}×{h}のマス。マスは列(左から1〜{w})と行(上から1〜{h})の番号で呼ぶ。"
          f"濃い色のマス({cx}, {cy})に接するのは薄い色の{len(near)}マス")
    en = (f"The {title}: {w} × {h} spaces, each named by its column (1 to {w}, left to right) and row "
          f"(1 to {h}, top to bottom). The {len(near)} lightly shaded spaces touch the dark one ({cx}, {cy})")
    if any(state.zones[z] for z in spaces):
        ja += "。数字はセットアップで置かれる駒の数"
        en += "; a number is how many pieces setup puts there"
    return figure(f"board-{board.name}", _svg(PAD * 2 + w * CELL + 56, PAD * 2 + h * CELL, body),
                  [("", say(v.lang, ja + "。", en + "."))])


# ---------------------------------------------------------------- the setup
BOX_W, BOX_LINE, COLS = 200, 16, 3


def setup_figure(v, game: Game, state) -> Optional[Item]:
    boards = {z for b in game.board_decls for z in game.zones[b]}
    decls = {z.name: z for z in v.rules.of(S.Zone)}
    shared, seat = [], []
    for i, name in enumerate(game.zone_names):
        if i in boards or not state.zones[i]:
            continue
        base, _, key = name.partition("(")
        decl = decls.get(base)
        if decl is None:
            continue
        if decl.per is None:
            shared.append((v.title(base), _held(game, v, state.zones[i])))
        elif key.rstrip(")") == "1":
            seat.append((v.title(base), _held(game, v, state.zones[i])))
    if not shared and not seat:
        return None
    body, y = [], 0.0
    for heading, boxes in ((say(v.lang, "共有", "Shared"), shared),
                           (say(v.lang, "席1のプレイヤーの前(ほかの席もそれぞれ持つ)", "In front of seat 1 (each seat has its own)"), seat)):
        if not boxes:
            continue
        body.append(_text(4, y + 14, heading, 12, ACCENT, "start", "bold"))
        y += 22
        for row in range(0, len(boxes), COLS):
            line = boxes[row:row + COLS]
            tall = 24 + BOX_LINE * max(len(held) for _, held in line)
            for k, (title, held) in enumerate(line):
                x = 4 + k * (BOX_W + 12)
                body.append(f'<rect x="{x}" y="{y:.0f}" width="{BOX_W}" height="{tall}" rx="5" fill="#f7f9fb" stroke="{LINE}"/>')
                body.append(_text(x + 8, y + 17, title, 11, INK, "start", "bold"))
                for j, what in enumerate(held):
                    body.append(_text(x + 12, y + 20 + BOX_LINE * (j + 1), what, 11, INK, "start"))
            y += tall + 10
        y += 6
    caption = say(v.lang, f"準備が終わったとき({game.n}人、シード1の対局): 駒のある置き場と、その中身。",
                  f"When setup is done ({game.n} players, the game of seed 1): every place that holds pieces, "
                  "and what it holds.")
    return figure("setup", _svg(4 + COLS * (BOX_W + 12), y, body), [("", caption)])


# ---------------------------------------------------------------- a card
def card_figure(v, card, number: int = 1) -> Item:
    """One card as the card sheets print it (`card.deck` is its deck's title), each value it
    carries named beside it; `number` tells the decks' figures apart."""
    cw, ch = 126, 176
    colour = card.suit.colour if card.suit is not None and card.suit.colour else INK
    body = [f'<rect x="4" y="4" width="{cw}" height="{ch}" rx="8" fill="#ffffff" stroke="{INK}" stroke-width="1.5"/>']
    if card.corner:
        body.append(_text(16, 24, card.corner, 13, colour, weight="bold"))
        body.append(_text(cw - 8, ch - 6, card.corner, 13, colour, weight="bold"))
    if card.suit is not None and card.suit.mark:
        body.append(_text(16, 40, card.suit.mark, 12, colour))
    body.append(_text(4 + cw / 2, 4 + ch / 2 + 10, card.big or card.name, 26 if len(card.big or "") <= 3 else 14,
                      colour, weight="bold"))
    top = 20
    for k, (title, value) in enumerate(card.attrs):
        y = top + k * 22
        body.append(f'<line x1="{4 + cw}" y1="{y - 4}" x2="{cw + 26}" y2="{y - 4}" stroke="{LINE}"/>')
        body.append(_text(cw + 30, y, f"{title}: {value}", 11, INK, "start"))
    height = max(ch + 8, top + 22 * len(card.attrs))
    width = cw + 30 + 9 * max((len(f"{t}: {x}") for t, x in card.attrs), default=0) + 20
    caption = say(v.lang, f"カードの見方: {card.deck}の1枚と、それが持つ値。",
                  f"Reading a card: one {card.deck}, and each value it carries.")
    return figure(f"card-{number}", _svg(width, height, body), [("", caption)])


def _first_cards(rules: S.RuleFile, lang: str) -> list:
    from .cards import cards
    try:
        made, _ = cards(rules, lang)
    except RuleError:
        return []
    first: dict = {}
    for c in made:
        if c.attrs and len(c.attrs) >= 2 and c.deck not in first:
            first[c.deck] = c
    return list(first.values())


# ---------------------------------------------------------------- into the book
def add_figures(v, rules: S.RuleFile, sections: list) -> None:
    """Each figure placed in the section it illustrates: boards with the zones, the setup at the
    head of the setup, a card's anatomy with the components."""
    by_key = {s.key: s for s in sections}
    made = _set_up(rules)
    if made is None:
        return
    game, state = made
    if "zones" in by_key:
        by_key["zones"].items += [board_figure(v, game, state, b) for b in rules.of(S.Board) if b.name in game.board_sizes]
    if "setup" in by_key:
        laid = setup_figure(v, game, state)
        if laid is not None:
            by_key["setup"].items.insert(0, laid)
    if "components" in by_key:
        by_key["components"].items += [card_figure(v, c, k + 1) for k, c in enumerate(_first_cards(rules, v.lang))]
