"""The shape of a board: which spaces touch, which lie in a line, where a dropped piece lands.
Spaces are (column, row) pairs counted from 1; row 1 is the top row, as the grid is printed.

A hex board (`adjacency hex`) is a rhombus of hexagons, as the board of the game Hex: each row
is set half a space to the right of the row above, so (x, y) touches (x - 1, y) and (x + 1, y)
in its row, (x, y - 1) and (x + 1, y - 1) above, (x - 1, y + 1) and (x, y + 1) below, and its
lines run along the rows, down to the right and down to the left.

Every list comes in reading order (row by row from the top, each row from the left), so that
play, and the states `explore` compares, never depend on how a set happens to be stored.

May import: nothing from dsl (a leaf, so constructs and builtins can use it).
"""
from __future__ import annotations

from functools import lru_cache

# One step along each line a board's adjacency allows, taken forwards (its reverse is the same line).
_ACROSS, _DOWN, _DOWN_RIGHT, _DOWN_LEFT = (1, 0), (0, 1), (1, 1), (-1, 1)
STEPS = {"orthogonal": (_ACROSS, _DOWN), "diagonal": (_DOWN_RIGHT, _DOWN_LEFT),
         "all": (_ACROSS, _DOWN, _DOWN_RIGHT, _DOWN_LEFT),
         # a hex board's rows are shifted: the space below, (x, y + 1), lies down to the right
         "hex": (_ACROSS, _DOWN, _DOWN_LEFT)}

# Where `gravity` pulls, and whether a drop names a column (True) or a row.
FALL = {"down": ((0, 1), True), "up": ((0, -1), True), "right": ((1, 0), False), "left": ((-1, 0), False)}


def on_board(w: int, h: int, x: int, y: int) -> bool:
    return 1 <= x <= w and 1 <= y <= h


@lru_cache(maxsize=None)
def neighbours(w: int, h: int, adjacency: str, x: int, y: int) -> tuple[tuple[int, int], ...]:
    """The spaces next to (x, y) under the adjacency, in reading order."""
    near = {(x + sx * k, y + sy * k) for sx, sy in STEPS[adjacency] for k in (1, -1)}
    return tuple(sorted((p for p in near if on_board(w, h, *p)), key=lambda p: (p[1], p[0])))


@lru_cache(maxsize=None)
def lines(w: int, h: int, adjacency: str, k: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every run of k spaces, each next to the one before along one straight direction the
    adjacency allows; one space is a line of 1 once, whatever the directions."""
    if k < 1:
        return ()
    steps = STEPS[adjacency][:1] if k == 1 else STEPS[adjacency]
    out = []
    for y in range(1, h + 1):
        for x in range(1, w + 1):
            for sx, sy in steps:
                # the far end first: a run longer than the board is never built, however long k is
                if on_board(w, h, x + sx * (k - 1), y + sy * (k - 1)):
                    out.append(tuple((x + sx * i, y + sy * i) for i in range(k)))
    return tuple(out)


def landing(w: int, h: int, gravity: str, at: int, occupied) -> "tuple[int, int] | None":
    """Where a piece dropped into column (or row) `at` comes to rest: it enters at the far side
    from the pull and falls until the next space is taken or off the board; None when the first
    space is taken already. `occupied(x, y)` tells a taken space."""
    (dx, dy), by_column = FALL[gravity]
    if by_column:
        x, y = at, (1 if dy > 0 else h)
    else:
        x, y = (1 if dx > 0 else w), at
    if occupied(x, y):
        return None
    while on_board(w, h, x + dx, y + dy) and not occupied(x + dx, y + dy):
        x, y = x + dx, y + dy
    return x, y


# ---------------------------------------------------------------- tracks and routes
# A track or a route is held as one row of spaces, (i, 1) for its i-th space: a track's spaces
# in the order a piece travels, a route's in the order its connections first name them. Its
# adjacency is a graph, not the rectangle's: the next and the previous space along a track
# (its last joined to its first on a loop), and each listed connection both ways.

def graph(n: int, along: bool, loop: bool, links) -> tuple[tuple[int, ...], ...]:
    """For each space 1..n (at index i - 1), the spaces next to it in order; `links` are pairs of
    space numbers, `along` joins each track space to the next."""
    near: list[set] = [set() for _ in range(n)]
    pairs = list(links)
    if along:
        pairs += [(i, i + 1) for i in range(1, n)] + ([(n, 1)] if loop and n > 2 else [])
    for a, b in pairs:
        if a != b:
            near[a - 1].add(b)
            near[b - 1].add(a)
    return tuple(tuple(sorted(s)) for s in near)


def step(n: int, loop: bool, at: int, k: int) -> "int | None":
    """The space k steps along a track from space `at` (back when k < 0); None past either end."""
    to = at + k
    if loop:
        return (to - 1) % n + 1
    return to if 1 <= to <= n else None


def runs(n: int, loop: bool, k: int) -> tuple[tuple[int, ...], ...]:
    """Every k spaces in a row along a track, from each start in track order (a loop's wrap too)."""
    if k < 1 or (k > n and not (loop and k == n)):
        return ()
    starts = range(1, n + 1) if loop and k > 1 else range(1, n - k + 2)
    return tuple(tuple((s + i - 1) % n + 1 for i in range(k)) for s in starts)


def chained(members, near, starts, goals) -> bool:
    """Whether a chain of members, each next to the one before, joins a member among `starts` to
    one among `goals` (a member in both joins them alone). `near(m)` gives what touches m."""
    members = set(members)
    seen = [m for m in starts if m in members]
    todo, reached, goals = list(seen), set(seen), set(goals)
    while todo:
        m = todo.pop()
        if m in goals:
            return True
        for n in near(m):
            if n in members and n not in reached:
                reached.add(n)
                todo.append(n)
    return False


def layout(n: int, shape: str, loop: bool) -> tuple[tuple[int, int], ...]:
    """Where each space is drawn, (column, row) from 0: a track snakes in rows of at most 12,
    each row turning back under the last, so the next space is always beside or below; a loop
    runs clockwise round the edge of a rectangle; a route's spaces fill rows in their order."""
    if shape == "track" and loop and n >= 4:
        across = (n + 3) // 4 + 1                       # spaces on the top side, corners included
        down = max(2, (n - 2 * across + 5) // 2)        # on the right side: the ring holds n (one more when n is odd)
        ring = [(c, 0) for c in range(across)] + [(across - 1, r) for r in range(1, down)] + \
               [(c, down - 1) for c in range(across - 2, -1, -1)] + [(0, r) for r in range(down - 2, 0, -1)]
        return tuple(ring[:n])
    width = min(n, 12) if shape == "track" else max(1, round(n ** .5 + .49))
    out = []
    for i in range(n):
        r, c = divmod(i, width)
        out.append((width - 1 - c if shape == "track" and r % 2 else c, r))
    return tuple(out)
