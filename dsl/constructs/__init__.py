"""The language's constructs, one module each, and the registry the passes dispatch through.

Statements: pass_, unhandled, block (step, phase, assume), move, shuffle, roll, assign, eliminate,
reveal, look, do, end_game, if_, cases, repeat, for_each, choose, pass_zones.
Expressions: number, text, list_literal, name, attribute, unary, binary, conditional,
comprehension, call, index.
Declarations: game, parameter, counter, component, board, zone, order, question, define, rule,
trigger, flow, variant, patch, strategy (with `strategies for`).

Adding a construct: docs/adding-a-construct.md.

May import: the syntax base classes and the leaf helpers of the language, engine and printing
(errors, program parts, values, builtins, runs); never a pass (checker, compiler, machine, prose,
book, narration, analyses), which all import this.
"""
import importlib
import pkgutil
import sys

# Every module here but the registry is a construct that registers itself on import, so adding
# a construct is adding its file (and its grammar rules): no list to keep in step.
for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    if _module != "registry":
        importlib.import_module(f"{__name__}.{_module}")

from ..language.syntax import Node
from .registry import EVENTS, REGISTRY, Absent, MissingHook, construct_of, grammar_rules, hook, missing_hooks

# Every node class any construct module defines, by name: the registered constructs and the
# parts they are made of (options, cases, card rows...), for `syntax.NAME`.
NODES: dict[str, type] = {}
for _module in list(sys.modules.values()):
    if getattr(_module, "__name__", "").startswith(__name__ + "."):
        for _value in vars(_module).values():
            if isinstance(_value, type) and issubclass(_value, Node) and _value.__module__ == _module.__name__:
                NODES[_value.__name__] = _value

__all__ = ["EVENTS", "NODES", "REGISTRY", "Absent", "MissingHook", "construct_of", "grammar_rules", "hook",
           "missing_hooks"]
