"""The functions a rule file can call: each one entry with its code, arity, the kind of value it
gives, its ja/en reading, and what the analyses must know of it.

`impl` receives the running state first, then the evaluated arguments.
Functions over comprehensions (count, sum, highest, ...) get the collection already
built; `highest`/`lowest`/`nth_highest` get the items of `key for x in coll` and their keys side
by side, `(items, keys)`.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import compress
from typing import Callable

from ..language.kinds import ANY, BOOL, COLL, NUM, PLAYER, TEAM, ZONE
from . import geometry
from .errors import RuleError
from .program import items_of
from .values import Piece, Player, Spaces, Team, ZoneId, plain


@dataclass(frozen=True)
class Builtin:
    name: str
    arity: tuple[int, int]      # least and most arguments
    impl: Callable
    ja: str
    en: str
    returns: str = ANY          # the kind of value it gives (language/kinds.py)
    ranks: bool = False         # takes `key for x in coll` as (items, keys)
    order: str = ""             # 'reads': its result depends on the order of its zone argument;
                                # 'keeps': gives items back in the order of its last argument;
                                # 'unknown zone': names a zone known only during play
    constant: bool = False      # can be worked out before play from numbers (max, min, abs)
    of_items: str = ""          # the same as Python code on the items of its one argument, `{0}`
                                # (what _items gives), calling {len}, {sum}, {next}, {iter}, {reversed}
    of_args: str = ""           # the same as Python code on two or more arguments, `{args}`,
                                # calling {max}, {min}


def worded(template: str, how: str = "", line: str = "") -> str:
    """A reading with a board's words put in: `{how}` its spaces touch, the `{line}` they form."""
    return template.replace("{how}", how).replace("{line}", line).replace("  ", " ").strip()


def _items(s, coll):
    if isinstance(coll, ZoneId):
        return s.zones[coll]
    return coll


def _count(s, coll):
    return len(_items(s, coll))


def _sum(s, coll):
    return sum(_items(s, coll))


def _max(s, *args):
    if len(args) == 1:
        items = _items(s, args[0])
        return max(items) if items else 0
    return max(args)


def _min(s, *args):
    if len(args) == 1:
        items = _items(s, args[0])
        return min(items) if items else 0
    return min(args)


def _extreme(pick):
    def run(s, ranked):
        """The items whose key (the same place in the keys) is the best by `pick`, in order."""
        items, keys = ranked
        if not items:
            return ()
        best = pick(keys)
        chosen = []
        for x, k in zip(items, keys):       # a loop, not a comprehension: no frame of its own
            if k == best:
                chosen.append(x)
        return tuple(chosen)
    return run


def _nth_highest(s, n, ranked):
    items, keys = ranked
    ranks = sorted(set(keys), reverse=True)
    if n < 1 or n > len(ranks):
        return ()
    return tuple(x for x, k in zip(items, keys) if k == ranks[n - 1])


def _first(s, coll):
    items = _items(s, coll)
    return items[0] if items else None


def _top(s, coll):
    items = _items(s, coll)
    return items[-1] if items else None


def _alive_players(s):
    return tuple(compress(s.game._players, s.alive))


def _next_player(s, p, step=1):
    if type(p) is Player:
        alive = s.alive
        for q in s.game.turn_after[step][p]:
            if alive[q]:
                return q
        return None
    if p is None:
        return None
    n = s.n
    direction = s.game.direction
    q = int(p)
    for _ in range(n):
        q = (q + direction * step) % n
        if s.alive[q]:
            return s.game._players[q]
    return None


def _previous_player(s, p):
    return _next_player(s, p, -1)


def _all(s, family):
    return tuple(items_of(s, family))


def _wild(s, piece):
    w = s.game.wild_face.get(s.game.kind_of[piece])
    return w is not None and s.face[piece] == w


def _alive(s, p):
    if isinstance(p, Team):
        return any(map(s.alive.__getitem__, s.game.team_members[p]))
    return p is not None and bool(s.alive[p])


def _team_of(s, p):
    return None if p is None else s.game.team_of[p]


def _members(s, t):
    return () if t is None else s.game.team_members[t]


def _alive_teams(s):
    # A team game reads it many times between two changes of the state: kept in the state's
    # memo under a key no value has. Every change that can alter it empties the memo (`eliminate`
    # is the only one that writes `alive`; a `set` of a variable forgets only the values reading it).
    found = s.memo.get("alive_teams")
    if found is None:
        found = s.memo["alive_teams"] = tuple([t for t in s.game.teams if _alive(s, t)])
    return found


def _contains(s, coll, x):
    return x in _items(s, coll)


def _empty(s, coll):
    return len(_items(s, coll)) == 0


def _seat(s, p):
    return int(p) + 1


def _player(s, k):
    """The player in seat k (from 1): the inverse of seat(p)."""
    if isinstance(k, (bool, Player, Team, Piece, ZoneId)) or not isinstance(k, int) or not 1 <= k <= s.n:
        raise RuleError("no such seat", f"there is no seat {plain(k)!r} with {s.n} players (seats are 1 to {s.n})")
    return s.game._players[k - 1]


def _holder(s, piece):
    return s.game.zone_owner[s.loc[piece]]


def _zone_of(s, piece):
    return ZoneId(s.loc[piece])


def _abs(s, x):
    return abs(x)


def _size(s, coll):
    return len(_items(s, coll))


def _board_place(s, x):
    """The board, column and row of a space, or of the space a piece lies on; None off the boards."""
    if not isinstance(x, (Piece, ZoneId)):
        return None
    return s.game.space_at.get(s.loc[x] if isinstance(x, Piece) else x)


def _where(s, x) -> tuple[str, int, int]:
    at = _board_place(s, x)
    if at is None:
        what = "a piece that is not on a board" if isinstance(x, Piece) else \
            f"the zone '{s.game.zone_names[x]}'" if isinstance(x, ZoneId) else repr(plain(x))
        raise RuleError("evaluation failed", f"this needs a space of a board (or a piece on one), and it was given {what}")
    return at


def _spaces(s, board):
    return Spaces(board)        # a board's name gives its spaces in reading order


def _neighbours(s, x):
    board, cx, cy = _where(s, x)
    return Spaces(s.game.space(board, nx, ny) for nx, ny in s.game.near(board, cx, cy))


def _adjacent(s, a, b):
    board, ax, ay = _where(s, a)
    other, bx, by = _where(s, b)
    return board == other and (bx, by) in s.game.near(board, ax, ay)


def _column(s, x):
    return _where(s, x)[1]


def _row(s, x):
    return _where(s, x)[2]


def _lines(game, board, k):
    """Every line of k spaces on a board: straight runs on a grid, runs along a track; a route
    has no lines but its single spaces."""
    if board in game.board_graph:
        d = game.board_decls[board]
        n = game.board_sizes[board][0]
        found = geometry.runs(n, d.loop, k) if d.shape == "track" else geometry.runs(n, False, k) if k == 1 else ()
        return tuple(tuple((i, 1) for i in run) for run in found)
    w, h = game.board_sizes[board]
    return geometry.lines(w, h, game.board_decls[board].adjacency, k)


def _in_a_row(s, k, coll):
    """Whether k of the spaces (or of the pieces' spaces) lie in one line; what is off every
    board is in no line."""
    taken = {_board_place(s, x) for x in _items(s, coll)} - {None}
    for board in dict.fromkeys(b for b, _, _ in taken):
        for line in _lines(s.game, board, k):
            if all((board, x, y) in taken for x, y in line):
                return True
    return False


def _on_track(s, x, what):
    board, i, _ = _where(s, x)
    d = s.game.board_decls[board]
    if d.shape != "track":
        raise RuleError("evaluation failed", f"{what} counts steps along a track, and '{board}' is not one")
    return board, i, d


def _along(s, x, k):
    """The space k steps further along the track (back when k is negative); past an end is off the board."""
    board, i, d = _on_track(s, x, "along")
    to = geometry.step(s.game.board_sizes[board][0], d.loop, i, k)
    if to is None:
        raise RuleError("off the board", f"{k} steps from {s.game.zone_names[s.game.space(board, i, 1)]} "
                        "go past the end of the track")
    return s.game.space(board, to, 1)


def _past_end(s, x, k):
    board, i, d = _on_track(s, x, "past_end")
    return geometry.step(s.game.board_sizes[board][0], d.loop, i, k) is None


def _label(s, x):
    board, i, _ = _where(s, x)
    labels = s.game.board_decls[board].labels()
    if not labels:
        raise RuleError("evaluation failed", f"a space of the grid '{board}' has no label: read column() and row()")
    return labels[i - 1]


def _joined_set(s, coll):
    taken = {_board_place(s, x) for x in _items(s, coll)} - {None}
    return taken, lambda p: [(p[0], x, y) for x, y in s.game.near(*p)]


def _joins(s, coll, starts, goals):
    """Whether a chain of the spaces (or pieces' spaces) in coll, each next to the one before,
    joins one of `starts` to one of `goals`."""
    taken, near = _joined_set(s, coll)
    places = lambda c: {_board_place(s, x) for x in _items(s, c)} - {None}      # noqa: E731
    return geometry.chained(taken, near, sorted(places(starts)), places(goals))


def _connected(s, coll):
    """Whether the spaces (or pieces' spaces) in coll form one chain-joined group (none: true)."""
    taken, near = _joined_set(s, coll)
    first = sorted(taken)[:1]
    return not taken or all(geometry.chained(taken, near, first, {t}) for t in taken)


BUILTINS: dict[str, Builtin] = {b.name: b for b in [
    Builtin("count", (1, 1), _count, "{0}の数", "the number of {0}", returns=NUM, of_items="{len}({0})"),
    Builtin("sum", (1, 1), _sum, "{0}の合計", "the total of {0}", returns=NUM, of_items="{sum}({0})"),
    Builtin("max", (1, 9), _max, "{0}の最大", "the largest of {0}", returns=NUM, constant=True, of_args="{max}({args})"),
    Builtin("min", (1, 9), _min, "{0}の最小", "the smallest of {0}", returns=NUM, constant=True, of_args="{min}({args})"),
    Builtin("highest", (1, 1), _extreme(max), "{0}が最も大きいもの", "those with the highest {0}", ranks=True, returns=COLL, order="keeps"),
    Builtin("lowest", (1, 1), _extreme(min), "{0}が最も小さいもの", "those with the lowest {0}", ranks=True, returns=COLL, order="keeps"),
    Builtin("nth_highest", (2, 2), _nth_highest, "{1}が{0}番目に大きいもの", "those ranked {0} by highest {1}", ranks=True, returns=COLL, order="keeps"),
    Builtin("first", (1, 1), _first, "{0}の最初", "the first of {0}", returns=ANY, order="reads",
            of_items="{next}({iter}({0}), None)"),
    Builtin("top", (1, 1), _top, "{0}の一番上", "the top of {0}", returns=ANY, order="reads",
            of_items="{next}({reversed}({0}), None)"),
    Builtin("alive_players", (0, 0), _alive_players, "残っているプレイヤー", "the players still in", returns=COLL),
    Builtin("next_player", (1, 1), _next_player, "{0}の次のプレイヤー", "the player after {0}", returns=PLAYER),
    Builtin("previous_player", (1, 1), _previous_player, "{0}の前のプレイヤー", "the player before {0}", returns=PLAYER),
    Builtin("all", (1, 1), _all, "全員の{0}", "every player's {0}", returns=COLL, order="keeps"),
    Builtin("wild", (1, 1), _wild, "{0}がワイルド", "{0} shows the wild face", returns=BOOL),
    Builtin("alive", (1, 1), _alive, "{0}が残っている", "{0} is still in", returns=BOOL),
    Builtin("team_of", (1, 1), _team_of, "{0}のチーム", "the team of {0}", returns=TEAM),
    Builtin("members", (1, 1), _members, "{0}のメンバー", "the members of {0}", returns=COLL),
    Builtin("alive_teams", (0, 0), _alive_teams, "残っているチーム", "the teams still in", returns=COLL),
    Builtin("contains", (2, 2), _contains, "{0}に{1}がある", "{0} holds {1}", returns=BOOL),
    Builtin("empty", (1, 1), _empty, "{0}が空", "{0} is empty", returns=BOOL, of_items="({len}({0}) == 0)"),
    Builtin("seat", (1, 1), _seat, "{0}の席番号", "the seat of {0}", returns=NUM),
    Builtin("player", (1, 1), _player, "席{0}のプレイヤー", "the player in seat {0}", returns=PLAYER),
    # the player whose zone holds the piece, or on a map of spaces the space it lies on
    Builtin("holder", (1, 1), _holder, "{0}を持つプレイヤー", "the player holding {0}", returns=ANY),
    Builtin("zone_of", (1, 1), _zone_of, "{0}のある場所", "where {0} is", returns=ZONE, order="unknown zone"),
    Builtin("abs", (1, 1), _abs, "{0}の絶対値", "the size of {0}", returns=NUM, constant=True),
    Builtin("size", (1, 1), _size, "{0}の大きさ", "the size of {0}", returns=NUM),
    # board geometry: {how} and {line} are said as the board's adjacency has it (constructs/board.py)
    Builtin("spaces", (1, 1), _spaces, "{0}のマス", "the spaces of {0}", returns=COLL),
    Builtin("neighbours", (1, 1), _neighbours, "{0}と{how}接しているマス", "the spaces next to {0} {how}", returns=COLL),
    Builtin("adjacent", (2, 2), _adjacent, "{0}が{1}と{how}接している", "{0} is next to {1} {how}", returns=BOOL),
    Builtin("column", (1, 1), _column, "{0}の列", "the column of {0}", returns=NUM),
    Builtin("row", (1, 1), _row, "{0}の行", "the row of {0}", returns=NUM),
    Builtin("in_a_row", (2, 2), _in_a_row, "{1}のうち{0}つが{line}一列に並んでいる", "{0} of {1} stand in a line {line}",
            returns=BOOL),
    Builtin("along", (2, 2), _along, "{0}から{1}マス進んだマス", "the space {1} steps along the track from {0}", returns=ZONE),
    Builtin("past_end", (2, 2), _past_end, "{0}から{1}マス進むと道の端を越える", "{1} steps from {0} go past the end of the track",
            returns=BOOL),
    Builtin("label", (1, 1), _label, "{0}の番号", "the number of {0}", returns=ANY),
    Builtin("joins", (3, 3), _joins, "{0}が{how}つながって{1}と{2}を結ぶ", "{0} join {1} to {2} in a chain of spaces {how}",
            returns=BOOL),
    Builtin("connected", (1, 1), _connected, "{0}が{how}ひとつながりになっている", "{0} are all joined in one chain {how}",
            returns=BOOL),
]}

CONSTANTS = {"players", "teams", "nobody", "true", "false"}
