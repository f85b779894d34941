"""The outcome of a settling rule said in one sentence: what its case compared, with the
numbers ("the number of dice that count for the bid: 8; the bid count: 9"), then what followed
for whom ("P3 loses dice (1 die)", "P2 takes the trick with ♠K (4 cards)", "P3 is out").

Everything comes from the rule structure and the log: the case taken names its comparison
(the `case` event, with the values and the pieces they were counted from), a rule carried out
for a player says who (the `rule` event), and the moves, eliminations and the end after it say
what changed. A number is said only to a seat that saw every piece behind it (`n.known`: the
pieces the seat could see then, None for everyone's view); a piece only where the narrator
names it (a seat's narrator names hidden pieces by their kind).

May import: the language and printing's runs.
"""
from __future__ import annotations

from ..language import syntax as S
from .runs import plain

# the events that close a case's consequences: play has moved on to something else
_CLOSE = {"step", "phase", "case", "choose", "dead_end"}
# an English title starting so is no verb to say of a player ("The winner"): said after a colon
_NOT_VERBS = {"the", "a", "an", "who", "what", "which", "how", "when", "if", "no", "all", "each", "every", "one"}
# a Japanese title ending so reads as a verb: 「さいころを失う」
_JA_VERB_ENDS = tuple("うくすつぬふむゆるぐずぶぷ")


def outcome(n, log: list, i: int, zone=None) -> str:
    """The case taken at `log[i]` and what followed it, in one sentence; `zone(name)` names a
    zone as the reader calls it (the narrator's names by default)."""
    zone = zone or n.zone
    ev = log[i]
    # the rule the case is in, carried out for a player: its parameter read as that player
    entered = next((e for e in reversed(log[:i]) if e["event"] == "rule" and e["name"] == ev["rule"]), None)
    scope = []
    for e in log[i + 1:]:
        if e["event"] in _CLOSE:
            break
        scope.append(e)
    compared, followed = _compared(n, ev, entered), _followed(n, scope, zone)
    if not compared and not followed:
        return "   " + n.name(ev["rule"])
    if n.lang == "ja":      # one sentence: 「…の数は8、宣言の数は9で、P3がさいころを失う(さいころ1個)。」
        return "   " + "で、".join(x for x in ("、".join(compared), "、".join(followed)) if x) + "。"
    text = "; ".join(compared + followed)
    return "   " + text[:1].upper() + text[1:]


def _compared(n, ev, entered) -> list[str]:
    """'the number of dice that count for the bid: 8; the bid count: 9', each number only where
    the reader saw what it was counted from; a number written in the rule goes without saying."""
    conds = _conditions(n, ev["rule"], ev["case"])
    known = getattr(n, "known", None)
    parts = []
    rule = next((d for d in n.game.rules.of(S.Rule) if d.name == ev["rule"]), None)
    given = (rule.params[entered["param"]],) if entered is not None and "param" in entered and rule is not None \
        and entered["param"] < len(rule.params) else ()
    whom = [[("", n.player(entered["player"]))]] if given else []
    for told, cond in zip(ev.get("compared", ()), conds):
        seen = not told.get("secret") and (known is None or set(told.get("pieces", ())) <= set(known))
        if not seen:
            continue
        for side, value in zip((cond.left, cond.right), told["values"]):
            if isinstance(side, S.Num) or not isinstance(value, (int, bool)):
                continue
            with n.voice.given(given, whom):
                said = plain(n.voice.expr(side))
            parts.append(n.say(f"{said}は{n.value(value)}", f"{said}: {n.value(value)}"))
    return parts


def _conditions(n, rule: str, k: int) -> list:
    """The comparisons of case `k` of the cases named `rule` (or inside the rule `rule`)."""
    cache = n.__dict__.setdefault("_case_conditions", {}) if hasattr(n, "__dict__") else {}
    if rule not in cache:
        from ..constructs.cases import _comparisons
        found = None
        for d in n.game.rules.decls:
            for x in S.walk(d):
                if isinstance(x, S.Cases) and (x.name == rule or x.name is None and getattr(d, "name", None) == rule):
                    found = found or x
        cache[rule] = [_comparisons(c.cond) for c in found.cases] if found is not None else []
    conds = cache[rule]
    return conds[k] if 0 <= k < len(conds) else []


def _followed(n, scope: list, zone) -> list[str]:
    """What the case did, for whom: a rule carried out for a player with the pieces it moved to
    or from that player's zones; moves for nobody in particular; who is out; the end."""
    out = []
    covered = set()
    for j, e in enumerate(scope):
        if e["event"] == "rule" and "player" in e:
            rest = scope[j + 1:]
            stop = next((m for m, x in enumerate(rest) if x["event"] == "rule" and "player" in x), len(rest))
            mine = _owned_moves(n, rest[:stop], e["player"])
            covered.update(id(x) for x in rest[:stop] if x["event"] == "move")
            out.append(_for_player(n, e, mine))
    for e in scope:
        if e["event"] == "move" and id(e) not in covered and e.get("pieces"):
            out.append(_move(n, e, zone))
        elif e["event"] in ("eliminate", "end"):
            out.append(n.event(e).strip())
    return out


def _owned_moves(n, events, player: int) -> list:
    """The pieces moved into or out of `player`'s own zones."""
    own = lambda name: _owner(n, name) == player
    return [p for e in events if e["event"] == "move" and (own(e.get("to")) or own(e.get("from")))
            for p in e["pieces"]]


def _owner(n, name):
    base, _, rest = (name or "").partition("(")
    key = rest.rstrip(")")
    decl = next((z for z in n.game.rules.of(S.Zone) if z.name == base), None)
    return int(key) - 1 if decl is not None and decl.per == "player" and key.isdigit() else None


def _for_player(n, e, pieces: list) -> str:
    """'P2 takes the trick with ♠K (4 cards)', 「P2がトリックを取る(♠Kで、カード4枚)」."""
    who = n.player(e["player"])
    title = n.name(e["name"])
    known = getattr(n, "known", None)
    piece = e.get("piece")
    by = n.card(piece) if piece is not None and (known is None or piece in known) else None
    count = _count(n, pieces) if pieces else None
    if n.lang == "ja":
        head = f"{who}が{title}" if title.endswith(_JA_VERB_ENDS) else f"{who}: {title}"
        extra = "、".join(x for x in (f"{by}で" if by else None, count) if x)
        return head + (f"({extra})" if extra else "")
    first, _, rest = title.partition(" ")
    if first.lower() in _NOT_VERBS or not first.isalpha():
        head = f"{who}: {title}"
    else:
        head = f"{who} {_third_person(first.lower())}" + (f" {rest}" if rest else "")
    return head + (f" with {by}" if by else "") + (f" ({count})" if count else "")


def _count(n, pieces: list) -> str:
    kinds = {n.game.kind_of[p] for p in pieces}
    noun = n.name(next(iter(kinds))) if len(kinds) == 1 else n.say("コマ", "pieces")
    k = len(pieces)
    return n.say(f"{noun}{k}{n.counter(pieces)}", f"{k} {plural(noun) if k != 1 and len(kinds) == 1 else noun}")


def _move(n, e, zone) -> str:
    """'♠5 to P1's cards taken', 「♠5はP1の取ったカードへ」: the pieces by name where the reader
    sees them and they are few, else counted."""
    pieces = e["pieces"]
    known = getattr(n, "known", None)
    if len(pieces) <= 2 and (known is None or all(p in known for p in pieces)):
        what = n.say("、".join(n.card(p) for p in pieces), " and ".join(n.card(p) for p in pieces))
    else:
        what = _count(n, pieces)
    return n.say(f"{what}は{zone(e['to'])}へ", f"{what} to {zone(e['to'])}")


def _third_person(verb: str) -> str:
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if verb.endswith("y") and len(verb) > 1 and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def plural(noun: str) -> str:
    if noun.endswith("die"):
        return noun[:-3] + "dice"
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    return noun + "s"
