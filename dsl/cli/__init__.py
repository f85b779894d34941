"""The `playtest` command line: one module a command group, all on one click group.

May import everything else in the package; nothing imports it.
"""
from .common import main
from . import agents, check, diff, hunt, listing, lsp, play, printing, replay, report, serve, simulate  # noqa: F401  (each registers its commands)

__all__ = ["main"]
