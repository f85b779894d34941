"""Playing a game from Hypothesis data: every decision and chance outcome is an index drawn
from it (so a game is a choice sequence Hypothesis can shrink), the Hypothesis runs themselves,
and the two habits of Hypothesis set aside while fuzzing."""
from __future__ import annotations

import contextlib
import random
import threading
import warnings

from ..engine import CHANCE, Game
from ..engine.values import plain

PREFIX = 1000                   # actions drawn from Hypothesis data; the rest of a longer game from a drawn seed


class Hit(Exception):
    """The game reached the finding being shrunk (a test failure for Hypothesis)."""


class Stop(BaseException):
    """Out of budget: end the Hypothesis run at once (not a test failure)."""


class Runner:
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
        except (Hit, Stop):
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


def drawer(data, prefix=PREFIX):
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


def batch_seed(seed: int, batch: int) -> int:
    return (seed * 1_000_003 + batch) % (2 ** 63)


def run_hypothesis(test_body, batch_seed, max_examples, shrink):
    """Run test_body(data) as a Hypothesis test; return the exception it ended with, if any."""
    from hypothesis import given, seed as hseed
    from hypothesis import strategies as st
    from .batches import raise_if_interrupted

    @hseed(batch_seed)
    @_settings(max_examples, shrink)
    @given(st.data())
    def test(data):
        raise_if_interrupted()              # a Ctrl-C dropped inside Hypothesis: raised again between two games
        test_body(data)

    with warnings.catch_warnings(), _fuzzing_hypothesis():
        warnings.simplefilter("ignore")
        try:
            test()
        except Stop:
            return None
        except BaseException as err:        # the failure Hypothesis found (or its report of it)
            raise_if_interrupted()
            if isinstance(err, (KeyboardInterrupt, SystemExit)):
                raise
            return err
    raise_if_interrupted()
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
