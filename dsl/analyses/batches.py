"""Many cores and clusters: a run's games split into batches of consecutive indices, played
in worker processes (or on a Dask cluster) and merged back in index order.

Game i of a run with seed S draws from its own `game_rng(S, i)`, and a fuzz batch from its
own Hypothesis seed, so which process plays a game changes nothing in it. Each batch returns
a running summary of its games (a `metrics.Tally`, a `match.MatchTally`: whole counts, exact
sums, histograms of whole values; and the shortest example of each dead end), never their
logs, and the parts are merged in batch order: counts and exact sums added, histograms added,
ties between examples go to the earlier game. Every figure is then computed from the merged
summary exactly as one process computes it from its own, so the output is byte-identical for
any number of workers, and memory does not grow with the number of games. (Partial float
sums per batch would not be exact: float addition depends on its order.)

A worker gets picklable inputs only (the parsed rules, the player count, the seed, the
index range, the agents, the score's name) and compiles the game itself, once per process.
Dask is imported only when a scheduler address is given. May import the engine only.

With `--workers auto` (Pool(None), the commands' default) a run starts in this process, and
once it has run a second and has more than two seconds of games left, the games left go to a
process per core (`play_all`, `Pool.grows`); the pool stays that size for the rest of the
command. Which process plays a game still changes nothing.
"""
from __future__ import annotations

import hashlib
import math
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
from contextlib import contextmanager
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Callable, Optional

BATCHES_PER_WORKER = 4      # more batches than workers, so a slow batch does not leave the others idle
DASK_MIN_GAMES = 100        # without a measured game: a Dask task costs a few milliseconds
DASK_MIN_SEARCHED = 10      # games where an agent searches (flat:N, ismcts:N) take ten times as long or more
DASK_BATCH_SECONDS = 2.0    # a Dask batch plays this long at least: its few ms of overhead are well under 1%
MOST_BATCH_SECONDS = 60.0   # and at most this long, so progress moves and a lost worker loses little
CALIBRATE_SECONDS = 0.25    # before a Dask run splits, games are played here this long to time one
CONNECT_SECONDS = 10
AUTO_AFTER_SECONDS = 1.0    # --workers auto: a run shorter than this never starts processes
AUTO_REST_SECONDS = 2.0     # ... nor one with less than this left to play (a process starts in about 0.2 s)
TICK_SECONDS = 0.25         # how often a worker tells the progress bar the games it has played


class PoolError(Exception):
    """A scheduler that cannot be reached (or Dask is missing); the message says which."""


class Stopped(Exception):
    """Ctrl-C asked a run to stop (`stoppable`): raised between two games or two batches, never
    inside one, so what was merged so far is whole: the figures of the games played so far."""


_stop_asked = False


@contextmanager
def stoppable():
    """Within: the first Ctrl-C asks the run to stop at the next clean point (a game played here
    or a batch merged), where `Stopped` is raised; a second one interrupts at once, as usual.
    Outside the main thread (where no signal handler can be set) nothing changes."""
    global _stop_asked
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def asked(signum, frame):
        global _stop_asked
        _stop_asked = True
        signal.signal(signal.SIGINT, signal.default_int_handler)
    before = signal.signal(signal.SIGINT, asked)
    _stop_asked = False
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
        _stop_asked = False


_interrupted = False


@contextmanager
def interrupts_kept():
    """Within: Ctrl-C raises KeyboardInterrupt as usual, and is remembered, so none is lost. One
    that lands in a garbage collector's callback (a __del__, a weakref's finaliser) is printed as
    'Exception ignored' and dropped by Python, and code not ours (Hypothesis) may catch it: it is
    raised again at the next `raise_if_interrupted` (between two games) and as the block ends.
    Outside the main thread nothing changes."""
    global _interrupted
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupted(signum, frame):
        global _interrupted
        _interrupted = True
        raise KeyboardInterrupt
    before = signal.signal(signal.SIGINT, interrupted)
    _interrupted = False
    try:
        yield
        raise_if_interrupted()
    finally:
        signal.signal(signal.SIGINT, before)
        _interrupted = False


def raise_if_interrupted() -> None:
    """KeyboardInterrupt again for a Ctrl-C that was dropped (`interrupts_kept`)."""
    if _interrupted:
        raise KeyboardInterrupt


def stop_if_asked() -> None:
    if _stop_asked:
        raise Stopped()


def stop_asked() -> bool:
    return _stop_asked


def until_stopped(items, run: Callable, partial: Callable) -> tuple[list, bool]:
    """run(item) (a call that plays games, as `simulate`) for each item, one after another until
    Ctrl-C (`stoppable`) stops one: the results of those finished, then the stopped one's when
    it played a game (partial(result) says so; one stopped before its first game raises
    Stopped); and whether it was stopped. So a stopped run's results are of its first games."""
    done = []
    for item in items:
        try:
            done.append(run(item))
        except Stopped:
            return done, True
        if partial(done[-1]):
            return done, True
    return done, False


class Pool:
    """Where batches run: worker processes on this machine, or a Dask cluster.

    Use as a context manager; the processes (or the connection) start on first use and
    end with the block."""

    def __init__(self, workers: Optional[int] = 1, scheduler: Optional[str] = None):
        self.auto = workers is None     # --workers auto: this process, until a run proves long
        self.workers = workers or 1
        self.scheduler = scheduler
        self.size = self.workers        # batches that run at once (a cluster's threads, once connected)
        self._executor = None
        self._heard = None              # the workers' ticks (`played`)
        self._stopping = None           # the event that asks the workers' batches to stop
        self._client = None
        self._maps = 0                  # map calls so far: a late tick of an earlier one is not counted again

    @property
    def parallel(self) -> bool:
        return self.scheduler is not None or self.workers > 1

    def __enter__(self):
        if self.scheduler:
            self._client = connect(self.scheduler)
            self.size = max(1, sum(self._client.nthreads().values()))
        return self

    def __exit__(self, exc_type, *exc):
        if self._executor is not None:
            if exc_type is not None:
                self.stop()
            else:
                self._executor.shutdown(cancel_futures=True)
        if self._client is not None:
            self._client.close()
        return False

    def stop(self) -> None:
        """Ctrl-C or an error: the batches running or queued are of no use, and would keep the
        command waiting for them. The processes end now; a cluster drops the tasks nobody waits
        for. A later run starts new processes."""
        if self._executor is not None:
            for process in list((self._executor._processes or {}).values()):
                process.terminate()
            self._executor.shutdown(cancel_futures=True)
            self._executor = None

    def grows(self, seconds: float, left: float) -> bool:
        """With --workers auto: whether a run that has played `seconds`, with about `left`
        seconds of games to go in this process, gives them to a process per core (and the pool
        stays that size)."""
        if not self.auto or self.parallel or seconds < AUTO_AFTER_SECONDS or left < AUTO_REST_SECONDS:
            return False
        cores = usable_cores()
        if cores < 2:
            return False
        try:
            self._executor, self._heard, self._stopping = _processes(cores)
        except (OSError, NotImplementedError, ImportError):    # a system without worker processes: stay here
            self.auto = False
            return False
        self.workers = self.size = cores
        return True

    def split(self, total: int, agents=(), start: int = 0, per_game: Optional[float] = None) -> list[range]:
        """Consecutive index ranges covering range(start, total): about BATCHES_PER_WORKER per
        worker; on Dask each DASK_BATCH_SECONDS or more of play, at `per_game` seconds a game
        (when measured; else DASK_MIN_GAMES, or DASK_MIN_SEARCHED games when `agents` may search),
        and at most MOST_BATCH_SECONDS (the last one may be shorter)."""
        size = max((total - start) // (self.size * BATCHES_PER_WORKER), 1)
        if self.scheduler:
            if per_game:
                size = max(size, math.ceil(DASK_BATCH_SECONDS / per_game))
            else:
                searching = any(a is not None and getattr(a, "name", "") != "random" for a in agents or ())
                size = max(size, DASK_MIN_SEARCHED if searching else DASK_MIN_GAMES)
        if per_game:
            size = min(size, max(1, int(MOST_BATCH_SECONDS / per_game)))
        return [range(a, min(a + size, total)) for a in range(start, total, size)]

    def map(self, fn: Callable, tasks: list, progress: Optional[Callable[[int], None]] = None,
            sizes: Optional[list] = None) -> list:
        """fn(task) for every task, in the workers; the results in the order of `tasks`."""
        return list(self.in_order(fn, tasks, progress, sizes))

    def in_order(self, fn: Callable, tasks: list, progress: Optional[Callable[[int], None]] = None,
                 sizes: Optional[list] = None):
        """fn(task) for every task, in the workers, yielded in the order of `tasks` as soon as each
        and those before it are back: the caller merges them as they come, and only results that
        came back early wait here (memory bounded by the batches running, not by the run).
        progress(n), in this process, with the games played since it was last called: as the
        local workers play them (about every TICK_SECONDS, through `played`) and as each task,
        of sizes[i] games, finishes."""
        sizes = sizes or [0] * len(tasks)
        early, following = {}, 0        # results back before those ahead of them; the next to yield
        if self._client is not None:
            from distributed import as_completed
            futures = self._client.map(fn, tasks, pure=False)
            index = {f.key: i for i, f in enumerate(futures)}
            arriving = as_completed(futures, loop=self._client.loop)
            del futures                 # a result is let go on the cluster once it is here
            while not arriving.is_empty():
                stop_if_asked()         # the batches running are dropped: they hold a minute of play at most
                ready = arriving.next_batch(block=False)
                if not ready:
                    time.sleep(TICK_SECONDS / 5)
                    continue
                for f in ready:
                    i = index[f.key]
                    early[i] = f.result()
                    if progress is not None:
                        progress(sizes[i])
                del ready, f
                while following in early:
                    yield early.pop(following)
                    following += 1
            return
        if self._executor is None:
            self._executor, self._heard, self._stopping = _processes(self.workers)
        self._maps += 1
        futures = {self._executor.submit(_batch, fn, t, (self._maps, i)): i for i, t in enumerate(tasks)}
        told = [0] * len(tasks)         # games of each task already given to progress; None once it is done
        pending = set(futures)
        stopping = False
        cut = None                      # once stopping: the first task that may have stopped short
        while pending:
            raise_if_interrupted()
            if _stop_asked and not stopping:
                # each batch returns the games it has played (`played`), a prefix of its range
                stopping = True
                self._stopping.set()
            ready, pending = wait(pending, timeout=TICK_SECONDS, return_when=FIRST_COMPLETED)
            while not self._heard.empty():
                (run, i), n = self._heard.get()
                if run == self._maps and told[i] is not None and progress is not None:
                    told[i] += n
                    progress(n)
            for f in ready:
                i = futures.pop(f)
                early[i] = f.result()
                if stopping:            # a stopped batch played less
                    cut = i if cut is None else min(cut, i)
                elif progress is not None and sizes[i] > told[i]:
                    progress(sizes[i] - told[i])
                told[i] = None
            while following in early and (cut is None or following <= cut):
                yield early.pop(following)
                following += 1
        if stopping:
            # the tasks up to the first that may have stopped short are merged, those after it not:
            # the figures are of the run's first games, the same as a whole run of that many
            self._stopping.clear()
            raise Stopped()


def _processes(workers: int) -> tuple:
    """Worker processes, the queue each tells the games it plays to (`played`), and the event
    that asks their batches to stop (Ctrl-C)."""
    ticks, stopping = multiprocessing.SimpleQueue(), multiprocessing.Event()
    # forked here (not through a fork server), from the main thread, which lives as long as the command
    here = multiprocessing.get_start_method() == "fork"
    parent = os.getpid() if here else None
    watched = here and threading.current_thread() is threading.main_thread()
    return (ProcessPoolExecutor(workers, initializer=_worker_started, initargs=(ticks, stopping, parent, watched)),
            ticks, stopping)


def _worker_started(ticks, stopping, parent: Optional[int] = None, by_main_thread: bool = False):
    """Ctrl-C reaches every process of the terminal: a worker leaves it to the command, which
    stops the workers (Pool.__exit__), so no batch is cut off at a random place and reported.
    SIGTERM, which the command sends to stop them, ends a worker whatever handler the command
    had for it when the worker was forked. A command killed outright (kill -9, the OOM killer)
    runs none of that: the worker ends by itself (`_ends_with`)."""
    global _ticks, _stopping
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _ticks, _stopping = ticks, stopping
    _ends_with(parent, by_main_thread)


PARENT_POLL_SECONDS = 0.5


def _ends_with(parent: Optional[int], by_main_thread: bool) -> None:
    """This worker ends when the process that started it does (the command, or the fork server
    that died with it), however it ended: otherwise it would play its batches to the end, a core
    busy for nobody. On Linux the kernel kills it (PR_SET_PDEATHSIG), where the thread that forked
    it is the main one (the signal comes when that thread ends); and everywhere a thread looks
    every PARENT_POLL_SECONDS whether it has been handed to another parent, which also covers a
    command that died before the signal was set (`parent`: the command's pid, when it forked
    this worker itself)."""
    if by_main_thread:
        _parent_death_signal()
    if parent is not None and os.getppid() != parent:
        os._exit(1)
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(1)
    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _parent_death_signal() -> None:
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)      # PR_SET_PDEATHSIG
    except (OSError, AttributeError):               # no libc to be found: the thread alone
        pass


# In a worker process: where it tells the games it plays, whether to stop, for which batch, how
# many not yet told, since when
_ticks = None
_stopping = None
_playing = None
_untold = 0
_told_at = 0.0


def _batch(fn, task, key):
    global _playing, _untold, _told_at
    _playing, _untold, _told_at = key, 0, time.monotonic()
    return fn(task)


def played(games: int = 1) -> bool:
    """A batch's loop, in a worker, has played more games: the command's progress bar hears of
    them about every TICK_SECONDS (Pool.map), not only when the batch ends. True when the
    command asks the batches to stop (Ctrl-C): the loop then returns what it has played so far.
    Elsewhere (this process, a Dask worker) nothing, and False."""
    global _untold, _told_at
    if _ticks is None:
        return False
    _untold += games
    now = time.monotonic()
    if now - _told_at >= TICK_SECONDS:
        _ticks.put((_playing, _untold))
        _untold, _told_at = 0, now
    return _stopping.is_set()


def play_all(pool: Optional[Pool], game, total: int, here: Callable[[int], None], batch: Callable,
             task: Callable, merge: Callable, progress: Optional[Callable[[int], None]] = None, agents=()) -> bool:
    """Games 0 to total - 1, where `pool` says: here(i) plays game i in this process until every
    game is played or the pool (of workers from the start, or auto and grown) takes the rest in
    batches, batch(task(portable, indices)) in its workers (which call `played` for each game),
    progress(n) here as they play; merge(result) for each batch in index order, as soon as it
    can be. Whether Ctrl-C stopped the run (`stoppable`): then what was played here and merged
    is the run's first games, and the batches still running are dropped."""
    try:
        first, clock = 0, time.perf_counter()
        if pool is None or not pool.parallel:
            first = played_here(pool, total, here)
            if first == total:
                return False
        elif pool.scheduler:
            first = timed_here(total, here)
        per_game = (time.perf_counter() - clock) / first if first else None
        portable = Portable(game.rules, game.n)
        ranges = pool.split(total, agents, first, per_game)
        for part in pool.in_order(batch, [task(portable, r) for r in ranges], progress, [len(r) for r in ranges]):
            merge(part)
    except Stopped:
        if pool is not None:
            pool.stop()
        return True
    return False


def timed_here(total: int, play: Callable[[int], None]) -> int:
    """play(i) for the first games of a Dask run, here, for CALIBRATE_SECONDS (and one game at
    least, a hundredth of the run at most): the time a game takes sizes the batches. How many."""
    clock, i = time.perf_counter(), 0
    while i < max(1, total // 100) and (i == 0 or time.perf_counter() - clock < CALIBRATE_SECONDS):
        stop_if_asked()
        play(i)
        i += 1
    return i


def played_here(pool: Optional[Pool], total: int, play: Callable[[int], None]) -> int:
    """play(i) for games 0, 1, ... of `total` in this process, until they are all played or an
    auto pool grows to take the rest (Pool.grows); how many were played here."""
    clock = time.perf_counter()
    auto = pool is not None and pool.auto
    for i in range(total):
        if auto and i:
            seconds = time.perf_counter() - clock
            if pool.grows(seconds, (total - i) * seconds / i):
                return i
        stop_if_asked()
        play(i)
    return total


def usable_cores() -> int:
    """The CPUs this process may run on (a CPU quota, such as docker --cpus, is not seen), at most
    61: the most worker processes Windows allows."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:                      # not on every system
        cores = os.cpu_count() or 1
    return min(cores, 61)


def connect(address: str):
    """A Dask client of the scheduler at `address`, or PoolError saying why not."""
    try:
        from distributed import Client
        from distributed.comm import resolve_address
    except ImportError:
        raise PoolError("--scheduler needs Dask: pip install 'dask[distributed]'") from None
    hint = "start one with 'dask scheduler' and give the address it prints, e.g. tcp://HOST:8786"
    try:
        # a malformed address is refused here: a Client half-made from one hangs on exit
        resolved = resolve_address(address)
    except (OSError, ValueError) as e:
        raise PoolError(f"'{address}' cannot be a Dask scheduler's address ({_first_line(e)}); {hint}") from None
    try:
        client = Client(resolved, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError) as e:
        raise PoolError(f"no Dask scheduler answers at {address} ({_first_line(e)}); {hint}") from None
    try:
        client.wait_for_workers(1, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError):
        client.close()
        raise PoolError(f"the Dask scheduler at {address} has no workers after {CONNECT_SECONDS} s; "
                        f"start them with 'dask worker {address}' on machines with this playtest") from None
    return client


def _first_line(e: Exception) -> str:
    return str(e).splitlines()[0] if str(e) else type(e).__name__


class Portable:
    """A game as a worker rebuilds it: the parsed rules (pickled once) and the player count."""

    def __init__(self, rules, players: int):
        self.blob = pickle.dumps(rules, protocol=pickle.HIGHEST_PROTOCOL)
        self.key = (hashlib.sha256(self.blob).hexdigest(), players)
        self.players = players

    def game(self):
        """The compiled game, compiled once per worker process."""
        game = _GAMES.get(self.key)
        if game is None:
            from ..engine import Game
            if len(_GAMES) >= 16:            # a sweep compiles one game per combination
                _GAMES.clear()
            game = _GAMES[self.key] = Game(pickle.loads(self.blob), self.players)
        return game


_GAMES: dict = {}
