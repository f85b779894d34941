"""The shortest history that brings play back to a state it has already been in.

Such a history is the proof that a game's length has no bound: the players (or chance) can
repeat the same choices and go round the same states for ever. Explore's state graph holds
every state reached; a cycle of it reachable from the start is such a history.

May import the standard library only: it works on the graph (child ids per state), not on a game.
"""
from __future__ import annotations

from collections import deque
from typing import Optional

CANDIDATES = 20         # entry states tried, lowest depth first: the history is the shortest of them


def shortest_return(succ: list, depth: list) -> Optional[tuple[int, list]]:
    """(entry, loop): `entry` a state on a cycle, `loop` the ids from it back to it (`entry`
    last), chosen to make depth[entry] + len(loop) as small as the candidates allow; None when
    the part of the graph searched has no cycle. succ[i] is None for a state not expanded."""
    comp = _components(succ)
    size: dict = {}
    for c in comp:
        size[c] = size.get(c, 0) + 1
    cyclic = [i for i, c in enumerate(comp) if c is not None and (size[c] > 1 or i in succ[i])]
    if not cyclic:
        return None
    best = None
    for entry in sorted(cyclic, key=lambda i: (depth[i], i))[:CANDIDATES]:
        if best is not None and depth[entry] + 1 >= depth[best[0]] + len(best[1]):
            break
        loop = _loop_through(succ, comp, entry)
        if best is None or depth[entry] + len(loop) < depth[best[0]] + len(best[1]):
            best = (entry, loop)
    return best


def _loop_through(succ, comp, entry) -> list:
    """The fewest steps from `entry` back to itself, inside its strongly connected component."""
    back = {entry: None}
    queue = deque([entry])
    while queue:
        i = queue.popleft()
        for j in succ[i] or ():
            if j == entry:
                path = []
                while i != entry:
                    path.append(i)
                    i = back[i]
                return path[::-1] + [entry]
            if j not in back and comp[j] == comp[entry]:
                back[j] = i
                queue.append(j)
    raise AssertionError("a state of a cyclic component has no way back")


def _components(succ: list) -> list:
    """Strongly connected component of each expanded state (Tarjan, without recursion);
    None for a state not expanded."""
    n = len(succ)
    index = [None] * n
    low = [0] * n
    on_stack = [False] * n
    comp = [None] * n
    stack: list = []
    counter = 0
    for root in range(n):
        if index[root] is not None or succ[root] is None:
            continue
        work = [(root, 0)]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            v, k = work[-1]
            children = succ[v] or ()
            if k < len(children):
                work[-1] = (v, k + 1)
                w = children[k]
                if succ[w] is None:
                    continue                # not expanded: it cannot lie on a cycle we know of
                if index[w] is None:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append((w, 0))
                elif on_stack[w]:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
            if low[v] == index[v]:
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    comp[w] = v
                    if w == v:
                        break
    return comp
