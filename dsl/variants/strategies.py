"""Files of strategies (`strategies for GAME`): the game such a file names, where a game's file
of strategies lives, and the game with those strategies declared in it.

Kept apart from the agents that play the strategies, so that reading and checking a game
(the loader, `check`, the editor) needs none of the agents.
"""
from __future__ import annotations

import os

from ..language import syntax as S
from ..language.diagnostics import RuleFileError

FOLDER = "strategies"


def game_path(strategies: S.RuleFile) -> str:
    """The game file a file of strategies names: games/GAME.rules beside its folder, or any
    game there of that name."""
    from .overlay import _error, _search
    head = strategies.of(S.StrategiesFor)[0]
    here = os.path.dirname(os.path.abspath(strategies.path))
    folders = [os.path.join(here, "..", "games"), os.path.join(here, "games"), "games"]
    found = _search(folders, head.game, lambda r: r.game is not None and r.game.name == head.game)
    if found is None:
        raise RuleFileError([_error(strategies.path, head.span, f"cannot find the game '{head.game}' these strategies are for",
                                    "keep games in games/ beside strategies/")], strategies.source)
    return os.path.abspath(found) if os.path.isabs(strategies.path) else os.path.relpath(found)


def joined(game: S.RuleFile, strategies: S.RuleFile) -> S.RuleFile:
    """The game with a file of strategies declared in it (each span keeps its own file)."""
    sources = game.sources or ((game.path, game.source),)
    return S.RuleFile(game.path, game.source, game.decls + strategies.decls, game.variants,
                      sources + ((strategies.path, strategies.source),))


def beside(path: str) -> str:
    """Where the strategies of the game file `path` live: strategies/ beside its folder."""
    folder, name = os.path.split(os.path.abspath(path))
    return os.path.join(os.path.dirname(folder), FOLDER, name)
