"""The engine: a checked rule file compiled for one player count and played as a state machine.

May import the language (syntax) and the constructs; nothing from analyses, printing or the CLI.
"""
import importlib

# Each name is imported from its module when first asked for: the checker reads the built-ins
# (dsl.engine.builtins) and nothing else here, so `playtest check` starts without the compiler
# and the machine.
_WHERE = {"CHANCE": "game", "Game": "game", "IllegalMove": "game", "RuleError": "game", "compiled": "game",
          "DeadEnd": "state", "State": "state"}

__all__ = sorted(_WHERE)


def __getattr__(name):
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    return value
