"""Idioms: shapes of the rule tree that players say in one phrase, recognised wherever a rule
set writes them (no game's words here: each phrase is filled with the rule set's own titles).

- a raise: `a >= A and b >= B and (a > A or b > B)`, "neither goes down and at least one goes
  up" (and its mirror, a lowering);
- a count with wilds: `x in Z where F = x.face or wild(x)` (either order), "showing F or a 6 (wild)";
- the next player still in: `next_player(p)` where the rules put players out of the game;
- passing the turn: the player who chooses in a loop set to `next_player` of itself;
- a rule called from one place, read with its caller's words (the arguments of its one call);
- a state kept for each player: `X(p) = 1` is "p is X", and `count(p in players where X(p) = 1) > 1`
  is "more than one player is X";
- a ranking of what a filter has already made equal (`highest(X(q) for q in C where X(q) = 1)`): the
  filtered collection itself;
- options that each only set the same value to a number of their own: a choice of that value, named
  by the options' titles (Rock, Scissors or Paper);
- pieces chosen in order only to make each set one choice (`a < b and b < c`): "3 different cards".

Comparisons said in words (a piece of a kind, someone reaching a number, two things alike) are in
comparisons.py.

May import: the syntax and runs.py only (a leaf, as blocks.py is: the constructs' readings use it).
"""
from __future__ import annotations

from contextlib import ExitStack

from ..language import syntax as S
from .runs import Runs, join, negate, plain, possessive, say, title_of

# how a comparison leans, read from its left side: `a >= A` (a may not go below A)
_LEAN = {">=": ("up", False), ">": ("up", True), "<=": ("down", False), "<": ("down", True)}


def parts_of(e, op: str) -> list:
    """What an `and` (or an `or`) joins, however it nests."""
    if isinstance(e, S.Binary) and e.op == op:
        return parts_of(e.left, op) + parts_of(e.right, op)
    return [e]


def raised(e) -> tuple[str, list] | None:
    """A raise: every pair (a, A) kept at least where it stood and at least one moved past it.
    Returns ('up' or 'down', [(a, A), ...]) in the order the rule writes them, or None."""
    if not (isinstance(e, S.Binary) and e.op == "and"):
        return None
    weak, strict, lean = [], None, set()
    for p in parts_of(e, "and"):
        if isinstance(p, S.Binary) and p.op in _LEAN and not _LEAN[p.op][1]:
            weak.append((p.left, p.right))
            lean.add(_LEAN[p.op][0])
        elif isinstance(p, S.Binary) and p.op == "or" and strict is None:
            strict = []
            for q in parts_of(p, "or"):
                if not (isinstance(q, S.Binary) and q.op in _LEAN and _LEAN[q.op][1]):
                    return None
                strict.append((q.left, q.right))
                lean.add(_LEAN[q.op][0])
        else:
            return None
    if strict is None or len(weak) < 2 or len(lean) != 1 or len(strict) != len(weak) \
            or any(pair not in weak for pair in strict):
        return None
    return lean.pop(), weak


def read_raise(v, lean: str, pairs: list) -> Runs:
    """'neither goes down and at least one goes up (the face at least the bid face, ...)'."""
    two = len(pairs) == 2
    if v.lang == "ja":
        keep, move, bound = ("下げず", "上げる", "以上") if lean == "up" else ("上げず", "下げる", "以下")
        head = ("どちらも" if two else "どれも") + keep + "、少なくとも" + ("一方" if two else "一つ") + "を" + move
        said = join([v.expr(a) + [("", "は")] + v.expr(b) + [("", bound)] for a, b in pairs], "、")
        return [("", head + ": ")] + said + [("", "で、" + ("両方" if two else "すべて") + "同じは不可")]
    keep, move, bound = ("down", "up", "at least") if lean == "up" else ("up", "down", "at most")
    head = ("neither" if two else "none") + f" goes {keep} and at least one goes {move}"
    said = join([v.expr(a) + [("", f" {bound} ")] + v.expr(b) for a, b in pairs], ", ")
    return [("", head + ": ")] + said + [("", ", not " + ("both" if two else "all") + " the same")]


def wild_count(e) -> S.Expr | None:
    """`x in Z where F = x.face or wild(x)` (either order): the face F the wilds stand in for."""
    if not (isinstance(e, S.Comprehension) and e.item is None and isinstance(e.cond, S.Binary) and e.cond.op == "or"):
        return None
    parts = parts_of(e.cond, "or")
    wild = [p for p in parts if isinstance(p, S.Call) and p.fn == "wild" and len(p.args) == 1
            and isinstance(p.args[0], S.Name) and p.args[0].id == e.var]
    faces = [p for p in parts if isinstance(p, S.Binary) and p.op == "=" and isinstance(p.left, S.Attr)
             and isinstance(p.left.obj, S.Name) and p.left.obj.id == e.var and p.left.name == "face"]
    if len(parts) != 2 or len(wild) != 1 or len(faces) != 1:
        return None
    return faces[0].right


def read_wild_count(v, e, face: S.Expr) -> Runs:
    """'every player's dice showing the bid face or a 6 (wild)'."""
    wilds = [str(c.wild) for c in v.components if c.kind == "dice" and c.wild is not None]
    coll = v.expr(e.coll)
    with v.bound(e.var, v.noun(e.coll), subject=True):
        shown = v.expr(face)
    if v.lang == "ja":
        wild = "か".join(wilds) + "(ワイルド)" if wilds else "ワイルドの目"
        return coll + [("", "のうち、")] + shown + [("", f"か{wild}を出しているもの")]
    wild = "a " + " or ".join(wilds) + " (wild)" if wilds else "a wild face"
    return coll + [("", " showing ")] + shown + [("", f" or {wild}")]


def puts_players_out(rules: S.RuleFile) -> bool:
    """Can a player leave the game before it ends? Then 'the next player' skips those out."""
    return any(isinstance(n, S.Eliminate) for n in S.walk_rules(rules))


def turns(rules: S.RuleFile) -> set[str]:
    """Variables that say whose turn it is: one names who chooses, and the rules pass it to the next player."""
    chooses = {n.actor.id for n in S.walk_rules(rules) if isinstance(n, S.Choose) and isinstance(n.actor, S.Name)}
    return {n.target.name for n in S.walk_rules(rules) if isinstance(n, S.Assign) and n.target.name in chooses
            and isinstance(n.value, S.Call) and n.value.fn == "next_player" and n.value.args == (S.Name(n.span, n.target.name),)}


def passes_turn(v, st) -> bool:
    """`set speaker to next_player(speaker)` where `speaker` chooses: the turn passes on."""
    value = st.value
    return st.op == "set" and isinstance(value, S.Call) and value.fn == "next_player" and len(value.args) == 1 \
        and isinstance(value.args[0], S.Name) and value.args[0].id == st.target.name and st.target.name in v.turns


def read_pass_turn(v, st) -> Runs:
    """'The turn passes to the next player still in (the new player to speak).'"""
    who = v.name(st.target.name, article=False)
    still = v.eliminates
    if v.lang == "ja":
        return [("", "手番は次の" + ("、まだ残っている" if still else "") + "プレイヤーに移る(その人が新しい")] + who + [("", ")。")]
    return [("", "The turn passes to the next player" + (" still in" if still else "") + " (the new ")] + who + [("", ").")]


def free_of_locals(e, known: set[str]) -> bool:
    """Does an argument say the same wherever it is read: every name in it declared or a constant,
    no loop item, choice or parameter of the place it is passed from?"""
    if isinstance(e, S.Name):
        return e.id in known
    if isinstance(e, S.Comprehension):
        return free_of_locals(e.coll, known) and all(free_of_locals(c, known | {e.var}) for c in S.children(e)
                                                     if isinstance(c, S.Expr) and c is not e.coll)
    return all(free_of_locals(c, known) for c in S.children(e) if isinstance(c, S.Expr))


def calls(rules: S.RuleFile) -> dict[str, list[tuple[str, S.Stmt]]]:
    """Each rule's calls, with the declaration (rule, trigger, setup or play) each stands in."""
    out: dict[str, list] = {}
    for d in rules.decls:
        if isinstance(d, (S.Rule, S.Trigger, S.Flow)):
            for n in S.walk(d):
                if isinstance(n, S.Do):
                    out.setdefault(n.rule, []).append((d.name, n))
    return out


def single_call(v, rule: str) -> S.Stmt | None:
    """A rule carried out from exactly one place, with arguments that read the same in the rule:
    the rule says its parameters in the caller's words ('the challenger') instead of 'the player
    concerned', and the call need not repeat them."""
    found = v.calls.get(rule, [])
    if len(found) == 1 and found[0][1].args and all(free_of_locals(a, _known(v)) for a in found[0][1].args):
        return found[0][1]
    return None


def _known(v) -> set[str]:
    return set(v.kinds) | {"players", "teams", "nobody", "true", "false"}


def acted_by(v, rule) -> list | None:
    """A rule of one parameter that every call passes the one who carries it out ('the player
    holding the highest trump carries out …'), all from one place: the arguments, in call order.
    The rule then names its parameter as the acting player, and says once who that is."""
    found = v.calls.get(rule.name, [])
    if len(rule.params) != 1 or not found or one_caller(v, rule.name) is None \
            or any(len(call.args) != 1 or not v.is_someone(call.args[0]) for _, call in found):
        return None
    return [call.args[0] for _, call in found]


def read_acted_by(v, where: str, args: list, noun: tuple[str, str]) -> str:
    """'Carried out within “Who wins the trick” by the player holding the highest trump or …:
    below, the acting player.'"""
    said: list[str] = []
    if all(free_of_locals(a, _known(v)) for a in args):
        for a in args:
            # who wins a tie is said where the call is; here the one named is enough
            ranked = {x.args[0].id for x in S.walk(a) if isinstance(x, S.Call) and x.fn == "first"
                      and x.args and isinstance(x.args[0], S.Name)}
            with ExitStack() as known:
                for name in ranked:
                    known.enter_context(v.only(name))
                one = plain(v.expr(a))
            if one not in said:
                said.append(one)
    if v.lang == "ja":
        who = "、または".join(said) + "が行う" if said else "行う。だれが行うかはそこに書いてある"
        return f"「{where}」の中で、{who}(以下「行う{noun[0]}」)。" if said else f"「{where}」の中で{who}(以下「行う{noun[0]}」)。"
    who = " by " + " or ".join(said) if said else ", which says who"
    return f"Carried out within “{where}”{who}: below, the acting {noun[1]}."


def acting(v, noun: tuple[str, str]) -> Runs:
    """The one who carries out a rule (acted_by), as the rule's sentences name them."""
    return [("", say(v.lang, "行う" + noun[0], "the acting " + noun[1]))]


def one_caller(v, rule: str) -> str | None:
    """The one declaration every call of a rule stands in, if there is one."""
    where = {d for d, _ in v.calls.get(rule, [])}
    return where.pop() if len(where) == 1 else None


# ---------------------------------------------------------------- 'first' in a ranking
RANKINGS = ("highest", "lowest", "nth_highest")


def ranking(v, e) -> S.Expr | None:
    """The collection a ranking ranks, where `e` is one (or a value defined as one): `first` of it
    picks among those tied by the collection's own order, which the book has to say in words."""
    if isinstance(e, S.Name) and isinstance(v.kinds.get(e.id), S.Define) and not v.kinds[e.id].params:
        e = v.kinds[e.id].expr
    if isinstance(e, S.Call) and e.fn in RANKINGS and e.fn not in v.kinds and isinstance(e.args[-1], S.Comprehension):
        return e.args[-1].coll
    return None


def only_one(cond) -> str | None:
    """`count(X) = 1`: within it, `first(X)` is simply the X."""
    if isinstance(cond, S.Binary) and cond.op == "=" and isinstance(cond.right, S.Num) and cond.right.value == 1 \
            and isinstance(cond.left, S.Call) and cond.left.fn == "count" and isinstance(cond.left.args[0], S.Name):
        return cond.left.args[0].id
    return None


def tie_order(v, coll) -> str:
    """Which of those tied `first` takes, in words: seat order for players and teams, the holder's
    seat for every player's pieces, the order pieces were put in a shared zone."""
    if isinstance(coll, S.Name) and coll.id in ("players", "teams") or \
            isinstance(coll, S.Call) and coll.fn in ("alive_players", "alive_teams"):
        return say(v.lang, "同点なら席番号の最も小さいもの", "on a tie, the one in the lowest seat")
    zone = coll.args[0] if isinstance(coll, S.Call) and coll.fn == "all" and coll.args else coll
    name = zone.id if isinstance(zone, S.Name) else zone.fn if isinstance(zone, S.Call) else ""
    d = v.kinds.get(name)
    if isinstance(d, S.Zone) and d.per in ("player", "team"):
        return say(v.lang, "同点なら、持ち主の席番号が最も小さいもの", "on a tie, the one whose owner sits in the lowest seat")
    if isinstance(d, S.Zone):
        return say(v.lang, "同点なら、先に置かれたもの", "on a tie, the one put there first")
    return say(v.lang, "同点なら、並びの最初のもの", "on a tie, the first as listed")


# ---------------------------------------------------------------- what players keep track of
def where_set(v) -> dict[str, list[str]]:
    """Each counter or variable, with the titled steps, options, rules and triggers that change it,
    in book order: what players keep track of is said by when it changes, not by its start value."""
    out: dict[str, list[str]] = {}

    def visit(node, place: str | None, printed_options: bool = False) -> None:
        if isinstance(node, S.Block) and node.kind in ("step", "phase") or isinstance(node, (S.Rule, S.Trigger)):
            place = v.titles.get(node.name, place)
        elif type(node).__name__ == "Option" and printed_options:
            # an option by its own title, where the book prints it: one of several, not a lone choice
            place = title_of(node.texts, v.lang) or place
        if isinstance(node, S.Assign) and place:
            places = out.setdefault(node.target.name, [])
            if place not in places:
                places.append(place)
        for c in S.children(node):
            if isinstance(c, S.Node):
                visit(c, place, isinstance(node, S.Choose) and len(node.options) > 1)

    for d in v.rules.decls:
        if isinstance(d, (S.Flow, S.Rule, S.Trigger)):
            visit(d, None)
    return out


def kept_for(v, first: Runs, second: Runs, title: Runs) -> Runs:
    """A value kept per two keys: 「そのプレイヤーのその列の進み」, "that player's progress for that column"."""
    if v.lang == "ja":
        return first + [("", "の")] + second + [("", "の")] + title
    return possessive(v.lang, first, title) + [("", " for ")] + second


def kept(v, c, per: str) -> Runs:
    """A counter or variable as players keep it: 'Whose turn it is. Changes in “Raise or challenge”.'"""
    ja, en = [], []
    if c.kind == "variable" and c.per is None and c.name in v.turns:
        ja.append("いまだれの手番か。")
        en.append("Whose turn it is.")
    if c.per:
        ja.append(f"{per}に一つ。")
        en.append(per[:1].upper() + per[1:] + "." if per.startswith("one for") else f"One for {per}.")
    start = c.initial
    if all(n.op == "set" for n in S.walk_rules(v.rules) if isinstance(n, S.Assign) and n.target.name == c.name) \
            and c.name in v.set_in:
        start = None        # what is set before it is read has no start value a player needs
    if c.name in v.flags:
        ja.append("はじめは付いていない。")
        en.append("Not set at the start.")
    elif start is not None and not (isinstance(start, S.Name) and start.id == "nobody"):
        first = plain(v.expr(start))
        ja.append(f"はじめは{first}。")
        en.append(f"Starts at {first}.")
    bounds = [(b, j, e) for b, j, e in ((c.minimum, "より小さくならない", "never below"),
                                         (c.maximum, "より大きくならない", "never above")) if b is not None]
    runs: Runs = [("", say(v.lang, "".join(ja), " ".join(en)))]
    # a start outside the bounds means 'not yet placed': the bounds hold once it has changed
    outside = isinstance(start, S.Num) and any(
        isinstance(b, S.Num) and (start.value < b.value if j.startswith("より小") else start.value > b.value) for b, j, _ in bounds)
    for k, (b, j, e) in enumerate(bounds):
        lead = ("変わった後は", "Once changed, " + e) if outside and k == 0 else ("", e.capitalize())
        runs += say(v.lang, [("", lead[0])] + v.expr(b) + [("", j + "。")], [("", f" {lead[1]} ")] + v.expr(b) + [("", ".")])
    places = v.set_in.get(c.name, [])
    if places:
        named = [[("", say(v.lang, "「", "“")), ("", p), ("", say(v.lang, "」", "”"))] for p in places]
        runs += say(v.lang, join(named, "、") + [("", "で変わる。")], [("", " Changes in ")] + join(named, ", ") + [("", ".")])
    return [(k, t) for k, t in runs if t]


# ---------------------------------------------------------------- a state kept for each player
# a title read as a state rather than a thing: 「終了条件を満たした」, 「じゃんけんに残っている」
STATE_ENDINGS = ("る", "た", "い")

# English titles of conditions that already start with their verb ('has life', 'faces the other team')
VERBS = {"has", "is", "are", "stands", "faces", "wins", "not", "no", "holds", "shows", "can", "may", "lost", "won"}


def states(rules: S.RuleFile) -> set[str]:
    """Counters kept for each player or team, titled by a state and starting at 0 or 1: players
    ask whether someone is in it, not how much of it they have."""
    return {d.name for d in rules.of(S.Counter) if d.kind == "counter" and d.per in ("player", "team") and d.per2 is None
            and isinstance(d.initial, S.Num) and d.initial.value in (0, 1)
            and (title_of(d.texts, "ja") or "").endswith(STATE_ENDINGS)}


# (comparison, number) -> whether `X(p) <op> n` says p is in the state X
_HOLDS = {("=", 1): True, (">", 0): True, (">=", 1): True, ("!=", 0): True, ("=", 0): False}


def in_state(v, e) -> tuple[S.Expr, str, bool] | None:
    """`X(p) = 1` (or `> 0`) where X is a state: (p, X, True); `X(p) = 0`: (p, X, False)."""
    if isinstance(e, S.Binary) and isinstance(e.left, S.Call) and e.left.fn in v.states \
            and len(e.left.args) == 1 and isinstance(e.right, S.Num):
        holds = _HOLDS.get((e.op, e.right.value))
        if holds is not None:
            return e.left.args[0], e.left.fn, holds
    return None


def read_state(v, who, name: str, holds: bool) -> Runs:
    """'that player is still in the game', 「そのプレイヤーがゲームに残っている」; of a filter's item, the state alone."""
    title = v.title(name)
    if v.lang == "ja":
        said = [("term", title)] if holds else negate([("term", title)])
        return said if v.subject(who) else v.expr(who) + [("", "が")] + said
    verb = "" if title.split(" ")[0] in VERBS else "is "
    if v.subject(who):
        return [("", "" if holds else "not "), ("term", title)]
    return v.expr(who) + [("", " " + verb + ("" if holds else "not "))] + [("term", title)]


def read_set_state(v, who, name: str, holds: bool) -> Runs:
    """`set X(p) to 1` / `to 0` of a state: 'That player is now still in ...', 「…を「残っている」から外す」."""
    title = v.title(name)
    if v.lang == "ja":
        return v.expr(who) + [("", "を「"), ("term", title), ("", "」" + ("にする。" if holds else "から外す。"))]
    if not holds and title.startswith("still "):
        # 'no longer in the game': the term's words without its 'still', no longer the term as titled
        return v.expr(who) + [("", " is no longer " + title[len("still "):] + ".")]
    return v.expr(who) + [("", " is now " if holds else " is no longer "), ("term", title), ("", ".")]


_COUNT_EN = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def _counted(v, e) -> S.Comprehension | None:
    """`count(x in C where F) <op> n`: the filter counted, when the built-in count is compared with a number."""
    if not (isinstance(e, S.Binary) and isinstance(e.right, S.Num) and isinstance(e.left, S.Call)
            and e.left.fn == "count" and "count" not in v.kinds and len(e.left.args) == 1):
        return None
    c = e.left.args[0]
    return c if isinstance(c, S.Comprehension) and c.item is None else None


def state_count(v, e) -> tuple[S.Comprehension, str, str, int] | None:
    """`count(p in players where X(p) = 1) > 1` with X a state: (the filter, X, the comparison, the number)."""
    c = _counted(v, e)
    if c is None or e.op not in (">", ">=", "=", "<", "<=") or not (isinstance(c.coll, S.Name)
                                                                   and c.coll.id in ("players", "teams")):
        return None
    state = in_state(v, c.cond)
    if state is None or not state[2] or not (isinstance(state[0], S.Name) and state[0].id == c.var):
        return None
    return c, state[1], e.op, e.right.value


def read_state_count(v, c, name: str, op: str, n: int) -> Runs:
    """'more than one player is still in the game', 「ゲームに残っているプレイヤーが2人以上いる」."""
    title = v.title(name)
    team = c.coll.id == "teams"
    if v.lang == "ja":
        noun, unit = ("チーム", "チーム") if team else ("プレイヤー", "人")
        k = n + 1 if op == ">" else n
        tail = {">": f"が{k}{unit}以上いる", ">=": f"が{k}{unit}以上いる", "=": f"が{k}{unit}だけ",
                "<": f"が{k}{unit}未満", "<=": f"が{k}{unit}以下"}[op]
        if (op, n) in ((">", 0), (">=", 1)):
            tail = "がいる"
        elif (op, n) in (("=", 0), ("<", 1), ("<=", 0)):
            tail = "がいない"
        return [("term", title), ("", noun + tail)]
    noun = "team" if team else "player"
    if (op, n) in ((">", 0), (">=", 1)):
        op, n = ">=", 1
    if (op, n) in (("<", 1), ("<=", 0)):
        op, n = "=", 0
    k = _COUNT_EN.get(n, str(n))
    lead = {">": f"more than {k}", ">=": f"at least {k}", "=": "no" if n == 0 else f"exactly {k}",
            "<": f"fewer than {k}", "<=": f"at most {k}"}[op]
    one = n == 0 and op == "=" or n == 1 and op != "<"
    verb = "" if title.split(" ")[0] in VERBS else ("is " if one else "are ")
    return [("", f"{lead} {noun}{'' if one else 's'} {verb}"), ("term", title)]


def any_of(v, e) -> tuple[S.Comprehension, bool] | None:
    """`count(x in C where F) > 0` (or `= 0`): whether any of C meets F, said without a number."""
    c = _counted(v, e)
    some = None if c is None or c.cond is None else \
        {(">", 0): True, ("!=", 0): True, (">=", 1): True, ("=", 0): False, ("<", 1): False}.get((e.op, e.right.value))
    return None if some is None else (c, some)


def read_any_of(v, c, some: bool) -> Runs:
    """'there is at least one of the players still in where hand is empty', 「…のうち、手札が空であるものがいる」."""
    those = v.expr(c)
    if v.lang == "ja":
        someone = v.noun(c.coll) in (("プレイヤー", "player"), ("チーム", "team"), ("メンバー", "member"))
        return those + [("", ("がいる" if someone else "がある") if some else ("がいない" if someone else "がない"))]
    if isinstance(c.coll, S.Name) and c.coll.id in ("players", "teams") and those and those[0][1].startswith("every "):
        those = [(those[0][0], those[0][1][len("every "):])] + those[1:]
    else:
        those = [("", "of ")] + those
    return [("", "there is at least one " if some else "there is not one ")] + those


def state_filter(v, var: str, coll, cond) -> tuple[str, S.Expr | None] | None:
    """`p in players where X(p) = 1 [and rest]` with X a state: (X, the rest or None), read as
    'every player X [where rest]'."""
    if cond is None or not (isinstance(coll, S.Name) and coll.id in ("players", "teams")):
        return None
    parts = parts_of(cond, "and")
    state = in_state(v, parts[0])
    if state is None or not state[2] or not (isinstance(state[0], S.Name) and state[0].id == var):
        return None
    rest = None
    for p in parts[1:]:
        rest = p if rest is None else S.Binary(p.span, "and", rest, p)
    return state[1], rest


def settled_ranking(e: S.Comprehension) -> bool:
    """`highest(X(q) for q in C where X(q) = 1)`: the filter already makes every key the same, so
    the ranking keeps them all."""
    parts = parts_of(e.cond, "and") if e.cond is not None else []
    return any(isinstance(p, S.Binary) and p.op == "=" and isinstance(p.right, S.Num) and p.left == e.item
               for p in parts)


def chosen_value(st) -> tuple[S.Target, list] | None:
    """Options that each only set the same value to a number of their own, and say nothing more
    than their titles: (the value set, [(option, number)...]): the choice is of that value, the
    options its names."""
    found = []
    for o in st.options:
        own = [t for t in o.texts if t.kind != "title"]
        if o.params or o.where is not None or o.available is not None or own or not any(t.kind == "title" for t in o.texts) \
                or len(o.body) != 1 or not isinstance(o.body[0], S.Assign) or o.body[0].op != "set" \
                or not isinstance(o.body[0].value, S.Num):
            return None
        found.append((o, o.body[0]))
    targets = {(a.target.name, a.target.player) for _, a in found}
    numbers = [a.value.value for _, a in found]
    if len(found) < 2 or len(targets) != 1 or len(set(numbers)) != len(numbers):
        return None
    return found[0][1].target, [(o, a.value.value) for o, a in found]


def read_chosen_value(v, target, options) -> Runs:
    """'their throw: Rock, Scissors or Paper (counted as 1, 2 and 3)', 「手を選ぶ: グー、チョキ、パーのどれか(…)」."""
    names = [[("", title_of(o.texts, v.lang))] for o, _ in options]       # named here, where they are chosen
    numbers = [str(n) for _, n in options]
    if v.lang == "ja":
        return [("term", v.title(target.name)), ("", "を選ぶ: ")] + join(names, "、") + \
            [("", "のどれか(それぞれ" + "、".join(numbers) + "として数える)")]
    listed = join(names[:-1], ", ") + [("", " or ")] + names[-1]
    return [("", "their "), ("term", v.title(target.name)), ("", ": ")] + listed + \
        [("", " (counted as " + ", ".join(numbers[:-1]) + " and " + numbers[-1] + ")")]


def distinct_picks(o) -> int | None:
    """`a from Z, b from Z, c from Z where a < b and b < c`: n different pieces of Z, the order only
    there so that each set is one choice (`a != b` is not one: there the two play different parts);
    `a, b from Z` says so itself."""
    ps = o.params
    if getattr(o, "alike", ()):
        return len(ps) if len(o.alike) == 1 and len(o.alike[0]) == len(ps) else None
    if len(ps) < 2 or o.where is None or any(p.high is not None for p in ps) \
            or not all(S.same(p.low, ps[0].low) for p in ps):
        return None
    names = [p.name for p in ps]
    said = [(c.op, c.left.id, c.right.id) if isinstance(c, S.Binary) and isinstance(c.left, S.Name)
            and isinstance(c.right, S.Name) else None for c in parts_of(o.where, "and")]
    pairs = list(zip(names, names[1:]))
    return len(ps) if said in ([("<", a, b) for a, b in pairs], [(">", a, b) for a, b in pairs]) else None


def read_distinct_picks(v, o, n: int, noun: tuple[str, str]) -> Runs:
    """'3 different grace cards from your grace cards drawn', 「自分の引いた恩寵カードから恩寵カード3枚」."""
    coll = v.expr(o.params[0].low)
    if v.lang == "ja":
        return coll + [("", f"から{noun[0]}{n}{v.counter(o.params[0].low)}")]
    return [("", f"{n} different {noun[1]}s from ")] + coll
