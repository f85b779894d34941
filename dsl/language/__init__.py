"""The language: grammar loading and parsing (parser.py, building.py), the syntax tree's
shared parts and generic walk (syntax.py), the checker (checker.py, kinds.py, constants.py,
chains.py for cycles and chains of names, inlined.py for what the engine writes out in
full, limits.py) and diagnostics (diagnostics.py).

May import: the constructs' registry (lazily) and the engine's leaf modules (builtins,
values); never the engine's passes, analyses, printing or the CLI.
"""
