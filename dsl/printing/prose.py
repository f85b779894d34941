"""The rule language read aloud: every construct's Japanese and English, side by side.

Each expression and statement class has one function here that says it in both languages,
so adding a construct means adding its reading next to the others. Names are read through
the rule file's own titles (`title ja "..." en "..."`); a name without a title is shown
as written, in code style. The output is a list of runs, `(style, text)`, that the
rulebook templates place in HTML or Typst: style is "" (plain), "term" (a titled name),
"code" (a name as written) or "num".
"""
from __future__ import annotations

from typing import Callable

from ..language import syntax as S
from ..engine.builtins import BUILTINS

Runs = list[tuple[str, str]]


UNDECIDED = ("未決", "not yet decided")     # the flag on everything the rules leave open


def plain(runs: Runs) -> str:
    """Runs as plain text."""
    return "".join(t for _, t in runs)


def say(lang: str, ja, en):
    """The one place that picks a language: every reading below passes both."""
    return ja if lang == "ja" else en


class Voice:
    """Reads expressions and statements of one rule set in one language."""

    def __init__(self, rules: S.RuleFile, lang: str):
        self.lang = lang
        self.rules = rules
        self.titles: dict[str, str] = {}
        self.kinds: dict[str, S.Decl] = {}
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

    def _title(self, name: str, texts) -> None:
        t = title_of(texts, self.lang)
        if t:
            self.titles.setdefault(name, t)

    # ------------------------------------------------------------ names
    def name(self, n: str) -> Runs:
        if n in self.titles:
            return [("term", self.titles[n])]
        constant = {"players": say(self.lang, "全員", "every player"), "teams": say(self.lang, "全チーム", "every team"),
                    "nobody": say(self.lang, "なし", "nobody"),
                    "true": say(self.lang, "はい", "yes"), "false": say(self.lang, "いいえ", "no")}
        if n in constant:
            return [("", constant[n])]
        return [("code", n)]

    def title(self, n: str) -> str:
        return self.titles.get(n, n)

    # ------------------------------------------------------------ expressions
    def expr(self, e: S.Expr) -> Runs:
        return _EXPRS[type(e)](self, e)

    def exprs(self, items, sep: str | None = None) -> Runs:
        out: Runs = []
        for i, x in enumerate(items):
            if i:
                out.append(("", sep if sep is not None else say(self.lang, "、", ", ")))
            out += self.expr(x)
        return out

    # ------------------------------------------------------------ statements
    def stmt(self, st: S.Stmt) -> "Item":
        return _STMTS[type(st)](self, st)

    def body(self, stmts) -> list["Item"]:
        return [self.stmt(st) for st in stmts]


class Item:
    """One line of the rulebook with what hangs under it.

    kind: 'step' and 'phase' get numbers and headings; 'assume' is an open question's
    provisional answer (flagged); everything else is a sentence.
    """
    __slots__ = ("kind", "name", "runs", "texts", "children", "flag", "mark", "number", "span")

    def __init__(self, kind: str, runs: Runs, children=(), texts=(), name: str = "", flag: str = "",
                 span: S.Span = S.NOWHERE):
        self.kind, self.runs, self.children, self.texts = kind, runs, list(children), list(texts)
        self.name, self.flag, self.mark, self.number, self.span = name, flag, "", "", span


def title_of(texts, lang: str) -> str | None:
    return S.text_of(texts, "title", lang) or S.text_of(texts, "title", "en" if lang == "ja" else "ja")


def notes_of(texts, lang: str) -> list[tuple[str, str]]:
    """Designer prose other than the title, in the chosen language (the other if only that exists)."""
    kinds = []
    for t in texts:
        if t.kind != "title" and t.kind not in kinds:
            kinds.append(t.kind)
    out = []
    for k in kinds:
        text = S.text_of(texts, k, lang) or S.text_of(texts, k, "en" if lang == "ja" else "ja")
        if text:
            out.append((k, text))
    return out


# ================================================================ expressions

def _num(v: Voice, e: S.Num) -> Runs:
    return [("num", str(e.value))]


def _str(v: Voice, e: S.Str) -> Runs:
    return v.name(e.value)


def _name(v: Voice, e: S.Name) -> Runs:
    return v.name(e.id)


def _call(v: Voice, e: S.Call) -> Runs:
    args = [v.expr(a) for a in e.args]
    if e.fn in BUILTINS and e.fn not in v.kinds:
        b = BUILTINS[e.fn]
        return _fill(say(v.lang, b.ja, b.en), args)
    decl = v.kinds.get(e.fn)
    if isinstance(decl, S.Order):
        return args[0] + [("", "の")] + v.name(e.fn) if v.lang == "ja" else v.name(e.fn) + [("", " of ")] + args[0]
    if isinstance(decl, (S.Zone, S.Counter)) and len(args) == 1:
        # a player's own zone or counter
        return args[0] + [("", say(v.lang, "の", "'s "))] + v.name(e.fn)
    joined = _join(args, say(v.lang, "、", ", "))
    return v.name(e.fn) + ([("", "(")] + joined + [("", ")")] if args else [])


def _fill(template: str, args: list[Runs]) -> Runs:
    """A builtin's reading, e.g. '{0}の数', with its arguments put in."""
    out: Runs = []
    rest = template
    while "{" in rest:
        before, _, after = rest.partition("{")
        index, _, rest = after.partition("}")
        if before:
            out.append(("", before))
        out += args[int(index)] if int(index) < len(args) else []
    if rest:
        out.append(("", rest))
    return out


def _join(parts: list[Runs], sep: str) -> Runs:
    out: Runs = []
    for i, p in enumerate(parts):
        if i:
            out.append(("", sep))
        out += p
    return out


def _attr(v: Voice, e: S.Attr) -> Runs:
    return v.expr(e.obj) + [("", "の")] + v.name(e.name) if v.lang == "ja" else \
        [("", "the ")] + v.name(e.name) + [("", " of ")] + v.expr(e.obj)


def _unary(v: Voice, e: S.Unary) -> Runs:
    if e.op == "not":
        return say(v.lang, [("", "「")] + v.expr(e.operand) + [("", "」ではない")],
                   [("", "not (")] + v.expr(e.operand) + [("", ")")])
    return [("", "−")] + v.expr(e.operand)


# Comparisons read as sentences; arithmetic keeps its symbols, which read the same in both.
_COMPARE = {
    "=": ("{a}が{b}", "{a} is {b}"),
    "!=": ("{a}が{b}ではない", "{a} is not {b}"),
    "<": ("{a}が{b}未満", "{a} is less than {b}"),
    "<=": ("{a}が{b}以下", "{a} is at most {b}"),
    ">": ("{a}が{b}より大きい", "{a} is more than {b}"),
    ">=": ("{a}が{b}以上", "{a} is at least {b}"),
    "and": ("{a}、かつ{b}", "{a} and {b}"),
    "or": ("{a}、または{b}", "{a} or {b}"),
    "+": ("{a} + {b}", "{a} + {b}"),
    "-": ("{a} − {b}", "{a} − {b}"),
    "*": ("{a} × {b}", "{a} × {b}"),
    "//": ("{a} ÷ {b}(端数切り捨て)", "{a} ÷ {b} (rounded down)"),
    "%": ("{a}を{b}で割った余り", "the remainder of {a} ÷ {b}"),
}


def _binary(v: Voice, e: S.Binary) -> Runs:
    ja, en = _COMPARE[e.op]
    template = say(v.lang, ja, en)
    a, b = v.expr(e.left), v.expr(e.right)
    if e.op in ("=", "!=") and v.lang == "ja" and isinstance(e.right, S.Name) and e.right.id == "nobody":
        template = "{a}がいない" if e.op == "=" else "{a}がいる"
    if e.op in ("and", "or"):
        a = _grouped(e.left, a, e.op)
        b = _grouped(e.right, b, e.op)
    return _fill(template.replace("{a}", "{0}").replace("{b}", "{1}"), [a, b])


def _grouped(x: S.Expr, runs: Runs, op: str) -> Runs:
    """`a and (b or c)`: keep the grouping a reader needs."""
    if isinstance(x, S.Binary) and x.op in ("and", "or") and x.op != op:
        return [("", "(")] + runs + [("", ")")]
    return runs


def _if_expr(v: Voice, e: S.IfExpr) -> Runs:
    c, a, b = v.expr(e.cond), v.expr(e.then), v.expr(e.other)
    return say(v.lang, c + [("", "なら")] + a + [("", "、そうでなければ")] + b,
               a + [("", " if ")] + c + [("", ", otherwise ")] + b)


def _list(v: Voice, e: S.ListLit) -> Runs:
    return v.exprs(e.items)


def _comprehension(v: Voice, e: S.Comprehension) -> Runs:
    coll = v.expr(e.coll)
    var = [("code", e.var)]
    cond = v.expr(e.cond) if e.cond is not None else None
    if e.item is None:
        if cond is None:
            return coll
        return say(v.lang, coll + [("", "のうち「")] + cond + [("", "」であるもの(")] + var + [("", ")")],
                   coll + [("", " (each ")] + var + [("", ") such that ")] + cond)
    item = v.expr(e.item)
    where = [] if cond is None else say(v.lang, [("", "(「")] + cond + [("", "」であるもの)")], [("", " such that ")] + cond)
    return say(v.lang, coll + [("", "の各")] + var + where + [("", "の")] + item,
               item + [("", " for each ")] + var + [("", " in ")] + coll + where)


_EXPRS: dict[type, Callable] = {
    S.Num: _num, S.Str: _str, S.Name: _name, S.Call: _call, S.Attr: _attr, S.Unary: _unary,
    S.Binary: _binary, S.IfExpr: _if_expr, S.ListLit: _list, S.Comprehension: _comprehension,
}


# ================================================================ statements

def _sentence(v: Voice, st: S.Stmt, ja: Runs, en: Runs, children=()) -> Item:
    return Item("sentence", say(v.lang, ja, en), children, span=st.span)


def _move(v: Voice, st: S.Move) -> Item:
    dest = v.expr(st.dest)
    # on top is how pieces are always placed; only the exception is worth saying
    place = say(v.lang, "の一番下", " at the bottom") if st.place == "bottom" else ""
    at_ja = [("", place)] if place and v.lang == "ja" else []
    at_en = [("", place)] if place and v.lang == "en" else []
    if st.amount == "item":
        return _sentence(v, st, v.expr(st.count) + [("", "を")] + dest + at_ja + [("", "に移す。")],
                         [("", "Move ")] + v.expr(st.count) + [("", " to ")] + dest + at_en + [("", ".")])
    src = v.expr(st.source)
    if st.amount == "all":
        return _sentence(v, st, src + [("", "を全て")] + dest + at_ja + [("", "に移す。")],
                         [("", "Move everything in ")] + src + [("", " to ")] + dest + at_en + [("", ".")])
    n = v.expr(st.count)
    up_ja, up_en = ([("", "最大")], [("", "up to ")]) if st.amount == "up to" else ([], [])
    return _sentence(v, st, src + [("", "から")] + up_ja + n + [("", "個を")] + dest + at_ja + [("", "に移す。")],
                     [("", "Move ")] + up_en + n + [("", " from ")] + src + [("", " to ")] + dest + at_en + [("", ".")])


def _shuffle(v: Voice, st: S.Shuffle) -> Item:
    z = v.expr(st.zone)
    return _sentence(v, st, z + [("", "をよく混ぜる。")], [("", "Shuffle ")] + z + [("", ".")])


def _roll(v: Voice, st: S.Roll) -> Item:
    z = v.expr(st.zone)
    return _sentence(v, st, z + [("", "を振る。")], [("", "Roll ")] + z + [("", ".")])


def _target(v: Voice, t: S.Target) -> Runs:
    if t.player is None:
        return v.name(t.name)
    return v.expr(t.player) + [("", say(v.lang, "の", "'s "))] + v.name(t.name)


def _assign(v: Voice, st: S.Assign) -> Item:
    t, x = _target(v, st.target), v.expr(st.value)
    if st.op == "set":
        return _sentence(v, st, t + [("", "を")] + x + [("", "にする。")],
                         [("", "Set ")] + t + [("", " to ")] + x + [("", ".")])
    if st.op == "add":
        return _sentence(v, st, t + [("", "に")] + x + [("", "を加える。")],
                         [("", "Add ")] + x + [("", " to ")] + t + [("", ".")])
    return _sentence(v, st, t + [("", "から")] + x + [("", "を引く。")],
                     [("", "Subtract ")] + x + [("", " from ")] + t + [("", ".")])


def _eliminate(v: Voice, st: S.Eliminate) -> Item:
    p = v.expr(st.player)
    return _sentence(v, st, p + [("", "はゲームから脱落する。")], p + [("", " is out of the game.")])


def _reveal(v: Voice, st: S.Reveal) -> Item:
    z = v.expr(st.zone)
    return _sentence(v, st, z + [("", "を全員に公開する。")], [("", "Show everyone ")] + z + [("", ".")])


def _do(v: Voice, st: S.Do) -> Item:
    rule = v.kinds.get(st.rule)
    given: Runs = []
    if isinstance(rule, S.Rule) and st.args:
        pairs = [[("code", p), ("", " = ")] + v.expr(a) for p, a in zip(rule.params, st.args)]
        given = say(v.lang, [("", "(")] + _join(pairs, "、") + [("", ")")],
                    [("", " with ")] + _join(pairs, ", "))
    name = v.name(st.rule)
    return _sentence(v, st, [("", "「")] + name + [("", "」")] + given + [("", "を行う。")],
                     [("", "Carry out “")] + name + [("", "”")] + given + [("", ".")])


def _end_game(v: Voice, st: S.EndGame) -> Item:
    if not st.keys:
        if st.winners is None:
            return _sentence(v, st, [("", "ゲーム終了。勝者はいない。")], [("", "The game ends with no winner.")])
        w = v.expr(st.winners)
        return _sentence(v, st, [("", "ゲーム終了。")] + w + [("", "の勝ち。")],
                         [("", "The game ends: ")] + w + [("", " win.")])
    keys_ja: Runs = []
    keys_en: Runs = []
    for i, k in enumerate(st.keys):
        x = v.expr(k.expr)
        most = {"highest": ("最も高い", "highest"), "lowest": ("最も低い", "lowest")}[k.direction]
        keys_ja += ([("", "、同じなら")] if i else []) + x + [("", "が" + most[0])]
        keys_en += ([("", ", then the " + most[1] + " ")] if i else [("", "the " + most[1] + " ")]) + x
    ties = say(v.lang, "同点のプレイヤーは勝利を分け合う。" if st.ties_share else "同点のときの決め方はルールに書かれていない。",
               " Players who tie share the win." if st.ties_share else " The rules do not say who wins a tie.")
    return _sentence(v, st, [("", "ゲーム終了。")] + keys_ja + [("", "プレイヤーの勝ち。" + ties)],
                     [("", "The game ends. The player with ")] + keys_en + [("", " wins." + ties)])


def _unhandled(v: Voice, st: S.Unhandled) -> Item:
    item = _sentence(v, st, [("", "ここから先はルールに書かれていない。")],
                     [("", "The rules do not say what happens from here.")])
    item.flag = say(v.lang, *UNDECIDED)
    return item


def _pass(v: Voice, st: S.Pass) -> Item:
    return _sentence(v, st, [("", "何もしない。")], [("", "Nothing happens.")])


def _block(v: Voice, st: S.Block) -> Item:
    texts = notes_of(st.texts, v.lang)
    if st.kind == "assume":
        question = v.name(st.name)
        item = Item("assume", say(v.lang, [("", "未決の問題「")] + question + [("", "」: 決まるまでの仮の扱い:")],
                                  [("", "Not yet decided: “")] + question + [("", "”. Until it is, play this way:")]),
                    v.body(st.body), texts, st.name, say(v.lang, *UNDECIDED), st.span)
        return item
    return Item(st.kind, [("term", v.title(st.name))], v.body(st.body), texts, st.name, span=st.span)


def _if(v: Voice, st: S.If) -> Item:
    kids = []
    for i, (cond, body) in enumerate(st.branches):
        c = v.expr(cond)
        head = say(v.lang, ([("", "そうでなく、")] if i else []) + c + [("", "なら:")],
                   [("", "Otherwise, if " if i else "If ")] + c + [("", ":")])
        kids.append(Item("branch", head, v.body(body), span=cond.span))
    if st.otherwise is not None:
        kids.append(Item("branch", [("", say(v.lang, "そうでなければ:", "Otherwise:"))], v.body(st.otherwise)))
    if len(kids) == 1:
        return Item("sentence", kids[0].runs, kids[0].children, span=st.span)
    return Item("sentence", [], kids, span=st.span)


def _cases(v: Voice, st: S.Cases) -> Item:
    kids = [Item("branch", say(v.lang, [("", "「")] + v.expr(c.cond) + [("", "」のとき:")], [("", "When ")] + v.expr(c.cond) + [("", ":")]),
                 v.body(c.body), notes_of(c.texts, v.lang), span=c.span) for c in st.cases]
    return Item("sentence", [("", say(v.lang, "次のうち当てはまる場合に従う。", "Follow the case that applies:"))],
                kids, span=st.span)


def _repeat(v: Voice, st: S.Repeat) -> Item:
    x = v.expr(st.expr)
    head = {"until": say(v.lang, [("", "「")] + x + [("", "」になるまで、次をくり返す:")], [("", "Repeat until ")] + x + [("", ":")]),
            "while": say(v.lang, [("", "「")] + x + [("", "」の間、次をくり返す:")], [("", "Repeat while ")] + x + [("", ":")]),
            "times": say(v.lang, [("", "次を")] + x + [("", "回行う:")], [("", "Do this ")] + x + [("", " times:")])}[st.kind]
    return Item("loop", head, v.body(st.body), span=st.span)


def _for_each(v: Voice, st: S.ForEach) -> Item:
    coll, var = v.expr(st.coll), [("code", st.var)]
    cond = v.expr(st.cond) if st.cond is not None else None
    if v.lang == "ja":
        head = coll + ([("", "のうち「")] + cond + [("", "」であるもの")] if cond else []) + [("", "の一人ずつ(")] + var + [("", ")について:")]
    else:
        head = [("", "For each ")] + var + [("", " in ")] + coll + ([("", " such that ")] + cond if cond else []) + [("", ":")]
    return Item("each", head, v.body(st.body), span=st.span)


def _param(v: Voice, p: S.Param) -> Runs:
    if p.high is None:
        return say(v.lang, v.expr(p.low) + [("", "から")] + v.name(p.name), v.name(p.name) + [("", " from ")] + v.expr(p.low))
    lo, hi = v.expr(p.low), v.expr(p.high)
    return say(v.lang, v.name(p.name) + [("", "(")] + lo + [("", "〜")] + hi + [("", ")")],
               v.name(p.name) + [("", " (")] + lo + [("", " to ")] + hi + [("", ")")])


def option_head(v: Voice, o: S.Option, single: bool) -> Runs:
    """An option's first line: its title, what is chosen, and when it may be chosen."""
    params = _join([_param(v, p) for p in o.params], say(v.lang, "、", ", "))
    head: Runs = [] if single else [("term", v.title(o.name))]
    if params:
        head += say(v.lang, ([("", ": ")] if head else []) + params + [("", "を選ぶ")],
                    ([("", ": choose ")] if head else [("", "Choose ")]) + params)
    if o.where is not None:
        head += say(v.lang, [("", "(ただし")] + v.expr(o.where) + [("", ")")],
                    [("", ", where ")] + v.expr(o.where))
    if o.available is not None:
        head += say(v.lang, [("", "(")] + v.expr(o.available) + [("", "ときのみ)")],
                    [("", " (only if ")] + v.expr(o.available) + [("", ")")])
    if single:
        head.append(("", say(v.lang, "。", ".")))
    return head


def _choose(v: Voice, st: S.Choose) -> Item:
    single = len(st.options) == 1 and st.options[0].name == "choose"
    if st.actor is None:
        who = [("code", st.each_var)] + say(v.lang, [("", "(")] + v.expr(st.each_coll) + [("", "の全員)が同時に、伏せて選ぶ:")],
                                            [("", " (each of ")] + v.expr(st.each_coll) + [("", ") chooses at the same time, face down:")])
    else:
        who = v.expr(st.actor) + [("", say(v.lang, "が選ぶ:", " chooses:"))]
    if single:
        o = st.options[0]
        return Item("choice", who, [Item("option", option_head(v, o, True), v.body(o.body), notes_of(o.texts, v.lang),
                                         span=o.span)], span=st.span)
    if st.actor is not None:
        who = v.expr(st.actor) + [("", say(v.lang, "は次のどれか一つを選ぶ:", " chooses one of:"))]
    return Item("choice", who, [Item("option", option_head(v, o, False), v.body(o.body), notes_of(o.texts, v.lang),
                                     o.name, span=o.span) for o in st.options], span=st.span)


def choice_summary(v: Voice, st: S.Choose) -> tuple[str, list[str]]:
    """Who chooses and each option's first line, for the one-page sheet."""
    if st.actor is not None:
        who = plain(v.expr(st.actor))
    else:
        who = plain(v.expr(st.each_coll)) + say(v.lang, "(同時に、伏せて)", " (at the same time, face down)")
    single = len(st.options) == 1 and st.options[0].name == "choose"
    return who, [plain(option_head(v, o, single)) for o in st.options]


_STMTS: dict[type, Callable] = {
    S.Move: _move, S.Shuffle: _shuffle, S.Roll: _roll, S.Assign: _assign, S.Eliminate: _eliminate,
    S.Reveal: _reveal, S.Do: _do, S.EndGame: _end_game, S.Unhandled: _unhandled, S.Pass: _pass,
    S.Block: _block, S.If: _if, S.Cases: _cases, S.Repeat: _repeat, S.ForEach: _for_each, S.Choose: _choose,
}


# ================================================================ rules, triggers, questions
# Each becomes an Item of its own in the rulebook ("Rules in detail", "Rules that apply at
# any time"), and an open question is also flagged at the rule or step it is about.

def whenever(v: Voice, t: S.Trigger) -> str:
    c = plain(v.expr(t.cond))
    return say(v.lang, f"「{c}」になったら、すぐに:", f"As soon as {c}:")


def rule_item(v: Voice, r: S.Rule) -> Item:
    it = Item("rule", [("term", v.title(r.name))], v.body(r.body), notes_of(r.texts, v.lang), r.name, span=r.span)
    if r.params:
        p = ", ".join(r.params)
        it.texts.insert(0, ("params", say(v.lang, f"受け取るもの: {p}", f"takes: {p}")))
    return it


def trigger_item(v: Voice, t: S.Trigger) -> Item:
    it = Item("rule", [("term", v.title(t.name))], v.body(t.body), notes_of(t.texts, v.lang), t.name, span=t.span)
    head = whenever(v, t)
    if t.var:
        c = f"{t.var}: {plain(v.expr(t.coll))}"
        head += " " + say(v.lang, f"(対象: {c})", f"(for each {c})")
    it.texts.insert(0, ("when", head))
    return it


def open_question(v: Voice, q: S.Question) -> Item:
    text = " ".join(t for _, t in notes_of(q.texts, v.lang))
    return Item("question", say(v.lang, [("", "未決の問題「")] + v.name(q.name) + [("", "」")],
                                [("", "Not yet decided: “")] + v.name(q.name) + [("", "”")]),
                texts=[("text", text)] if text else [], name=q.name, flag=say(v.lang, *UNDECIDED), span=q.span)


# ================================================================ declarations
# What the rulebook prints beside a declared thing's title. `counts` gives, for a component,
# (player count, pieces) as the engine builds the game at each count.

def _kept_per(v: Voice, d) -> str:
    key = d.per
    if key is None:
        return say(v.lang, "共有", "shared")
    if key == "player":
        return say(v.lang, "各プレイヤー", "each player")
    if key == "team":
        return say(v.lang, "各チーム", "each team")
    return say(v.lang, f"{v.title(key)}ごと", f"one for each {v.title(key)}")


def _component(v: Voice, c: S.Component, counts=()) -> Runs:
    kind = {"dice": ("さいころ", "dice"), "deck": ("カード", "cards"), "token": ("コマ", "tokens")}[c.kind]
    out: Runs = [("", say(v.lang, *kind) + ": ")]
    if len({k for _, k in counts}) == 1:
        out.append(("num", str(counts[0][1])))
    else:
        out.append(("num", " · ".join(say(v.lang, f"{n}人: {k}", f"{n} players: {k}") for n, k in counts)))
    if c.faces:
        faces = [S.Num(S.NOWHERE, f) if isinstance(f, int) else S.Name(S.NOWHERE, str(f)) for f in c.faces]
        out += [("", " — " + say(v.lang, "目", "faces") + " ")] + v.exprs(faces)
    if c.wild is not None:
        out.append(("", ", " + say(v.lang, "ワイルド", "wild") + " " + str(c.wild)))
    return out


def _zone(v: Voice, z: S.Zone, counts=()) -> Runs:
    seen = {"owner": ("持ち主だけが見る", "only its owner looks"), "everyone": ("全員が見る", "open to everyone"),
            "nobody": ("誰も見ない", "nobody looks")}[z.seen_by]
    return [("", f"{_kept_per(v, z)} · {say(v.lang, *seen)}")]


def _board(v: Voice, b: S.Board, counts=()) -> Runs:
    return [("num", f"{b.width} × {b.height}")]


def _parameter(v: Voice, p: S.Parameter, counts=()) -> Runs:
    if p.value is not None:
        return v.expr(p.value)
    out: Runs = []
    for i, (n, x) in enumerate(p.by_players):
        out += ([("", " · ")] if i else []) + [("", say(v.lang, f"{n}人: ", f"{n} players: "))] + v.expr(x)
    if p.otherwise is not None:
        out += [("", " · " + say(v.lang, "それ以外: ", "otherwise: "))] + v.expr(p.otherwise)
    return out


def _counter(v: Voice, c: S.Counter, counts=()) -> Runs:
    out: Runs = [("", _kept_per(v, c) + " · ")] if c.per else []
    out += [("", say(v.lang, "開始時", "starts at") + " ")] + v.expr(c.initial)
    if c.minimum is not None:
        out += [("", ", " + say(v.lang, "最小", "at least") + " ")] + v.expr(c.minimum)
    if c.maximum is not None:
        out += [("", ", " + say(v.lang, "最大", "at most") + " ")] + v.expr(c.maximum)
    return out


def _define(v: Voice, d: S.Define, counts=()) -> Runs:
    return ([("code", "(" + ", ".join(d.params) + ") ")] if d.params else []) + v.expr(d.expr)


def _order(v: Voice, o: S.Order, counts=()) -> Runs:
    return [("", " > ".join(" = ".join(plain(v.name(str(x))) for x in group) for group in o.ranks))]


def _question(v: Voice, q: S.Question, counts=()) -> Runs:
    if not q.about:
        return []
    return [("", say(v.lang, f"関係するルール: {v.title(q.about)}", f"concerns: {v.title(q.about)}"))]


_DECLS: dict[type, Callable] = {
    S.Component: _component, S.Zone: _zone, S.Board: _board, S.Parameter: _parameter, S.Counter: _counter,
    S.Define: _define, S.Order: _order, S.Question: _question,
}


def describe(v: Voice, d: S.Decl, counts=()) -> Runs:
    """A declared thing, as the rulebook's tables print it beside its title."""
    return _DECLS[type(d)](v, d, counts)


def readable() -> set[type]:
    """Every syntax class this module can say (a test checks none is missing)."""
    return set(_EXPRS) | set(_STMTS) | set(_DECLS) | {S.Rule, S.Trigger}
