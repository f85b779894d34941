"""`replace`, `add`, `remove` and `change cards`: one change an overlay makes.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..language import syntax as S
from ..language.building import TableError, body_of, span
from ..language.syntax import Decl
from .registry import Absent, register


@dataclass(frozen=True)
class Patch(Decl):
    keyword = "patch"
    """One change an overlay makes. `name` is what it patches; `kind` says what that is.

    op: 'replace' | 'add' | 'remove' | 'change cards' | 'replace inside'
    kind: the kind of declaration ('rule', 'parameter', ...), or 'step' / 'phase'
    item: the new declaration (replace/add), or the new Block for a step or phase; for
      'replace inside' (one statement of a step, phase or rule): (the statement, what replaces it)
    anchor: for a step or phase added 'before'/'after' another: (position, name)
    match/assign: for 'change cards': attribute values to match, then to set
    """
    op: str
    kind: str
    item: Optional[object] = None
    anchor: Optional[tuple[str, str]] = None
    match: tuple[tuple[str, object], ...] = ()
    assign: tuple[tuple[str, object], ...] = ()


# ---------------------------------------------------------------- grammar
def _whole_part(meta, op, item):
    """The grammar's `item` includes patches, so `add add ...` parses; it names no part to add."""
    if isinstance(item, Patch):
        raise TableError(span(meta), f"'{op} {item.op}': a patch cannot {op} another patch")
    return item


def _replace_item(meta, c):
    item = _whole_part(meta, "replace", c[0])
    return Patch(item.name, (), span(meta), "replace", S.kind_of(item), item)


def _replace_block(meta, c):
    return Patch(c[0].name, (), span(meta), "replace", c[0].kind, c[0])


def _add_item(meta, c):
    item = _whole_part(meta, "add", c[0])
    return Patch(item.name, (), span(meta), "add", S.kind_of(item), item)


def _add_block(meta, c):
    kind, name, anchor, other, block = c
    texts, body = body_of(block)
    new = S.Block(span(meta), kind, str(name), texts, body)
    return Patch(str(name), (), span(meta), "add", kind, new, (anchor, str(other)))


def _replace_inside(meta, c):
    scope, name, old, new = c
    scope = str(scope.children[0])         # the keyword: step, phase or rule
    if not isinstance(old, S.Stmt):
        raise TableError(span(meta), f"'replace in {scope} {name}' names a statement of the {scope}, not designer text")
    return Patch(str(name), (), span(meta), "replace inside", scope, (old, body_of(new)[1]))


def _remove_item(meta, c):
    return Patch(str(c[1]), (), span(meta), "remove", c[0])


def _card_match(meta, c):
    return (str(c[0]), c[1])


def _card_where(meta, c):
    return tuple(c)


def _change_cards(meta, c):
    return Patch(str(c[0]), (), span(meta), "change cards", "deck", None, None, c[1], c[2])


GRAMMAR = {"replace_item": _replace_item, "replace_block": _replace_block, "add_item": _add_item, "add_block": _add_block, "remove_item": _remove_item, "replace_inside": _replace_inside, "card_match": _card_match, "card_where": _card_where, "change_cards": _change_cards, "card_set": _card_where}


# ---------------------------------------------------------------- checks
def check(ck, d):
    """The overlay applies a variant's patches before the game is checked: one the checker
    meets stands in a game or a file of strategies (or in a game behind a syntax error)."""
    ck.error(d.span, f"'{d.op}' belongs in a variant file, not in a game or a file of strategies",
             "move it to a file in variants/ that starts with 'variant NAME of GAME'")


register(Patch, "declaration", grammar=GRAMMAR, check=check, read=Absent("a patch is printed as the part it changes"))
