"""An independent count of Connect Four positions on a small board, by brute force over boards.

Every board reachable from the empty one (players alternate, a disc falls to the lowest empty
cell of its column, play stops at four in a row or a full board), each counted once. It checks
`explore` on tests/fixtures/connect-four-4x4.rules, which writes the same game with a board and
each player's discs as identical tokens.
"""
import sys


def lines(w: int, h: int, k: int = 4):
    out = []
    for x in range(w):
        for y in range(h):
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(x + i * dx, y + i * dy) for i in range(k)]
                if all(0 <= cx < w and 0 <= cy < h for cx, cy in cells):
                    out.append(cells)
    return out


def count(w: int = 4, h: int = 4) -> tuple[int, int, int]:
    """(positions, positions where someone has four in a row, full boards without one)."""
    four = lines(w, h)
    start = tuple(() for _ in range(w))      # each column from the bottom up: 0 or 1 per disc
    seen = {start}
    frontier = [start]
    won = full = 0
    while frontier:
        nxt = []
        for board in frontier:
            discs = sum(len(c) for c in board)
            if _won(board, four, h):
                won += 1
                continue
            if discs == w * h:
                full += 1
                continue
            who = discs % 2
            for x in range(w):
                if len(board[x]) < h:
                    b = board[:x] + (board[x] + (who,),) + board[x + 1:]
                    if b not in seen:
                        seen.add(b)
                        nxt.append(b)
        frontier = nxt
    return len(seen), won, full


def _won(board, four, h) -> bool:
    def at(x, y):
        col = board[x]
        return col[y] if y < len(col) else None
    for cells in four:
        first = at(*cells[0])
        if first is not None and all(at(x, y) == first for x, y in cells[1:]):
            return True
    return False


if __name__ == "__main__":
    w, h = (int(a) for a in sys.argv[1:3]) if len(sys.argv) > 2 else (4, 4)
    positions, won, full = count(w, h)
    print(f"Connect Four {w}x{h}: {positions:,} positions ({won:,} won, {full:,} full boards)")
