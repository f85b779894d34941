"""The machine: runs compiled instructions until a decision, applies moves and chance outcomes,
fires triggers, and answers OpenSpiel's questions (who acts, legal moves, terminal, returns,
what a player observes).

May import: engine state, values, errors, program parts and generated code.
"""
from __future__ import annotations


from ..language import syntax as S
from .errors import CARRIED, EVALUATION_ERRORS, LISTING_ERRORS, IllegalMove, RuleError, plain_error
from .program import CHANCE, Chance, Choice, Env, chosen_seats, items_of, param_names, plain_move
from .state import DeadEnd, State
from .source import slots_as_locals
from .tables import TRIGGER_ROUNDS
from .values import Piece, Team, plain

class Machine:
    """The part of a Game that plays: every method takes the state it works on."""

    def new_initial_state(self, log: bool = False, coverage: bool = False) -> State:
        """The state after setup: the first decision or chance outcome of the game."""
        if not log and not coverage:
            # setup draws no random number: unwatched, it ends in the same state every game
            start = self.__dict__.get("_start")
            if start is None:
                start = self._start = self.set_up(False, False)
            s = start.clone()
            s.memo = dict(start.memo)
            return s
        return self.set_up(log, coverage)

    def set_up(self, log: bool, coverage: bool) -> State:
        s = self.blank_state()
        if log:
            s.log = []
        if coverage:
            s.fired = {}
        self.run(s, 0)
        return s

    def blank_state(self) -> State:
        """Components in their starting zones, variables at their initial values, before setup."""
        s = State(self, self.n)
        s.zones = [[] for _ in self.zone_names]
        for p in self.pieces:
            s.zones[self.initial_zone[p]].append(p)
        s.loc = list(self.initial_zone)
        s.face = list(self.initial_face)
        s.revealed = [False] * len(self.pieces)
        s.vars = [None] * len(self.var_slots)
        s.pvars = [[None] * self.n for _ in self.pvar_slots]
        s.alive = [True] * self.n
        s.loc_slots = [None] * max(self.n_slots, 1)
        s.latches = [False] * sum(self.n if t[2] is not None else 1 for t in self.triggers)
        s.ip = 0
        self.init_vars(s)
        return s

    def compile_starting_values(self):
        """Each variable's starting value as a function of the state, compiled once with the rules:
        a comprehension in one takes a local slot of its own, which every state must have."""
        self.starting_values = {}
        for name in [*self.var_slots, *self.pvar_slots]:
            try:
                self.starting_values[name] = self.expr(self.var_decls[name].initial, Env(self, {}))
            except EVALUATION_ERRORS as err:
                raise self._no_starting_value(name, err)

    def _no_starting_value(self, name, err) -> RuleError:
        return RuleError("evaluation failed", f"the starting value of '{name}' cannot be worked out: {plain_error(err)}",
                         self.var_decls[name].span)

    def init_vars(self, s):
        cs = s
        name = None
        try:
            for name, i in self.var_slots.items():
                s.vars[i] = self.starting_values[name](cs)
            for name, i in self.pvar_slots.items():
                f = self.starting_values[name]
                s.pvars[i] = [f(cs) for _ in range(self.value_count(name))]
        except EVALUATION_ERRORS as err:
            raise self._no_starting_value(name, err)
        s.memo.clear()      # a value worked out for a starting value may have read a variable not yet set

    def run(self, s, ip):
        code = self.code
        try:
            while ip >= 0 and s.outcome is None and s.dead_end is None:
                ip = code[ip](s)
        except CARRIED as err:
            self.failed(s, err, ip)
        if s.outcome is None and s.dead_end is None and s.moves > self.max_moves:
            self.past_step_limit(s)
        if s.outcome is None and s.dead_end is None and type(self.pauses.get(s.ip)) is Chance:
            self.chance_ready(s)

    def chance_ready(self, s):
        """A chance event whose pieces or outcomes cannot be worked out ends the game where it
        waits, as random play's own code ends it there when it draws."""
        try:
            self.chance_outcomes(s)
        except CARRIED as err:
            self.failed(s, err, s.ip)

    def past_step_limit(self, s):
        self.fail(s, "step limit", f"the game took more than {self.max_moves} decisions", None)

    def run_range(self, s, ip, end):
        """Runs a statement's instructions from `ip` until it is done (at `end`) or the game has
        ended, for a fused statement (engine/fused.py); an error leaving it carries its instruction."""
        code = self.code
        try:
            while 0 <= ip != end and s.outcome is None and s.dead_end is None:
                ip = code[ip](s)
        except CARRIED as err:
            if not hasattr(err, "ip"):
                err.ip = ip
            raise
        return ip

    def failed(self, s, err, ip):
        """The dead end an error makes, laid at the instruction it carries, else at `ip`."""
        ip = getattr(err, "ip", ip)
        if isinstance(err, RuleError):
            self.fail(s, err.kind, err.message, err.span, ip, err.contenders)
        elif isinstance(err, RecursionError):
            self.fail(s, "evaluation failed", "the rules recurse without end", None, ip)
        else:
            self.fail(s, "evaluation failed", plain_error(err), None, ip)

    def fail(self, s, kind, message, span, at=None, contenders=()):
        ip = at if at is not None and 0 <= at < len(self.code) else (s.ip if 0 <= s.ip < len(self.code) else 0)
        ip = self.threaded.get(ip, ip)
        owner = self.owner[ip] if self.owner else "play"
        span = span or (self.spans[ip] if self.spans else S.NOWHERE)
        s.dead_end = DeadEnd(kind, owner, self.rules.path_of(span), span.line, span.column, message, tuple(contenders))
        if s.log is not None:
            s.log.append({"event": "dead_end", **s.dead_end.to_json()})

    def fire_triggers(self, s):
        """After a change, each trigger whose condition has become true runs, until none does.
        A game compiled with fusing puts its own generated form in place (triggers_checked)."""
        if s.outcome is not None or s.dead_end is not None or not self.has_triggers or s.settling:
            return
        if self.together and self.inside_together(s):
            return
        for _ in range(TRIGGER_ROUNDS):
            fired = False
            latch = 0
            for t, slot, coll, cond, start in self.triggers:
                targets = coll(s) if coll is not None else (None,)
                if coll is not None:
                    items = list(targets)
                    for p in self._players:
                        on = False
                        if p in items:
                            s.loc_slots[slot] = p
                            on = bool(cond(s))
                        li = latch + int(p)
                        if on and not s.latches[li]:
                            s.latches[li] = True
                            self.run_trigger(s, t, start)
                            fired = True
                        elif not on:
                            s.latches[li] = False
                        if s.outcome is not None or s.dead_end is not None:
                            return
                    latch += self.n
                else:
                    on = bool(cond(s))
                    if on and not s.latches[latch]:
                        s.latches[latch] = True
                        self.run_trigger(s, t, start)
                        fired = True
                    elif not on:
                        s.latches[latch] = False
                    latch += 1
                    if s.outcome is not None or s.dead_end is not None:
                        return
            if not fired:
                return
        raise _endless_triggers()

    def run_trigger(self, s, t, start):
        if s.log is not None:
            s.log.append({"event": "trigger", "name": t.name})
        if s.fired is not None:
            key = ("trigger", t.name)
            s.fired[key] = s.fired.get(key, 0) + 1
        saved = s.settling
        s.settling = True              # a trigger's own effects are settled by the outer loop
        ip = start
        try:
            code = self.code
            while ip >= 0:
                ip = code[ip](s)
        except RuleError as err:
            if not hasattr(err, "ip"):
                err.ip = ip
            raise
        finally:
            s.settling = saved

    def triggers_checked(self):
        """fire_triggers for this game's triggers as one generated function: the same tests in
        the same order, latches, firings and errors; None when Python cannot read it."""
        src = self.new_source()
        v, of = src.value, src.of
        lines = ["    if s.outcome is not None or s.dead_end is not None or s.settling:", "        return"]
        if self.together:
            lines += [f"    if {v(self.inside_together)}(s):", "        return"]
        lines += ["    L = s.loc_slots", "    la = s.latches", f"    for _ in {v(range)}({TRIGGER_ROUNDS!r}):",
                  "        fired = False"]
        latch = 0
        for t, slot, coll, cond, start in self.triggers:
            # only a firing changes the state: a condition is an expression, which changes none
            fire = [f"    {v(self.run_trigger)}(s, {v(t)}, {start!r})", "    fired = True",
                    "    if s.outcome is not None or s.dead_end is not None:", "        return"]
            # `on` is only ever tested, so the condition's value is kept as it is, not made a bool
            if coll is None:
                test = of(cond)
                at = repr(latch)
                latch += 1
                body = [f"on = {test}"]
            else:
                test = slots_as_locals(of(cond), {slot: "p"})
                at = f"{latch!r} + p"
                latch += self.n
                # a collection of players is a tuple already (Compiler.never_zones)
                items = of(coll) if self.never_zones(t.coll, Env(self, {})) else f"{v(list)}({of(coll)})"
                body = [f"items = {items}", f"for p in {v(self._players)}:",
                        "    on = False", "    if p in items:", f"        L[{slot!r}] = p", f"        on = {test}"]
            check = [f"if on and not la[{at}]:", f"    la[{at}] = True"] + fire + ["elif not on:", f"    la[{at}] = False"]
            lines += ["        " + x for x in body + (["    " + x for x in check] if coll is not None else check)]
        lines += ["        if not fired:", "            return",
                  f"    raise {v(_endless_triggers)}()"]
        try:
            return src.function("s", "\n".join(lines) + "\n", statements=True)
        except (SyntaxError, RecursionError, MemoryError, ValueError):
            return None

    def inside_together(self, s) -> bool:
        """Inside a `together` block, triggers wait until the whole block is done."""
        return any(a <= s.ip < b for a, b in self.together)

    def current_actors(self, s) -> list:
        if s.outcome is not None or s.dead_end is not None:
            return []
        pause = self.pauses.get(s.ip)
        kind = type(pause)
        if kind is Chance:
            return [CHANCE]
        if kind is Choice:
            if pause.simultaneous:
                return [p for p, _ in self.waiting(s, pause)]
            x = pause.actor(s)
            return [x if type(x) is not Team else self.acting_player(s, x)]
        return []

    def waiting(self, s, pause, player=None, first=False) -> list:
        """The choosers of a simultaneous choice yet to decide (only the one `player` decides
        for, when given; only the first, with `first`), as (the player who decides, the player
        or team they decide for)."""
        L = s.loc_slots
        pending = L[pause.pending_slot]
        out = []
        for x in L[pause.actors_slot]:
            for done, _ in pending:
                if done == x:
                    break
            else:
                p = x if type(x) is not Team else self.acting_player(s, x)
                if player is None:
                    out.append((p, x))
                    if first:
                        return out
                elif p == player:
                    return [(p, x)]
        return out

    def is_chance(self, s) -> bool:
        return not s.is_terminal() and isinstance(self.pauses.get(s.ip), Chance)

    def chance_outcomes(self, s) -> int:
        pause = self.pauses[s.ip]
        return pause.count(self, s, self.chance_zone_items(s, pause)[1])

    def chance_zone_items(self, s, pause) -> tuple:
        """The zone (or single piece) a paused chance event falls on, and the pieces in it."""
        z = pause.zone(s)
        return z, [z] if isinstance(z, Piece) else list(items_of(s, z))

    def legal_moves(self, s, player=None) -> list:
        if s.is_terminal():
            return []
        pause = self.pauses.get(s.ip)
        if isinstance(pause, Chance):
            return list(range(self.chance_outcomes(s)))
        if not isinstance(pause, Choice):
            return []
        if pause.simultaneous:
            waiting = self.waiting(s, pause, player, first=True)
            return self.choice_moves(s, pause, *waiting[0]) if waiting else []
        return self.choice_moves(s, pause, player)

    def choice_moves(self, s, pause, player, chooser=None) -> list:
        """The moves of `player`, who is known to be one of the choice's current actors (in a
        simultaneous choice, deciding for `chooser`, as `waiting` gives it)."""
        saved = list(s.loc_slots)     # enumeration uses the slots as scratch; asking must not change the state
        try:
            if pause.simultaneous:
                s.loc_slots[pause.each_slot] = chooser
            return self.enumerate(s, pause)
        except LISTING_ERRORS as err:
            self.listing_failed(s, pause, saved, err)
            return []
        finally:
            if s.dead_end is None:
                s.loc_slots[:] = saved

    def listing_failed(self, s, pause, saved, err):
        """Working out the moves of `pause` raised `err`: the slots are as they were (`saved`),
        and the game ends in a dead end at the pause."""
        s.loc_slots[:] = saved
        if isinstance(err, RuleError):
            self.fail(s, err.kind, err.message, err.span or pause.span, s.ip)
        else:
            self.fail(s, "evaluation failed", plain_error(err), pause.span, s.ip)

    def apply(self, s, move, player=None, validate: bool = True) -> None:
        """Take one action: a chance outcome (an int; `player` None or CHANCE) or a player's
        move (a tuple as listed by legal_moves). An action the rules do not allow here raises
        IllegalMove and leaves the state unchanged. `validate=False` skips that check for
        callers that pass a move straight from legal_moves (random play)."""
        if s.outcome is not None or s.dead_end is not None:
            raise IllegalMove("the game has already ended")
        pause = self.pauses.get(s.ip)
        if type(pause) is Chance:
            if validate:
                if player is not None and player != CHANCE:
                    raise IllegalMove(f"the game waits for a chance outcome, not for P{int(player) + 1}")
                if isinstance(move, bool) or not isinstance(move, int):
                    raise IllegalMove(f"a chance outcome is a whole number, not {move!r}")
                n = self.chance_outcomes(s)
                if not 0 <= move < n:
                    raise IllegalMove(f"chance outcome {move} is out of range (0 to {n - 1})")
            self.settle_chance(s, pause, *self.chance_zone_items(s, pause), int(move))
            self.run(s, s.ip + 1)
            return
        if type(pause) is not Choice:
            raise IllegalMove("the game is not waiting for a decision")
        if validate and player == CHANCE:
            raise IllegalMove("the game waits for a player's decision, not a chance outcome")
        if pause.simultaneous:
            waiting = self.waiting(s, pause, player)
            if not waiting:
                raise IllegalMove(f"it is not P{int(player) + 1}'s decision" if isinstance(player, int)
                                  else f"{player!r} is not a player")
            player, chooser = waiting[0]
            if validate:
                move = self._checked_move(s, pause, move, player)
            if self.taken_together(s, pause, tuple(move), player, chooser):
                self.run(s, pause.after_ip)
            return
        chooser = pause.actor(s)
        actor = self.acting_player(s, chooser)
        if validate:
            if player is not None and player != actor:
                raise IllegalMove(f"it is not P{int(player) + 1}'s decision" if isinstance(player, int)
                                  else f"{player!r} is not a player")
            move = self._checked_move(s, pause, move, actor)
        try:
            ip = self.taken(s, pause, tuple(move), actor, chooser)
        except RuleError as err:
            raise IllegalMove(err.message)
        self.run(s, ip)

    def taken(self, s, pause, move, actor, chooser=None) -> int:
        """`actor` takes `move` (deciding for `chooser`, for the log) at a paused choice: it is
        counted and logged and its values are bound. Returns where its option's body starts."""
        self.counted_choice(s, pause, move, actor, chooser, hidden=False)
        return self.bind_move(s, pause, move)

    @staticmethod
    def counted_choice(s, pause, move, player, chooser, hidden):
        """A decision taken: counted (which resets the loop bound) and logged."""
        s.moves += 1
        s.ticks = 0
        if s.log is not None:
            Machine.logged_choice(s, pause, move, player, chooser, hidden)

    @staticmethod
    def logged_choice(s, pause, move, player, chooser, hidden):
        s.log.append({"event": "choose", "player": int(player), "move": plain_move(move),
                      "params": param_names(pause, move[0]), **chosen_seats(move), **({"hidden": True} if hidden else {}),
                      **({"team": int(chooser)} if isinstance(chooser, Team) else {})})

    def taken_together(self, s, pause, move, player, chooser) -> bool:
        """`player` takes `move` for `chooser` in a simultaneous choice: counted, logged and
        kept hidden until everyone has chosen. True once everyone has."""
        self.counted_choice(s, pause, move, player, chooser, hidden=True)
        L = s.loc_slots
        pending = L[pause.pending_slot]
        k = len(pending)            # kept in seat order: the bodies run in that order
        while k and int(pending[k - 1][0]) > int(chooser):
            k -= 1
        pending = L[pause.pending_slot] = pending[:k] + ((chooser, move),) + pending[k:]
        return len(pending) == len(L[pause.actors_slot])

    def decision(self, s):
        """Who decides now and their legal moves, as (player, moves); None when nobody can,
        after ending the game in a dead end (`no actor` or `no legal move`). The one place
        drivers (simulate, fuzz, explore, replay) learn whether the game can go on."""
        d = self.deciding(s)
        return None if d is None else (d[0], d[2])

    def pause_span(self, s):
        return getattr(self.pauses.get(s.ip), "span", None)

    def stuck(self, s) -> bool:
        """True when the game has ended, or waits for a decision nobody can take (then it ends
        in a dead end here)."""
        if s.is_terminal() or self.is_chance(s):
            return s.is_terminal()
        return self.decision(s) is None

    def settle_chance(self, s, pause, zone, items, outcome):
        """A chance outcome's effect (the turn structure is not run on)."""
        s.memo.clear()
        pause.settle(self, s, zone, items, outcome)
        self.chance_settled(s, pause.moves)

    def chance_settled(self, s, moved=False):
        """After a chance outcome: the triggers that read what chance changed (any trigger, when
        the outcome `moved` pieces, as after a move)."""
        if self.has_triggers and s.playing and (moved or self.triggers_read_faces) and not s.settling:
            try:
                self.fire_triggers(s)
            except RuleError as err:
                self.fail(s, err.kind, err.message, err.span)
            except CARRIED as err:
                self.failed(s, err, s.ip)

    def returns(self, s) -> list[float]:
        """A game that ends with pay-offs returns them; else the winners share 1."""
        if s.payoffs is not None:
            return [float(v) for v in s.payoffs]
        return self.win_shares(s)

    def win_shares(self, s) -> list[float]:
        if s.outcome is None:
            return [0.0] * self.n
        if self.cooperative:        # the team's win is every seat's whole win
            return [1.0 if s.outcome else 0.0] * self.n
        w = set(int(p) for p in s.outcome)
        return [1.0 / len(w) if i in w else 0.0 for i in range(self.n)]

    def observation(self, s, player) -> dict:
        zones = {}
        for i, name in enumerate(self.zone_names):
            visible = self.zone_visible(i, player)
            content = []
            for p in s.zones[i]:
                if visible or s.revealed[p] or (s.looked and player in s.looked.get(p, ())):
                    content.append({"piece": int(p), "label": self.piece_label[p],
                                    **({"face": s.face[p]} if s.face[p] is not None else {})})
                else:
                    content.append(None)
            zones[name] = content
        decls = self.var_decls
        return {"player": int(player), "zones": zones,
                "variables": {n: plain(s.vars[i]) for n, i in self.var_slots.items()
                              if n not in self.pvar_slots and decls[n].seen_by == "everyone"},
                "counters": {n: [plain(v) if self.sees_counter(n, k, player) else None
                                 for k, v in enumerate(s.pvars[i])] for n, i in self.pvar_slots.items()},
                "alive": list(s.alive)}

    def sees_counter(self, name, k, player) -> bool:
        """Whether `player` sees the k-th value of the counter `name` (for the k-th player, team
        or piece where it is kept so): `seen by everyone`, or `seen by owner` and theirs."""
        seen = self.var_decls[name].seen_by
        if seen == "everyone":
            return True
        if seen == "nobody":
            return False
        return self.owner_sees(name, k // self.pair_width.get(name, 1), player)   # two keys: the owner is the first

    def owner_sees(self, name, owner: int, player) -> bool:
        """Whether `player` sees the value of `name` kept for the player or team `owner`."""
        seen = self.var_decls[name].seen_by
        if seen in ("everyone", "nobody"):
            return seen == "everyone"
        own = owner == int(player) if self.var_decls[name].per == "player" else self.team_of[int(player)] == owner
        return own if seen == "owner" else not own          # 'others': everyone but its owner

    def value_count(self, name) -> int:
        """How many values a counter kept per player, team, piece or pair of keys holds."""
        if name in self.piece_index:
            return len(self.piece_index[name])
        return self.n if self.var_decls[name].per == "player" else len(self.teams)

    def unseen_values(self, player) -> tuple:
        """(game-wide variable slots, [(slot, key)] of values kept per player, team or piece) that
        `player` cannot see."""
        decls = self.var_decls
        plain = [i for n, i in self.var_slots.items() if n not in self.pvar_slots and decls[n].seen_by != "everyone"]
        kept = []
        for n, i in self.pvar_slots.items():
            if decls[n].seen_by != "everyone":
                kept += [(i, k) for k in range(self.value_count(n)) if not self.sees_counter(n, k, player)]
        return plain, kept

    def after_effect(self, s):
        if self.has_triggers and s.playing and not s.settling:
            self.fire_triggers(s)


def _endless_triggers() -> RuleError:
    return RuleError("trigger loop", "triggers keep firing each other without end")
