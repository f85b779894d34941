"""The Table: one game being played by people and bots, its replay written as it goes.

Chance outcomes and bot decisions draw from a generator seeded by the game's seed and the
number of actions taken so far, so the same seed and the same human choices give the same
game, also after a resume or an undo. The seed is either a whole number (a designer's `--seed`,
drawn from as it always was) or seed material, at least 16 random bytes: then each action's
generator is seeded with HMAC-SHA256(material, action number), so no number of dice seen tells
a seat the next one. The material is kept in the replay file (`chance`), never in a view. Every action is written to the replay file
(`dsl/analyses/replay.py`'s format, plus `seats` and `undone`) before `act` returns.
"""
from __future__ import annotations

import bisect
import hashlib
import hmac
import json
import random

from ..agents.spec import parse_agent
from ..agents.strategy import ready
from ..analyses import replay as replay_mod
from ..engine import CHANCE, Game
from ..engine.program import plain_move
from ..io_guard import read_bytes
from ..language.diagnostics import RuleFileError
from ..agents.infoset import simultaneous_pause
from . import story
from . import view as V
from .words import Words

HUMAN = "human"
MIN_MATERIAL = 16           # bytes of seed material: 128 bits, past any search of seeds


class Refused(Exception):
    """A clear, one-line, player-facing reason; the table is unchanged."""


class Table:
    """One game being played: the rules, one state, who sits where, the replay written as it goes."""

    def __init__(self, rules, players: int, seats: list, seed: int | bytes, replay_path: str | None = None,
                 variants=(), actions=(), undone=(), rulings=()):
        if len(seats) != players:
            raise ValueError(f"{len(seats)} seats for {players} players: give one per seat")
        self.rules = rules
        self.game = Game(rules, players)
        self.seats = [s.strip().lower() if s.strip().lower() == HUMAN else s.strip() for s in seats]
        self.agents = [None if s == HUMAN else parse_agent(s) for s in self.seats]
        ready(self.agents, self.game)      # a strategy the game does not declare: ValueError, before any move
        if isinstance(seed, (bytes, bytearray)):
            if len(seed) < MIN_MATERIAL:
                raise ValueError(f"seed material is {MIN_MATERIAL} bytes or more, not {len(seed)}")
            self.seed, self.material = 0, bytes(seed)
        else:
            self.seed, self.material = seed, None
        self.variants = list(variants)
        self.replay_path = replay_path
        self.undone = [dict(u) for u in undone]
        self.rulings = [dict(r) for r in rulings]
        self.proposal = None        # a seat's proposed ruling, until the designer's link confirms one
        self._fits: dict = {}
        self.version = 0
        # a table for people stops at a moment (a reveal, someone out, the end) until each
        # person has said "continue"; a replay, a test or a script plays straight through
        self.holds_moments = False
        self._words: dict = {}
        self._zone_at = {name: z for z, name in enumerate(self.game.zone_names)}
        self._start(list(actions))
        self._save()

    # ------------------------------------------------------------ building the state
    def _start(self, actions: list) -> None:
        """The state after `actions` from the start, with what each seat saw at every step."""
        self.actions = []
        self.state = self.game.new_initial_state(log=True)
        self._known = []            # (log length after an action, per seat the pieces it could see)
        self._ends = []             # the log lengths alone, to find an event's action
        self._late = {}             # a face-down choice's event -> per seat what it knew once all were revealed
        self._mark(None)
        for actor, move in actions:
            self._apply(actor, move)
        replay_mod.ruled(self.state, self.rulings, len(self.actions))    # an outcome the table ruled stands
        self.moment = None          # {"start", "end": the log's events held, "waiting": human seats}
        self._looked = len(self.state.log)      # events before this were never a moment to hold
        if actions and not self.state.is_terminal():
            self.game.stuck(self.state)     # a game saved where nobody could decide ends there again

    def _mark(self, before) -> None:
        s = self.state
        start = self._known[-1][0] if self._known else 0
        seen = []
        for p in range(self.game.n):
            known = V.visible_pieces(self.game, s, p) | V.seen_in(self.game, s.log[start:], p, self._zone_at)
            seen.append(known if before is None else known | before[p])
        self._known.append((len(s.log), seen))
        self._ends.append(len(s.log))

    def _apply(self, actor: int, move) -> None:
        before = [V.visible_pieces(self.game, self.state, p) for p in range(self.game.n)]
        together = actor != CHANCE and simultaneous_pause(self.game, self.state) is not None
        pending = V.pending_choices(self.state)
        start = len(self.state.log)
        if actor == CHANCE:
            self.state.apply(int(move), CHANCE)
            self.actions.append([CHANCE, int(move)])
        else:
            self.state.apply(tuple(move), actor)
            self.actions.append([int(actor), plain_move(tuple(move))])
        self._mark(before)
        if together and V.pending_choices(self.state) != pending + 1:
            self._revealed_choices(start, pending)
        self.version += 1

    def _revealed_choices(self, start: int, earlier: int) -> None:
        """Everyone has chosen face down: each seat knows of those choices (logged at `start`
        and the `earlier` ones before it) what it sees once they are all revealed."""
        log = self.state.log
        batch = [start]
        for i in range(start - 1, -1, -1):
            if len(batch) > earlier:
                break
            if log[i]["event"] == "choose" and log[i].get("hidden"):
                batch.append(i)
        now = self._known[-1][1]
        for i in batch:
            then = self._known_at_all(i)
            self._late[i] = [a | b for a, b in zip(then, now)]

    def _known_at_all(self, i: int) -> list:
        """Per seat, the pieces it could see around log event i."""
        if i in self._late:
            return self._late[i]
        k = bisect.bisect_right(self._ends, i)
        return self._known[min(k, len(self._known) - 1)][1]

    def _known_at(self, seat):
        return lambda i: self._known_at_all(i)[seat]

    def _rng(self) -> random.Random:
        # after an undo the dice are rolled afresh, not the ones already seen: the number of undos
        # is mixed in (the replay's `undone` list keeps it, so a resume draws the same again)
        n = str(len(self.actions)) + (f":undo{len(self.undone)}" if self.undone else "")
        if self.material is not None:
            return random.Random(hmac.digest(self.material, n.encode(), hashlib.sha256))
        return random.Random(f"{self.seed}:{n}")

    # ------------------------------------------------------------ whose decision
    def ended(self) -> bool:
        return self.state.is_terminal()

    def humans_to_act(self) -> list:
        s = self.state
        if s.is_terminal() or s.is_chance() or self.moment is not None:
            return []
        # a person with no move waits, as a bot does (advance): once they are the first asked, the
        # game ends in its dead end there
        return [int(p) for p in s.current_actors() if self.seats[int(p)] == HUMAN and s.legal_moves(p)]

    def advance(self) -> None:
        """Plays chance and bots until a human must decide or the game ends, saving after each."""
        s = self.state
        while not s.is_terminal():
            if self._hold():
                return
            if s.is_chance():
                self._apply(CHANCE, self._rng().randrange(s.chance_outcomes()))
            elif self.game.decision(s) is None:
                self.version += 1           # nobody can decide: the game has ended in its dead end here
            else:
                # a bot with no move waits: once it is the first asked, `decision` ends the game
                # there, as it does when the replay is run again
                bot = next(((p, m) for p in s.current_actors() if self.seats[int(p)] != HUMAN
                            for m in [s.legal_moves(p)] if m), None)
                if bot is None:
                    return
                self._apply(bot[0], self.agents[bot[0]].act(s, bot[0], self._rng(), bot[1]))
            self._save()
        self._hold()

    def _hold(self) -> bool:
        """Whether the game stops here for the people to look: the events since the last look
        hold a moment and someone at the table is a person."""
        if self.moment is not None:
            return True
        log = self.state.log
        new = log[self._looked:]
        start, self._looked = self._looked, len(log)
        people = [i for i, k in enumerate(self.seats) if k == HUMAN]
        if not self.holds_moments or not people or not any(
                story.is_moment(ev) or story.moves_owner(self.game, ev) for ev in new):
            return False
        self.moment = {"start": start, "end": len(log), "waiting": set(people)}
        self.version += 1
        self._save()        # a server killed now resumes holding this moment, not past it
        return True

    def _hold_again(self, held) -> None:
        """The moment a crash cut short, held again for those who had not yet continued (anything
        that does not read as one is ignored)."""
        if not isinstance(held, dict):
            return
        start, waiting = held.get("start"), held.get("waiting")
        people = {i for i, k in enumerate(self.seats) if k == HUMAN}
        if not (isinstance(start, int) and 0 <= start < len(self.state.log)
                and isinstance(waiting, list) and waiting and set(waiting) <= people):
            return
        self.moment = {"start": start, "end": len(self.state.log), "waiting": set(waiting)}
        self._looked = len(self.state.log)

    def carry_on(self, seat: int) -> None:
        """The seat has seen the moment; once every person has, the game goes on."""
        if self.moment is None:
            raise Refused("nothing is waiting for you to continue")
        if not isinstance(seat, int) or seat not in self.moment["waiting"]:
            raise Refused(f"P{seat + 1 if isinstance(seat, int) else '?'} has continued already")
        self.moment["waiting"].discard(seat)
        self.version += 1
        if not self.moment["waiting"]:
            self.moment = None
        self._save()
        if self.moment is None:
            self.advance()

    def _moves(self, seat: int) -> list:
        s = self.state
        if s.is_terminal() or s.is_chance() or self.moment is not None or self.seats[seat] != HUMAN \
                or seat not in map(int, s.current_actors()):
            return []
        return s.legal_moves(seat)

    def options(self, seat: int, lang: str = "en") -> list:
        """That seat's legal moves now, numbered from 1, in words; [] when it is not its decision."""
        if not isinstance(seat, int) or not 0 <= seat < self.game.n:
            return []
        moves = self._moves(seat)
        if not moves:
            return []
        return V.options(self.words(lang), self.state, seat, moves)

    def act(self, seat: int, index: int) -> None:
        """The seat takes option `index` (from 1); then chance and bots play until a human must decide."""
        if self.state.is_terminal():
            raise Refused("the game has ended")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.game.n:
            raise Refused(f"there is no seat {seat!r}")
        if self.seats[seat] != HUMAN:
            raise Refused(f"P{seat + 1} is played by {self.seats[seat]}, not by a person")
        moves = self._moves(seat)
        if not moves:
            raise Refused(f"it is not P{seat + 1}'s decision")
        if isinstance(index, bool) or not isinstance(index, int) or not 1 <= index <= len(moves):
            raise Refused(f"choose an option from 1 to {len(moves)}")
        self._apply(seat, moves[index - 1])
        self._save()
        self.advance()

    def undo(self, designer: bool = True) -> None:
        """Back to the previous human decision, recorded in the replay's `undone` list and told
        on every seat's log. Taking back what chance or a reveal has shown everyone needs the
        designer (`designer`): the seats have seen it."""
        at = next((i for i in range(len(self.actions) - 1, -1, -1)
                   if self.actions[i][0] != CHANCE and self.seats[self.actions[i][0]] == HUMAN), None)
        if at is None:
            raise Refused("there is no decision of a person to undo")
        if not designer and self.undo_reveals():
            raise Refused("that undo takes back what was revealed: only the designer's link may")
        taken = self.actions[at:]
        self.undone.append({"at": at, "actions": taken})
        version = self.version
        self._start(self.actions[:at])
        self.version = version + 1
        self._save()

    def undo_reveals(self) -> bool:
        """Whether an undo now takes back a chance outcome or a reveal the seats have seen."""
        at = next((i for i in range(len(self.actions) - 1, -1, -1)
                   if self.actions[i][0] != CHANCE and self.seats[self.actions[i][0]] == HUMAN), None)
        if at is None:
            return False
        start = self._known[at][0]
        return any(a[0] == CHANCE for a in self.actions[at:]) or \
            any(e.get("event") in ("reveal", "roll", "shuffle") for e in self.state.log[start:])

    # ------------------------------------------------------------ rulings
    @property
    def rulings_closed(self) -> bool:
        """The table let this dead end stand: the game has ended there."""
        return bool(self.rulings) and self.rulings[-1]["step"] == len(self.actions) and "variant" not in self.rulings[-1]

    def ruling(self, lang: str = "en") -> dict | None:
        from . import rulings
        return rulings.open_ruling(self, lang)

    def propose(self, seat: int, index: int, lang: str = "en") -> None:
        """A seat proposes choice `index` of the open ruling; the designer's link confirms it."""
        r = self.ruling(lang)
        if r is None:
            raise Refused("there is nothing to rule on now")
        if isinstance(index, bool) or not isinstance(index, int) or not 1 <= index <= len(r["choices"]):
            raise Refused(f"choose a ruling from 1 to {len(r['choices'])}")
        self.proposal = {"seat": seat, "index": index, "name": r["choices"][index - 1]["name"]}
        self.version += 1

    def rule(self, index: int, lang: str = "en") -> None:
        """The designer rules (choice `index`); the game plays on under the ruling."""
        from . import rulings
        try:
            made = rulings.rule(self, index, lang)
        except ValueError as e:
            raise Refused(str(e))
        self.rulings.append(made)
        self.proposal = None
        self.version += 1
        self._save()
        self.advance()

    def fits(self, variant_path: str) -> bool:
        """Whether the game so far plays the same under its rules with this variant too."""
        key = (len(self.actions), tuple(self.variants), variant_path)
        if key not in self._fits:
            try:
                self._under(variant_path)
                self._fits[key] = True
            except Refused:
                self._fits[key] = False
        return self._fits[key]

    def take_up(self, variant_path: str) -> None:
        """Play on under the rules with one more variant, the game so far replayed under them."""
        rules, game = self._under(variant_path)
        version = self.version
        self.rules, self.game = rules, game
        self.variants = self.variants + [variant_path]
        self._words = {}
        self.__dict__.pop("_stamp", None)
        self._start(list(self.actions))
        self.version = version + 1

    def _under(self, variant_path: str):
        """The game so far, under its rules with one more variant: every move replayed, and the
        story up to the dead end the same, or Refused (the table unchanged)."""
        from ..loader import checked
        from ..variants import overlay
        rep = self.replay()
        trees = replay_mod._trees(rep)
        try:
            rules, _ = checked(trees[0], trees[1:] + overlay.stack([variant_path]))
        except RuleFileError as e:
            raise Refused(f"{variant_path} does not check with these rules: {e}")
        old = [e for e in self.state.log if e.get("event") != "dead_end"]
        game = Game(rules, self.game.n)
        try:
            state = replay_mod.run(game, self.actions, log=True)
        except replay_mod.ReplayError as e:
            raise Refused(f"that variant changes what was already played ({e}): it can only be played from the start")
        if state.log[:len(old)] != old:
            raise Refused("that variant changes what was already played: it can only be played from the start")
        return rules, game

    # ------------------------------------------------------------ what a seat sees
    def words(self, lang: str) -> Words:
        if lang not in self._words:
            self._words[lang] = Words(self.game, lang)
        return self._words[lang]

    def log(self, seat, lang: str = "en", trace: bool = False) -> list:
        """What happened, as `seat` may know it: in people's words, or every event (`trace`)."""
        known = self._known_at(seat) if seat is not None else None
        lines = V.told(self.words(lang), self.state, seat, known, trace=trace)
        # each undo still in this game's past, told to every seat where play went back to
        w = self.words(lang)
        told = [u for u in self.undone if isinstance(u.get("at"), int) and 0 <= u["at"] <= len(self.actions)]
        for u in sorted(told, key=lambda u: u["at"], reverse=True):
            n = len(u.get("actions") or ())
            first = u["actions"][0] if u.get("actions") else None
            who = f"P{int(first[0]) + 1}" if first and isinstance(first[0], int) and first[0] >= 0 else w.say("人", "a person")
            # where play went back to: after the lines told of the events before it (the log
            # keeps fewer lines than events, so the place is counted in lines)
            end = self._ends[u["at"]]
            told = len(V.told(w, self.state, seat, known, self.state.log[:end], trace=trace))
            lines.insert(min(told, len(lines)), w.say(
                f"↶ 取り消し: {who}の選択まで{n}手戻した(この後のさいころや山札は引き直し)",
                f"↶ undone: {n} actions taken back, to {who}'s decision (what chance brings next is drawn afresh)"))
        return lines

    def view(self, seat, lang: str = "en") -> dict:
        """What `seat` may see (None: the designer's full view), as plain data."""
        w = self.words(lang)
        s = self.state
        title = self.game.rules.game
        name = _title(title, lang) or self.game.name
        actors = [] if s.is_terminal() or s.is_chance() else [int(p) for p in s.current_actors()]
        return {"game": name, "players": self.game.n, "seat": seat,
                "you": f"P{seat + 1}" if seat is not None else None,
                "seats": list(self.seats),
                "turn": {"actors": actors, "waiting_for_you": seat in self.humans_to_act(),
                         "step": V.step_title(w, s.log)},
                "zones": V.zones(w, s, seat),
                "counters": V.counters(w, s, seat, s.log[:self.moment["start"]] if self.moment else None),
                "alive": list(s.alive),
                "marks": story.seat_marks(self.game.n),
                "face_down": V.face_down(w, s, seat, self._known_at(seat) if seat is not None else None),
                "log": self.log(seat, lang),
                "options": self.options(seat, lang) if seat is not None else [],
                "ended": self.ended(), "result": self.result(lang) if self.ended() else None,
                "moment": self._moment(seat, lang),
                "final": self.final(seat, lang) if self.ended() else None,
                "version": self.version}

    def _moment(self, seat, lang):
        """The moment the table holds, as `seat` may know it: what happened in it, in words,
        and who is still looking."""
        m = self.moment
        if m is None:
            return None
        w = self.words(lang)
        known = self._known_at(seat) if seat is not None else None
        before = V.told(w, self.state, seat, known, self.state.log[:m["start"]])
        lines = V.told(w, self.state, seat, known, self.state.log[:m["end"]])[len(before):]
        said = V.outcomes(w, self.state, seat, known, m["start"], m["end"])
        # the outcome stands at the head, not again among the lines
        return {"lines": [x.strip() for x in lines if not x.startswith("== ") and x.strip() not in said],
                "outcome": said,
                "waiting": sorted(m["waiting"]), "yours": seat in m["waiting"]}

    def final(self, seat=None, lang: str = "en") -> dict:
        """The game's end for a results panel: the ranking by pay-off (winners first), each
        seat's pay-off and the per-player counters that made it, and the game's length."""
        s = self.state
        w = self.words(lang)
        winners = [int(p) for p in (s.outcome or ())]
        pay = list(s.payoffs) if s.payoffs is not None else [1.0 if i in winners else 0.0 for i in range(self.game.n)]
        order = sorted(range(self.game.n), key=lambda i: (-(pay[i]), i not in winners, i))
        scores = [c for c in V.counters(w, s, seat) if c["per"] == "player"]
        rows = []
        for rank, i in enumerate(order):
            place = 1 + sum(1 for j in order[:rank] if pay[j] > pay[i])
            rows.append({"seat": i, "place": place, "winner": i in winners, "payoff": pay[i],
                         "out": not s.alive[i] if i < len(s.alive) else False,
                         "made_of": [{"title": c["title"], "text": c["texts"].get(f"P{i + 1}", "")} for c in scores]})
        moves = sum(1 for a, _ in self.actions if a != CHANCE)
        return {"ranking": rows, "length": {"choices": moves, "steps": len(self.actions)}, "text": self.result(lang)}

    def result(self, lang: str = "en") -> str:
        """Who won, or the dead end the game ran into, in words."""
        s = self.state
        w = self.words(lang)
        if s.dead_end is not None:
            return w.narrator.event({"event": "dead_end", **s.dead_end.to_json()})
        if s.outcome is None:
            return w.say("対局中", "still being played")
        winners = [f"P{int(p) + 1}" for p in s.outcome]
        pay = ""
        if s.payoffs is not None:
            pay = " (" + ", ".join(f"P{i + 1} {v:g}" for i, v in enumerate(s.payoffs)) + ")"
        if not winners:
            return w.say("引き分け(勝者なし)", "a draw: nobody wins") + pay
        return w.say("・".join(winners) + "の勝ち", " and ".join(winners) + (" wins" if len(winners) == 1 else " win")) + pay

    # ------------------------------------------------------------ the replay
    def replay(self) -> replay_mod.Replay:
        rules = self.game.rules
        if not hasattr(self, "_stamp"):     # the rules do not change during a game: hashed once
            self._stamp = (replay_mod.fingerprint(rules), [list(p) for p in rules.sources] or [[rules.path, rules.source]])
        return replay_mod.Replay(rules.path, list(self.variants), self.game.n, self.seed, 0, list(self.actions),
                                 "played at the table: " + ", ".join(self.seats), self._stamp[0],
                                 self._stamp[1], self.state.digest())

    def to_json(self) -> dict:
        data = {**self.replay().to_json(), "seats": list(self.seats), "undone": self.undone, "rulings": self.rulings}
        if self.material is not None:
            data["chance"] = self.material.hex()
        if self.moment is not None:     # the log's events the table was holding up, and for whom
            data["held"] = {"start": self.moment["start"], "waiting": sorted(self.moment["waiting"])}
        data["version"] = self.version      # a resumed table goes on from the version its pages saw
        from . import notes
        data.update(notes.saved(self))
        return data

    def _save(self) -> None:
        if self.replay_path is not None:
            replay_mod.write_atomic(self.replay_path, json.dumps(self.to_json(), ensure_ascii=False, indent=1) + "\n")

    @classmethod
    def resume(cls, replay_path: str, rules=None) -> "Table":
        """Continue a saved game; ReplayError when the file is not a table's replay or its
        actions no longer play under the rules."""
        rep = replay_mod.load(replay_path)
        # load has read and bounded the file already; what the table adds (seats, undone) is read again
        data = json.loads(read_bytes(replay_path, replay_mod.MAX_REPLAY_BYTES, "replay file").decode("utf-8"))
        seats, undone, made = data.get("seats"), data.get("undone", []), data.get("rulings", [])
        if not isinstance(seats, list) or len(seats) != rep.players or not all(isinstance(x, str) for x in seats):
            raise replay_mod.ReplayError(f"{replay_path}: 'seats' must list who sits in each of the "
                                         f"{rep.players} seats (written by `playtest play`)")
        if not isinstance(undone, list):
            raise replay_mod.ReplayError(f"{replay_path}: 'undone' must be a list")
        if not isinstance(made, list) or not all(isinstance(r, dict) and isinstance(r.get("step"), int) for r in made):
            raise replay_mod.ReplayError(f"{replay_path}: 'rulings' must be a list of the rulings made, each with its 'step'")
        seed = rep.seed
        if "chance" in data:
            chance = data["chance"]
            try:
                seed = bytes.fromhex(chance) if isinstance(chance, str) else None
            except ValueError:
                seed = None
            if seed is None or len(seed) < MIN_MATERIAL:
                raise replay_mod.ReplayError(f"{replay_path}: 'chance' must be the seed material the table "
                                             f"wrote, {MIN_MATERIAL} bytes or more in hexadecimal")
        if rules is None:       # the rules the replay carries: its paths are only labels
            rules = replay_mod.embedded(rep)[0]
        replay_mod.run(Game(rules, rep.players), rep.actions, log=False)     # every action checked, or ReplayError
        try:
            table = cls(rules, rep.players, seats, seed, replay_path, rep.variants, rep.actions, undone, made)
            from . import notes
            notes.restore(table, data)
            table._hold_again(data.get("held"))
            version = data.get("version")
            if isinstance(version, int) and not isinstance(version, bool) and version > table.version:
                table.version = version
            return table
        except ValueError as e:
            raise replay_mod.ReplayError(f"{replay_path}: {e}")


def _title(decl, lang):
    from ..language import syntax as S
    return S.text_of(decl.texts, "title", lang) or S.text_of(decl.texts, "title", "en")
