"""Names as they stand in the source text, and the conversions between spans and LSP positions.

The syntax tree gives each node a span but not where, inside it, a name it mentions is
written (`do lose(p, 1)`, `zone hand is hand, per player`): `name_at` finds the first
occurrence of the name as a word at or after a point, outside strings and comments.

Spans are 1-based (line and column, end exclusive); LSP positions are 0-based. Columns
count characters, which equals LSP's UTF-16 units for every character outside the astral
planes (Japanese included).

Imports: dsl.language.syntax only.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache

from ..language import syntax as S

_TOKEN = re.compile(r'"(?:\\.|[^"\\\n])*"?|#[^\n]*|(?!\d)\w+|\d+|\n')
NAME = re.compile(r"(?!\d)\w+\Z")


@lru_cache(maxsize=64)
def words(text: str) -> tuple[tuple[tuple[int, int, str], ...], ...]:
    """Per line (0-based), the words outside strings and comments: (start, end, word), 0-based columns."""
    lines: list[list] = [[]]
    for m in _TOKEN.finditer(text):
        tok = m.group()
        if tok == "\n":
            lines.append([])
        elif tok[0] not in '"#' and not tok[0].isdigit():
            start = m.start() - (text.rfind("\n", 0, m.start()) + 1)
            lines[-1].append((start, start + len(tok), tok))
    return tuple(tuple(ws) for ws in lines)


def name_at(text: str, name: str, line: int, column: int, last_line: int | None = None):
    """The first `name` written at or after 1-based (line, column), up to last_line: a 0-based (line, start, end)."""
    ws = words(text)
    last = min(len(ws), last_line if last_line else len(ws))
    for n in range(max(line, 1) - 1, last):
        for start, end, w in ws[n]:
            if w == name and (n > line - 1 or start >= column - 1):
                return n, start, end
    return None


def word_at(text: str, line0: int, char: int):
    """The word under a 0-based position (touching it on either side counts): (start, end, word) or None."""
    ws = words(text)
    if not 0 <= line0 < len(ws):
        return None
    row = ws[line0]
    i = bisect_left(row, (char + 1,)) - 1
    for cand in row[max(i, 0):i + 2]:
        if cand[0] <= char <= cand[1]:
            return cand
    return None


def span_contains(span: S.Span, line0: int, char: int) -> bool:
    """Whether a 1-based span holds a 0-based position."""
    if not span.line:
        return False
    pos = (line0 + 1, char + 1)
    return (span.line, span.column) <= pos <= (span.end_line, span.end_column)


def span_size(span: S.Span) -> tuple[int, int]:
    return (span.end_line - span.line, span.end_column - span.column)
