"""The rule language read aloud: the Voice that reads one rule set in one language.

Every construct's Japanese and English live in its own module (dsl/constructs/); the Voice
reads names through the rule file's own titles (`title ja "..." en "..."`) and dispatches
each expression, statement and declaration to its construct's reading. A name without a
title is shown as written, in code style. The output is runs and items (printing/runs.py).

May import: the language, the constructs and printing/runs.py.
"""
from __future__ import annotations

import re

from contextlib import contextmanager

from ..constructs.registry import Absent, hook, loaded
from ..constructs.choose import choice_summary, option_head
from ..constructs.question import open_question
from ..constructs.rule import rule_item
from ..constructs.trigger import trigger_item, whenever
from ..language import syntax as S
from . import idioms
from .runs import ARTICLE, UNDECIDED, Item, Runs, capital, notes_of, plain, say, tidy, title_of

__all__ = ["UNDECIDED", "Item", "Runs", "Voice", "choice_summary", "describe", "notes_of", "open_question",
           "option_head", "plain", "readable", "rule_item", "say", "title_of", "trigger_item", "whenever"]


# What a local name stands for, when nothing titles it: the thing its collection holds.
_PLAYER, _TEAM, _MEMBER = ("プレイヤー", "player"), ("チーム", "team"), ("メンバー", "member")
_NUMBER, _THING, _SPACE, _PIECE = ("数", "number"), ("もの", "item"), ("マス", "space"), ("コマ", "piece")
_ORDINALS_EN = ("", "", "other", "third", "fourth", "fifth")


class Local:
    """A name bound inside a rule (a loop's item, a choice, a rule's parameter), read as a noun."""
    __slots__ = ("name", "noun", "ordinal", "subject", "runs", "role")

    def __init__(self, name: str, noun: tuple[str, str], ordinal: int, subject: bool = False, runs=None,
                 role: str = "local"):
        # subject: the item a filter or a total is about, read as 'it' ('its face', 「目が…」);
        # runs: what a rule's parameter reads as where a call's argument is read in its place;
        # role: 'local' (a loop's item, a choice), 'param' (what a rule is carried out for),
        # 'param alone' (the only parameter of its kind), 'titled' (a symbol names it)
        self.name, self.noun, self.ordinal, self.subject, self.runs = name, noun, ordinal, subject, runs
        self.role = role


class Voice:
    """Reads expressions and statements of one rule set in one language."""

    def __init__(self, rules: S.RuleFile, lang: str):
        self.lang = lang
        self.rules = rules
        self.titles: dict[str, str] = {}
        self.kinds: dict[str, S.Decl] = {}
        self.scope: list[Local] = []
        for d in rules.decls:
            self.kinds.setdefault(d.name, d)
            self._title(d.name, d.texts)
            if isinstance(d, (S.Rule, S.Trigger, S.Flow)):
                for st in S.statements(d.body):
                    if isinstance(st, S.Block):
                        self._title(st.name, st.texts)
                    elif isinstance(st, S.Choose):
                        for o in st.options:
                            self._title(o.name, o.texts)
        # a named set of cases is known by the step or rule it stands in; an untitled step
        # that carries out a rule, by the rule's title
        for d in rules.decls:
            if isinstance(d, (S.Rule, S.Trigger, S.Flow)):
                self._name_cases(d.body, d.name)
                for st in S.statements(d.body):
                    if isinstance(st, S.Block) and st.name not in self.titles and st.body \
                            and isinstance(st.body[0], S.Do) and st.body[0].rule in self.titles:
                        self.titles[st.name] = self.titles[st.body[0].rule]
        self.components = [d for d in rules.decls if isinstance(d, S.Component) and d.kind != "board"]
        self._zone_holds: dict[str, set[str]] | None = None
        self.local_nouns: dict[str, tuple[str, str]] = {}
        self.holds: dict[str, tuple[str, str]] = {}
        self.param_nouns: dict = {}
        for _ in range(2):      # what a variable holds and what a rule is passed inform each other
            self.holds = _what_variables_hold(self)
            self.param_nouns = _param_nouns(self)
        self.flags = _flags(rules)
        self.states = idioms.states(rules)                   # 'that player is still in the game'
        self.eliminates = idioms.puts_players_out(rules)      # 'the next player still in'
        self.turns = idioms.turns(rules)                     # who chooses: passing it on passes the turn
        self.calls = idioms.calls(rules)
        self.set_in = idioms.where_set(self)                    # what players keep track of, by when it changes
        self.singles: set[str] = set()                          # rankings known to hold one: within `count(X) = 1`
        self.param_names: set[str] = set()
        for d in rules.decls:
            if isinstance(d, S.Rule):
                for i, p in enumerate(d.params):
                    self.param_names.add(p)
                    self.local_nouns.setdefault(p, self.param_nouns.get((d.name, i), _THING))

    def _name_cases(self, stmts, where: str) -> None:
        for st in stmts:
            if isinstance(st, S.Cases) and st.name and where in self.titles:
                self.titles.setdefault(st.name, self.titles[where])
            inner = st.name if isinstance(st, S.Block) and st.kind in ("step", "phase") else where
            for c in S.children(st):
                if isinstance(c, S.Stmt):
                    self._name_cases([c], inner)
                elif isinstance(c, S.Node):
                    self._name_cases([x for x in S.children(c) if isinstance(x, S.Stmt)], inner)

    def _title(self, name: str, texts) -> None:
        t = title_of(texts, self.lang)
        if t:
            self.titles.setdefault(name, t)

    # ------------------------------------------------------------ locals
    def noun(self, coll) -> tuple[str, str]:
        """What one item of a collection is called: 'player', 'card', 'number'..."""
        return _noun(self, coll)

    @contextmanager
    def bound(self, name: str, noun: tuple[str, str], subject: bool = False, role: str = "local"):
        """Read `name` as 'that <noun>' (or 'the other <noun>') while reading what it binds."""
        if name in self.titles and not isinstance(self.kinds.get(name), (S.Rule, S.Trigger, S.Flow)):
            noun, role = (self.titles[name], self.titles[name]), "titled"
        # a rule's one parameter of its kind is 'that player': a loop's player inside it is the other
        kin = ("param", "param alone") if role.startswith("param") else (role, "param alone") if role == "local" else (role,)
        ordinal = 1 + sum(1 for x in self.scope if x.noun == noun and x.runs is None and x.role in kin)
        with self._pushed([Local(name, noun, ordinal, subject, role=role)]):
            yield

    def given(self, names, args: list[Runs]):
        """Read a rule's parameters as the arguments a call passes (the rule read in place)."""
        return self._pushed([Local(n, ("", ""), 0, runs=a) for n, a in zip(names, args)])

    @contextmanager
    def only(self, name: str | None):
        """Read `first(name)` as `name` itself while a condition says it holds one item."""
        added = name is not None and name not in self.singles
        if added:
            self.singles.add(name)
        try:
            yield
        finally:
            if added:
                self.singles.discard(name)

    @contextmanager
    def _pushed(self, locals_: list[Local]):
        self.scope += locals_
        try:
            yield
        finally:
            del self.scope[len(self.scope) - len(locals_):]

    def counter(self, zone) -> str:
        """The Japanese counter word for what a zone holds: 枚 for cards, 個 for dice and tokens."""
        if self.lang != "ja":
            return ""
        name = zone.id if isinstance(zone, S.Name) else zone.fn if isinstance(zone, S.Call) else ""
        if isinstance(zone, S.Call) and name == "all" and zone.args:
            return self.counter(zone.args[0])
        held = self.zone_holds.get(name) or {c.name for c in self.components}
        kinds = {c.kind for c in self.components if c.name in held}
        return "枚" if kinds == {"deck"} else "個" if kinds <= {"dice", "token"} else "つ"

    def oneself(self, name: str, noun: tuple[str, str]):
        """Each chooser of a simultaneous choice speaks of itself: 「自チーム」, 'that team'."""
        ja = "自分" if noun == _PLAYER else "自" + noun[0]
        return self._pushed([Local(name, noun, 0, runs=[("", say(self.lang, ja, "that " + noun[1]))])])

    @property
    def zone_holds(self) -> dict[str, set[str]]:
        """Which components can be in each zone, worked out once, when a reading first asks."""
        if self._zone_holds is None:
            self._zone_holds = _what_zones_hold(self)
        return self._zone_holds

    def named_param(self, name: str) -> str | None:
        """The title of a parameter a symbol names ('food on unsuitable terrain'), where one does."""
        return self.titles.get(name) if isinstance(self.kinds.get(name), S.Symbol) else None

    def value_noun(self, e) -> tuple[str, str]:
        """What a value is (a player, a space, a number...), as the reader names it here."""
        return _value_noun(self, e)

    def is_someone(self, e) -> bool:
        """Does this value name a player or a team (who 'is' there, not what)?"""
        return _value_noun(self, e) in (_PLAYER, _TEAM, _MEMBER)

    def holder(self, e) -> tuple[str, str] | None:
        """Who holds the piece `e` names (a player, a team), or None where it may lie in a place."""
        return holder_noun(self, e)

    def local(self, n: str) -> Local | None:
        for x in reversed(self.scope):
            if x.name == n:
                return x
        return None

    def subject(self, e) -> bool:
        """Is this expression the item a filter is about (read as 'it')?"""
        x = self.local(e.id) if isinstance(e, S.Name) else None
        return x is not None and x.subject

    def ref(self, x: Local) -> Runs:
        ja, en = x.noun
        if x.runs is not None:
            return x.runs
        if x.subject:
            return [("", say(self.lang, "それ", "it"))]
        if x.role == "titled":
            return [("", "その"), ("term", ja)] if self.lang == "ja" else [("", "the "), ("term", en)]
        if x.role == "param" and x.ordinal <= 2:
            return [("", say(self.lang, ("一方の", "もう一方の")[x.ordinal - 1] + ja, ("one ", "the other ")[x.ordinal - 1] + en))]
        if x.ordinal == 1:
            return [("", say(self.lang, "その" + ja, "that " + en))]
        if x.ordinal == 2:
            return [("", say(self.lang, "もう一方の" + ja, "the other " + en))]
        return [("", say(self.lang, f"{x.ordinal}番目の{ja}", f"the {_ORDINALS_EN[min(x.ordinal, 5)]} {en}"))]

    # ------------------------------------------------------------ names
    def name(self, n: str, article: bool = True) -> Runs:
        """A name as the rulebook says it: a local as 'that player', a number written out,
        a declared thing by its title ('the bid face'), a built-in by its word."""
        x = self.local(n)
        if x is not None:
            return self.ref(x)
        d = self.kinds.get(n)
        if d is None and n in self.local_nouns and n not in self.titles:
            # read out of its loop or rule (the one-page sheet): 'each player', 'that member'
            ja, en = self.local_nouns[n]
            if n in self.param_names:
                return [("", say(self.lang, "その" + ja, "that " + en))]
            return [("", say(self.lang, "各" + ja, "each " + en))]
        if isinstance(d, S.Parameter) and isinstance(d.value, S.Num):
            return [("num", str(d.value.value))]      # numbers written out; the Numbers table names them
        if n in self.titles:
            the = article and self.lang == "en" and isinstance(d, (S.Counter, S.Define, S.Zone, S.Parameter)) \
                and not ARTICLE.match(self.titles[n]) and not QUESTION.match(self.titles[n]) and n not in self.flags
            if self.lang == "ja" and isinstance(d, S.Counter) and self.titles[n].endswith(STATE_ENDINGS):
                return [("", "「"), ("term", self.titles[n]), ("", "」")]      # a state, not a thing: 「バトルに出ている」
            return ([("", "the ")] if the else []) + [("term", self.titles[n])]
        return self.word(n)

    def attribute(self, n: str) -> Runs:
        """What a piece or player carries (a card's suit, a die's face): never a local's name."""
        if n in self.titles and not isinstance(self.kinds.get(n), (S.Rule, S.Trigger, S.Flow)):
            title = self.titles[n]
            if self.lang == "en" and n not in self.kinds and title[1:2].islower():
                title = title[:1].lower() + title[1:]       # titled by an option ('Stake'): a noun mid-sentence
            return [("term", title)]
        return self.word(n)

    def word(self, n: str) -> Runs:
        constant = {"players": say(self.lang, "全員", "every player"), "teams": say(self.lang, "全チーム", "every team"),
                    "player_count": say(self.lang, "人数", "the number of players"),
                    "face": say(self.lang, "目", "face"), "seat": say(self.lang, "席番号", "seat number"),
                    "kind": say(self.lang, "種類", "kind"), "owner": say(self.lang, "持ち主", "owner"),
                    "nobody": say(self.lang, "なし", "nobody"),
                    "true": say(self.lang, "はい", "yes"), "false": say(self.lang, "いいえ", "no")}
        if n in constant:
            return [("", constant[n])]
        return [("code", n)]

    def title(self, n: str) -> str:
        return self.titles.get(n, n)

    # ------------------------------------------------------------ expressions
    def expr(self, e: S.Expr) -> Runs:
        runs = hook(e, "read")(self, e)
        return tidy(runs) if self.lang == "en" else runs

    def exprs(self, items, sep: str | None = None) -> Runs:
        out: Runs = []
        for i, x in enumerate(items):
            if i:
                out.append(("", sep if sep is not None else say(self.lang, "、", ", ")))
            out += self.expr(x)
        return out

    # ------------------------------------------------------------ statements
    def stmt(self, st: S.Stmt) -> Item:
        item = hook(st, "read")(self, st)
        if self.lang == "en":
            item.runs = capital(tidy(item.runs))
        return item

    def body(self, stmts) -> list[Item]:
        return [self.stmt(st) for st in stmts]


STATE_ENDINGS = idioms.STATE_ENDINGS

# a title that is a question takes no article: 'how many cards can win', not 'the how many cards can win'
QUESTION = re.compile(r"(how|what|which|who|whose|when|where) ", re.I)


def _flags(rules: S.RuleFile) -> set[str]:
    """Counters that are marks: one for the game, only ever 0 or 1, titled by a state (「終了条件を満たした」).

    Players set and clear a mark and ask whether it is set; a number it is not."""
    def zero_one(e) -> bool:
        return isinstance(e, S.Num) and e.value in (0, 1)
    out = {d.name for d in rules.of(S.Counter) if d.kind == "counter" and d.per is None and zero_one(d.initial)
           and (title_of(d.texts, "ja") or "").endswith(STATE_ENDINGS)}
    for node in S.walk_rules(rules):
        if isinstance(node, S.Assign) and node.target.name in out and not (node.op == "set" and zero_one(node.value)):
            out.discard(node.target.name)
    return out


def _zone_noun(v: Voice, zone: str) -> tuple[str, str]:
    held = v.zone_holds.get(zone, set())
    if len(held) == 1:
        name = next(iter(held))
        if name in v.titles:
            return (v.titles[name], v.titles[name])
    if held and all(isinstance(v.kinds.get(n), S.Component) and v.kinds[n].kind == "token" for n in held):
        return _PIECE           # workers, houses and vandals alike
    return _THING


def _zone_named(v: Voice, e) -> str | None:
    """The zone (or board) an expression takes pieces from: `hand(p)`, `top(deck)`, `c in deck where ...`."""
    if isinstance(e, S.Name) and isinstance(v.kinds.get(e.id), (S.Zone, S.Board)):
        return e.id
    if isinstance(e, S.Call):
        if isinstance(v.kinds.get(e.fn), (S.Zone, S.Board)):
            return e.fn
        if e.fn in ("all", "top", "first") and e.args:
            return _zone_named(v, e.args[0])
    if isinstance(e, S.Comprehension) and e.item is None:
        return _zone_named(v, e.coll)
    return None


def _what_zones_hold(v: Voice) -> dict[str, set[str]]:
    """Which components can be in each zone: where they start, and wherever a move takes them."""
    holds: dict[str, set[str]] = {}
    for c in v.components:
        if c.home:
            holds.setdefault(c.home, set()).add(c.name)
    moves = []
    # a piece chosen from a zone, or gone through in one, comes from there: `choose card from hand(p)`
    taken = {p.name: _zone_named(v, p.low) for o in S.walk_rules(v.rules) if type(o).__name__ == "Option"
             for p in o.params if p.high is None}
    taken.update({n.var: _zone_named(v, n.coll) for n in S.walk_rules(v.rules) if isinstance(n, S.ForEach)})
    # a piece chosen from a component's pieces wherever they lie (`c from crate`) is one of them
    chosen = {p.name: p.low.id for o in S.walk_rules(v.rules) if type(o).__name__ == "Option" for p in o.params
              if p.high is None and isinstance(p.low, S.Name) and isinstance(v.kinds.get(p.low.id), S.Component)}
    for st in S.walk_rules(v.rules):
        moved = S.transfer(st)
        if moved is not None:
            src = _zone_named(v, moved[0])
            if src is None and isinstance(moved[0], S.Name):
                src = taken.get(moved[0].id)
            dst = _zone_named(v, moved[1])
            if src and dst and src != dst:
                moves.append((src, dst))
            elif dst and isinstance(moved[0], S.Name) and moved[0].id in chosen:
                holds.setdefault(dst, set()).add(chosen[moved[0].id])
    changed = True
    while changed:
        changed = False
        for src, dst in moves:
            new = holds.get(src, set()) - holds.get(dst, set())
            if new:
                holds.setdefault(dst, set()).update(new)
                changed = True
    return holds


def _noun(v: Voice, e, scope: dict | None = None) -> tuple[str, str]:
    """The noun for one item of a collection; scope: the locals known where it stands
    (None: the Voice's own, while reading)."""
    if isinstance(e, S.Name):
        if e.id == "players":
            return _PLAYER
        if e.id == "teams":
            return _TEAM
        known = _known(v, e.id, scope)
        if known is not None:
            return known
        if isinstance(v.kinds.get(e.id), S.Zone):
            return _zone_noun(v, e.id)
        if isinstance(v.kinds.get(e.id), S.Component) and e.id in v.titles:
            return (v.titles[e.id], v.titles[e.id])         # `sp in space`: every space of the tiles
        return _THING
    if isinstance(e, S.Call):
        if e.fn == "alive_players":
            return _PLAYER
        if e.fn == "alive_teams":
            return _TEAM
        if e.fn == "members":
            return _MEMBER
        if e.fn in ("spaces", "neighbours"):
            return _SPACE
        if isinstance(v.kinds.get(e.fn), S.Zone):
            return _zone_noun(v, e.fn)
        if e.fn in ("all", "lowest", "highest", "nth_highest") and e.args:
            arg = e.args[-1]
            if isinstance(arg, S.Comprehension) and e.fn != "all":
                return _noun(v, arg.coll, scope)        # the items ranked, not their keys
            return _noun(v, arg, scope)
        return _THING
    if isinstance(e, S.Comprehension):
        return _noun(v, e.coll, scope) if e.item is None else _THING
    if isinstance(e, S.Range):
        return _NUMBER
    if isinstance(e, S.ListLit):
        if e.items and all(isinstance(i, S.Num) for i in e.items):
            return _NUMBER
        column = _column_of(v, e.items)
        if column is not None:
            return column
        return _value_noun(v, e.items[0], scope) if e.items else _THING
    return _THING


def _column_of(v: Voice, items) -> tuple[str, str] | None:
    """The card attribute whose values a list names ('spade, heart, diamond, club' are suits), by its title."""
    names = {i.id for i in items if isinstance(i, S.Name)}
    if not items or len(names) != len(items):
        return None
    for c in v.components:
        held: dict[str, set] = {}
        for spec in c.cards:
            for attr, value in spec.attrs:
                held.setdefault(attr, set()).add(str(value))
        for attr, values in held.items():
            if names <= values and attr in v.titles:
                return (v.titles[attr], v.titles[attr])
    return None


def _known(v: Voice, name: str, scope: dict | None):
    if scope is not None:
        return scope.get(name)
    x = v.local(name)
    return x.noun if x is not None and x.runs is None else None


def _value_noun(v: Voice, e, scope: dict | None = None) -> tuple[str, str]:
    """What a value is (a player, a team, a number...), to name what receives it."""
    if isinstance(e, S.Name):
        known = _known(v, e.id, scope)
        if known is not None:
            return known
        d = v.kinds.get(e.id)
        if isinstance(d, S.Counter):
            return _variable_noun(v, d) if d.kind == "variable" else _NUMBER
        if isinstance(d, (S.Parameter, S.Define)):
            return _NUMBER
        return _THING
    if isinstance(e, S.Call):
        d = v.kinds.get(e.fn)
        if isinstance(d, S.Counter) and d.kind == "variable":
            return _variable_noun(v, d)
        if isinstance(d, S.Counter):
            return _NUMBER
        if e.fn == "team_of":
            return _TEAM
        if e.fn in ("next_player", "previous_player"):
            return _PLAYER
        if e.fn == "holder" and e.args:
            return holder_noun(v, e.args[0], scope) or _THING
        if e.fn in ("first", "top") and e.args:
            return _noun(v, e.args[0], scope)
        if e.fn in ("count", "sum", "max", "min", "abs", "seat", "size"):
            return _NUMBER
        if isinstance(d, S.Define):
            inner = {p: (scope or {}).get(p, _THING) for p in d.params}
            return _value_noun(v, d.expr, inner) if not isinstance(d.expr, S.Call) or d.expr.fn != e.fn else _THING
        return _THING
    if isinstance(e, (S.Num, S.Binary, S.Unary)):
        return _NUMBER
    if isinstance(e, S.Attr) and e.name in v.titles:
        return (v.titles[e.name], v.titles[e.name])       # a card's suit: 'a colour'
    return _THING


def holder_noun(v: Voice, e, scope: dict | None = None) -> tuple[str, str] | None:
    """Who holds the piece `e` names: a player where every zone kept for someone that can hold such
    pieces is kept per player (or team); None where it may lie in a place of its own (on a space)."""
    noun = _value_noun(v, e, scope)
    names = {c.name for c in v.components if c.name in v.titles and noun == (v.titles[c.name],) * 2} or \
        {c.name for c in v.components if noun in (_PIECE, _THING) and c.kind == "token"}
    kept = {v.kinds[z].per for z, held in v.zone_holds.items() if held & names and isinstance(v.kinds.get(z), S.Zone)
            and v.kinds[z].per is not None} if names else {z.per for z in v.rules.of(S.Zone) if z.per is not None}
    return _PLAYER if kept <= {"player"} else _TEAM if kept == {"team"} else None


def _variable_noun(v: Voice, d) -> tuple[str, str]:
    return v.holds.get(d.name) or (_TEAM if d.per == "team" else _PLAYER)


def _what_variables_hold(v: Voice) -> dict[str, tuple[str, str]]:
    """A variable holds what the rules set it to: a player, a team, a suit..."""
    sets = [n for n in S.walk_rules(v.rules) if isinstance(n, S.Assign) and n.op == "set"
            and isinstance(v.kinds.get(n.target.name), S.Counter) and v.kinds[n.target.name].kind == "variable"]
    for _ in range(3):      # a variable set from another variable learns what that one holds
        for st in sets:
            if isinstance(st.value, S.Name) and st.value.id == "nobody":
                continue
            noun = _value_noun(v, st.value, v.local_nouns)
            if noun != _THING or st.target.name not in v.holds:
                v.holds[st.target.name] = noun
    return v.holds


def _param_nouns(v: Voice) -> dict[tuple[str, int], tuple[str, str]]:
    """(rule or value, parameter index) -> the noun of what its first caller passes."""
    out: dict[tuple[str, int], tuple[str, str]] = {}
    ForEach, Comprehension, Choose, Do, Call, Define = S.ForEach, S.Comprehension, S.Choose, S.Do, S.Call, S.Define

    def visit(node, scope: dict) -> None:
        if isinstance(node, (ForEach, Comprehension)):
            visit(node.coll, scope)
            inner = {**scope, node.var: _noun(v, node.coll, scope)}
            v.local_nouns.setdefault(node.var, inner[node.var])
            for c in S.children(node):
                if c is not node.coll:
                    visit(c, inner)
            return
        if isinstance(node, Choose):
            inner = dict(scope)
            if node.each_var:
                inner[node.each_var] = _noun(v, node.each_coll, scope)
                v.local_nouns.setdefault(node.each_var, inner[node.each_var])
            for o in node.options:
                bound = dict(inner)
                for p in o.params:
                    bound[p.name] = _NUMBER if p.high is not None else _noun(v, p.low, bound)
                    v.local_nouns.setdefault(p.name, bound[p.name])
                for c in S.children(o):
                    visit(c, bound)
            return
        target = node.rule if isinstance(node, Do) else \
            node.fn if isinstance(node, Call) and isinstance(v.kinds.get(node.fn), Define) else None
        if target is not None:
            for i, a in enumerate(node.args):
                noun = _value_noun(v, a, scope)
                if noun != _THING:
                    out.setdefault((target, i), noun)
        for c in S.children(node):
            visit(c, scope)

    for d in v.rules.of(S.Score):     # the score is worked out for each player in turn
        for part in d.parts:
            if isinstance(v.kinds.get(part), Define) and v.kinds[part].params:
                out[(part, 0)] = _PLAYER
    for _ in range(2):      # a rule's parameter can be passed on to another rule
        for d in v.rules.decls:
            params = getattr(d, "params", ()) if isinstance(d, (S.Rule, Define)) else ()
            scope = {p: out.get((d.name, i), _THING) for i, p in enumerate(params)}
            if isinstance(d, S.Trigger) and d.var:
                scope[d.var] = _noun(v, d.coll, scope)
            visit(d, scope)
    return out


def describe(v: Voice, d: S.Decl, counts=()) -> Runs:
    """A declared thing, as the rulebook's tables print it beside its title."""
    return hook(d, "read")(v, d, counts)


def readable() -> set[type]:
    """Every syntax class that has a reading (a test checks none is missing)."""
    return {node for node, c in loaded().items() if not isinstance(c.hooks.get("read", Absent("")), Absent)}
