"""Helpers the grammar rules' builders share: spans from Lark's positions, quoted text,
designer text lines, and block bodies.

May import: the syntax base classes only (a leaf, so constructs can use it).
"""
from __future__ import annotations

from contextvars import ContextVar

from lark import Token

from .syntax import NOWHERE, Span, Text

# The file being built, so that every span knows where it came from (variants mix files).
FILE: ContextVar[str] = ContextVar("file", default="")


def span(meta) -> Span:
    if getattr(meta, "empty", True):
        return NOWHERE
    return Span(meta.line, meta.column, meta.end_line, meta.end_column, FILE.get())


def tok_span(tok: Token) -> Span:
    return Span(tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + len(tok), FILE.get())


def unquote(s: str) -> str:
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


def is_texts(item) -> bool:
    return isinstance(item, tuple) and bool(item) and isinstance(item[0], Text)


def texts(items) -> tuple[Text, ...]:
    out = []
    for it in items:
        if is_texts(it):
            out.extend(it)
    return tuple(out)


def not_texts(items):
    return [it for it in items if not is_texts(it)]


def body_of(block):
    """A block's designer text and its statements."""
    return texts(block), tuple(not_texts(block))


class TableError(Exception):
    """A card table whose rows do not fit its header (the parser turns it into a diagnostic)."""

    def __init__(self, span, message):
        super().__init__(message)
        self.span = span
        self.message = message
