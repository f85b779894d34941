"""Variant overlays: small files that patch named parts of a game, applied in order.

A variant file starts with `variant NAME of GAME` and then lists patches: replace, add or
remove a declaration, a step or a phase, or change values in a card table. Overlays stack
in the order given; a variant's `builds on` names are loaded first from its own folder.
Two variants that touch the same named part conflict, unless the later builds on the
earlier (directly or through others).
"""
from __future__ import annotations

import glob
import os
from dataclasses import dataclass, field, replace
from typing import Optional

from ..language import syntax as S
from ..language.diagnostics import Diagnostic, RuleFileError, did_you_mean
from ..language.parser import parse_file

# Kinds that share one namespace: a patch of `variable x` finds `counter x`.
_FAMILY = {"variable": "counter", "dice": "component", "deck": "component", "token": "component",
           "step": "block", "phase": "block"}


def family(kind: str) -> str:
    return _FAMILY.get(kind, kind)


def head(rules: S.RuleFile) -> Optional[S.Variant]:
    found = rules.of(S.Variant)
    return found[0] if found else None


def patches(rules: S.RuleFile) -> list[S.Patch]:
    return rules.of(S.Patch)


def _error(path, span, message, hint=None) -> Diagnostic:
    return Diagnostic("error", path, span, message, hint)


def read(path: str) -> S.RuleFile:
    """Parse a file that must be a variant."""
    rules = parse_file(path)
    if head(rules) is None:
        span = rules.decls[0].span if rules.decls else S.Span(1, 1, 1, 1)
        raise RuleFileError([_error(path, span, "this is not a variant file",
                                    "a variant file starts with 'variant NAME of GAME'; "
                                    "pass games with FILE and variants with --variant")], rules.source)
    return rules


def variant_files(folder: str) -> list[str]:
    return sorted(glob.glob(os.path.join(folder, "*.rules")))


def other_variants(rules: S.RuleFile, folder: str):
    """(path, parsed variant) of each variant of this game in `folder` that loads and that
    `rules` does not already apply: what a book or the table may offer beside it. One that does
    not parse is left out (`playtest check` reports it)."""
    applied = {os.path.abspath(vr.path) for vr in rules.variants}
    for path in variant_files(folder):
        if os.path.abspath(path) in applied:
            continue
        try:
            vr = parse_file(path)
        except RuleFileError:
            continue
        h = head(vr)
        if h is not None and h.game == rules.game.name:
            yield path, vr


def _search(folders, name: str, wanted) -> Optional[str]:
    """The first rule file in the folders (NAME.rules first) whose parse satisfies `wanted`."""
    for folder in folders:
        guess = os.path.join(folder, name.replace("_", "-") + ".rules")
        for f in [guess] + variant_files(folder):
            if not os.path.isfile(f):
                continue
            try:
                if wanted(parse_file(f)):
                    return f
            except RuleFileError:
                continue
    return None


def _find_variant(name: str, near: str) -> str:
    folder = os.path.dirname(near) or "."
    found = _search([folder], name, lambda r: head(r) is not None and head(r).name == name)
    if found is None:
        raise RuleFileError([_error(near, S.Span(1, 1, 1, 1), f"it builds on variant '{name}', "
                                    f"which is in no file in {folder}/", "put that variant's file in the same folder")])
    return found


def stack(paths: list[str]) -> list[S.RuleFile]:
    """Load variants in command-line order, each preceded by what it builds on (once each)."""
    out: list[S.RuleFile] = []
    seen: set[str] = set()

    def visit(path, chain):
        key = os.path.abspath(path)
        if key in seen:
            return
        if key in chain:
            raise RuleFileError([_error(path, S.Span(1, 1, 1, 1), "variants build on each other in a circle: "
                                        + " -> ".join(os.path.basename(c) for c in chain + [key]))])
        rules = read(path)
        for dep in head(rules).builds_on:
            if not any(head(r).name == dep for r in out):
                visit(_find_variant(dep, path), chain + [key])
        seen.add(key)
        out.append(rules)

    for p in paths:
        visit(p, [])
    return out


def find_base(variant: S.RuleFile, search: tuple[str, ...] = ()) -> str:
    """The game file a variant patches: games/<name>.rules beside its folder, or any game there."""
    name = head(variant).game
    here = os.path.dirname(os.path.abspath(variant.path))
    folders = list(search) + [os.path.join(here, "..", "games"), os.path.join(here, "games"), "games"]
    found = _search(folders, name, lambda r: r.game is not None and r.game.name == name)
    if found is None:
        raise RuleFileError([_error(variant.path, head(variant).span, f"cannot find the game '{name}' this variant patches",
                                    "keep games in games/ beside variants/, or name the game file explicitly")],
                            variant.source)
    return os.path.abspath(found) if os.path.isabs(variant.path) else os.path.relpath(found)


# ---------------------------------------------------------------- walking statement trees

def _bodies(decl) -> bool:
    return isinstance(decl, (S.Rule, S.Trigger, S.Flow))


def named_blocks(stmts) -> list[S.Block]:
    """Every step and phase inside a statement list, outermost first."""
    return [st for st in S.statements(stmts) if isinstance(st, S.Block) and st.kind in ("step", "phase")]


def blocks_of(decls) -> list[S.Block]:
    return [b for d in decls if _bodies(d) for b in named_blocks(d.body)]


# ---------------------------------------------------------------- applying patches

@dataclass
class _Work:
    decls: list
    errors: list
    replaced: list = field(default_factory=list)


def _decl_index(decls, kind, name) -> Optional[int]:
    for i, d in enumerate(decls):
        if isinstance(d, (S.Variant, S.Patch)):
            continue
        if family(S.kind_of(d)) == family(kind) and d.name == name:
            return i
    return None


def _missing_hint(decls, kind, name) -> Optional[str]:
    if family(kind) == "block":
        names = [b.name for b in blocks_of(decls)]
    else:
        names = [d.name for d in decls if not isinstance(d, (S.Variant, S.Patch)) and family(S.kind_of(d)) == family(kind)]
    hint = did_you_mean(name, names)
    if hint:
        return hint
    other = [S.kind_of(d) for d in decls if not isinstance(d, (S.Variant, S.Patch)) and getattr(d, "name", None) == name]
    if other:
        return f"'{name}' is a {other[0]}, not a {kind}"
    return None


def _touched_keys(p: S.Patch, decls) -> set:
    """The named parts a patch touches: itself and every step or phase inside what it replaces."""
    keys = {(family(p.kind), p.name)}
    inner = []
    if family(p.kind) == "block":
        for b in blocks_of(decls):
            if b.name == p.name:
                inner.extend(named_blocks(b.body))
        if isinstance(p.item, S.Block):
            inner.extend(named_blocks(p.item.body))
    else:
        i = _decl_index(decls, p.kind, p.name)
        if i is not None and _bodies(decls[i]):
            inner.extend(named_blocks(decls[i].body))
        if p.item is not None and _bodies(p.item):
            inner.extend(named_blocks(p.item.body))
    if p.op == "change cards":
        keys = {("card", p.name, c.name) for c in _matching_cards(decls, p)}
    return keys | {("block", b.name) for b in inner}


def _matching_cards(decls, p: S.Patch) -> list:
    i = _decl_index(decls, "deck", p.name)
    if i is None:
        return []
    deck = decls[i]
    return [c for c in deck.cards if all(dict(c.attrs).get(a, "-") == v for a, v in p.match)]


def _apply_one(work: _Work, p: S.Patch, path: str) -> None:
    decls = work.decls
    fail = lambda message, hint=None: work.errors.append(_error(path, p.span, message, hint))
    if p.op == "change cards":
        i = _decl_index(decls, "deck", p.name)
        if i is None:
            return fail(f"no deck '{p.name}' to change", _missing_hint(decls, "deck", p.name))
        deck = decls[i]
        hits = _matching_cards(decls, p)
        if not hits:
            wanted = " and ".join(f"{a} = {v}" for a, v in p.match)
            return fail(f"no card of '{p.name}' has {wanted}", "check the attribute names and values in the card table")
        cards = []
        for c in deck.cards:
            if c in hits:
                attrs = dict(c.attrs)
                count = c.count
                for a, v in p.assign:
                    if a == "count":
                        count = S.Num(p.span, v) if isinstance(v, int) else S.Name(p.span, str(v))
                    elif v == "-":
                        attrs.pop(a, None)
                    else:
                        attrs[a] = v
                c = replace(c, attrs=tuple(attrs.items()), count=count)
            cards.append(c)
        decls[i] = replace(deck, cards=tuple(cards))
        return
    if p.op == "replace inside":
        return _apply_inside(work, p, fail)
    if family(p.kind) == "block":
        return _apply_block(work, p, path, fail)
    i = _decl_index(decls, p.kind, p.name)
    if p.op == "add":
        if i is not None:
            return fail(f"the game already has a {S.kind_of(decls[i])} '{p.name}'", f"use 'replace {p.kind} {p.name}' to change it")
        if isinstance(p.item, S.Game):
            return fail("a variant cannot add a second game")
        decls.append(p.item)
        return
    if i is None:
        whole = p.name == p.kind            # a section named by its keyword: setup, play
        hint = _missing_hint(decls, p.kind, p.name)
        if hint is None and p.op == "replace":
            hint = f"the game has none: write 'add {p.kind}{'' if whole else ' ' + p.name}' to give it one"
        return fail(f"no {p.kind}{'' if whole else f' {p.name!r}'} to {p.op}", hint)
    if p.op == "remove":
        del decls[i]
    else:
        decls[i] = p.item


def _apply_block(work: _Work, p: S.Patch, path: str, fail) -> None:
    decls = work.decls
    target = p.anchor[1] if p.anchor else p.name
    existing = {b.name: b for b in blocks_of(decls)}
    if p.op == "add" and p.name in existing:
        return fail(f"the game already has a {existing[p.name].kind} '{p.name}'", f"use 'replace {p.kind} {p.name}' to change it")
    if target not in existing:
        what = "step or phase"
        return fail(f"no {what} '{target}' to {'put this ' + p.anchor[0] if p.anchor else p.op}",
                    _missing_hint(decls, "step", target))
    if p.op != "add" and existing[target].kind != p.kind:
        return fail(f"'{target}' is a {existing[target].kind}, not a {p.kind}")

    def fn(st):
        if not (isinstance(st, S.Block) and st.kind in ("step", "phase") and st.name == target):
            return None
        if p.op == "remove":
            return []
        if p.op == "replace":
            return [p.item]
        return [p.item, st] if p.anchor[0] == "before" else [st, p.item]

    for i, d in enumerate(decls):
        if _bodies(d):
            decls[i] = replace(d, body=S.splice(d.body, fn))


def _apply_inside(work: _Work, p: S.Patch, fail) -> None:
    """`replace in step NAME`: the one statement of the step (phase, rule) written like the
    patch's first block, wherever it stands inside, replaced by the second block."""
    decls = work.decls
    old, new = p.item
    if p.kind == "rule":
        i = _decl_index(decls, "rule", p.name)
        if i is None:
            return fail(f"no rule '{p.name}' to change", _missing_hint(decls, "rule", p.name))
        scopes = [decls[i]]
    else:
        scopes = [b for b in blocks_of(decls) if b.name == p.name]
        if not scopes:
            return fail(f"no {p.kind} '{p.name}' to change", _missing_hint(decls, "step", p.name))
        if scopes[0].kind != p.kind:
            return fail(f"'{p.name}' is a {scopes[0].kind}, not a {p.kind}")
    found = [st for scope in scopes for st in S.statements(scope.body) if S.same(st, old)]
    if len(found) != 1:
        said = f"{p.kind} '{p.name}' has no statement like this" if not found else \
            f"{p.kind} '{p.name}' has {len(found)} statements like this (lines {', '.join(str(st.span.line) for st in found)})"
        return fail(said, "write it as the game file has it (the same words; spacing does not matter)" if not found
                    else "name the statement around the one meant (its 'if', loop or choice) so that one matches")

    def put(st):
        return list(new) if st is found[0] else None
    work.replaced.append((found[0].span, new))

    def in_scope(st):
        if isinstance(st, S.Block) and st.kind == p.kind and st.name == p.name:
            return [replace(st, body=S.splice(st.body, put))]
        return None
    for i, d in enumerate(decls):
        if p.kind == "rule" and isinstance(d, S.Rule) and d.name == p.name:
            decls[i] = replace(d, body=S.splice(d.body, put))
        elif p.kind != "rule" and _bodies(d):
            decls[i] = replace(d, body=S.splice(d.body, in_scope))




def _builds_on_closure(v: S.RuleFile, by_name: dict) -> set:
    out, todo = set(), list(head(v).builds_on)
    while todo:
        n = todo.pop()
        if n in out:
            continue
        out.add(n)
        if n in by_name:
            todo.extend(head(by_name[n]).builds_on)
    return out


def apply(base: S.RuleFile, overlays: list[S.RuleFile]) -> S.RuleFile:
    """The game with every overlay applied in order; raises RuleFileError on any bad patch."""
    if head(base) is not None:
        raise RuleFileError([_error(base.path, head(base).span, "this is a variant, not a game",
                                    "pass the game file first and the variant with --variant")], base.source)
    work = _Work([d for d in base.decls if not isinstance(d, S.Patch)], [])
    for stray in patches(base):
        work.errors.append(_error(base.path, stray.span, f"'{stray.op}' belongs in a variant file, not in a game",
                                  "move it to a file in variants/ that starts with 'variant NAME of GAME'"))
    game_name = base.game.name if base.game else None
    by_name = {head(v).name: v for v in overlays}
    touched: dict = {}
    for v in overlays:
        h = head(v)
        if h.game != game_name:
            work.errors.append(_error(v.path, h.span, f"variant '{h.name}' is for the game '{h.game}', not '{game_name}'"))
            continue
        allowed = _builds_on_closure(v, by_name)
        for stray in v.decls:
            if not isinstance(stray, (S.Variant, S.Patch)):
                work.errors.append(_error(v.path, stray.span, f"a variant changes the game with patches; "
                                          f"write 'add {S.kind_of(stray)} {stray.name}' or 'replace ...'"))
        for p in patches(v):
            keys = _touched_keys(p, work.decls)
            for key in sorted(keys):
                earlier = touched.get(key)
                if earlier is not None and earlier is not v and head(earlier).name not in allowed:
                    what = f"{key[0] if key[0] != 'block' else 'step'} '{key[-1]}'"
                    if key[0] == "card":
                        what = f"card '{key[2]}' of deck '{key[1]}'"
                    work.errors.append(_error(v.path, p.span,
                        f"conflict: {v.path} and {earlier.path} both change {what}",
                        f"if '{h.name}' is meant to go on top of '{head(earlier).name}', add "
                        f"'builds on {head(earlier).name}' to its variant line; otherwise use only one of them"))
                    break
            else:
                _apply_one(work, p, v.path)
                for key in keys:
                    touched[key] = v
    if work.errors:
        sources = {base.path: base.source, **{v.path: v.source for v in overlays}}
        raise RuleFileError(work.errors, sources)
    return S.RuleFile(base.path, base.source, tuple(work.decls), tuple(overlays),
                      ((base.path, base.source),) + tuple((v.path, v.source) for v in overlays), tuple(work.replaced))
