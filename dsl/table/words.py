"""Pieces and options in words: a card by its printed name and suit symbol ("♦7", "♠A"), a
die by its face, a move as the rulebook names its option ("Raise the bid: face 3, count 5").

Every name comes from the rule file (titles, symbols, the printed sheets' suit column) through
the Narrator; a piece the seat may not see is never named, only counted ("a hidden die").
"""
from __future__ import annotations

import unicodedata

from ..constructs.symbol import colour_hex
from ..engine.values import Piece, Player, Team, ZoneId
from ..printing.cards import _symbols
from ..printing.narrate import Narrator, card_values


def _symbolic(mark) -> bool:
    """A mark that reads as a symbol in any language (♦, ★), not a letter or a kanji."""
    return bool(mark) and all(unicodedata.category(ch).startswith("S") for ch in mark)


class Words:
    """The table's words for one game in one language."""

    def __init__(self, game, lang: str):
        self.game = game
        self.lang = lang
        self.narrator = Narrator(game, lang)
        self._faces = None

    def say(self, ja: str, en: str) -> str:
        return ja if self.lang == "ja" else en

    # ------------------------------------------------------------ pieces
    def faces(self) -> list:
        """Per piece: (short name, suit value, colour, index) as the card sheets print it."""
        if self._faces is None:
            self._faces = _printed_faces(self)
        return self._faces

    def name(self, p: int, face=None) -> str:
        short = self.faces()[p][0]
        return f"{short} {face}" if face is not None else short

    def hidden(self, p: int) -> str:
        """A piece the seat may not see: only what kind of thing it is."""
        kind = self.narrator.name(self.game.kind_of[p])
        return self.say(f"伏せた{kind}", f"a hidden {kind}")

    def piece(self, p: int, face=None) -> dict:
        """A visible piece as the view carries it."""
        short, suit, colour, index = self.faces()[p]
        return {"id": int(p), "name": self.name(p, face), "label": self.narrator.name(self.game.piece_label[p]),
                "kind": self.game.kind_of[p], "face": face, "suit": suit, "color": colour,
                "index": str(face) if face is not None else index}

    def value(self, v, known=None) -> str:
        """A value as a player reads it: a piece by name (or hidden), a space by its place, a player as P2."""
        n = self.narrator
        if type(v) is Piece:
            return self.name(v) if known is None or v in known else self.hidden(v)
        if type(v) is ZoneId:
            return self.space(v) if v in self.game.space_at else n.zone(self.game.zone_names[v])
        if type(v) is Player:
            return n.player(v)
        if type(v) is Team:
            return f"T{int(v) + 1}"
        if isinstance(v, tuple):
            return self.say("、", ", ").join(self.value(x, known) for x in v)
        return n.value(v)

    # ------------------------------------------------------------ options
    def option(self, move, params: list, known=None, step=None) -> str:
        """A move in words: the option's title (an untitled choice's: the step's), then each
        chosen value by its noun."""
        n = self.narrator
        head = n.option(move[0]) if move[0] != "choose" else (step or "")
        values = list(move[1:])
        names = params or [""] * len(values)
        if len(values) == 1:                # one thing chosen: the thing is the option
            args = self.value(values[0], known)
        else:
            args = self.say("、", ", ").join(self._named(n.name(k) if k else "", self.value(a, known))
                                             for k, a in zip(names, values))
        if head and args:
            return f"{head}: {args}"
        return head or args or self.say("選ぶ", "choose")

    @staticmethod
    def _named(noun: str, value: str) -> str:
        """'face 3'; a value that already says what it is stands alone ('grace card', not
        'grace card grace card')."""
        return value if not noun or noun in value else f"{noun} {value}"

    def space(self, z: int) -> str:
        """A board's space by its row and column ('row 1, column 2'), after the board's
        title where the game has several boards."""
        board, x, y = self.game.space_at[z]
        place = self.say(f"{y}行{x}列", f"row {y}, column {x}")
        if board in self.game.board_graph:      # a track's or route's space, by its label
            label = self.game.board_decls[board].labels()[x - 1]
            place = self.say(f"{label}のマス", f"space {label}")
        if len(self.game.board_sizes) > 1:
            return self.say(f"{self.narrator.name(board)}の{place}", f"{self.narrator.name(board)} {place}")
        return place

    def pieces_named(self, move, known) -> list:
        return sorted({int(v) for v in _flat(move[1:]) if type(v) is Piece and v in known})

    def spaces_named(self, move) -> list:
        return [self.game.zone_names[v] for v in _flat(move[1:]) if type(v) is ZoneId]


def _flat(values):
    for v in values:
        if isinstance(v, tuple):
            yield from _flat(v)
        else:
            yield v


def _printed_faces(w: Words) -> list:
    """Each piece as the card sheets print it: the suit's symbol before the main value ('♦7')
    when the suit has a symbol, else the Narrator's printed name ('red 1', 'die')."""
    g, n = w.game, w.narrator
    symbols = _symbols(g.rules)
    out = []
    for i, values in enumerate(card_values(g)):
        printed = n.card(i)
        if not values:
            mark = symbols.get(g.piece_label[i])        # a named card may print as its symbol: ★
            out.append((mark.mark if mark is not None and _symbolic(mark.mark) else printed, None,
                        colour_hex(mark.colour) if mark is not None else None, ""))
            continue
        suit, main = values
        sym, msym = symbols.get(suit), symbols.get(main)
        index = msym.mark if msym is not None and msym.mark else n.name(main) if main is not None else ""
        colour = colour_hex(sym.colour) if sym is not None else None
        out.append((sym.mark + index if sym is not None and _symbolic(sym.mark) else printed, suit, colour, index))
    return out
