"""Reading a rule file: parse, then check. Errors stop here with every diagnostic."""
from __future__ import annotations

from . import syntax as S
from .checker import check
from .diagnostics import Diagnostic, RuleFileError
from .parser import parse_file


def load(path: str) -> tuple[S.RuleFile, list[Diagnostic]]:
    """Parse and check; raises RuleFileError if there is any error, returns warnings otherwise."""
    rules = parse_file(path)
    diagnostics = check(rules)
    if any(d.severity == "error" for d in diagnostics):
        raise RuleFileError(diagnostics, rules.source)
    return rules, diagnostics
