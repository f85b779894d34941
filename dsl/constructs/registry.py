"""The registry: every construct of the language and the hooks each pass calls on it.

A construct is one kind of syntax node with everything the passes need of it: the grammar
rules that build it, its checks, how it compiles for the engine, its Japanese and English
reading for the rulebook, the narration of the events it makes in a replay, and what the
analyses must know of it (whether it reads the order of a zone). Each construct lives in one
module of this package and registers itself here; the passes look a hook up by node type and
never switch on node types themselves.

A hook a construct deliberately lacks is registered as `Absent("why")`, never left out: a
missing hook is an error naming the construct and the hook, not a silent fallback.

May import: nothing from dsl but the syntax base classes (this module is a leaf).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field

# The hooks every construct of a kind must register.
HOOKS: dict[str, tuple[str, ...]] = {
    "statement": ("grammar", "check", "compile", "read", "events", "order"),
    "expression": ("grammar", "check", "compile", "generate", "read", "order", "sources"),
    "declaration": ("grammar", "check", "read"),
}


@dataclass(frozen=True)
class Absent:
    """A hook a construct has no use for, with the reason (shown when something asks for it)."""
    why: str


class MissingHook(LookupError):
    pass


@dataclass
class Construct:
    node: type
    kind: str
    module: str
    hooks: dict = field(default_factory=dict)

    def hook(self, name: str):
        found = self.hooks.get(name)
        if found is None:
            raise MissingHook(f"construct {self.node.__name__} ({self.module}) has no '{name}' hook")
        if isinstance(found, Absent):
            raise MissingHook(f"construct {self.node.__name__} has no '{name}' hook: {found.why}")
        return found


REGISTRY: dict[type, Construct] = {}
EVENTS: dict[str, tuple[type, object]] = {}      # event name -> (node type, narrator)


def register(node: type, kind: str, **hooks) -> Construct:
    if kind not in HOOKS:
        raise ValueError(f"unknown kind of construct {kind!r}")
    if node in REGISTRY:
        raise ValueError(f"construct {node.__name__} is registered twice")
    c = Construct(node, kind, node.__module__, hooks)
    REGISTRY[node] = c
    for event, narrate in (hooks.get("events") or {}).items() if not isinstance(hooks.get("events"), Absent) else ():
        if event in EVENTS:
            raise ValueError(f"event {event!r} is narrated by both {EVENTS[event][0].__name__} and {node.__name__}")
        EVENTS[event] = (node, narrate)
    return c


def loaded() -> dict[type, Construct]:
    """The registry with every construct in it. The passes import this leaf module rather than
    the package, so the package (which imports the engine's leaves) is loaded on first use."""
    if not REGISTRY:
        importlib.import_module(__package__)      # each construct module registers itself
    return REGISTRY


def construct_of(node_or_type) -> Construct:
    t = node_or_type if isinstance(node_or_type, type) else type(node_or_type)
    c = loaded().get(t)
    if c is None:
        raise MissingHook(f"{t.__name__} is not a registered construct")
    return c


def hook(node, name: str):
    """The `name` hook of the construct `node` is an instance of."""
    return construct_of(node).hook(name)


def has(node_or_type, name: str) -> bool:
    """Whether the construct has the hook itself (not left out, not registered as Absent)."""
    found = construct_of(node_or_type).hooks.get(name)
    return found is not None and not isinstance(found, Absent)


def missing_hooks() -> list[str]:
    """Every hook a registered construct should have and does not ('Absent' counts as had)."""
    out = []
    for c in loaded().values():
        for name in HOOKS[c.kind]:
            if name not in c.hooks:
                out.append(f"{c.node.__name__} ({c.module}): no '{name}' hook")
    return out


def events() -> dict[str, tuple[type, object]]:
    loaded()
    return EVENTS


def grammar_rules() -> dict:
    """Grammar rule name -> builder `(meta, children) -> node`, over every construct."""
    rules = {}
    for c in loaded().values():
        for rule, build in (c.hooks.get("grammar") or {}).items():
            if rule in rules:
                raise ValueError(f"grammar rule {rule!r} is built by two constructs")
            rules[rule] = build
    return rules


def nothing(*_) -> None:
    """The hook of a construct that adds nothing to that pass (registered so on purpose)."""
