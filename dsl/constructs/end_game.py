"""`end game`: the game ends, with winners named, ranked by keys (ties shared or not), or with a
pay-off for each player (a poker-like +1 or +2), the highest of which win.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..engine.errors import RuleError
from ..engine.values import Player
from ..language import syntax as S
from ..language.building import span
from ..language.kinds import COLL, NUM, PLAYER, TEAM, element_kind
from ..language.syntax import Expr, Node, Stmt
from ..printing.runs import Item, Runs, bare, say, sentence
from .registry import register


@dataclass(frozen=True)
class RankKey(Node):
    direction: str              # 'highest' | 'lowest'
    expr: Expr


@dataclass(frozen=True)
class EndGame(Stmt):
    winners: Optional[Expr]                 # a collection of players
    keys: tuple[RankKey, ...] = ()          # or: rank the players by keys
    var: str = ""
    coll: Optional[Expr] = None
    ties_share: bool = False
    payoff: Optional[Expr] = None           # or: each player of `coll` (as `var`) gets this number


# ---------------------------------------------------------------- grammar
def _end_game(meta, c):
    return EndGame(span(meta), c[0])


def _rank_key(meta, c):
    return RankKey(c[0], c[1])


def _ranking(meta, c):
    keys = tuple(k for k in c if isinstance(k, RankKey))
    rest = [k for k in c if not isinstance(k, RankKey)]
    return keys, str(rest[0]), rest[1], bool(rest[2])


def _end_ranked(meta, c):
    keys, var, coll, share = c[0]
    return EndGame(span(meta), None, keys, var, coll, share)


def _end_payoff(meta, c):
    return EndGame(span(meta), None, var=str(c[1]), coll=c[2], payoff=c[0])


GRAMMAR = {"end_game": _end_game, "rank_key": _rank_key, "ranking": _ranking, "end_ranked": _end_ranked,
           "end_payoff": _end_payoff}


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    if (st.keys or st.payoff is not None) and ck.of(S.Cooperative):
        ck.error(st.span, "in a cooperative game the players win or lose together; a ranking or pay-offs set them apart",
                 "end with 'end game winners players' (the team wins) or 'end game' (the team loses), "
                 "and measure how well with 'cooperative score NAME'")
    if st.winners is not None:
        ck.expr(st.winners, scope, want=COLL)
    if st.keys or st.payoff is not None:
        ck.expr(st.coll, scope, want=COLL)
        if st.payoff is not None and element_kind(st.coll) == TEAM:
            ck.error(st.coll.span, "pay-offs are for players, not teams",
                     f"pay each member: `for {st.var} in players`, with the team's amount as `...(team_of({st.var}))`")
        inner = scope.child(**{st.var: PLAYER})
        for e in [k.expr for k in st.keys] + ([st.payoff] if st.payoff is not None else []):
            ck.expr(e, inner, want=NUM)


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    game = c
    span = st.span
    if st.winners is not None:
        winners = c.collection(st.winners, env)
        every = tuple(c._players) if c.cooperative else None

        def end(s):
            w = tuple(sorted({p for x in winners(s) for p in game.players_in(x)}))
            if every is not None and w:
                w = every           # one winner in a cooperative game is the team's win
            s.outcome = w
            if s.log is not None:
                s.log.append({"event": "end", "winners": [int(p) for p in w]})
            return -1
        c.emit(end, owner, span)
        return
    if st.keys:
        slot = env.new_slot(st.var)
        inner = env.with_local(st.var, slot)
        coll = c.collection(st.coll, env)
        keys = [(k.direction, c.expr(k.expr, inner)) for k in st.keys]
        share = st.ties_share

        def end_ranked(s):
            cands = list(coll(s))
            for direction, key in keys:
                scored = []
                for p in cands:
                    s.loc_slots[slot] = p
                    scored.append((key(s), p))
                best = (max if direction == "highest" else min)(v for v, _ in scored) if scored else None
                cands = [p for v, p in scored if v == best]
                if len(cands) <= 1:
                    break
            if len(cands) > 1 and not share:
                raise RuleError("tie not covered",
                                f"{len(cands)} players tie for the win and the rules do not break the tie", span,
                                tuple(sorted(cands)))
            s.outcome = tuple(sorted(cands))
            if s.log is not None:
                s.log.append({"event": "end", "winners": [int(p) for p in s.outcome]})
            return -1
        c.emit(end_ranked, owner, span)
        return
    if st.payoff is not None:
        c.emit(_paying(c, st, env), owner, span)
        return
    c.emit(lambda s: (setattr(s, "outcome", ()) or -1), owner, span)


def _paying(c, st, env):
    """The instruction that ends the game with a pay-off per player: seats not in the
    collection get 0, and the winners are the listed players with the highest pay-off."""
    slot = env.new_slot(st.var)
    coll = c.collection(st.coll, env)
    payoff = c.expr(st.payoff, env.with_local(st.var, slot))
    n, span = c.n, st.span

    def end_paying(s):
        paid: dict = {}
        for p in coll(s):
            if not isinstance(p, Player):
                raise RuleError("evaluation failed", f"pay-offs go to players, and {p!r} is not one", span)
            s.loc_slots[slot] = p
            v = payoff(s)
            if not isinstance(v, int) or isinstance(v, bool):
                raise RuleError("evaluation failed", f"the pay-off of {p!r} is {v!r}, not a number", span)
            paid[int(p)] = v
        best = max(paid.values(), default=None)
        s.payoffs = tuple(paid.get(i, 0) for i in range(n))
        s.outcome = tuple(Player(i) for i in sorted(paid) if paid[i] == best)
        if s.log is not None:
            s.log.append({"event": "end", "winners": [int(p) for p in s.outcome], "payoffs": list(s.payoffs)})
        return -1
    return end_paying


# ---------------------------------------------------------------- reading
def read(v, st) -> Item:
    if st.var:
        with v.bound(st.var, v.noun(st.coll), subject=True):
            return _read(v, st)
    return _read(v, st)


def _one(winners) -> bool:
    """`winners [p]` names one winner: the sentence's verb agrees."""
    return isinstance(winners, S.ListLit) and len(winners.items) == 1


def _read(v, st) -> Item:
    if st.payoff is not None:
        x = v.expr(st.payoff)
        every = isinstance(st.coll, S.Name) and st.coll.id == "players"
        who_ja = [("", "各プレイヤー")] if every else v.expr(st.coll) + [("", "それぞれ")]
        who_en = [("", "each player")] if every else [("", "each of ")] + v.expr(st.coll)
        return sentence(v, st, [("", "ゲーム終了。")] + who_ja + [("", "の収支は")] + x
                        + [("", "(負なら支払い)。収支が最も多いプレイヤーの勝ち。")],
                        [("", "The game ends: ")] + who_en + [("", " is paid ")] + x
                        + [("", " (pays when it is negative), and the highest pay-off wins.")])
    if not st.keys:
        coop = bool(v.rules.of(S.Cooperative))
        if st.winners is None:
            if coop:
                return sentence(v, st, [("", "ゲーム終了。チームの負け。")], [("", "The game ends: the team loses.")])
            return sentence(v, st, [("", "ゲーム終了。勝者はいない。")], [("", "The game ends with no winner.")])
        if coop:
            return sentence(v, st, [("", "ゲーム終了。チーム全員の勝ち。")], [("", "The game ends: the team wins.")])
        w = v.expr(st.winners)
        return sentence(v, st, [("", "ゲーム終了。")] + w + [("", "の勝ち。")],
                         [("", "The game ends: ")] + w + [("", " wins." if _one(st.winners) else " win.")])
    keys_ja: Runs = []
    keys_en: Runs = []
    for i, k in enumerate(st.keys):
        x = v.expr(k.expr)
        # a count is many or few in Japanese, a score high or low
        counted = isinstance(k.expr, S.Call) and k.expr.fn == "count"
        most = {"highest": ("最も多い" if counted else "最も高い", "highest"),
                "lowest": ("最も少ない" if counted else "最も低い", "lowest")}[k.direction]
        keys_ja += ([("", "、同じなら")] if i else []) + x + [("", "が" + most[0])]
        keys_en += ([("", ", then the " + most[1] + " ")] if i else [("", "the " + most[1] + " ")]) + bare(x)
    ties = say(v.lang, "同点のプレイヤーは勝利を分け合う。" if st.ties_share else "同点のときの決め方はルールに書かれていない。",
               " Players who tie share the win." if st.ties_share else " The rules do not say who wins a tie.")
    return sentence(v, st, [("", "ゲーム終了。")] + keys_ja + [("", "プレイヤーの勝ち。" + ties)],
                     [("", "The game ends. The player with ")] + keys_en + [("", " wins." + ties)])


# ---------------------------------------------------------------- narration
def _narrate(n, ev) -> str:
    ws = ", ".join(n.player(p) for p in ev["winners"])
    paid = ", ".join(f"{n.player(i)} {v:+d}" for i, v in enumerate(ev.get("payoffs", ())))
    return n.say(f"ゲーム終了。{'収支: ' + paid + '。' if paid else ''}勝者: {ws or 'なし'}",
                 f"Game over. {'Pay-offs: ' + paid + '. ' if paid else ''}"
                 f"Winner{'s' if len(ev['winners']) != 1 else ''}: {ws or 'nobody'}")


# ---------------------------------------------------------------- analyses
def order(st, use):
    if st.var:
        use.binds_local(st.var)


register(EndGame, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read, events={"end": _narrate}, order=order)
