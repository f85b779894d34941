"""What the engine writes out in full: it compiles a rule in place at every `do` of it, and a
value with parameters at every use, going down each chain of rules and values by recursion.
So that what passes `check` compiles, the checker bounds both what that makes of a
declaration: how deep it nests (the chain of rules and values it goes down, each link at the
depth of its use) and how big it grows (a rule that does the next one twice, twenty times
over, is a million rules written out). Found without recursion, in one pass over the file.

May import: the syntax module, chains and limits (leaves).
"""
from __future__ import annotations

from . import chains, limits
from . import syntax as S

_SHOWN = 6          # links of a chain named in a message


def _references(d, declared: dict):
    """(depth, node, name) of every use inside d of a rule or value declared in the file,
    depth counted from d (its statements or expression at 1); and (deepest depth, node count)."""
    params = set(getattr(d, "params", ()))
    out, deepest, count = [], 0, 0
    stack = [(c, 1) for c in S.children(d)]
    while stack:
        node, depth = stack.pop()
        count += 1
        deepest = max(deepest, depth)
        name = None
        if isinstance(node, S.Do):
            name = node.rule
        elif isinstance(node, S.Name) and node.id not in params:
            name = node.id
        elif isinstance(node, S.Call):
            name = node.fn
        target = declared.get(name)
        if isinstance(target, (S.Rule, S.Define)) and target is not d:
            out.append((depth, node, name))
        stack.extend((c, depth + 1) for c in S.children(node))
    out.sort(key=lambda r: (r[1].span.line, r[1].span.column))
    return out, deepest, count


def _copies(node, target) -> bool:
    """Whether the engine writes `target` out again at this use (a value without parameters
    is compiled once, and read where it is used)."""
    return isinstance(node, S.Do) or isinstance(target, S.Define) and bool(target.params)


def check(ck):
    """An error, where a chain of rules and values first goes past a bound, for each bound."""
    declared = ck.declared
    keyed = {}                  # key -> declaration: its name, or its place for the unnamed ones
    for i, d in enumerate(ck.rules.decls):
        keyed[d.name if declared.get(d.name) is d else ("#", i)] = d
    refs, own_depth, own_size = {}, {}, {}
    for key, d in keyed.items():
        refs[key], own_depth[key], own_size[key] = _references(d, declared)
    graph = {key: [name for _, _, name in refs[key]] for key in keyed}
    order = chains.postorder(graph)
    depth, size, via = {}, {}, {}
    for key in order:
        best, best_ref = own_depth[key], None
        total = own_size[key]
        for ref in refs[key]:
            at, node, name = ref
            if name not in depth:
                continue        # closes a cycle, reported on its own
            if at + depth[name] > best:
                best, best_ref = at + depth[name], ref
            if _copies(node, keyed[name]):
                total = min(total + size[name], limits.MAX_WRITTEN_OUT + 1)
        depth[key], size[key], via[key] = best, total, best_ref
    for key in order:
        d = keyed[key]
        if depth[key] > limits.MAX_CHAIN_DEPTH and via[key] is not None and depth[via[key][2]] <= limits.MAX_CHAIN_DEPTH:
            _, node, name = via[key]
            path = _chain(key, via)
            shown = " -> ".join(path if len(path) <= _SHOWN else path[:_SHOWN - 1] + ["...", path[-1]])
            # one figure is a count of levels, the other of rules and values: each says which it is
            ck.error(node.span, f"{_what(d)} is nested {depth[key]} levels deep (at most {limits.MAX_CHAIN_DEPTH} "
                                f"levels) once its chain of {len(path)} rules and values, {shown}, "
                                f"is written out where each is used",
                     "a level is a statement or expression inside another, counted on through each rule and "
                     "value used; make the chain shorter, e.g. put the steps of several rules one after "
                     "another in one rule")
        grown = [name for _, node, name in refs[key] if name in size and _copies(node, keyed[name])]
        if size[key] > limits.MAX_WRITTEN_OUT and all(size[n] <= limits.MAX_WRITTEN_OUT for n in grown):
            ck.error(d.span, f"{_what(d)} is more than {limits.MAX_WRITTEN_OUT:,} parts long once the rules and values "
                             f"it uses are written out in full",
                     "the engine writes a rule out at every `do` of it: a rule done in many places, by rules "
                     "themselves done in many places, multiplies; do it once, inside a loop")


def _chain(key, via) -> list:
    path = [key]
    while via.get(path[-1]) is not None and len(path) <= len(via):
        path.append(via[path[-1]][2])
    return [p for p in path if isinstance(p, str)]


def _what(d) -> str:
    if isinstance(d, S.Rule):
        return f"rule '{d.name}'"
    if isinstance(d, S.Define):
        return f"value '{d.name}'"
    return f"'{S.kind_of(d)}'" if not isinstance(d, (S.Trigger,)) else f"trigger '{d.name}'"
