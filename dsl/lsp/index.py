"""A name index over the files that make up one game: where each name is declared and used.

Built from parsed files (a game, the variants stacked on it, the document being edited);
each mention is placed on the exact word in its file's text. Answers: what name is under
a position, where it is declared, every place it is written.

Imports: dsl.language.syntax and this package's walk and tokens.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language import syntax as S
from .tokens import name_at, span_contains, span_size, word_at
from .walk import mentions


@dataclass(frozen=True)
class Loc:
    path: str
    line: int                   # 0-based
    start: int
    end: int
    kind: str
    node: object = None


class Index:
    def __init__(self, files: list[S.RuleFile]):
        self.files = {f.path: f for f in files}
        self.defs: dict[str, list[Loc]] = {}
        self.refs: dict[str, list[Loc]] = {}
        self.nodes: dict[str, list[tuple[S.Span, object]]] = {}
        self._at: dict[tuple[str, int, int], tuple[str, str]] = {}
        for f in files:
            nodes = self.nodes.setdefault(f.path, [])
            for m in mentions(f.decls):
                if m.role == "node":
                    nodes.append((m.span, m.node))
                    continue
                if (m.span.file or f.path) != f.path:
                    continue
                where = name_at(f.source, m.name, m.span.line, m.span.column, m.span.end_line)
                if where is None:
                    continue
                loc = Loc(f.path, where[0], where[1], where[2], m.kind, m.node)
                table = self.defs if m.role == "def" else self.refs
                if loc not in table.setdefault(m.name, []):
                    table[m.name].append(loc)
                self._at.setdefault((f.path, where[0], where[1]), (m.name, m.role))

    def name_at(self, path: str, line0: int, char: int) -> str | None:
        """The declared-or-used name written under a position, if the index knows it there."""
        f = self.files.get(path)
        if f is None:
            return None
        w = word_at(f.source, line0, char)
        if w is None:
            return None
        hit = self._at.get((path, line0, w[0]))
        return hit[0] if hit else None

    def declarations(self, name: str) -> list[Loc]:
        return self.defs.get(name, [])

    def occurrences(self, name: str) -> list[Loc]:
        """Declarations and uses, each place once, in file order."""
        seen, out = set(), []
        for loc in self.defs.get(name, []) + self.refs.get(name, []):
            key = (loc.path, loc.line, loc.start)
            if key not in seen:
                seen.add(key)
                out.append(loc)
        return sorted(out, key=lambda l: (l.path, l.line, l.start))

    def innermost(self, path: str, line0: int, char: int):
        """The smallest statement or expression holding a position, or None."""
        best = None
        for span, node in self.nodes.get(path, ()):
            if (span.file or path) == path and span_contains(span, line0, char):
                if best is None or span_size(span) <= span_size(best[0]):
                    best = (span, node)
        return best[1] if best else None
