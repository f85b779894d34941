"""Fuzzing a configuration with Hypothesis: find what the rules leave open, then shrink it.

Every player decision and every chance outcome of a game is drawn from Hypothesis data
(an index into the legal moves, or into the chance outcomes), so a game is a choice
sequence Hypothesis can shrink. A run has two phases:

1. discover: seeded batches of generated games (no shrinking). Every game is recorded:
   how it ended, the blocks of the rules it reached, and any finding.
2. shrink: for each distinct finding, the batch that first found it is generated again
   with the same seed (Hypothesis generates the same games up to that point), and this
   time the finding fails the test, so Hypothesis shrinks that game. The smallest failing
   game seen is the reproduction: a list of [actor, move] actions (actor -1 is chance)
   that `dsl.replay` saves and runs.

A finding is one of:
- a dead end, of any kind the engine reports (no case applies, no actor, no legal move,
  empty zone, negative amount, below minimum / above maximum, tie not covered, unhandled,
  play ran out, trigger loop, step limit, evaluation failed);
  `step limit` is also how a game that does not end within its bound shows up: the bound
  is `max steps` decisions (the rule file's, or the default), and 10 x that many loop
  passes between two decisions (see FuzzReport.bounds);
- a broken engine invariant: `pieces not conserved` (every piece in exactly one zone);
- `engine error`: the engine raised a Python exception (a bug in playtest, not in the rules).

Findings are deduplicated by (rule, kind). Coverage lists the rules, steps, options,
cases, `if` branches and triggers no generated game reached.

With max_examples the report is deterministic: the same seed gives byte-identical JSON.
With max_time, discovery stops at 70% of it (in whole batches of 100 games) and the report
says how many examples ran; pass that number as max_examples to repeat the run exactly.
"""
from __future__ import annotations

import contextlib
import json
import math
import random
import threading
import time
import warnings
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..engine import CHANCE, Game
from ..engine.values import plain

FORMAT = "playtest-fuzz/1"
BATCH = 100                     # generated games per Hypothesis run in the discover phase
PREFIX = 1000                   # actions drawn from Hypothesis data; the rest of a longer game from a drawn seed
SHRINK_BUDGET = 200_000         # actions played while shrinking one finding (deterministic work bound)
DEFAULT_EXAMPLES = 1000
DISCOVER_SHARE = 0.7            # of max_time; shrinking gets the rest (and stops at max_time)


class _Hit(Exception):
    """The game reached the finding being shrunk (a test failure for Hypothesis)."""


class _Stop(BaseException):
    """Out of budget: end the Hypothesis run at once (not a test failure)."""


@dataclass
class Finding:
    kind: str
    rule: str
    where: str
    message: str
    hits: int = 0                       # games of the discover phase that ended in it
    first_example: int = 0              # index of the first such game
    actions: list = field(default_factory=list)     # the reproduction
    shrunk: bool = False                # Hypothesis shrank it (else: the shortest game found)
    replays: bool = False               # replay.run of the actions reaches this finding again
    batch: int = 0
    _draws: list = field(default_factory=list, repr=False)

    @property
    def key(self) -> tuple:
        return (self.rule, self.kind)

    @property
    def decisions(self) -> int:
        return sum(1 for a, _ in self.actions if a != CHANCE)

    def to_json(self) -> dict:
        return {"kind": self.kind, "rule": self.rule, "where": self.where, "message": self.message,
                "hits": self.hits, "first_example": self.first_example,
                "reproduction": {"actions": self.actions, "length": len(self.actions),
                                 "decisions": self.decisions, "shrunk": self.shrunk, "replays": self.replays}}


@dataclass
class FuzzReport:
    game: str
    rules: str
    players: int
    seed: int
    examples: int = 0                   # games generated in the discover phase
    batches: int = 0
    shrink_runs: int = 0                # games played while shrinking
    findings: list = field(default_factory=list)     # Finding, sorted by (rule, kind)
    blocks: int = 0
    reached: int = 0
    never_reached: list = field(default_factory=list)
    bounds: dict = field(default_factory=dict)
    outcomes: dict = field(default_factory=dict)
    stopped_because: str = ""
    elapsed: float = 0.0                # seconds; not part of the JSON (it is not deterministic)
    discover_seconds: float = 0.0       # of which discovering (also not in the JSON)

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "game": self.game,
            "rules": self.rules,
            "players": self.players,
            "seed": self.seed,
            "examples": self.examples,
            "batches": self.batches,
            "shrink_runs": self.shrink_runs,
            "stopped_because": self.stopped_because,
            "bounds": self.bounds,
            "outcomes": self.outcomes,
            "findings": [f.to_json() for f in self.findings],
            "coverage": {"blocks": self.blocks, "reached": self.reached, "never_reached": self.never_reached},
        }

    def dumps(self) -> str:
        """The JSON text: stable key order, byte-identical for the same inputs."""
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1, sort_keys=True)

    def replay_of(self, finding: Finding, variants=(), note: str = "", rules: str = ""):
        """The reproduction as a dsl.replay.Replay, ready for replay.stamped() and save().

        `rules` is the file as the user named it: a variant file there stands for its game
        with the variant, which self.rules (the game's path) would lose."""
        from .replay import Replay
        return Replay(rules or self.rules, list(variants), self.players, self.seed, finding.first_example,
                      [list(a) for a in finding.actions],
                      note=note or f"fuzz: {finding.kind} in {finding.rule} ({finding.where})")

    def format_text(self) -> str:
        out = [f"{self.game}: fuzzed {self.examples:,} games, {self.players} players, seed {self.seed}"
               + (f" ({self.stopped_because})" if self.stopped_because else "")]
        o = self.outcomes
        wins = ", ".join(f"P{seat} {n}" for seat, n in o.get("wins_by_seat", {}).items())
        out.append(f"  outcomes: wins {wins}; shared {o.get('shared', 0)}, no winner {o.get('no_winner', 0)}, "
                   f"dead ends {o.get('dead_ends', 0)}")
        b = self.bounds
        out.append(f"  bounds: {b.get('max_decisions')} decisions ({b.get('max_decisions_from')}), "
                   f"{b.get('max_loop_passes')} loop passes between decisions")
        if self.findings:
            out.append(f"  findings: {len(self.findings)}")
            for f in self.findings:
                out.append(f"    {f.rule}: {f.kind}  ({f.where})  hit in {f.hits:,} games")
                out.append(f"        {f.message}")
                how = "shrunk to" if f.shrunk else "shortest found:"
                check = "" if f.replays else "  (does not replay: please report)"
                out.append(f"        {how} {_n(len(f.actions), 'action')} ({_n(f.decisions, 'decision')}){check}")
                out.append(f"        {_actions_text(f.actions)}")
        else:
            out.append("  no findings")
        out.append(f"  coverage: {self.reached} of {self.blocks} blocks reached")
        for blk in self.never_reached:
            out.append(f"    never reached: {blk['kind']} {blk['name']}  ({blk['where']})")
        return "\n".join(out)


def _n(k, word) -> str:
    return f"{k:,} {word}" + ("" if k == 1 else "s")


def _actions_text(actions, limit=12) -> str:
    if not actions:
        return "(no actions: it happens before the first decision)"
    parts = []
    for actor, move in actions[:limit]:
        if actor == CHANCE:
            parts.append(f"chance {move}")
        else:
            parts.append(f"P{actor + 1} {' '.join(str(x) for x in move)}")
    more = f" ... (+{len(actions) - limit})" if len(actions) > limit else ""
    return "; ".join(parts) + more


# ---------------------------------------------------------------------------- playing one game

class _Runner:
    """Plays games whose every choice comes from a `draw(n) -> index` function."""

    def __init__(self, game: Game):
        self.game = game
        self.initial = game.new_initial_state(coverage=True)
        self.n_pieces = len(game.pieces)

    def play(self, draw, on_action=None):
        """Returns (state, actions, finding) where finding is (rule, kind, where, message) or None."""
        game = self.game
        s = self.initial.clone()
        s.fired = dict(self.initial.fired or {})
        actions = []
        try:
            if s.is_terminal():
                return s, actions, _dead(s)
            broken = self._broken(s)
            if broken:
                return s, actions, broken
            while True:
                if game.is_chance(s):
                    n = game.chance_outcomes(s)
                    k = draw(n) if n > 1 else 0
                    actions.append([CHANCE, k])
                    game.apply(s, k, CHANCE, validate=False)
                else:
                    decision = game.decision(s)
                    if decision is None:
                        break
                    p, moves = decision
                    move = moves[_pick(moves, draw)] if len(moves) > 1 else moves[0]
                    actions.append([int(p), [plain(x) for x in move]])
                    game.apply(s, move, p, validate=False)
                if on_action is not None:
                    on_action()
                broken = self._broken(s)
                if broken:
                    return s, actions, broken
                if s.is_terminal():
                    break
        except (_Hit, _Stop):
            raise
        except Exception as err:         # a bug in the engine, reported rather than raised
            if type(err).__name__ == "StopTest":        # Hypothesis ran out of data: not ours
                raise
            return s, actions, ("engine", "engine error", f"{game.path}:0:0", f"{type(err).__name__}: {err}")
        return s, actions, _dead(s)

    def _broken(self, s):
        """The engine-level invariant: every piece is in exactly one zone, where `loc` says."""
        total = 0
        loc = s.loc
        for zi, z in enumerate(s.zones):
            total += len(z)
            for p in z:
                if loc[p] != zi:
                    return ("engine", "pieces not conserved", f"{self.game.path}:0:0",
                            f"piece {int(p)} is in {self.game.zone_names[zi]} but its location says "
                            f"{self.game.zone_names[loc[p]]}")
        if total != self.n_pieces:
            return ("engine", "pieces not conserved", f"{self.game.path}:0:0",
                    f"{total} pieces in the zones, {self.n_pieces} in the game")
        return None


def _pick(moves, draw) -> int:
    """Two draws: which option (by name, in the order offered), then which of its moves.
    Shrinking then turns a raise into a call by changing one small number, and deleting a
    whole decision deletes a whole pair of draws."""
    names = []
    first = {}
    for i, m in enumerate(moves):
        if m[0] not in first:
            first[m[0]] = i
            names.append(m[0])
    if len(names) == 1:
        return draw(len(moves))
    name = names[draw(len(names))]
    start = first[name]
    end = start
    while end < len(moves) and moves[end][0] == name:
        end += 1
    if any(m[0] == name for m in moves[end:]):          # options interleaved: index them all
        idx = [i for i, m in enumerate(moves) if m[0] == name]
        return idx[draw(len(idx))] if len(idx) > 1 else idx[0]
    return start + (draw(end - start) if end - start > 1 else 0)


def _dead(s):
    d = s.dead_end
    return (d.rule, d.kind, d.where, d.message) if d is not None else None


def _drawer(data, prefix=PREFIX):
    """draw(n): an index in range(n), from Hypothesis data for the first `prefix` draws,
    then from a Random seeded by one more drawn number (so long games fit Hypothesis's budget)."""
    integer = _integers(data)
    count = [0]
    tail = []
    drawn = []

    def draw(n):
        count[0] += 1
        if count[0] <= prefix:
            v = integer(n)
        else:
            if not tail:
                tail.append(random.Random(integer(2 ** 32)))
            v = tail[0].randrange(n)
        drawn.append(v)
        return v
    return draw, drawn


def _through_draw(data):
    """integer(n) through `data.draw`, Hypothesis's public way: what `_integers` stands for."""
    from hypothesis import strategies as st
    return lambda n: data.draw(st.integers(0, n - 1))


_STRATEGIES: dict = {}      # n -> st.integers(0, n - 1), unwrapped: its label is worked out once


def _integers(data):
    """integer(n): a number in range(n) drawn from Hypothesis data as `data.draw(st.integers(0,
    n - 1))` draws it: the same choice, in a span of its own under the strategy's label, so the
    same games are generated and shrunk. It leaves out what `data.draw` adds for a test's
    reader (a note of each draw, a timer, checks of the strategy), a fifth to a quarter of
    fuzz's time. Where this Hypothesis has no such parts, through `data.draw` itself."""
    from hypothesis import strategies as st
    found = getattr(data, "conjecture_data", None)
    if not (hasattr(found, "start_span") and hasattr(found, "stop_span")):
        return _through_draw(data)

    def integer(n):
        strategy = _STRATEGIES.get(n)
        if strategy is None:
            strategy = st.integers(0, n - 1)
            while hasattr(strategy, "wrapped_strategy"):        # as ConjectureData.draw unwraps it
                strategy = strategy.wrapped_strategy
            if len(_STRATEGIES) > 10_000:
                _STRATEGIES.clear()
            _STRATEGIES[n] = strategy
        found.start_span(strategy.label)
        try:
            return strategy.do_draw(found)
        finally:
            found.stop_span()
    return integer


def _settings(max_examples, shrink):
    from hypothesis import HealthCheck, Phase, Verbosity, settings
    return settings(max_examples=max_examples, database=None, derandomize=False, deadline=None,
                    phases=[Phase.generate, Phase.shrink] if shrink else [Phase.generate],
                    suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
                    verbosity=Verbosity.quiet, print_blob=False)


def _batch_seed(seed: int, batch: int) -> int:
    return (seed * 1_000_003 + batch) % (2 ** 63)


def _run_hypothesis(test_body, batch_seed, max_examples, shrink):
    """Run test_body(data) as a Hypothesis test; return the exception it ended with, if any."""
    from hypothesis import given, seed as hseed
    from hypothesis import strategies as st

    @hseed(batch_seed)
    @_settings(max_examples, shrink)
    @given(st.data())
    def test(data):
        test_body(data)

    with warnings.catch_warnings(), _fuzzing_hypothesis():
        warnings.simplefilter("ignore")
        try:
            test()
        except _Stop:
            return None
        except BaseException as err:        # the failure Hypothesis found (or its report of it)
            if isinstance(err, (KeyboardInterrupt, SystemExit)):
                raise
            return err
    return None


_PATCH_LOCK = threading.Lock()
_patched = [0, {}]         # fuzz runs under way in this process; (module, name) -> Hypothesis's own


class _fuzzing_hypothesis:
    """Two of Hypothesis's habits set aside while fuzzing. Counted, because fuzz runs share a
    process under Dask; where a Hypothesis has no such part, it is left as it is.

    - (6.131 on) It now and then draws a constant found in the source of the modules loaded so
      far. Which modules are loaded differs between the command line, a library call and a
      worker process, so the same seed would generate other games there: the pool is emptied.
    - Each interactive draw copies Python's global random state before and after (625 numbers,
      twice), to warn when a strategy uses it: a third of fuzz's time. The only strategy fuzz
      draws from is `integers`, which never does, so the check is skipped; what is drawn is the
      same. (Only where fuzz draws through `data.draw`: see `_integers`.)"""

    def __enter__(self):
        with _PATCH_LOCK:
            if _patched[0] == 0:
                for module, name, stand_in in _stand_ins():
                    _patched[1][(module, name)] = getattr(module, name)
                    setattr(module, name, stand_in)
                _constants_cleared()
            _patched[0] += 1
        return self

    def __exit__(self, *exc):
        with _PATCH_LOCK:
            if _patched[0] == 0:
                return False
            _patched[0] -= 1
            if _patched[0] == 0:
                for (module, name), own in _patched[1].items():
                    setattr(module, name, own)
                _patched[1].clear()
                _constants_cleared()
        return False


def _stand_ins() -> list:
    """(module, name, stand-in) for each part of this Hypothesis that fuzzing sets aside."""
    out = []
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants
    except ImportError:             # a Hypothesis without the pool
        pass
    else:
        if hasattr(providers, "_get_local_constants"):
            none = Constants()
            out.append((providers, "_get_local_constants", lambda: none))
    try:
        from hypothesis.strategies._internal import core
    except ImportError:
        pass
    else:
        if hasattr(core, "deprecate_random_in_strategy"):
            out.append((core, "deprecate_random_in_strategy", _unchecked))
    return out


@contextlib.contextmanager
def _unchecked(*args):
    yield


def _constants_cleared():
    try:
        from hypothesis.internal.conjecture import providers
        providers.CONSTANTS_CACHE.cache.clear()
    except (ImportError, AttributeError):
        pass


# ---------------------------------------------------------------------------- the run

class _Discovery:
    """What the discover phase has seen: findings, coverage, outcomes. A batch of games can
    be discovered apart (in a worker) and merged in batch order with the same result."""

    def __init__(self, players: int, examples: int = 0):
        self.findings: dict = {}
        self.reached: set = set()
        self.outcome = {"wins": [0] * players, "shared": 0, "no_winner": 0, "dead_ends": 0}
        self.examples = examples            # the index of the next game
        self.actions = 0                    # played in all (the discover pace, for Pool.grows)
        self.stopped_because = ""

    def out_of_time(self, until, batches: int) -> bool:
        """Whether the discover phase has reached its deadline `until` (None: none), with at least
        one batch run: then it stops, for max_time."""
        if until is None or batches == 0 or time.monotonic() < until:
            return False
        self.stopped_because = "max_time"
        return True

    def run_batch(self, runner: _Runner, seed: int, batch: int, size: int, progress=None, total=None) -> bool:
        """Generate one batch of games; False when the run must stop after it."""
        def record(data):
            draw, drawn = _drawer(data)
            s, actions, found = runner.play(draw)
            self.record(self.examples, batch, s, actions, drawn, found)
            self.examples += 1
            if progress is not None:
                progress("discover", self.examples, total)

        before = self.examples
        err = _run_hypothesis(record, _batch_seed(seed, batch), size, shrink=False)
        if err is not None:                 # e.g. every generated game overran Hypothesis's budget
            self.stopped_because = f"Hypothesis stopped: {type(err).__name__}"
        elif self.examples - before < size:     # Hypothesis generated every distinct game there is
            self.stopped_because = "every distinct game generated"
        return not self.stopped_because

    def record(self, i: int, batch: int, s, actions, drawn, found) -> None:
        self.actions += len(actions)
        if s.fired:
            self.reached.update(s.fired)
        if found is not None:
            rule, kind, where, message = found
            f = self.findings.get((rule, kind))
            if f is None:
                f = self.findings[(rule, kind)] = Finding(kind, rule, where, message, first_example=i,
                                                          actions=actions, batch=batch, _draws=list(drawn))
            elif (len(actions), drawn) < (len(f.actions), f._draws):
                f.actions = actions
                f._draws = list(drawn)
                f.batch = batch
                f.where, f.message = where, message     # reported where the kept game ends
            f.hits += 1
            if s.dead_end is not None:
                self.outcome["dead_ends"] += 1
        elif s.outcome is not None:
            w = s.outcome
            if len(w) == 1:
                self.outcome["wins"][int(w[0])] += 1
            elif w:
                self.outcome["shared"] += 1
            else:
                self.outcome["no_winner"] += 1

    def merge(self, later: "_Discovery") -> None:
        """Add a later batch: the same as recording its games here one by one."""
        for key, g in later.findings.items():
            f = self.findings.get(key)
            if f is None:
                self.findings[key] = g
                continue
            if (len(g.actions), g._draws) < (len(f.actions), f._draws):
                f.actions, f._draws, f.batch, f.where, f.message = g.actions, g._draws, g.batch, g.where, g.message
            f.hits += g.hits
        self.reached |= later.reached
        self.actions += later.actions
        self.outcome["wins"] = [a + b for a, b in zip(self.outcome["wins"], later.outcome["wins"])]
        for k in ("shared", "no_winner", "dead_ends"):
            self.outcome[k] += later.outcome[k]
        self.examples = later.examples
        self.stopped_because = later.stopped_because


def _discover_batch(task) -> _Discovery:
    """In a worker: one discover batch, its game indices counted from `first`."""
    from .batches import played
    portable, seed, batch, size, first = task
    found = _Discovery(portable.players, first)
    found.run_batch(_runner_of(portable.game()), seed, batch, size, lambda *_: played())
    return found


_RUNNERS: dict = {}


def _runner_of(game: Game) -> _Runner:
    """One runner per compiled game in a worker process (its initial state is worked out once)."""
    runner = _RUNNERS.get(id(game))
    if runner is None or runner.game is not game:
        _RUNNERS.clear()
        runner = _RUNNERS[id(game)] = _Runner(game)
    return runner


def fuzz(game: Game, *, max_examples: Optional[int] = None, max_time: Optional[float] = None,
         seed: int = 0, progress: Optional[Callable[[str, int, Optional[int]], None]] = None,
         pool=None) -> FuzzReport:
    """Fuzz `game` with Hypothesis; see the module docstring.

    max_examples: games to generate in the discover phase (default 1000 when max_time is
    not given either). max_time: seconds for the whole run (discovery gets 70%).
    progress(phase, done, total): phase "discover" after every game (total: max_examples,
    or None when the run is bounded by time), then "shrink" before the first finding and after
    every one (total: the number of findings). pool: a batches.Pool for the discover phase,
    batch by batch, and for shrinking, a finding a task when there are two or more (with
    max_examples the report is the same without it).
    """
    t0 = time.monotonic()
    if max_examples is None and max_time is None:
        max_examples = DEFAULT_EXAMPLES
    runner = _Runner(game)
    report = FuzzReport(game.name, game.path, game.n, seed)
    report.bounds = {"max_decisions": game.max_moves, "max_decisions_from": game.max_moves_from,
                     "max_loop_passes": game.max_passes,
                     "max_loop_passes_from": "10 x max steps, counted between two decisions",
                     "hypothesis_actions": PREFIX}
    discover_until = None if max_time is None else t0 + max_time * DISCOVER_SHARE
    seen, batches = _Discovery(game.n), 0
    while not (pool is not None and pool.parallel):
        size = BATCH if max_examples is None else min(BATCH, max_examples - seen.examples)
        if size <= 0:
            break
        if seen.out_of_time(discover_until, batches):
            break
        now = time.monotonic()
        if pool is not None and batches > 0:
            left = min(discover_until - now if discover_until is not None else math.inf,
                       (max_examples - seen.examples) * (now - t0) / seen.examples if max_examples else math.inf)
            pool.grows(now - t0, left)      # an auto pool takes the batches left (the loop ends)
            if pool.parallel:
                break
        going = seen.run_batch(runner, seed, batches, size, progress, max_examples)
        batches += 1
        if not going:
            break
    if pool is not None and pool.parallel and not seen.stopped_because:
        batches = _discover_split(game, pool, seed, max_examples, discover_until, progress, seen, batches)
    report.examples = seen.examples
    report.batches = batches
    report.stopped_because = seen.stopped_because
    report.discover_seconds = time.monotonic() - t0
    findings, reached, outcome = seen.findings, seen.reached, seen.outcome

    # shrink every finding, in a stable order: on the pool's workers, a task each, once it has
    # them (with --workers auto: once the run has taken a second, if the findings left could take
    # more than two seconds to shrink, each SHRINK_BUDGET actions at most at the discover pace)
    ordered = [findings[k] for k in sorted(findings)]
    deadline = None if max_time is None else t0 + max_time
    if progress is not None and ordered:
        progress("shrink", 0, len(ordered))
    pace = report.discover_seconds / seen.actions if seen.actions else 0.0
    for n, f in enumerate(ordered):
        left = len(ordered) - n
        if pool is not None and left > 1 and (
                pool.parallel or pool.grows(time.monotonic() - t0, left * SHRINK_BUDGET * pace)):
            ordered[n:], runs = _shrink_split(game, pool, ordered[n:], seed, deadline, progress, n, len(ordered))
            report.shrink_runs += runs
            break
        report.shrink_runs += _shrunk(runner, f, seed, deadline)
        if progress is not None:
            progress("shrink", n + 1, len(ordered))
    report.findings = ordered

    report.blocks = block_count(game)
    never = never_reached(game, reached)
    report.never_reached = never
    report.reached = report.blocks - len(never)
    report.outcomes = {"games": report.examples,
                       "wins_by_seat": {str(i + 1): w for i, w in enumerate(outcome["wins"])},
                       "shared": outcome["shared"], "no_winner": outcome["no_winner"],
                       "dead_ends": outcome["dead_ends"]}
    report.elapsed = time.monotonic() - t0
    return report


def _discover_split(game: Game, pool, seed: int, max_examples, discover_until, progress, seen, batches) -> int:
    """The discover phase from batch `batches` on (those before it are in `seen`), in waves of
    batches across the pool, merged in batch order up to the first batch that ends the run. With
    max_time, a wave of one batch per worker starts only before the deadline. The batches run in all."""
    from .batches import Portable
    portable = Portable(game.rules, game.n)
    while not seen.stopped_because:
        if seen.out_of_time(discover_until, batches):
            break
        if max_examples is not None:
            sizes = [min(BATCH, max_examples - first) for first in range(seen.examples, max_examples, BATCH)]
            if discover_until is not None:
                sizes = sizes[:pool.size]
        else:
            sizes = [BATCH] * pool.size
        if not sizes:
            break
        tasks = [(portable, seed, batches + k, size, seen.examples + k * BATCH) for k, size in enumerate(sizes)]
        told = _counting(progress, "discover", seen.examples, max_examples)
        for part in pool.map(_discover_batch, tasks, told, sizes):
            seen.merge(part)
            batches += 1
            if seen.stopped_because:
                break
    return batches


def _counting(progress, phase: str, done: int, total):
    """Pool.map's progress(n) as fuzz's progress(phase, done, total), counting on from `done`;
    None without a progress."""
    if progress is None:
        return None
    count = [done]

    def told(n):
        count[0] += n
        progress(phase, count[0], total)
    return told


def _shrink_split(game: Game, pool, findings: list, seed: int, deadline, progress, done: int, total: int) -> tuple:
    """The findings shrunk on the pool, a task each, as `_shrunk` shrinks them here: the same
    findings (each shrinks from its own batch's seed), and the games played in all. `done` of
    the run's `total` findings are shrunk already."""
    from .batches import Portable
    portable = Portable(game.rules, game.n)
    until = None if deadline is None else time.time() + (deadline - time.monotonic())
    parts = pool.map(_shrink_batch, [(portable, f, seed, until) for f in findings],
                     _counting(progress, "shrink", done, total), [1] * len(findings))
    return [f for f, _ in parts], sum(runs for _, runs in parts)


def _shrink_batch(task) -> tuple:
    """In a worker: one finding shrunk (`until`: the deadline on the wall clock, which the
    processes of a machine share), and the games that took."""
    portable, f, seed, until = task
    deadline = None if until is None else time.monotonic() + (until - time.time())
    runs = _shrunk(_runner_of(portable.game()), f, seed, deadline)
    return f, runs


def _shrunk(runner: _Runner, f: Finding, seed: int, deadline) -> int:
    """f shrunk, and whether its reproduction replays; the games that took."""
    runs = _shrink(runner, f, seed, deadline)
    f.replays = _replays(runner, f)
    return runs


def _shrink(runner: _Runner, f: Finding, seed: int, deadline) -> int:
    """Let Hypothesis shrink a game that reaches finding f. Returns the games played."""
    target = f.key
    longest = len(f.actions)    # the shortest game found so far: only games this short fail
    best = [None]           # (length, draws, actions)
    work = [0]
    calls = [0]

    def body(data):
        if work[0] >= SHRINK_BUDGET or (deadline is not None and time.monotonic() >= deadline):
            raise _Stop()
        calls[0] += 1
        draw, drawn = _drawer(data)

        def count():
            work[0] += 1
        s, actions, found = runner.play(draw, count)
        if found is not None and (found[0], found[1]) == target and len(actions) <= longest:
            cand = (len(actions), list(drawn), actions, found)
            if best[0] is None or cand[:2] < best[0][:2]:
                best[0] = cand
            raise _Hit()

    _run_hypothesis(body, _batch_seed(seed, f.batch), BATCH, shrink=True)
    if best[0] is not None and (best[0][0], best[0][1]) <= (len(f.actions), f._draws):
        f.actions = best[0][2]
        f.where, f.message = best[0][3][2], best[0][3][3]
        f.shrunk = True
    return calls[0]


def _replays(runner: _Runner, f: Finding) -> bool:
    """Running the reproduction with dsl.replay reaches the same finding."""
    from .replay import ReplayError, run
    broken = []

    def check(s):
        if not broken:
            b = runner._broken(s)
            if b:
                broken.append(b)
    try:
        s = run(runner.game, f.actions, log=False, on_state=check)
    except ReplayError:
        return False
    except Exception as err:
        return f.kind == "engine error" and f"{type(err).__name__}: {err}" == f.message
    if f.rule == "engine":
        return bool(broken) and broken[0][1] == f.kind
    d = s.dead_end
    return d is not None and (d.rule, d.kind) == f.key


def source_blocks(game: Game) -> dict:
    """The coverage ids of each block of the rule files, by (kind, name, path, line, column),
    in the order compiled. A rule is compiled once for every place that does it, so one block
    of the file may have several ids; it is reached when any of them is."""
    blocks: dict = {}
    for cov, (kind, name, span) in enumerate(game.block_names):
        blocks.setdefault((kind, name, game.rules.path_of(span), span.line, span.column), []).append(cov)
    return blocks


def block_count(game: Game) -> int:
    """The blocks and triggers of the rule files that coverage counts."""
    return len(source_blocks(game)) + len(game.triggers)


def never_reached(game: Game, reached: set) -> list:
    """The blocks of the rule files (and triggers) no coverage id of which is in `reached` (keys
    of State.fired), in source order."""
    out = []
    for (kind, name, path, line, column), ids in source_blocks(game).items():
        if not any(cov in reached for cov in ids):
            out.append(((path, line, column), {"kind": kind, "name": name, "where": f"{path}:{line}:{column}"}))
    for t, *_ in game.triggers:
        if ("trigger", t.name) not in reached:
            out.append(((game.rules.path_of(t.span), t.span.line, t.span.column), {"kind": "trigger", "name": t.name,
                                                       "where": f"{game.rules.path_of(t.span)}:{t.span.line}:{t.span.column}"}))
    out.sort(key=lambda b: (b[0], b[1]["kind"], b[1]["name"]))
    return [b for _, b in out]
