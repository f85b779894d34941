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


# ---------------------------------------------------------------- as a player tells it
# Events that are the machine's own headings, not something that happened at the table.
HEADINGS = ("step", "phase", "rule", "trigger", "assume", "question", "unhandled")


def story(n: Narrator, events: list, kept=frozenset()) -> list[str]:
    """Events as a player tells them afterwards, one sentence each: who chose what (with the
    numbers they named), where what they chose went, what was shown, where pieces went (those
    going to one place in one sentence), who is out, who won. Of the values the rules set, only
    those in `kept` are told; the rest are bookkeeping. A move that a reveal shows next is told by
    the reveal alone: 'Seat 1's played card shown: diamond 8' says where it went and what it is."""
    out: list[str] = []
    shown_later = {(ev["zone"], p) for ev in events if ev.get("event") == "reveal" for p in ev.get("pieces", ())}
    i = 0
    while i < len(events):
        ev, k = events[i], events[i].get("event")
        i += 1
        # the case taken is the example's own part ("The numbers compared", "The case that holds")
        if k in HEADINGS or k == "case" or k == "end" and not ev.get("winners") or k == "set" and ev["name"] not in kept:
            continue
        if k == "choose":
            after = events[i] if i < len(events) else {}
            piece = _chosen_piece(n, ev)
            if piece is not None and after.get("event") == "move" and after["pieces"] == [piece]:
                text, i = placed(n, ev, piece, after["to"], after.get("from")), i + 1
            else:
                text = choice(n, ev)
                # the numbers a choice named are said with it, not again as the values they set
                while i < len(events) and events[i].get("event") == "set" and len(ev["move"]) > 1:
                    i += 1
        elif k == "move" and i < len(events) and events[i].get("event") == "roll" \
                and events[i]["pieces"] == ev["pieces"] and events[i]["zone"] == ev["to"]:
            # taken and rolled: what counts is the roll
            roll, i = events[i], i + 1
            faces = n.say("、", ", ").join(str(f) for f in roll["faces"])
            text = n.say(f"{whose(n, roll['zone'])}が振って{faces}", f"{whose(n, roll['zone'])} rolls {faces}")
        elif k == "move":
            group = [ev]
            while i < len(events) and events[i].get("event") == "move" and events[i]["to"] == ev["to"]:
                group.append(events[i])
                i += 1
            group = [g for g in group if not all((g["to"], p) in shown_later for p in g["pieces"])]
            text = moves(n, group) if group else ""
        elif k == "reveal" and ev.get("pieces"):
            text = n.say(f"{n.zone(ev['zone'])}を公開: ", f"{n.zone(ev['zone'])} shown: ") + shown(n, ev["pieces"], ev["shown"])
        else:
            text = n.event(ev).strip()
        if text and text not in out[-1:]:
            out.append(text)
    return out


def _chosen_piece(n: Narrator, ev):
    """The one piece a choice picked (a card played), or None."""
    from ..constructs.choose import _chosen_from
    kinds = _chosen_from(n, ev["move"][0])
    params = ev.get("params") or []
    picked = [a for name, a in zip(params, ev["move"][1:]) if kinds.get(name) == "piece" and isinstance(a, int)]
    return picked[0] if len(picked) == 1 and len(ev["move"]) == 2 else None


def choice(n: Narrator, ev) -> str:
    """'Seat 3 chose “Raise the bid”: face 5, count 15.' / 「席3が「宣言を上げる」を選んだ(目 5、個数 15)。」"""
    from ..constructs.choose import _chosen_from
    move, params = ev["move"], ev.get("params") or []
    kinds = _chosen_from(n, move[0])
    players = set(ev.get("players", ()))

    def said(i, name, a) -> str:
        if i in players:
            return n.player(a)
        if kinds.get(name) == "piece" and isinstance(a, int):
            return n.card(a)
        if kinds.get(name) == "space" and isinstance(a, int):
            return n.zone(n.game.zone_names[a])
        value = n.value(a)
        return f"{n.name(name)} {value}" if name in n.titles else value
    args = n.say("、", ", ").join(said(i, name, a) for i, (name, a) in enumerate(zip(params, move[1:])))
    hidden = ev.get("hidden")
    if move[0] == "choose":
        return n.say(f"{n.who(ev)}が{args}を{'伏せて' if hidden else ''}選んだ",
                     f"{n.who(ev)} chose {args}{' face down' if hidden else ''}")
    option = n.option(move[0])
    return n.say(f"{n.who(ev)}が「{option}」を選んだ" + (f"({args})" if args else ""),
                 f"{n.who(ev)} chose “{option}”" + (f": {args}" if args else ""))


def placed(n: Narrator, ev, piece: int, zone: str, source=None) -> str:
    """A piece a player chose and put somewhere: 'Seat 3 put diamond queen face down in their played
    card'; one taken from a place the table sees is said with it ('... moved house from the space
    (lower number 4, ...) to their house stock')."""
    where = _own(n, ev, zone)
    down = ev.get("hidden")
    if source is not None:
        src = _own(n, ev, source)
        return n.say(f"{n.who(ev)}が{n.card(piece)}を{src}から{where}へ移した",
                     f"{n.who(ev)} moved {n.card(piece)} from {src} to {where}")
    return n.say(f"{n.who(ev)}が{n.card(piece)}を{'伏せて' if down else ''}{where}に置いた",
                 f"{n.who(ev)} put {n.card(piece)}{' face down' if down else ''} in {where}")


def _own(n: Narrator, ev, zone: str) -> str:
    """A zone of the player acting, said as theirs: 'their played card', 「自分の出したカード」."""
    shown, mine = n.zone(zone), n.player(ev["player"])
    for lead, own in ((mine + "の", "自分の"), (mine + "'s ", "their ")):
        if shown.startswith(lead):
            return own + shown[len(lead):]
    return shown


def moves(n: Narrator, group: list) -> str:
    """Pieces going to one place: '5 dice go from Seat 3's dice to lost dice.' / 'Seat 3's cards
    taken gets diamond 8, spade 10 and heart 8.' Cards by name when few, others by count."""
    pieces = [p for ev in group for p in ev["pieces"]]
    dst = n.zone(group[0]["to"])
    sources = list(dict.fromkeys(ev.get("from") for ev in group))
    src = n.zone(sources[0]) if len(sources) == 1 and sources[0] else None
    decks = {c.name for c in n.game.rules.of(S.Component) if c.kind == "deck"}
    if pieces and len(pieces) <= 6 and all(n.game.kind_of[p] in decks for p in pieces):
        names = [n.card(p) for p in pieces]
        what_ja, what_en = "、".join(names), (", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0])
    else:
        noun, k = n.name(n.game.kind_of[pieces[0]]) if pieces else "", len(pieces)
        what_ja, what_en = f"{noun}{k}{n.counter(pieces)}", f"{k} {noun if k == 1 else plural(noun)}"
    if src:
        return n.say(f"{src}から{dst}へ{what_ja}が移る", f"{what_en} go from {src} to {dst}"
                     if len(pieces) > 1 else f"{what_en} goes from {src} to {dst}")
    return n.say(f"{dst}に{what_ja}が入る", f"{dst[:1].upper() + dst[1:]} gets {what_en}")


def whose(n: Narrator, zone: str) -> str:
    """A zone kept per player or team by its owner alone ('Seat 2'); another by its name."""
    base, _, key = zone.partition("(")
    decl = next((z for z in n.game.rules.of(S.Zone) if z.name == base), None)
    key = key.rstrip(")")
    if decl is not None and decl.per in ("player", "team") and key.isdigit():
        return n.owner(decl.per, int(key) - 1)
    return n.zone(zone)


def plural(noun: str) -> str:
    """An English noun for more than one: 'dice', 'cards', 'houses'."""
    if noun == "die":
        return "dice"
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es" if not noun.endswith("s") else noun
    return noun[:-1] + "ies" if noun.endswith("y") and noun[-2:-1] not in "aeiou" else noun + "s"


def shown(n: Narrator, pieces, faces) -> str:
    """What a reveal shows: cards by name, dice by the face up."""
    decks = {c.name for c in n.game.rules.of(S.Component) if c.kind == "deck"}
    return n.say("、", ", ").join(n.card(p) if n.game.kind_of[p] in decks else str(n.name(f) if isinstance(f, str) else f)
                                  for p, f in zip(pieces, faces))
