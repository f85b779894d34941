"""Reading a game: parse, apply variant overlays, then check. Errors stop here with every diagnostic."""
from __future__ import annotations

import os

from .variants import overlay
from .language import syntax as S
from .language.checker import check
from .language.diagnostics import Diagnostic, RuleFileError
from .language.parser import parse_file


def load(path: str, variants: tuple[str, ...] | list[str] = (), strategies_beside: bool = False
         ) -> tuple[S.RuleFile, list[Diagnostic]]:
    """Parse, apply the variants in order and check; raises RuleFileError if there is any error.

    A variant file given as `path` stands for its base game with that variant applied; a file
    of strategies (`strategies for GAME`), for its game with those strategies declared. With
    `strategies_beside`, a game that declares no strategies is checked with the file of
    strategies beside it (strategies/GAME.rules), where the agents find them.
    """
    rules = parse_file(path)
    strategies = None
    if rules.of(S.StrategiesFor):
        from .variants.strategies import game_path
        strategies, rules = rules, parse_file(game_path(rules))
    if overlay.head(rules) is not None:
        variants = [path, *variants]
        rules = parse_file(overlay.find_base(rules))
    if strategies is None and strategies_beside and not rules.of(S.Strategy):
        from .variants.strategies import beside
        found = beside(rules.path)
        if os.path.isfile(found):
            strategies = parse_file(found if os.path.isabs(rules.path) else os.path.relpath(found))
    return checked(rules, overlay.stack(list(variants)), strategies)


def checked(game: S.RuleFile, variants: list[S.RuleFile], strategies: S.RuleFile | None = None
            ) -> tuple[S.RuleFile, list[Diagnostic]]:
    """Parsed trees applied in order and checked: what `load` does once the files are read."""
    merged = overlay.apply(game, variants)
    if strategies is not None:
        from .variants.strategies import joined
        merged = joined(merged, strategies)
    diagnostics = check(merged)
    if any(d.severity == "error" for d in diagnostics):
        raise RuleFileError(diagnostics, dict(merged.sources) or {merged.path: merged.source})
    return merged, diagnostics

