"""`pass ZONE to the left` (or `right`): every player still in hands the whole of their own
zone to their neighbour at the same moment, as in passing hands round the table. Left is the
next player in the seating direction (who `next_player` names), right the one before.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language import syntax as S
from ..language.building import span
from ..language.syntax import Stmt
from ..printing.runs import Item, sentence
from .registry import nothing, register

SIDES = ("left", "right")


@dataclass(frozen=True)
class PassZones(Stmt):
    zone: str                   # a zone kept per player
    side: str                   # 'left' | 'right'


# ---------------------------------------------------------------- grammar
def _pass_zones(meta, c):
    return PassZones(span(meta), str(c[0]), str(c[1]))


GRAMMAR = {"pass_zones": _pass_zones}


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    if st.side not in SIDES:
        ck.error(st.span, f"pass to the '{st.side}'? A zone passes to the left or to the right",
                 ck.did_you_mean(st.side, list(SIDES)) or "write 'to the left' or 'to the right'")
    d = ck.declared.get(st.zone)
    ck.used.add(st.zone)
    if not isinstance(d, S.Zone):
        ck.error(st.span, f"'{st.zone}' is not a zone",
                 ck.did_you_mean(st.zone, lambda: [z.name for z in ck.of(S.Zone)]) or "declare it with 'zone NAME is KIND, per player'")
    elif d.per != "player":
        ck.error(st.span, f"'{st.zone}' is not kept per player, so there is nothing to pass round",
                 f"declare it 'zone {st.zone} is {d.kind}, per player'")


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    family = c.zones[st.zone]
    step = c.direction if st.side == "left" else -c.direction
    n, name, side = c.n, st.zone, st.side
    game = c

    def pass_round(s, ip=len(c.code)):
        seats = [p for p in range(n) if s.alive[p]]
        if len(seats) > 1:
            held = {p: list(s.zones[family[p]]) for p in seats}
            for p in seats:
                q = (p + step) % n
                while not s.alive[q]:
                    q = (q + step) % n
                s.zones[family[q]] = held[p]
                for piece in held[p]:
                    s.loc[piece] = family[q]
                    s.revealed[piece] = False
                    if s.looked:
                        s.looked.pop(piece, None)
            s.memo.clear()
            if s.log is not None:
                s.log.append({"event": "pass", "zone": name, "side": side})
            game.after_effect(s)
        return ip + 1
    c.emit(pass_round, owner, st.span)


# ---------------------------------------------------------------- reading
def read(v, st) -> Item:
    z = v.name(st.zone)
    ja_side, en_side = ("左", "left") if st.side == "left" else ("右", "right")
    return sentence(v, st, [("", "各プレイヤーは自分の")] + z + [("", f"を{ja_side}隣のプレイヤーに渡す。")],
                    [("", "Each player passes their ")] + z + [("", f" to the player on their {en_side}.")])


# ---------------------------------------------------------------- narration
def _narrate(n, ev) -> str:
    z = n.name(ev["zone"])
    return n.say(f"   各自の{z}を{'左' if ev['side'] == 'left' else '右'}隣へ渡す",
                 f"   everyone passes their {z} to the {ev['side']}")


# Passing moves a zone's pieces whole, in their order, into another zone of the same family:
# it reads no zone's order and makes none matter that did not already.
register(PassZones, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read,
         events={"pass": _narrate}, order=nothing)
