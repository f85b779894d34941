"""`show X to P`: a piece, or a zone's pieces, shown to one player or a group until they next move.

`reveal` shows to everyone; this shows privately: a look at another's hand, a card shown only
to who asked, an exchange seen only by its maker. Each looker knows the pieces as long as they
stay where they were seen (the state's `looked`, cleared wherever a piece moves or a die rolls);
every other seat learns only that they were shown. `show X to P secretly` is the look made while
everyone else has their eyes shut (hidden roles that know one another): the other seats do not
learn even that it happened, so their log leaves it out and the worlds their agents imagine
hold no trace of it (the seers are kept as `Unwitnessed`).

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.errors import RuleError
from ..engine.program import items_of
from ..engine.values import Piece, Player, Team, Unwitnessed, ZoneId
from ..language.building import span
from ..language.kinds import BOOL, NUM, PIECE, PLAYER, TEAM, TEXT, ZONE
from ..language.kinds import a as a_kind
from ..language.syntax import Expr, Stmt
from ..printing.runs import Item, sentence
from .registry import nothing, register


@dataclass(frozen=True)
class Look(Stmt):
    what: Expr          # a piece, a zone, or a collection of pieces
    whom: Expr          # a player, a team, or a collection of players
    secret: bool = False    # the other seats do not know of the look


# ---------------------------------------------------------------- grammar
def _look(meta, c):
    return Look(span(meta), c[0], c[1], bool(c[2]))


GRAMMAR = {"look": _look, "secretly": lambda meta, c: True}


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    what = ck.expr(st.what, scope)
    if what in (NUM, BOOL, TEXT, PLAYER, TEAM):
        ck.error(st.what.span, f"'show' shows a piece or a zone's pieces, and this is {a_kind(what)}",
                 "show a zone (`show hand(q) to p`), one piece (`show c to p`) or a collection of pieces")
    whom = ck.expr(st.whom, scope)
    if whom in (NUM, BOOL, TEXT, PIECE, ZONE):
        ck.error(st.whom.span, f"a piece is shown to a player, a team or a collection of players, and this is {a_kind(whom)}",
                 "e.g. `show c to p`, `show hand(q) to team_of(p)`; to show everyone, write `reveal`")


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    what = c.expr(st.what, env)
    whom = c.expr(st.whom, env)
    game = c
    secret = st.secret

    def nobody():
        return RuleError("no player", "there is no player to show this to", st.span)

    def lookers(s) -> tuple:
        w = whom(s)
        if isinstance(w, (Player, Team)):
            return tuple(game.players_in(w))
        if w is None:
            raise nobody()
        return tuple(p for x in w for p in game.players_in(x))

    def look(s, ip=len(c.code)):
        v = what(s)
        if v is None:
            raise RuleError("empty zone", "there is no piece to show", st.span)
        items = (v,) if type(v) is Piece else items_of(s, v)
        seers = frozenset(int(p) for p in lookers(s))
        if s.memo:
            s.memo.clear()
        for p in items:
            before = s.looked.get(p, ())
            # once a look at it was secret, nobody else may learn who knows the piece
            kept = Unwitnessed if secret or type(before) is Unwitnessed else tuple
            s.looked[p] = kept(sorted(seers.union(before)))
        if s.log is not None:
            s.log.append({"event": "look", "zone": game.zone_names[v] if isinstance(v, ZoneId) else None,
                          "pieces": [int(p) for p in items], "to": sorted(seers),
                          "shown": [s.face[p] if s.face[p] is not None else game.piece_label[p] for p in items],
                          **({"secret": True} if secret else {})})
        return ip + 1
    c.emit(look, owner, st.span)


# ---------------------------------------------------------------- reading
def read(v, st) -> Item:
    what, whom = v.expr(st.what), v.expr(st.whom)
    if st.secret:
        return sentence(v, st, [("", "ほかの全員が目を閉じている間に、")] + what + [("", "を")] + whom
                        + [("", "にだけ見せる(見せたことも他の人には分からない)。")],
                        [("", "While everyone else has their eyes shut, show ")] + what + [("", " to ")] + whom
                        + [("", " only (nobody else knows it was shown).")])
    return sentence(v, st, what + [("", "を")] + whom + [("", "にだけ見せる。")],
                    [("", "Show ")] + what + [("", " to ")] + whom + [("", " only.")])


# ---------------------------------------------------------------- narration
def _narrate(n, ev) -> str:
    game = n.game
    shown = ", ".join(n.piece(p, f) if game.kind_of[p] in game.faces else n.card(p)
                      for p, f in zip(ev["pieces"], ev["shown"])) or "-"
    who = ", ".join(n.player(p) for p in ev["to"])
    z = n.zone(ev["zone"]) if ev.get("zone") else None
    ja, en = ("(ひそかに)", " (secretly)") if ev.get("secret") else ("", "")
    if z is None:
        return n.say(f"   {who}に見せる{ja}: {shown}", f"   shown to {who}{en}: {shown}")
    return n.say(f"   {z}を{who}に見せる{ja}: {shown}", f"   {z} shown to {who}{en}: {shown}")


# a look changes no zone's order and reads none
register(Look, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read, events={"look": _narrate}, order=nothing)
