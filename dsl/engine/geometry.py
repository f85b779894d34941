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
