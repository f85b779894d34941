"""`P chooses: option ...` and `each X in C chooses ...` (at the same time, face down): a
player's decision among named options with parameters from ranges or collections.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass
from typing import Optional

from ..engine.choice_playout import in_play_out, no_actor
from ..engine.errors import RuleError
from ..engine.program import Choice, Label, OptionInfo, mentions, split_bounds
from ..engine.source import constant
from ..engine.values import Player, Team
from ..engine.values import plain as plain_value
from ..language.building import body_of, span
from ..language.kinds import ANY, BOOL, COLL, NUM, WHO, element_kind
from ..language.kinds import a as a_kind
from ..language import syntax as S
from ..language.syntax import Expr, Node, Span, Stmt, Text
from ..printing import idioms
from ..printing.blocks import condition
from ..printing.runs import Item, Runs, join, notes_of, say, that, title_of
from ..printing.runs import plain as plain_text
from .registry import register
from .zone import one_zone


@dataclass(frozen=True)
class Param(Node):
    name: str
    low: Expr                   # a collection when high is None
    high: Optional[Expr]
    span: Span


@dataclass(frozen=True)
class Option(Node):
    name: str
    params: tuple[Param, ...]
    where: Optional[Expr]
    available: Optional[Expr]
    texts: tuple[Text, ...]
    body: tuple[Stmt, ...]
    span: Span
    alike: tuple[tuple[str, ...], ...] = ()     # each `a, b from Z`: parameters chosen as one set, in no order


@dataclass(frozen=True)
class Choose(Stmt):
    actor: Optional[Expr]       # None for a simultaneous choice
    options: tuple[Option, ...]
    each_var: str = ""          # simultaneous: each <var> in <coll> ...
    each_coll: Optional[Expr] = None


# ---------------------------------------------------------------- grammar
def _param(meta, c):
    return Param(str(c[0]), c[1], c[2], span(meta))


@dataclass(frozen=True)
class _Alike:
    """`a, b from Z` as parsed: one parameter per name, each from Z."""
    params: tuple[Param, ...]


def _alike_param(meta, c):
    return _Alike(tuple(Param(str(n), c[-1], None, span(meta)) for n in c[:-1]))


def _params(items) -> tuple[tuple[Param, ...], tuple[tuple[str, ...], ...], list]:
    """The parameters among parsed items (each set `a, b from Z` spread out), the names of each
    set's, and the other items."""
    params, alike, rest = [], [], []
    for x in items:
        if isinstance(x, _Alike):
            params += x.params
            alike.append(tuple(p.name for p in x.params))
        elif isinstance(x, Param):
            params.append(x)
        else:
            rest.append(x)
    return tuple(params), tuple(alike), rest


def _option(meta, c):
    name = str(c[0])
    params, alike, rest = _params(c[1:])
    where, available, block = rest[-3], rest[-2], rest[-1]
    texts, body = body_of(block)
    return Option(name, params, where, available, texts, body, span(meta), alike)


def _options(meta, c):
    return tuple(c)


def _single_option(meta, c):
    params, alike, _ = _params(c)
    where, block = c[-2], c[-1]
    texts, body = body_of(block)
    return (Option("choose", params, where, None, texts, body, span(meta), alike),)


def _choose(meta, c):
    return Choose(span(meta), c[0], c[1])


def _simultaneous(meta, c):
    var, coll, where, options = str(c[0]), c[1], c[2], c[3]
    if where is not None:       # `each q in C where W`: those of C who pass W choose, as `q in C where W` gives them
        coll = S.Comprehension(span(meta), var, coll, where, None)
    return Choose(span(meta), None, options, var, coll)


GRAMMAR = {"param": _param, "alike_param": _alike_param, "option": _option, "options": _options, "single_option": _single_option, "choose": _choose, "simultaneous": _simultaneous}


# ---------------------------------------------------------------- checks
def check(ck, st, scope, t):
    if t:
        ck.error(st.span, "a trigger cannot ask a player to choose",
                   "triggers act at once; put choices in the turn structure")
    if st.actor is not None:
        ck.expr(st.actor, scope, want=WHO)
        inner = scope
    else:
        ck.expr(st.each_coll, scope, want=COLL)
        for item in st.each_coll.items if isinstance(st.each_coll, S.ListLit) else ():
            kind = ck.quietly(item, scope)
            if kind not in WHO + (ANY, "nobody"):
                ck.error(item.span, f"{a_kind(kind)} cannot choose: the ones who choose at the same time are players or teams",
                         f"list the players who choose, for example `each {st.each_var} in players simultaneously chooses ...`")
        inner = scope.child(**{st.each_var: element_kind(st.each_coll)})
    seen = set()
    for opt in st.options:
        if opt.name in seen:
            ck.error(opt.span, f"two options are named '{opt.name}'")
        seen.add(opt.name)
        for group in opt.alike:
            if len(set(group)) != len(group):
                ck.error(opt.span, f"a set names '{next(n for n in group if group.count(n) > 1)}' twice",
                         "give each item of the set its own name: 'a, b from ...'")
        o_scope = inner
        for p in opt.params:
            ck.expr(p.low, o_scope, want=NUM if p.high is not None else COLL)
            if p.high is not None:
                ck.expr(p.high, o_scope, want=NUM)
            o_scope = o_scope.child(**{p.name: NUM if p.high is not None else ANY})
        if opt.where is not None:
            ck.expr(opt.where, o_scope, want=BOOL)
        if opt.available is not None:
            ck.expr(opt.available, inner, want=BOOL)
        ck.block(opt.body, o_scope, t)


# ---------------------------------------------------------------- compilation
def compile(c, st, env, owner):
    ip = len(c.code)
    end = Label()
    simultaneous = st.actor is None
    choice = Choice(None, [], simultaneous, span=st.span, owner=owner)
    c.pauses[ip] = choice
    if simultaneous:
        each_slot = env.new_slot(st.each_var)
        env_opt = env.with_local(st.each_var, each_slot)
        choice.actors_slot = env.new_slot(None)
        choice.pending_slot = env.new_slot(None)
        coll = c.collection(st.each_coll, env)
        choice.actor = coll
        choice.each_slot = each_slot
    else:
        env_opt = env
        choice.actor = c.expr(st.actor, env)
    c.emit(None, owner, st.span)        # placeholder, set below
    next_ip = ip + 1
    if simultaneous:
        c.emit(None, owner, st.span)    # the reveal loop
    bodies = []
    for opt in st.options:
        slots = [env_opt.new_slot(p.name) for p in opt.params]
        params = []
        inner = env_opt                 # each parameter's range sees the ones before it
        for p, sl in zip(opt.params, slots):
            lo = c.expr(p.low, inner)
            hi = c.expr(p.high, inner) if p.high is not None else None
            params.append((p.name, sl, lo, hi))
            if hi is None and one_zone(c, p.low, inner):
                choice.zone_params |= {sl}
            inner = inner.with_local(p.name, sl)
        where = _in_order(opt) if opt.alike else opt.where
        bounds, rest = split_bounds(where, [p.name for p in opt.params if p.high is not None],
                                    [p.name for p in opt.params])
        bound_fns = {}
        for pname, op, bexpr in bounds:
            bound_fns.setdefault(pname, []).append((op, c.expr(bexpr, env_opt)))
        rest_fn, rest_src, rest_code = c.expr_source(rest, inner) if rest is not None else (None, None, None)
        avail = c.expr(opt.available, env_opt) if opt.available is not None else None
        label = Label()
        cov = len(c.block_names)
        c.block_names.append(("option", opt.name if opt.name != "choose" else owner, opt.span))
        names = {p.name for p in opt.params}
        independent = not any(mentions(p.low, names) or (p.high is not None and mentions(p.high, names))
                              for p in opt.params)
        index = {p.name: k for k, p in enumerate(opt.params)}
        alike = tuple(tuple(index[n] for n in group) for group in opt.alike)
        # a set's moves are thinned of alike pieces as enumerate lists them, not in a generated loop
        fill = c.option_filler(choice, opt.name, params, bound_fns, rest_fn, rest_src, rest_code) \
            if independent and not alike else None
        choice.options.append((opt.name, avail, params, rest_fn, bound_fns, label,
                               OptionInfo(opt, independent, fill, alike), cov))
        choice.named.setdefault(opt.name, (tuple(sl for _, sl, _, _ in params), label, cov))
        bodies.append((opt, inner, label))
    if all(info.independent and rest is None for _, _, _, rest, _, _, info, _ in choice.options):
        choice.parts = c.option_parts(choice)
    if choice.parts is not None and len(choice.options) == 1:
        name, avail, params = choice.options[0][:3]
        if avail is None and len(params) == 1 and params[0][3] is None:
            choice.drawn_from = (name, params[0])
    ranges = []                     # (first, end) of each option's body
    for (opt, inner, label), option in zip(bodies, choice.options):
        label.ip = len(c.code)
        c.block(opt.body, inner, owner)
        ranges.append((label.ip, c.jump(end, owner, opt.span)))
        for _, sl, _, _ in option[2]:
            c.slot_scopes[sl] = (label.ip, len(c.code))
    end.ip = len(c.code)
    if simultaneous:
        reveal_ip = next_ip
        loop_back = len(c.code)
        # each option body jumps to `end`; for a simultaneous choice `end` runs the next pending body
        c.jump(reveal_ip, owner, st.span)
        after = len(c.code)
        end.ip = loop_back
        game = c

        fixed = constant(coll)
        # a player decides for themselves, so a fixed collection of players is always everyone
        everyone = tuple(x for x in fixed[0] if x is not None) if fixed is not None and isinstance(fixed[0], tuple) \
            and all(isinstance(x, Player) or x is None for x in fixed[0]) else None

        def pause_simul(s, ip=ip):
            s.loc_slots[choice.actors_slot] = everyone if everyone is not None else \
                tuple([x for x in _choosers(choice, choice.actor(s)) if game.acting_player(s, x) is not None])
            s.loc_slots[choice.pending_slot] = ()
            s.ip = ip
            return -1 if s.loc_slots[choice.actors_slot] else reveal_ip

        def reveal_next(s):
            pending = s.loc_slots[choice.pending_slot]
            if not pending:
                return after
            (player, move), rest = pending[0], pending[1:]
            s.loc_slots[choice.pending_slot] = rest
            s.loc_slots[choice.each_slot] = player
            return game.bind_move(s, choice, move)
        c.code[ip] = pause_simul
        c.code[reveal_ip] = reveal_next
        choice.after_ip = reveal_ip
        c.slot_scopes[choice.actors_slot] = c.slot_scopes[choice.pending_slot] = (ip, after)
        c.slot_scopes[each_slot] = (reveal_ip, after)
    else:
        everyone = after = None

        def pause(s, ip=ip):
            s.ip = ip
            actor = c.acting_player(s, choice.actor(s))
            if actor is None or not s.alive[actor]:
                raise no_actor(choice)
            return -1
        c.code[ip] = pause

    c.fuse(ip, in_play_out(choice, ip, ranges, everyone, after))


def _in_order(opt) -> Expr:
    """The test a set `a, b, c from Z` adds to the option's own: a < b and b < c, so each set of
    different items is one move (in the order the items are numbered)."""
    tests = [S.Binary(opt.span, "<", S.Name(opt.span, a), S.Name(opt.span, b))
             for group in opt.alike for a, b in zip(group, group[1:])]
    if opt.where is not None:
        tests.append(opt.where)
    out = tests[0]
    for t in tests[1:]:
        out = S.Binary(opt.span, "and", out, t)
    return out


def _choosers(choice, coll):
    """The collection a simultaneous choice's choosers come from; anything else than a player,
    a team or nobody in it ends the game here."""
    for x in coll:
        if x is not None and type(x) is not Player and type(x) is not Team:
            raise RuleError("no actor", f"{plain_value(x)!r} cannot choose: the ones who choose at the same time "
                                        "are players or teams", choice.span)
    return coll


# ---------------------------------------------------------------- reading
def _param_noun(v, p) -> tuple[str, str]:
    if p.name in v.titles:
        return (v.titles[p.name], v.titles[p.name])
    return ("数", "number") if p.high is not None else v.noun(p.low)


def _read_param(v, p, noun, ordinal: int) -> Runs:
    """A parameter where it is chosen: 'a number (1 to 5)', 'a card from your hand'."""
    ja, en = noun
    ja = ja if ordinal == 1 else "もう一つの" + ja
    en = (("an " if en[:1] in "aeiou" else "a ") if ordinal == 1 else "another ") + en
    if p.high is None and isinstance(p.low, S.Name) and isinstance(v.kinds.get(p.low.id), S.Component):
        return [("", say(v.lang, ja, en))]          # any of the component's pieces: 'a space', not 'a space from space'
    if p.high is None and not isinstance(p.low, S.Range):
        return say(v.lang, v.expr(p.low) + [("", "から" + ja)], [("", en + " from ")] + v.expr(p.low))
    # a range is read as the numbers `from A to B` are: 'a number (2 to 12)'
    lo, hi = (v.expr(p.low.low), v.expr(p.low.high)) if p.high is None else (v.expr(p.low), v.expr(p.high))
    return say(v.lang, [("", ja + "(")] + lo + [("", "〜")] + hi + [("", ")")],
               [("", en + " (")] + lo + [("", " to ")] + hi + [("", ")")])


def _option_name(v, o: Option) -> Runs:
    """An option by its title; untitled, by what is chosen, else by what it does."""
    own = title_of(o.texts, v.lang)
    if own:
        return [("term", own)]
    if o.params:
        return []
    if o.body and not isinstance(o.body[0], S.Block):
        first = v.stmt(o.body[0]).runs
        if first and first[-1][1].endswith(("。", ".")):
            first = first[:-1] + [(first[-1][0], first[-1][1][:-1])]
        return first
    return [("", say(v.lang, "何もしない", "do nothing"))]


def _with_params(v, o: Option, read):
    """Read with each parameter of an option bound, so the option's body names them as nouns."""
    heads: list[Runs] = []
    seen: dict = {}
    with ExitStack() as bound:
        for p in o.params:      # in order: a later parameter's range may name an earlier one
            noun = _param_noun(v, p)
            seen[noun] = seen.get(noun, 0) + 1
            heads.append(_read_param(v, p, noun, seen[noun]))
            bound.enter_context(v.bound(p.name, noun))
        return read(heads)


def option_head(v, o: Option, single: bool, heads=None) -> Runs:
    """An option's first line: its title, what is chosen, and when it may be chosen."""
    if heads is None:
        return _with_params(v, o, lambda hs: option_head(v, o, single, hs))
    params = join(heads, say(v.lang, "と", " and "))
    picks = idioms.distinct_picks(o)
    if picks:
        params = idioms.read_distinct_picks(v, o, picks, _param_noun(v, o.params[0]))
    head: Runs = [] if single else _option_name(v, o)
    if params:
        head += say(v.lang, ([("", ": ")] if head else []) + params + [("", "を選ぶ")],
                    ([("", ": choose ")] if head else [("", "Choose ")]) + params)
    if o.where is not None and not (picks and not o.alike):        # `a < b` of a set is no condition to read
        where, listed = condition(v, o.where)
        head += say(v.lang, [("", "(ただし、")] + where + [("", "を満たすもの)" if listed else ")")],
                    [("", ", where ")] + where + [("", " hold" if listed else "")])
    if o.available is not None:
        head += say(v.lang, [("", "(")] + that(v.expr(o.available)) + [("", "場合のみ)")],
                    [("", " (only if ")] + v.expr(o.available) + [("", ")")])
    if single:
        head.append(("", say(v.lang, "。", ".")))
    return head


def _who(v, st) -> Runs:
    if st.actor is not None:
        return v.expr(st.actor)
    if isinstance(st.each_coll, S.Name) and st.each_coll.id in ("players", "teams"):
        return v.expr(st.each_coll)
    return v.expr(st.each_coll) + [("", say(v.lang, "それぞれ", ""))]


def _each(v, st, read):
    """A simultaneous choice names its chooser 'that team' in what follows."""
    if st.actor is not None:
        return read()
    with v.oneself(st.each_var, v.noun(st.each_coll)):
        return read()


def choice_summary(v, st) -> tuple[str, list[str]]:
    """Who chooses and each option's first line, for the one-page sheet."""
    who = plain_text(_who(v, st))
    if st.actor is None:
        who += say(v.lang, "(同時に、伏せて)", " (at the same time, face down)")
    single = len(st.options) == 1 and st.options[0].name == "choose"
    return who, _each(v, st, lambda: [plain_text(option_head(v, o, single)) for o in st.options])


def _option(v, o: Option, single: bool) -> Item:
    return _with_params(v, o, lambda heads: Item(
        "option", option_head(v, o, single, heads),
        (condition(v, o.where)[1] if o.where is not None else []) + v.body(o.body), notes_of(o.texts, v.lang),
        "" if single else o.name, span=o.span))


def read(v, st) -> Item:
    single = len(st.options) == 1 and st.options[0].name == "choose"
    who = _who(v, st)
    valued = idioms.chosen_value(st)
    if valued is not None:
        # 'Every player chooses at the same time, face down, their throw: Rock, Scissors or Paper'
        what = idioms.read_chosen_value(v, *valued)
        if st.actor is None:
            head = say(v.lang, who + [("", "が同時に、伏せて")] + what + [("", "。")],
                       _everyone(who) + [("", " at the same time, face down, ")] + what + [("", ".")])
        else:
            head = say(v.lang, who + [("", "は")] + what + [("", "。")], who + [("", " chooses ")] + what + [("", ".")])
        return _each(v, st, lambda: Item("sentence", head, span=st.span))
    if st.actor is None:
        head = who + say(v.lang, [("", "が同時に、伏せて選ぶ:")], [("", " at the same time, face down:")])
        if not single:
            head = who + say(v.lang, [("", "が同時に、伏せて次のどれか一つを選ぶ:")],
                             [("", " at the same time, face down, one of:")])
        head = say(v.lang, head, _everyone(who) + head[len(who):])
    else:
        head = who + [("", say(v.lang, "が選ぶ:", " chooses:"))]
        if not single:
            head = who + [("", say(v.lang, "は次のどれか一つを選ぶ:", " chooses one of:"))]
    return _each(v, st, lambda: Item("choice", head, [_option(v, o, single) for o in st.options], span=st.span))


def _everyone(who: Runs) -> Runs:
    """'Every player still in chooses', 'Each of those ... chooses': each chooser for itself."""
    if who and who[0][1].startswith("every "):
        return who + [("", " chooses")]
    return [("", "Each of ")] + who + [("", " chooses")]


# ---------------------------------------------------------------- narration
def _chosen_from(n, option: str) -> dict[str, str]:
    """The parameters of an option chosen from a collection, and what their values are:
    'space' for spaces of a board (`spaces(grid)`, `neighbours(x)`), 'piece' for the rest."""
    if not hasattr(n, "chosen_from"):
        n.chosen_from = {}
        for node in S.walk_rules(n.game.rules):
            if isinstance(node, Option):
                n.chosen_from.setdefault(node.name, {}).update(
                    (p.name, "space" if _of_spaces(p.low) else "piece") for p in node.params
                    if p.high is None and not _of_numbers(p.low))
    return n.chosen_from.get(option, {})


def _of_numbers(coll) -> bool:
    """A collection of numbers written in the rules (`2..12`, `[1, 3, 5]`): a number chosen
    from it is told as a number, as one chosen `from 1 to 5` is."""
    if isinstance(coll, S.Comprehension) and coll.item is None:
        return _of_numbers(coll.coll)
    return isinstance(coll, S.Range) or isinstance(coll, S.ListLit) and bool(coll.items) \
        and all(isinstance(i, S.Num) for i in coll.items)


def _of_spaces(coll) -> bool:
    if isinstance(coll, S.Comprehension) and coll.item is None:
        return _of_spaces(coll.coll)
    return isinstance(coll, S.Call) and coll.fn in ("spaces", "neighbours")


def _narrate(n, ev) -> str:
    move = ev["move"]
    option = n.option(move[0]) if move[0] != "choose" else n.say("選択", "chooses")
    names = ev.get("params") or [""] * (len(move) - 1)
    chosen = _chosen_from(n, move[0])
    players, teams = set(ev.get("players", ())), set(ev.get("teams", ()))

    def said(i, k, a):
        # a player or team chosen is named as one: its number is no piece's
        if i in players:
            return n.player(a)
        if i in teams:
            return f"T{a + 1}"
        if chosen.get(k) == "piece" and isinstance(a, int):
            return n.card(a)
        if chosen.get(k) == "space" and isinstance(a, int):
            return n.zone(n.game.zone_names[a])
        return n.value(a)
    nouns = [n.name(k) if k else "" for k in names]

    def named(i, k, a, noun):
        # a piece or space chosen is named by itself ('fire 12'); its untitled parameter would
        # only add the noun 'item'
        if not k or chosen.get(k) and isinstance(a, int) and k not in n.titles and i not in players and i not in teams:
            return said(i, k, a)
        if (i in players or i in teams) and noun in option:
            return said(i, k, a)            # 'Salvage a member P1', not '... a member member P1'
        # untitled parameters the same noun would name ('number 1, number 3') go by their own names
        if k not in n.titles and nouns.count(noun) > 1:
            noun = k
        return f"{noun} {said(i, k, a)}"
    args = n.say("、", ", ").join(named(i, k, a, noun) for i, (k, a, noun) in enumerate(zip(names, move[1:], nouns)))
    hidden = n.say(" (伏せて)", " (face down)") if ev.get("hidden") else ""
    return f"{n.who(ev)}: {option}{' ' + args if args else ''}{hidden}"


# ---------------------------------------------------------------- analyses
def order(st, use):
    if st.actor is None:
        use.iterates(st.each_var, st.each_coll)
    for opt in st.options:
        for p in opt.params:
            if p.high is None:
                use.iterates(p.name, p.low)
            else:
                use.binds_local(p.name)


register(Choose, "statement", grammar=GRAMMAR, check=check, compile=compile, read=read, events={"choose": _narrate}, order=order)
