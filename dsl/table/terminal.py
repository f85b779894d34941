"""The table in a terminal (rich): each human seat in turn sees what it may see, the log since
its last decision and its options numbered; it types a number (`u` undo, `q` quit and keep the
game, `?` help). Several people at one keyboard: between two people's decisions the screen is
cleared and the next one presses Enter, so nobody sees another's hand. Works on a plain pipe
as well as in a terminal: everything is read a line at a time.
"""
from __future__ import annotations

import sys
import unicodedata

from rich.columns import Columns
from rich.console import Console
from rich.padding import Padding
from rich.table import Table as Grid
from rich.text import Text

from .game_table import HUMAN, Refused
from .terminal_rulings import rule_here

_HIDDEN = "▮"
_LOG_LINES = 30          # more scroll the hand off a screen: the rest is in the replay


def _say(lang, ja, en):
    return ja if lang == "ja" else en


def _read_line() -> str | None:
    line = sys.stdin.readline()
    return None if line == "" else line.strip()


def _option_number(line: str) -> int | None:
    """The number typed, in any script's decimal digits (３ as 3); None when it is not one (² is a
    digit int() cannot read). One longer than any option's number, even past the 4,300 digits
    int() reads, is 0: no option's number, refused as any other out of range."""
    if not line.isdecimal():
        return None
    digits = "".join(str(unicodedata.decimal(c)) for c in line).lstrip("0")
    return int(digits or "0") if len(digits) <= 9 else 0


class Terminal:
    """Plays `table` at this terminal until the game ends or a player quits."""

    def __init__(self, table, lang: str = "en", console: Console | None = None, read=_read_line,
                 saved_to: str | None = None):
        self.table = table
        self.lang = lang
        self.console = console or Console(highlight=False, emoji=False)
        self.read = read
        self.saved_to = saved_to
        self.seen: dict = {}            # seat -> how many log lines it has been shown
        self.humans = [i for i, s in enumerate(table.seats) if s == HUMAN]
        table.holds_moments = True      # people play here: each moment waits for a key

    def say(self, ja, en) -> str:
        return _say(self.lang, ja, en)

    # ------------------------------------------------------------ the game
    def run(self) -> str:
        """'ended' or 'quit'."""
        t = self.table
        t.advance()
        at_keyboard = None
        while not t.ended() or rule_here(self):    # a dead end is ruled on, then play may go on
            if t.moment is not None:        # what just happened stays up until each person has seen it
                seat = min(t.moment["waiting"])
                if len(self.humans) > 1 and seat != at_keyboard:
                    if not self.pass_to(seat):
                        return self.quit()
                at_keyboard = seat
                if self.look(seat) == "quit":
                    return self.quit()
                continue
            humans = t.humans_to_act()
            if not humans:
                break
            seat = humans[0]
            if len(self.humans) > 1 and seat != at_keyboard:
                if not self.pass_to(seat):
                    return self.quit()
            at_keyboard = seat
            if self.turn(seat) == "quit":
                return self.quit()
        self.finish(at_keyboard)
        return "ended"

    def pass_to(self, seat: int) -> bool:
        """Clears the screen and waits until the next player has the keyboard."""
        self.clear()
        self.console.print(Text(self.say(f"P{seat + 1} の番です。P{seat + 1} に代わって Enter を押してください(q で中断)。",
                                         f"P{seat + 1}'s turn: hand over to P{seat + 1}, then press Enter (q to stop)."),
                                style="bold"))
        line = self.read()
        return line is not None and line.lower() != "q"

    def clear(self):
        if self.console.is_terminal:
            self.console.clear()
        else:
            self.console.print("\n" + "=" * 40 + "\n")

    def turn(self, seat: int) -> str:
        """One decision of `seat`: 'acted', 'undone' or 'quit'."""
        t = self.table
        view = t.view(seat, self.lang)
        self.show(view, self.seen.get(seat, 0))
        self.seen[seat] = len(view["log"])
        n = len(view["options"])
        while True:
            numbers = "1" if n == 1 else self.say(f"1〜{n}", f"1-{n}")
            self.console.print(Text(self.say(f"番号を選んでください ({numbers}、u 取り消し、n メモ、q 中断、? ヘルプ): ",
                                             f"Your choice ({numbers}, u undo, n note, q quit, ? help): "), style="bold"), end="")
            line = self.read()
            if line is None or line.lower() == "q":
                return "quit"
            if line == "?":
                self.help()
                continue
            if line.lower() == "n" or line.lower().startswith("n "):
                self.note(seat, line[1:].strip())
                continue
            if line.lower() == "u":
                # the terminal is the designer's own table, but every seat has seen what chance or a
                # reveal showed since: taking it back is asked once more
                if t.undo_reveals():
                    self.console.print(Text(self.say(
                        "公開されたもの(さいころ・カード)も取り消されます。取り消すなら y を入力: ",
                        "this takes back what everyone has seen revealed (dice, cards); type y to undo anyway: "),
                        style="yellow"), end="")
                    sure = self.read()
                    if sure is None or sure.lower() != "y":
                        continue
                try:
                    t.undo()
                except Refused as e:
                    self.console.print(Text(str(e), style="red"))
                    continue
                self.seen = {}
                self.console.print(Text(self.say("↶ 直前の人の選択まで戻しました(記録に残ります)",
                                                 "↶ back to the last decision a person took (the save records the undo)"),
                                        style="yellow"))
                return "undone"
            k = _option_number(line)
            if k is None:
                if line:
                    self.console.print(Text(self.say(f"1〜{n} の番号を入力してください", f"type a number from 1 to {n}"),
                                            style="red"))
                continue
            try:
                t.act(seat, k)
            except Refused as e:
                self.console.print(Text(str(e), style="red"))
                continue
            chosen = view["options"][k - 1]["text"]
            self.console.print(Text(self.say(f"→ {chosen}", f"→ {chosen}"), style="green"))
            return "acted"

    def look(self, seat: int) -> str:
        """A moment: the table as it stands and what happened, until the seat presses Enter."""
        t = self.table
        view = t.view(seat, self.lang)
        self.show(view, self.seen.get(seat, 0))
        self.seen[seat] = len(view["log"])
        self.console.rule(Text(self.say("いま起きたこと", "What just happened"), style="bold"))
        for line in view["moment"]["lines"]:
            self.console.print(Text(line, style="bold"))
        self.console.print(Text(self.say("Enter で続ける(q で中断): ", "Press Enter to continue (q to stop): "),
                                style="bold"), end="")
        line = self.read()
        if line is None or line.lower() == "q":
            return "quit"
        t.carry_on(seat)
        return "looked"

    def help(self):
        self.console.print(self.say(
            "番号: その選択肢を選ぶ / n: この場面にメモを残す / u: 直前の人の選択まで戻す(記録されます) / q: 中断して保存 / ?: このヘルプ\n"
            "▮ はあなたに見えない駒です(数は見えます)。",
            "a number: take that option / n: leave a note at this moment / u: undo back to the last decision a person took (recorded) / "
            "q: stop, keeping the game / ?: this help\n▮ is a piece you may not see (its count you may)."))

    def note(self, seat: int, text: str) -> None:
        """A note pinned to this moment (notes.py keeps it in the replay), naming a rule by its
        number in the rulebook's list, or none."""
        from . import notes
        if not text:
            self.console.print(Text(self.say("メモ: ", "Your note: "), style="bold"), end="")
            text = (self.read() or "").strip()
            if not text:
                return
        rules = notes.rule_titles(self.table, self.lang)
        for i, r in enumerate(rules, 1):
            self.console.print(f"  {i}. {r['title']}")
        self.console.print(Text(self.say("どのルールについて? (番号、なければ Enter): ",
                                         "About which rule? (its number, Enter for none): "), style="bold"), end="")
        k = _option_number(self.read() or "")
        rule = rules[k - 1]["name"] if k is not None and 1 <= k <= len(rules) else None
        try:
            kept = notes.add_note(self.table, seat, text, rule)
        except notes.NoteRefused as e:
            self.console.print(Text(str(e), style="red"))
            return
        self.console.print(Text(self.say(f"✎ メモを残しました(手数 {kept['step']})",
                                         f"✎ note kept at action {kept['step']}"), style="green"))

    def quit(self) -> str:
        if self.saved_to:
            self.console.print(self.say(f"中断しました。続きは: playtest play --resume {self.saved_to}",
                                        f"Stopped. Continue with: playtest play --resume {self.saved_to}"),
                               soft_wrap=True)     # a path broken across lines cannot be copied
        return "quit"

    def finish(self, seat):
        """The end: the view of the person at the keyboard (the designer's when no person
        plays: nobody's secret is left to keep), then the result."""
        t = self.table
        if seat is None and len(self.humans) == 1:
            seat = self.humans[0]
        view = t.view(seat, self.lang)
        self.show(view, self.seen.get(seat, 0))
        self.console.rule(self.say("終了", "Game over"))
        self.console.print(Text(self.say("結果: ", "Result: ") + t.result(self.lang), style="bold"))
        if self.saved_to:
            self.console.print(self.say(f"記録: {self.saved_to}(playtest replay {self.saved_to} で再生)",
                                        f"Saved: {self.saved_to} (playtest replay {self.saved_to} tells it again)"),
                               soft_wrap=True)
        from .terminal_notes import questionnaire
        questionnaire(self)

    # ------------------------------------------------------------ drawing a view
    def show(self, view: dict, since: int):
        c = self.console
        you = view["you"] or self.say("全体", "the whole table")
        step = view["turn"]["step"]
        c.rule(Text(f"{view['game']} — {you}" + (f" — {step}" if step else "")))
        # the log first: the hand, the table and the options stay next to the prompt
        log = view["log"][since:]
        if log:
            c.print(Text(self.say("── 前の番からの流れ ──", "── since your last turn ──") if since
                         else self.say("── これまでの流れ ──", "── so far ──"), style="dim"))
            if len(log) > _LOG_LINES:
                c.print(Text(self.say(f"   (前の {len(log) - _LOG_LINES} 行は playtest replay で)",
                                      f"   ({len(log) - _LOG_LINES} earlier lines: see playtest replay)"), style="dim"))
            for line in log[-_LOG_LINES:]:
                c.print(Text(line, style="dim" if line.startswith("   ") else ""))
            c.rule(style="dim")
        spaces = self.option_spaces(view["options"])
        boards: dict = {}
        for z in view["zones"]:
            if "grid" in z:
                boards.setdefault(z["grid"]["board"], []).append(z)
        for zones in boards.values():
            c.print(self.board(zones, spaces))
        for z in view["zones"]:
            if "grid" not in z and (z["count"] or z["owner"] == view["seat"] and z["kind"] == "hand"):
                c.print(self.zone(z, view["seat"]))
        self.counters(view["counters"])
        if view["options"]:
            c.print(Text(self.say("あなたの番です。選べること:", "Your move. You may:"), style="bold"))
            self.options(view["options"])

    def piece(self, p) -> Text:
        if p is None:
            return Text(_HIDDEN, style="dim")
        if p["face"] is not None and p["kind"] == p["label"] or p["face"] is not None:
            return Text(f"[{p['face']}]", style="bold")
        return Text(p["name"], style=f"bold {p['color']}" if p["color"] else "bold")

    def zone(self, z, seat) -> Text:
        line = Text()
        mine = z["owner"] == seat and seat is not None
        line.append(z["title"], style="bold cyan" if mine else "cyan")
        line.append(f" ({z['count']}): ")
        pieces = z["pieces"]
        hidden = sum(1 for p in pieces if p is None)
        runs: list = []         # alike pieces side by side as one: 'vandal ×40'
        for p in pieces:
            if p is None:
                continue
            text = self.piece(p)
            if runs and runs[-1][0] == text:
                runs[-1][1] += 1
            else:
                runs.append([text, 1])
        for text, k in runs[:30]:
            for _ in range(1 if k > 3 else k):
                line.append_text(text)
                line.append(" ")
            if k > 3:
                line.append(f"×{k} ")
        if len(runs) > 30:
            line.append(f"… +{sum(k for _, k in runs[30:])} ")
        if hidden:
            line.append(_HIDDEN * hidden if hidden <= 12 else f"{_HIDDEN} × {hidden}", style="dim")
        return line

    def option_spaces(self, options) -> dict:
        """A space an option names alone -> that option's number, to be drawn on the board."""
        out = {}
        for o in options:
            if len(o["spaces"]) == 1 and not o["pieces"]:
                out.setdefault(o["spaces"][0], o["index"])
        return out

    def board(self, zones, spaces):
        g = zones[0]["grid"]
        cells = {(z["grid"]["row"], z["grid"]["col"]): z for z in zones}
        grid = Grid(title=g["title"], show_header=False, show_lines=True, pad_edge=True)
        for _ in range(g["cols"]):
            grid.add_column(justify="center", min_width=3)
        for r in range(g["rows"]):
            row = []
            for col in range(g["cols"]):
                z = cells.get((r, col))
                cell = Text()
                if z is not None:
                    for p in z["pieces"]:
                        cell.append_text(self._on_board(p))
                    if not z["pieces"] and z["name"] in spaces:
                        cell.append(str(spaces[z["name"]]), style="dim")
                row.append(cell)
            grid.add_row(*row)
        return grid

    def _on_board(self, p) -> Text:
        if p is None:
            return Text(_HIDDEN)
        owner = self.table.game.piece_owner[p["id"]]
        if owner is not None:
            return Text(f"P{int(owner) + 1}", style=["bold red", "bold blue", "bold green", "bold magenta"][int(owner) % 4])
        return self.piece(p)

    def counters(self, counters):
        line = Text()
        for k in counters:
            if k["per"] is None:
                part = f"{k['title']}: {k['text']}"
            elif k["per"] in ("player", "team") or len(k["texts"]) <= 12:
                part = f"{k['title']}: " + " ".join(f"{who} {v}" for who, v in k["texts"].items())
            else:
                continue
            if line:
                line.append("  ·  ", style="dim")
            line.append(part)
        if line:
            self.console.print(line)

    def options(self, options):
        """Numbered; options sharing a head ('Raise the bid: ...') are grouped under it."""
        groups: list = []
        alike: dict = {}        # moves that read the same (pieces alike in every printed respect) are shown once
        for o in options:
            if o["text"] in alike:
                alike[o["text"]][1] += 1
                continue
            head, sep, rest = o["text"].partition(": ")
            key = head if sep else ""
            entry = alike[o["text"]] = [o["index"], 1, rest if sep else o["text"]]
            if groups and groups[-1][0] == key:
                groups[-1][1].append(entry)
            else:
                groups.append((key, [entry]))
        for head, entries in groups:
            items = [(i, text + (self.say(f"(同じ選択が {k} 通り)", f" ({k} alike ways)") if k > 1 else ""))
                     for i, k, text in entries]
            if head and len(items) > 1:
                self.console.print(Text(f"  {head}:", style="bold"))
                indent = "    "
            else:
                indent = "  "
                if head:
                    items = [(i, f"{head}: {text}") for i, text in items]
            entries = [Text.assemble((f"{i:>2}", "bold yellow"), f". {text}") for i, text in items]
            if len(entries) <= 12:
                for e in entries:
                    self.console.print(Text(indent) + e)
            else:
                self.console.print(Padding(Columns(entries, padding=(0, 3), column_first=True), (0, 0, 0, len(indent))))
