"""Which zones' order can make a difference to play, and so when two states are the same.

A zone's order matters when a rule reads it: `top`/`first` of it, `move N` or `move up to N`
from it (they take the top pieces), `for each` over it (the body runs in that order), a
collection built from it that is compared with `=`, or `move all` from it into a zone whose
order matters. Collections flow through values, variables, rule and value arguments; a zone
the analysis cannot name (`zone_of`, a name it cannot trace) makes every zone ordered.
Choosing from a zone, counting, summing, rolling, shuffling and revealing do not depend on
its order.

Each construct says what it adds through two hooks: `order` (the values it binds and the
collections whose order it reads) and, for expressions, `sources` (which zones the order of
its value comes from). `same_state` is the one definition of "the same state": order-free
zones compared as sets, and only the local slots live at the paused instruction.

May import: the language, the constructs and engine values.
"""
from __future__ import annotations

from typing import Callable, Optional

from ..constructs.registry import loaded
from ..engine.builtins import BUILTINS
from ..language import syntax as S


class OrderUse:
    """The zones (by declared name) whose order a rule set can observe."""

    def __init__(self, rules: S.RuleFile):
        self.rules = rules
        self.zone_names = {z.name for z in rules.of(S.Zone)} | {b.name for b in rules.of(S.Board)}
        self.defines = {d.name: d for d in rules.of(S.Define)}
        self.rule_decls = {x.name: x for x in rules.of(S.Rule)}
        self.variables = {c.name: c for c in rules.of(S.Counter)}
        self.assigned: dict[str, list] = {}          # variable -> expressions assigned to it
        self.local_sources: dict[str, list] = {}     # local name -> expressions it can hold (arguments)
        self.element_of: dict[str, list] = {}        # local name -> collections it iterates
        self.known_locals: set[str] = set()
        self.move_all: list = []                     # (source, destination)
        self.ordered: set[str] = set()
        self.everything = False
        self._marking: set = set()
        self._read: list = []                        # collections whose order is read, marked once all is known
        for c in rules.of(S.Counter):
            self.assigned.setdefault(c.name, []).append(c.initial)
        for d in rules.of(S.Define):
            self.known_locals.update(d.params)
        for x in rules.of(S.Rule):
            self.known_locals.update(x.params)
        for t in rules.of(S.Trigger):
            if t.var:
                self.known_locals.add(t.var)
        registry = loaded()
        for node in S.walk_rules(rules):
            c = registry.get(type(node))
            if c is not None and c.kind in ("statement", "expression"):
                c.hook("order")(node, self)
        for e in self._read:
            self.mark(e)
        self._propagate()

    # -- what constructs tell it (their `order` hooks)
    def reads_order(self, e) -> None:
        self._read.append(e)

    def moves_all(self, source, dest) -> None:
        self.move_all.append((source, dest))

    def assigns(self, name: str, value) -> None:
        into = self.assigned if name in self.variables else self.local_sources
        into.setdefault(name, []).append(value)

    def passes_to_rule(self, rule: str, args) -> None:
        if rule in self.rule_decls:
            for pname, arg in zip(self.rule_decls[rule].params, args):
                self.local_sources.setdefault(pname, []).append(arg)

    def binds_local(self, name: str) -> None:
        self.known_locals.add(name)

    def iterates(self, var: str, coll) -> None:
        self.known_locals.add(var)
        self.element_of.setdefault(var, []).append(coll)

    def calls(self, fn: str, args) -> None:
        if fn in self.defines:
            for pname, arg in zip(self.defines[fn].params, args):
                self.local_sources.setdefault(pname, []).append(arg)
        b = BUILTINS.get(fn)
        if b is not None and b.order == "reads" and args:
            self.reads_order(args[0])
        elif b is not None and b.order == "unknown zone":
            self.everything = True          # a zone known only during play

    # -- marking (expressions' `sources` hooks call back here)
    def mark(self, e) -> None:
        """The order of the collection e gives back can matter: every zone it comes from is ordered."""
        if self.everything or e is None:
            return
        key = id(e)
        if key in self._marking:
            return
        self._marking.add(key)
        loaded()[type(e)].hook("sources")(e, self)

    def name_sources(self, n: str) -> None:
        if n in self.zone_names:
            self.ordered.add(n)
        elif n in self.defines and not self.defines[n].params:
            self.mark(self.defines[n].expr)
        elif n in self.variables:
            for v in self.assigned.get(n, ()):
                self.mark(v)
        elif n in self.known_locals:
            for v in self.local_sources.get(n, ()):
                self.mark(v)
            for coll in self.element_of.get(n, ()):
                if isinstance(coll, S.ListLit):     # an item of a list of zones is a zone
                    for item in coll.items:
                        self.mark(item)

    def call_sources(self, fn: str, args) -> None:
        b = BUILTINS.get(fn)
        if fn in self.zone_names:
            self.ordered.add(fn)
        elif b is not None and b.order == "keeps" and args:
            self.mark(args[-1])
        elif fn in self.defines:
            self.mark(self.defines[fn].expr)
        elif b is not None and b.order == "unknown zone":
            self.everything = True

    def _propagate(self):
        changed = True
        while changed and not self.everything:
            changed = False
            for src, dest in self.move_all:
                names = _zone_names_of(dest, self.zone_names)
                if names is None or names & self.ordered:
                    before = (len(self.ordered), self.everything)
                    self.mark(src)
                    changed = changed or (len(self.ordered), self.everything) != before


def _zone_names_of(e, zone_names) -> Optional[set]:
    """The zone declarations e can name, or None when that is not known before play."""
    if isinstance(e, S.Name) and e.id in zone_names:
        return {e.id}
    if isinstance(e, S.Call) and e.fn in zone_names:
        return {e.fn}
    return None


def order_free_zones(game) -> frozenset:
    """Indices of the zones (in game.zone_names) whose order no rule can observe."""
    use = OrderUse(game.rules)
    if use.everything:
        return frozenset()
    free = set()
    for name, z in game.zones.items():
        if name in use.ordered:
            continue
        free.update(int(i) for i in (z if isinstance(z, tuple) else (z,)))
    return frozenset(free)


def piece_classes(game) -> tuple[int, ...]:
    """Pieces no rule can tell apart share a class: the same kind, attributes and owner. A rule
    sees a piece only through those (and where it lies, its face, whether it is shown), so two
    states that differ by swapping such pieces are one state. A kind with zones of its own
    (`zone ... per KIND`) or values of its own (`counter ... per KIND`) keeps every piece apart:
    its zones and values are tied to the piece."""
    own_zones = {per for z in game.rules.of(S.Zone) + game.rules.of(S.Counter)
                 for per in (z.per, getattr(z, "per2", None)) if per not in (None, "player", "team")}
    classes: dict = {}
    out = []
    for p, kind in enumerate(game.kind_of):
        look = (p,) if kind in own_zones else \
            (kind, tuple(sorted((k, repr(v)) for k, v in game.piece_attrs[p].items())), game.piece_owner[p])
        out.append(classes.setdefault(look, len(classes)))
    return tuple(out)


def state_keyer(game) -> Callable:
    """The key explore tells states apart by: State.key with the zones whose order no rule
    reads compared as sets, identical pieces interchangeable, and only the local slots live
    where the game is paused."""
    free = order_free_zones(game)
    live_at = game.live_at
    classes = piece_classes(game)
    return lambda s: s.key(free, live_at, classes)
