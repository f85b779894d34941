"""Information sets from the rules: draw a full state a player cannot tell from the true one.

What a player sees comes from the rule file alone: a zone `seen by everyone`, a zone
`seen by owner` that is theirs (or their team's), and any piece `reveal`ed since it last
moved. Everything else is hidden, and a `Determinizer` deals it again:

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

Limits, on purpose: counters and variables (`vars`, per-player `pvars`) are public in the
language, so they are kept, and a piece one of them names is known (it stays where it is);
a local of the turn structure naming a hidden piece keeps naming the piece that now lies
in the same place. The sampler is memoryless: a card seen earlier and
now face down is as unknown as any other (the engine has no per-player memory).

May import the engine only.
"""
from __future__ import annotations

import random

from ..engine.values import Piece


def visible_zones(game, player) -> list:
    """Per zone: whether `player` sees its contents."""
    seen = game.zone_seen
    return [s == "everyone" or (s == "owner" and game.owned_by(i, player)) for i, s in enumerate(seen)]


def named_pieces(state) -> set:
    """Pieces a variable or counter names: everyone sees those values, so knows the pieces."""
    out = set()

    def walk(v):
        if type(v) is Piece:
            out.add(v)
        elif isinstance(v, tuple):
            for x in v:
                walk(x)
    for v in state.vars:
        walk(v)
    for row in state.pvars:
        for v in row:
            walk(v)
    return out


def hidden_places(game, state, player, visible=None) -> list:
    """[(zone, position, piece)] of every piece `player` cannot see, in zone order."""
    visible = visible_zones(game, player) if visible is None else visible
    revealed = state.revealed
    named = named_pieces(state)
    return [(z, k, p) for z, pieces in enumerate(state.zones) if not visible[z]
            for k, p in enumerate(pieces) if not revealed[p] and p not in named]


def simultaneous_pause(game, state):
    """The simultaneous choice the game waits at, or None."""
    pause = game.pauses.get(state.ip)
    return pause if getattr(pause, "simultaneous", False) and not state.is_terminal() else None


class Determinizer:
    """Samples states consistent with what `player` observes in `state` (which it never changes)."""

    def __init__(self, game, state, player):
        self.game = game
        self.state = state
        self.player = player
        places = hidden_places(game, state, player)
        groups: dict = {}
        for z, k, p in places:
            groups.setdefault((game.kind_of[p], game.piece_owner[p]), ([], []))
            g = groups[(game.kind_of[p], game.piece_owner[p])]
            g[0].append((z, k))
            g[1].append(p)
        # the key orders groups by first hidden place, which the player sees; pieces are sorted
        self.groups = [(pl, sorted(ps)) for pl, ps in groups.values()]
        faces = game.faces
        self.dice = sorted((p, faces[game.kind_of[p]]) for _, _, p in places if game.kind_of[p] in faces)
        self.hidden = {p for _, _, p in places}
        self.true_at = {(z, k): p for z, k, p in places}
        self.pending = None
        pause = simultaneous_pause(game, state)
        if pause is not None:
            mine = tuple((x, m) for x, m in state.loc_slots[pause.pending_slot]
                         if player in game.players_in(x))
            self.pending = (pause.pending_slot, mine)
        self.refers = self.hidden and _names_any(state, self.hidden)

    def sample(self, rng: random.Random):
        s = self.state.clone()
        new_at = {}
        zones, loc = s.zones, s.loc
        for places, pieces in self.groups:
            deal = list(pieces)
            rng.shuffle(deal)
            for (z, k), p in zip(places, deal):
                zones[z][k] = p
                loc[p] = z
                new_at[(z, k)] = p
        face = s.face
        for p, faces in self.dice:
            face[p] = faces[rng.randrange(len(faces))]
        if self.pending is not None:
            slot, mine = self.pending
            s.loc_slots[slot] = mine
        if self.refers:
            rename = {self.true_at[place]: p for place, p in new_at.items()}
            _rename(s, rename)
        s.memo.clear()
        return s


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
