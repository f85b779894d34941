"""Rule file text -> syntax tree, using the Lark grammar in grammars/rules.lark.

Syntax errors become diagnostics with positions. After an error the parser blanks out
the top-level item that holds it and tries again, so one run reports every broken item.
"""
from __future__ import annotations

import os
import re
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter

from . import limits
from . import syntax as S
from .building import FILE, TableError, texts, unquote
from .diagnostics import Diagnostic, RuleFileError

GRAMMAR = Path(__file__).resolve().parent.parent.parent / "grammars" / "rules.lark"
MAX_SYNTAX_ERRORS = 20
_WORD = re.compile(r"\w+")
_QUOTED = re.compile(r"'(\w+)'")


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
                propagate_positions=True, maybe_placeholders=True, cache=True)




@v_args(meta=True)
class _Tokens(Transformer):
    """The grammar rules no construct owns: tokens, designer text, card values, blocks."""

    # ------------------------------------------------------------ tokens and text
    def NAME(self, tok):
        return tok

    def text_kind(self, meta, c):
        return str(c[0])

    lang = text_kind
    direction = text_kind
    seer = text_kind
    adjacency = text_kind
    gravity = text_kind
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
        return (c[0], unquote(c[1]))

    def text_line(self, meta, c):
        kind = c[0]
        return tuple(S.Text(kind, lang, text) for lang, text in c[1:])

    def decl_tail(self, meta, c):
        return texts(c)

    # ------------------------------------------------------------ values
    def int_value(self, meta, c):
        return int(c[0])

    def neg_int_value(self, meta, c):
        return -int(c[0])

    def no_value(self, meta, c):
        return "-"

    def str_value(self, meta, c):
        return unquote(c[0])

    def sym_value(self, meta, c):
        return str(c[0])

    # ------------------------------------------------------------ blocks and overlays
    def block(self, meta, c):
        return tuple(c)

    block_kind = text_kind
    anchor = text_kind
    removable = text_kind

    def start(self, meta, c):
        return tuple(c)


def _builder(build):
    return lambda self, meta, c: build(meta, c)


@lru_cache(maxsize=1)
def _transformer() -> Transformer:
    """The tree builder: the rules above plus every construct's own grammar rules."""
    from ..constructs.registry import grammar_rules
    methods = {rule: _builder(build) for rule, build in grammar_rules().items()}
    return v_args(meta=True)(type("_Build", (_Tokens,), methods))()


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


def _mistaken_for(text: str, tok, line: int, col: int) -> str | None:
    """What a newcomer meant, for the mistakes the grammar's own list of expected words
    explains badly (it lists what could come next, not what was meant)."""
    lines = text.splitlines()
    here = lines[line - 1] if 0 < line <= len(lines) else ""
    before = here[:max(col - 1, 0)].rstrip()
    value = str(tok.value)
    if value == "=" and before.endswith("="):
        return "`=` compares (there is no `==`); `set X to V` assigns"
    if before.endswith("repeat") or before.endswith("repeat forever"):
        return "repeat until CONDITION, repeat while CONDITION, or repeat N times"
    if tok.type == "_NL" and before.endswith((" or", " and", "+", "-", "*", ",", "(")):
        return "a statement is one line: put a long condition in a `value` and use its name"
    if tok.type not in ("_NL", "_INDENT", "_DEDENT", "$END") and not before and line > 1:
        prev = next((x for x in reversed(lines[:line - 1]) if x.strip()), "").rstrip()
        if prev.endswith((" or", " and", "+", "-", "*", ",", "(")):
            return "a statement is one line: put a long condition in a `value` and use its name"
    return None


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
        hint = _mistaken_for(text, tok, line, col) or _describe_expected(err.accepts or err.expected)
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


def _pass_line(text: str, line: int) -> str | None:
    """Replace one statement line that opens no block by `pass` (keeps the block around it),
    so the parse goes on to the next mistake in the same declaration; None where it cannot."""
    lines = text.split("\n")
    idx = line - 1
    if not 0 <= idx < len(lines):
        return None
    raw = lines[idx]
    indent = len(raw) - len(raw.lstrip(" "))
    if indent == 0 or not raw.strip() or raw.strip() == "pass":
        return None
    nxt = next((x for x in lines[idx + 1:] if x.strip() and not x.lstrip().startswith("#")), "")
    if len(nxt) - len(nxt.lstrip(" ")) > indent:
        return None         # it opens a block: its children would stand alone
    lines[idx] = " " * indent + "pass"
    return "\n".join(lines)


def parse_text(text: str, path: str = "<text>") -> tuple[S.RuleFile | None, list[Diagnostic]]:
    """Parse rule-file text; returns the tree (None if any syntax error) and diagnostics.

    After a mistake the parse goes on: the statement line is replaced by `pass` when that
    keeps the file whole (a second mistake in the same block is found too), else the whole
    declaration is blanked; line numbers never move."""
    tree, diagnostics, _ = _parse(text, path)
    return tree, diagnostics


def _parse(text: str, path: str):
    """parse_text, and the text as mended to parse after its mistakes (None if it never did)."""
    if len(text) > limits.MAX_FILE_CHARS:
        return None, [Diagnostic("error", path, S.Span(1, 1, 1, 1),
                                 f"the file is too long ({len(text):,} characters; at most {limits.MAX_FILE_CHARS:,})",
                                 "a rule file is one game; split long texts or leave data out")], None
    work = text.replace("\r\n", "\n")
    if not work.endswith("\n"):
        work += "\n"
    try:
        tree = _lark().parse(work)
    except (UnexpectedInput, LarkError):
        diagnostics, work = _mend(work, path)
        try:
            tree = _lark().parse(work)
        except (UnexpectedInput, LarkError):
            return None, diagnostics, None
        past = _past_limits(tree, path)
        return None, diagnostics + past, None if past else work
    past = _past_limits(tree, path)
    if past:
        return None, past, None
    token = FILE.set(path)
    try:
        decls = _transformer().transform(tree)
    except LarkError as err:  # a transformer error wraps ours
        orig = getattr(err, "orig_exc", err)
        if isinstance(orig, TableError):
            return None, [Diagnostic("error", path, orig.span, orig.message)], None
        raise
    finally:
        FILE.reset(token)
    return S.RuleFile(path, text, tuple(decls)), [], None


def _mend(work: str, path: str) -> tuple[list[Diagnostic], str]:
    """The syntax errors of a file that does not parse, and the file mended so that it does.
    Each top-level item (a declaration, from one line at the margin to the next) is parsed
    on its own, so that each is read about once whatever the number of mistakes; an item
    with mistakes is mended line by line (_mend_item). Past MAX_SYNTAX_ERRORS, a broken
    item is blanked without a word."""
    lines = work[:-1].split("\n")         # it ends with a line break
    starts = [0] + [i for i, line in enumerate(lines) if i and line[:1].strip() and not line.startswith("#")]
    diagnostics: list[Diagnostic] = []
    out = []
    for start, end in zip(starts, starts[1:] + [len(lines)]):
        item = "\n".join(lines[start:end]) + "\n"
        if len(diagnostics) < MAX_SYNTAX_ERRORS:
            found, item = _mend_item(item, path, MAX_SYNTAX_ERRORS - len(diagnostics))
            diagnostics += [replace(d, span=replace(d.span, line=d.span.line + start, end_line=d.span.end_line + start))
                            for d in found]
        elif not _parses(item):
            item = "\n" * (end - start)
        out.append(item[:-1])
    return diagnostics, "\n".join(out) + "\n"


def _parses(text: str) -> bool:
    try:
        _lark().parse(text)
    except (UnexpectedInput, LarkError):
        return False
    return True


def _mend_item(work: str, path: str, budget: int) -> tuple[list[Diagnostic], str]:
    """The syntax errors of one item, at most `budget`, and the item mended: after a mistake
    the statement line is replaced by `pass` when that keeps the item whole (a second mistake
    in the same block is found too), else the item is blanked; line numbers never move."""
    text = work
    diagnostics: list[Diagnostic] = []
    passed: dict[int, str] = {}     # line replaced by `pass` -> the text before that
    for _ in range(budget):
        try:
            _lark().parse(work)
        except DedentError as err:
            err.line = _dedent_error_line(work)
            diagnostics.append(_syntax_diagnostic(path, text, err))
        except (UnexpectedInput, LarkError) as err:
            diagnostics.append(_syntax_diagnostic(path, text, err))
        else:
            return diagnostics, work
        line = diagnostics[-1].span.line
        if line in passed:
            # `pass` does not fit there (a declaration's own line): take that back, blank the item
            diagnostics.pop()
            work = passed.pop(line)
            new = _blank_item(work, line)
        else:
            new = _pass_line(work, line)
            if new is not None:
                passed[line] = work
            else:
                new = _blank_item(work, line)
        if new == work:
            break
        work = new
    return diagnostics, work if _parses(work) else "\n" * work.count("\n")


_CHAINS = ("or_expr", "and_expr", "sum", "term")


def _past_limits(tree, path: str) -> list[Diagnostic]:
    """What no construct may hold: too deep a tree (the passes recurse over it), too big a
    number or too long a text. Walked without recursion, before anything else recurses."""
    out, deep = [], None
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Tree):
            if depth > limits.MAX_DEPTH:
                if deep is None:
                    deep = node
                continue
            # a chain `a + b + c` is one node here but nests once per operand once built
            step = 1 if node.data not in _CHAINS else sum(1 for c in node.children if not isinstance(c, Token)
                                                          or c.type not in ("ADD_OP", "MUL_OP"))
            stack.extend((c, depth + step) for c in node.children)
        elif isinstance(node, Token):
            at = S.Span(node.line, node.column, node.end_line or node.line, node.end_column or node.column)
            if node.type == "INT" and (len(node) > 7 or int(node) > limits.MAX_NUMBER):
                shown = node if len(node) <= 20 else f"{node[:8]}...({len(node):,} digits)"
                out.append(Diagnostic("error", path, at, f"the number {shown} is too large (at most {limits.MAX_NUMBER:,})",
                                      "no game needs more; a number this size is usually a typing slip"))
            elif node.type == "STRING" and len(node) - 2 > limits.MAX_TEXT_CHARS:
                out.append(Diagnostic("error", path, at, f"this text is too long ({len(node) - 2:,} characters; "
                                      f"at most {limits.MAX_TEXT_CHARS:,})", "shorten it, or split it over several text lines"))
    if deep is not None:
        meta = deep.meta
        at = S.Span(getattr(meta, "line", 1), getattr(meta, "column", 1), getattr(meta, "line", 1), getattr(meta, "column", 1))
        out.append(Diagnostic("error", path, at, f"this is nested too deeply (more than {limits.MAX_DEPTH} levels)",
                              "give the inner part a name (a value or a rule) and use the name; "
                              "a long sum can be split into named parts"))
    return sorted(out, key=lambda d: (d.span.line, d.span.column))


def read_source(path: str) -> str:
    """Read a rule file, turning every way it can be unreadable into a diagnostic."""
    def fail(message, hint=None):
        raise RuleFileError([Diagnostic("error", path, S.Span(1, 1, 1, 1), message, hint)])
    if not os.path.exists(path):
        fail("no such file", "check the path; rule files usually live in games/ or variants/")
    if os.path.isdir(path):
        fail("this is a folder, not a rule file")
    from ..io_guard import Refused, read_bytes
    try:
        # UTF-8 takes at most 4 bytes a character (and 3 for a byte-order mark): past that, the
        # file cannot be within the character limit, and nothing more is read
        data = read_bytes(path, 4 * limits.MAX_FILE_CHARS + 3, "rule file")
    except Refused as e:
        fail(e.strerror)
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
    from . import tree_cache
    text = read_source(path)
    tree = tree_cache.get(path, text)
    if tree is not None:
        return tree
    tree, diagnostics, mended = _parse(text, path)
    if tree is None:
        more = _errors_behind(text, mended, path) if mended is not None else []
        raise RuleFileError(sorted(diagnostics + more, key=lambda d: (d.span.line, d.span.column)), text)
    tree_cache.put(path, text, tree)
    return tree


def _a_game(tree: S.RuleFile) -> bool:
    """Whether a mended file reads as a game's own: a variant or a file of strategies is checked
    joined to its game once it parses, and patches without a game are a variant whose head is lost."""
    if tree.of(S.Variant) or tree.of(S.StrategiesFor):
        return False
    return bool(tree.of(S.Game)) or not tree.of(S.Patch)


def _errors_behind(text: str, mended: str, path: str) -> list[Diagnostic]:
    """The checker's errors in the rest of a file with syntax errors, so that one mistake does
    not hide the others: the file is checked as mended to parse (each broken line made
    `pass`, or its declaration blanked), and an error that could come of the mending (one
    naming a word of a mended line: its declaration is gone) is left out, as are warnings."""
    from .checker import check
    tree, _, _ = _parse(mended, path)
    if tree is None or not _a_game(tree):
        return []
    mended_lines = mended.split("\n")
    lost_lines, lost_words = set(), set()
    for n, line in enumerate(text.replace("\r\n", "\n").split("\n")):
        if n >= len(mended_lines) or mended_lines[n] != line:
            lost_lines.add(n + 1)
            lost_words.update(_WORD.findall(line))
    return [d for d in check(replace(tree, source=text)) if d.severity == "error" and d.span.line not in lost_lines
            and not any(name in lost_words for name in _QUOTED.findall(d.message))]
