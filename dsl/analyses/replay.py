"""Saved games: a rule file, a player count, a seed and the list of actions.

Replaying applies the actions in order and checks that each one was legal, so a replay
reproduces the game exactly and fails loudly if the rules have changed underneath it. A
replay also keeps the texts of the rules it was made with (and their fingerprint) and the
digest of the state it ended in: legal actions under changed rules can still make another
game, and only those two tell.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field, replace
from typing import Optional

from ..engine import CHANCE, Game, IllegalMove
from ..engine.state import State
from ..engine.values import Player
from ..io_guard import Refused, ended_by_sigterm, read_bytes, write_atomic  # noqa: F401  (callers take them from here)

FORMAT = "playtest-replay/1"
MAX_REPLAY_BYTES = 64 * 1024 * 1024     # a replay is actions and rule texts; this is far past any real one
from ..language.limits import MAX_PLAYERS
from .bounds import MAX_SEED, MIN_SEED


@dataclass
class Replay:
    rules: str
    variants: list
    players: int
    seed: int
    index: int
    actions: list
    note: str = ""
    fingerprint: Optional[str] = None   # None: saved by a playtest that did not record it
    sources: list = field(default_factory=list)     # [[path, text], ...] of the rules it was made with
    final_state: Optional[str] = None
    rulings: list = field(default_factory=list)     # the rulings made at the table (written by the table)

    def to_json(self) -> dict:
        data = {"format": FORMAT, "rules": self.rules, "variants": self.variants, "players": self.players,
                "seed": self.seed, "game_index": self.index, "note": self.note, "actions": self.actions}
        if self.fingerprint is not None:
            data.update(fingerprint=self.fingerprint, final_state=self.final_state, sources=self.sources)
        return data


class ReplayError(Exception):
    pass


def fingerprint(rules) -> str:
    """sha256 of the rule texts in the order they were applied (paths left out: moving a file changes nothing)."""
    texts = [text for _, text in rules.sources] or [rules.source]
    return hashlib.sha256(json.dumps(texts, ensure_ascii=False).encode()).hexdigest()


def stamped(replay: Replay, game: Game) -> Replay:
    """The replay with the fingerprint and texts of `game`'s rules and the digest of its final state."""
    final = run(game, replay.actions, log=False)
    rules = game.rules
    sources = [list(p) for p in rules.sources] or [[rules.path, rules.source]]
    return replace(replay, fingerprint=fingerprint(rules), sources=sources, final_state=final.digest())


def _trees(replay: Replay) -> list:
    """The parsed texts the replay carries; a RuleFileError shows their own lines, never a file's."""
    from ..language.diagnostics import RuleFileError
    from ..language.parser import parse_text
    trees = []
    for path, text in replay.sources:
        tree, diagnostics = parse_text(text, path)
        if tree is None:
            raise RuleFileError(diagnostics, {path: text})
        trees.append(tree)
    return trees


def saved_rules(replay: Replay):
    """The rule set the replay was made with, rebuilt from its texts; None if they no longer read."""
    from ..language.diagnostics import RuleFileError
    from ..variants import overlay
    try:
        files = _trees(replay)
        return overlay.apply(files[0], files[1:]) if files else None
    except (RuleFileError, RecursionError, ValueError, TypeError):
        return None


def embedded(replay: Replay, variants=()):
    """The checked rule set the replay carries (with `variants`, files, in place of its own):
    a replay plays from its texts anywhere, and the paths in it are only labels. ReplayError
    for a replay saved without its texts; RuleFileError when the texts do not check."""
    from ..loader import checked
    from ..variants import overlay
    if not replay.sources:
        raise ReplayError("it was saved by an older playtest, without the texts of its rules: give the rule file "
                          f"with --rules FILE (it names {_short(replay.rules)}"
                          + "".join(f" + {_short(v)}" for v in replay.variants) + ")")
    trees = _trees(replay)
    return checked(trees[0], overlay.stack(list(variants)) if variants else trees[1:])


def save(replay: Replay, path: str) -> None:
    write_atomic(path, dumps(replay))


def dumps(replay: Replay) -> str:
    return json.dumps(replay.to_json(), ensure_ascii=False, indent=1) + "\n"


def file_name(rules_path: str, variants, *parts) -> str:
    """A replay's file name: the stems of the game and every variant, then what tells it apart."""
    stems = [os.path.splitext(os.path.basename(p))[0] for p in [rules_path, *variants]]
    return "-".join(stems + [str(p) for p in parts]).replace(" ", "_") + ".json"


def save_new(replay: Replay, folder: str, name: str) -> str:
    """Save under `name` in `folder` without replacing another replay: the same replay again
    keeps its name, a different one that collides gets -2, -3, ...; returns the path."""
    text = dumps(replay)
    stem = name[:-5] if name.endswith(".json") else name
    for n in range(1, 10_000):
        path = os.path.join(folder, stem + (f"-{n}" if n > 1 else "") + ".json")
        try:
            write_atomic(path, text, overwrite=False)
            return path
        except FileExistsError:
            try:
                if read_bytes(path, MAX_REPLAY_BYTES, "replay file") == text.encode("utf-8"):
                    return path
            except OSError:
                pass
    raise OSError(f"{folder}: too many replays named {stem}")


def _fail(path, what):
    raise ReplayError(f"{path}: {what}")


def load(path: str) -> Replay:
    """Read a replay file; every way it can be wrong is a ReplayError naming what is wrong."""
    try:
        data = json.loads(read_bytes(path, MAX_REPLAY_BYTES, "replay file").decode("utf-8"))
    except Refused as e:
        _fail(path, e.strerror)
    except FileNotFoundError:
        _fail(path, "no such replay file")
    except RecursionError:
        _fail(path, "not a replay file (its JSON is nested too deeply)")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        _fail(path, f"not a replay file ({e})")
    except OSError as e:
        _fail(path, f"cannot read the file: {e.strerror}")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        _fail(path, f"not a replay file (expected format {FORMAT})")
    for key in ("rules", "players", "actions"):
        if key not in data:
            _fail(path, f"replay file is missing '{key}'")

    def integer(key, default, lo, hi):
        v = data.get(key, default)
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            _fail(path, f"'{key}' must be a whole number from {lo} to {hi}, not {_short(v)}")
        return v

    rules, variants = data["rules"], data.get("variants", [])
    if not isinstance(rules, str) or not rules:
        _fail(path, f"'rules' must be the name of a rule file, not {_short(rules)}")
    if not isinstance(variants, list) or not all(isinstance(v, str) and v for v in variants):
        _fail(path, f"'variants' must be a list of rule file names, not {_short(variants)}")
    if not isinstance(data["actions"], list):
        _fail(path, f"'actions' must be a list, not {_short(data['actions'])}")
    note = data.get("note", "")
    if not isinstance(note, str):
        _fail(path, f"'note' must be text, not {_short(note)}")
    fp, final, sources = data.get("fingerprint"), data.get("final_state"), data.get("sources", [])
    if fp is not None and not (isinstance(fp, str) and isinstance(final, str) and isinstance(sources, list)
                               and all(isinstance(s, list) and len(s) == 2 and all(isinstance(x, str) for x in s)
                                       for s in sources)):
        _fail(path, "its fingerprint, final_state or sources are not what playtest writes")
    return Replay(rules, list(variants), integer("players", None, 1, MAX_PLAYERS),
                  integer("seed", 0, MIN_SEED, MAX_SEED), integer("game_index", 0, 0, 2**63), data["actions"], note,
                  fp, [list(s) for s in sources] if fp is not None else [], final if fp is not None else None,
                  [r for r in data.get("rulings") or () if isinstance(r, dict)] if isinstance(data.get("rulings"), list) else [])


def _short(v) -> str:
    text = json.dumps(v)
    return text if len(text) <= 40 else text[:37] + "..."


def ruled(s: State, rulings, steps: int) -> State:
    """The game as the table ruled it: a dead end after `steps` actions that a ruling gave an
    outcome ends with that outcome (the winners, seats from 0), as it did at the table."""
    made = next((r for r in rulings if r.get("step") == steps and isinstance(r.get("outcome"), list)), None)
    if made is None or s.dead_end is None or made.get("where") != s.dead_end.where:
        return s        # (a ruling an undo took back leaves another dead end, or none, at its step)
    seats = made["outcome"]
    if not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p < s.n for p in seats):
        raise ReplayError(f"the ruling at action {steps} names winners {_short(seats)}, not seats of this game")
    s.dead_end = None
    s.outcome = tuple(Player(p) for p in sorted(set(seats)))
    if s.log is not None:
        s.log.append({"event": "end", "winners": [int(p) for p in s.outcome]})
    return s


def run(game: Game, actions: list, log: bool = True, on_state=None, rulings=()) -> State:
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
        except (TypeError, ValueError, OverflowError):
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
        except TypeError:               # a move made of lists or objects no rule file can ask for
            raise ReplayError(f"action {i + 1}: {move!r} is not a legal move")
        if on_state:
            on_state(s)
    if not s.is_terminal() and game.stuck(s) and on_state:
        on_state(s)
    return ruled(s, rulings, len(actions))
