"""Rule file text -> syntax tree, using the Lark grammar in grammars/rules.lark.

Syntax errors become diagnostics with positions. After an error the parser blanks out
the top-level item that holds it and tries again, so one run reports every broken item.
"""
from __future__ import annotations

import os
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter

from . import syntax as S
from .diagnostics import Diagnostic, RuleFileError

GRAMMAR = Path(__file__).resolve().parent.parent.parent / "grammars" / "rules.lark"
MAX_SYNTAX_ERRORS = 20


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


@lru_cache(maxsize=1)
def _lark() -> Lark:
    return Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", postlex=_Indenter(),
                propagate_positions=True, maybe_placeholders=True)


# The file being built, so that every span knows where it came from (variants mix files).
_FILE: ContextVar[str] = ContextVar("file", default="")


def _span(meta) -> S.Span:
    if getattr(meta, "empty", True):
        return S.NOWHERE
    return S.Span(meta.line, meta.column, meta.end_line, meta.end_column, _FILE.get())


def _tok_span(tok: Token) -> S.Span:
    return S.Span(tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + len(tok), _FILE.get())


def _unquote(s: str) -> str:
    body = s[1:-1]
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _texts(items) -> tuple[S.Text, ...]:
    out = []
    for it in items:
        if isinstance(it, tuple) and it and isinstance(it[0], S.Text):
            out.extend(it)
    return tuple(out)


def _not_texts(items):
    return [it for it in items if not (isinstance(it, tuple) and it and isinstance(it[0], S.Text))]


@v_args(meta=True)
class _Build(Transformer):
    """Each method turns one grammar rule into syntax-tree values."""

    # ------------------------------------------------------------ tokens and text
    def NAME(self, tok):
        return tok

    def text_kind(self, meta, c):
        return str(c[0])

    lang = text_kind
    direction = text_kind
    seer = text_kind
    adjacency = text_kind
    rank_dir = text_kind
    counter_kind = text_kind

    def provisional(self, meta, c):
        return True

    def per_player(self, meta, c):
        return True

    def ties(self, meta, c):
        return True

    def place(self, meta, c):
        return "top" if str(c[0]) == "on" else "bottom"

    def lang_text(self, meta, c):
        return (c[0], _unquote(c[1]))

    def text_line(self, meta, c):
        kind = c[0]
        return tuple(S.Text(kind, lang, text) for lang, text in c[1:])

    def decl_tail(self, meta, c):
        return _texts(c)

    # ------------------------------------------------------------ values
    def int_value(self, meta, c):
        return int(c[0])

    def neg_int_value(self, meta, c):
        return -int(c[0])

    def no_value(self, meta, c):
        return "-"

    def str_value(self, meta, c):
        return _unquote(c[0])

    def sym_value(self, meta, c):
        return str(c[0])

    # ------------------------------------------------------------ expressions
    def int_lit(self, meta, c):
        return S.Num(_span(meta), int(c[0]))

    def str_lit(self, meta, c):
        return S.Str(_span(meta), _unquote(c[0]))

    def name(self, meta, c):
        return S.Name(_span(meta), str(c[0]))

    def call(self, meta, c):
        return S.Call(_span(meta), str(c[0]), tuple(a for a in c[1:] if a is not None))

    def attr(self, meta, c):
        return S.Attr(_span(meta), c[0], str(c[1]))

    def list_lit(self, meta, c):
        return S.ListLit(_span(meta), tuple(a for a in c if a is not None))

    def filter_arg(self, meta, c):
        return S.Comprehension(_span(meta), str(c[0]), c[1], c[2], None)

    def map_arg(self, meta, c):
        return S.Comprehension(_span(meta), str(c[1]), c[2], c[3], c[0])

    def if_expr(self, meta, c):
        return S.IfExpr(_span(meta), c[0], c[1], c[2])

    def not_expr(self, meta, c):
        return S.Unary(_span(meta), "not", c[0])

    def neg(self, meta, c):
        return S.Unary(_span(meta), "-", c[0])

    def _chain(self, meta, c, op=None):
        result = c[0]
        i = 1
        while i < len(c):
            if op is None:
                o, rhs = str(c[i]), c[i + 1]
                i += 2
            else:
                o, rhs = op, c[i]
                i += 1
            result = S.Binary(S.Span(result.span.line, result.span.column, rhs.span.end_line, rhs.span.end_column, result.span.file), o, result, rhs)
        return result

    def or_expr(self, meta, c):
        return self._chain(meta, c, "or")

    def and_expr(self, meta, c):
        return self._chain(meta, c, "and")

    comparison = _chain
    sum = _chain
    term = _chain

    # ------------------------------------------------------------ statements
    def block(self, meta, c):
        return tuple(c)

    def _body(self, block):
        return _texts(block), tuple(s for s in _not_texts(block))

    def move_amount(self, meta, c):
        kind, count = c[0]
        return S.Move(_span(meta), kind, count, c[1], c[2], c[3] or "top")

    def move_item(self, meta, c):
        return S.Move(_span(meta), "item", c[0], None, c[1], c[2] or "top")

    def amount_all(self, meta, c):
        return ("all", None)

    def amount_up_to(self, meta, c):
        return ("up to", c[0])

    def amount_exactly(self, meta, c):
        return ("exactly", c[0])

    def shuffle(self, meta, c):
        return S.Shuffle(_span(meta), c[0])

    def roll(self, meta, c):
        return S.Roll(_span(meta), c[0])

    def var_target(self, meta, c):
        return S.Target(str(c[0]), None, _span(meta))

    def player_target(self, meta, c):
        return S.Target(str(c[0]), c[1], _span(meta))

    def set_stmt(self, meta, c):
        return S.Assign(_span(meta), "set", c[0], c[1])

    def add_stmt(self, meta, c):
        return S.Assign(_span(meta), "add", c[1], c[0])

    def subtract_stmt(self, meta, c):
        return S.Assign(_span(meta), "subtract", c[1], c[0])

    def eliminate(self, meta, c):
        return S.Eliminate(_span(meta), c[0])

    def reveal(self, meta, c):
        return S.Reveal(_span(meta), c[0])

    def do_stmt(self, meta, c):
        return S.Do(_span(meta), str(c[0]), tuple(a for a in c[1:] if a is not None))

    def end_game(self, meta, c):
        return S.EndGame(_span(meta), c[0])

    def rank_key(self, meta, c):
        return S.RankKey(c[0], c[1])

    def ranking(self, meta, c):
        keys = tuple(k for k in c if isinstance(k, S.RankKey))
        rest = [k for k in c if not isinstance(k, S.RankKey)]
        return keys, str(rest[0]), rest[1], bool(rest[2])

    def end_ranked(self, meta, c):
        keys, var, coll, share = c[0]
        return S.EndGame(_span(meta), None, keys, var, coll, share)

    def unhandled(self, meta, c):
        return S.Unhandled(_span(meta))

    def pass_stmt(self, meta, c):
        return S.Pass(_span(meta))

    def _named_block(kind):
        def build(self, meta, c):
            texts, body = self._body(c[1])
            return S.Block(_span(meta), kind, str(c[0]), texts, body)
        return build

    step = _named_block("step")
    phase = _named_block("phase")
    assume = _named_block("assume")

    def if_stmt(self, meta, c):
        branches = [(c[0], c[1])]
        otherwise = None
        for extra in c[2:]:
            if extra is None:
                continue
            if extra[0] == "elif":
                branches.append((extra[1], extra[2]))
            else:
                otherwise = extra[1]
        return S.If(_span(meta), tuple((cond, tuple(_not_texts(b))) for cond, b in branches),
                    tuple(_not_texts(otherwise)) if otherwise is not None else None)

    def else_if(self, meta, c):
        return ("elif", c[0], c[1])

    def else_(self, meta, c):
        return ("else", c[0])

    def cases(self, meta, c):
        return S.Cases(_span(meta), str(c[0]) if c[0] is not None else None, tuple(c[1:]))

    def case(self, meta, c):
        texts, body = self._body(c[1])
        return S.Case(c[0], texts, body, _span(meta))

    def repeat_until(self, meta, c):
        return S.Repeat(_span(meta), "until", c[0], tuple(_not_texts(c[1])))

    def repeat_while(self, meta, c):
        return S.Repeat(_span(meta), "while", c[0], tuple(_not_texts(c[1])))

    def repeat_times(self, meta, c):
        return S.Repeat(_span(meta), "times", c[0], tuple(_not_texts(c[1])))

    def for_each(self, meta, c):
        return S.ForEach(_span(meta), str(c[0]), c[1], c[2], tuple(_not_texts(c[3])))

    def param(self, meta, c):
        return S.Param(str(c[0]), c[1], c[2], _span(meta))

    def option(self, meta, c):
        name = str(c[0])
        params = tuple(x for x in c[1:] if isinstance(x, S.Param))
        rest = [x for x in c[1:] if not isinstance(x, S.Param)]
        where, available, block = rest[-3], rest[-2], rest[-1]
        texts, body = self._body(block)
        return S.Option(name, params, where, available, texts, body, _span(meta))

    def options(self, meta, c):
        return tuple(c)

    def single_option(self, meta, c):
        params = tuple(x for x in c if isinstance(x, S.Param))
        where, block = c[-2], c[-1]
        texts, body = self._body(block)
        return (S.Option("choose", params, where, None, texts, body, _span(meta)),)

    def choose(self, meta, c):
        return S.Choose(_span(meta), c[0], c[1])

    def simultaneous(self, meta, c):
        return S.Choose(_span(meta), None, c[2], str(c[0]), c[1])

    # ------------------------------------------------------------ declarations
    def game(self, meta, c):
        name = str(c[0])
        props = {"players": (2, 2), "seating": "clockwise", "teams": 1, "max_steps": None}
        texts = []
        for line in c[1:]:
            if isinstance(line, tuple) and line and isinstance(line[0], S.Text):
                texts.extend(line)
            else:
                props[line[0]] = line[1]
        lo, hi = props["players"]
        return S.Game(name, tuple(texts), _span(meta), lo, hi, props["seating"], props["teams"], props["max_steps"])

    def players_line(self, meta, c):
        return ("players", (int(c[0]), int(c[1])))

    def seating_line(self, meta, c):
        return ("seating", c[0])

    def teams_line(self, meta, c):
        return ("teams", int(c[0]))

    def max_steps_line(self, meta, c):
        return ("max_steps", c[0])

    def parameter(self, meta, c):
        return S.Parameter(str(c[0]), c[3], _span(meta), c[1], (), None, bool(c[2]))

    def player_entry(self, meta, c):
        return (int(c[0]), c[1])

    def by_players(self, meta, c):
        entries = tuple(e for e in c if isinstance(e, tuple))
        otherwise = c[-1] if not isinstance(c[-1], tuple) else None
        return entries, otherwise

    def parameter_by_players(self, meta, c):
        entries, otherwise = c[1]
        return S.Parameter(str(c[0]), c[3], _span(meta), None, entries, otherwise, bool(c[2]))

    def min_bound(self, meta, c):
        return ("min", c[0])

    def max_bound(self, meta, c):
        return ("max", c[0])

    def per_owner(self, meta, c):
        return str(c[-1])

    def counter(self, meta, c):
        kind, name, per, initial = c[0], str(c[1]), c[2], c[3]
        bounds = dict(b for b in c[4:-1] if isinstance(b, tuple) and len(b) == 2 and b[0] in ("min", "max"))
        return S.Counter(name, c[-1], _span(meta), kind, per, initial, bounds.get("min"), bounds.get("max"))

    def faces_line(self, meta, c):
        return ("faces", tuple(c))

    def wild_line(self, meta, c):
        return ("wild", c[0])

    def count_line(self, meta, c):
        return ("count", (c[0], bool(c[1])))

    def home_line(self, meta, c):
        return ("home", str(c[0]))

    def attr_value(self, meta, c):
        return (str(c[0]), c[1])

    def card_line(self, meta, c):
        attrs = tuple(a for a in c[1:] if isinstance(a, tuple))
        count = c[-1] if not isinstance(c[-1], tuple) else None
        return ("card", S.CardSpec(str(c[0]), attrs, count, _span(meta)))

    def table_row(self, meta, c):
        return ("row", tuple(c), _span(meta))

    def cards_table(self, meta, c):
        var = str(c[0]) if c[0] is not None else None
        values = [v for v in c[1:] if not (isinstance(v, tuple) and v and v[0] == "row")]
        rows = [r for r in c[1:] if isinstance(r, tuple) and r and r[0] == "row"]
        values = [v for v in values if v is not None]
        header, body = rows[0], rows[1:]
        columns = [str(h) for h in header[1]]
        specs = []
        for _, cells, span in body:
            if len(cells) != len(columns):
                raise _TableError(span, f"this row has {len(cells)} cells but the header has {len(columns)}")
            attrs = []
            count = None
            for col, cell in zip(columns, cells):
                if col == "count":
                    count = S.Num(span, cell) if isinstance(cell, int) else S.Name(span, str(cell))
                elif cell != "-":
                    attrs.append((col, cell))
            for v in (values or [None]):
                row_attrs = tuple(attrs) + (((var, v),) if var else ())
                label = "-".join(str(x) for _, x in row_attrs)
                specs.append(S.CardSpec(label, row_attrs, count, span))
        return ("cards", tuple(specs))

    def _component(kind):
        def build(self, meta, c):
            fields = {"home": None, "faces": (), "wild": None, "count": (None, False), "cards": []}
            texts = []
            for line in c[1:]:
                if isinstance(line, tuple) and line and isinstance(line[0], S.Text):
                    texts.extend(line)
                elif line[0] == "card":
                    fields["cards"].append(line[1])
                elif line[0] == "cards":
                    fields["cards"].extend(line[1])
                else:
                    fields[line[0]] = line[1]
            count, per_player = fields["count"]
            return S.Component(str(c[0]), tuple(texts), _span(meta), kind, fields["home"], fields["faces"],
                               fields["wild"], count, per_player, tuple(fields["cards"]))
        return build

    dice = _component("dice")
    deck = _component("deck")
    token = _component("token")

    def grid_line(self, meta, c):
        return ("grid", (int(c[0]), int(c[1])))

    def adjacency_line(self, meta, c):
        return ("adjacency", c[0])

    def board(self, meta, c):
        props = {"grid": (1, 1), "adjacency": "orthogonal"}
        texts = []
        for line in c[1:]:
            if isinstance(line, tuple) and line and isinstance(line[0], S.Text):
                texts.extend(line)
            else:
                props[line[0]] = line[1]
        w, h = props["grid"]
        return S.Board(str(c[0]), tuple(texts), _span(meta), w, h, props["adjacency"])

    def zone_per_player(self, meta, c):
        return ("per", "player")

    def zone_per_team(self, meta, c):
        return ("per", "team")

    def zone_per_piece(self, meta, c):
        return ("per", str(c[0]))

    def zone_shared(self, meta, c):
        return ("per", None)

    def zone_seen(self, meta, c):
        return ("seen_by", c[0])

    def zone(self, meta, c):
        attrs = dict(a for a in c[2:-1] if isinstance(a, tuple))
        return S.Zone(str(c[0]), c[-1], _span(meta), str(c[1]), attrs.get("per"), attrs.get("seen_by", "everyone"))

    def order_rank(self, meta, c):
        return tuple(c)

    def order(self, meta, c):
        ranks = tuple(r for r in c[2:-1])
        return S.Order(str(c[0]), c[-1], _span(meta), str(c[1]), ranks)

    def question(self, meta, c):
        return S.Question(str(c[0]), c[2], _span(meta), str(c[1]) if c[1] is not None else None)

    def define(self, meta, c):
        params = tuple(str(p) for p in c[1:-2] if p is not None)
        return S.Define(str(c[0]), c[-1], _span(meta), params, c[-2])

    def rule(self, meta, c):
        params = tuple(str(p) for p in c[1:-1] if p is not None)
        texts, body = self._body(c[-1])
        return S.Rule(str(c[0]), texts, _span(meta), params, body)

    def trigger(self, meta, c):
        texts, body = self._body(c[4])
        return S.Trigger(str(c[0]), texts, _span(meta), str(c[1]) if c[1] is not None else None, c[2], c[3], body)

    def setup(self, meta, c):
        texts, body = self._body(c[0])
        return S.Flow("setup", texts, _span(meta), body)

    def play(self, meta, c):
        texts, body = self._body(c[0])
        return S.Flow("play", texts, _span(meta), body)

    # ------------------------------------------------------------ variant overlays
    block_kind = text_kind
    anchor = text_kind
    removable = text_kind

    def variant(self, meta, c):
        texts, builds_on = [], []
        for line in c[2:]:
            if isinstance(line, tuple) and line and isinstance(line[0], S.Text):
                texts.extend(line)
            else:
                builds_on.extend(line)
        return S.Variant(str(c[0]), tuple(texts), _span(meta), str(c[1]), tuple(builds_on))

    def builds_on_line(self, meta, c):
        return [str(n) for n in c]

    def replace_item(self, meta, c):
        return S.Patch(c[0].name, (), _span(meta), "replace", S.kind_of(c[0]), c[0])

    def replace_block(self, meta, c):
        return S.Patch(c[0].name, (), _span(meta), "replace", c[0].kind, c[0])

    def add_item(self, meta, c):
        return S.Patch(c[0].name, (), _span(meta), "add", S.kind_of(c[0]), c[0])

    def add_block(self, meta, c):
        kind, name, anchor, other, block = c
        texts, body = self._body(block)
        new = S.Block(_span(meta), kind, str(name), texts, body)
        return S.Patch(str(name), (), _span(meta), "add", kind, new, (anchor, str(other)))

    def remove_item(self, meta, c):
        return S.Patch(str(c[1]), (), _span(meta), "remove", c[0])

    def card_match(self, meta, c):
        return (str(c[0]), c[1])

    def card_where(self, meta, c):
        return tuple(c)

    card_set = card_where

    def change_cards(self, meta, c):
        return S.Patch(str(c[0]), (), _span(meta), "change cards", "deck", None, None, c[1], c[2])

    def start(self, meta, c):
        return tuple(c)


class _TableError(Exception):
    def __init__(self, span, message):
        super().__init__(message)
        self.span = span
        self.message = message


_FRIENDLY = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "the end of the block",
    "NAME": "a name", "INT": "a number", "STRING": "a quoted text", "COMP_OP": "a comparison",
    "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '//' or '%'", "$END": "the end of the file",
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "COLON": "':'",
    "EQUAL": "'='", "MINUS": "'-'", "PLUS": "'+'", "DOT": "'.'", "VBAR": "'|'", "MORETHAN": "'>'",
}


def _describe_expected(expected) -> str:
    names = []
    for e in sorted(expected):
        if e in _FRIENDLY:
            names.append(_FRIENDLY[e])
        elif e.isupper() and not e.startswith("_") and not e.startswith("__"):
            names.append("'" + e.lower() + "'")
    names = sorted(set(names))
    if not names:
        return ""
    if len(names) > 8:
        names = names[:8] + ["..."]
    return "expected " + ", ".join(names)


def _syntax_diagnostic(path: str, text: str, err: Exception) -> Diagnostic:
    line = getattr(err, "line", 0) or 0
    col = getattr(err, "column", 0) or 0
    if isinstance(err, UnexpectedToken):
        tok = err.token
        if tok.type == "$END":
            what = "the file ends in the middle of a declaration"
        elif tok.type in ("_INDENT",):
            what = "unexpected indentation"
        elif tok.type == "_DEDENT":
            what = "the block ends too early"
        elif tok.type == "_NL":
            what = "the line ends too early"
        else:
            what = f"unexpected {tok.value!r}"
        hint = _describe_expected(err.accepts or err.expected)
        if line in (0, -1) or tok.type == "$END":
            line = max(1, len(text.splitlines()))
            col = 1
        return Diagnostic("error", path, S.Span(line, col, line, col + max(1, len(str(tok.value).strip()) if tok.type not in ("_NL", "_DEDENT", "_INDENT", "$END") else 1)), what, hint or None)
    if isinstance(err, UnexpectedCharacters):
        ch = text.splitlines()[line - 1][col - 1] if 0 < line <= len(text.splitlines()) and 0 < col <= len(text.splitlines()[line - 1]) else "?"
        hint = "text must be in double quotes" if ch in "'“”「" else _describe_expected(err.allowed) or None
        return Diagnostic("error", path, S.Span(line, col, line, col + 1), f"unexpected character {ch!r}", hint)
    if isinstance(err, UnexpectedEOF):
        n = max(1, len(text.splitlines()))
        return Diagnostic("error", path, S.Span(n, 1, n, 1), "the file ends in the middle of a declaration")
    if isinstance(err, DedentError):
        return Diagnostic("error", path, S.Span(max(line, 1), 1, max(line, 1), 2),
                          "this line's indentation matches no enclosing block",
                          "indent each block by the same number of spaces as its siblings")
    return Diagnostic("error", path, S.Span(max(line, 1), max(col, 1), max(line, 1), max(col, 1) + 1), str(err).splitlines()[0])


def _dedent_error_line(text: str) -> int:
    stack = [0]
    for n, raw in enumerate(text.splitlines(), 1):
        stripped = raw.lstrip(" \t")
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(raw) - len(stripped)
        if indent > stack[-1]:
            stack.append(indent)
        else:
            while indent < stack[-1]:
                stack.pop()
            if indent != stack[-1]:
                return n
    return 1


def _blank_item(text: str, line: int) -> str:
    """Replace the top-level item holding `line` by blank lines (keeps line numbers)."""
    lines = text.split("\n")
    idx = min(max(line - 1, 0), len(lines) - 1)
    start = idx
    while start > 0 and not (lines[start][:1].strip() and not lines[start].startswith("#")):
        start -= 1
    end = idx + 1
    while end < len(lines) and not (lines[end][:1].strip() and not lines[end].startswith("#")):
        end += 1
    for i in range(start, end):
        lines[i] = ""
    return "\n".join(lines)


def parse_text(text: str, path: str = "<text>") -> tuple[S.RuleFile | None, list[Diagnostic]]:
    """Parse rule-file text; returns the tree (None if any syntax error) and diagnostics."""
    diagnostics: list[Diagnostic] = []
    work = text.replace("\r\n", "\n")
    if not work.endswith("\n"):
        work += "\n"
    for _ in range(MAX_SYNTAX_ERRORS):
        try:
            tree = _lark().parse(work)
        except DedentError as err:
            line = _dedent_error_line(work)
            err.line = line
            diagnostics.append(_syntax_diagnostic(path, text, err))
        except (UnexpectedInput, LarkError) as err:
            diagnostics.append(_syntax_diagnostic(path, text, err))
            line = getattr(err, "line", 0) or 0
        else:
            if diagnostics:
                return None, diagnostics
            token = _FILE.set(path)
            try:
                decls = _Build().transform(tree)
            except LarkError as err:  # a transformer error wraps ours
                orig = getattr(err, "orig_exc", err)
                if isinstance(orig, _TableError):
                    return None, [Diagnostic("error", path, orig.span, orig.message)]
                raise
            finally:
                _FILE.reset(token)
            return S.RuleFile(path, text, tuple(decls)), diagnostics
        line = diagnostics[-1].span.line
        new = _blank_item(work, line)
        if new == work:
            break
        work = new
    return None, diagnostics


def read_source(path: str) -> str:
    """Read a rule file, turning every way it can be unreadable into a diagnostic."""
    def fail(message, hint=None):
        raise RuleFileError([Diagnostic("error", path, S.Span(1, 1, 1, 1), message, hint)])
    if not os.path.exists(path):
        fail("no such file", "check the path; rule files usually live in games/ or variants/")
    if os.path.isdir(path):
        fail("this is a folder, not a rule file")
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        fail(f"cannot read the file: {e.strerror}")
    if b"\x00" in data:
        fail("this is a binary file, not a rule file", "rule files are UTF-8 text")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        fail(f"the file is not UTF-8 text (bad byte at offset {e.start})", "save the file as UTF-8")
    if not text.strip():
        fail("the file is empty", "a rule file starts with 'game NAME' or 'variant NAME'")
    return text


def parse_file(path: str) -> S.RuleFile:
    text = read_source(path)
    tree, diagnostics = parse_text(text, path)
    if tree is None:
        raise RuleFileError(diagnostics, text)
    return tree
