"""`strategy NAME`: how a player may play, as ordered preferences over the game's decisions;
`strategies for GAME`: the line a file of strategies starts with.

    strategy cautious
      title ja "慎重派" en "Cautious"
      prefer challenge where claimed * 3 > in_play
      prefer raise where face = claimed_face by lowest number

A decision's kind is its option's name, or, for a choice without named options, the name of
the step (or phase, or rule) it stands in. At a decision the strategy goes down its
preferences and takes the first whose kind is offered and whose condition some of the moves
meet; `by highest|lowest X` keeps the best of those; what is left is drawn at random. A
decision no preference settles is played at random.

No peeking: a condition may read only what the acting player (`me`) sees. The checker walks
every condition, and every value it reads, and refuses a read of hidden contents: the faces
and attributes of pieces in zones the player does not see. How many pieces a zone holds is
always seen; so are counters, variables and zones `seen by everyone`, and a zone `seen by
owner` that is the player's own (`cup(me)`) or their team's (`hand(team_of(me))`).

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..engine.errors import CARRIED, RuleError
from ..language import syntax as S
from ..language.building import span, texts
from ..language.kinds import ANY, BOOL, NUM, PLAYER, Scope
from ..language.syntax import Decl, Expr, Node, Span
from ..printing.runs import Item, Runs, bare, say, title_of
from .registry import register

ME = "me"           # the acting player, in a strategy's conditions


@dataclass(frozen=True)
class Preference(Node):
    kind: str                   # the decision's kind: an option's name, or the step a choice stands in
    where: Optional[Expr]       # over the option's parameters and what `me` sees
    rank: Optional[Node]        # end_game's RankKey: keep the moves with the highest or lowest value
    span: Span


@dataclass(frozen=True)
class Strategy(Decl):
    keyword = "strategy"
    prefs: tuple[Preference, ...]


@dataclass(frozen=True)
class StrategiesFor(Decl):
    keyword = "strategies"
    game: str


# ---------------------------------------------------------------- grammar
def _preference(meta, c):
    return Preference(str(c[0]), c[1], c[2], span(meta))


def _strategy(meta, c):
    return Strategy(str(c[0]), texts(c[1:]), span(meta), tuple(x for x in c[1:] if isinstance(x, Preference)))


def _strategies_for(meta, c):
    return StrategiesFor("strategies", (), span(meta), str(c[0]))


GRAMMAR = {"preference": _preference, "strategy": _strategy, "strategies_for": _strategies_for}


# ---------------------------------------------------------------- the game's decisions
@dataclass(frozen=True)
class Decision:
    """One option of one choice of the game, under its kind."""
    kind: str
    option: Node                # the Option
    choose: Node                # the Choose it belongs to
    chooser: frozenset          # the names that stand for the chooser there (its `me`)


def decisions(rules) -> dict:
    """Kind -> the options of that kind, in source order."""
    out: dict[str, list] = {}

    def visit(node, where):
        if isinstance(node, S.Block) and node.kind in ("step", "phase"):
            where = node.name
        if isinstance(node, S.Choose):
            me = {node.each_var} if node.actor is None else \
                {node.actor.id} if isinstance(node.actor, S.Name) else set()
            for o in node.options:
                kind = o.name if o.name != "choose" else where
                out.setdefault(kind, []).append(Decision(kind, o, node, frozenset(me)))
        for c in S.children(node):
            visit(c, where)
    for d in rules.decls:
        if isinstance(d, (S.Flow, S.Rule)):
            visit(d, d.name)
    return out


# ---------------------------------------------------------------- what the player sees
SEEN, MINE, OPAQUE, PIECE, HIDDEN = "seen", "mine", "opaque", "piece", "hidden"
# seen: a value the player knows; mine: the player (or their team); opaque: a collection whose
# size the player knows but not its contents; piece: one the player cannot tell which it is;
# hidden: a value that depends on what the player cannot see.
_SIZES = ("count", "empty", "size")


class Sight:
    """What the acting player can know of expressions: a walk like the checker's, over the
    condition and every value it reads, with the first hidden read kept (where, what)."""

    def __init__(self, ck):
        self.ck = ck
        self.values: dict = {}

    def of(self, e, names: dict) -> tuple:
        """(sight, why): why is (span, text) of the first hidden read, for a hidden sight."""
        kind = type(e).__name__
        return getattr(self, "_" + kind, self._parts)(e, names)

    def _Num(self, e, names):
        return SEEN, None

    _Str = _Num

    def _Name(self, e, names):
        if e.id in names:
            return names[e.id], None
        d = self.ck.declared.get(e.id)
        if isinstance(d, S.Zone):
            return self.zone(d, None), None
        if isinstance(d, S.Component):
            return (SEEN if d.name in self.ck.once("pieces in sight", lambda: _in_sight(self.ck)) else OPAQUE), None
        if isinstance(d, S.Define) and not d.params:
            return self.value(d, (), e)
        return SEEN, None               # counters, variables, parameters, symbols, players

    def zone(self, d, key) -> str:
        if d.seen_by == "everyone":
            return SEEN
        # 'others': which player a key names, this walk cannot tell apart from the acting one
        return SEEN if d.seen_by == "owner" and key == MINE else OPAQUE

    def value(self, d, args, use):
        memo_key = (d.name, args)
        if memo_key not in self.values:
            self.values[memo_key] = (SEEN, None)        # a value read through itself is an error of its own
            self.values[memo_key] = self.of(d.expr, dict(zip(d.params, args)))
        sight, why = self.values[memo_key]
        if sight == HIDDEN:
            return HIDDEN, (use.span, f"'{d.name}', a value reading {why[1]}")
        return sight, None

    def _Call(self, e, names):
        args = [self.of(a, names) for a in e.args]
        for sight, why in args:
            if sight == HIDDEN:
                return sight, why
        sights = [s for s, _ in args]
        d = self.ck.declared.get(e.fn)
        if isinstance(d, S.Zone):
            return ((self.zone(d, sights[0]), None) if all(s in (SEEN, MINE) for s in sights)
                    else self.hidden(e, f"{_text(e)}, whose zone the player cannot know"))
        if isinstance(d, S.Define):
            return self.value(d, tuple(sights), e)
        if e.fn in _SIZES and sights and sights[0] in (OPAQUE, SEEN, MINE):
            return SEEN, None
        if e.fn == "all" and sights:
            return sights[0], None
        if e.fn == "team_of" and sights == [MINE]:
            return MINE, None
        if e.fn in ("first", "top") and sights == [OPAQUE]:
            return PIECE, None
        if all(s in (SEEN, MINE) for s in sights):
            return SEEN, None
        return self.hidden(e, f"{_text(e)}, of pieces the player cannot see")

    def _Index(self, e, names):
        at, why = self.of(e.k, names)
        if at == HIDDEN:
            return at, why
        coll, why = self.of(e.coll, names)
        if coll == HIDDEN:
            return coll, why
        if at == SEEN and coll in (SEEN, MINE):
            return SEEN, None
        # an item of a zone the player cannot look into: which piece, they cannot tell (as `top`)
        return (PIECE, None) if at == SEEN and coll == OPAQUE else self.hidden(e, f"{_text(e)}, of pieces the player cannot see")

    def _Attr(self, e, names):
        sight, why = self.of(e.obj, names)
        if sight in (SEEN, MINE):
            return SEEN, None
        if sight == HIDDEN:
            return sight, why
        return self.hidden(e, f"{_text(e)}, of a piece the player cannot see")

    def _Comprehension(self, e, names):
        coll, why = self.of(e.coll, names)
        if coll == HIDDEN:
            return coll, why
        inner = dict(names)
        inner[e.var] = SEEN if coll in (SEEN, MINE) else PIECE
        parts = [self.of(x, inner) for x in (e.cond, e.item) if x is not None]
        for sight, why in parts:
            if sight == HIDDEN:
                return sight, why
            if sight != SEEN:
                return self.hidden(e, f"{_text(e)}, of pieces the player cannot see")
        return (SEEN if coll in (SEEN, MINE) else OPAQUE), None

    def _parts(self, e, names):
        """Arithmetic, comparisons, `and`/`or`, `not`, `if`, lists: seen when every part is."""
        for c in S.children(e):
            if isinstance(c, Expr):
                sight, why = self.of(c, names)
                if sight == HIDDEN:
                    return sight, why
                if sight not in (SEEN, MINE):
                    return self.hidden(c, f"{_text(c)}, what the player cannot see")
        return SEEN, None

    @staticmethod
    def hidden(e, text):
        return HIDDEN, (e.span, text)

    def params(self, x: Decision) -> dict:
        """The sight of each parameter of an option: a number, or a piece from its collection
        as the chooser sees it."""
        out = {}
        chooser = {n: MINE for n in x.chooser}
        for p in x.option.params:
            if p.high is not None:
                out[p.name] = SEEN
                continue
            sight, _ = self.of(p.low, {**chooser, **out})
            out[p.name] = SEEN if sight in (SEEN, MINE) else PIECE
        return out


def _in_sight(ck) -> set:
    """The components whose pieces everyone always sees, wherever play puts them: those kept in a
    zone seen by everyone that no statement takes pieces from (a board's spaces)."""
    zones = {z.name: z for z in ck.of(S.Zone)}
    moved = _taken_from(ck)
    return {c.name for c in ck.of(S.Component)
            if c.home in zones and zones[c.home].seen_by == "everyone" and c.home not in moved and c.name not in moved}


def _taken_from(ck) -> set:
    """The names in what any statement takes pieces from, and in whatever a name there may
    stand for: a piece chosen from a zone (`choose x from pile`, then `move x to hand(p)`), gone
    through in one (`for each`), passed to a rule, set into a variable, or a value's reading."""
    rules = {r.name: r for r in ck.of(S.Rule)}
    # a name is matched across the whole file, whatever its scope: one bound in two places stands
    # for both, which can only keep more components out of sight, never let a strategy peek
    stands_for: dict = {d.name: [d.expr] for d in ck.of(S.Define)}
    todo = []
    for n in S.walk_rules(ck.rules):
        if isinstance(n, S.Param) and n.high is None:
            stands_for.setdefault(n.name, []).append(n.low)
        elif isinstance(n, S.ForEach):
            stands_for.setdefault(n.var, []).append(n.coll)
        elif isinstance(n, S.Do) and n.rule in rules:
            for param, arg in zip(rules[n.rule].params, n.args):
                stands_for.setdefault(param, []).append(arg)
        elif isinstance(n, S.Assign):
            stands_for.setdefault(n.target.name, []).append(n.value)
        taken = S.transfer(n)
        if taken is not None:
            todo.append(taken[0])
    names = set()
    while todo:
        for name in _origins(todo.pop()):
            if name not in names:
                names.add(name)
                todo.extend(stands_for.get(name, ()))
    return names


def _origins(e):
    """The names an expression's pieces come from: all it names but a filter's condition, which
    keeps some of them and takes none (`first(x in all(spot) where here(x))` comes from spot)."""
    if isinstance(e, S.Name):
        yield e.id
        return
    if isinstance(e, S.Call):
        yield e.fn
    for c in S.children(e):
        if not (isinstance(e, S.Comprehension) and c is e.cond):
            yield from _origins(c)


def _text(e) -> str:
    """An expression as the designer wrote it, shortened."""
    if isinstance(e, S.Name):
        return e.id
    if isinstance(e, S.Attr):
        return f"{_text(e.obj)}.{e.name}"
    if isinstance(e, S.Call):
        return f"{e.fn}({', '.join(_text(a) for a in e.args)})"
    if isinstance(e, S.Comprehension):
        return f"{e.var} in {_text(e.coll)}"
    if isinstance(e, S.Index):
        return f"{_text(e.coll)}[{_text(e.k)}]"
    if isinstance(e, S.Num):
        return str(e.value)
    return type(e).__name__.lower()


# ---------------------------------------------------------------- checks
_SEES = ("a strategy reads what its player sees: counters and variables, zones seen by everyone, its own "
         "hidden zones (cup(me), hand(team_of(me))) and how many pieces any zone holds (count(...))")


def check(ck, d):
    found = ck.once("decisions", lambda: decisions(ck.rules))
    sight = ck.once("sight", lambda: Sight(ck))
    named = set()
    for p in d.prefs:
        options = found.get(p.kind)
        if options is None:
            ck.error(p.span, f"strategy '{d.name}': the game has no decision '{p.kind}'",
                     ck.did_you_mean(p.kind, found) or
                     f"a decision is an option's name, or the step a choice stands in: {', '.join(found) or 'none'}")
            continue
        named.add(p.kind)
        _check_preference(ck, d, p, options, sight)
    left = [k for k in found if k not in named]
    if left:
        ck.warning(d.span, f"strategy '{d.name}' never prefers among: {', '.join(left)}",
                   "those decisions are played at random; add 'prefer KIND' lines to cover them")


def _check_preference(ck, d, p, options, sight):
    """A preference holds for the options of its kind whose parameters it reads (a step with two
    choices, of a column and of a row, is one kind): it must check against one of them at least,
    else the first one's mistakes are shown; and it must read only what its player sees."""
    mistakes = None
    for x in options:
        scope = Scope({ME: PLAYER, **{q.name: (NUM if q.high is not None else ANY) for q in x.option.params}})
        mark = len(ck.diags)
        for e, want in ((p.where, BOOL), (p.rank.expr if p.rank else None, NUM)):
            if e is not None:
                ck.expr(e, scope, want=want)
        if len(ck.diags) > mark:
            mistakes = ck.diags[mark:] if mistakes is None else mistakes
            del ck.diags[mark:]
            continue
        seen = {ME: MINE, **sight.params(x)}
        for e in (p.where, p.rank.expr if p.rank else None):
            got, why = sight.of(e, seen) if e is not None else (SEEN, None)
            if got == HIDDEN:
                where, what = why
                at = where if where.file == d.span.file else e.span
                ck.error(at, f"strategy '{d.name}' reads what its player cannot see: {what}", _SEES)
                return
        mistakes = []
    ck.diags.extend(mistakes or [])


def check_head(ck, d):
    if not d.span.file or d.span.file == ck.path:
        ck.error(d.span, "'strategies for' begins a file of strategies, not a game",
                 "strategies written in the game file need no such line")
    elif ck.game is not None and d.game != ck.game.name:
        ck.error(d.span, f"these strategies are for the game '{d.game}', not '{ck.game.name}'",
                 f"write 'strategies for {ck.game.name}'")


# ---------------------------------------------------------------- compiling
class Policy:
    """A compiled strategy: `choose(state, player, moves, rng)` gives one of `moves`."""

    def __init__(self, game, d):
        from ..engine.program import Env
        self.game = game
        self.name = d.name
        found = decisions(game.rules)
        first = game.n_slots
        # `me` and the option's values, set before each reading
        self.cell = [None] * (1 + max((len(x.option.params) for xs in found.values() for x in xs), default=0))
        self.prefs = []                 # (kind, {params: condition}, {params: rank}, sign)
        for p in d.prefs:
            where, rank = {}, {}
            for x in found.get(p.kind, ()):
                names = tuple(q.name for q in x.option.params)
                if names in where:
                    continue
                cell = self.cell
                bound = {ME: lambda s: cell[0]}
                bound.update({n: (lambda s, i=i: cell[i]) for i, n in enumerate(names, 1)})
                env = Env(game, {}, bound=bound)
                try:
                    where[names] = game.expr(p.where, env) if p.where is not None else None
                    rank[names] = game.expr(p.rank.expr, env) if p.rank is not None else None
                except RuleError:       # it reads names this option has not: it holds for the others
                    where.pop(names, None)
            self.prefs.append((p.kind, where, rank, 1 if p.rank is None or p.rank.direction == "highest" else -1))
        # a condition's comprehensions borrow the state's locals past its own, given back after
        self.slots = (first, game.n_slots)
        game.n_slots = first
        self.kinds: dict = {}           # instruction -> option name -> (kind, parameter names)
        self.step_of = {x.choose.span: kind for kind, xs in found.items() for x in xs if x.option.name == "choose"}

    def _kinds(self, ip) -> dict:
        """Option name -> (kind, parameter names) at the choice the game waits at: an unnamed
        choice's kind is found by where it is written (the engine's Choice.span)."""
        known = self.kinds.get(ip)
        if known is None:
            pause = self.game.pauses[ip]
            step = self.step_of.get(pause.span, "choose")
            known = self.kinds[ip] = {o[0]: (o[0] if o[0] != "choose" else step,
                                             tuple(q.name for q in o[6].syntax.params)) for o in pause.options}
        return known

    def choose(self, s, player, moves, rng):
        kinds = self._kinds(s.ip)
        first, end = self.slots
        L = s.loc_slots
        kept = L[first:]
        L.extend([None] * (end - len(L)))
        try:
            for kind, where, rank, sign in self.prefs:
                best, top = [], None
                for m in moves:
                    k, names = kinds[m[0]]
                    if k != kind or names not in where:
                        continue
                    self.cell[0] = self.game._players[player]
                    self.cell[1:len(m)] = m[1:]
                    if where[names] is not None and not _holds(where[names], s):
                        continue
                    if rank[names] is None:
                        best.append(m)
                        continue
                    v = _value(rank[names], s)
                    if v is None:
                        continue
                    v *= sign
                    if top is None or v > top:
                        best, top = [m], v
                    elif v == top:
                        best.append(m)
                if best:
                    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]
        finally:
            L[first:] = kept
        return rng.choice(moves)


def _holds(f, s) -> bool:
    """A condition that cannot be worked out here (the top card of an empty pile) does not hold."""
    try:
        return bool(f(s))
    except (RuleError, *CARRIED):
        return False


def _value(f, s):
    try:
        v = f(s)
    except (RuleError, *CARRIED):
        return None
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def compile(c, d):
    return Policy(c, d)


# ---------------------------------------------------------------- reading
def read(v, d, counts=()) -> Runs:
    """'Cautious: “Challenge” when ...; otherwise “Raise”, the lowest number first; ...': a move is
    named by its option's title, quoted, so a title such as 'Raise the bid' keeps the book's own
    words mid-sentence and is not taken for the sentence's verb."""
    found = decisions(v.rules)
    parts: list = []
    me = [("", say(v.lang, "自分", "the player"))]
    for p in d.prefs:
        options = found.get(p.kind, ())
        params = options[0].option.params if options else ()
        runs: Runs = [("", say(v.lang, "「", "“")), ("term", v.title(p.kind)), ("", say(v.lang, "」", "”"))]
        with v.given([ME], [me]):
            bound = _bind(v, params)
            try:
                if p.where is not None:
                    runs = v.expr(p.where) + [("", "なら")] + runs if v.lang == "ja" \
                        else runs + [("", " when ")] + v.expr(p.where)
                if p.rank is not None:
                    key = v.expr(p.rank.expr)
                    if v.lang == "en":
                        key = bare(key)
                    high = p.rank.direction == "highest"
                    runs += ([("", "(")] + key + [("", "が最も大きいもの)" if high else "が最も小さいもの)")]
                             if v.lang == "ja" else [("", ", the one with the highest " if high else ", the one with the lowest ")] + key)
            finally:
                for ctx in reversed(bound):
                    ctx.__exit__(None, None, None)
        parts.append(_own(runs, me[0]))
    out: Runs = [("term", title_of(d.texts, v.lang) or d.name), ("", ": " if v.lang == "en" else ":")]
    for i, runs in enumerate(parts):
        if i:
            out.append(("", "; otherwise " if v.lang == "en" else _stop(out) + "そうでなければ"))
        out += runs
    out.append(("", "; otherwise at random." if v.lang == "en" and parts else
                _stop(out) + "それ以外は無作為に選ぶ。" if parts else say(v.lang, "すべて無作為に選ぶ。", "every move at random.")))
    return out


def _stop(runs: Runs) -> str:
    """A Japanese sentence's end, unless a title already ends it (a title such as 「勝負!」)."""
    return "" if runs and runs[-1][1].endswith(("!", "!", "?", "?", "。")) else "。"


def _own(runs: Runs, me) -> Runs:
    """'your tokens', not "the player's your tokens": a zone titled from its owner's side."""
    out: Runs = []
    for run in runs:
        if out[-2:] == [me, ("", "'s ")] and "your" in run[1].split(" "):
            del out[-2:]
        out.append(run)
    return out


def _bind(v, params) -> list:
    """The option's parameters read as nouns ('that face') while a preference is read."""
    out = []
    for q in params:
        ctx = v.bound(q.name, v.noun(q.low) if q.high is None else ("数", "number"))
        ctx.__enter__()
        out.append(ctx)
    return out


def read_head(v, d, counts=()) -> Runs:
    return [("", say(v.lang, f"{d.game}の戦略", f"strategies for {d.game}"))]


register(Strategy, "declaration", grammar=GRAMMAR, check=check, compile=compile, read=read)
register(StrategiesFor, "declaration", grammar={}, check=check_head, read=read_head)
