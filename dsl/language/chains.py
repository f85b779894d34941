"""Graphs of names over a rule file (rules carrying out rules, values read by values): their
cycles and their longest chains, found without recursion and in time linear in the graph, so
that a chain thousands of links long is reported like a short one.

A graph is a dict: node -> the nodes it leads to, in source order; nodes it leads to that are
not keys are ignored. Results follow the dict's order, so they are the same every run.

May import: nothing from dsl (a leaf).
"""
from __future__ import annotations

from collections import deque


def components(graph: dict) -> list[list]:
    """The strongly connected components, each in the graph's order (Tarjan's, with an
    explicit stack)."""
    index: dict = {}
    low: dict = {}
    on_stack: set = set()
    stack: list = []
    out: list[list] = []
    order = {n: i for i, n in enumerate(graph)}
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in graph:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(graph[nxt])))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    members = []
                    while True:
                        x = stack.pop()
                        on_stack.discard(x)
                        members.append(x)
                        if x == node:
                            break
                    out.append(sorted(members, key=order.__getitem__))
    return out


def cycles(graph: dict) -> list[list]:
    """The components that hold a cycle (more than one node, or a node leading to itself)."""
    return [c for c in components(graph) if len(c) > 1 or c[0] in graph[c[0]]]


def shortest_cycle(graph: dict, start, within: set) -> list:
    """The shortest path from `start` back to itself inside `within`: [start, ..., start]."""
    came_from = {start: None}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt in graph[node]:
            if nxt == start:
                path = [node]
                while came_from[path[-1]] is not None:
                    path.append(came_from[path[-1]])
                return path[::-1] + [start]
            if nxt in within and nxt not in came_from:
                came_from[nxt] = node
                queue.append(nxt)
    return []


def postorder(graph: dict) -> list:
    """Every node after the nodes it leads to, except where an edge closes a cycle."""
    out: list = []
    seen: set = set()
    for root in graph:
        if root in seen:
            continue
        seen.add(root)
        work = [(root, iter(graph[root]))]
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt in graph and nxt not in seen:
                    seen.add(nxt)
                    work.append((nxt, iter(graph[nxt])))
                    break
            else:
                work.pop()
                out.append(node)
    return out


def depths(graph: dict, weight) -> dict:
    """For every node, the heaviest chain from it: the largest weight(node, nxt) + depths[nxt]
    over what it leads to, or weight(node, None) for a node that leads nowhere. An edge that
    closes a cycle counts as leading nowhere (cycles are reported on their own)."""
    out: dict = {}
    for node in postorder(graph):
        out[node] = max([weight(node, None)] + [weight(node, nxt) + out[nxt] for nxt in graph[node] if nxt in out])
    return out
