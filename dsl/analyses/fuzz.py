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
- `can go on forever`: a game stopped by that bound had come back to a state it had been in,
  so the same choices can take it round again and no bound holds its length; its
  reproduction is the step limit's cut at the first state seen twice, the shortest history
  of that game that repeats;
- a broken engine invariant: `pieces not conserved` (every piece in exactly one zone);
- `engine error`: the engine raised a Python exception (a bug in playtest, not in the rules).

Findings are deduplicated by (rule, kind). Coverage lists the rules, steps, options,
cases, `if` branches and triggers no generated game reached.

With max_examples the report is deterministic: the same seed gives byte-identical JSON.
With max_time, discovery stops at 70% of it (in whole batches of 100 games) and the report
says how many examples ran; pass that number as max_examples to repeat the run exactly.
"""
from __future__ import annotations

import math
import time
from typing import Callable, Optional

from ..engine import Game
from .fuzz_drawing import PREFIX, Hit, Runner, Stop, batch_seed, drawer, run_hypothesis
from ..engine.order import state_keyer
from .fuzz_findings import FOREVER, Finding, FuzzReport, block_count, never_reached

BATCH = 100                     # generated games per Hypothesis run in the discover phase
SHRINK_BUDGET = 200_000         # actions played while shrinking one finding (deterministic work bound)
DEFAULT_EXAMPLES = 1000
DISCOVER_SHARE = 0.7            # of max_time; shrinking gets the rest (and stops at max_time)


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

    def run_batch(self, runner: Runner, seed: int, batch: int, size: int, progress=None, total=None) -> bool:
        """Generate one batch of games; False when the run must stop after it."""
        def record(data):
            draw, drawn = drawer(data)
            s, actions, found = runner.play(draw)
            self.record(self.examples, batch, s, actions, drawn, found)
            self.examples += 1
            if progress is not None:
                progress("discover", self.examples, total)

        before = self.examples
        err = run_hypothesis(record, batch_seed(seed, batch), size, shrink=False)
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


def _runner_of(game: Game) -> Runner:
    """One runner per compiled game in a worker process (its initial state is worked out once)."""
    runner = _RUNNERS.get(id(game))
    if runner is None or runner.game is not game:
        _RUNNERS.clear()
        runner = _RUNNERS[id(game)] = Runner(game)
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
    runner = Runner(game)
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
    loops = [g for g in (_forever(game, f) for f in ordered if f.kind == "step limit") if g is not None]
    report.findings = sorted(ordered + loops, key=lambda f: f.key)

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


def _shrunk(runner: Runner, f: Finding, seed: int, deadline) -> int:
    """f shrunk, and whether its reproduction replays; the games that took."""
    runs = _shrink(runner, f, seed, deadline)
    f.replays = _replays(runner, f)
    return runs


def _shrink(runner: Runner, f: Finding, seed: int, deadline) -> int:
    """Let Hypothesis shrink a game that reaches finding f. Returns the games played."""
    target = f.key
    longest = len(f.actions)    # the shortest game found so far: only games this short fail
    best = [None]           # (length, draws, actions)
    work = [0]
    calls = [0]

    def body(data):
        if work[0] >= SHRINK_BUDGET or (deadline is not None and time.monotonic() >= deadline):
            raise Stop()
        calls[0] += 1
        draw, drawn = drawer(data)

        def count():
            work[0] += 1
        s, actions, found = runner.play(draw, count)
        if found is not None and (found[0], found[1]) == target and len(actions) <= longest:
            cand = (len(actions), list(drawn), actions, found)
            if best[0] is None or cand[:2] < best[0][:2]:
                best[0] = cand
            raise Hit()

    run_hypothesis(body, batch_seed(seed, f.batch), BATCH, shrink=True)
    if best[0] is not None and (best[0][0], best[0][1]) <= (len(f.actions), f._draws):
        f.actions = best[0][2]
        f.where, f.message = best[0][3][2], best[0][3][3]
        f.shrunk = True
    return calls[0]


def _forever(game: Game, f: Finding) -> Optional[Finding]:
    """The step limit's game cut where it first comes back to a state it has been in (the
    states explore tells apart), as a finding of its own; None when it never does."""
    from .replay import ReplayError, run
    key = state_keyer(game)
    first: dict = {}
    back = []

    def note(s):
        n = len(first) + len(back)
        if back or n > len(f.actions):
            return
        k = key(s)
        if k in first:
            back.append((n, first[k]))
        else:
            first[k] = n
    try:
        run(game, f.actions, log=False, on_state=note)
    except ReplayError:
        return None
    if not back:
        return None
    length, earlier = back[0]
    return Finding(FOREVER, f.rule, f.where,
                   f"after {length} actions play is back in the state it was in after {earlier}: "
                   "the same choices can go round again, so no bound holds the game's length",
                   hits=f.hits, first_example=f.first_example, actions=f.actions[:length],
                   shrunk=f.shrunk, replays=True, batch=f.batch)


def _replays(runner: Runner, f: Finding) -> bool:
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
