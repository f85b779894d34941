"""Information sets from the rules: draw a full state a player cannot tell from the true one.

What a player sees comes from the rule file alone: a zone `seen by everyone`, a zone
`seen by owner` that is theirs (or their team's), a zone `seen by others` that is not, any
piece `reveal`ed since it last moved, and any piece shown to them (`show X to p`) since it
last moved. Everything else is hidden, and a `Determinizer` deals it again:

* hidden pieces are dealt uniformly among the hidden places, each piece staying among
  pieces of the same component and owner (a player tells a die from a card, and the
  colour of a counted-per-player token), zone sizes unchanged;
* hidden dice get a face rolled again uniformly from their component's faces;
* at a simultaneous choice, the face-down choices other players have already made are
  taken back (they will choose again, unseen); a player keeps their own and their team's.

The sample is built canonically from what the player observes (hidden pieces sorted by
number, shuffled with the caller's RNG, dealt into the hidden places in order), never by
permuting the true arrangement, so two states the player cannot tell apart give the
same samples for the same RNG.

Counters and variables are seen as their declaration says (`seen by`, everyone unless it
says otherwise): one the player cannot see is set back to its declared starting value in every
sample (the sampler infers nothing from how it may have changed), and a piece only a hidden
value names is dealt like any hidden piece. A piece a value the player sees names is known (it
stays where it is); a local of the turn structure naming a hidden piece keeps naming the piece
that now lies in the same place.

Perfect recall: where the game keeps its log (the play loop turns it on for searching agents),
a `Recall` follows it event by event as the player saw it: where each piece is known to lie
(every piece starts where the rules put it; a piece the player sees go somewhere is known
there), and forgets as the player must (a piece leaving a hidden zone unseen makes every piece
remembered in that zone unknown; passing hands or a source it cannot name forget every hidden
piece). A hidden piece the player remembers is dealt only among the hidden places of the zone it
is known to be in (its place within the zone is not kept), and a hidden die whose face they
saw keeps it until it is rolled again. So a hand shown once and hidden again is dealt as seen.

May import the engine only.
"""
from __future__ import annotations

import random

from ..engine.values import Piece, Unwitnessed


def visible_zones(game, player) -> list:
    """Per zone: whether `player` sees its contents."""
    return [game.zone_visible(z, player) for z in range(len(game.zone_seen))]


def named_pieces(state, player=None) -> set:
    """Pieces a variable or counter names whose value `player` sees (every one when None): the
    player knows those pieces."""
    out = set()
    plain, kept = state.game.unseen_values(player) if player is not None else ((), ())
    plain, kept = set(plain), set(kept)

    def walk(v):
        if type(v) is Piece:
            out.add(v)
        elif isinstance(v, tuple):
            for x in v:
                walk(x)
    for i, v in enumerate(state.vars):
        if i not in plain:
            walk(v)
    for i, row in enumerate(state.pvars):
        for k, v in enumerate(row):
            if (i, k) not in kept:
                walk(v)
    return out


def hidden_places(game, state, player, visible=None) -> list:
    """[(zone, position, piece)] of every piece `player` cannot see, in zone order."""
    visible = visible_zones(game, player) if visible is None else visible
    revealed = state.revealed
    named = named_pieces(state, player)
    if state.looked:        # a piece shown to this player (`show`) is known while it stays put
        named |= {p for p, seers in state.looked.items() if player in seers}
    return [(z, k, p) for z, pieces in enumerate(state.zones) if not visible[z]
            for k, p in enumerate(pieces) if not revealed[p] and p not in named]


def simultaneous_pause(game, state):
    """The simultaneous choice the game waits at, or None."""
    pause = game.pauses.get(state.ip)
    return pause if getattr(pause, "simultaneous", False) and not state.is_terminal() else None


class Determinizer:
    """Samples states consistent with what `player` observes in `state` (which it never changes),
    and with what they remember of the game so far where the state keeps its log."""

    def __init__(self, game, state, player):
        self.game = game
        self.state = state
        self.player = player
        places = hidden_places(game, state, player)
        recall = recalled(game, state, player)
        known = recall.hidden_known(places) if recall is not None else {}
        groups: dict = {}
        for z, k, p in places:
            groups.setdefault((game.kind_of[p], game.piece_owner[p]), ([], []))
            g = groups[(game.kind_of[p], game.piece_owner[p])]
            g[0].append((z, k))
            g[1].append(p)
        # the key orders groups by first hidden place, which the player sees; pieces are sorted
        self.groups = [_deal_of(pl, ps, known) for pl, ps in groups.values()]
        faces = game.faces
        seen_faces = recall.face if recall is not None else {}
        self.dice = sorted((p, faces[game.kind_of[p]]) for _, _, p in places
                           if game.kind_of[p] in faces and p not in seen_faces)
        self.hidden = {p for _, _, p in places}
        self.true_at = {(z, k): p for z, k, p in places}
        self.pending = None
        pause = simultaneous_pause(game, state)
        if pause is not None:
            mine = tuple((x, m) for x, m in state.loc_slots[pause.pending_slot]
                         if player in game.players_in(x))
            self.pending = (pause.pending_slot, mine)
        self.refers = self.hidden and _names_any(state, self.hidden)
        # pieces others looked at that this player cannot see: in a sample, another looked at
        # whatever now lies in that place
        self.looked_hidden = bool(self.hidden) and any(p in self.hidden for p in state.looked)
        # looks shown to others secretly: this player does not know they happened, so no world
        # they imagine keeps them
        self.unwitnessed = any(type(w) is Unwitnessed and player not in w for w in state.looked.values())
        plain, kept = game.unseen_values(player)
        start = _starting_values(game)
        self.unseen = {i: start.vars[i] for i in plain}
        self.unseen_kept = [(i, k, start.pvars[i][k]) for i, k in kept]

    def sample(self, rng: random.Random):
        s = self.state.clone()
        new_at = {}
        zones, loc = s.zones, s.loc
        for places, pieces, pinned in self.groups:
            if pinned:
                places, pieces = _pin(places, pieces, pinned, rng, zones, loc, new_at)
            _deal(places, pieces, rng, zones, loc, new_at)
        face = s.face
        for p, faces in self.dice:
            face[p] = faces[rng.randrange(len(faces))]
        if self.pending is not None:
            slot, mine = self.pending
            s.loc_slots[slot] = mine
        if self.refers or self.looked_hidden:
            rename = {self.true_at[place]: p for place, p in new_at.items()}
            if self.refers:
                _rename(s, rename)
            if self.looked_hidden:
                s.looked = {rename.get(p, p): w for p, w in s.looked.items()}
        if self.unwitnessed:
            s.looked = {p: w for p, w in s.looked.items() if type(w) is not Unwitnessed or self.player in w}
        if self.unseen:         # a new list, as making a state does: no code is running on this one yet
            s.vars = [self.unseen.get(i, v) for i, v in enumerate(s.vars)]
        for i, k, v in self.unseen_kept:
            s.pvars[i][k] = v
        s.memo.clear()
        return s


def _deal_of(places, pieces, known) -> tuple:
    """(places, pieces, pinned) of one group: pinned lists, zone by zone, the remembered pieces
    and the group's hidden places in that zone."""
    by_zone: dict = {}
    for p in sorted(pieces):
        if p in known:
            by_zone.setdefault(known[p], []).append(p)
    pinned = [(z, ps, [pl for pl in places if pl[0] == z]) for z, ps in sorted(by_zone.items())]
    return places, sorted(pieces), pinned


def _pin(places, pieces, pinned, rng, zones, loc, new_at) -> tuple:
    """Deals the remembered pieces of a group into places of their zones; the places and pieces left."""
    taken = set()
    for z, ps, spots in pinned:
        chosen = rng.sample(spots, len(ps))
        _deal(chosen, ps, rng, zones, loc, new_at)
        taken.update(chosen)
    fixed = {p for _, ps, _ in pinned for p in ps}
    return [pl for pl in places if pl not in taken], [p for p in pieces if p not in fixed]


def _deal(places, pieces, rng, zones, loc, new_at) -> None:
    """The pieces shuffled into the places."""
    deal = list(pieces)
    rng.shuffle(deal)
    for (z, k), p in zip(places, deal):
        zones[z][k] = p
        loc[p] = z
        new_at[(z, k)] = p


def _starting_values(game):
    """The declared starting values (a state before setup), what a sample holds for a value its
    player cannot see."""
    start = game.__dict__.get("_declared_start")
    if start is None:
        start = game._declared_start = game.blank_state()
    return start


class Recall:
    """What one player knows of where pieces lie, followed through the game's log as they saw it
    (see the module docstring): `place` (piece -> zone) and `face` (die -> the face they saw)."""

    def __init__(self, game, player):
        self.game = game
        self.player = int(player)
        self.visible = visible_zones(game, player)
        self.zone_of = {name: z for z, name in enumerate(game.zone_names)}
        self.place = dict(enumerate(game.initial_zone))
        # where every piece lies, from the log: which zone a piece leaves is seen at the table
        # (a card taken from a hand), which piece it is only where the player sees the piece
        self.zone_left: list = list(game.initial_zone)
        self.shown: set = set()
        self.face: dict = {}
        self.read = 0

    def follow(self, log) -> "Recall":
        for e in log[self.read:]:
            kind = e.get("event")
            if kind == "move" or kind == "draw":
                # a draw moves pieces as a move does; which ones, only where the player sees them land
                self._moved(e)
            elif kind == "reveal" or kind == "look" and self.player in e["to"]:
                for p, shown in zip(e["pieces"], e["shown"]):
                    if kind == "reveal":
                        # shown face up: wherever it goes next, they watch it go; a piece looked
                        # at privately goes on face down, and which one left they cannot tell
                        self.shown.add(p)
                    if self.zone_left is not None:
                        self.place[p] = self.zone_left[p]
                    if self.game.kind_of[p] in self.game.faces:
                        self.face[p] = shown
            elif kind == "roll":
                for p in e["pieces"]:
                    self.shown.discard(p)
                    self.face.pop(p, None)
            elif kind == "pass":
                # the hands of a family passed along: not followed, so nothing hidden is remembered from here on
                self._forget(None)
                self.zone_left = None
        self.read = len(log)
        return self

    def _moved(self, e) -> None:
        visible, place, zone_left = self.visible, self.place, self.zone_left
        to = self.zone_of[e["to"]]
        for p in e["pieces"]:
            was = zone_left[p] if zone_left is not None else None
            if p in self.shown or (was is not None and visible[was]):
                place[p] = to               # they watched it go
            else:
                self._forget(was)           # a piece left `was` unseen: which one, they cannot tell
                place.pop(p, None)
                if visible[to]:
                    place[p] = to
            if zone_left is not None:
                zone_left[p] = to
            self.shown.discard(p)

    def _forget(self, zone) -> None:
        """Forgets the pieces remembered in the hidden zone `zone` (in every hidden zone: None)."""
        visible = self.visible
        for p in [p for p, z in self.place.items() if not visible[z] and (zone is None or z == zone)]:
            del self.place[p]

    def hidden_known(self, places) -> dict:
        """piece -> zone for the hidden pieces (of `places`) whose zone the player knows."""
        place = self.place
        return {p: place[p] for _, _, p in places if p in place}


_RECALLS: dict = {}        # (id of a game's log, player) -> (the log, its Recall), the log kept so its id stays its own


def recalled(game, state, player):
    """The Recall of `player` up to `state`, or None where the state keeps no log."""
    log = state.log
    if log is None:
        return None
    key = (id(log), int(player))
    held = _RECALLS.get(key)
    if held is None or held[0] is not log or held[1].game is not game:
        if len(_RECALLS) > 64:
            _RECALLS.clear()
        held = _RECALLS[key] = (log, Recall(game, player))
    return held[1].follow(log)


def sample_state(game, state, player, rng: random.Random):
    """One state drawn uniformly from those `player` cannot tell from `state`."""
    return Determinizer(game, state, player).sample(rng)


def _names_any(state, pieces) -> bool:
    def has(v):
        if type(v) is Piece:
            return v in pieces
        if isinstance(v, tuple):
            return any(has(x) for x in v)
        return False
    return any(has(v) for v in state.loc_slots)


def _rename(s, rename) -> None:
    def re(v):
        if type(v) is Piece:
            return rename.get(v, v)
        if isinstance(v, tuple):
            return tuple(re(x) for x in v)
        return v
    s.loc_slots = [re(v) for v in s.loc_slots]
