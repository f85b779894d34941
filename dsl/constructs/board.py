"""`board NAME`: a grid of spaces, each a zone.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.builtins import worded
from ..engine.errors import RuleError
from ..engine.geometry import FALL, landing, on_board
from ..language import syntax as S
from ..language.building import span
from ..language.kinds import ANY, COLL, NUM, PIECE, ZONE
from ..language.kinds import a as a_kind
from ..language.syntax import Decl
from ..printing.runs import Runs, fill, plain
from .registry import register


@dataclass(frozen=True)
class Board(Decl):
    keyword = "board"
    width: "int | str"          # a number, or the name of a parameter that gives it
    height: "int | str"
    adjacency: str
    gravity: str = ""           # '' or where a piece dropped on the board falls: down, up, left, right
    track: tuple = ()           # a track's labels in the order a piece travels (numbers or names)
    loop: bool = False          # the track's last space is joined to its first
    links: tuple = ()           # connections, pairs of labels: a route, or shortcuts on a track
    grid_given: bool = False    # `grid` was written (a track or route takes none)

    @property
    def shape(self) -> str:
        """'grid', 'track' or 'route' (spaces joined by connections alone)."""
        return "track" if self.track else "route" if self.links else "grid"

    def labels(self) -> tuple:
        """A track's or route's spaces in order, each by its label; () for a grid."""
        if self.track:
            return self.track
        return tuple(dict.fromkeys(x for pair in self.links for x in pair))


# ---------------------------------------------------------------- grammar
def _grid_line(meta, c):
    def size(tok):
        return int(tok) if tok.type == "INT" else str(tok)
    return ("grid", (size(c[0]), size(c[1])))


def _adjacency_line(meta, c):
    return ("adjacency", c[0])


def _gravity_line(meta, c):
    return ("gravity", c[0])


def _label(tok):
    return int(tok) if tok.type == "INT" else str(tok)


def _track_line(meta, c, loop=False):
    spaces = c[0]
    if spaces.data == "track_count":
        labels = tuple(range(1, int(spaces.children[0]) + 1))
    elif spaces.data == "track_range":
        labels = tuple(range(int(spaces.children[0]), int(spaces.children[1]) + 1))
    else:
        labels = tuple(str(t) for t in spaces.children)
    return ("track", (labels, loop))


def _connect_line(meta, c):
    return ("links", tuple((_label(x.children[0]), _label(x.children[1])) for x in c))


def _board(meta, c):
    props = {"grid": None, "adjacency": None, "gravity": "", "track": ((), False), "links": ()}
    texts = []
    for line in c[1:]:
        if isinstance(line, tuple) and line and isinstance(line[0], S.Text):
            texts.extend(line)
        elif line[0] == "links":
            props["links"] += line[1]
        else:
            props[line[0]] = line[1]
    (w, h), (track, loop) = props["grid"] or (1, 1), props["track"]
    adjacency = props["adjacency"] or ("track" if track else "route" if props["links"] else "orthogonal")
    return Board(str(c[0]), tuple(texts), span(meta), w, h, adjacency, props["gravity"],
                 track, loop, props["links"], props["grid"] is not None)


GRAMMAR = {"grid_line": _grid_line, "adjacency_line": _adjacency_line, "gravity_line": _gravity_line, "board": _board,
           "track_line": _track_line, "loop_line": lambda meta, c: _track_line(meta, c, loop=True),
           "connect_line": _connect_line}


# ---------------------------------------------------------------- checks
def check(ck, d):
    for size in dict.fromkeys((d.width, d.height)):
        if isinstance(size, str):
            p = ck.declared.get(size)
            if not isinstance(p, S.Parameter):
                ck.error(d.span, f"the board's size '{size}' is not a parameter",
                         "write a number, or the name of a parameter (`parameter size = 4`)")
            else:
                ck.used.add(size)
        elif size < 1:
            ck.error(d.span, "a board needs at least one space")
    if d.shape != "grid":
        _check_graph(ck, d)
    if d.adjacency == "hex" and d.gravity:
        ck.error(d.span, "a hex board has no gravity: its columns are not straight",
                 "leave 'gravity' out, or give the board another adjacency")


def _check_graph(ck, d):
    """A track or route: its spaces and connections say its adjacency; nothing of a grid applies."""
    what = "track" if d.track else "route"
    if d.grid_given:
        ck.error(d.span, f"a board with a {what} has no grid: its spaces are the {what}'s",
                 "leave out `grid`, or make two boards")
    if d.adjacency not in ("track", "route"):
        ck.error(d.span, f"a {what} takes no 'adjacency': its spaces touch as the {what} and its connections say",
                 "leave out `adjacency`; join more spaces with `connect a - b`")
    if d.gravity:
        ck.error(d.span, f"a {what} has no gravity", "leave out `gravity`")
    labels = d.labels()
    if not labels:
        ck.error(d.span, "a track needs at least one space", "write `track 24`, `track 2 to 12` or `track start, middle, end`")
    twice = sorted({str(x) for x in labels if labels.count(x) > 1})
    if twice:
        ck.error(d.span, f"the track names {', '.join(twice)} more than once", "give every space its own name")
    for a, b in d.links:
        for x in (a, b):
            if x not in labels:
                ck.error(d.span, f"'connect' names {x}, which is not a space of the track '{d.name}'",
                         f"its spaces are {_listed(labels)}")
        if a == b:
            ck.error(d.span, f"'connect {a} - {b}' joins a space to itself", "a connection joins two spaces")


def _listed(labels) -> str:
    shown = [str(x) for x in labels]
    return ", ".join(shown) if len(shown) <= 8 else f"{', '.join(shown[:3])} ... {shown[-1]}"


def _check_label(ck, e, d, scope):
    """`NAME(label)`: one space of a track or route, by its number or its name."""
    if len(e.args) != 1:
        ck.error(e.span, f"'{e.fn}' is a {'track' if d.track else 'route'}: name one space, {e.fn}({d.labels()[0] if d.labels() else 1})")
    labels = d.labels()
    for a in e.args:
        if isinstance(a, S.Name) and a.id in labels:
            continue
        named = all(isinstance(x, str) for x in labels)
        if named and isinstance(a, S.Name) and a.id not in scope.names and a.id not in ck.declared:
            ck.error(a.span, f"'{e.fn}' has no space '{a.id}'", f"its spaces are {_listed(labels)}")
            continue
        ck.expr(a, scope, want=None if named else NUM)
    return ZONE


def check_space(ck, e, d, scope):
    """`NAME(x, y)`, one space; on a board with gravity also `NAME(x)`, where a piece dropped in lands."""
    fn, args = e.fn, e.args
    if d.shape != "grid":
        return _check_label(ck, e, d, scope)
    if d.gravity and len(args) not in (1, 2):
        across = "column" if FALL[d.gravity][1] else "row"
        ck.error(e.span, f"'{fn}' takes a column and a row, {fn}(x, y), or the {across} a piece is dropped into, {fn}(n)")
    elif not d.gravity and len(args) != 2:
        ck.error(e.span, f"'{fn}' needs a column and a row: {fn}(x, y)",
                 f"to drop a piece into a column, give the board `gravity down` and write {fn}(x)" if len(args) == 1 else None)
    for a in args:
        ck.expr(a, scope, want=NUM)
    return ZONE


# The built-ins that read a board's shape, and what each argument must be: a board's name, a
# space (or a piece on one), a number, a collection of spaces or pieces.
GEOMETRY = {"spaces": ("board",), "neighbours": ("space",), "adjacent": ("space", "space"),
            "column": ("space",), "row": ("space",), "in_a_row": (NUM, COLL),
            "along": ("space", NUM), "past_end": ("space", NUM), "label": ("space",),
            "joins": (COLL, COLL, COLL), "connected": (COLL,)}


def check_geometry(ck, e, scope):
    boards = [d.name for d in ck.of(Board)]
    if not boards:
        ck.error(e.span, f"'{e.fn}' reads a board, and this game declares none",
                 "declare one: `board field` with `grid 3 by 3` and `adjacency orthogonal`")
    for a, want in zip(e.args, GEOMETRY[e.fn]):
        if want == "board":
            if isinstance(a, S.Name) and isinstance(ck.declared.get(a.id), Board):
                ck.used.add(a.id)
            else:
                what = f"'{a.id}' is" if isinstance(a, S.Name) else "this is"
                ck.error(a.span, f"'{e.fn}' takes the name of a board, and {what} not one",
                         f"write {e.fn}({boards[0]})" if boards else None)
        elif want == "space":
            kind = ck.expr(a, scope)
            named = a.id if isinstance(a, S.Name) else a.fn if isinstance(a, S.Call) else None
            if isinstance(ck.declared.get(named), S.Zone) or isinstance(a, S.Name) and named in boards:
                what = "a whole board" if named in boards else "a zone"
                ck.error(a.span, f"'{named}' is {what}, not a space of a board",
                         f"a space is written {boards[0]}(x, y)" if boards else None)
            elif kind not in (ZONE, PIECE, ANY):
                ck.error(a.span, f"expected a space of a board or a piece on one here, but this is {a_kind(kind)}",
                         f"a space is written {boards[0]}(x, y)" if boards else None)
        else:
            ck.expr(a, scope, want=want)


def size_of(tables, size) -> int:
    """A board side as a number: as written, or the parameter's value at this player count."""
    if isinstance(size, int):
        return size
    n = tables.const(S.Name(S.NOWHERE, size), f"the board size '{size}'")
    if not isinstance(n, int) or n < 1:
        raise RuleError("board", f"the board size '{size}' is {n}: a board needs at least one space", S.NOWHERE)
    return n


# ---------------------------------------------------------------- compilation
def compile_space(c, e, env):
    """One space of the board, or where a piece dropped into a column (or row) comes to rest."""
    fn, span = e.fn, e.span
    (w, h), gravity = c.board_sizes[fn], c.board_decls[fn].gravity
    if fn in c.board_graph:
        return _compile_label(c, e, env)
    coords = [c.expr(a, env) for a in e.args]

    def at(x, y):
        return c.space(fn, x, y)

    if len(coords) == 2:
        ax, ay = coords

        def space(s):
            x, y = ax(s), ay(s)
            if not on_board(w, h, x, y):
                raise RuleError("off the board", f"there is no space {fn}({x}, {y}) on a {w} by {h} board", span)
            return at(x, y)
        return space
    (dropped_into,), by_column = coords, FALL[gravity][1]
    line, across = ("column", w) if by_column else ("row", h)

    def drop(s):
        n = dropped_into(s)
        if not 1 <= n <= across:
            raise RuleError("off the board", f"there is no {line} {n} on a {w} by {h} board", span)
        rest = landing(w, h, gravity, n, lambda x, y: bool(s.zones[at(x, y)]))
        if rest is None:
            raise RuleError("off the board", f"{line} {n} of '{fn}' is full: a piece dropped there has no space", span)
        return at(*rest)
    return drop


def _compile_label(c, e, env):
    """A track's or route's space by its label: a name written as one is that space."""
    fn, span = e.fn, e.span
    labels = c.board_decls[fn].labels()
    index = {x: i + 1 for i, x in enumerate(labels)}
    (a,) = e.args
    if isinstance(a, S.Name) and a.id in index:
        zone = c.space(fn, index[a.id], 1)
        return lambda s: zone
    label = c.expr(a, env)

    def space(s):
        x = label(s)
        if x not in index:
            raise RuleError("off the board", f"'{fn}' has no space {x}: its spaces are {_listed(labels)}", span)
        return c.space(fn, index[x], 1)
    return space


# ---------------------------------------------------------------- reading
# How a board's adjacency and gravity are said: touching spaces, lines, and where a drop lands.
_TOUCH = {"orthogonal": ("辺で", "(sharing a side)"), "diagonal": ("角で", "(corner to corner)"),
          "all": ("辺か角で", "(sharing a side or a corner)"), "hex": ("辺で", "(sharing a side of the hexagon)"),
          "track": ("道に沿って", "(along the track)"), "route": ("道で", "(joined by a connection)")}
_LINE = {"orthogonal": ("縦か横に", "across or down"), "diagonal": ("斜めに", "diagonally"),
         "all": ("縦・横・斜めのどれかに", "across, down or diagonally"),
         "hex": ("横か斜め(六角形の3方向のどれか)に", "along one of the three directions of the hexagons"),
         "track": ("道に沿って", "along the track"), "route": ("", "")}
_DROP = {"down": ("{0}の{1}列目で一番下の空いているマス", "the lowest empty space in column {1} of {0}"),
         "up": ("{0}の{1}列目で一番上の空いているマス", "the highest empty space in column {1} of {0}"),
         "left": ("{0}の{1}行目で一番左の空いているマス", "the leftmost empty space in row {1} of {0}"),
         "right": ("{0}の{1}行目で一番右の空いているマス", "the rightmost empty space in row {1} of {0}")}


def say_geometry(v, e, template: str) -> str:
    """A built-in's reading with the words for the adjacency of the board it is about put in."""
    boards = [d for d in v.kinds.values() if isinstance(d, Board)]
    named = {x.id if isinstance(x, S.Name) else x.fn for x in S.walk(e) if isinstance(x, (S.Name, S.Call))}
    about = [d for d in boards if d.name in named] or boards
    adjacency = about[0].adjacency if len({d.adjacency for d in about}) == 1 else "all"
    ja = v.lang == "ja"
    return worded(template, _TOUCH[adjacency][not ja], _LINE[adjacency][not ja])


def read_space(v, e, args) -> Runs:
    """A board's space by its column and row, as the board's figure names them: 'the field's
    space at (2, 3)', 「場の(2、3)のマス」."""
    name = v.name(e.fn, article=False)
    if v.lang == "ja":
        return name + [("", "の(")] + args[0] + [("", "、")] + args[1] + [("", ")のマス")]
    return [("", "the ")] + name + [("", "'s space at (")] + args[0] + [("", ", ")] + args[1] + [("", ")")]


def read_label(v, e, args) -> Runs:
    """A track's or route's space by its label: 'space 5 of the points', 「ポイントの5のマス」."""
    name = v.name(e.fn, article=False)
    if v.lang == "ja":
        return name + [("", "の")] + args[0] + [("", "のマス")]
    return [("", "space ")] + args[0] + [("", " of the ")] + name


def read_drop(v, e, args) -> Runs:
    b = v.kinds[e.fn]
    ja, en = _DROP[b.gravity]
    return fill(ja if v.lang == "ja" else en, [v.name(e.fn, article=False), args[0]])


# Where the board is described among the components: a piece dropped in falls as the board's gravity says.
_FALLS = {"down": ("入れた駒は列の一番下の空いているマスまで落ちる", "a piece dropped into a column falls to its lowest empty space"),
          "up": ("入れた駒は列の一番上の空いているマスまで上がる", "a piece dropped into a column rises to its highest empty space"),
          "left": ("入れた駒は行の一番左の空いているマスまで動く", "a piece dropped into a row slides to its leftmost empty space"),
          "right": ("入れた駒は行の一番右の空いているマスまで動く", "a piece dropped into a row slides to its rightmost empty space")}


def _read_graph(v, b) -> Runs:
    labels, ja = b.labels(), v.lang == "ja"
    ends = f"{labels[0]}〜{labels[-1]}" if ja else f"{labels[0]} to {labels[-1]}"
    if b.track and all(isinstance(x, int) for x in labels) and list(labels) == list(range(labels[0], labels[-1] + 1)):
        shown = ends
    else:
        shown = ("、" if ja else ", ").join(map(str, labels))
    if b.track:
        runs = [("num", f"{len(labels)}"), ("", ("マスの道(" if ja else " spaces in a track (") + shown + ")")]
        if b.loop:
            runs.append(("", " · " + ("最後のマスは最初のマスにつながる輪" if ja else "a loop: the last space is joined to the first")))
    else:
        runs = [("num", f"{len(labels)}"), ("", ("マス(" if ja else " spaces (") + shown + ")")]
    if b.links:
        joined = ("、" if ja else ", ").join(f"{a}–{c}" for a, c in b.links)
        runs.append(("", " · " + (f"道でつながるマス: {joined}" if ja else f"joined by connections: {joined}")))
    return runs


def read(v, b, counts=()) -> Runs:
    if b.shape != "grid":
        return _read_graph(v, b)
    w, h = (plain(v.name(x)) if isinstance(x, str) else str(x) for x in (b.width, b.height))
    runs = [("num", f"{w} × {h}")]
    if b.adjacency == "hex":
        runs.append(("", " · " + ("六角形のマスのひし形(各行は上の行より半マス右にずれる)" if v.lang == "ja" else
                                  "a rhombus of hexagons, each row half a space to the right of the row above")))
    if b.gravity:
        ja, en = _FALLS[b.gravity]
        runs.append(("", f" · {ja if v.lang == 'ja' else en}"))
    return runs


register(Board, "declaration", grammar=GRAMMAR, check=check, read=read)
