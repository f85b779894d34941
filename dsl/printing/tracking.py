"""What players keep track of: the counters and variables whose value lasts from one part of play to
another, not those the rules only work out in passing.

A part of play is a top-level step or phase of a flow, a flow's own lines, or a rule or trigger; a
rule called from one place only is part of the place that calls it. A counter every line of which
stands in one part, which that part sets afresh before anything reads it and then reads (the
strength a war adds up, the tied highest cards of a trick), holds nothing a player must remember: the book lists
it among the terms, not among what players keep track of. A designer's `tracked` or `not tracked`
line on the counter overrides the reading.

May import: the language.
"""
from __future__ import annotations

from ..language import syntax as S


def tracked(rules: S.RuleFile) -> set[str]:
    """The names of the counters and variables players keep track of."""
    passing = in_passing(rules)
    return {c.name for c in rules.of(S.Counter)
            if c.tracked is True or c.tracked is None and c.name not in passing}


def in_passing(rules: S.RuleFile) -> set[str]:
    """The counters the structure shows are only worked out in passing."""
    names = {c.name for c in rules.of(S.Counter)}
    calls: dict[str, int] = {}
    for n in S.walk_rules(rules):
        if isinstance(n, S.Call) and any(r.name == n.fn for r in rules.of(S.Rule)):
            calls[n.fn] = calls.get(n.fn, 0) + 1
    rule_of = {r.name: r for r in rules.of(S.Rule)}
    inlined = {r for r, k in calls.items() if k == 1}
    reads = _value_reads(rules, names)
    # name -> the parts it is mentioned in, each with whether its first mention there sets it
    # afresh, and whether anything there reads it
    parts: dict[str, dict[int, list[bool]]] = {}

    def mention(name: str, part: int, fresh: bool) -> None:
        seen = parts.setdefault(name, {}).setdefault(part, [fresh, False])
        seen[1] = seen[1] or not fresh

    count = [0]

    def new_part() -> int:
        count[0] += 1
        return count[0]

    def visit(node, part: int, inside: tuple, top: bool = False) -> None:
        """`top`: in a flow, outside any step: a step or phase met here is a part of its own."""
        if top and isinstance(node, S.Block) and node.kind in ("step", "phase"):
            part, top = new_part(), False
        if isinstance(node, S.Assign) and node.target.name in names:
            visit(node.value, part, inside)
            if node.target.player is not None:
                visit(node.target.player, part, inside)
            fresh = node.op == "set" and not _mentions(node.value, node.target.name)
            parts.setdefault(node.target.name, {}).setdefault(part, [fresh, False])
            return
        if isinstance(node, S.Name):
            if node.id in names:
                mention(node.id, part, False)
            for name in reads.get(node.id, ()):
                mention(name, part, False)
        if isinstance(node, S.Call):
            if node.fn in names:
                mention(node.fn, part, False)
            for name in reads.get(node.fn, ()):
                mention(name, part, False)
            if node.fn in inlined and node.fn not in inside:
                for st in rule_of[node.fn].body:
                    visit(st, part, inside + (node.fn,))
        for c in S.children(node):
            visit(c, part, inside, top)

    for d in rules.decls:
        if isinstance(d, S.Flow):
            visit(d, new_part(), (), True)
        elif isinstance(d, (S.Rule, S.Trigger, S.Score)) and d.name not in inlined:
            visit(d, new_part(), (d.name,) if isinstance(d, S.Rule) else ())
    # only set and never read, it is a record the table keeps (a team's placing)
    return {n for n, seen in parts.items() if len(seen) == 1 and all(f and r for f, r in seen.values())}


def _mentions(expr, name: str) -> bool:
    return any(isinstance(n, S.Name) and n.id == name or isinstance(n, S.Call) and n.fn == name
               for n in S.walk(expr))


def _value_reads(rules: S.RuleFile, names: set[str]) -> dict[str, set[str]]:
    """Each named value (`value`), with the counters it reads, through the values it uses."""
    direct = {d.name: {n.id if isinstance(n, S.Name) else n.fn for n in S.walk(d)
                       if isinstance(n, (S.Name, S.Call))} for d in rules.of(S.Define)}
    out: dict[str, set[str]] = {}

    def read(name: str, seen: frozenset) -> set[str]:
        if name in out:
            return out[name]
        got = set()
        for used in direct.get(name, ()):
            if used in names:
                got.add(used)
            elif used in direct and used not in seen:
                got |= read(used, seen | {used})
        out[name] = got
        return got
    for name in direct:
        read(name, frozenset({name}))
    return out
