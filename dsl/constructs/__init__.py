"""The language's constructs, one module each, and the registry the passes dispatch through.

Statements: pass_, unhandled, block (step, phase, assume), move, shuffle, roll, assign, eliminate,
reveal, do, end_game, if_, cases, repeat, for_each, choose.
Expressions: number, text, list_literal, name, attribute, unary, binary, conditional,
comprehension, call.
Declarations: game, parameter, counter, component, board, zone, order, question, define, rule,
trigger, flow, variant, patch.

Adding a construct: docs/adding-a-construct.md.

May import: the syntax base classes and the leaf helpers of the language, engine and printing
(errors, program parts, values, builtins, runs); never a pass (checker, compiler, machine, prose,
book, narration, analyses), which all import this.
"""
from . import (assign, attribute, binary, block, board, call, cases, choose, component, comprehension,  # noqa: F401
               conditional, counter, define, do, eliminate, end_game, flow, for_each, game, if_, list_literal, move,
               name, number, order, parameter, pass_, patch, question, repeat, reveal, roll, rule, shuffle, text,
               trigger, unary, unhandled, variant, zone)
from .registry import EVENTS, REGISTRY, Absent, MissingHook, construct_of, grammar_rules, hook, missing_hooks

NODES: dict[str, type] = {}
for _node in REGISTRY:
    NODES[_node.__name__] = _node
for _helper in (choose.Param, choose.Option, cases.Case, assign.Target, end_game.RankKey, component.CardSpec):
    NODES[_helper.__name__] = _helper

__all__ = ["EVENTS", "NODES", "REGISTRY", "Absent", "MissingHook", "construct_of", "grammar_rules", "hook",
           "missing_hooks"]
