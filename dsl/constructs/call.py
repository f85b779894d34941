"""`f(args)`: a builtin, a value with parameters, an order's rank, one zone of a family
(`hand(p)`, `board(x, y)`), or one player's or team's counter (`progress(p, c)` where it is
kept per two keys).

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.builtins import BUILTINS
from ..engine.errors import RuleError
from ..engine.program import Env
from ..language import syntax as S
from ..language.building import span
from ..language.constants import COMPARISONS
from ..language.kinds import ANY, BOOL, COLL, NUM, PIECE, PLAYER, TEAM, WHO, ZONE, element_kind
from ..language.syntax import Expr
from ..printing import idioms, places
from ..printing.runs import Runs, fill, join, possessive, say
from ..printing.runs import plain as plain_text
from . import board, comprehension, do
from .counter import piece_position
from .registry import register
from .zone import one_of_family, one_per_piece, one_zone, zone_of_piece


@dataclass(frozen=True)
class Call(Expr):
    fn: str
    args: tuple[Expr, ...]


# ---------------------------------------------------------------- grammar
def _call(meta, c):
    return Call(span(meta), str(c[0]), tuple(a for a in c[1:] if a is not None))


GRAMMAR = {"call": _call}


# ---------------------------------------------------------------- checks
def check(ck, e, scope):
    fn = e.fn
    d = ck.declared.get(fn)
    args = e.args
    if d is not None:
        ck.used.add(fn)
        if isinstance(d, S.Zone):
            ck.whose(e, d, scope, "one shared zone", _key_kind(d.per))
            return ZONE
        if isinstance(d, S.Board):
            return board.check_space(ck, e, d, scope)
        if isinstance(d, S.Counter) and d.per2 is not None:
            check_pair(ck, e.span, d, args, scope)
            return NUM if d.kind == "counter" else ck.variable_kind(fn)
        if isinstance(d, S.Counter):
            ck.whose(e, d, scope, "one value for the whole game", _key_kind(d.per, ck.declared.get(d.per)))
            return NUM if d.kind == "counter" else ck.variable_kind(fn)
        if isinstance(d, S.Order):
            if len(args) != 1:
                ck.error(e.span, f"order '{fn}' ranks one card: {fn}(card)")
            for a in args:
                ck.expr(a, scope)
            return NUM
        if isinstance(d, S.Define):
            if len(args) != len(d.params):
                ck.error(e.span, f"'{fn}' takes {len(d.params)} argument(s), not {len(args)}")
            for a in args:
                ck.expr(a, scope)
            return ck.value_kind(d)
        ck.error(e.span, f"'{fn}' is a {type(d).__name__.lower()} and cannot be called")
        return ANY
    b = BUILTINS.get(fn)
    if b is None:
        candidates = lambda: list(BUILTINS) + [x.name for x in ck.rules.decls   # noqa: E731
                                               if isinstance(x, (S.Zone, S.Define, S.Order, S.Counter))]
        hint = "the player in seat 1 is `player(1)`; a player's seat number is `seat(p)`" \
            if fn in ("seat_of", "player_in_seat", "nth_player") else ck.did_you_mean(fn, candidates)
        ck.error(e.span, f"unknown function '{fn}'", hint)
        for a in args:
            ck.expr(a, scope)
        return ANY
    lo, hi = b.arity
    if not lo <= len(args) <= hi:
        want = f"{lo}" if lo == hi else f"{lo} to {hi}"
        ck.error(e.span, f"'{fn}' takes {want} argument(s), not {len(args)}")
    if fn in board.GEOMETRY:
        board.check_geometry(ck, e, scope)
        return b.returns
    kinds = _ARG_KINDS.get(fn, ())
    if fn in ("max", "min"):
        kinds = (COLL,) if len(args) == 1 else (NUM,) * len(args)
    got = []
    for i, a in enumerate(args):
        want = kinds[i] if i < len(kinds) else None
        got.append(ck.expr(a, scope, want=want))
        if got[-1] == COLL and want == NUM:     # `players` passes expr's test
            ck.error(a.span, "expected a number here, but this is a collection")
    if fn == "player" and len(args) == 1:
        _check_seat(ck, args[0])
    if fn in ("first", "top") and args:
        # the first of the players is a player, the top of a zone a piece: so a variable set to it has a kind
        return element_kind(args[0]) if element_kind(args[0]) != ANY else PIECE if got[0] == ZONE else ANY
    return b.returns


def _check_seat(ck, arg):
    """`player(k)` with k written as a number: a seat every player count of the game has."""
    k = arg.value if isinstance(arg, S.Num) else -arg.operand.value \
        if isinstance(arg, S.Unary) and arg.op == "-" and isinstance(arg.operand, S.Num) else None
    g = ck.game
    if k is None or g is None or 1 <= k <= g.min_players:
        return
    if k < 1:
        ck.error(arg.span, f"there is no seat {k}: seats are numbered from 1", "the first player is `player(1)`")
    else:
        ck.error(arg.span, f"there is no seat {k} with {g.min_players} players (the game is for "
                           f"{g.min_players} to {g.max_players})",
                 "name that player another way (`next_player(p)`, `top(players)` for the last seat), "
                 "or raise the smallest player count on the `players` line")


def check_pair(ck, where, d, args, scope) -> None:
    """NAME(x, y) of a counter kept per two keys: both keys, each of its own kind."""
    keys = (d.per, d.per2)
    if len(args) != 2:
        ck.error(where, f"'{d.name}' is kept per {d.per} and per {d.per2}: say both, e.g. {d.name}({d.per[0]}, {d.per2[0]})",
                 "a value kept per two keys is read and set with both, first the one written first")
    for a, per in zip(args, keys + (None,) * len(args)):
        ck.expr(a, scope, want=_key_kind(per, ck.declared.get(per)) if per else None)


def _key_kind(per, declared=S.NOWHERE):
    """What NAME(x) of a zone or counter kept `per` something takes: a player, a team, a piece
    (player 0 and piece 0 are the same number during play, so only the checker can tell them
    apart), a zone of a family, or for a card attribute's values any kind."""
    if per in ("player", "team", None):
        return {"player": PLAYER, "team": TEAM, None: None}[per]
    if declared is S.NOWHERE or isinstance(declared, S.Component):      # a zone is kept per component only
        return PIECE
    return ZONE if isinstance(declared, S.Zone) and declared.per else None


# What an argument must be where any other kind could only fail during play (the rest take anything).
_ARG_KINDS = {"count": (COLL,), "sum": (COLL,), "first": (COLL,), "top": (COLL,), "empty": (COLL,), "abs": (NUM,),
              "size": (COLL,), "contains": (COLL,), "next_player": (PLAYER,), "previous_player": (PLAYER,),
              "team_of": (PLAYER,), "members": (TEAM,), "alive": (WHO,), "seat": (PLAYER,), "holder": (PIECE,),
              "zone_of": (PIECE,), "wild": (PIECE,),
              "player": (NUM,)}


# ---------------------------------------------------------------- compilation
def compile(c, e, env):
    fn = e.fn
    if fn in c.board_sizes:
        return board.compile_space(c, e, env)
    if fn in c.zones and isinstance(c.zones[fn], tuple) and len(e.args) == 1:
        return family_member(c, e, env)
    if fn in c.pvar_slots and fn in c.pair_width:
        i, at = c.pvar_slots[fn], piece_position(c, fn, e.span)
        a, b = (c.expr(x, env) for x in e.args)
        return lambda s: s.pvars[i][at((a(s), b(s)))]
    if fn in c.pvar_slots:
        i = c.pvar_slots[fn]
        a = c.expr(e.args[0], env)
        at = piece_position(c, fn, e.span)
        if at is not None:
            return lambda s: s.pvars[i][at(a(s))]
        return lambda s: s.pvars[i][a(s)]
    if fn in c.orders:
        attr, strength = c.orders[fn]
        a = c.expr(e.args[0], env)
        column = c.attribute_column(attr, strength)
        return lambda s: column[a(s)]
    if fn in c.defines:
        d = c.defines[fn]
        args = [c.expr(x, env) for x in e.args]
        return c.expr(d.expr, Env(c, {}, bound=dict(zip(d.params, args))))
    b = BUILTINS.get(fn)
    if b is None:
        raise RuleError("name", f"unknown function '{fn}'", e.span)
    if fn == "wild" and len(e.args) == 1 and isinstance(e.args[0], S.Name) and e.args[0].id in env.locals:
        wild_of = [c.wild_face.get(k) for k in c.kind_of]
        li = env.locals[e.args[0].id]

        def wild(s):
            p = s.loc_slots[li]
            w = wild_of[p]
            return w is not None and s.face[p] == w
        return wild
    if fn == "count" and len(e.args) == 1:
        src = c.new_source()
        fast = fast_count(src, e.args[0], env)
        if fast is not None:
            return src.function("s", fast)
    impl = b.impl
    args = []
    for k, x in enumerate(e.args):
        last = k == len(e.args) - 1
        if isinstance(x, S.Comprehension):
            args.append(comprehension.compile(c, x, env, result="ranked" if b.ranks and last else None))
        elif b.ranks and last:
            args.append(_ranked_by_itself(c.collection(x, env)))
        else:
            args.append(c.expr(x, env))
    if len(args) == 0:
        return lambda s: impl(s)
    if len(args) == 1:
        a0 = args[0]
        return lambda s: impl(s, a0(s))
    if len(args) == 2:
        a0, a1 = args
        return lambda s: impl(s, a0(s), a1(s))
    return lambda s: impl(s, *[a(s) for a in args])


def generate(src, e, env):
    """The cases of `compile` that read a table or call a built-in, as code; a board's space stays
    a closure."""
    c, fn = src.c, e.fn
    if fn in c.board_sizes:
        return None
    if fn in c.zones and isinstance(c.zones[fn], tuple):
        if one_of_family(c, e):
            return f"{src.value(c.zones[fn])}[{src.sub(e.args[0], env)}]"
        if one_per_piece(c, e):
            return f"{src.value(zone_of_piece(c, fn, e.span))}({src.sub(e.args[0], env)})"
        return None
    if fn in c.pair_width:
        return None         # a pair's position stays a closure
    if fn in c.pvar_slots:
        key = src.sub(e.args[0], env)
        at = piece_position(c, fn, e.span)
        return f"s.pvars[{c.pvar_slots[fn]}][{key if at is None else f'{src.value(at)}({key})'}]"
    if fn in c.orders:
        attr, strength = c.orders[fn]
        return f"{src.value(c.attribute_column(attr, strength))}[{src.sub(e.args[0], env)}]"
    if fn in c.defines:
        d = c.defines[fn]
        args = [c.expr(x, env) for x in e.args]
        return src.sub(d.expr, Env(c, {}, bound=dict(zip(d.params, args))))
    b = BUILTINS.get(fn)
    if b is None:
        return None
    if fn == "wild" and len(e.args) == 1 and isinstance(e.args[0], S.Name) and e.args[0].id in env.locals:
        # each piece's wild face, or a value no face equals (the closure's `w is not None`)
        wild_of = tuple(_NO_FACE if w is None else w for w in (c.wild_face.get(k) for k in c.kind_of))
        piece = src.sub(e.args[0], env)
        return f"(s.face[{piece}] == {src.value(wild_of)}[{piece}])"
    if fn == "count" and len(e.args) == 1:
        fast = fast_count(src, e.args[0], env)
        if fast is not None:
            return fast
    if fn == "holder":              # the owner of the zone the piece is in
        return f"{src.value(c.zone_owner)}[s.loc[{src.sub(e.args[0], env)}]]"
    if b.of_items and (one_zone(c, e.args[0], env) or c.never_one_zone(e.args[0], env)):
        # the items (builtins._items) of one zone are its own list; of any other collection, itself
        x, v = e.args[0], src.value
        items = f"s.zones[{src.sub(x, env)}]" if one_zone(c, x, env) else \
            src.call(comprehension.compile(c, x, env)) if isinstance(x, S.Comprehension) else src.sub(x, env)
        return b.of_items.format(items, len=v(len), sum=v(sum), next=v(next), iter=v(iter), reversed=v(reversed))
    if b.of_args and len(e.args) > 1:
        return b.of_args.format(args=", ".join(src.sub(x, env) for x in e.args), max=src.value(max), min=src.value(min))
    args = []
    for k, x in enumerate(e.args):
        last = k == len(e.args) - 1
        if isinstance(x, S.Comprehension):
            args.append(src.call(comprehension.compile(c, x, env, result="ranked" if b.ranks and last else None)))
        elif b.ranks and last:
            args.append(src.call(_ranked_by_itself(c.collection(x, env))))
        else:
            args.append(src.sub(x, env))
    return f"{src.value(b.impl)}({', '.join(['s', *args])})"


_NO_FACE = object()


def _ranked_by_itself(coll):
    """A collection ranked by its items themselves: `highest(hand(p))`, as (items, keys)."""
    def ranked(s):
        items = tuple(coll(s))
        return items, items
    return ranked


def fast_count(src, arg, env):
    """count() of a zone, of every zone of a family, of one zone of a family, of the players
    still in, or of a comprehension, as code counting without gathering; None for any other."""
    c, v = src.c, src.value
    if isinstance(arg, Call) and arg.fn == "alive_players" and not arg.args:
        # a player out for the round is None there, out for good False: count what is truthy
        return f"{v(sum)}({v(map)}({v(bool)}, s.alive))"
    if isinstance(arg, Call) and arg.fn == "all" and len(arg.args) == 1 \
            and isinstance(arg.args[0], S.Name) and isinstance(c.zones.get(arg.args[0].id), tuple):
        return f"{v(sum)}([{v(len)}(s.zones[z]) for z in {v(c.zones[arg.args[0].id])}])"
    if isinstance(arg, Call) and isinstance(c.zones.get(arg.fn), tuple) and len(arg.args) == 1 \
            and arg.fn not in c.board_sizes:
        return f"{v(len)}(s.zones[{src.sub(arg, env)}])"
    if isinstance(arg, S.Comprehension) and arg.item is None:
        return src.call(comprehension.compile(c, arg, env, result="count"))
    return None


def family_member(c, e, env):
    """`NAME(key)` of a zone kept per player, per team or per piece: one zone."""
    fam, fn = c.zones[e.fn], e.fn
    a = c.expr(e.args[0], env)
    if c.family_index.get(fn) is None:
        return lambda s: fam[a(s)]
    member = zone_of_piece(c, fn, e.span)
    return lambda s: member(a(s))


# ---------------------------------------------------------------- reading
def read(v, e) -> Runs:
    args = [v.expr(a) for a in e.args]
    if e.fn == "first" and isinstance(e.args[0], S.Name) and e.args[0].id == "players":
        return [("", say(v.lang, "席1のプレイヤー", "the player in seat 1"))]
    if e.fn == "contains" and e.fn not in v.kinds and isinstance(e.args[0], S.Range):
        # a number within a range: 'the guess is from 4 to 6', 「予想が4〜6のどれか」
        lo, hi = v.expr(e.args[0].low), v.expr(e.args[0].high)
        return say(v.lang, args[1] + [("", "が")] + lo + [("", "〜")] + hi + [("", "のどれか")],
                   args[1] + [("", " is from ")] + lo + [("", " to ")] + hi)
    if e.fn == "player" and e.fn not in v.kinds and isinstance(e.args[0], S.Num):
        k = e.args[0].value          # a seat written as a number is a name, as in 'seat 1', not an amount
        return [("", say(v.lang, f"席{k}のプレイヤー", f"the player in seat {k}"))]
    if e.fn in ("highest", "lowest", "nth_highest") and isinstance(e.args[-1], S.Comprehension) \
            and e.args[-1].item is not None and e.fn not in v.kinds:
        most = {"highest": ("最も大きい", "highest"), "lowest": ("最も小さい", "lowest")}.get(e.fn)
        if most is None:
            n = plain_text(args[0])
            most = (f"{n}番目に大きい", f"{_nth(n)} highest")
        return comprehension.ranked(v, e.args[-1], most)
    if e.fn == "all" and e.fn not in v.kinds and isinstance(e.args[0], S.Name) \
            and (everywhere := places.every_place(v, e.args[0].id)):
        return everywhere                                   # 'on every space'
    if e.fn == "holder" and e.fn not in v.kinds and (place := places.read_holder(v, e.args[0], args[0])):
        return place                                        # 'the place that piece is in'
    if e.fn == "all" and isinstance(e.args[0], S.Name) and isinstance(v.kinds.get(e.args[0].id), S.Board):
        return say(v.lang, args[0] + [("", "の上のもの")], [("", "what lies on ")] + args[0])
    if e.fn == "first" and e.fn not in v.kinds and isinstance(e.args[0], S.Name) and e.args[0].id in v.singles:
        return args[0]          # within `count(X) = 1`: the one X
    state = idioms.state_filter(v, e.args[0].var, e.args[0].coll, e.args[0].cond) \
        if e.fn == "first" and e.fn not in v.kinds and isinstance(e.args[0], S.Comprehension) and e.args[0].item is None else None
    if state is not None and state[1] is None:
        # the first of those in a state is the one in the lowest seat: 'the player in the lowest seat who is still in'
        noun, title = v.noun(e.args[0].coll), v.title(state[0])
        verb = "" if title.split(" ")[0] in idioms.VERBS else "is "
        return say(v.lang, [("term", title), ("", f"{noun[0]}のうち、席番号が最も小さい{noun[0]}")],
                   [("", f"the {noun[1]} in the lowest seat who {verb}"), ("term", title)])
    ranked = idioms.ranking(v, e.args[0]) if e.fn == "first" and e.fn not in v.kinds else None
    if ranked is not None:
        one = args[0]
        if v.lang == "en" and one and one[0][1].startswith("those "):
            one = [(one[0][0], "the one " + one[0][1][len("those "):])] + one[1:]
        return one + [("", say(v.lang, f"({idioms.tie_order(v, ranked)})", f" ({idioms.tie_order(v, ranked)})"))]
    if e.fn in ("next_player", "previous_player") and e.fn not in v.kinds and v.eliminates:
        # those out of the game are skipped: 'the next player still in after the challenger'
        return say(v.lang, args[0] + [("", "の" + ("次" if e.fn == "next_player" else "前") + "の、まだ残っているプレイヤー")],
                   [("", ("the next" if e.fn == "next_player" else "the previous") + " player still in after ")] + args[0])
    if e.fn in ("min", "max") and e.fn not in v.kinds and len(args) > 1:
        # 'the smaller of that player's food and 3', 「フードと3の小さい方」: every value said
        two = len(args) == 2
        ja = ("小さい方" if e.fn == "min" else "大きい方") if two else ("最も小さいもの" if e.fn == "min" else "最も大きいもの")
        en = ("the smaller of " if e.fn == "min" else "the larger of ") if two else \
            ("the smallest of " if e.fn == "min" else "the largest of ")
        if v.lang == "ja":
            return join(args, "と" if two else "、") + [("", "の" + ja if two else "のうち" + ja)]
        return [("", en)] + join(args[:-1], ", ") + [("", " and ")] + args[-1]
    if e.fn in BUILTINS and e.fn not in v.kinds:
        b = BUILTINS[e.fn]
        template = board.say_geometry(v, e, say(v.lang, b.ja, b.en))
        if v.lang == "ja" and e.args and v.subject(e.args[0]) and template[3:4] in ("が", "の"):
            template = template[4:]         # 「目がワイルド」, not 「それがワイルド」
        return fill(template, args)
    decl = v.kinds.get(e.fn)
    if isinstance(decl, S.Board) and decl.shape != "grid" and len(args) == 1:
        return board.read_label(v, e, args)
    if isinstance(decl, S.Board) and decl.gravity and len(args) == 1:
        return board.read_drop(v, e, args)
    if isinstance(decl, S.Board) and len(args) == 2:
        return board.read_space(v, e, args)
    if isinstance(decl, S.Order) and v.subject(e.args[0]):
        return v.name(e.fn, article=False)
    if isinstance(decl, S.Order):
        return args[0] + [("", "の")] + v.name(e.fn) if v.lang == "ja" else v.name(e.fn) + [("", " of ")] + args[0]
    if isinstance(decl, S.Counter) and len(args) == 2:
        return idioms.kept_for(v, args[0], args[1], v.name(e.fn, article=False))
    if isinstance(decl, (S.Zone, S.Counter)) and len(args) == 1 and v.subject(e.args[0]):
        return v.name(e.fn, article=False)          # 'the player with the highest tribe points'
    if isinstance(decl, S.Zone) and len(args) == 1 and (placed := places.owned_place(v, e.fn, args[0])):
        return placed                                       # 'on that space', not "that space's on a space"
    if isinstance(decl, (S.Zone, S.Counter)) and len(args) == 1:
        # a player's own zone or counter
        return possessive(v.lang, args[0], v.name(e.fn, article=False))
    if isinstance(decl, S.Define) and len(args) > 1 and _is_condition(decl.expr, v.kinds):
        said = _condition_of(v, e, decl, args)
        if said is not None:
            return said
    if isinstance(decl, S.Define) and len(args) == 1:
        title = v.name(e.fn, article=False)
        if _is_condition(decl.expr, v.kinds):
            # a named condition reads as what it says of its argument: 「そのカードがジョーカー」
            if v.lang == "ja":
                # 「そのカードがジョーカー」; 「そのメンバーはライフがある」 where the title has its own が
                particle = "は" if "が" in plain_text(title) else "が"
                return ([] if v.subject(e.args[0]) else args[0] + [("", particle)]) + title
            verb = "" if plain_text(title).split(" ")[0] in idioms.VERBS else "is "
            return args[0] + [("", " " + verb)] + title
        if v.subject(e.args[0]):
            return title
        return possessive(v.lang, args[0], title)
    # values that are themselves joined ('the smaller of A and B') are set apart more strongly
    inner = any(say(v.lang, "と", " and ") in plain_text(a) for a in args)
    joined = join(args, say(v.lang, "、" if inner else "と", "; " if inner else " and "))
    return v.name(e.fn, article=False) + ([("", say(v.lang, "(", " ("))] + joined + [("", ")")] if args else [])


def _condition_of(v, e, decl, args: list[Runs]) -> Runs | None:
    """A named condition of several values says it of the one it names, the others after it:
    「そのマスがワーカーを置けるマス(そのプレイヤーについて、…)」, not 「ワーカーを置けるマス(そのプレイヤーと
    そのマスと…)」. The one it names: a filter's item, else the value whose noun the title holds."""
    title = plain_text(v.name(e.fn, article=False))
    which = [i for i, a in enumerate(e.args) if v.subject(a)] or \
        [i for i, a in enumerate(e.args) if v.value_noun(a)[0 if v.lang == "ja" else 1] in title
         and v.value_noun(a) != ("もの", "item")]
    if len(which) != 1:
        return None
    k = which[0]
    others = [a for i, a in enumerate(args) if i != k]
    rest = do.given_values(v, [p for i, p in enumerate(decl.params) if i != k],
                           [x for i, x in enumerate(e.args) if i != k], others)
    name = v.name(e.fn, article=False)
    if v.lang == "ja":
        return ([] if v.subject(e.args[k]) else args[k] + [("", "が")]) + name + rest
    verb = "" if title.split(" ")[0] in idioms.VERBS else "is "
    return args[k] + [("", " " + verb)] + name + rest


def _nth(n: str) -> str:
    return {"1": "", "2": "second", "3": "third"}.get(n, n + "th")


def _is_condition(x, kinds, seen=()) -> bool:
    if isinstance(x, S.Binary):
        return x.op in COMPARISONS or x.op in ("and", "or")
    if isinstance(x, S.Unary):
        return x.op == "not"
    if isinstance(x, S.IfExpr):         # 'if trumps were played then a trump else the colour led'
        return _is_condition(x.then, kinds, seen) and _is_condition(x.other, kinds, seen)
    if isinstance(x, S.Call) and isinstance(kinds.get(x.fn), S.Define) and x.fn not in seen:
        return _is_condition(kinds[x.fn].expr, kinds, (*seen, x.fn))     # a named condition of a named condition
    if isinstance(x, S.Call):
        b = BUILTINS.get(x.fn)
        return b is not None and b.returns == BOOL
    return False


# ---------------------------------------------------------------- analyses
def order(e, use):
    use.calls(e.fn, e.args)


def sources(e, use):
    use.call_sources(e.fn, e.args)


register(Call, "expression", grammar=GRAMMAR, check=check, compile=compile, generate=generate, read=read, order=order, sources=sources)
