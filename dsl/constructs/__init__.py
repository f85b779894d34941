"""The language's constructs, one module each, and the registry the passes dispatch through.

Statements: pass_, unhandled, block (step, phase, assume), move, shuffle, roll, assign, eliminate,
reveal, do, end_game, if_, cases, repeat, for_each, choose, pass_zones.
Expressions: number, text, list_literal, name, attribute, unary, binary, conditional,
comprehension, call.
Declarations: game, parameter, counter, component, board, zone, order, question, define, rule,
trigger, flow, variant, patch.

Adding a construct: docs/adding-a-construct.md.

May import: the syntax base classes and the leaf helpers of the language, engine and printing
(errors, program parts, values, builtins, runs); never a pass (checker, compiler, machine, prose,
book, narration, analyses), which all import this.
"""
import importlib
import pkgutil

# Every module here but the registry is a construct that registers itself on import, so adding
# a construct is adding its file (and its grammar rules): no list to keep in step.
for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    if _module != "registry":
        importlib.import_module(f"{__name__}.{_module}")

from .registry import EVENTS, REGISTRY, Absent, MissingHook, construct_of, grammar_rules, hook, missing_hooks

NODES: dict[str, type] = {}
for _node in REGISTRY:
    NODES[_node.__name__] = _node
for _helper in ("choose.Param", "choose.Option", "cases.Case", "assign.Target", "end_game.RankKey", "component.CardSpec"):
    _mod, _cls = _helper.split(".")
    NODES[_cls] = getattr(importlib.import_module(f"{__name__}.{_mod}"), _cls)

__all__ = ["EVENTS", "NODES", "REGISTRY", "Absent", "MissingHook", "construct_of", "grammar_rules", "hook",
           "missing_hooks"]
