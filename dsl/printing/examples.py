"""Worked examples from real play: each rule that settles something, shown the first time one of
its cases held in a game the engine played.

A rule settles something when it holds `cases` that weigh one quantity against another (a
challenge, a trick, a duel, a war): the table compares and one outcome follows. For each, the
book plays seeded games with random moves (the seed and the player count are printed), replays
the first game that reaches one of the rule's cases one decision at a time with narration and
coverage on, keeps the state at the moment the case held, and tells it as a player would, through
narrate.story: the choice that made what the rule weighs (the bid challenged) and the decision
that led there, the quantities the cases compare (the rule's parameters as they were bound; a
count of pieces with the pieces it counted, a wild one said as wild), the case, what followed
(where a rule moved fewer pieces than it names, both numbers), and the pieces it moved, counted
before and after. The replay
is the engine's own; the book is not built if it ends anywhere but where the game did, so an
example can never describe a game the rules no longer play. Same rules, same examples: the
seeds are fixed.

May import: the language, the constructs, the engine and the analyses' random play.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..constructs.cases import Case, Cases
from ..constructs.number import Num
from ..constructs.unary import Unary
from ..engine import CHANCE, Game, RuleError
from ..engine.program import Env
from ..engine.state import State
from ..engine.values import Piece, Player, Team
from ..language import syntax as S
from . import narrate
from .narrate import Narrator
from .runs import Item, Runs, notes_of, plain, say, tidy

# Seeds tried, in order, until a game reaches the rule; a rule no game of these reaches gets no example.
SEEDS = range(1, 61)
# Comparisons whose two sides are worth showing as numbers.
COMPARING = ("=", "!=", "<", "<=", ">", ">=")


class ExampleMismatch(RuntimeError):
    """The replay of an example's game did not end where the game did: the book must not print it."""


@dataclass
class Moment:
    """The first time one of a settling rule's cases held, in one played game (no language yet)."""
    rule: S.Rule
    seed: int
    players: int
    decision: int               # 1-based, counting chance outcomes too, as a replay file does
    before: State               # the moment the case held
    after: State                # when what followed was done (the next step began, or FOLLOW decisions on)
    lead: list                  # events of that decision (or from the rule's start) up to the case
    earlier: list               # the events of the game before the lead
    effects: list               # events from the case on, up to the next step
    case: Optional[Case]


def settling_rules(rules: S.RuleFile) -> list[S.Rule]:
    """The rules that compare and decide an outcome: those holding `cases` where some case
    weighs one quantity against another (more, fewer, the same card's suit as another's), not
    only a choice already made (`when action = 1`), which dispatches rather than settles."""
    constant = _constant(rules)

    def weighs(e) -> bool:
        # only the condition's own comparisons: one inside a filter picks things, it settles nothing
        if isinstance(e, S.Binary) and e.op in ("and", "or"):
            return weighs(e.left) or weighs(e.right)
        if isinstance(e, Unary):
            return weighs(e.operand)
        return (isinstance(e, S.Binary) and e.op in COMPARING
                and (e.op not in ("=", "!=") or not (constant(e.left) or constant(e.right))))
    return [r for r in rules.of(S.Rule) if any(weighs(c.cond) for c in _cases_of(r))]


def _constant(rules: S.RuleFile):
    """Whether an expression is known before play: a number, a parameter, a symbol, `nobody`."""
    changing = {d.name for d in rules.decls if isinstance(d, (S.Counter, S.Define, S.Zone))}
    params = {p for r in rules.of(S.Rule) for p in r.params}
    return lambda e: isinstance(e, Num) or isinstance(e, S.Name) and e.id not in changing and e.id not in params


def player_count(rules: S.RuleFile) -> int:
    """Three players where the game allows it: enough for a table, few enough to read."""
    g = rules.game
    return min(max(3, g.min_players), g.max_players)


_CACHE: dict = {}


def moments(rules: S.RuleFile) -> dict[str, Moment]:
    """rule name -> the first time one of its cases held, in the first seeded game where one does."""
    key = (rules.path, rules.source, tuple(vr.source for vr in rules.variants))
    if key not in _CACHE:
        if len(_CACHE) > 8:
            _CACHE.clear()
        _CACHE[key] = _find(rules)
    return _CACHE[key]


def _find(rules: S.RuleFile) -> dict[str, Moment]:
    from ..analyses.simulate import game_rng, play_random
    wanted = {r.name: r for r in settling_rules(rules)}
    if not wanted:
        return {}
    try:
        game = Game(rules, player_count(rules))
    except RuleError:
        return {}
    owner = {case.span: (r, case) for r in wanted.values() for case in _cases_of(r)}
    case_ids = {i: owner[span] for i, (kind, _, span) in enumerate(game.block_names) if kind == "case" and span in owner}
    found: dict[str, Moment] = {}
    for seed in SEEDS:
        if all(name in found for name in wanted):
            break
        played = play_random(game, game_rng(seed, 0))
        found.update(_replay(game, seed, played, case_ids, set(found)))
    return {name: found[name] for name in wanted if name in found}


class _Held(dict):
    """Coverage counts that also keep the state at the moment a watched case first holds."""

    def __init__(self, state: State, case_ids: dict, done: set):
        super().__init__()
        self.state, self.case_ids, self.done, self.held = state, case_ids, done, []

    def __setitem__(self, cov, count):
        rule = self.case_ids.get(cov, (None,))[0]
        if rule is not None and rule.name not in self.done:
            self.done.add(rule.name)
            self.held.append((cov, self.state.clone(), len(self.state.log)))
        super().__setitem__(cov, count)


# Decisions an example follows after its case held, for what the rule still asks of the players.
FOLLOW = 4


def _replay(game: Game, seed: int, played, case_ids: dict, done: set) -> dict[str, Moment]:
    s = game.new_initial_state(log=True, coverage=True)
    s.fired = held = _Held(s, case_ids, set(done))
    out: dict[str, Moment] = {}
    waiting: list[Moment] = []         # cases that held whose consequences are still unfolding

    def close(m: Moment, at: int) -> None:
        effects = s.log[at:]
        # the next step beginning is where the rule's consequences end
        end = next((j for j, ev in enumerate(effects) if ev.get("event") in ("step", "phase")), len(effects))
        m.effects, m.after = list(effects[:end]), s.clone()
        out[m.rule.name] = m

    for i, (actor, move) in enumerate(played.actions):
        start, seen = len(s.log), len(held.held)
        s.apply(move if actor == CHANCE else tuple(move), actor)
        for cov, snap, at in held.held[seen:]:
            rule, case = case_ids[cov]
            # the scene: from this decision, or from where the rule began if that was earlier (a war's bidding)
            began = max((j for j in range(at) if s.log[j].get("event") == "rule" and s.log[j]["name"] == rule.name),
                        default=start)
            waiting.append((Moment(rule, seed, game.n, i + 1, snap, snap, list(s.log[min(start, began):at]),
                                   list(s.log[:min(start, began)]), [], case), at))
        for m, at in list(waiting):
            if (s.is_terminal() or i + 1 - m.decision >= FOLLOW
                    or any(ev.get("event") in ("step", "phase") for ev in s.log[at:])):
                close(m, at)
                waiting.remove((m, at))
    for m, at in waiting:
        close(m, at)
    if not s.is_terminal():
        game.stuck(s)          # a game left where nobody can decide ends in its dead end, as it did when played
    if s.digest() != played.state.digest():
        raise ExampleMismatch(f"the game of seed {seed} with {game.n} players ended elsewhere when replayed "
                              "one decision at a time: the engine's two ways of playing disagree, so no worked "
                              "example can be printed from it")
    return out


def _cases_of(rule: S.Rule) -> list[Case]:
    return [case for st in S.statements(rule.body) if isinstance(st, Cases) for case in st.cases]


# ---------------------------------------------------------------- the numbers
class _Table(Narrator):
    """The narration as a book prints it: players by their seats, teams by number, cards by name."""

    def player(self, p) -> str:
        return self.say(f"席{int(p) + 1}", f"Seat {int(p) + 1}")

    def team(self, t) -> str:
        return self.say(f"チーム{int(t) + 1}", f"Team {int(t) + 1}")

    def zone(self, name) -> str:
        # a zone titled for the one who holds it ('dice under your cup') is said of a seat as theirs
        return super().zone(name).replace(" your ", " their ") if self.lang == "en" else super().zone(name)

    def who(self, ev) -> str:
        return self.player(ev["player"]) + (f" ({self.team(ev['team'])})" if "team" in ev else "")

    def owner(self, per: str, k: int) -> str:
        return (self.player if per == "player" else self.team)(k)


def _value(n: _Table, game: Game, v) -> str:
    if isinstance(v, Player):
        return n.player(v)
    if isinstance(v, Team):
        return n.team(v)
    if isinstance(v, Piece):
        return n.card(v)
    if isinstance(v, (list, tuple)):
        return n.say("、", ", ").join(_value(n, game, x) for x in v) or n.say("なし", "none")
    return n.value(v)


def _evaluate(game: Game, e: S.Expr, s: State, slots: Optional[dict] = None):
    """`e` at `s`, when it reads nothing bound inside the rule but its parameters (`slots`: each
    parameter's slot, where known); else None."""
    try:
        f = game.expr(e, Env(game, dict(slots or {})))
    except RuleError:
        return None
    s = s.clone()
    # a comprehension compiled just now has a slot of its own, past those the state was made with
    s.loc_slots += [None] * (game.n_slots - len(s.loc_slots))
    try:
        return ("ok", f(s))
    except (RuleError, LookupError, TypeError, ValueError, ZeroDivisionError):
        return None


def _parameters(game: Game, rule: S.Rule) -> Optional[dict]:
    """parameter -> the slot a call binds it in, where the rule is called from one place only (a
    rule is compiled in place at each call, its parameters in slots of their own, live from the
    call's first instruction); None where it is called from several, which would be a guess."""
    if not rule.params:
        return {}
    entries = [ip for ip, (owner, span) in enumerate(zip(game.owner, game.spans))
               if owner == rule.name and span == rule.span]
    if len(entries) != 1:
        return None
    first = entries[0] - len(rule.params)
    slots = sorted(sl for sl, (a, _) in game.slot_scopes.items() if a == first)
    return dict(zip(rule.params, slots)) if len(slots) == len(rule.params) else None


def _sides(rules: S.RuleFile, rule: S.Rule) -> list[S.Expr]:
    """The quantities the rule's cases compare, each once, in the order the rule names them; a
    compared value's own inputs kept by the table (the bid face a count of matching dice reads)
    come just before it."""
    constant = _constant(rules)
    kept = {d.name: d for d in rules.of(S.Counter) if d.per is None}
    values = {d.name: d for d in rules.of(S.Define) if not d.params}
    out, seen = [], set()

    def add(e) -> None:
        if not constant(e) and e not in seen:
            seen.add(e)
            out.append(e)
    for case in _cases_of(rule):
        for node in S.walk(case.cond):
            if isinstance(node, S.Binary) and node.op in COMPARING:
                for side in (node.left, node.right):
                    for inner in S.walk(side):
                        if isinstance(inner, S.Name) and inner.id in values:
                            for x in S.walk(values[inner.id].expr):
                                if isinstance(x, S.Name) and x.id in kept:
                                    add(x)
                    add(side)
    return out


def _given(v, game: Game, n: "_Table", m: Moment):
    """The rule's parameters read as what they held ('Seat 1'), with their slots; none where unknown."""
    slots = _parameters(game, m.rule)
    if not slots:
        return slots, v.given((), [])
    held = [m.before.loc_slots[slots[p]] for p in m.rule.params]
    return slots, v.given(m.rule.params, [[("", _value(n, game, x))] for x in held])


def _quantities(v, game: Game, n: "_Table", m: Moment) -> list[Runs]:
    lines = []
    slots, given = _given(v, game, n, m)
    with given:
        for side in _sides(v.rules, m.rule):
            got = _evaluate(game, side, m.before, slots)
            if got is not None:
                lines.append(_tidy(v.expr(side)) + [("", say(v.lang, ":", ": ")), ("num", _value(n, game, got[1]))]
                             + [("", _counted(v, game, n, m, side, slots))])
    return lines


def _sourced(game: Game, before: State, events: list) -> list:
    """The events with every move saying where it came from: a move of one chosen piece is logged
    without it, so it is where the piece lay, followed from `before` through the moves before it."""
    lay: dict = {}
    out = []
    for ev in events:
        if ev.get("event") == "move" and ev["pieces"]:
            if "from" not in ev:
                p = ev["pieces"][0]
                ev = {**ev, "from": lay.get(p, game.zone_names[before.loc[p]])}
            lay.update((p, ev["to"]) for p in ev["pieces"])
        out.append(ev)
    return out


def _zone_counts(game: Game, n: Narrator, m: Moment, lang: str) -> list[str]:
    """Each zone the rule moved pieces out of or into: how many it held before and after."""
    names = []
    for ev in _sourced(game, m.before, m.effects):
        if ev.get("event") == "move":
            for z in (ev.get("from"), ev.get("to")):
                if z is not None and z not in names:
                    names.append(z)
    index = {z: i for i, z in enumerate(game.zone_names)}
    out = []
    for z in names:
        if z in index:
            held, now = m.before.zones[index[z]], m.after.zones[index[z]]
            # a few cards or dice are worth naming: what the rule weighed (the cards of a trick), and
            # what is there after where a card left and another came
            shown = narrate.shown(n, held, [m.before.face[p] for p in held]) if 0 < len(held) <= NAMED and _named(game, held) else ""
            came = [p for p in now if p not in held]
            if shown and came and len(now) <= NAMED and _named(game, now):
                shown = n.say(f"前: {shown} / 後: ", f"before: {shown}; after: ") + narrate.shown(n, now, [m.after.face[p] for p in now])
            out.append(f"{n.zone(z)}: {len(held)} → {len(now)}" + (n.say(f"({shown})", f" ({shown})") if shown else ""))
    return out


NAMED = 6       # pieces a zone may hold and still have them named in the count of before and after


def _named(game: Game, pieces) -> bool:
    """Cards and dice have a name or a face to show; tokens are alike."""
    kinds = {c.name: c.kind for c in game.rules.of(S.Component)}
    return all(kinds.get(game.kind_of[p]) in ("deck", "dice") for p in pieces)


# ---------------------------------------------------------------- the block
def example_item(v, rules: S.RuleFile, rule_name: str) -> Optional[Item]:
    """The worked example for a settling rule, as an 'example' block; None where no game reached it."""
    m = moments(rules).get(rule_name)
    if m is None:
        return None
    game = m.before.game
    n = _Table(game, v.lang)
    lang = v.lang
    # the game's number is its seed, so `playtest play --seed` replays it; a reader needs no more than a number
    head = say(lang, f"実際のプレイから: {m.players}人の対局 第{m.seed}局", f"From real play: {m.players} players, game no. {m.seed}")
    lines: list[Item] = []

    def part(label: tuple[str, str], items) -> None:
        items = [it if isinstance(it, list) else [("", it)] for it in items]
        if items:
            lines.append(Item("example-part", [("", say(lang, *label))],
                              [Item("example-line", it) for it in items]))
    kept = {p for d in rules.of(S.Score) for p in d.parts}
    weighed = {x.id for x in _sides(rules, m.rule) if isinstance(x, S.Name) and x.id in {c.name for c in rules.of(S.Counter)}}
    lead = m.lead
    # the scene opens with the choice that made what the rule weighs (the bid challenged), then the
    # decision that led here
    chosen = [j for j, ev in enumerate(lead) if ev.get("event") == "choose"]
    scene = _claim(m.earlier, weighed) + (lead[chosen[-1]:] if chosen else lead)
    part(("その場面", "What happened"), narrate.story(n, scene, kept | weighed))
    part(("比べる数", "The numbers compared"), _quantities(v, game, n, m))
    if m.case is not None:
        part(("当てはまる場合", "The case that holds"), [_case_text(m.case, lang) or _case_reading(v, game, n, m)])
    # why fewer pieces moved than the rule names comes before they move
    part(("結果", "What follows"), _caps(v, game, n, m) + narrate.story(n, _sourced(game, m.before, m.effects), kept))
    part(("置き場ごとの数(前 → 後)", "How many each place holds (before → after)"), _zone_counts(game, n, m, lang))
    return Item("example", [("", head)], lines, name=rule_name)


def _claim(earlier: list, weighed: set) -> list:
    """The last choice before the scene that set a value the rule weighs, with the values it set
    (the bid that is challenged); nothing where no choice set one."""
    for j in range(len(earlier) - 1, -1, -1):
        if earlier[j].get("event") != "choose":
            continue
        sets = []
        for ev in earlier[j + 1:]:
            if ev.get("event") != "set":
                break
            sets.append(ev)
        if any(ev["name"] in weighed for ev in sets):
            return [earlier[j]] + sets
        if any(ev.get("event") == "set" and ev["name"] in weighed for ev in earlier[j:]):
            return []       # set since by the rules, not by a choice
    return []


def _counted(v, game: Game, n: "_Table", m: Moment, side: S.Expr, slots) -> str:
    """What a count of pieces counted, by whose they are, a wild piece said as wild and what it
    stood for: ' — Seat 2: 5, 5; Seat 3: 6 (wild, counts as 5)'."""
    values = {d.name: d for d in v.rules.of(S.Define) if not d.params}
    expr = values[side.id].expr if isinstance(side, S.Name) and side.id in values else side
    if not (isinstance(expr, S.Call) and expr.fn == "count" and len(expr.args) == 1
            and isinstance(expr.args[0], S.Comprehension) and expr.args[0].item is None):
        return ""
    comp = expr.args[0]
    got = _evaluate(game, comp, m.before, slots)
    if got is None or not isinstance(got[1], (list, tuple)) or not got[1] or len(got[1]) > 2 * NAMED \
            or not all(isinstance(p, Piece) for p in got[1]) or not _named(game, got[1]):
        return ""
    wild = {c.name: c.wild for c in v.rules.of(S.Component) if c.kind == "dice" and c.wild is not None}
    stands = _stands_for(game, comp, m.before, slots)
    by_whose: dict[str, list[str]] = {}
    for p in got[1]:
        face = m.before.face[p]
        told = narrate.shown(n, [p], [face])
        if game.kind_of[p] in wild and wild[game.kind_of[p]] == face:
            told += n.say(f"(ワイルド、{stands}として数える)" if stands else "(ワイルド)",
                          f" (wild, counts as {stands})" if stands else " (wild)")
        by_whose.setdefault(narrate.whose(n, game.zone_names[m.before.loc[p]]), []).append(told)
    listed = n.say(" / ", "; ").join(f"{w}: " + n.say("、", ", ").join(t) for w, t in by_whose.items())
    return n.say(f"({listed})", f" — {listed}")


def _stands_for(game: Game, comp, s: State, slots) -> str:
    """Where a count asks for a face F or a wild piece (`face = F or wild(x)`), what a wild piece
    stands for: F as it was."""
    for node in S.walk(comp.cond):
        if isinstance(node, S.Binary) and node.op == "or":
            sides = (node.left, node.right)
            if any(isinstance(e, S.Call) and e.fn == "wild" for e in sides):
                for e in sides:
                    if isinstance(e, S.Binary) and e.op == "=" and isinstance(e.left, S.Attr) \
                            and isinstance(e.left.obj, S.Name) and e.left.obj.id == comp.var:
                        got = _evaluate(game, e.right, s, slots)
                        if got is not None:
                            return str(got[1])
    return ""


def _caps(v, game: Game, n: "_Table", m: Moment) -> list[str]:
    """Where a rule the case carries out moves 'up to' a number and fewer were there: both
    numbers, and what made the first ('12 were due (15 − 3), but only 5 were there')."""
    if m.case is None:
        return []
    slots, given = _given(v, game, n, m)
    rules = {r.name: r for r in v.rules.of(S.Rule)}
    out = []
    for st in S.statements(m.case.body):
        callee = rules.get(st.rule) if isinstance(st, S.Do) else None
        if callee is None:
            continue
        bound = dict(zip(callee.params, st.args))
        for mv in S.statements(callee.body):
            if not (isinstance(mv, S.Move) and mv.amount == "up to" and isinstance(mv.count, S.Name)
                    and mv.count.id in bound):
                continue
            arg = bound[mv.count.id]
            due = _evaluate(game, arg, m.before, slots)
            at = next((j for j, ev in enumerate(m.effects) if ev.get("event") == "rule" and ev["name"] == callee.name), None)
            if due is None or at is None or not isinstance(due[1], int):
                continue
            moved = next((ev["pieces"] for ev in m.effects[at + 1:] if ev.get("event") == "move"), [])
            if len(moved) >= due[1]:
                continue
            how = ""
            if isinstance(arg, S.Binary) and arg.op in ("-", "+"):
                a, b = _evaluate(game, arg.left, m.before, slots), _evaluate(game, arg.right, m.before, slots)
                if a is not None and b is not None:
                    how = f"({a[1]} {'−' if arg.op == '-' else '+'} {b[1]})"
            unit = n.counter(moved) if moved else "個"
            k = len(moved)
            out.append(n.say(f"{due[1]}{unit}{how}移すはずが、{k}{unit}しかなかったので、その{k}{unit}を移す",
                             f"{due[1]} were due{' ' + how if how else ''}, but only {k} were there, so those {k} go"))
    return out


def _case_reading(v, game: Game, n: "_Table", m: Moment) -> Runs:
    """The case as the book reads it, its parameters named by what they held; a condition the
    rule sets out as a list is one line here, its parts joined as the list says."""
    from .blocks import conditions, is_long
    _, given = _given(v, game, n, m)
    with given:
        if not is_long(m.case.cond):
            return _tidy(v.expr(m.case.cond))
        listed = conditions(v, m.case.cond)
    joint = {"all": say(v.lang, "、かつ", "; and "), "any": say(v.lang, "、または", "; or ")}[listed.kind]
    out: Runs = []
    for k, c in enumerate(listed.children):
        out += ([("", joint)] if k else []) + _tidy(c.runs if c.kind not in ("all", "any") else c.runs + [
            ("", " ")] + [r for cc in c.children for r in cc.runs + [("", say(v.lang, "。", "; "))]])
    return out


def _tidy(runs: Runs) -> Runs:
    """English: no 'the' after a possessive, whether a run of its own or the start of a title
    ('Seat 1's the card presented')."""
    out = tidy(runs)
    for i in range(1, len(out)):
        if out[i - 1][1].endswith("'s ") and out[i][1].startswith("the "):
            # no longer the term's title as the book defines it, so no longer set as that term
            out[i] = ("", out[i][1][4:])
    return out


def _case_text(case: Case, lang: str) -> str:
    return " ".join(t for k, t in notes_of(case.texts, lang) if k == "text")
