"""Helpers shared by the test modules (plain functions, no engine internals)."""
from __future__ import annotations

import functools
import json
from collections import Counter
from pathlib import Path

from dsl.engine import CHANCE, Game
from dsl.loader import load

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
BLUFF = GAMES / "bluff.rules"
LIFE = ROOT / "variants" / "bluff-life.rules"
DEMOCRACY = GAMES / "democracy.rules"


@functools.lru_cache(maxsize=None)
def rules_of(path: str):
    rules, _warnings = load(path)
    return rules


@functools.lru_cache(maxsize=None)
def game_of(path: str, n: int) -> Game:
    return Game(rules_of(str(path)), n)


def bluff(n: int) -> Game:
    return game_of(str(BLUFF), n)


def zone(game: Game, name: str) -> int:
    return game.zone_names.index(name)


def pieces_in(state, game: Game, name: str) -> list:
    return [int(p) for p in state.zones[zone(game, name)]]


def dice_outcome(faces, faces_per_die: int = 6, first_face: int = 1) -> int:
    """The chance outcome that gives die i (in zone order) the face faces[i] (faces 1..6)."""
    return sum((f - first_face) * faces_per_die ** i for i, f in enumerate(faces))


def assert_conserved(state, game: Game) -> None:
    """Every piece is in exactly one zone, and `loc` agrees with the zone lists."""
    seen = Counter(int(p) for z in state.zones for p in z)
    assert seen == Counter(range(len(game.pieces))), "pieces created, lost or duplicated"
    for zi, z in enumerate(state.zones):
        for p in z:
            assert state.loc[p] == zi, f"piece {int(p)} is listed in {game.zone_names[zi]} but loc says {game.zone_names[state.loc[p]]}"


def step_random(state, rng_index):
    """Apply the action chosen by rng_index(n) (an index into the options); return [actor, move]."""
    if state.is_chance():
        k = rng_index(state.chance_outcomes())
        state.apply(k)
        return [CHANCE, k]
    actors = state.current_actors()
    assert actors, "a non-terminal state waits for nobody"
    player = actors[0]
    moves = state.legal_moves(player)
    assert moves, f"P{int(player) + 1} has no legal move in a non-terminal state"
    move = moves[rng_index(len(moves))]
    state.apply(move, player)
    return [int(player), list(move)]


def canonical_json(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True, ensure_ascii=False)


def rules_text(path=BLUFF) -> str:
    return Path(path).read_text(encoding="utf-8")


def line_of(text: str, needle: str, start: int = 1) -> int:
    """1-based number of the first line at or after `start` containing `needle`."""
    for i, line in enumerate(text.splitlines(), 1):
        if i >= start and needle in line:
            return i
    raise AssertionError(f"{needle!r} not found")


def parsed(text: str, path: str = "t.rules"):
    """The rule tree of a text that must parse."""
    from dsl.language.parser import parse_text
    rules, diags = parse_text(text, path)
    assert rules is not None, diags
    return rules


def errors_of(text: str) -> list:
    """The checker's errors (not warnings) for a text that parses."""
    from dsl.language.checker import check
    return [d for d in check(parsed(text)) if d.severity == "error"]


def playtest(*args):
    """The command line run in this process: never a traceback, whatever the exit."""
    from click.testing import CliRunner
    from dsl.cli import main
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output
    return r
