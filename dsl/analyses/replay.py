"""Saved games: a rule file, a player count, a seed and the list of actions.

Replaying applies the actions in order and checks that each one was legal, so a replay
reproduces the game exactly and fails loudly if the rules have changed underneath it.
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass

from ..engine import CHANCE, Game, IllegalMove
from ..engine.state import State

FORMAT = "playtest-replay/1"


@dataclass
class Replay:
    rules: str
    variants: list
    players: int
    seed: int
    index: int
    actions: list
    note: str = ""

    def to_json(self) -> dict:
        return {"format": FORMAT, "rules": self.rules, "variants": self.variants, "players": self.players,
                "seed": self.seed, "game_index": self.index, "note": self.note, "actions": self.actions}


class ReplayError(Exception):
    pass


def write_atomic(path: str, data: str | bytes) -> None:
    """Write a whole file or nothing: a temporary file in the same folder, then rename."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.chmod(tmp, 0o666 & ~umask)       # as an ordinary new file, not mkstemp's owner-only mode
        if isinstance(data, bytes):
            with os.fdopen(fd, "wb") as f:
                f.write(data)
        else:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
                f.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def save(replay: Replay, path: str) -> None:
    write_atomic(path, json.dumps(replay.to_json(), ensure_ascii=False, indent=1) + "\n")


def load(path: str) -> Replay:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        raise ReplayError(f"{path}: no such replay file")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ReplayError(f"{path}: not a replay file ({e})")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReplayError(f"{path}: not a replay file (expected format {FORMAT})")
    try:
        return Replay(data["rules"], list(data.get("variants", [])), int(data["players"]), int(data.get("seed", 0)),
                      int(data.get("game_index", 0)), list(data["actions"]), data.get("note", ""))
    except (KeyError, TypeError, ValueError) as e:
        raise ReplayError(f"{path}: replay file is missing {e}")


def run(game: Game, actions: list, log: bool = True, on_state=None) -> State:
    """Apply every action; raise ReplayError at the first one the rules do not allow.

    The legality check is the engine's own (Game.apply validates every action). After the
    last action, a game left waiting for a decision nobody can take ends in its dead end
    (`no actor` / `no legal move`), as it did when it was played."""
    s = game.new_initial_state(log=log)
    if on_state:
        on_state(s)
    for i, action in enumerate(actions):
        try:
            actor, move = action
            actor = int(actor)
        except (TypeError, ValueError):
            raise ReplayError(f"action {i + 1}: {action!r} is not an action (expected [actor, move])")
        if s.is_terminal():
            raise ReplayError(f"action {i + 1}: the game had already ended")
        if actor == CHANCE:
            if not s.is_chance():
                raise ReplayError(f"action {i + 1}: a chance outcome where the game waits for a player")
        elif s.is_chance():
            raise ReplayError(f"action {i + 1}: a decision by P{actor + 1} where the game waits for a chance outcome")
        elif actor not in [int(a) for a in s.current_actors()]:
            raise ReplayError(f"action {i + 1}: it is not P{actor + 1}'s decision")
        try:
            if actor == CHANCE:
                s.apply(move, CHANCE)
            else:
                if not isinstance(move, (list, tuple)):
                    raise IllegalMove(f"{move!r} is not a legal move for P{actor + 1}")
                s.apply(tuple(move), actor)
        except IllegalMove as e:
            raise ReplayError(f"action {i + 1}: {e}")
        if on_state:
            on_state(s)
    if not s.is_terminal() and game.stuck(s) and on_state:
        on_state(s)
    return s
