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


class Narrator:
    def __init__(self, game: Game, lang: str = "en"):
        self.game = game
        self.lang = lang
        self.titles: dict[str, str] = {}
        # declarations' titles first: a step or option named like a declaration does not hide it
        named = [d for d in game.rules.decls] + [n for n in S.walk_rules(game.rules) if isinstance(n, (S.Block, S.Option))]
        for node in named:
            t = S.text_of(node.texts, "title", lang) or S.text_of(node.texts, "title", "en")
            if t:
                self.titles.setdefault(node.name, t)

    def say(self, ja: str, en: str) -> str:
        return ja if self.lang == "ja" else en

    def name(self, key: str) -> str:
        return self.titles.get(key, key)

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

    def zone(self, name) -> str:
        if name is None:
            return "?"
        base, _, rest = name.partition("(")
        shown = self.name(base)
        return f"{shown}({rest}" if rest else shown

    def tell(self, events: list) -> list[str]:
        return [self.event(e) for e in events]
