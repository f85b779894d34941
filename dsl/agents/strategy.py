"""Strategies the rule file declares, as agents: `strategy:NAME` in `--agents`, and the rollout
policy of IS-MCTS (`ismcts:200/NAME`).

A strategy is found in the game's own file, or in `strategies/GAME.rules` beside `games/`
(a file that starts `strategies for GAME`). It is checked with the game (a strategy that
reads what its player cannot see is refused: dsl/constructs/strategy.py) and compiled once
per game.

No peeking, twice over: the checker refuses a condition that reads hidden contents, and the
agent evaluates its conditions on a state dealt again from its player's observation (the
Determinizer), so what it does depends on what the player sees and the rng alone. In an
IS-MCTS rollout the state already is such a deal, and the policy reads it as it is.

May import the engine, the language, the loader's pieces and .infoset.
"""
from __future__ import annotations

import os
import random

from ..constructs.registry import hook
from ..language import syntax as S
from ..language.diagnostics import RuleFileError
from ..variants.strategies import beside, joined
from .infoset import Determinizer


class StrategyError(ValueError):
    """A strategy that is not declared, or whose file does not check: the run stops, saying why."""


def declared(game) -> dict:
    """Name -> Strategy of every strategy for this game: its own file's, else those in the file
    beside it (checked with the game); StrategyError when that file has errors."""
    return _found(game)[0]


def rules_with_strategies(game) -> S.RuleFile:
    """The game's rules with its strategies declared in them: what the Voice reads them from."""
    return _found(game)[1]


def _found(game) -> tuple:
    cache = game.__dict__.get("_declared_strategies")
    if cache is not None:
        return cache
    rules = game.rules
    path = beside(game.path)
    if not rules.of(S.Strategy) and not rules.of(S.StrategiesFor) and os.path.isfile(path):   # not joined yet
        from ..language.checker import check
        from ..language.parser import parse_file
        try:
            rules = joined(game.rules, parse_file(path))
        except RuleFileError as e:
            raise StrategyError(_told(e, path)) from None
        errors = [d for d in check(rules) if d.severity == "error"]
        if errors:
            raise StrategyError(_told(RuleFileError(errors, dict(rules.sources)), path))
    found = game.__dict__["_declared_strategies"] = ({d.name: d for d in rules.of(S.Strategy)}, rules)
    return found


def _told(e: RuleFileError, path: str) -> str:
    return f"the strategies in {path} do not check:\n" + "\n".join(
        d.format(e.source_for(d.span.file or d.path)) for d in e.diagnostics)


def policy(game, name: str):
    """The compiled strategy `name` of this game (constructs/strategy.Policy)."""
    policies = game.__dict__.setdefault("_strategy_policies", {})
    if name not in policies:
        found = declared(game)
        d = found.get(name)
        if d is None:
            known = ", ".join(sorted(found)) or f"none (declare them in the game or in {beside(game.path)})"
            raise StrategyError(f"the game '{game.name}' declares no strategy '{name}'; its strategies: {known}")
        policies[name] = hook(d, "compile")(game, d)
    return policies[name]


# A preference that reads a board's spaces is worked out anew for each option: a decision costs
# options x spaces readings, a few microseconds each (a 1,000 x 3 grid's first move: 9 million,
# half a minute; a 4,300 x 3 grid's: 166 million). Past this many (a few seconds), the strategy is
# refused at that decision, saying why. A 30 x 30 board's first move is 810,000.
MOST_READINGS = 1_000_000


def _spaces_read(game, name: str) -> int:
    """The spaces strategy `name`'s preferences read for each option they weigh: every space of
    each board they name in spaces(...) or all(...) (an upper bound: a filter may skip some)."""
    found = game.__dict__.setdefault("_strategy_spaces", {})
    if name not in found:
        boards = set()

        def walk(node):
            if isinstance(node, (list, tuple)):
                for x in node:
                    walk(x)
                return
            if not hasattr(node, "__dataclass_fields__"):
                return
            if getattr(node, "fn", None) in ("spaces", "all") and getattr(node, "args", None):
                board = getattr(node.args[0], "id", None)
                if board in game.board_sizes:
                    boards.add(board)
            for field in node.__dataclass_fields__:
                if field != "span":
                    walk(getattr(node, field))
        walk(declared(game)[name].prefs)
        found[name] = sum(w * h for w, h in (game.board_sizes[b] for b in boards))
    return found[name]


def bounded(game, name: str, moves) -> None:
    """StrategyError when weighing these moves would take more than MOST_READINGS readings."""
    readings = len(moves) * _spaces_read(game, name)
    if readings > MOST_READINGS:
        raise StrategyError(
            f"the strategy '{name}' would read {_spaces_read(game, name):,} spaces for each of {len(moves):,} "
            f"options, {readings:,} readings for one decision (at most {MOST_READINGS:,}): a preference that looks at "
            f"every space is weighed anew for every option; on a board this large, prefer options by what they "
            f"name themselves (e.g. `prefer take where row(square) = 1`), or play it with random or ismcts:N")


class DeclaredMix:
    """Rollouts that play the way the game's own strategies do: each decision of an imagined
    game is the move of one declared strategy, drawn at random, or (a share `explore` of the
    time, and in a game that declares none) a random move. Imagined opponents who call a bid
    past what the dice make likely punish it, which uniformly random ones hardly ever do."""
    strategy = "declared"

    def __init__(self, explore: float = 0.1):
        self.explore = explore

    def rollout(self, game, s, player, moves, rng):
        try:
            names = sorted(declared(game))
        except StrategyError:
            names = []
        if not names or rng.random() < self.explore:
            return rng.choice(moves)
        return policy(game, names[rng.randrange(len(names))]).choose(s, player, moves, rng)

    def candidates(self, game, det, player, moves, rng, deals: int = 4, spread: int = 1) -> set | None:
        """The moves worth searching at a decision with many: each declared strategy's move over a
        few deals of what the player cannot see, and `spread` random other(s) so the search can still
        find what no strategy suggests; None (search them all) in a game that declares none."""
        try:
            names = sorted(declared(game))
        except StrategyError:
            return None
        if not names or len(moves) <= len(names) * deals + spread:
            return None
        out = set()
        for name in names:
            for _ in range(deals):
                out.add(tuple(policy(game, name).choose(det.sample(rng), player, moves, rng)))
        out.update(tuple(m) for m in rng.sample(moves, spread))
        return out


class StrategyAgent:
    """A declared strategy in a seat. It reads a state dealt again from its seat's observation."""

    def __init__(self, strategy: str):
        self.strategy = strategy
        self.name = f"strategy:{strategy}"

    def act(self, state, player, rng: random.Random, moves=None):
        game = state.game
        if moves is None:
            moves = game.legal_moves(state.clone(), player)
        chosen = policy(game, self.strategy)
        bounded(game, self.strategy, moves)
        seen = Determinizer(game, state, player).sample(rng)
        return chosen.choose(seen, player, moves, rng)

    def rollout(self, game, s, player, moves, rng):
        """A move in an imagined game, which is already dealt from the searcher's view."""
        chosen = policy(game, self.strategy)
        bounded(game, self.strategy, moves)
        return chosen.choose(s, player, moves, rng)


def ready(agents, game) -> None:
    """Find and compile every strategy these agents play (a seat's, or a search's rollouts)
    before the first game, so a wrong name stops the run at once (StrategyError)."""
    for agent in agents or ():
        for a in (agent, getattr(agent, "rollout", None)):
            if isinstance(a, StrategyAgent):
                policy(game, a.strategy)
