"""Narration: the events of a game told in English or Japanese, using the rule file's own titles."""
from __future__ import annotations

from ..language import syntax as S
from ..engine import Game


class Narrator:
    def __init__(self, game: Game, lang: str = "en"):
        self.game = game
        self.lang = lang
        self.titles: dict[str, str] = {}
        rules = game.rules

        def title(name, texts):
            t = S.text_of(texts, "title", lang) or S.text_of(texts, "title", "en")
            if t:
                self.titles.setdefault(name, t)

        for d in rules.decls:
            title(d.name, d.texts)

        def walk(stmts):
            for st in stmts:
                if isinstance(st, S.Block):
                    title(st.name, st.texts)
                    walk(st.body)
                elif isinstance(st, S.Choose):
                    for o in st.options:
                        title(o.name, o.texts)
                        walk(o.body)
                elif isinstance(st, (S.Repeat, S.ForEach)):
                    walk(st.body)
                elif isinstance(st, S.If):
                    for _, b in st.branches:
                        walk(b)
                    walk(st.otherwise or ())
                elif isinstance(st, S.Cases):
                    for c in st.cases:
                        walk(c.body)
        for d in rules.decls:
            if isinstance(d, (S.Flow, S.Rule, S.Trigger)):
                walk(d.body)

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
        ja = self.lang == "ja"
        k = ev["event"]
        if k in ("step", "phase"):
            return f"== {self.name(ev['name'])}"
        if k == "rule":
            return f"-- {self.name(ev['name'])}"
        if k == "trigger":
            return f"!! {self.name(ev['name'])}"
        if k == "choose":
            move = ev["move"]
            option = self.name(move[0]) if move[0] != "choose" else ("選択" if ja else "chooses")
            names = ev.get("params") or [""] * (len(move) - 1)
            args = ", ".join(f"{self.name(k)} {self.value(a)}" if k else self.value(a) for k, a in zip(names, move[1:]))
            hidden = " (伏せて)" if ja and ev.get("hidden") else (" (face down)" if ev.get("hidden") else "")
            return f"{self.who(ev)}: {option}{' ' + args if args else ''}{hidden}"
        if k == "roll":
            faces = ", ".join(str(f) for f in ev["faces"])
            return f"   振った目: {faces}" if ja else f"   rolled: {faces}"
        if k == "shuffle":
            return f"   {self.zone(ev['zone'])}をシャッフル" if ja else f"   shuffle {self.zone(ev['zone'])}"
        if k == "move":
            n = len(ev["pieces"])
            src = self.zone(ev.get("from")) if ev.get("from") else None
            dst = self.zone(ev["to"])
            if ja:
                return f"   {n}個を{src + 'から' if src else ''}{dst}へ"
            return f"   move {n} {'piece' if n == 1 else 'pieces'}{' from ' + src if src else ''} to {dst}"
        if k == "reveal":
            shown = ", ".join(str(self.name(f) if isinstance(f, str) else f) for f in ev.get("shown", [])) or "-"
            return f"   {self.zone(ev['zone'])}を公開: {shown}" if ja else f"   reveal {self.zone(ev['zone'])}: {shown}"
        if k == "set":
            key = self.player(ev["player"]) if "player" in ev else (f"T{ev['team'] + 1}" if "team" in ev else "")
            who = (f"{key}の" if ja else f"{key}'s ") if key else ""
            return f"   {who}{self.name(ev['name'])} = {self.value(ev['value'])}"
        if k == "eliminate":
            return f"   {self.player(ev['player'])}が脱落" if ja else f"   {self.player(ev['player'])} is out"
        if k == "end":
            ws = ", ".join(self.player(p) for p in ev["winners"])
            if ja:
                return f"ゲーム終了。勝者: {ws or 'なし'}"
            return f"Game over. Winner{'s' if len(ev['winners']) != 1 else ''}: {ws or 'nobody'}"
        if k == "assume":
            q = self.name(ev["name"])
            return f"   (未決の問題「{q}」: 仮の答えを使う)" if ja else f"   (open question '{q}': using the provisional answer)"
        if k == "dead_end":
            if ja:
                return f"行き止まり({ev['kind']}): ルール「{self.name(ev['rule'])}」{ev['where']} — {ev['message']}"
            return f"DEAD END ({ev['kind']}) in rule '{ev['rule']}' at {ev['where']}: {ev['message']}"
        return str(ev)

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
