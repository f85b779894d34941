"""Narration: the events of a game told in English or Japanese, using the rule file's own titles.

Each event is told by the construct that makes it (its `events` hook); the one event the
machine makes itself, a dead end, is told here. An event nobody tells is an error, never
printed raw.

May import: the language, the constructs and the engine.
"""
from __future__ import annotations

from ..constructs.registry import events
from ..engine import Game
from ..language import syntax as S
from . import places
from .outcome import outcome
from .runs import plain


class Narrator:
    def __init__(self, game: Game, lang: str = "en"):
        self.game = game
        self.lang = lang
        self._voice = None
        self.titles: dict[str, str] = {}
        # declarations' titles first: a step or option named like a declaration does not hide it
        named = [d for d in game.rules.decls] + [n for n in S.walk_rules(game.rules) if isinstance(n, (S.Block, S.Option))]
        # an option's or a step's own title, kept apart: one named like a declaration (an option
        # `discard` beside a zone `discard`) is told by its own title, or its own name
        self.own: dict[tuple, str] = {}
        self.declared = {d.name for d in game.rules.decls}
        for node in named:
            t = S.text_of(node.texts, "title", lang) or S.text_of(node.texts, "title", "en")
            if t:
                self.titles.setdefault(node.name, t)
            if isinstance(node, S.Option) or isinstance(node, S.Block) and node.kind in ("step", "phase"):
                key = ("option" if isinstance(node, S.Option) else "step", node.name)
                if self.own.get(key) is None:       # the first title given, wherever it is
                    self.own[key] = t

    def say(self, ja: str, en: str) -> str:
        return ja if self.lang == "ja" else en

    @property
    def voice(self):
        """The rulebook's words (a chosen value by its noun), read only when a name needs them."""
        if self._voice is None:
            from .prose import Voice
            self._voice = Voice(self.game.rules, self.lang)
        return self._voice

    def name(self, key: str) -> str:
        if key in self.titles:
            return self.titles[key]
        if key in self.voice.local_nouns:
            return self.say(*self.voice.local_nouns[key])
        return key

    def option(self, name: str) -> str:
        """An option as its own title says, never a declaration's of the same name."""
        return self._own("option", name)

    def step(self, name: str) -> str:
        """A step or phase as its own title says, never a declaration's of the same name."""
        return self._own("step", name)

    def _own(self, kind: str, name: str) -> str:
        t = self.own.get((kind, name))
        if t:
            return t
        return name if name in self.declared and (kind, name) in self.own else self.name(name)

    def card(self, i: int) -> str:
        """A piece as a player would call it: 'spade 5', 'red 7', 'joker', 'die'."""
        if not hasattr(self, "_cards"):
            self._cards = _printed_names(self)
        return self._cards[i]

    def counter(self, pieces) -> str:
        """Japanese counts cards in 枚 and dice and tokens in 個."""
        kinds = {self.game.kind_of[p] for p in pieces}
        decks = {c.name for c in self.game.rules.of(S.Component) if c.kind == "deck"}
        return "枚" if kinds and kinds <= decks else "個"

    def player(self, p) -> str:
        return f"P{int(p) + 1}"

    def who(self, ev) -> str:
        """The player of an event, with the team they act for."""
        return self.player(ev["player"]) + (f" (T{ev['team'] + 1})" if "team" in ev else "")

    def piece(self, i: int, face=None) -> str:
        label = self.game.piece_label[i]
        shown = self.name(label)
        return f"{shown}({face})" if face is not None else shown

    def event(self, ev: dict) -> str:
        k = ev["event"]
        if k == "dead_end":
            if self.lang == "ja":
                return f"行き止まり({ev['kind']}): ルール「{self.name(ev['rule'])}」{ev['where']} — {ev['message']}"
            return f"DEAD END ({ev['kind']}) in rule '{ev['rule']}' at {ev['where']}: {ev['message']}"
        told = events()
        if k not in told:
            raise KeyError(f"no construct narrates the event {k!r}: give its construct an 'events' hook")
        return told[k][1](self, ev)

    def value(self, v) -> str:
        if v is None:
            return "なし" if self.lang == "ja" else "nobody"
        if v is True or v is False:
            return ("はい" if v else "いいえ") if self.lang == "ja" else ("yes" if v else "no")
        return str(self.name(v) if isinstance(v, str) else v)

    def owner(self, per: str, k: int) -> str:
        """Whose a zone kept per player or team is: 'P2', 'T1'."""
        return ("P" if per == "player" else "T") + str(k + 1)

    def zone(self, name) -> str:
        """A zone as the table knows it: 'P2's hand', 'T1's cards' (a title 'team's cards' not
        said twice), 'the field at column 3, row 2'."""
        if name is None:
            return "?"
        base, _, rest = name.partition("(")
        shown = self.name(base)
        if not rest:
            return shown
        key = rest.rstrip(")")
        decl = next((z for z in self.game.rules.of(S.Zone) if z.name == base), None)
        if decl is not None and decl.per in ("player", "team") and key.isdigit():
            whose = self.owner(decl.per, int(key) - 1)
            ja, en = _OWNERS[decl.per]
            if shown.startswith(self.say(ja + "の", en + "'s ")):
                shown = shown[len(self.say(ja + "の", en + "'s ")):]
            return self.say(f"{whose}の{shown}", f"{whose}'s {shown}")
        if decl is not None and decl.per not in (None, "player", "team") and key[1:].isdigit():
            return self._place(base, int(key[1:]), shown)
        x, _, y = key.partition(",")
        if any(b.name == base for b in self.game.rules.of(S.Board)) and x.isdigit() and y.isdigit():
            return self.say(f"{shown}の{x}列目・{y}行目のマス", f"the {shown} at column {x}, row {y}")
        if base in self.game.board_graph:       # a track's or route's space, by its label
            return self.say(f"{shown}の{key}のマス", f"space {key} of the {shown}")
        return f"{shown}({rest}"

    def _place(self, zone: str, i: int, shown: str) -> str:
        """The zone kept for one piece, by that piece's values: 「マス(小さい数字4、大きい数字5、マスの番号4)の上」."""
        attrs = [f"{self.titles.get(a, a)}{self.say('', ' ')}{value}" for a, value in self.game.piece_attrs[i].items()]
        named = self.titles.get(self.game.kind_of[i], self.game.kind_of[i]) + (
            self.say("(", " (") + self.say("、", ", ").join(attrs) + ")" if attrs else "")
        placed = places.owned_place(self.voice, zone, [("", self.say("", "the ") + named)])
        return plain(placed) if placed is not None else self.say(f"{named}の{shown}", f"{named}'s {shown}")

    def tell(self, events: list) -> list[str]:
        """Every event told; a case taken as the outcome it led to, in one sentence."""
        return [outcome(self, events, i) if e["event"] == "case" else self.event(e) for i, e in enumerate(events)]


# the words a zone's title may already start with for its owner: 'team's cards', 「チームの手持ちカード」
_OWNERS = {"player": ("プレイヤー", "player"), "team": ("チーム", "team")}


def card_values(game) -> list:
    """Per piece as the card sheets print it: None for a piece of no deck, () for a named card
    (the joker), else (its suit's value, its main value), either None where the card has none."""
    from .cards import _columns, _suit_column, _symbols, is_named
    symbols = _symbols(game.rules)
    decks = {c.name: c for c in game.rules.of(S.Component) if c.kind == "deck"}
    out = []
    for i, kind in enumerate(game.kind_of):
        values = game.piece_attrs[i]
        deck = decks.get(kind)
        if deck is None:
            out.append(None)
        elif is_named(game.piece_label[i], values):
            out.append(())
        else:
            suit = _suit_column(deck, symbols)
            main = next((a for a in _columns(deck) if a != suit and values.get(a) is not None), None)
            out.append(tuple(str(values[a]) if a is not None and values.get(a) is not None else None
                             for a in (suit, main)))
    return out


def _printed_names(n: Narrator) -> list[str]:
    """Each piece's name at the table: a card by its suit and main value, others by their title."""
    g = n.game
    out = []
    for i, values in enumerate(card_values(g)):
        if values is None:
            out.append(n.name(g.kind_of[i]))
        elif not values:
            out.append(n.name(g.piece_label[i]))        # a named card: the joker
        else:
            parts = [n.name(v) for v in values if v is not None]
            out.append(n.say("の".join(parts), " ".join(parts)) if parts else n.name(g.kind_of[i]))
    return out
