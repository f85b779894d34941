"""A seat's view of the table as plain JSON-able data: zones and the pieces in them, counters,
whose turn it is, the log in words; built from the engine's observation of that seat and what
is public, so it holds nothing the seat may not see.

What a seat sees is the engine's observation, which the agents' information sets leave fixed
(dsl/agents/infoset.py): a zone seen by everyone, its own (or its team's) zone seen by its
owner, another's zone seen by others, a revealed piece, a piece shown to it (`show`); counters
and variables as their `seen by` says. A hidden piece is `null` (its zone's count stays
public). The log names a piece only where the seat could see it just before or just after the
action that moved it, wherever the event names it (moved, drawn, chosen, set as a value, or
keyed by a value kept per piece: "a hidden card's slot = 2"), and a face-down choice of another
seat reads "P3 chose (face down)" until everyone has chosen.
"""
from __future__ import annotations

from collections import Counter

from ..agents.infoset import simultaneous_pause, visible_zones
from ..engine import geometry
from ..engine.program import param_names
from ..engine.values import Piece, Player, Team, plain
from ..printing.outcome import outcome
from . import story


def visible_pieces(game, state, seat) -> frozenset:
    """The pieces `seat` may see in `state` (every piece for the designer, seat None)."""
    if seat is None:
        return frozenset(game.pieces)
    seen = visible_zones(game, seat)
    revealed, looked = state.revealed, state.looked
    return frozenset(p for z, pieces in enumerate(state.zones) for p in pieces
                     if seen[z] or revealed[p] or seat in looked.get(p, ()))


def seen_in(game, events, seat, at: dict) -> frozenset:
    """The pieces `seat` sees pass by in `events`: revealed, or moved from or into a zone it
    sees (`at`: each zone's number by its name)."""
    seen = visible_zones(game, seat)
    out = set()
    for ev in events:
        k = ev["event"]
        if k == "reveal" or (k == "look" and seat in ev["to"]) or \
                (k in ("move", "draw") and (seen[at[ev["to"]]] or ("from" in ev and seen[at[ev["from"]]]))):
            out.update(ev["pieces"])
    return frozenset(out)


def zone_kind(game, z: int) -> str:
    if z in game.space_at:
        return "grid"
    return "hand" if game.zone_kind[z] == "hand" else "pile"


def zones(words, state, seat) -> list:
    """Every zone, its pieces as the seat sees them (None where it may not)."""
    game = words.game
    n = words.narrator
    seen = game.observation(state, seat)["zones"] if seat is not None else None
    out = []
    for z, name in enumerate(game.zone_names):
        owner = game.zone_owner[z]
        if seen is None:
            shown = [words.piece(p, state.face[p]) for p in state.zones[z]]
        else:
            shown = [words.piece(o["piece"], o.get("face")) if o is not None else None for o in seen[name]]
        for piece in shown:         # whose a piece is, as the seat sees it lying there
            if piece is not None:
                piece["owner"] = story.owner_of_piece(game, state, piece["id"])
        zone = {"name": name, "title": story.zone_title(n, name, seat),
                "owner": int(owner) if type(owner) is Player else None,
                "team": int(owner) if type(owner) is Team else None,
                "kind": zone_kind(game, z), "role": game.zone_kind[z], "seen": game.zone_seen[z],
                "count": len(state.zones[z]), "pieces": shown}
        if z in game.space_at:
            zone["grid"] = _placed(game, n, z)
        out.append(zone)
    return out


def _placed(game, n, z) -> dict:
    """Where a board's space is drawn: its column and row on a grid; on a track or route, its
    place in the drawing (geometry.layout), its label and, on a route, what it is joined to."""
    board, x, y = game.space_at[z]
    d = game.board_decls[board]
    cols, rows = game.board_sizes[board]
    if d.shape == "grid":
        return {"board": board, "title": n.name(board), "rows": rows, "cols": cols,
                "row": y - 1, "col": x - 1, "hex": d.adjacency == "hex"}
    labels, at = d.labels(), geometry.layout(cols, d.shape, d.loop)
    out = {"board": board, "title": n.name(board), "rows": max(r for _, r in at) + 1, "cols": max(c for c, _ in at) + 1,
           "row": at[x - 1][1], "col": at[x - 1][0], "hex": False, "label": str(labels[x - 1])}
    if d.shape == "route" or d.links:
        out["joined"] = [str(labels[i - 1]) for i in game.board_graph[board][x - 1]]
    return out


def counters(words, state, seat=None, log=None) -> list:
    """Counters and variables: one value, or one per player, team or piece; a value `seat` may
    not see (`seen by owner` or `nobody`) is None, its text '?' (seat None: the designer sees all)."""
    game = words.game
    n = words.narrator
    # a piece a public value names is told as the seat sees it: hidden in another's hand, hidden here
    known = visible_pieces(game, state, seat) if seat is not None else None
    # a round held at a moment is still the round on the felt: staleness by the log before it
    stale = story.stale_values(game, (state.log or ()) if log is None else log)
    passing = story.in_passing(game)
    out = []
    for name, i in game.var_slots.items():
        if name in game.pvar_slots or name in passing:      # the player to speak: the turn says it
            continue
        v = state.vars[i]
        if seat is not None and game.var_decls[name].seen_by != "everyone":
            out.append({"name": name, "title": n.name(name), "per": None, "value": None, "text": "?"})
            continue
        if v is None or name in stale:      # nobody to speak, no tie, the last round's bid: no tile
            continue
        out.append({"name": name, "title": n.name(name), "per": None, "value": plain(v),
                    "text": words.value(v, known)})
    for name, i in game.pvar_slots.items():
        per = game.var_decls[name].per
        row = state.pvars[i]
        if name in game.pair_width or per not in ("player", "team"):
            order = sorted(game.piece_index[name].items(), key=lambda kv: kv[1])
            keys = _key_names(words, [k for k, _ in order], known)
        elif per == "player":
            keys = [f"P{k + 1}" for k in range(len(row))]
        elif per == "team":
            keys = [f"T{k + 1}" for k in range(len(row))]
        seen = [seat is None or game.sees_counter(name, k, seat) for k in range(len(row))]
        # a value kept on a card the seat cannot see is left out: its place in the list would name the card
        kept = [(k, v, ok) for k, v, ok in zip(keys, row, seen) if k is not None]
        out.append({"name": name, "title": n.name(name), "per": per + (f" and {game.var_decls[name].per2}"
                                                                       if name in game.pair_width else ""),
                    "values": {k: plain(v) if ok else None for k, v, ok in kept},
                    "texts": {k: words.value(v, known) if ok else "?" for k, v, ok in kept}})
    return out


def _key_names(words, keys: list, known) -> list:
    """What each value of a counter kept per piece, zone, card value or pair of keys is listed
    under: None for a key naming a piece the seat does not see; alike pieces numbered apart."""
    def hidden(k):
        return known is not None and any(type(x) is Piece and x not in known for x in (k if type(k) is tuple else (k,)))
    names = [None if hidden(k) else words.value(k) for k in keys]
    counts = Counter(x for x in names if x is not None)
    at: Counter = Counter()
    out = []
    for x in names:
        if x is not None and counts[x] > 1:
            at[x] += 1
            x = f"{x} #{at[x]}"
        out.append(x)
    return out


def options(words, state, seat: int, moves: list) -> list:
    """`moves` (the seat's legal moves in `state`) numbered from 1, in words, naming only the
    pieces the seat sees."""
    known = visible_pieces(words.game, state, seat)
    pause = words.game.pauses.get(state.ip)
    step = step_title(words, state.log or ())
    return [{"index": i + 1, "text": words.option(m, param_names(pause, m[0]), known, step), "option": m[0],
             "pieces": words.pieces_named(m, known), "spaces": words.spaces_named(m)}
            for i, m in enumerate(moves)]


def pending_choices(state) -> int:
    """How many face-down choices the simultaneous choice the game waits at holds (they are the
    last choose events of the log: nothing else is logged while they are collected)."""
    pause = simultaneous_pause(state.game, state)
    return len(state.loc_slots[pause.pending_slot]) if pause is not None else 0


def step_title(words, log) -> str | None:
    for ev in reversed(log):
        if ev["event"] in ("step", "phase"):
            return words.narrator.step(ev["name"])
    return None


def told(words, state, seat, known_at, log=None, trace=False) -> list:
    """The log (`state`'s, or `log`) in words as `seat` may know it: `known_at(i)` is the set of
    pieces the seat could see around event i (None: the designer, who knows every piece); the
    face-down choices the game still collects are hidden from everyone but their chooser.
    In people's words (story.py), or with `trace` the Narrator's line for every event."""
    n = _SeatNarrator(words)
    game = words.game
    log = state.log if log is None else log
    hidden_from = len(log) - _pending_events(log, pending_choices(state))
    seen = visible_zones(game, seat) if seat is not None else None
    zone_at = {name: z for z, name in enumerate(game.zone_names)}
    out = []
    reason = []
    for i, ev in enumerate(log):
        known = known_at(i) if seat is not None else None
        n.known = known
        kind = ev["event"]
        if kind == "look" and ev.get("secret") and seat is not None and seat not in ev["to"]:
            continue            # shown while the others had their eyes shut: they know of nothing
        if kind == "choose" and ev.get("hidden") and i >= hidden_from and seat is not None \
                and seat not in _choosers(game, ev):
            out.append(n.say(f"{n.who(ev)}: 伏せて選んだ", f"{n.who(ev)} chose (face down)"))
            continue
        if kind == "reveal":       # a card by its printed name, not its label's values
            ev = dict(ev, shown=[f if game.kind_of[p] in game.faces else words.name(p)
                                 for p, f in zip(ev["pieces"], ev["shown"])])
        if kind == "roll" and seat is not None:
            # a die rolled is hidden again: its face is seen only where its zone is seen (a
            # single die rolled names no zone: where it lies now)
            where = [zone_at[ev["zone"]] if ev.get("zone") else state.loc[p] for p in ev["pieces"]]
            ev = dict(ev, faces=[f if seen[z] else "?" for z, f in zip(where, ev["faces"])])
        if kind == "set" and seat is not None and not _value_seen(game, ev, seat):
            ev = dict(ev, value="?")
        if kind == "case":      # the outcome in one sentence, naming only what the seat saw
            said = outcome(n, log, i, None if trace else (lambda name: story.zone_title(n, name, seat)))
        else:
            said = n.event(ev) if trace else story.line(n, ev, seat, reason)
        if said is not None:
            out.append(said)
    return out


def outcomes(words, state, seat, known_at, start: int, end: int) -> list:
    """The outcome sentences of the cases taken in the log's events [start, end), as `seat`
    may know them (the held moment's headline)."""
    n = _SeatNarrator(words)
    log = state.log[:end]
    out = []
    for i in range(start, end):
        if log[i]["event"] == "case":
            n.known = known_at(i) if seat is not None else None
            out.append(outcome(n, log, i, lambda name: story.zone_title(n, name, seat)).strip())
    return out


def _value_seen(game, ev, seat) -> bool:
    """Whether `seat` sees the value a 'set' event gives (a counter's `seen by`)."""
    decl = game.var_decls.get(ev["name"])
    if decl is None or decl.seen_by == "everyone":
        return True
    whose = ev["keys"][0] if "keys" in ev else ev     # kept per two keys: the owner is the first
    key = whose.get("player", whose.get("team"))
    return key is not None and decl.per in ("player", "team") and game.owner_sees(ev["name"], key, seat)


def _pending_events(log, pending: int) -> int:
    """How many events at the end of the log the `pending` face-down choices take."""
    k = 0
    seen = 0
    for ev in reversed(log):
        if seen == pending:
            break
        k += 1
        if ev["event"] == "choose" and ev.get("hidden"):
            seen += 1
    return k


def _choosers(game, ev) -> tuple:
    """The seats that know a face-down choice: its chooser and the team they chose for."""
    if "team" in ev:
        return tuple(int(p) for p in game.players_in(Team(ev["team"])))
    return (ev["player"],)


class _SeatNarrator:
    """The Narrator with pieces a seat may not see told only by their kind."""

    def __init__(self, words):
        self.words = words
        self.known = None
        self._n = words.narrator

    def __getattr__(self, name):
        return getattr(self._n, name)

    def card(self, i: int) -> str:
        if self.known is not None and i not in self.known:
            return self.words.hidden(i)
        return self.words.name(i)

    def piece(self, i: int, face=None) -> str:
        # a value kept per piece is told under the piece's name: of a hidden piece, its kind only
        if self.known is not None and i not in self.known:
            return self.words.hidden(i)
        return self._n.piece(i, face)

    def event(self, ev: dict) -> str:
        from ..constructs.registry import events
        if ev["event"] == "dead_end":
            return self._n.event(ev)
        return events()[ev["event"]][1](self, ev)


def face_down(words, state, seat, known_at) -> list:
    """The face-down choices the game still collects, one per chooser: everyone sees that the
    seat has chosen (a card face down before it); its chooser also reads what it chose."""
    log = state.log
    pending = pending_choices(state)
    if not pending:
        return []
    out = []
    for i in range(len(log) - _pending_events(log, pending), len(log)):
        ev = log[i]
        if ev["event"] != "choose" or not ev.get("hidden"):
            continue
        mine = seat is not None and seat in _choosers(words.game, ev)
        said = told(words, state, seat, known_at, log[:i + 1])[-1] if mine or seat is None else None
        out.append({"seat": ev["player"], "mine": mine, "text": said.strip() if said else None})
    return out
