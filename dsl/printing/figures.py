"""Figures: the drawings a rulebook needs beside its words, made from the declarations.

- a board: its grid with the coordinates printed along both axes, the spaces next to one
  space shaded as the board's adjacency has them, and what setup puts on it;
- the setup: every zone that holds something once setup is done, shared ones and one seat's,
  with what each holds, counted by the engine from the state after setup;
- a card's anatomy: one card of each deck with a value table, drawn as the card sheets print it,
  each value it carries named beside it;
- facings: a piece on a space, the card turned each way the rules number (a counter that moves a
  piece a step on a board), each number with its way and the turn that gives it, beside the
  glossary's definition.

Each figure is SVG text (one line, every text from the rule file escaped) and a caption; the HTML
book puts the SVG in the page, the Typst book decodes the same bytes, so both show one drawing.

May import: the language, the engine and printing's own modules.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional
from xml.sax.saxutils import escape

from ..engine import Game, RuleError
from ..engine import geometry
from ..language import constants
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
def _graph_figure(v, game: Game, state, board: S.Board) -> Item:
    """A track or route as the table draws it (geometry.layout): a space a box with its label,
    every pair of spaces that touch joined by a line; a number is how many pieces setup puts there."""
    labels, spaces = board.labels(), game.zones[board.name]
    at = geometry.layout(len(labels), board.shape, board.loop)
    step = CELL + 14
    centre = [(PAD + c * step + CELL / 2, PAD + r * step + CELL / 2) for c, r in at]
    body = []
    for i, near in enumerate(game.board_graph[board.name]):
        for j in near:
            if j - 1 > i:
                (x1, y1), (x2, y2) = centre[i], centre[j - 1]
                body.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{ACCENT}" stroke-width="2"/>')
    for i, (x, y) in enumerate(centre):
        body.append(f'<rect x="{x - CELL / 2:.1f}" y="{y - CELL / 2:.1f}" width="{CELL}" height="{CELL}" rx="6" '
                    f'fill="#ffffff" stroke="{LINE}"/>')
        body.append(_text(x, y - 8, str(labels[i]), 10, SOFT))
        held = state.zones[spaces[i]]
        if held:
            body.append(_text(x, y + 12, str(len(held)), 12, INK, weight="bold"))
    cols, rows = max(c for c, _ in at) + 1, max(r for _, r in at) + 1
    title, n = v.title(board.name), len(labels)
    if board.track:
        ja = f"{title}: {n}マスの道({labels[0]}から{labels[-1]}へ)。線でつながるマスが隣り合う"
        en = f"The {title}: a track of {n} spaces, {labels[0]} to {labels[-1]}; spaces joined by a line are next to each other"
        if board.loop:
            ja += f"。{labels[-1]}の次は{labels[0]}に戻る"
            en += f"; after {labels[-1]} comes {labels[0]} again"
    else:
        ja = f"{title}: {n}マス。線でつながるマスが隣り合う"
        en = f"The {title}: {n} spaces; spaces joined by a line are next to each other"
    if any(state.zones[z] for z in spaces):
        ja += "。数字はセットアップで置かれるコマの数"
        en += "; a number is how many pieces setup puts there"
    return figure(f"board-{board.name}", _svg(PAD * 2 + cols * step - 14, PAD * 2 + rows * step - 14, body),
                  [("", say(v.lang, ja + "。", en + "."))])


def board_figure(v, game: Game, state, board: S.Board) -> Item:
    if board.shape != "grid":
        return _graph_figure(v, game, state, board)
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
        ja += "。数字はセットアップで置かれるコマの数"
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
    caption = say(v.lang, f"準備が終わったとき({game.n}人の対局 第1局): 何かが置かれている置き場と、その中身。",
                  f"When setup is done ({game.n} players, game no. 1): every place that holds something, "
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
    head of the setup, a card's anatomy with the components, facings under their definition."""
    by_key = {s.key: s for s in sections}
    if "glossary" in by_key:
        defined = {e.name: e for e in by_key["glossary"].entries}
        for f in facings(rules):
            if "glossary-" + f.counter in defined:
                defined["glossary-" + f.counter].blocks.append(facing_figure(v, f))
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


# ---------------------------------------------------------------- facings
@dataclass
class Facings:
    """A number that says which way a piece points on a board, as the rules use it: each value
    the rules give it, and the step (columns, rows) a move that way takes."""
    counter: str                        # the counter that holds the facing
    board: str
    steps: dict                         # direction -> (column step, row step)
    alike: list                         # other counters given the same numbers ('direction shown')


def facings(rules: S.RuleFile) -> list[Facings]:
    """Every counter the rules turn into a step on a board: `add COL(c(x)) to X(x)` and
    `add ROW(c(x)) to Y(x)` where `BOARD(X(x), Y(x))` names a space, and COL and ROW are values
    of one number. Its directions are every number the rules can give c (a choice's range, set
    into it or into a counter copied into it), each worked out through COL and ROW."""
    defs = {d.name: d for d in rules.of(S.Define) if len(d.params) == 1}
    counters = {c.name: c for c in rules.of(S.Counter)}
    moved: dict[str, dict[str, str]] = {}           # facing counter -> {coordinate counter: step value}
    copies: dict[str, set] = {}                     # counter -> counters set to its value
    for n in S.walk_rules(rules):
        if not isinstance(n, S.Assign) or n.target.name not in counters or not isinstance(n.value, S.Call):
            continue
        v = n.value
        if n.op == "add" and v.fn in defs and len(v.args) == 1 and isinstance(v.args[0], S.Call) \
                and v.args[0].fn in counters:
            moved.setdefault(v.args[0].fn, {})[n.target.name] = v.fn
        elif n.op == "set" and v.fn in counters:
            copies.setdefault(n.target.name, set()).add(v.fn)
    out = []
    spaces = [(b.name, n.args[0].fn, n.args[1].fn) for b in rules.of(S.Board) for n in S.walk_rules(rules)
              if isinstance(n, S.Call) and n.fn == b.name and len(n.args) == 2
              and all(isinstance(a, S.Call) for a in n.args)]
    for counter, steps in moved.items():
        board = next(((b, x, y) for b, x, y in dict.fromkeys(spaces) if x in steps and y in steps), None)
        if board is None:
            continue
        feeders = _copied_into(counter, copies)
        values = _given(rules, feeders)
        if len(values) > 8:
            continue        # more numbers than a space has neighbours: a distance, not a facing
        try:
            worked = {d: tuple(constants.evaluate(defs[steps[axis]].expr, {defs[steps[axis]].params[0]: d}.__getitem__)
                               for axis in board[1:]) for d in sorted(values)}
        except (constants.NotConstant, KeyError, TypeError):
            continue
        if sum(1 for s in worked.values() if s != (0, 0)) >= 2:
            out.append(Facings(counter, board[0], worked, [f for f in feeders if f != counter]))
    return out


def _copied_into(counter: str, copies: dict) -> list[str]:
    found, todo = [counter], [counter]
    while todo:
        for source in sorted(copies.get(todo.pop(), ())):
            if source not in found:
                found.append(source)
                todo.append(source)
    return found


def _given(rules: S.RuleFile, feeders: list[str]) -> set:
    """Every number a counter in `feeders` can be given: its first value, its bounds' range, a
    number set into it, and the range of each chosen number an option sets into it."""
    values: set = set()

    def const(e):
        try:
            return constants.evaluate(e, {}.__getitem__)
        except constants.NotConstant:
            return None
    for c in rules.of(S.Counter):
        if c.name in feeders:
            low, high = (const(c.minimum) if c.minimum is not None else None,
                         const(c.maximum) if c.maximum is not None else None)
            if isinstance(low, int) and isinstance(high, int):
                values.update(range(low, high + 1))
            if isinstance(const(c.initial), int):
                values.add(const(c.initial))
    for choice in (n for n in S.walk_rules(rules) if isinstance(n, S.Choose)):
        for o in choice.options:
            ranged = {p.name: (const(p.low), const(p.high)) for p in o.params if p.high is not None}
            for n in (m for st in o.body for m in S.walk(st)):
                if isinstance(n, S.Assign) and n.op == "set" and n.target.name in feeders:
                    if isinstance(n.value, S.Name) and n.value.id in ranged:
                        low, high = ranged[n.value.id]
                        if isinstance(low, int) and isinstance(high, int):
                            values.update(range(low, high + 1))
    for n in S.walk_rules(rules):
        if isinstance(n, S.Assign) and n.op == "set" and n.target.name in feeders and isinstance(n.value, S.Num):
            values.add(n.value.value)
    return values


def way(lang: str, step: tuple[int, int]) -> str:
    """'up', 'down and left': where a step points on the drawing (row 1 at the top)."""
    dx, dy = step
    up = {-1: ("上", "up"), 1: ("下", "down")}.get((dy > 0) - (dy < 0))
    side = {-1: ("左", "left"), 1: ("右", "right")}.get((dx > 0) - (dx < 0))
    if up and side:
        return say(lang, side[0] + up[0], f"{up[1]} and {side[1]}")
    return say(lang, *(up or side or ("動かない", "nowhere")))


def turn(lang: str, step: tuple[int, int]) -> str:
    """The turn that points a card, drawn upright with its top toward row 1, along `step`."""
    angle = round(math.degrees(math.atan2(step[0], -step[1]))) % 360
    named = {0: ("回さずにまっすぐ置く", "upright, not turned"), 90: ("時計回りに4分の1回す", "a quarter turn clockwise"),
             180: ("半回転させる", "a half turn"), 270: ("反時計回りに4分の1回す", "a quarter turn counterclockwise")}
    if angle in named:
        return say(lang, *named[angle])
    if angle > 180:
        return say(lang, f"反時計回りに{360 - angle}度回す", f"turned {360 - angle}° counterclockwise")
    return say(lang, f"時計回りに{angle}度回す", f"turned {angle}° clockwise")


def _card(cx: float, cy: float, angle: float, scale: float, fill: str) -> str:
    """A card seen from above with its top marked, turned `angle` degrees clockwise about its centre."""
    w, h = 22 * scale, 30 * scale
    return (f'<g transform="rotate({angle:.0f} {cx:.1f} {cy:.1f})">'
            f'<rect x="{cx - w / 2:.1f}" y="{cy - h / 2:.1f}" width="{w:.1f}" height="{h:.1f}" rx="3" fill="{fill}" stroke="{INK}"/>'
            f'<path d="M {cx - w / 4:.1f} {cy - h / 2 + 9 * scale:.1f} L {cx:.1f} {cy - h / 2 + 3 * scale:.1f} '
            f'L {cx + w / 4:.1f} {cy - h / 2 + 9 * scale:.1f} Z" fill="{INK}"/></g>')


FACE_CELL = 64


def facing_figure(v, f: Facings) -> Item:
    """A piece on a space with the spaces around it: on each, the card turned as that direction
    asks, its number, and beside the drawing each number's way and turn."""
    body = []
    for y in range(3):
        for x in range(3):
            body.append(f'<rect x="{8 + x * FACE_CELL}" y="{8 + y * FACE_CELL}" width="{FACE_CELL}" '
                        f'height="{FACE_CELL}" fill="{SHADE if (x, y) != (1, 1) else "#ffffff"}" stroke="{LINE}"/>')
    mid = 8 + 1.5 * FACE_CELL
    body.append(_card(mid, mid, 0, 1.2, "#ffffff"))
    lines = []
    for d, step in f.steps.items():
        sx, sy = (step[0] > 0) - (step[0] < 0), (step[1] > 0) - (step[1] < 0)
        angle = math.degrees(math.atan2(step[0], -step[1])) % 360
        if (sx, sy) != (0, 0):
            cx, cy = mid + sx * FACE_CELL, mid + sy * FACE_CELL
            body.append(f'<line x1="{mid + sx * 20:.1f}" y1="{mid + sy * 24:.1f}" x2="{cx - sx * 18:.1f}" '
                        f'y2="{cy - sy * 22:.1f}" stroke="{ACCENT}" stroke-width="2"/>')
            body.append(_card(cx - 8, cy, angle, .8, "#ffffff"))
            body.append(_text(cx + 16, cy + 6, str(d), 16, ACCENT, weight="bold"))
        lines.append((str(d), way(v.lang, step), turn(v.lang, step)))
    left = 24 + 3 * FACE_CELL
    for k, (d, where, how) in enumerate(lines):
        y = 30 + k * 40
        body.append(_text(left, y, d, 15, ACCENT, "start", "bold"))
        body.append(_text(left + 20, y, where, 12, INK, "start", "bold"))
        body.append(_text(left + 20, y + 16, how, 11, SOFT, "start"))
    height = max(16 + 3 * FACE_CELL, 20 + 40 * len(lines))
    width = left + 20 + max(7 * len(how) if v.lang == "en" else 12 * len(how) for _, _, how in lines) + 10
    title, board = v.title(f.counter), v.title(f.board)
    caption = say(v.lang, f"{title}: {board}の上のコマ(白いマス)と、向きの番号ごとにカードを置く向き。カードの三角が向いている方へ進む。",
                  f"The {title}: a piece on the {board} (the white space), and for each number the way its card is "
                  "laid; it moves the way the card's triangle points.")
    return figure(f"facing-{f.counter}", _svg(width, height, body), [("", caption)])
