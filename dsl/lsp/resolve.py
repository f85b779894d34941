"""A document as `check` sees it: parsed, resolved against its base game and the variants it
builds on, checked; with the diagnostics that belong to it and a name index over every file.

Files come from the editor when open there, from disk otherwise. Parsing goes through one
ChunkParser, so an unchanged item (in any file) is never parsed twice.

Imports: dsl.language, dsl.variants.overlay, and this package's chunks and index.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import Callable, Optional

from ..language import syntax as S
from ..language.checker import check
from ..language.diagnostics import Diagnostic, RuleFileError
from ..language.parser import read_source
from ..variants import overlay
from .chunks import ChunkParser
from .index import Index


@dataclass
class Analysis:
    path: str
    text: str
    tree: S.RuleFile                    # every item that parses (all of them when `parsed`)
    parsed: bool
    diagnostics: list[Diagnostic]       # the ones in this document, as `check` reports them
    merged: Optional[S.RuleFile] = None  # the game with the variants applied, when it checks
    files: list[S.RuleFile] = field(default_factory=list)  # base game, variants below, this one
    _index: Optional[Index] = None

    @property
    def index(self) -> Index:
        if self._index is None:
            self._index = Index(self.files)
        return self._index

    @property
    def rules(self) -> S.RuleFile:
        """The best rule set to read names against: the merged game, else what parses here."""
        return self.merged or self.tree

    @property
    def is_variant(self) -> bool:
        return overlay.head(self.tree) is not None


class Workspace:
    """Parsed files and the game each variant patches; `open_text(path)` gives an editor's text."""

    def __init__(self, open_text: Callable[[str], Optional[str]] = lambda p: None):
        self.open_text = open_text
        self.parser = ChunkParser()
        self._bases: dict[tuple[str, str], str] = {}

    def parse(self, path: str):
        """(tree, syntax diagnostics, parsed) of a file, or a RuleFileError if it cannot be read."""
        text = self.open_text(path)
        if text is None:
            text = read_source(path)
        return self.parser.parse(text, path)

    def analyse(self, path: str, text: str) -> Analysis:
        tree, syntax, parsed = self.parser.parse(text, path)
        a = Analysis(path, text, tree, parsed, list(syntax), files=[tree])
        if not parsed:
            a.files = self._with_base(a)
            return a
        try:
            a.merged, diags = self._check(a)
        except RuleFileError as e:
            diags = e.diagnostics
        a.diagnostics = self._mine(a, diags)
        return a

    # ------------------------------------------------------------ resolving and checking
    def _check(self, a: Analysis):
        head = overlay.head(a.tree)
        if head is None and a.tree.of(S.StrategiesFor):
            # a file of strategies is checked with the game it names, as `playtest check` does
            from ..variants.strategies import game_path, joined
            named = a.tree.of(S.StrategiesFor)[0]
            base = self._parsed(game_path(a.tree), f"the game '{named.game}' of these strategies", a.path, named.span)
            a.files = [base, a.tree]
            merged = joined(overlay.apply(base, []), a.tree)
            return merged, check(merged)
        if head is None:
            merged = overlay.apply(a.tree, [])
            return merged, check(merged)
        base_path = self._base(a.tree, head)
        base = self._parsed(base_path, f"the game '{head.game}' this variant patches", a.path, head.span)
        stack = self._stack(a, head)
        a.files = [base] + stack
        merged = overlay.apply(base, stack)
        return merged, check(merged)

    def _with_base(self, a: Analysis) -> list[S.RuleFile]:
        """A half-typed variant still navigates into its game: the game, then what parses here."""
        head = overlay.head(a.tree)
        if head is None:
            return [a.tree]
        try:
            return [self._parsed(self._base(a.tree, head), "", a.path, head.span), a.tree]
        except RuleFileError:
            return [a.tree]

    def _base(self, tree: S.RuleFile, head: S.Variant) -> str:
        key = (head.game, os.path.dirname(tree.path))
        if key not in self._bases or not os.path.isfile(self._bases[key]):
            self._bases[key] = overlay.find_base(tree)
        return self._bases[key]

    def _parsed(self, path: str, what: str, near: str, span: S.Span) -> S.RuleFile:
        tree, _, parsed = self.parse(path)
        if not parsed:
            raise RuleFileError([Diagnostic("error", near, span, f"{what} ({_short(path, near)}) has syntax errors",
                                            "fix them there first")])
        return tree

    def _stack(self, a: Analysis, head: S.Variant) -> list[S.RuleFile]:
        """The variants this one builds on (each before what builds on it), then this one."""
        folder = os.path.dirname(a.path)
        by_name: dict[str, str] = {}
        for path, _, h in self._variants(folder):
            if path != a.path:
                by_name.setdefault(h.name, path)
        out: list[S.RuleFile] = []
        done: set[str] = {head.name}

        def visit(h: S.Variant, chain: tuple):
            for dep in h.builds_on:
                if dep in chain:
                    raise RuleFileError([Diagnostic("error", a.path, head.span, "variants build on each other in a circle: "
                                                    + " -> ".join(chain + (dep,)))])
                if dep in done:
                    continue
                if dep not in by_name:
                    raise RuleFileError([Diagnostic("error", a.path, head.span, f"it builds on variant '{dep}', "
                                                    f"which is in no file in {os.path.basename(folder)}/",
                                                    "put that variant's file in the same folder")])
                tree = self._parsed(by_name[dep], f"variant '{dep}'", a.path, head.span)
                visit(overlay.head(tree), chain + (dep,))
                done.add(dep)
                out.append(tree)

        visit(head, (head.name,))
        return out + [a.tree]

    def family(self, a: Analysis) -> Index:
        """An index over the game and every variant of it beside it (for references and rename)."""
        game = a.files[0]
        name = game.game.name if game.game else None
        here = os.path.normpath(os.path.abspath(a.path))
        folders = {os.path.dirname(here), os.path.normpath(os.path.join(os.path.dirname(game.path), "..", "variants"))}
        files = list(a.files) if a.is_variant else [a.tree]
        known = {os.path.normpath(os.path.abspath(f.path)) for f in files}
        for folder in sorted(folders):
            for path, tree, h in self._variants(folder):
                if path not in known and h.game == name:
                    known.add(path)
                    files.append(tree)
        return Index(files)

    def _variants(self, folder: str):
        """(path, tree, head) of every variant file in a folder that parses."""
        for f in overlay.variant_files(folder):
            path = os.path.normpath(os.path.abspath(f))
            try:
                tree, _, parsed = self.parse(path)
            except RuleFileError:
                continue
            h = overlay.head(tree)
            if parsed and h is not None:
                yield path, tree, h

    def _mine(self, a: Analysis, diags: list[Diagnostic]) -> list[Diagnostic]:
        """This document's diagnostics; an error in another file shows on the variant line."""
        head = overlay.head(a.tree)
        out = []
        for d in diags:
            where = d.span.file or d.path
            if where == a.path or (head is None and where in ("", a.path)):
                out.append(replace(d, path=a.path))
            elif d.severity == "error" and head is not None:
                line = f"{_short(where, a.path)}:{d.span.line}: " if d.span.line else f"{_short(where, a.path)}: "
                out.append(Diagnostic("error", a.path, head.span, line + d.message, d.hint))
        return out


def _short(path: str, near: str) -> str:
    """A path as the user knows it: from the folder above the document's folder."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(near)))
    rel = os.path.relpath(os.path.abspath(path), root)
    return rel if not rel.startswith("..") else path
