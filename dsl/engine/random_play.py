"""Random play in the engine's own terms: a game played out from any state in the game's
generated code (what `simulate` plays), decisions and chance outcomes drawn as the play loop
draws them, and a watcher shown each decision as the play loop shows it.

May import: engine state, values, errors and program parts.
"""
from __future__ import annotations

import operator
import threading

from .errors import CARRIED, WatcherFailed, counts_moves
from .program import Choice
from .values import Player, Team

_GENERATING = threading.Lock()          # play-outs are generated on first use


class RandomPlay:
    """The part of a Game that plays at random (a mixin of Machine: it uses its questions)."""

    def play_out(self, s, rng, actions, watch=None) -> bool:
        """Random play from `s` (as set up, or any decision or chance outcome on, logged or
        not) to the end of the game in generated code: the draws, states, dead ends and
        `actions` record that the play loop makes through `decision` and `apply`, one decision
        at a time (nothing for a game that has ended), and `watch(state, seat, moves, move)`
        called where the play loop calls it, with the same arguments and state, before each
        decision is taken (a watcher that `counts_moves` may be shown the number of moves in
        place of the moves); an error of the watcher's own leaves as it is, as from the play loop.
        False, with `s` untouched, when the game has no such code (a statement without a
        generated form)."""
        if s.outcome is not None or s.dead_end is not None:
            return True
        fn = self.played_out.get(s.ip, False)
        if fn is False:
            with _GENERATING:       # a cluster's worker may play one game object on several threads
                fn = self.played_out.get(s.ip, False)
                if fn is False:
                    fn = self.played_out[s.ip] = (self.fuser_out.playout(self.trigger_start, s.ip)
                                                  if self.fusing else None)
        if fn is None:
            return False
        own = None
        try:
            fn(s, rng, actions, watch)
        except WatcherFailed as err:
            own = err.__cause__
        except CARRIED as err:
            self.failed(s, err, None)
        if own is not None:
            raise own           # outside the handler, so its cause and context stay its own
        return True

    def drawn_together(self, s, pause, rng, actions, watch=None) -> bool:
        """Random play's decisions at the simultaneous choice `pause`, everyone's, in the order
        and with the draws the play loop takes them (`deciding(s, rng)`, then `taken_together`),
        recorded in `actions`; with `watch` (RandomPlay.play_out), each shown the moves (`deciding(s)`,
        then `rng.choice`) and the moves taken so far in the pending slot, as in the play loop.
        False when the game ends in a dead end here."""
        L = s.loc_slots
        actors = L[pause.actors_slot]
        # players and teams, each once: taken_together's seat order is their order as numbers
        if pause.parts is not None and not L[pause.pending_slot] and len(set(actors)) == len(actors) \
                and all(type(x) is Player or type(x) is Team for x in actors):
            pending = []
            for x in actors:            # waiting in turn: who `waiting` gives first each time
                p = x if type(x) is not Team else self.acting_player(s, x)
                move, count = (None, 0) if p is None else self.drawn_move(s, pause, x, rng)
                if move is None:
                    break               # nobody decides, or no move: deciding says which
                if watch is not None:
                    if pending:
                        L[pause.pending_slot] = tuple(sorted(pending, key=_chooser))
                    _watched(watch, s, int(p), count if counts_moves(watch) else self.choice_moves(s, pause, p, x),
                             move)
                if actions is not None:
                    actions.append([int(p), list(move)])
                self.counted_choice(s, pause, move, p, x, hidden=True)
                pending.append((x, move))
            pending.sort(key=_chooser)
            L[pause.pending_slot] = tuple(pending)
            if len(pending) == len(actors):
                return True
        while True:
            d = self.deciding(s, rng if watch is None else None)
            if d is None:
                return False
            if watch is None:
                p, chooser, move = d
            else:                       # the moves, then the move drawn from them, as the play loop draws it
                p, chooser, moves = d
                move = rng.choice(moves)
                _watched(watch, s, int(p), moves, move)
            if actions is not None:
                actions.append([int(p), list(move)])
            if self.taken_together(s, pause, move, p, chooser):
                return True

    def deciding(self, s, rng=None):
        """`decision`, with whom the player decides for in a simultaneous choice: (player,
        chooser or None, moves). With `rng`, random play's decision: the move drawn as
        `rng.choice` of the moves draws it, in place of the moves."""
        pause = self.pauses.get(s.ip)
        chooser = None
        if type(pause) is Choice and pause.simultaneous and s.outcome is None and s.dead_end is None:
            waiting = self.waiting(s, pause, first=True)
            p, chooser = waiting[0] if waiting else (None, None)
        else:
            actors = self.current_actors(s)
            p = actors[0] if actors else None
        if p is None and chooser is None:
            self.waits_for_nobody(s)
            return None
        if type(pause) is not Choice:
            return self.offered(s, p, chooser, self.legal_moves(s, p), rng)
        return self.chosen(s, pause, p, chooser, rng)

    def waits_for_nobody(self, s):
        self.fail(s, "no actor", "the game waits for nobody", self.pause_span(s))

    def chosen(self, s, pause, p, chooser, rng):
        """The end of `deciding` at a choice: its moves, or the move drawn from them."""
        if rng is not None and pause.parts is not None:
            move = self.drawn_move(s, pause, chooser, rng)[0]
            if move is not None:
                return p, chooser, move
        return self.offered(s, p, chooser, self.choice_moves(s, pause, p, chooser), rng)

    def offered(self, s, p, chooser, moves, rng):
        """(p, chooser, the moves or the move drawn from them); None, ending the game, when there is none."""
        if not moves:
            if s.dead_end is None:      # working the moves out may have failed: that dead end stands
                self.fail(s, "no legal move", f"P{int(p) + 1} has no legal move", self.pause_span(s))
            return None
        return p, chooser, (moves if rng is None else rng.choice(moves))

    def random_chance(self, s, rng) -> int:
        """Draws a chance outcome uniformly with `rng` and applies it: what `apply` does with
        `rng.randrange(chance_outcomes(s))`, working the zone out once. Returns the outcome."""
        outcome = self.drawn_chance(s, rng)
        self.run(s, s.ip + 1)
        return outcome

    def drawn_chance(self, s, rng) -> int:
        """The chance outcome drawn and settled, the turn structure not yet run on."""
        pause = self.pauses[s.ip]
        z, items = self.chance_zone_items(s, pause)
        outcome = rng.randrange(pause.count(self, s, items))
        self.settle_chance(s, pause, z, items, outcome)
        return outcome


_chooser = operator.itemgetter(0)      # a player or a team: a number


def _watched(watch, s, seat, moves, move) -> None:
    """`watch(s, seat, moves, move)`, its error carried out as WatcherFailed (the generated
    play-out does the same in place: choice_playout._shown)."""
    try:
        watch(s, seat, moves, move)
    except CARRIED as err:
        raise WatcherFailed() from err
