"""What happened at the table, in people's words: a line per thing a player did or that
happened to them, never the engine's bookkeeping (a variable set, a sub-rule entered, an open
question's provisional answer); a zone as the seat reading it calls it ("your cup" for its own,
"P2's cup" for another's).

The rulebook's worked examples and `replay` keep the Narrator's full trace; only the table
tells this shorter story. Which events a person must stop and look at (a `moment`) is decided
here too, from the kinds of events alone: no game is known.

May import: the language, the engine's values, printing's narrator.
"""
from __future__ import annotations

from ..engine.values import Piece, Player
from dataclasses import fields

from ..language import syntax as S
from ..language.syntax import Node
from ..printing.outcome import plural

# events nobody at a table tracks: told by the rulebook and `replay`, not at the table
_BOOKKEEPING = {"rule", "assume", "shuffle"}
# events a person must see before the game moves on: what was shown, who lost or won
MOMENT_KINDS = {"reveal", "eliminate", "end"}


def zone_title(n, name: str, seat) -> str:
    """A zone as `seat` reads it: its own per-player zone as 'your …' (the title's own 'your'
    where it has one), another seat's as 'P2's …' (in place of the title's 'your')."""
    base, _, rest = (name or "").partition("(")
    key = rest.rstrip(")")
    decl = next((z for z in n.game.rules.of(S.Zone) if z.name == base), None)
    if decl is None or decl.per != "player" or not key.isdigit():
        return n.zone(name)
    owner = int(key) - 1
    shown = n.name(base)
    whose = n.say(f"P{owner + 1}の", f"P{owner + 1}'s ")
    mine = seat is not None and owner == seat
    if n.lang == "ja":
        if "あなたの" in shown:
            return shown if mine else shown.replace("あなたの", whose)
        return ("あなたの" if mine else whose) + shown
    words = shown.split(" ")
    if "your" in words:
        return shown if mine else " ".join(whose.strip() if w == "your" else w for w in words)
    for lead in ("player's ", "your "):
        if shown.startswith(lead):
            shown = shown[len(lead):]
    return ("your " if mine else whose) + shown


def is_moment(ev: dict) -> bool:
    """Whether a person must see this event before the game moves on: a reveal, an
    elimination, the end (pieces changing owner: `moves_owner`)."""
    return ev["event"] in MOMENT_KINDS


def moves_owner(game, ev) -> bool:
    """A move or draw from one player's zone into another's (a card given, a trick taken)."""
    if ev["event"] not in ("move", "draw") or not ev.get("from"):
        return False
    at = {name: z for z, name in enumerate(game.zone_names)}
    a, b = game.zone_owner[at[ev["from"]]], game.zone_owner[at[ev["to"]]]
    return a is not None and b is not None and a != b


def line(n, ev: dict, seat, reason: list) -> str | None:
    """One event in people's words, or None where it is bookkeeping. `reason`: the titles of the
    triggers that fired just before, said with the next thing told (then emptied)."""
    k = ev["event"]
    if k in _BOOKKEEPING:
        return None
    if k == "trigger":
        reason.append(n.name(ev["name"]))
        return None
    if k in ("step", "phase"):
        return n.event(ev)
    said = _line(n, ev, seat)
    if said is not None and reason:
        said += n.say(f"({'、'.join(reason)})", f" ({'; '.join(reason)})")
        reason.clear()
    return said


def _key(n, whose: dict, seat) -> str:
    """One key of a value kept per two keys, as the seat may read it (a card it cannot see hidden)."""
    if "player" in whose:
        return n.player(whose["player"])
    if "team" in whose:
        return f"T{whose['team'] + 1}"
    if "piece" in whose:
        return n.card(whose["piece"])
    return zone_title(n, whose["zone"], seat) if "zone" in whose else _value(n, whose["key"])


def _line(n, ev: dict, seat) -> str | None:
    k = ev["event"]
    why = ""
    if k == "set":
        decl = n.game.var_decls.get(ev["name"])
        if "keys" in ev:        # kept per two keys: 'P1's progress for left'
            first, second = (_key(n, k, seat) for k in ev["keys"])
            return n.say(f"   {first}の{second}の{n.name(ev['name'])}: {_value(n, ev['value'])}{why}",
                         f"   {first}'s {n.name(ev['name'])} for {second} is now {_value(n, ev['value'])}{why}")
        if "piece" in ev:       # a value kept on a card: the card by its printed name, or hidden
            who = n.card(ev["piece"])
        elif decl is None or decl.per not in ("player", "team") or ("player" not in ev and "team" not in ev):
            return None     # a value for the game (whose turn, the bid) stands on its tile
        else:
            who = n.player(ev["player"]) if "player" in ev else f"T{ev['team'] + 1}"
        return n.say(f"   {who}の{n.name(ev['name'])}: {_value(n, ev['value'])}{why}",
                     f"   {who}'s {n.name(ev['name'])} is now {_value(n, ev['value'])}{why}")
    if k == "move":
        return _moved(n, ev, seat) + why
    if k == "reveal":
        shown = ", ".join(str(f) for f in ev.get("shown", [])) or "-"
        z = zone_title(n, ev["zone"], seat)
        return n.say(f"   {z}を公開: {shown}", f"   revealed {z}: {shown}") + why
    if k == "roll":
        faces = ", ".join(str(f) for f in ev["faces"])
        where = zone_title(n, ev["zone"], seat) if ev.get("zone") else ""
        return n.say(f"   {where}を振った: {faces}" if where else f"   振った目: {faces}",
                     f"   rolled {where}: {faces}" if where else f"   rolled: {faces}") + why
    if k == "draw":
        pieces = ev["pieces"]
        what = ", ".join(n.card(p) for p in pieces) if len(pieces) <= 2 else n.say(f"{len(pieces)}{n.counter(pieces)}", f"{len(pieces)} pieces")
        src, dst = zone_title(n, ev["from"], seat), zone_title(n, ev["to"], seat)
        return n.say(f"   {src}から{what}を{dst}へ", f"   {what} drawn from {src} to {dst}") + why
    if k == "end":
        return n.event(ev).strip() + (why if why else "")
    text = n.event(ev)
    return (text + why) if text is not None else None


def _value(n, v) -> str:
    return n.card(v) if type(v) is Piece else n.value(v)


def _moved(n, ev, seat) -> str:
    pieces = ev["pieces"]
    count = len(pieces)
    src = zone_title(n, ev["from"], seat) if ev.get("from") else None
    dst = zone_title(n, ev["to"], seat)
    if 0 < count <= 2 and all(n.card(p) != n.name(n.game.kind_of[p]) for p in pieces):
        what = n.say("、".join(n.card(p) for p in pieces), " and ".join(n.card(p) for p in pieces))
    else:
        kinds = {n.game.kind_of[p] for p in pieces}
        noun = n.name(next(iter(kinds))) if len(kinds) == 1 else n.say("", "pieces")
        what = n.say(f"{noun}{count}{n.counter(pieces)}", f"{count} {plural(noun) if count != 1 else noun}")
    return n.say(f"   {what}が{src + 'から' if src else ''}{dst}へ",
                 f"   {what} {'go' if count > 1 else 'goes'}{' from ' + src if src else ''} to {dst}")


def owner_of_piece(game, state, p: int):
    """The seat a piece belongs to: the player whose zone holds it, else its own owner (`count
    N per player`: a mark on the board); None for a piece of nobody's."""
    z = game.zone_owner[state.loc[p]]
    if type(z) is Player:
        return int(z)
    o = game.piece_owner[p]
    return int(o) if o is not None else None


# a seat's colour and, for those who cannot tell the colours apart, a shape: on its pieces, its
# area and its log lines (colours apart for the common kinds of colour blindness, and a shape each)
_COLOURS = ("#d1495b", "#2e6fdb", "#2a9d5c", "#e0a100", "#8e5bd6", "#1aa6b7", "#e07b39", "#6d6d6d")
_SHAPES = ("●", "▲", "■", "◆", "★", "✚", "⬟", "✖")


def seat_marks(players: int) -> list:
    return [{"seat": i, "name": f"P{i + 1}", "colour": _COLOURS[i % len(_COLOURS)],
             "shape": _SHAPES[i % len(_SHAPES)]} for i in range(players)]


def in_passing(game) -> frozenset:
    """The values for the game the rules only compute in passing, which no one at a real table
    keeps track of: every read of them says whose decision it is (the turn shows that), feeds
    another value being set, or follows a `set` of them in the same block (worked out and used
    at once: the tied highest cards). A value never read is there for the players: it stays. A
    designer's `tracked` or `not tracked` line on the value overrides the reading."""
    if not hasattr(game, "_table_in_passing"):
        names = set(game.var_slots) - set(game.pvar_slots)
        reads: dict = {}
        for d in game.rules.decls:
            _reads(d, names, frozenset(), False, reads)
        inferred = {n for n, how in reads.items() if how and all(how)}
        # the designer's `tracked` / `not tracked` line is the word the book follows too
        said = {c.name: c.tracked for c in game.rules.of(S.Counter) if c.tracked is not None}
        game._table_in_passing = frozenset({n for n in inferred if said.get(n) is not True}
                                           | {n for n, kept in said.items() if kept is False and n in names})
    return game._table_in_passing


def _reads(node, names, after_set: frozenset, feeding: bool, out: dict) -> None:
    """Each read of a name of `names` under `node`, as whether it is in passing."""
    if isinstance(node, S.Name) and node.id in names:
        out.setdefault(node.id, []).append(feeding or node.id in after_set)
        return
    if isinstance(node, S.Assign):
        if node.target.player is not None:
            _reads(node.target.player, names, after_set, True, out)
        _reads(node.value, names, after_set, True, out)
        return
    for f in fields(node):
        value = getattr(node, f.name)
        if isinstance(node, S.Choose) and f.name == "actor" and value is not None:
            _reads(value, names, after_set, True, out)
        elif isinstance(value, Node):
            _reads(value, names, after_set, feeding, out)
        elif isinstance(value, tuple):
            done = after_set
            for x in value:
                if isinstance(x, Node):
                    _reads(x, names, done, feeding, out)
                    if isinstance(x, S.Assign) and x.op == "set" and x.target.player is None:
                        done = done | {x.target.name}       # set here: read by what follows, in passing
                elif isinstance(x, tuple):      # a branch: (condition, body)
                    for y in x:
                        if isinstance(y, Node):
                            _reads(y, names, done, feeding, out)
                        elif isinstance(y, tuple):
                            for z in y:
                                if isinstance(z, Node):
                                    _reads(z, names, done, feeding, out)


def stale_values(game, log) -> set:
    """The values for the game set in an earlier round and not since: the last round's bid is
    no tile once the next round has begun. A round begins at the first step of the play's
    outermost `repeat`."""
    first = _round_step(game)
    if first is None:
        return set()
    begun = next((i for i in range(len(log) - 1, -1, -1)
                  if log[i]["event"] in ("step", "phase") and log[i]["name"] == first), None)
    if begun is None:
        return set()
    before = {ev["name"] for ev in log[:begun] if ev["event"] == "set"}
    since = {ev["name"] for ev in log[begun:] if ev["event"] == "set"}
    return before - since


def _round_step(game):
    if not hasattr(game, "_table_round_step"):
        from ..constructs.block import Block
        from ..constructs.repeat import Repeat
        flows = [d for d in game.rules.decls if getattr(d, "name", None) == "play" or type(d).__name__ == "Flow"]
        rep = next((x for d in flows for x in S.walk(d) if isinstance(x, Repeat)), None)
        step = next((x for x in S.walk(rep) if isinstance(x, Block) and x.kind in ("step", "phase")), None) \
            if rep is not None else None
        game._table_round_step = step.name if step is not None else None
    return game._table_round_step
