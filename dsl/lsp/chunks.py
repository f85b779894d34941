"""Incremental parsing: a rule file split into its top-level items, each parsed once per text.

A top-level item starts at a line whose first character is neither a space nor '#', and the
grammar parses items independently, so an edit re-parses only the item it touches. Each
item is parsed on its own (line 1) and its spans moved to where it sits, so inserting a
line above an item costs a walk over its tree, not a parse.

Imports: dsl.language only.
"""
from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import fields, is_dataclass

from ..language import syntax as S
from ..language.diagnostics import Diagnostic
from ..language.limits import MAX_FILE_CHARS
from ..language.parser import parse_text


def split(text: str) -> list[tuple[int, str]]:
    """(first line, text) of every top-level item; comments and blank lines stay with the item above.

    Inside brackets line breaks do not count (as in the grammar's indenter), so a line
    there never starts an item, whatever its indentation.
    """
    lines = text.replace("\r\n", "\n").split("\n")
    starts, depth = [], 0
    for i, ln in enumerate(lines):
        if depth == 0 and ln[:1] and ln[:1] not in " \t#":
            starts.append(i)
        depth = _brackets(ln, depth)
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    bounds = starts + [len(lines)]
    # an item keeps the newline before the next one, so its span ends where the whole file's would
    return [(a + 1, "\n".join(lines[a:b]) + ("\n" if b < len(lines) else ""))
            for a, b in zip(bounds, bounds[1:])]


_BRACKETS = re.compile(r'"(?:\\.|[^"\\])*"?|#.*|[\[\]()]')


def _brackets(line: str, depth: int) -> int:
    """The bracket depth after a line (strings and comments skipped; never below 0)."""
    for m in _BRACKETS.finditer(line):
        tok = m.group()
        if tok in "([":
            depth += 1
        elif tok in ")]":
            depth = max(depth - 1, 0)
    return depth


def shift(x, k: int):
    """x with every span moved down k lines (syntax nodes and diagnostics are frozen)."""
    if k == 0:
        return x
    if isinstance(x, S.Span):
        return S.Span(x.line + k, x.column, x.end_line + k, x.end_column, x.file) if x.line else x
    if isinstance(x, tuple):
        return tuple(shift(i, k) for i in x)
    if is_dataclass(x) and not isinstance(x, type):
        return type(x)(**{f.name: shift(getattr(x, f.name), k) for f in fields(x)})
    return x


class ChunkParser:
    """Parses whole files item by item, keeping each item's result (at line 1) by its text."""

    def __init__(self, size: int = 4000):
        self._cache: OrderedDict = OrderedDict()
        self._size = size

    def _get(self, key, make):
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = make()
            if len(self._cache) > self._size:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        return hit

    def _parsed(self, path: str, text: str):
        rules, diags = parse_text(text, path)
        return rules.decls if rules is not None else None, tuple(diags)

    def _item(self, path: str, text: str, line: int):
        """The item's declarations (None on a syntax error) and diagnostics, placed at `line`."""
        def placed():
            decls, diags = self._get((path, text, 1), lambda: self._parsed(path, text))
            return shift(decls, line - 1), shift(diags, line - 1)
        return self._get((path, text, line), placed)

    def parse(self, text: str, path: str) -> tuple[S.RuleFile, list[Diagnostic], bool]:
        """The file's tree from the items that parse, every syntax diagnostic, and whether all parsed."""
        if len(text) > MAX_FILE_CHARS:
            # item by item, the whole file's bound would never be met: refuse here as `check` does,
            # with its diagnostic at 1:1, and analyse nothing of the text
            return S.RuleFile(path, text, ()), parse_text(text, path)[1], False
        decls: list = []
        diags: list[Diagnostic] = []
        ok = True
        for line, chunk in split(text):
            if not chunk.strip():
                continue
            got, errs = self._item(path, chunk, line)
            diags.extend(errs)
            if got is None:
                ok = False
            else:
                decls.extend(got)
        return S.RuleFile(path, text, tuple(decls)), diags, ok
