"""Mutation fuzzing of whole rule files: stacked edits of the seed games, their files of
strategies and their variants (many keep the file checkable), huge numbers, deep nesting, long
texts and stray characters; each mutant is checked as `check` reads it (a file of strategies
joined to its game, a variant applied to it), and each checkable one is played briefly, under
a time and memory bound (a game with strategies, by its strategies too).

A run counts tracebacks (any exception but a RuleFileError from loading or a RuleError from
compiling: a MissingHook, a construct asked for a hook it lacks, is one) and runs over the
bound. `make mutate` runs 10,000 mutants (scripts/mutate.py); tests/test_mutants.py runs a
slice of the same mutants in seconds.
"""
from __future__ import annotations

import glob
import os
import random
import re
import signal
import tempfile
import traceback
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SECONDS = 10                    # per mutant: check, compile, two games, a small search, a replay
MEMORY = 2 * 1024 ** 3          # per worker process

# How often each game is the base: the small games more often, as checking the large ones
# takes ten times as long (every game is mutated; the README gives the figures). A file of
# strategies is checked with its whole game, so it is mutated as often as a large game; there
# are many variants, each mutated half as often.
WEIGHTS = {"games/bluff.rules": 3, "games/tictactoe.rules": 3, "games/democracy.rules": 2}
FOLDER_WEIGHTS = {"variants": 0.5}

_TOKEN = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|\d+")
_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_STRAY = list("\t\r\x0b\x0c\x1b\x00\x85\u2028\ufeff\"'#()[]:=<>-|,.「」　")


def sources() -> dict:
    """games/NAME.rules, strategies/NAME.rules and variants/NAME.rules -> text: every file a
    mutant is made from."""
    out = {}
    for folder in ("games", "strategies", "variants"):
        for path in sorted(glob.glob(os.path.join(ROOT, folder, "*.rules"))):
            with open(path, encoding="utf-8") as f:
                out[f"{folder}/{os.path.basename(path)}"] = f.read()
    return out


def _huge(rng):
    return rng.choice(["0", "1", "2", "7", "1000000", "1000001", "99999999", "1" + "0" * rng.randint(7, 5000)])


def _depth(rng):
    return rng.choice([1, 3, 20, 40, 59, 61, 200, 600])


def edit(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    kind = rng.choice(["number", "word", "delete", "duplicate", "swap", "wrap", "sum", "nest_if",
                       "stray", "long_text", "indent"])
    if kind == "number":
        spots = list(_NUMBER.finditer(text))
        if spots:
            m = rng.choice(spots)
            return text[:m.start()] + _huge(rng) + text[m.end():]
    if kind == "word":
        spots = list(_TOKEN.finditer(text))
        words = sorted({m.group() for m in spots})
        m = rng.choice(spots)
        return text[:m.start()] + rng.choice(words) + text[m.end():]
    if kind == "wrap":                          # deep nesting around a number or a name
        spots = list(_TOKEN.finditer(text))
        m = rng.choice(spots)
        d = _depth(rng)
        left, right = rng.choice([("-(", ")"), ("(", ")"), ("[", "]"), ("not ", ""), ("-", "")])
        return text[:m.start()] + left * d + m.group() + right * d + text[m.end():]
    if kind == "sum":
        spots = list(_NUMBER.finditer(text))
        if spots:
            m = rng.choice(spots)
            return text[:m.start()] + " + ".join([m.group()] + ["0"] * _depth(rng)) + text[m.end():]
    if kind == "nest_if":                       # a statement inside many `if`s
        i = rng.randrange(len(lines))
        line = lines[i]
        lead = len(line) - len(line.lstrip(" "))
        if lead >= 4 and line.strip():
            d = _depth(rng)
            head = [" " * (lead + 2 * k) + "if true" for k in range(d)]
            return "\n".join(lines[:i] + head + [" " * (2 * d) + line] + lines[i + 1:])
    if kind == "long_text":
        spots = list(_STRING.finditer(text))
        if spots:
            m = rng.choice(spots)
            return text[:m.start()] + '"' + "x" * rng.choice([10, 9_999, 10_001, 200_000]) + '"' + text[m.end():]
    if kind == "delete":
        i = rng.randrange(len(lines))
        return "\n".join(lines[:i] + lines[i + 1:])
    if kind == "duplicate":
        i = rng.randrange(len(lines))
        return "\n".join(lines[:i + 1] + [lines[i]] + lines[i + 1:])
    if kind == "swap":
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines)
    if kind == "indent":
        i = rng.randrange(len(lines))
        lines[i] = rng.choice(["  ", " ", "\t", ""]) + (lines[i].lstrip() if rng.random() < 0.5 else lines[i])
        return "\n".join(lines)
    i = rng.randrange(len(text) + 1)
    return text[:i] + "".join(rng.choice(_STRAY) for _ in range(rng.randint(1, 3))) + text[i:]


class _Overtime(BaseException):
    pass


def _overtime(signum, frame):
    raise _Overtime()


@dataclass
class Tally:
    mutants: int = 0
    checkable: int = 0
    played: int = 0
    tracebacks: int = 0
    over_bound: int = 0
    failures: list = field(default_factory=list)        # (index, what, detail)

    def add(self, other: "Tally"):
        for k in ("mutants", "checkable", "played", "tracebacks", "over_bound"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.failures += other.failures


def mutant(i: int, base: dict, seed: int = 1) -> tuple[str, str]:
    """The i-th mutant: (file it comes from, as games/NAME.rules, strategies/NAME.rules or
    variants/NAME.rules, text). Stacked edits; one edit in five is kept only if the file still checks, which keeps
    about half the mutants checkable (checking is most of the cost, so not every edit is checked)."""
    rng = random.Random(seed * 1_000_003 + i)
    names = sorted(base)
    name = rng.choices(names, [WEIGHTS.get(n, FOLDER_WEIGHTS.get(n.split("/")[0], 1)) for n in names])[0]
    text = base[name]
    for _ in range(rng.randint(1, 4)):
        new = edit(text, rng)
        if rng.random() < 0.2 and not _checks(name, new, base):
            continue
        text = new
    return name, text


def _checks(name, text, base) -> bool:
    from dsl.language.diagnostics import RuleFileError
    try:
        _load_text(name, text, base)
        return True
    except RuleFileError:
        return False


_last: list = [None, None]     # the text loaded last and what loading it gave: a mutant's last edit was often just checked


def _load_text(name, text, base):
    """The mutant loaded as `check` loads it: a game alone; a file of strategies joined to the
    seed game beside it; a variant applied to it, beside the variants it may build on."""
    from dsl.language.diagnostics import RuleFileError
    from dsl.loader import load
    if _last[0] != (name, text):
        with tempfile.TemporaryDirectory() as tmp:
            files = {name: text}
            if not name.startswith("games/"):
                files = {**{n: t for n, t in base.items() if not n.startswith("strategies/")}, **files}
            for rel, body in files.items():
                os.makedirs(os.path.join(tmp, os.path.dirname(rel)), exist_ok=True)
                with open(os.path.join(tmp, rel), "w", encoding="utf-8", newline="") as f:
                    f.write(body)
            try:
                _last[:] = [(name, text), load(os.path.join(tmp, name))[0]]
            except RuleFileError as e:
                _last[:] = [(name, text), e]
    if isinstance(_last[1], RuleFileError):
        raise _last[1]
    return _last[1]


def try_one(i: int, base: dict, seed: int = 1) -> Tally:
    """Make, check and play mutant i under the bounds."""
    from dsl.analyses import replay
    from dsl.analyses.explore import explore
    from dsl.analyses.simulate import game_rng, play_random
    from dsl.engine import Game, RuleError
    from dsl.language.diagnostics import RuleFileError
    t = Tally(mutants=1)
    old = signal.signal(signal.SIGALRM, _overtime)
    signal.setitimer(signal.ITIMER_REAL, SECONDS)
    stage = "making"
    try:
        name, text = mutant(i, base, seed)
        stage = "checking"
        try:
            rules = _load_text(name, text, base)
        except RuleFileError as e:
            for d in e.diagnostics:
                d.format(e.source_for(d.path))              # printing a diagnostic never fails
            return t
        t.checkable = 1
        stage = "compiling"
        try:
            game = Game(rules, rules.game.min_players)
        except RuleError:
            return t
        stage = "playing"
        played = [play_random(game, game_rng(seed, k), k) for k in range(2)]
        replay.run(game, played[0].actions, log=True)
        explore(game, max_states=100)
        stage = "playing the strategies"
        _play_strategies(game, seed)
        t.played = 1
    except _Overtime:
        t.over_bound = 1
        t.failures.append((i, f"over {SECONDS} s while {stage}", ""))
    except MemoryError:
        t.over_bound = 1
        t.failures.append((i, f"out of memory while {stage}", ""))
    except Exception as e:
        t.tracebacks = 1
        t.failures.append((i, f"{type(e).__name__} while {stage}", traceback.format_exc(limit=-8)))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    return t


def _play_strategies(game, seed):
    """One game with a declared strategy in every seat, each strategy in turn (none: nothing)."""
    from dsl.agents.play import play
    from dsl.agents.strategy import StrategyAgent, StrategyError, declared
    from dsl.analyses.simulate import game_rng
    try:
        names = sorted(declared(game))
    except StrategyError:           # the game beside a file of strategies checks; its strategies did not
        return
    if names:
        play(game, [StrategyAgent(names[k % len(names)]) for k in range(game.n)], game_rng(seed, 2), record=False)


def bound_memory():
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
